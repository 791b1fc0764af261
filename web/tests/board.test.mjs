// The page's board as something to play on and to read, in a real browser (Debian's
// Chromium, driven by playwright-core): moves entered by dragging, clicking, tapping and
// from the keyboard, written into the text in each notation and taken back by one undo;
// OpenTafl's legal targets and refusals; the board's squares named for screen readers,
// each move announced and the board as text, checked through Chromium's accessibility tree
// and axe-core; a pasted record read in its own notation; phones. Any page error fails.
// Needs the built page (bash scripts/build-web) and the ppn-ls binary (PPN_LS).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, devices } from 'playwright-core';
import { serve, launchOptions } from './serve.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const site = join(root, 'target/web');
const ppnLs = process.env.PPN_LS || join(root, 'target/debug/ppn-ls');
const scratch = mkdtempSync(join(tmpdir(), 'ppn-ls-board-'));
const shots = join(root, 'target/web-test-screenshots');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let server;
let browser;

before(async () => {
  assert.ok(existsSync(join(site, 'index.html')), 'build the page first: bash scripts/build-web');
  mkdirSync(shots, { recursive: true });
  server = await serve(site);
  browser = await chromium.launch(launchOptions());
});

after(async () => {
  await browser?.close();
  server?.close();
});

const example = (name) => readFileSync(join(root, 'examples', name), 'utf8');

/** A fresh page (in a context of its own: `options` may emulate a phone), analysed. */
async function openPage(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.errors = errors;
  page.finish = async () => {
    assert.deepEqual(errors, [], 'errors on the page');
    await context.close();
  };
  await page.goto(server.url);
  await waitForAnalysis(page);
  return page;
}

async function waitForAnalysis(page) {
  await page.waitForFunction(() => {
    const state = window.ppnPage && window.ppnPage.page;
    return state && state.synced && !state.unsent && !state.busy && state.sentVersion === state.version &&
      state.gamesVersion === state.version;
  }, null, { timeout: 30000 });
}

async function setText(page, name, text) {
  await page.evaluate(([name, text]) => window.ppnPage.open(name, text), [name, text]);
  await waitForAnalysis(page);
}

const editorText = (page) => page.evaluate(() => window.ppnPage.editor.state.doc.toString());

/** Waits until the board shows the state labelled `label` with its squares laid over it. */
async function boardShows(page, label) {
  await page.waitForFunction((label) => {
    const board = document.querySelector('[data-testid="board"]');
    const squares = document.querySelector('[data-testid="squares"]');
    return board.dataset.label === label && !squares.hidden && squares.querySelector('[data-square]') &&
      squares.getAttribute('aria-label').includes(label);
  }, label, { timeout: 20000 });
}

/** Shows the game's last state and waits for its squares. */
async function toLast(page) {
  await page.evaluate(() => window.ppnPage.viewer.step(Infinity));
  const label = await page.evaluate(() => window.ppnPage.viewer.current.label);
  await boardShows(page, label);
  return label;
}

/** The centre of square `name` on screen. */
async function centre(page, name) {
  const box = await page.locator(`[data-square="${name}"]`).boundingBox();
  assert.ok(box, `no square ${name} on the board`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function drag(page, from, to) {
  const a = await centre(page, from);
  const b = await centre(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 3 });
  await page.mouse.move(b.x, b.y, { steps: 3 });
  await page.mouse.up();
}

async function clickSquare(page, name) {
  const at = await centre(page, name);
  await page.mouse.click(at.x, at.y);
}

const message = (page) => page.$eval('[data-testid="move-message"]', (p) => p.textContent);

/** Waits for the text to change from `before` and the page to have read it again. */
async function textChanged(page, before) {
  await page.waitForFunction((before) => window.ppnPage.editor.state.doc.toString() !== before, before,
    { timeout: 20000 });
  await waitForAnalysis(page);
  return editorText(page);
}

async function pieces(page, name) {
  return page.$eval(`[data-square="${name}"]`, (cell) => Number(cell.dataset.pieces || 0));
}

async function screenshotOnFailure(page, name, body) {
  try {
    await body();
  } catch (error) {
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true }).catch(() => {});
    throw error;
  }
}

const CHESS = '---\nGameType: Chess\n...\n1. e2-e4\n';

