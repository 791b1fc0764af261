// Builds the web page into a folder (default ../target/web): the page, its stylesheets, the
// viewer, ppn-ls's WebAssembly, and `engine-source.js`, the worker's code as text, which the
// page starts from a Blob. From `file://`, where a page may neither fetch files nor start a
// worker from one, the page loads `engine-wasm.js` instead, the WebAssembly as base64.
// Expects wasm-bindgen's output in ../target/web-pkg (scripts/build-web makes both).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const out = resolve(process.argv[2] || join(root, 'target/web'));
const pkg = join(root, 'target/web-pkg');
mkdirSync(out, { recursive: true });

// Virtual modules: the wasm-bindgen glue, the WebAssembly as base64, the examples.
const notations = { '.ppn': 'PPN', '.otg': 'OpenTafl', '.otn': 'OpenTafl', '.annofen': 'annoFEN', '.xay': 'XAY', '.fen': 'xiangqi FEN', '.wxf': 'WXF' };
function examples() {
  const folder = join(root, 'examples');
  const files = readdirSync(folder).filter((name) => notations[extname(name)]).sort((a, b) =>
    (extname(a) === '.ppn' ? 0 : 1) - (extname(b) === '.ppn' ? 0 : 1) || a.localeCompare(b));
  return files.map((name) => ({
    name,
    title: `${basename(name, extname(name)).replace(/-/g, ' ')} (${notations[extname(name)]})`,
    text: readFileSync(join(folder, name), 'utf8'),
  }));
}
const virtual = {
  name: 'ppn-virtual',
  setup(builder) {
    builder.onResolve({ filter: /^ppn-(ls-wasm|examples)$/ }, (args) => ({ path: args.path, namespace: 'ppn' }));
    builder.onLoad({ filter: /.*/, namespace: 'ppn' }, (args) => {
      if (args.path === 'ppn-ls-wasm') {
        return { contents: readFileSync(join(pkg, 'ppn_ls_web.js'), 'utf8'), loader: 'js', resolveDir: pkg };
      }
      return { contents: `export default ${JSON.stringify(examples())};`, loader: 'js' };
    });
  },
};

// wasm-bindgen's glue would find the WebAssembly by import.meta.url; the worker always hands it the module.
const common = {
  bundle: true, format: 'iife', target: 'es2022', minify: true, legalComments: 'none', plugins: [virtual], write: false,
  logOverride: { 'empty-import-meta': 'silent' },
};
const worker = await build({ ...common, entryPoints: [join(here, 'page/worker.js')] });
writeFileSync(join(out, 'engine-source.js'),
  `// ppn-ls's worker, with its WebAssembly, as text: the page starts it from a Blob.\n` +
  `globalThis.PPN_ENGINE_SOURCE = ${JSON.stringify(worker.outputFiles[0].text)};\n`);
const wasm = readFileSync(join(pkg, 'ppn_ls_web_bg.wasm'));
writeFileSync(join(out, 'ppn_ls_web_bg.wasm'), wasm);
writeFileSync(join(out, 'engine-wasm.js'),
  `// ppn-ls's WebAssembly as base64, for the page opened from file://.\n` +
  `globalThis.PPN_ENGINE_WASM = "${wasm.toString('base64')}";\n`);
const app = await build({ ...common, entryPoints: [join(here, 'page/app.js')] });
writeFileSync(join(out, 'app.js'), app.outputFiles[0].text);
for (const [from, name] of [
  [join(here, 'page/index.html'), 'index.html'],
  [join(here, 'page/style.css'), 'style.css'],
  [join(root, 'server/assets/viewer/viewer.js'), 'viewer.js'],
  [join(root, 'server/assets/viewer/viewer.css'), 'viewer.css'],
]) {
  copyFileSync(from, join(out, name));
}

// What a browser loads from a server (engine-wasm.js only from file://).
let total = 0;
let gzipped = 0;
for (const name of readdirSync(out)) {
  if (!statSync(join(out, name)).isFile() || name === 'engine-wasm.js') continue;
  const bytes = readFileSync(join(out, name));
  total += bytes.length;
  gzipped += gzipSync(bytes, { level: 9 }).length;
}
console.log(`${out}: ${(total / 1024).toFixed(0)} KiB, ${(gzipped / 1024).toFixed(0)} KiB gzipped`);
