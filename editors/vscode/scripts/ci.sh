#!/usr/bin/env bash
# Checks the VS Code extension from a clean state: install from the lockfile, grammar
# tests, type-check and unit tests, then the .vsix package. Stops at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "npm ci"
npm ci --no-audit --no-fund

step "the grammars are up to date with scripts/build-grammar.mjs and scripts/build-xiangqi-grammars.mjs"
node scripts/build-grammar.mjs --check
node scripts/build-xiangqi-grammars.mjs --check

step "TextMate grammar tests"
# A malformed assertion line can send the test tool into a very long regex search.
timeout 600 npx --no-install vscode-tmgrammar-test \
  --grammar ./syntaxes/ppn.tmLanguage.json \
  --grammar ./test/grammars/yaml-stub.tmLanguage.json \
  'test/grammar/*.test.ppn'
timeout 600 npx --no-install vscode-tmgrammar-test \
  --grammar ./syntaxes/annofen.tmLanguage.json \
  --grammar ./syntaxes/xiangqi-fen.tmLanguage.json \
  --grammar ./syntaxes/wxf.tmLanguage.json \
  --grammar ./syntaxes/xay.tmLanguage.json \
  --grammar ./syntaxes/otn.tmLanguage.json \
  'test/grammar/*.test.annofen' 'test/grammar/*.test.fen' 'test/grammar/*.test.wxf' 'test/grammar/*.test.xay' \
  'test/grammar/*.test.otg'

step "tsc (and the game viewer copied in)"
rm -rf out media
node scripts/copy-viewer.mjs
npx --no-install tsc -p .

step "unit tests"
node --test out/test/unit/

step "editor configuration tests (Neovim, Helix, VS Code manifest)"
python3 -m unittest discover -s ../../tests/editors -p 'test_*.py' -v

step "vsce package"
rm -f ppn.vsix
npx --no-install vsce package --allow-missing-repository --out ppn.vsix
python3 - <<'PY'
import sys, zipfile
names = set(zipfile.ZipFile('ppn.vsix').namelist())
needed = [
    'extension/package.json',
    'extension/language-configuration.json',
    'extension/syntaxes/ppn.tmLanguage.json',
    'extension/syntaxes/annofen.tmLanguage.json',
    'extension/syntaxes/wxf.tmLanguage.json',
    'extension/xiangqi-language-configuration.json',
    'extension/syntaxes/otn.tmLanguage.json',
    'extension/language-configuration-otn.json',
    'extension/out/src/extension.js',
    'extension/node_modules/vscode-languageclient/node.js',
    'extension/media/viewer/viewer.js',
    'extension/media/viewer/viewer.css',
]
missing = [name for name in needed if name not in names]
if missing:
    sys.exit(f'ppn.vsix lacks {missing}')
PY
echo "ppn.vsix: $(du -h ppn.vsix | cut -f1)"