test('the page opens on a board with pieces: the first example at its last move', async () => {
  const page = await openPage();
  const state = await page.evaluate(() => ({
    index: window.ppnPage.viewer.index, last: window.ppnPage.viewer.states.length - 1,
    label: window.ppnPage.viewer.current.label,
  }));
  assert.ok(state.last > 0);
  assert.equal(state.index, state.last);
  await boardShows(page, state.label);
  assert.ok(await page.locator('[data-square][data-pieces]').count() > 0);
  await page.finish();
});

/**
 * The colour of the picture under the centre of each square laid over it, read from the
 * picture drawn into a canvas: `{name: [r, g, b]}`.
 */
async function colourUnderSquares(page) {
  return page.evaluate(async () => {
    const svg = document.querySelector('.ppn-picture svg');
    const box = svg.getBoundingClientRect();
    const image = new Image();
    image.src = 'data:image/svg+xml;base64,' + btoa(unescape(encodeURIComponent(svg.outerHTML)));
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(box.width);
    canvas.height = Math.round(box.height);
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    const colours = {};
    for (const cell of document.querySelectorAll('[data-square]')) {
      const r = cell.getBoundingClientRect();
      const x = Math.round(r.left + r.width / 2 - box.left);
      const y = Math.round(r.top + r.height / 2 - box.top);
      colours[cell.dataset.square] = [...context.getImageData(x, y, 1, 1).data.slice(0, 3)];
    }
    return colours;
  });
}

test('the squares lie over the picture\u2019s squares, flipped or not', async () => {
  const page = await openPage();
  await setText(page, 'chess.ppn', CHESS);
  for (const flip of [false, true]) {
    if (flip) {
      await page.click('[data-testid="flip"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="board"]').dataset.flipped === 'true' &&
        document.querySelector('[data-square]').dataset.square === 'h1');
    }
    await toLast(page);
    const colours = await colourUnderSquares(page);
    // Every empty square's centre is the board's colour: none lands on a line between two.
    const empty = Object.entries(colours).filter(([name]) => /^[a-h][3-6]$/.test(name) && name !== 'e4');
    assert.equal(empty.length, 31);
    const [, first] = empty[0];
    for (const [name, colour] of empty) assert.deepEqual(colour, first, `the centre of ${name} (flipped: ${flip})`);
    // And a piece's square shows something else: the piece.
    assert.notDeepEqual(colours.e4, first);
  }
  await page.finish();
});

test('a PPN move dragged, or clicked then its target, is written after the move shown; one undo takes it back', async () => {
  const page = await openPage();
  await screenshotOnFailure(page, 'ppn-move', async () => {
    await setText(page, 'chess.ppn', CHESS);
    await toLast(page);
    // Dragged: d7 to d5, written after 1. e2-e4 and shown.
    await drag(page, 'd7', 'd5');
    let text = await textChanged(page, CHESS);
    assert.match(text, /^---\nGameType: Chess\n\.\.\.\n1\. e2-e4 2\. d7-d5\n?$/);
    let label = await page.evaluate(() => window.ppnPage.viewer.current.label);
    await boardShows(page, label);
    assert.equal(await pieces(page, 'd7'), 0);
    assert.equal(await pieces(page, 'd5'), 1);
    assert.match(await message(page), /Written: d7-d5/);
    // One undo in the editor takes it back.
    await page.click('.cm-content');
    await page.keyboard.press('Control+z');
    text = await textChanged(page, text);
    assert.equal(text, CHESS);
    await waitForAnalysis(page);
    await toLast(page);
    // Clicked, then its target: a piece onto another asks whether it takes or stacks.
    await clickSquare(page, 'e4');
    await page.waitForSelector('[data-square="e4"].ppn-picked');
    await clickSquare(page, 'e7');
    await page.waitForSelector('[data-testid="move-question"]:not([hidden])');
    await page.click('[data-testid="answer-capture"]');
    text = await textChanged(page, CHESS);
    assert.match(text, /2\. e4:e7/);
    label = await page.evaluate(() => window.ppnPage.viewer.current.label);
    await boardShows(page, label);
    assert.equal(await pieces(page, 'e4'), 0);
    // Stacked instead: the piece stands on top, two on the square.
    await page.click('.cm-content');
    await page.keyboard.press('Control+z');
    await textChanged(page, text);
    await toLast(page);
    await clickSquare(page, 'e4');
    await clickSquare(page, 'e7');
    await page.click('[data-testid="answer-stack"]');
    text = await textChanged(page, CHESS);
    assert.match(text, /2\. e4-e7/);
    await boardShows(page, await page.evaluate(() => window.ppnPage.viewer.current.label));
    assert.equal(await pieces(page, 'e7'), 2);
    // On an earlier board: asked whether to insert it or to replace the rest.
    await page.evaluate(() => window.ppnPage.viewer.step(-Infinity));
    await boardShows(page, 'start');
    await drag(page, 'g1', 'f3');
    await page.waitForSelector('[data-testid="answer-replace"]');
    await page.click('[data-testid="answer-replace"]');
    text = await textChanged(page, text);
    assert.match(text, /\.\.\.\n1\. g1-f3\s*$/);
  });
  await page.finish();
});

