#!/usr/bin/env bash
# Prints every diagnostic `assay parse` (dist/cli.js) gives on the corpus folders, with the built-in
# library names and with --library, without the timing: run before and after a change to the parser,
# the resolver or the bundle and compare (`diff`). Usage: scripts/parse-corpus-diagnostics.sh [corpus]
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:-/work/shared/corpus/sysml-release-2026-04}
for d in examples training validation library; do
  for lib in "" "--library $corpus/library"; do
    echo "== $d ${lib:+(--library)}"
    node "$root/dist/cli.js" parse "$corpus/$d" $lib | sed -E 's/, [0-9.]+ s$//'
    echo "exit ${PIPESTATUS[0]}"
  done
done
