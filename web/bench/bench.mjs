// The web page's speed in a real browser (Debian's Chromium, headless): the page's first
// load and its size, analysing a long game, one step between moves with its picture, and a
// character typed into a long game until its diagnostics are back. A benchmark, not a test:
// it prints figures (medians of several runs).
//
//   node web/bench/bench.mjs GAME.ppn      (e.g. the generated 10k-move game:
//   PPN_BENCH_MOVES=10000 PPN_BENCH_WRITE=/tmp cargo bench -p ppn-ls --bench lsp_performance)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { serve, launchOptions } from '../tests/serve.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const site = join(root, 'target/web');
const gamePath = process.argv[2];
if (!gamePath) {
  console.error('usage: node web/bench/bench.mjs GAME.ppn');
  process.exit(2);
}
const game = readFileSync(gamePath, 'utf8');
const runs = Number(process.env.RUNS || 7);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const ms = (value) => `${value.toFixed(1)} ms`;

let raw = 0;
let gzipped = 0;
// What a browser loads from a server (engine-wasm.js is for file:// only).
for (const name of readdirSync(site)) {
  const path = join(site, name);
  if (!statSync(path).isFile() || name === 'engine-wasm.js') continue;
  const bytes = readFileSync(path);
  raw += bytes.length;
  gzipped += gzipSync(bytes, { level: 9 }).length;
}
console.log(`page: ${(raw / 1048576).toFixed(2)} MiB, ${(gzipped / 1048576).toFixed(2)} MiB gzipped`);

const server = await serve(site);
const browser = await chromium.launch(launchOptions());

const loads = [];
for (let run = 0; run < runs; run += 1) {
  const page = await browser.newPage();
  const started = Date.now();
  await page.goto(server.url);
  await page.waitForFunction(() => {
    const state = window.ppnPage && window.ppnPage.page;
    return state && state.synced && !state.busy && document.querySelector('[data-testid="board"] svg');
  });
  loads.push(Date.now() - started);
  await page.close();
}
console.log(`first load to the first board drawn: ${ms(median(loads))}`);

const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
await page.goto(server.url);
await page.waitForFunction(() => window.ppnPage && window.ppnPage.page.synced);

// Analysis in the worker, as the page waits for it. WebAssembly starts in V8's baseline
// compiler and is optimised function by function as it runs: the first analyses are
// slower than the later ones.
const analysis = await page.evaluate(async ([name, text, runs]) => {
  const { engine } = window.ppnPage;
  const roundTrip = [];
  for (let run = 0; run < runs * 3; run += 1) {
    const started = performance.now();
    await engine.request('open', [name, text]);
    roundTrip.push(performance.now() - started);
  }
  return roundTrip;
}, [basename(gamePath), game, runs]);
console.log(`analysing ${basename(gamePath)} (open: diagnostics and every state's label): ` +
  `first ${ms(analysis[0])}, then ${ms(median(analysis.slice(runs)))}`);

// The page with the game, as a user has it.
await page.evaluate(([name, text]) => window.ppnPage.open(name, text), [basename(gamePath), game]);
await page.waitForFunction(() => {
  const state = window.ppnPage.page;
  return state.synced && !state.busy && !state.unsent && state.gamesVersion === state.version;
}, null, { timeout: 60000 });

// One step: from the click to the new picture in the page.
const steps = await page.evaluate(async (runs) => {
  const { viewer } = window.ppnPage;
  const picture = document.querySelector('[data-testid="board"] .ppn-picture');
  viewer.show(0, 100);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const times = [];
  for (let run = 0; run < runs * 3; run += 1) {
    const drawn = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        observer.disconnect();
        resolve();
      });
      observer.observe(picture, { childList: true });
    });
    const started = performance.now();
    document.querySelector('[data-testid="next"]').click();
    await drawn;
    times.push(performance.now() - started);
  }
  return times;
}, runs);
console.log(`one step to the next move, its picture in the page: ${ms(median(steps))}`);

// A character typed near the end: from the keystroke to its diagnostics in the page. The
// characters come 200 ms apart, as a quick typist's do (the page lists the states again
// after the diagnostics, between keystrokes).
const typing = await page.evaluate(async (runs) => {
  const { editor, page: state } = window.ppnPage;
  const times = [];
  for (let run = 0; run < runs; run += 1) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const at = editor.state.doc.length - 20;
    const version = state.version + 1;
    const started = performance.now();
    editor.dispatch({ changes: { from: at, insert: run % 2 ? ' ' : 'x' } });
    await new Promise((resolve) => {
      const wait = () => (state.shownVersion >= version ? resolve() : setTimeout(wait, 0));
      wait();
    });
    times.push(performance.now() - started);
  }
  return times;
}, runs);
console.log(`a character typed near the end, until its diagnostics are shown: ${ms(median(typing))}`);

// Downloads, drawn in the worker by resvg: a PNG of one board, and a GIF of a whole
// example game.
const exampleName = 'tablut-short.ppn';
const example = readFileSync(join(root, 'examples', exampleName), 'utf8');
const downloads = await page.evaluate(async ([name, text, runs]) => {
  const { engine } = window.ppnPage;
  const opened = await engine.request('open', [name, text]);
  const png = [];
  const gif = [];
  for (let run = 0; run < runs; run += 1) {
    let started = performance.now();
    await engine.request('png', [0, 1, false]);
    png.push(performance.now() - started);
    started = performance.now();
    await engine.request('gif', [0, false, 1000], 120000);
    gif.push(performance.now() - started);
  }
  const frames = JSON.parse(opened.games)[0].states.length;
  return { png, gif, frames };
}, [exampleName, example, runs]);
console.log(`a PNG of one board of ${exampleName}: ${ms(median(downloads.png))}; ` +
  `the game as a GIF (${downloads.frames} frames): ${ms(median(downloads.gif))}`);

await browser.close();
server.close();