test('OpenTafl marks the legal targets, refuses an illegal move with the rules\u2019 reason, and writes moves and variations as OpenTafl does', async () => {
  const page = await openPage();
  await screenshotOnFailure(page, 'tafl-move', async () => {
    const record = example('brandubh-short.otg');
    await setText(page, 'brandubh-short.otg', record);
    await toLast(page);
    // The attackers' piece on a game's last board: pick one that can move.
    const attacker = await page.evaluate(() => [...document.querySelectorAll('[data-square][data-pieces]')]
      .find((cell) => /attackers/.test(cell.getAttribute('aria-label'))).dataset.square);
    // Whose turn it is decides; try the attackers, else a defender.
    await clickSquare(page, attacker);
    await page.waitForFunction(() => /Picked|no legal move/.test(document.querySelector('[data-testid="move-message"]').textContent));
    let targets = await page.$$eval('.ppn-target', (cells) => cells.map((cell) => cell.dataset.square));
    let from = attacker;
    if (targets.length === 0) {
      await page.keyboard.press('Escape');
      await clickSquare(page, attacker);
      from = await page.evaluate(() => [...document.querySelectorAll('[data-square][data-pieces]')]
        .find((cell) => /defenders/.test(cell.getAttribute('aria-label'))).dataset.square);
      await clickSquare(page, from);
      await page.waitForSelector('.ppn-target');
      targets = await page.$$eval('.ppn-target', (cells) => cells.map((cell) => cell.dataset.square));
    }
    assert.ok(targets.length > 0, 'no legal target marked');
    // Each target is said so to screen readers.
    assert.match(await page.getAttribute(`[data-square="${targets[0]}"]`, 'aria-label'), /a legal move$/);
    // An illegal square: refused with why, and the text is untouched.
    const all = await page.$$eval('[data-square]', (cells) => cells.map((cell) => cell.dataset.square));
    const illegal = all.find((name) => name !== from && !targets.includes(name));
    await clickSquare(page, illegal);
    await page.waitForFunction(() => document.querySelector('[data-testid="move-message"]').dataset.kind === 'refused');
    assert.match(await message(page), /^Not written: .{8,}/);
    assert.equal(await editorText(page), record);
    // A legal one: written at the end of the record, in OpenTafl's notation.
    await drag(page, from, targets[0]);
    const text = await textChanged(page, record);
    assert.ok(text.startsWith(record.trimEnd()), 'the record is kept');
    const written = await page.evaluate(() => window.ppnPage.page.moveWritten.written);
    assert.match(written, /^[a-k]\d{1,2}-[a-k]\d{1,2}/);
    assert.ok(text.slice(record.trimEnd().length).includes(written));
    // From an earlier board: a variation.
    await page.evaluate(() => window.ppnPage.viewer.step(-Infinity));
    await boardShows(page, 'start');
    const first = await page.evaluate(() => [...document.querySelectorAll('[data-square][data-pieces]')]
      .map((cell) => cell.dataset.square));
    let variation = null;
    for (const square of first) {
      await clickSquare(page, square);
      await page.waitForFunction(() => /Picked|no legal move|Not written/.test(document.querySelector('[data-testid="move-message"]').textContent));
      const marked = await page.$$eval('.ppn-target', (cells) => cells.map((cell) => cell.dataset.square));
      if (marked.length) {
        await clickSquare(page, marked[0]);
        variation = await textChanged(page, text);
        break;
      }
      await page.keyboard.press('Escape');
    }
    assert.ok(variation, 'no first move could be made');
    const variations = await page.evaluate(() => window.ppnPage.page.games[0].variations.length);
    assert.ok(variations >= 1, variation);
  });
  await page.finish();
});

