// The rules of what a .vsix may hold (scripts/package-contents.mjs), on lists of files
// such as `vsce ls` prints.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { auditPackage, extensionPath, REQUIRED_FILES, runtimePackageFolders } from '../../scripts/package-contents.mjs';

const lockfile = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8'));
const folders = runtimePackageFolders(lockfile);

test('the runtime packages are the lockfile\'s packages that are not for development', () => {
  assert.ok(folders.includes('node_modules/vscode-languageclient'));
  assert.ok(folders.includes('node_modules/vscode-languageclient/node_modules/minimatch'));
  assert.ok(!folders.includes('node_modules/typescript'));
  assert.ok(!folders.includes('node_modules/@vscode/vsce'));
});

test('what a user needs passes', () => {
  const files = [...REQUIRED_FILES, 'out/src/boardPanel.js', 'server/ppn-ls', 'node_modules/vscode-jsonrpc/LICENSE.txt',
    'node_modules/vscode-languageclient/lib/node/terminateProcess.sh', 'node_modules/semver/package.json'];
  assert.deepEqual(auditPackage(files, folders), { unneeded: [], missing: [] });
});

test('sources, tests, maps, declarations, scripts and development packages are flagged', () => {
  const files = [
    ...REQUIRED_FILES,
    'src/extension.ts',
    'out/src/extension.js.map',
    'out/test/unit/extension.test.js',
    'test/grammar/moves.test.ppn',
    'scripts/build-grammar.mjs',
    'tsconfig.json',
    'package-lock.json',
    'images/icon.svg',
    'node_modules/typescript/lib/tsc.js',
    'node_modules/@types/vscode/index.d.ts',
    'node_modules/vscode-jsonrpc/lib/common/api.d.ts',
    'node_modules/vscode-jsonrpc/lib/common/api.js.map',
    'node_modules/semver/README.md',
  ];
  const { unneeded, missing } = auditPackage(files, folders);
  assert.deepEqual(missing, []);
  assert.deepEqual(
    unneeded.map(({ file }) => file),
    files.slice(REQUIRED_FILES.length),
  );
  const why = Object.fromEntries(unneeded.map(({ file, why }) => [file, why]));
  assert.equal(why['src/extension.ts'], 'source');
  assert.equal(why['out/src/extension.js.map'], 'a source map');
  assert.match(why['node_modules/typescript/lib/tsc.js'], /development dependency/);
});

test('a file the extension needs is reported missing', () => {
  const files = REQUIRED_FILES.filter((file) => file !== 'images/icon.png');
  assert.deepEqual(auditPackage(files, folders).missing, ['images/icon.png']);
});

test('.vsix entries map to the extension\'s files', () => {
  assert.equal(extensionPath('extension/out/src/extension.js'), 'out/src/extension.js');
  assert.equal(extensionPath('extension/readme.md'), 'README.md');
  assert.equal(extensionPath('extension/LICENSE.txt'), 'LICENSE');
  assert.equal(extensionPath('extension.vsixmanifest'), undefined);
  assert.equal(extensionPath('[Content_Types].xml'), undefined);
  assert.equal(extensionPath('stray.txt'), 'stray.txt');
});
