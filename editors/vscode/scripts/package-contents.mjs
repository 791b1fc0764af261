// What a .vsix may hold: the files a user's VS Code loads, nothing else. Sources, tests,
// source maps, type declarations, build scripts and development packages only make the
// download bigger (and a source map or a test can carry paths of the build machine).
// Used by check-package.mjs; kept free of I/O so that its rules can be tested.

/** Files of the extension itself that a user needs, as globs over paths in the extension. */
const EXTENSION_FILES = [
  /^package\.json$/,
  /^README\.md$/i,
  /^CHANGELOG\.md$/i,
  /^LICENSE(\.txt)?$/,
  /^images\/icon\.png$/,
  /^(language-configuration(-otn)?|xiangqi-language-configuration|wxf-language-configuration)\.json$/,
  /^syntaxes\/[a-z-]+\.tmLanguage\.json$/,
  /^out\/src\/[A-Za-z]+\.js$/,
  /^media\/viewer\/viewer\.(js|css)$/,
  /^server\/ppn-ls(\.exe)?$/,
  // The universal package's WebAssembly build and its bundle (scripts/build-web-extension.mjs).
  /^dist\/(web\.js|ppn_ls_web_bg\.wasm)$/,
];

/** Files of a runtime package that the extension's code loads, or that must travel with it. */
const PACKAGE_FILE = /(\.js|\.json|\.sh|\/LICEN[CS]E[^/]*)$/i;

/** Files without which the .vsix does not work. */
export const REQUIRED_FILES = [
  'package.json',
  'README.md',
  'CHANGELOG.md',
  'LICENSE',
  'images/icon.png',
  'language-configuration.json',
  'language-configuration-otn.json',
  'xiangqi-language-configuration.json',
  'wxf-language-configuration.json',
  'syntaxes/ppn.tmLanguage.json',
  'syntaxes/otn.tmLanguage.json',
  'syntaxes/annofen.tmLanguage.json',
  'syntaxes/xay.tmLanguage.json',
  'syntaxes/xiangqi-fen.tmLanguage.json',
  'syntaxes/wxf.tmLanguage.json',
  'out/src/extension.js',
  'node_modules/vscode-languageclient/node.js',
  'media/viewer/viewer.js',
  'media/viewer/viewer.css',
];

/**
 * The runtime packages' folders (`node_modules/...`): those of package-lock.json's
 * `packages` that are not development-only.
 */
export function runtimePackageFolders(lockfile) {
  return Object.entries(lockfile.packages ?? {})
    .filter(([folder, entry]) => folder !== '' && folder.startsWith('node_modules/') && !entry.dev)
    .map(([folder]) => folder);
}

/** The runtime package whose file this is, the deepest folder that holds it. */
function owningPackage(file, packageFolders) {
  let owner;
  for (const folder of packageFolders) {
    if (file.startsWith(`${folder}/`) && (owner === undefined || folder.length > owner.length)) {
      owner = folder;
    }
  }
  return owner;
}

/** Why a file should not be in the package, or undefined if it belongs there. */
export function whyUnneeded(file, packageFolders) {
  if (file.startsWith('node_modules/')) {
    const owner = owningPackage(file, packageFolders);
    if (owner === undefined) {
      return 'a package the extension does not load at run time (a development dependency?)';
    }
    if (/\.map$/.test(file)) {
      return 'a source map';
    }
    if (/\.d\.[cm]?ts$|\.ts$/.test(file)) {
      return 'TypeScript source or declarations';
    }
    return PACKAGE_FILE.test(file) ? undefined : `not code or a licence of ${owner}`;
  }
  if (EXTENSION_FILES.some((pattern) => pattern.test(file))) {
    return undefined;
  }
  if (/\.map$/.test(file)) {
    return 'a source map';
  }
  if (/\.ts$/.test(file) || file.startsWith('src/')) {
    return 'source';
  }
  if (file.startsWith('test/') || file.startsWith('out/test/')) {
    return 'a test';
  }
  if (file.startsWith('scripts/')) {
    return 'a build script';
  }
  return 'not among the files the extension loads';
}

/** The files that do not belong, each with why, and the required files that are missing. */
export function auditPackage(files, packageFolders) {
  const present = new Set(files);
  return {
    unneeded: files
      .map((file) => ({ file, why: whyUnneeded(file, packageFolders) }))
      .filter((entry) => entry.why !== undefined),
    missing: REQUIRED_FILES.filter((file) => !present.has(file)),
  };
}

/**
 * A .vsix entry's path as the extension's file (`extension/out/src/x.js` -> `out/src/x.js`),
 * or undefined for the package's own metadata. vsce stores the README, the changelog and
 * the licence under names of its own.
 */
export function extensionPath(entry) {
  if (!entry.startsWith('extension/')) {
    return /^(extension\.vsixmanifest|\[Content_Types\]\.xml)$/.test(entry) ? undefined : entry;
  }
  const file = entry.slice('extension/'.length);
  return { 'readme.md': 'README.md', 'changelog.md': 'CHANGELOG.md', 'LICENSE.txt': 'LICENSE' }[file] ?? file;
}

/** The names of the entries of a ZIP archive (a .vsix), read from its central directory. */
export function zipEntryNames(bytes) {
  const endSignature = 0x06054b50;
  let end = -1;
  for (let offset = bytes.length - 22; offset >= Math.max(0, bytes.length - 22 - 0xffff); offset--) {
    if (bytes.readUInt32LE(offset) === endSignature) {
      end = offset;
      break;
    }
  }
  if (end < 0) {
    throw new Error('not a ZIP archive: no end of central directory');
  }
  const count = bytes.readUInt16LE(end + 10);
  let offset = bytes.readUInt32LE(end + 16);
  const names = [];
  for (let index = 0; index < count; index++) {
    if (bytes.readUInt32LE(offset) !== 0x02014b50) {
      throw new Error(`damaged central directory at entry ${index}`);
    }
    const nameLength = bytes.readUInt16LE(offset + 28);
    const extraLength = bytes.readUInt16LE(offset + 30);
    const commentLength = bytes.readUInt16LE(offset + 32);
    names.push(bytes.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}
