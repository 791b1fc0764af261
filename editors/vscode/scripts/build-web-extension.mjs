// Builds what the universal package adds to the extension: dist/web.js, the `browser`
// entry (src/browser.ts and what it imports, bundled by esbuild for a browser's extension
// host, `vscode` left to the host), with wasm-bindgen's glue for ppn-ls's WebAssembly and
// the board viewer's files inside it; and dist/ppn_ls_web_bg.wasm, the module itself. The
// desktop's extension loads the same bundle when it finds no ppn-ls executable.
//
// Expects wasm-bindgen's output in ../../target/web-pkg-editor (scripts/build-web makes it).
//
//   node scripts/build-web-extension.mjs [--pkg DIR]

import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const extensionRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repositoryRoot = resolve(extensionRoot, '..', '..');
const argv = process.argv.slice(2);
const pkg = argv[0] === '--pkg' && argv[1] ? resolve(argv[1]) : join(repositoryRoot, 'target', 'web-pkg-editor');
const glue = join(pkg, 'ppn_ls_web.js');
const wasm = join(pkg, 'ppn_ls_web_bg.wasm');
for (const file of [glue, wasm]) {
  if (!existsSync(file)) {
    console.error(`build-web-extension: ${file} is missing; build ppn-ls's WebAssembly first (bash scripts/build-web)`);
    process.exit(2);
  }
}

/**
 * wasm-bindgen's glue (an ES module holding one instance in module variables) as a function
 * that evaluates a fresh copy each call: a panic leaves an instance unusable, and the
 * extension then starts over in a new one.
 */
function glueFactory(source) {
  const exported = [];
  const body = source
    .replace(/^export (class|function|async function|const|let) ([A-Za-z_$][\w$]*)/gm, (_, kind, name) => {
      exported.push(name);
      return `${kind} ${name}`;
    })
    .replace(/^export \{([^}]*)\};?$/gm, (_, names) => {
      for (const item of names.split(',')) {
        const [local, as] = item.trim().split(/\s+as\s+/);
        if (local) {
          exported.push(as ? `${as}: ${local}` : local);
        }
      }
      return '';
    });
  if (/^\s*(import|export)\s/m.test(body)) {
    throw new Error('the wasm-bindgen glue has an import or export this script does not know how to wrap');
  }
  return `export function makeGlue() {\n${body}\nreturn { ${exported.join(', ')} };\n}\n`;
}

const virtual = {
  name: 'ppn-virtual',
  setup(builder) {
    builder.onResolve({ filter: /^ppn-(ls-wasm-factory|viewer-assets)$/ }, (args) => ({ path: args.path, namespace: 'ppn' }));
    builder.onLoad({ filter: /.*/, namespace: 'ppn' }, (args) => {
      if (args.path === 'ppn-ls-wasm-factory') {
        return { contents: glueFactory(readFileSync(glue, 'utf8')), loader: 'js', resolveDir: pkg };
      }
      const viewer = join(repositoryRoot, 'server', 'assets', 'viewer');
      return {
        contents:
          `export const viewerScript = ${JSON.stringify(readFileSync(join(viewer, 'viewer.js'), 'utf8'))};\n` +
          `export const viewerStyle = ${JSON.stringify(readFileSync(join(viewer, 'viewer.css'), 'utf8'))};\n`,
        loader: 'js',
      };
    });
  },
};

const dist = join(extensionRoot, 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
await build({
  entryPoints: [join(extensionRoot, 'src', 'browser.ts')],
  outfile: join(dist, 'web.js'),
  bundle: true,
  // A browser's extension host and Node's both load a CommonJS module with `activate`.
  platform: 'browser',
  format: 'cjs',
  target: 'es2022',
  external: ['vscode'],
  minify: true,
  legalComments: 'none',
  plugins: [virtual],
  // The glue finds its file by import.meta.url only when asked to fetch it; it never is.
  logOverride: { 'empty-import-meta': 'silent' },
});
copyFileSync(wasm, join(dist, 'ppn_ls_web_bg.wasm'));
for (const name of ['web.js', 'ppn_ls_web_bg.wasm']) {
  console.log(`dist/${name}: ${(statSync(join(dist, name)).size / 1024).toFixed(0)} KiB`);
}
