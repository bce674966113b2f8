#!/usr/bin/env bash
# The real-editor part of `npm test`: runs the code-server + Chromium suites when this machine has the
# tools (bash test/e2e/setup.sh installs them; .ci/run always does). Without them it says so and skips,
# except in CI (CI=true), where a missing tool is a failure, never a silent pass.
set -uo pipefail
cd "$(dirname "$0")/../.."
if ! why=$(bash test/e2e/setup.sh --check 2>&1); then
  if [[ "${CI:-}" == "true" ]]; then
    echo "real-editor tests cannot run in CI: $why" >&2
    exit 1
  fi
  echo "real-editor tests skipped on this machine: $why" >&2
  exit 0
fi
# With no arguments, every suite; else the files given (e.g. test/e2e/ask.e2e.ts). The config holds no spec
# glob, because mocha would add it to the files given and run everything.
if [[ $# -eq 0 ]]; then set -- 'test/e2e/*.e2e.ts'; fi
exec npx mocha --config test/e2e/.mocharc.json "$@"
