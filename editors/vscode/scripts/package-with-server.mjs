// Builds a platform-specific .vsix that carries its own ppn-ls, for the platform this runs
// on: the extension starts it when "ppn.server.path" is left empty, so the .vsix works
// with nothing else installed.
//
//   node scripts/package-with-server.mjs                  # cargo build --release, then package
//   node scripts/package-with-server.mjs --server PATH    # package the given ppn-ls binary
//   ... --out FILE                                        # default: ppn-<target>.vsix
//
// The binary is copied to server/ for the duration of the packaging and removed after.

import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readmeLinkArguments } from './readme-links.mjs';

const extensionRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repositoryRoot = resolve(extensionRoot, '..', '..');

function fail(message) {
  console.error(`package-with-server: ${message}`);
  process.exit(2);
}

function parseArguments(argv) {
  const options = { server: undefined, out: undefined };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    if (argument === '--server' || argument === '--out') {
      const value = argv[++i];
      if (value === undefined) {
        fail(`${argument} needs a value`);
      }
      options[argument.slice(2)] = resolve(value);
    } else {
      fail(`unknown argument ${argument}; usage: package-with-server.mjs [--server PATH] [--out FILE]`);
    }
  }
  return options;
}

/** The Marketplace's name for this platform (`vsce package --target`). */
function vsceTarget() {
  const arch = { x64: 'x64', arm64: 'arm64', arm: 'armhf' }[process.arch];
  if (arch === undefined) {
    fail(`no VS Code target for the ${process.arch} architecture`);
  }
  switch (process.platform) {
    case 'win32':
      return `win32-${arch}`;
    case 'darwin':
      return `darwin-${arch}`;
    case 'linux': {
      // A binary linked against musl runs on Alpine, which VS Code names apart.
      const glibc = process.report?.getReport().header.glibcVersionRuntime;
      return `${glibc === undefined ? 'alpine' : 'linux'}-${arch}`;
    }
    default:
      return fail(`no VS Code target for ${process.platform}`);
  }
}

const options = parseArguments(process.argv.slice(2));
const executableName = process.platform === 'win32' ? 'ppn-ls.exe' : 'ppn-ls';
let server = options.server;
if (server === undefined) {
  console.log('Building ppn-ls (release) ...');
  execFileSync('cargo', ['build', '--release', '--locked', '-p', 'ppn-ls'], { cwd: repositoryRoot, stdio: 'inherit' });
  server = join(repositoryRoot, 'target', 'release', executableName);
}
if (!existsSync(server)) {
  fail(`no ppn-ls binary at ${server}`);
}

const target = vsceTarget();
const out = options.out ?? join(extensionRoot, `ppn-${target}.vsix`);
const bundleDirectory = join(extensionRoot, 'server');
rmSync(bundleDirectory, { recursive: true, force: true });
mkdirSync(bundleDirectory);
try {
  const bundled = join(bundleDirectory, executableName);
  copyFileSync(server, bundled);
  chmodSync(bundled, 0o755);
  const vsce = join(extensionRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  const packageArguments = ['package', '--allow-missing-repository', ...readmeLinkArguments(process.env, JSON.parse(readFileSync(join(extensionRoot, 'package.json'), 'utf8'))), '--target', target, '--out', out];
  execFileSync(process.execPath, [vsce, ...packageArguments], {
    cwd: extensionRoot,
    stdio: 'inherit',
  });
} finally {
  rmSync(bundleDirectory, { recursive: true, force: true });
}
console.log(`${out}: ppn-ls for ${target}, from ${server}`);
