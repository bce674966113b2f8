#!/usr/bin/env bash
# Provisions a machine for Assay's real-editor tests (code-server + Debian Chromium + playwright-core).
# Run as root on a fresh CI machine; it is idempotent and quick on a provisioned one.
#   bash test/e2e/setup.sh           install what is missing
#   bash test/e2e/setup.sh --check   install nothing; say what is missing and exit 1 if anything is
# Recipe and reasons: ../shared/design/E2E.md.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)/.tools"  # test/e2e/.tools: package.json, lock, node_modules
check_only=false
[[ "${1:-}" == "--check" ]] && check_only=true

missing_debs=()
[[ -x /usr/bin/chromium ]] || missing_debs+=(chromium)
# The kerberos module that code-server builds needs gssapi headers.
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing_debs+=(libkrb5-dev)
command -v rg >/dev/null 2>&1 || missing_debs+=(ripgrep)

lock_sum="$(sha256sum "$here/package-lock.json" | cut -d' ' -f1)"
stamp="$here/node_modules/.assay-e2e-installed"
npm_ready=false
[[ -f "$stamp" && "$(cat "$stamp")" == "$lock_sum" && -f "$here/node_modules/code-server/out/node/entry.js" ]] && npm_ready=true

if $check_only; then
  problems=0
  if ((${#missing_debs[@]})); then echo "e2e setup: missing Debian packages: ${missing_debs[*]}"; problems=1; fi
  if ! $npm_ready; then echo "e2e setup: test/e2e/.tools/node_modules is missing or older than test/e2e/.tools/package-lock.json"; problems=1; fi
  if ((problems)); then echo "e2e setup: run (as root) bash test/e2e/setup.sh"; exit 1; fi
  echo "e2e setup: ready"
  exit 0
fi

if ((${#missing_debs[@]})); then
  if [[ "$(id -u)" != 0 ]]; then echo "e2e setup: installing ${missing_debs[*]} needs root" >&2; exit 1; fi
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing_debs[@]}"
fi

if ! $npm_ready; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  # @vscode/ripgrep (inside code-server) downloads rg from GitHub, which is unreachable: seed its cache
  # with Debian's rg under the name it looks for (ripgrep 1.15.11 wants v13.0.0-10, musl build).
  mkdir -p "$work/tmp/vscode-ripgrep-cache-1.15.11"
  tar czf "$work/tmp/vscode-ripgrep-cache-1.15.11/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" \
    -C "$(dirname "$(command -v rg)")" rg
  # unsafe_perm: code-server's postinstall refuses root otherwise; yes: node-pty's postinstall runs npx.
  TMPDIR="$work/tmp" npm_config_unsafe_perm=true npm_config_yes=true \
    npm ci --prefix "$here" --no-audit --no-fund --loglevel=error
  echo "$lock_sum" > "$stamp"
fi
echo "e2e setup: ready"
