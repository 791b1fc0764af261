// Builds the plain .vsix (no ppn-ls of its own): `vsce package` with the README's links
// made right for where it runs (see readme-links.mjs). Other arguments go to vsce.
//
//   node scripts/package.mjs --out ppn.vsix

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readmeLinkArguments } from './readme-links.mjs';

const extensionRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const vsce = join(extensionRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
execFileSync(
  process.execPath,
  [vsce, 'package', '--allow-missing-repository', ...readmeLinkArguments(process.env, JSON.parse(readFileSync(join(extensionRoot, 'package.json'), 'utf8'))), ...process.argv.slice(2)],
  { cwd: extensionRoot, stdio: 'inherit' },
);
