// Builds a platform-specific .vsix that carries its own ppn-ls: the extension starts it
// when "ppn.server.path" is left empty, so the .vsix works with nothing else installed.
//
//   node scripts/package-with-server.mjs                  # cargo build --release, then package
//   node scripts/package-with-server.mjs --server PATH    # package the given ppn-ls binary
//   ... --target TARGET    # VS Code's platform (linux-x64, alpine-arm64, win32-x64, darwin-arm64,
//                          # ...); default: the one this runs on
//   ... --out FILE         # default: ppn-<target>.vsix
//
// Any platform's package can be made on any machine: the binary is named from the target
// (ppn-ls.exe for win32-*), and one built for another processor or operating system than
// the target's is refused (alpine-* also wants a binary that needs no glibc). The binary is
// copied to server/ for the duration of the packaging and removed after.

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
  const options = { server: undefined, out: undefined, target: undefined };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    if (argument === '--server' || argument === '--out' || argument === '--target') {
      const value = argv[++i];
      if (value === undefined) {
        fail(`${argument} needs a value`);
      }
      options[argument.slice(2)] = argument === '--target' ? value : resolve(value);
    } else {
      fail(
        `unknown argument ${argument}; usage: package-with-server.mjs [--target TARGET] [--server PATH] [--out FILE]`,
      );
    }
  }
  return options;
}

/** VS Code's platforms (`vsce package --target`), as [operating system, processor]. */
const VSCODE_TARGETS = {
  'win32-x64': ['windows', 'x64'],
  'win32-arm64': ['windows', 'arm64'],
  'linux-x64': ['linux', 'x64'],
  'linux-arm64': ['linux', 'arm64'],
  'linux-armhf': ['linux', 'arm'],
  'alpine-x64': ['linux', 'x64'],
  'alpine-arm64': ['linux', 'arm64'],
  'darwin-x64': ['macos', 'x64'],
  'darwin-arm64': ['macos', 'arm64'],
};

/**
 * What an executable was built for, read from its header: { os, arch } and, for ELF, the
 * program interpreter it asks for (none when statically linked).
 */
function executableKind(file) {
  const bytes = readFileSync(file);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 64 && bytes.toString('latin1', 0, 4) === '\x7fELF') {
    const arch = { 0x3e: 'x64', 0xb7: 'arm64', 0x28: 'arm' }[view.getUint16(18, true)] ?? 'unknown';
    let interpreter;
    if (bytes[4] === 2) {
      // 64-bit: the program headers, for a PT_INTERP (a dynamically linked program's loader).
      const headers = Number(view.getBigUint64(0x20, true));
      const size = view.getUint16(0x36, true);
      for (let index = 0; index < view.getUint16(0x38, true); index++) {
        const header = headers + index * size;
        if (view.getUint32(header, true) === 3) {
          const offset = Number(view.getBigUint64(header + 8, true));
          const length = Number(view.getBigUint64(header + 32, true));
          interpreter = bytes.toString('latin1', offset, offset + length).replace(/\0+$/, '');
        }
      }
    }
    return { os: 'linux', arch, interpreter };
  }
  if (bytes.length >= 64 && bytes.toString('latin1', 0, 2) === 'MZ') {
    const pe = view.getUint32(0x3c, true);
    if (pe + 6 <= bytes.length && bytes.toString('latin1', pe, pe + 4) === 'PE\0\0') {
      const arch = { 0x8664: 'x64', 0xaa64: 'arm64' }[view.getUint16(pe + 4, true)] ?? 'unknown';
      return { os: 'windows', arch };
    }
  }
  if (bytes.length >= 8 && view.getUint32(0, true) === 0xfeedfacf) {
    const arch = { 0x01000007: 'x64', 0x0100000c: 'arm64' }[view.getUint32(4, true)] ?? 'unknown';
    return { os: 'macos', arch };
  }
  return { os: 'unknown', arch: 'unknown' };
}

/** Fails unless `server` runs on VS Code's platform `target`. */
function checkServerFitsTarget(server, target) {
  const [os, arch] = VSCODE_TARGETS[target];
  const kind = executableKind(server);
  if (kind.os !== os || kind.arch !== arch) {
    fail(`${server} is a ${kind.os} ${kind.arch} executable, not one for ${target} (${os} ${arch})`);
  }
  if (target.startsWith('alpine-') && kind.interpreter !== undefined && !kind.interpreter.includes('musl')) {
    fail(`${server} needs ${kind.interpreter}, which Alpine does not have: pack a static (musl) build for ${target}`);
  }
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
const target = options.target ?? vsceTarget();
if (!(target in VSCODE_TARGETS)) {
  fail(`unknown target ${target}; VS Code's are ${Object.keys(VSCODE_TARGETS).join(', ')}`);
}
// The name the extension looks for (src/serverPath.ts): the target's, not this machine's.
const executableName = target.startsWith('win32-') ? 'ppn-ls.exe' : 'ppn-ls';
let server = options.server;
if (server === undefined) {
  if (options.target !== undefined && options.target !== vsceTarget()) {
    fail(`--target ${target} is not this machine's platform: give its ppn-ls with --server`);
  }
  console.log('Building ppn-ls (release) ...');
  execFileSync('cargo', ['build', '--release', '--locked', '-p', 'ppn-ls'], { cwd: repositoryRoot, stdio: 'inherit' });
  server = join(repositoryRoot, 'target', 'release', process.platform === 'win32' ? 'ppn-ls.exe' : 'ppn-ls');
}
if (!existsSync(server)) {
  fail(`no ppn-ls binary at ${server}`);
}
checkServerFitsTarget(server, target);

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