test('a WXF move is written as WXF writes it, after the last move', async () => {
  const page = await openPage();
  const record = example('opening-central-cannon.wxf');
  await setText(page, 'opening.wxf', record);
  await toLast(page);
  // Red's turn after 6... : the rook on a0 (or any red piece with a target).
  const reds = await page.evaluate(() => [...document.querySelectorAll('[data-square][data-pieces]')]
    .filter((cell) => /Red/.test(cell.getAttribute('aria-label'))).map((cell) => cell.dataset.square));
  let text = null;
  for (const square of reds) {
    await clickSquare(page, square);
    await page.waitForFunction(() => /Picked|no legal move/.test(document.querySelector('[data-testid="move-message"]').textContent));
    const marked = await page.$$eval('.ppn-target', (cells) => cells.map((cell) => cell.dataset.square));
    if (marked.length) {
      await clickSquare(page, marked[0]);
      text = await textChanged(page, record);
      break;
    }
    await page.keyboard.press('Escape');
  }
  assert.ok(text, 'no red piece could move');
  const written = await page.evaluate(() => window.ppnPage.page.moveWritten.written);
  assert.match(written, /^[RHEAKCP+\-][1-9+\-.][.+\-=][1-9]$/);
  assert.match(text, new RegExp(' 7\\. ' + written.replace(/[.+]/g, '\\$&')));
  assert.equal(await page.locator('.cm-lint-marker-error').count(), 0);
  await page.finish();
});

test('the board from the keyboard: Tab to it, arrows, Enter picks and drops, Escape cancels, focus visible', async () => {
  const page = await openPage();
  await screenshotOnFailure(page, 'keyboard', async () => {
    await setText(page, 'chess.ppn', CHESS);
    await toLast(page);
    // Tab from the flip button reaches the board's one focusable square.
    await page.focus('[data-testid="flip"]');
    let focused = null;
    for (let i = 0; i < 12 && !focused; i += 1) {
      await page.keyboard.press('Shift+Tab');
      focused = await page.evaluate(() => document.activeElement.dataset.square || null);
    }
    assert.ok(focused, 'Tab never reached the board');
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert.notEqual(ring, 'none', 'the focused square shows no ring');
    // Walk the cursor to e2: from a8 (top left), 4 right and 6 down.
    await page.evaluate(() => window.ppnPage.viewer.setCursor('a8', true));
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowRight');
    for (let i = 0; i < 6; i += 1) await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.square), 'e2');
    // The arrows moved the cursor, not the game.
    assert.equal(await page.evaluate(() => window.ppnPage.viewer.current.label), '1.');
    // e2 is empty after 1. e2-e4: nothing to pick, said so.
    await page.keyboard.press('Enter');
    assert.match(await message(page), /Nothing on e2/);
    // d7 picked with Space, cancelled with Escape.
    await page.evaluate(() => window.ppnPage.viewer.setCursor('d7', true));
    await page.keyboard.press(' ');
    await page.waitForSelector('[data-square="d7"].ppn-picked');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('.ppn-picked').count(), 0);
    // Picked, walked two down, dropped: d7-d5.
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-square="d7"].ppn-picked');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const text = await textChanged(page, CHESS);
    assert.match(text, /1\. e2-e4 2\. d7-d5/);
    // The step controls have keys and focus rings too.
    await page.focus('[data-testid="prev"]');
    await page.keyboard.press('Enter');
    const buttonRing = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert.notEqual(buttonRing, 'none');
  });
  await page.finish();
});

