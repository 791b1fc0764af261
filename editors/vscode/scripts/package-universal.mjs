// Builds the universal .vsix: no ppn-ls executable, and ppn-ls's WebAssembly instead. In VS
// Code for the Web its `browser` entry (added to the manifest for this package alone) (dist/web.js) runs the WebAssembly in the extension
// host; on a desktop the extension runs the ppn-ls that `ppn.server.path` names or that is
// on PATH, and the WebAssembly where there is neither. scripts/release writes it as
// ppn-ls-universal-<version>.vsix.
//
//   node scripts/package-universal.mjs [--out FILE] [--pkg DIR]
//
// --pkg names a folder that holds wasm-bindgen's output already (as scripts/build-web
// leaves it in target/web-pkg-editor: the module with the `editor` feature); without it,
// scripts/build-web is run first, so that the package never carries a stale build.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { auditPackage, extensionPath, runtimePackageFolders, zipEntryNames } from './package-contents.mjs';

const extensionRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repositoryRoot = resolve(extensionRoot, '..', '..');
const manifest = JSON.parse(readFileSync(join(extensionRoot, 'package.json'), 'utf8'));

function fail(message) {
  console.error(`package-universal: ${message}`);
  process.exit(2);
}

let out = resolve(`ppn-ls-universal-${manifest.version}.vsix`);
let pkg;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if ((argv[i] === '--out' || argv[i] === '--pkg') && argv[i + 1] !== undefined) {
    const value = resolve(argv[++i]);
    if (argv[i - 1] === '--out') out = value;
    else pkg = value;
  } else {
    fail(`unknown argument ${argv[i]}; usage: package-universal.mjs [--out FILE] [--pkg DIR]`);
  }
}

if (existsSync(join(extensionRoot, 'server'))) {
  fail(`${join(extensionRoot, 'server')} exists: the universal package carries no executable (remove it)`);
}
if (pkg === undefined) {
  execFileSync('bash', [join(repositoryRoot, 'scripts', 'build-web')], { cwd: repositoryRoot, stdio: 'inherit' });
  pkg = join(repositoryRoot, 'target', 'web-pkg-editor');
}
execFileSync(process.execPath, [join(extensionRoot, 'scripts', 'build-web-extension.mjs'), '--pkg', pkg], {
  cwd: extensionRoot,
  stdio: 'inherit',
});
// The manifest names the `browser` entry in this package only: the others have no dist/
// (vsce refuses a package whose entry is missing). `vsce package` compiles
// (vscode:prepublish) and packs; with no --target, for every platform.
mkdirSync(dirname(out), { recursive: true });
const manifestPath = join(extensionRoot, 'package.json');
const manifestText = readFileSync(manifestPath, 'utf8');
const universal = {};
for (const [key, value] of Object.entries(manifest)) {
  universal[key] = value;
  if (key === 'main') universal.browser = './dist/web.js';
}
writeFileSync(manifestPath, `${JSON.stringify(universal, null, 2)}\n`);
try {
  execFileSync(process.execPath, [join(extensionRoot, 'scripts', 'package.mjs'), '--out', out], {
    cwd: extensionRoot,
    stdio: 'inherit',
  });
} finally {
  writeFileSync(manifestPath, manifestText);
  // The other packages (packed from this folder too) carry no WebAssembly.
  rmSync(join(extensionRoot, 'dist'), { recursive: true, force: true });
}

const files = zipEntryNames(readFileSync(out)).map(extensionPath).filter((name) => name !== undefined);
const packageFolders = runtimePackageFolders(JSON.parse(readFileSync(join(extensionRoot, 'package-lock.json'), 'utf8')));
const { unneeded, missing } = auditPackage(files, packageFolders);
for (const needed of ['dist/web.js', 'dist/ppn_ls_web_bg.wasm']) {
  if (!files.includes(needed)) missing.push(needed);
}
const executables = files.filter((file) => file.startsWith('server/'));
for (const { file, why } of unneeded) console.error(`${out}: ${file}: ${why}`);
for (const file of missing) console.error(`${out}: ${file} is missing`);
for (const file of executables) console.error(`${out}: ${file}: the universal package carries no executable`);
if (unneeded.length + missing.length + executables.length > 0) {
  fail('the package is not as it should be');
}
console.log(`${out}: ${files.length} files, no executable, ppn-ls's WebAssembly for VS Code for the Web and platforms without a build`);
