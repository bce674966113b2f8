#!/bin/bash
# Bundles a tree's behaviour module and parser as the engine runs them (esbuild, like bench/explorer.bench.ts):
#   bench/explorer-ab/build.sh <tree> <out.js>
# Bundle main's tree and yours, then run them in turn with ab.sh: SPIN's rate moves with the machine's
# load, so code is compared with code, alternating.
set -e
tree=$(cd "$1" && pwd); out=$2
esbuild="$(cd "$(dirname "$0")/../.." && pwd)/node_modules/.bin/esbuild"
d=$(mktemp -d)
printf 'export * from "%s/src/sysml/behavior/index";\nexport * from "%s/src/sysml/parser";\n' "$tree" "$tree" > "$d/entry.ts"
"$esbuild" "$d/entry.ts" --bundle --platform=node --format=cjs --target=node20 --outfile="$out" --log-level=warning
rm -rf "$d"