test('screen readers: squares named with their pieces, each move announced in words, the board as text', async () => {
  const page = await openPage();
  await setText(page, 'chess.ppn', CHESS);
  await page.evaluate(() => window.ppnPage.viewer.step(-Infinity));
  await boardShows(page, 'start');
  // The accessibility tree as Chromium gives it to a screen reader.
  const tree = await page.locator('[data-testid="squares"]').ariaSnapshot();
  assert.match(tree, /grid "Board after start/);
  assert.match(tree, /gridcell "e2, [^"]+"/);
  assert.match(tree, /gridcell "e4, empty"/);
  // A step is announced: the move, then what it did.
  await page.click('[data-testid="next"]');
  await page.waitForFunction(() => /moves from e2 to e4/.test(document.querySelector('[data-testid="announcement"]').textContent));
  const said = await page.$eval('[data-testid="announcement"]', (p) => p.textContent);
  assert.match(said, /^1\. e2-e4: the .+ moves from e2 to e4$/);
  assert.equal(await page.getAttribute('[data-testid="announcement"]', 'aria-live'), 'polite');
  // The board as text: a line per occupied square, as ppn-ls's core lists it.
  await page.click('[data-testid="board-text-toggle"]');
  const lines = await page.$$eval('[data-testid="board-text"] li', (items) => items.map((item) => item.textContent));
  assert.equal(lines.length, 32);
  assert.ok(lines.some((line) => line.startsWith('e4: ')));
  assert.ok(!lines.some((line) => line.startsWith('e2: ')));
  await page.finish();
});

/** Serious and critical accessibility problems axe-core finds on a page. */
async function axeProblems(page) {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(async () => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('axe-core finds no serious or critical problem on the page, with a board, a question and the board as text', async () => {
  const page = await openPage();
  await setText(page, 'chess.ppn', CHESS);
  await toLast(page);
  await page.click('[data-testid="board-text-toggle"]');
  await clickSquare(page, 'e4');
  await clickSquare(page, 'e7');
  await page.waitForSelector('[data-testid="move-question"]:not([hidden])');
  assert.deepEqual(await axeProblems(page), []);
  await page.finish();
});

test('axe-core finds no serious or critical problem on the one-file game', async () => {
  const html = join(scratch, 'tablut.html');
  execFileSync(ppnLs, ['render', join(root, 'examples', 'tablut-short.ppn'), '-o', html]);
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto('file://' + html);
  await page.waitForFunction(() => window.ppnViewer !== undefined && document.querySelector('.ppn-picture svg'));
  assert.deepEqual(await axeProblems(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the one-file game: its squares named, each move announced in words, the board as text; it takes no move', async () => {
  const html = join(scratch, 'brandubh.html');
  execFileSync(ppnLs, ['render', join(root, 'examples', 'brandubh-short.otg'), '-o', html]);
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto('file://' + html);
  await page.waitForFunction(() => window.ppnViewer !== undefined && document.querySelector('[data-square]'));
  const tree = await page.locator('[data-testid="squares"]').ariaSnapshot();
  assert.match(tree, /gridcell "d4, defenders' king"/);
  // It opens on the first board; the next one is announced.
  assert.equal(await page.$eval('[data-testid="board"]', (board) => board.dataset.label), 'start');
  await page.click('[data-testid="next"]');
  await page.waitForFunction(() => /moves from d2 to e2/.test(document.querySelector('[data-testid="announcement"]').textContent));
  assert.match(await page.$eval('[data-testid="announcement"]', (p) => p.textContent),
    /^1a d2-e2: the attackers' taflman moves from d2 to e2$/);
  await page.click('[data-testid="board-text-toggle"]');
  const lines = await page.$$eval('[data-testid="board-text"] li', (items) => items.map((item) => item.textContent));
  assert.ok(lines.includes("d4: defenders' king"), lines.join(' | '));
  // Its squares lie over its picture, flipped too.
  const centres = async () => page.evaluate(() => {
    const picture = document.querySelector('.ppn-picture img, .ppn-picture svg').getBoundingClientRect();
    const d4 = document.querySelector('[data-square="d4"]').getBoundingClientRect();
    return [(d4.left + d4.width / 2 - picture.left) / picture.width, (d4.top + d4.height / 2 - picture.top) / picture.height];
  });
  const [x, y] = await centres();
  assert.ok(Math.abs(x - 0.5) < 0.05, `d4 (the middle of a 7×7 board) at ${x} across`);
  await page.click('[data-testid="flip"]');
  await page.waitForFunction(() => document.querySelector('[data-square]').dataset.square === 'g1');
  const [fx] = await centres();
  assert.ok(Math.abs(fx - 0.5) < 0.05, `flipped, d4 at ${fx} across`);
  // A piece picked: this board only shows the game.
  await page.click('[data-square="d4"]');
  assert.match(await page.$eval('[data-testid="move-message"]', (p) => p.textContent), /does not take moves/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('OpenTafl text pasted into the page is read as OpenTafl, and the notation can be chosen', async () => {
  const page = await openPage({ permissions: ['clipboard-read', 'clipboard-write'] });
  await screenshotOnFailure(page, 'paste', async () => {
    const record = example('brandubh-short.otg');
    await page.evaluate((text) => navigator.clipboard.writeText(text), record);
    await page.click('.cm-content');
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Control+v');
    await page.waitForFunction((text) => window.ppnPage.editor.state.doc.toString() === text, record);
    await page.waitForFunction(() => window.ppnPage.page.format === 'otn', null, { timeout: 20000 });
    await waitForAnalysis(page);
    assert.equal(await page.$eval('[data-testid="notation"]', (select) => select.value), 'otn');
    assert.match(await page.$eval('[data-testid="file-name"]', (e) => e.textContent), /\.otg$/);
    assert.match(await page.$eval('[data-testid="status"]', (e) => e.textContent), /^OpenTafl · 0 errors/);
    await toLast(page);
    assert.ok(await page.locator('[data-square][data-pieces]').count() > 0);
    // Read as PPN on request: PPN's diagnostics, then back.
    await page.selectOption('[data-testid="notation"]', 'ppn');
    await page.waitForFunction(() => window.ppnPage.page.format === 'ppn');
    await waitForAnalysis(page);
    assert.match(await page.$eval('[data-testid="status"]', (e) => e.textContent), /^PPN · /);
    await page.selectOption('[data-testid="notation"]', 'otn');
    await page.waitForFunction(() => window.ppnPage.page.format === 'otn');
  });
  await page.finish();
});

test('Share copies the link and puts it in the address bar', async () => {
  const page = await openPage({ permissions: ['clipboard-read', 'clipboard-write'] });
  await page.click('[data-testid="share"]');
  await page.waitForFunction(() => location.hash.startsWith('#v=1&'));
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, page.url());
  await page.finish();
});

for (const [name, viewport] of [['390×844', { width: 390, height: 844 }], ['360×640', { width: 360, height: 640 }]]) {
  test(`on a ${name} phone the board and its controls are on the first screen, and touch plays and enters moves`, async () => {
    const page = await openPage({ ...devices['Pixel 5'], viewport, deviceScaleFactor: 2 });
    await screenshotOnFailure(page, `phone-${viewport.width}`, async () => {
      await setText(page, 'chess.ppn', CHESS);
      await toLast(page);
      const layout = await page.evaluate(() => {
        const box = (testId) => document.querySelector(`[data-testid="${testId}"]`).getBoundingClientRect();
        const uncovered = (testId) => {
          const r = box(testId);
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return Boolean(hit && hit.closest(`[data-testid="${testId}"]`));
        };
        return {
          height: innerHeight, width: innerWidth, scrollWidth: document.documentElement.scrollWidth,
          picture: document.querySelector('.ppn-picture svg').getBoundingClientRect().bottom,
          controls: ['first', 'prev', 'play', 'next', 'last', 'flip'].map((id) => box(id).bottom),
          uncovered: ['first', 'prev', 'play', 'next', 'last', 'flip'].every(uncovered),
          moveList: box('move-list').top,
        };
      });
      assert.ok(layout.picture <= layout.height, `the board ends at ${layout.picture} of ${layout.height}`);
      assert.ok(Math.max(...layout.controls) <= layout.height, `the controls end at ${Math.max(...layout.controls)}`);
      assert.ok(layout.uncovered, 'a step control is covered');
      assert.ok(layout.scrollWidth <= layout.width, `the page scrolls sideways: ${layout.scrollWidth} > ${layout.width}`);
      assert.ok(layout.moveList < 2 * layout.height, 'the move list is more than a scroll below');
      await page.screenshot({ path: join(shots, `phone-${viewport.width}.png`) });
      // Touch steps back, and a tap, tap enters a move.
      await page.tap('[data-testid="prev"]');
      await boardShows(page, 'start');
      await page.tap('[data-testid="next"]');
      await boardShows(page, '1.');
      const from = await centre(page, 'd7');
      const to = await centre(page, 'd5');
      await page.touchscreen.tap(from.x, from.y);
      await page.waitForSelector('[data-square="d7"].ppn-picked');
      await page.touchscreen.tap(to.x, to.y);
      const text = await textChanged(page, CHESS);
      assert.match(text, /1\. e2-e4 2\. d7-d5/);
      // The text folds away.
      await page.tap('[data-testid="editor-toggle"]');
      assert.equal(await page.isVisible('[data-testid="editor"]'), false);
    });
    await page.finish();
  });
}

test('a diagram of one position (annoFEN) says it takes no move', async () => {
  const page = await openPage();
  await setText(page, 'horse-and-cannon.annofen', example('horse-and-cannon.annofen'));
  const label = await toLast(page);
  assert.ok(label);
  const text = await editorText(page);
  const square = await page.$eval('[data-square][data-pieces]', (cell) => cell.dataset.square);
  await clickSquare(page, square);
  await page.waitForFunction(() => document.querySelector('[data-testid="move-message"]').dataset.kind === 'refused');
  assert.match(await message(page), /takes no move: annoFEN is a diagram of one position/);
  assert.equal(await page.locator('.ppn-picked').count(), 0);
  assert.equal(await editorText(page), text);
  await page.finish();
});
