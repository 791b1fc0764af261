// Fails when the .vsix would hold a file a user does not need, or lacks one it needs:
// checks what `vsce ls` lists and, with --vsix FILE, what a packaged .vsix holds (the
// platform .vsix adds its ppn-ls). Rules in package-contents.mjs.
//
//   node scripts/check-package.mjs [--vsix FILE]...

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { auditPackage, extensionPath, runtimePackageFolders, zipEntryNames } from './package-contents.mjs';

const extensionRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const packageFolders = runtimePackageFolders(JSON.parse(readFileSync(join(extensionRoot, 'package-lock.json'), 'utf8')));

function vsceList() {
  const vsce = join(extensionRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  const listed = execFileSync(process.execPath, [vsce, 'ls'], { cwd: extensionRoot, encoding: 'utf8' });
  return listed.split('\n').map((line) => line.trim()).filter(Boolean);
}

function vsixList(file) {
  return zipEntryNames(readFileSync(file)).map(extensionPath).filter((name) => name !== undefined);
}

const sources = [['vsce ls', vsceList()]];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--vsix' && argv[i + 1] !== undefined) {
    const file = resolve(argv[++i]);
    sources.push([file, vsixList(file)]);
  } else {
    console.error(`check-package: unknown argument ${argv[i]}; usage: check-package.mjs [--vsix FILE]...`);
    process.exit(2);
  }
}

let problems = 0;
for (const [source, files] of sources) {
  const { unneeded, missing } = auditPackage(files, packageFolders);
  for (const { file, why } of unneeded) {
    console.error(`${source}: ${file}: ${why}`);
  }
  for (const file of missing) {
    console.error(`${source}: ${file} is missing`);
  }
  problems += unneeded.length + missing.length;
  const own = files.filter((file) => !file.startsWith('node_modules/')).length;
  console.log(`${source}: ${files.length} files (${own} of the extension's own, ${files.length - own} of its runtime packages)`);
}
if (problems > 0) {
  console.error(`check-package: ${problems} problems; fix .vscodeignore or the build`);
  process.exit(1);
}
