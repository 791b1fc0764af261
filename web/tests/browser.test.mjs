// The web page in a real browser (Debian's Chromium, driven by playwright-core): every
// example of every notation, diagnostics equal to `ppn-ls check`'s, boards equal to
// `ppn-ls render`'s, the controls, the share link, and hostile texts that must not freeze
// the page. Needs the built page (bash scripts/build-web) and the ppn-ls binary (cargo
// builds it); PPN_LS and CHROMIUM override where they are.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, readdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve, launchOptions } from './serve.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const site = join(root, 'target/web');
const ppnLs = process.env.PPN_LS || join(root, 'target/debug/ppn-ls');
const scratch = mkdtempSync(join(tmpdir(), 'ppn-ls-web-'));
const shots = join(root, 'target/web-test-screenshots');

let server;
let browser;

before(async () => {
  assert.ok(existsSync(join(site, 'index.html')), 'build the page first: bash scripts/build-web');
  assert.ok(existsSync(ppnLs), `no ppn-ls at ${ppnLs}: cargo build first`);
  server = await serve(site);
  browser = await chromium.launch(launchOptions());
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** A fresh page, loaded, with its first example analysed. */
async function openPage(hash = '') {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.errors = errors;
  await page.goto(server.url + hash);
  await waitForAnalysis(page);
  return page;
}

/** Waits until the worker holds the editor's text and the page shows its analysis. */
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

/** Waits for the board to show state `index` and its picture, and returns the picture. */
async function boardAt(page, index) {
  await page.waitForFunction((index) => {
    const board = document.querySelector('[data-testid="board"]');
    return board.dataset.index === String(index) && board.querySelector('.ppn-picture svg');
  }, index, { timeout: 20000 });
  // The picture may still be on its way: wait until it matches the board's caption.
  await page.waitForFunction(() => {
    const board = document.querySelector('[data-testid="board"]');
    const title = board.querySelector('.ppn-picture svg title');
    return title && title.textContent.includes(board.dataset.label);
  }, null, { timeout: 20000 });
  return page.$eval('[data-testid="board"] .ppn-picture svg', (svg) => svg.outerHTML);
}

function cli(args, input) {
  try {
    return execFileSync(ppnLs, args, { input, encoding: 'utf8', maxBuffer: 64 << 20 });
  } catch (error) {
    // `check` exits 1 when it finds errors: its output is still the answer.
    if (error.status === 1) return error.stdout;
    throw error;
  }
}

function write(name, text) {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

/** The SVG `ppn-ls render` draws for a move, as the page's DOM serialises it. */
async function cliPicture(page, file, label, flipped = false) {
  const svg = cli(['render', file, '--move', label, '--format', 'svg', ...(flipped ? ['--flip'] : [])]);
  return page.evaluate((svg) => {
    const holder = document.createElement('div');
    holder.innerHTML = svg;
    return holder.querySelector('svg').outerHTML;
  }, svg);
}

/** Clicks a control unless it is disabled (already there). */
async function press(page, testId) {
  const control = page.locator(`[data-testid="${testId}"]`);
  if (await control.isEnabled()) await control.click();
}

/** The link Share makes, once made (the game is compressed first, asynchronously). */
async function sharedLink(page) {
  await page.waitForFunction(() => document.querySelector('[data-testid="share-link"]').value !== '');
  return page.$eval('[data-testid="share-link"]', (input) => input.value);
}

async function screenshotOnFailure(page, name, body) {
  try {
    await body();
  } catch (error) {
    await page.screenshot({ path: join(shots, `${name}.png`) }).catch(() => {});
    throw error;
  }
}

test('every example of every notation opens, with its boards drawn as ppn-ls render draws them', async () => {
  const page = await openPage();
  const examples = await page.$$eval('[data-testid="examples"] option', (options) =>
    options.map((option) => option.value).filter(Boolean));
  const files = readdirSync(join(root, 'examples'));
  assert.deepEqual([...examples].sort(), files.filter((f) => /\.(ppn|otg|otn|annofen|xay|fen|wxf)$/.test(f)).sort());
  const notations = new Set(examples.map((name) => extname(name)));
  assert.ok(notations.has('.ppn'), 'a PPN example');
  for (const name of examples) {
    await screenshotOnFailure(page, `example-${name}`, async () => {
      await page.selectOption('[data-testid="examples"]', name);
      await waitForAnalysis(page);
      const file = join(root, 'examples', name);
      const states = await page.evaluate(() => window.ppnPage.page.games[0].states.map((s) => s.label));
      assert.ok(states.length >= 1, `${name}: no state`);
      // The last board (where the viewer goes with End).
      await press(page, 'last');
      const last = states.length - 1;
      const shown = await boardAt(page, last);
      assert.equal(shown, await cliPicture(page, file, states[last]), `${name}: the last board`);
      const label = await page.$eval('[data-testid="board"]', (board) => board.dataset.label);
      assert.equal(label, states[last]);
      // Diagnostics: none in an example, as `ppn-ls check` says.
      const listed = await page.$$eval('[data-testid="diagnostics"] li', (items) => items.length);
      const checked = JSON.parse(cli(['check', '--format', 'json', file]));
      assert.equal(listed, checked.length, `${name}: diagnostics`);
      assert.equal(await page.isVisible('[data-testid="problem"]'), false, `${name}: a problem is shown`);
    });
  }
  await page.screenshot({ path: join(shots, 'last-example.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a broken game gets the diagnostics ppn-ls check gives, in the same places', async () => {
  const page = await openPage();
  const text = '---\nGameType: Tablut\n...\n1. a4-a3 `nowhere\' 1... c5-c3 ]\n2. d1-d3 {🂡 unclosed\n';
  await setText(page, 'broken.ppn', text);
  const shown = await page.$$eval('[data-testid="diagnostics"] li', (items) => items.map((item) => ({
    place: item.querySelector('.place').textContent,
    kind: item.querySelector('.kind').textContent,
    message: item.querySelector('.message').textContent,
  })));
  const checked = JSON.parse(cli(['check', '--format', 'json', write('broken.ppn', text)]));
  assert.ok(checked.length >= 2, JSON.stringify(checked));
  assert.deepEqual(shown, checked.map((d) => ({
    place: `${d.line}:${d.column}`,
    kind: `${d.severity}[${d.code}]`,
    message: d.message,
  })));
  // A click on a diagnostic puts the cursor at its place.
  await page.click('[data-testid="diagnostics"] li:nth-child(2)');
  const cursor = await page.evaluate(() => {
    const { editor } = window.ppnPage;
    const head = editor.state.selection.main.head;
    const line = editor.state.doc.lineAt(head);
    return `${line.number}:${head - line.from + 1}`;
  });
  assert.equal(cursor, `${checked[1].line}:${checked[1].column}`);
  // The squiggles are in the editor too.
  assert.ok(await page.$('.cm-lintRange-error'));
  await page.close();
});

test('the controls step, play and flip, and the cursor and the board follow each other', async () => {
  const page = await openPage();
  const name = 'scholars-mate.ppn';
  await page.selectOption('[data-testid="examples"]', name);
  await waitForAnalysis(page);
  const file = join(root, 'examples', name);
  const states = await page.evaluate(() => window.ppnPage.page.games[0].states);
  await screenshotOnFailure(page, 'controls', async () => {
    await press(page, 'first');
    assert.equal(await boardAt(page, 0), await cliPicture(page, file, 'start'));
    await page.click('[data-testid="next"]');
    await page.click('[data-testid="next"]');
    await page.click('[data-testid="next"]');
    assert.equal(await boardAt(page, 3), await cliPicture(page, file, states[3].label));
    await page.click('[data-testid="prev"]');
    assert.equal(await boardAt(page, 2), await cliPicture(page, file, states[2].label));
    // Moving in the viewer moves the cursor to the move.
    const head = await page.evaluate(() => window.ppnPage.editor.state.selection.main.head);
    assert.equal(head, states[2].from);
    // Keys, outside the editor.
    await page.click('[data-testid="board"]');
    await page.keyboard.press('End');
    await boardAt(page, states.length - 1);
    await page.keyboard.press('Home');
    await boardAt(page, 0);
    await page.keyboard.press('ArrowRight');
    await boardAt(page, 1);
    // Flip: the picture ppn-ls render --flip draws.
    await page.click('[data-testid="flip"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="board"]').dataset.flipped === 'true');
    assert.equal(await boardAt(page, 1), await cliPicture(page, file, states[1].label, true));
    await page.click('[data-testid="flip"]');
    // The cursor moved in the editor: the board follows it.
    await page.evaluate((at) => {
      const { editor } = window.ppnPage;
      editor.dispatch({ selection: { anchor: at } });
    }, states[4].from + 1);
    await boardAt(page, 4);
    // Play at the fastest speed: it reaches the end and stops.
    await page.selectOption('[data-testid="speed"]', '125');
    await press(page, 'first');
    await page.click('[data-testid="play"]');
    await boardAt(page, states.length - 1);
    await page.waitForFunction(() => !window.ppnPage.viewer.playing);
  });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a shared link opens the same game at the same move', async () => {
  const page = await openPage();
  const text = readFileSync(join(root, 'examples', 'tablut-short.ppn'), 'utf8') + '{ shared 🂡 }\n';
  await setText(page, 'shared.ppn', text);
  await page.click('[data-testid="next"]');
  await page.click('[data-testid="next"]');
  await boardAt(page, 2);
  await page.click('[data-testid="share"]');
  const link = await sharedLink(page);
  assert.match(link, /#v=1&/);
  // The address bar holds the link too.
  assert.equal(page.url(), link);
  assert.deepEqual(page.errors, []);
  await page.close();
  const opened = await browser.newPage();
  await opened.goto(link);
  await waitForAnalysis(opened);
  await boardAt(opened, 2);
  assert.equal(await opened.evaluate(() => window.ppnPage.editor.state.doc.toString()), text);
  assert.equal(await opened.$eval('[data-testid="file-name"]', (e) => e.textContent), 'shared.ppn');
  await opened.close();
});

test('hostile texts get diagnostics and never freeze the page', async () => {
  const page = await openPage();
  const hostile = {
    'a range and a long word': `---\n...\n1. S@{1..9999}${'a'.repeat(5000)} 2. S@a1\n`,
    'braces nested 100,000 deep': `---\n...\n1. S@${'{'.repeat(100000)}a${'}'.repeat(100000)}\n`,
    'a long list of nested alternatives': `---\n...\n1. S@${'{a,'.repeat(20000)}${'}'.repeat(20000)}\n`,
    'a huge range': '---\n...\n1. S@{1..999999999}\n',
    '100,005 empty games': '---\n...\n'.repeat(100005),
    'a move number continued 200,000 times': `---\n...\n1. S@a1${';'.repeat(200000)} *z9\n`,
    'metadata nested 100,000 deep': `---\nSetUp: ${'{a: '.repeat(100000)}${'}'.repeat(100000)}\n...\n`,
    'a macro that calls itself': "---\nMacros:\n  a: \"`a' `a'\"\n...\n1. `a'\n",
    'an OpenTafl record of nonsense': '[Rules "dim:7 start:/x/"]\n1. ' + 'zz-zz '.repeat(20000),
    'a WXF record cut short': 'FORMAT\tWXF\nSTART{\n' + '1. C2.5 '.repeat(5000),
  };
  for (const [what, text] of Object.entries(hostile)) {
    await screenshotOnFailure(page, `hostile-${what.replace(/\W+/g, '-')}`, async () => {
      const name = what.includes('OpenTafl') ? 'x.otg' : what.includes('WXF') ? 'x.wxf' : 'x.ppn';
      await page.evaluate(([name, text]) => window.ppnPage.open(name, text), [name, text]);
      // The page answers while the worker works.
      const started = Date.now();
      await page.evaluate(() => 1 + 1);
      assert.ok(Date.now() - started < 1000, `${what}: the page did not answer for ${Date.now() - started} ms`);
      await page.waitForFunction(() => {
        const state = window.ppnPage.page;
        return (state.synced && !state.busy && !state.unsent) || state.problem;
      }, null, { timeout: 60000 });
      const kept = await page.evaluate(() => window.ppnPage.editor.state.doc.length);
      assert.equal(kept, text.length, `${what}: the text is kept`);
      const said = await page.evaluate(() => window.ppnPage.page.diagnostics.length + (window.ppnPage.page.problem ? 1 : 0));
      assert.ok(said > 0, `${what}: nothing was said about it`);
    });
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a panic in the core is shown, the text is kept and the next edit is analysed', async () => {
  const page = await openPage();
  await setText(page, 'game.ppn', '---\n...\n1. S@a1 ]\n');
  const answer = await page.evaluate(async () => {
    try {
      await window.ppnPage.engine.request('failForTest', []);
      return 'no failure';
    } catch (error) {
      return error.kind + ': ' + error.message;
    }
  });
  assert.match(answer, /^panic: [^]*a panic asked for by a test/);
  await page.waitForSelector('[data-testid="problem"]:not([hidden])');
  assert.match(await page.textContent('[data-testid="problem"]'), /Your text is kept/);
  assert.equal(await page.evaluate(() => window.ppnPage.editor.state.doc.toString()), '---\n...\n1. S@a1 ]\n');
  // An edit starts a fresh worker with the whole text.
  await page.evaluate(() => window.ppnPage.editor.dispatch({ changes: { from: 15, to: 17, insert: '' } }));
  await waitForAnalysis(page);
  assert.equal(await page.isVisible('[data-testid="problem"]'), false);
  assert.equal(await page.evaluate(() => window.ppnPage.page.diagnostics.length), 0);
  await page.close();
});

test('the page works served from a sub-path, as GitHub Pages serves it (/ppn-ls/)', async () => {
  const pages = await serve(site, { base: '/ppn-ls/' });
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors = [];
  const failures = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('requestfailed', (request) => failures.push(`${request.url()}: ${request.failure()?.errorText}`));
  try {
    await page.goto(pages.url);
    await waitForAnalysis(page);
    await screenshotOnFailure(page, 'sub-path', async () => {
      // An example opens and its boards are drawn, from the WebAssembly fetched there.
      await page.selectOption('[data-testid="examples"]', 'scholars-mate.ppn');
      await waitForAnalysis(page);
      const states = await page.evaluate(() => window.ppnPage.page.games[0].states.map((s) => s.label));
      await press(page, 'last');
      const shown = await boardAt(page, states.length - 1);
      const file = join(root, 'examples', 'scholars-mate.ppn');
      assert.equal(shown, await cliPicture(page, file, states[states.length - 1]));
      // A shared link stays under the sub-path.
      await page.click('[data-testid="share"]');
      const link = await sharedLink(page);
      assert.ok(link.startsWith(`${pages.url}#v=1&`), link);
    });
    await page.screenshot({ path: join(shots, 'sub-path.png') });
    // Everything the page asked for is under /ppn-ls/, and was there.
    const asked = pages.requests.map(({ path, status }) => `${status} ${path}`);
    assert.deepEqual(asked.filter((line) => !/^200 \/ppn-ls\//.test(line)), [], asked.join('\n'));
    for (const asset of ['index.html', 'app.js', 'engine-source.js', 'viewer.js', 'viewer.css', 'style.css', 'ppn_ls_web_bg.wasm']) {
      const path = asset === 'index.html' ? '/ppn-ls/' : `/ppn-ls/${asset}`;
      assert.ok(pages.requests.some((request) => request.path === path), `${path} was not asked for:\n${asked.join('\n')}`);
    }
    assert.deepEqual(failures, []);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    pages.close();
  }
});

test('the page works from file:// too', async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto('file://' + join(site, 'index.html'));
  await waitForAnalysis(page);
  await boardAt(page, await page.evaluate(() => window.ppnPage.viewer.index));
  assert.deepEqual(errors, []);
  await page.close();
});

test('ppn-ls render --format html writes a viewer that works from disk, with no network', async () => {
  const file = join(root, 'examples', 'tablut-short.ppn');
  const html = join(scratch, 'tablut.html');
  cli(['render', file, '--move', '2.', '-o', html]);
  const page = await browser.newPage();
  const errors = [];
  const requests = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('request', (request) => requests.push(request.url()));
  await page.goto('file://' + html);
  await screenshotOnFailure(page, 'one-file-game', async () => {
    // The file unpacks its pictures asynchronously; the viewer exists once they are shown.
    await page.waitForFunction(() => window.ppnViewer !== undefined);
    // It opens where it was asked to.
    const labels = await page.evaluate(() => window.ppnViewer.states.map((s) => s.label));
    const opening = labels.indexOf('2.');
    assert.ok(opening > 0);
    assert.equal(await boardAt(page, opening), await cliPicture(page, file, '2.'));
    await page.click('[data-testid="next"]');
    assert.equal(await boardAt(page, opening + 1), await cliPicture(page, file, labels[opening + 1]));
    await page.click('[data-testid="flip"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="board"]').dataset.flipped === 'true');
    assert.equal(await boardAt(page, opening + 1), await cliPicture(page, file, labels[opening + 1], true));
    await page.keyboard.press('End');
    await boardAt(page, labels.length - 1);
    await page.click('[data-testid="move-list"] [data-index="1"]');
    assert.equal(await boardAt(page, 1), await cliPicture(page, file, labels[1], true));
  });
  assert.deepEqual(errors, []);
  assert.deepEqual(requests.filter((url) => !url.startsWith('file://') && !url.startsWith('data:')), []);
  await page.close();
});

test('an OpenTafl record lists its variations, and a click on one steps through it', async () => {
  const page = await openPage();
  const file = join(root, 'tests/otn/opentafl/Ard-Ri-Escape-Puzzle.otg');
  await setText(page, 'Ard-Ri-Escape-Puzzle.otg', readFileSync(file, 'utf8'));
  await screenshotOnFailure(page, 'variations', async () => {
    const variations = await page.$$eval('[data-testid="move-list"] .ppn-line', (lines) => lines.map((l) => l.dataset.variation));
    assert.ok(variations.includes('7a.1.'), JSON.stringify(variations));
    await page.click('[data-testid="move-list"] .ppn-line[data-variation="7a.1."] .ppn-move');
    await page.waitForFunction(() => document.querySelector('[data-testid="board"]').dataset.label === '7a.1.1a');
    const index = Number(await page.$eval('[data-testid="board"]', (board) => board.dataset.index));
    assert.equal(await boardAt(page, index), await cliPicture(page, file, '7a.1.1a'));
    // Next stays in the variation.
    await page.click('[data-testid="next"]');
    await boardAt(page, index + 1);
    assert.equal(await page.$eval('[data-testid="board"]', (board) => board.dataset.label), '7a.1.1b');
    assert.equal(await boardAt(page, index + 1), await cliPicture(page, file, '7a.1.1b'));
    // Back before the variation: the moves it follows.
    await page.click('[data-testid="prev"]');
    await page.click('[data-testid="prev"]');
    await boardAt(page, index - 1);
    assert.equal(await page.$eval('[data-testid="board"]', (board) => board.dataset.label), '6b');
    // The cursor on a variation's move shows its board.
    const text = await page.evaluate(() => window.ppnPage.editor.state.doc.toString());
    await page.evaluate((at) => window.ppnPage.editor.dispatch({ selection: { anchor: at } }), text.indexOf('d7-e7 Ke3-e5') + 2);
    await page.waitForFunction(() => document.querySelector('[data-testid="board"]').dataset.label === '7a.1.2a');
  });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the board downloads as SVG and PNG, and the game as a GIF', async () => {
  const page = await openPage();
  await page.selectOption('[data-testid="examples"]', 'tablut-short.ppn');
  await waitForAnalysis(page);
  const file = join(root, 'examples', 'tablut-short.ppn');
  await page.click('[data-testid="next"]');
  await boardAt(page, 1);
  const fetched = async (testId) => {
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), page.click(`[data-testid="${testId}"]`)]);
    const path = await download.path();
    return { name: download.suggestedFilename(), bytes: readFileSync(path) };
  };
  const svg = await fetched('download-svg');
  assert.equal(svg.name, 'tablut-short-1..svg');
  assert.equal(svg.bytes.toString('utf8'), cli(['render', file, '--move', '1.', '--format', 'svg']));
  const png = await fetched('download-png');
  assert.equal(png.name, 'tablut-short-1..png');
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const cliPng = execFileSync(ppnLs, ['render', file, '--move', '1.', '--format', 'png']);
  assert.ok(png.bytes.equals(cliPng), 'the PNG is the one ppn-ls render writes');
  const gif = await fetched('download-gif');
  assert.equal(gif.name, 'tablut-short.gif');
  assert.equal(gif.bytes.subarray(0, 6).toString('latin1'), 'GIF89a');
  const cliGif = execFileSync(ppnLs, ['render', file, '--animate', '--format', 'gif'], { maxBuffer: 64 << 20 });
  assert.ok(gif.bytes.equals(cliGif), 'the GIF is the one ppn-ls render --animate writes');
  await page.close();
});

test('a hover on a move says what ppn-ls says of it, with a picture of the board', async () => {
  const page = await openPage();
  await page.selectOption('[data-testid="examples"]', 'tablut-short.ppn');
  await waitForAnalysis(page);
  const line = page.locator('.cm-line', { hasText: '2. d1-d3' });
  const box = await line.boundingBox();
  // Over `d1-d3`: the move's hover.
  await page.mouse.move(box.x + 4 + 4 * 7.8, box.y + box.height / 2);
  const tooltip = page.locator('.cm-tooltip .hover');
  await tooltip.waitFor({ timeout: 10000 });
  await screenshotOnFailure(page, 'hover', async () => {
    const text = await tooltip.textContent();
    assert.match(text, /Board (before )?2\./);
    const title = await tooltip.locator('svg title').first().textContent();
    assert.ok(title.length > 0);
    assert.equal(await tooltip.locator('.hover-board svg').count(), 1);
  });
  await page.screenshot({ path: join(shots, 'hover.png') });
  await page.close();
});
