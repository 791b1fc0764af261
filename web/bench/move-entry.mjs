// A move entered on the page's board in a long game, timed in a real browser (Debian's
// Chromium, headless): from the drop to the move in the editor's text and the new board
// drawn with its squares. A benchmark, not a test: it prints the median of several runs.
// The native figure beside it: `cargo bench -p ppn-ls-web --bench session -- GAME.ppn`.
//
//   node web/bench/long-game.mjs /tmp/long-10k.ppn && node web/bench/move-entry.mjs /tmp/long-10k.ppn
import { readFileSync } from 'node:fs';
import { basename, join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve, launchOptions } from '../tests/serve.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const gamePath = process.argv[2];
if (!gamePath) {
  console.error('usage: node web/bench/move-entry.mjs GAME.ppn');
  process.exit(2);
}
const game = readFileSync(gamePath, 'utf8');
const runs = Number(process.env.RUNS || 9);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const server = await serve(join(root, 'target/web'));
const browser = await chromium.launch(launchOptions());
const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
page.on('pageerror', (error) => console.error('page error:', error));
await page.goto(server.url);
const analysed = () => page.waitForFunction(() => {
  const state = window.ppnPage && window.ppnPage.page;
  return state && state.synced && !state.unsent && !state.busy && state.sentVersion === state.version &&
    state.gamesVersion === state.version;
}, null, { timeout: 60000 });
await analysed();

const times = [];
for (let run = 0; run < runs; run += 1) {
  await page.evaluate(([name, text]) => window.ppnPage.open(name, text), [basename(gamePath), game]);
  await analysed();
  // The board follows the cursor (at the text's start once opened): let it, then go last.
  await page.waitForTimeout(500);
  await page.evaluate(() => window.ppnPage.viewer.step(Infinity));
  await page.waitForFunction(() => {
    const viewer = window.ppnPage.viewer;
    const squares = document.querySelector('[data-testid="squares"]');
    return !squares.hidden && squares.getAttribute('aria-label').includes(viewer.current.label) &&
      squares.querySelector('[data-square="e2"]');
  }, null, { timeout: 60000 });
  // The drop, then wait for the text and for the next board with its squares.
  const ms = await page.evaluate(() => new Promise((resolve) => {
    const viewer = window.ppnPage.viewer;
    const editor = window.ppnPage.editor;
    const before = editor.state.doc.length;
    const squares = document.querySelector('[data-testid="squares"]');
    const drawn = Number(squares.dataset.drawn);
    const started = performance.now();
    viewer.enter('e2', 'e4', {});
    const giveUp = setTimeout(() => resolve('no new board after 10 s: ' +
      document.querySelector('[data-testid="move-message"]').textContent), 10000);
    const check = () => {
      const written = editor.state.doc.length > before;
      const board = Number(squares.dataset.drawn) > drawn && viewer.current && viewer.index === viewer.states.length - 1 &&
        squares.getAttribute('aria-label').includes(viewer.current.label) && /e2-e4/.test(viewer.current.text);
      if (written && board) {
        clearTimeout(giveUp);
        resolve(performance.now() - started);
      } else {
        requestAnimationFrame(check);
      }
    };
    check();
  }));
  if (typeof ms !== 'number') throw new Error(ms);
  times.push(ms);
}
console.log(`a move entered at the end of ${basename(gamePath)} (drop → text and board): ` +
  `median ${median(times).toFixed(1)} ms of ${runs} (${times.map((t) => t.toFixed(0)).join(', ')})`);
await browser.close();
server.close();
