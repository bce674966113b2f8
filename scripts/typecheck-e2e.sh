#!/usr/bin/env bash
# Type-checks the real-editor tests, which import the tools test/e2e/setup.sh installs (playwright-core,
# @vscode/test-electron). Without them this says so instead of failing the whole typecheck.
set -uo pipefail
cd "$(dirname "$0")/.."
if [[ ! -d test/e2e/.tools/node_modules/playwright-core ]]; then
  echo "typecheck: test/e2e skipped (run bash test/e2e/setup.sh to install its tools)" >&2
  exit 0
fi
exec npx tsc --noEmit -p tsconfig.e2e.json
