// End-to-end test of the VS Code extension in a real VS Code: code-server (VS Code for the
// browser) with the platform .vsix installed in a fresh profile, driven through headless
// Chromium by playwright-core as a user would drive it: keys, the command palette, the
// Problems and Output panels, hovers, the board panel.
//
// Two sessions, each a code-server of its own: one with Workspace Trust on, where a folder
// that is not trusted names a program of its own as the server; then the features, with
// Workspace Trust off as most users of code-server have it.
//
// Run by tests/e2e/run-vscode.sh, which installs code-server and builds the .vsix. Reads:
//   CODE_SERVER  the code-server executable
//   VSIX         the platform-specific .vsix (with its own ppn-ls)
//   CHROMIUM     the browser (default /usr/bin/chromium)
//   ARTIFACTS    where screenshots go (each failure's, the hover's and the board's, and
//                marketplace-board-panel.png, the extension README's picture)
//   EXAMPLES     the repository's examples/ (the README's picture shows one of them)
//   README_PICTURE  where the packaged README's picture must point (package-with-server.mjs
//                makes its relative address absolute, as the Marketplace needs)
// Prints one line per check and "N passed, M failed"; exits 1 on any failure.

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const codeServer = requiredEnv('CODE_SERVER');
const vsix = requiredEnv('VSIX');
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
const artifacts = path.resolve(process.env.ARTIFACTS || 'vscode-e2e-artifacts');
const examples = requiredEnv('EXAMPLES');
const readmePicture = requiredEnv('README_PICTURE');
const STEP_TIMEOUT_MS = 30_000;

function requiredEnv(name) {
  const value = process.env[name];
  if (!value) {
    console.error(`vscode_test.mjs: ${name} is not set`);
    process.exit(2);
  }
  return value;
}

// ---------------------------------------------------------------------------------------
// The files a user opens, in a workspace of their own outside this repository (so that no
// ppn-ls.toml of the repository applies).

const TABLUT = [
  '---',
  'GameType: Tablut',
  'Macros:',
  '  opening: a4-a3',
  '...',
  "1. `opening' 1... c5-c3",
  '2. d1-d3 2... e7*c7',
  '3. f1-f3;*e3 { the defender at e3 is captured }',
  '3... e4-e3;*d3',
  '4. f9-f7 ]',
  '',
].join('\n');

const TAFL = [
  '[date:2017.04.15]',
  '[result:?]',
  '[compiler:OpenTafl]',
  '[rules:dim:7 name:CopenhagenPuzzle atkf:y tfr:w cor:g7, cen:b2, sw:s efe:y starti:/tt2T2/1t2K2/2tt3/6t/3TTt1/4Tt1/4Tt1/]',
  '',
  '1. f3-f6 e7-d7',
  '2. f6-g6 Ke6-a1',
  '',
].join('\n');

/** A game to make a move in, on the board panel. */
const PLAY = '---\nGameType: Chess\n...\n1. e2-e4\n';

const XIANGQI = ['FORMAT  WXF', 'START{', ' 1. H2+3 h8+7', ' 2. H3+4 r9.8', '}END', ''].join('\n');

// A stranger's folder: its settings name a program of its own, with arguments, as the
// server. The program only notes that it was started (in a file outside the folder) and
// fails.
const STRANGER_GAME = '---\nGameType: Tablut\n...\n1. a4-a3 1... c5-c3 ]\n';
/** The game the extension README's picture shows. */
const README_EXAMPLE = 'notation-tour.ppn';

const STRANGER_SETTINGS = { 'ppn.server.path': './tools/ppn-ls', 'ppn.server.args': ['--from-the-folder'] };

const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'git.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'editor.minimap.enabled': false,
  // VS Code for the browser saves after a delay by default; the test saves when it means to.
  'files.autoSave': 'off',
  // The test writes settings.json whole; as typed keys, brackets and quotes would pair up.
  '[jsonc]': {
    'editor.autoClosingBrackets': 'never',
    'editor.autoClosingQuotes': 'never',
    'editor.autoIndent': 'none',
    'editor.autoSurround': 'never',
  },
};

// ---------------------------------------------------------------------------------------
// Checks and their report.

let passed = 0;
let failed = 0;
let page;

async function check(name, body) {
  try {
    const detail = await body();
    passed++;
    console.log(`ok   ${name}${detail ? ` (${detail})` : ''}`);
    return true;
  } catch (error) {
    failed++;
    console.log(`FAIL ${name}: ${error instanceof Error ? error.message : String(error)}`);
    if (page) {
      const file = path.join(artifacts, `failure-${failed}-${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}.png`);
      await page.screenshot({ path: file }).catch(() => {});
      console.log(`     screenshot: ${file}`);
    }
    return false;
  }
}

function assert(condition, message) {
  if (!condition) {
    throw new Error(message);
  }
}

/** Polls `probe` until it returns a truthy value; fails with `what` and the last value. */
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

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// ---------------------------------------------------------------------------------------
// Driving VS Code.

/** Runs a command by its title from the command palette. */
async function runCommand(title) {
  await openQuickInput('>');
  await page.keyboard.type(title);
  await pickQuickInputRow(title);
}

/**
 * Picks the row of the open quick input whose label is `label` (the list puts the best
 * fuzzy match first, which is not always the one wanted).
 */
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

/** Opens the quick input with `prefix` in it (`>` commands, `:` lines, `` files). */
async function openQuickInput(prefix) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(prefix);
}

/** Puts the cursor at a 1-based line and column of the active editor. */
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
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
}

const ACTIVE_TAB = '.editor-group-container.active .tab.active';

/** Saves the active editor once the edit just made shows in it. */
async function save() {
  await waitFor('the edit in the editor', async () => (await page.locator(`${ACTIVE_TAB}.dirty`).count()) === 1);
  await page.keyboard.press('Control+S');
  await waitFor('the file to be saved', async () => (await page.locator(`${ACTIVE_TAB}.dirty`).count()) === 0);
}

/** The rows of the Problems panel: `{severity, message, code, where}`. */
async function problems() {
  await runCommand('View: Focus Problems (Errors, Warnings, Infos)');
  await page.locator('.markers-panel').waitFor({ state: 'visible' });
  return page.evaluate(() =>
    [...document.querySelectorAll('.markers-panel .monaco-list-row')]
      .map((row) => row.getAttribute('aria-label') ?? '')
      .filter((label) => /^(Error|Warning|Info|Hint)/.test(label))
      .map((label) => label),
  );
}

async function squiggles(kind) {
  return page.locator(`.editor-group-container.active .monaco-editor .squiggly-${kind}`).count();
}

/**
 * The text of every notification, with severity: those on screen, or, when none is, those
 * in the notification centre (a toast can go before the test looks).
 */
async function notifications() {
  const read = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('.notification-list-item')].map((item) => {
        const icon = item.querySelector('.notification-list-item-icon');
        const severity = icon?.classList.contains('codicon-error')
          ? 'error'
          : icon?.classList.contains('codicon-warning')
            ? 'warning'
            : 'info';
        const message = item.querySelector('.notification-list-item-message')?.textContent ?? '';
        return { severity, message };
      }),
    );
  const shown = await read();
  if (shown.length > 0) {
    return shown;
  }
  await showNotificationCentre();
  return read();
}

async function showNotificationCentre() {
  await runCommand('Notifications: Show Notifications');
  await sleep(300);
}

async function clearNotifications() {
  await runCommand('Notifications: Clear All Notifications');
  await waitFor('no notifications', async () => (await notifications()).length === 0);
  await page.keyboard.press('Escape');
}

/** The text of the output channel `name`. */
async function outputChannel(name) {
  await runCommand('Output: Show Output Channels...');
  await page.keyboard.type(name);
  await pickQuickInputRow(name);
  const view = page.locator('.output-view .monaco-editor .view-lines');
  await view.waitFor({ state: 'visible' });
  await sleep(500);
  return (await view.innerText()).replace(/\u00a0/g, ' ');
}

/** The hover shown at the cursor: its text, and the code block's characters checked. */
async function hoverAtCursor() {
  await page.locator('.monaco-hover').first().waitFor({ state: 'hidden' }).catch(() => {});
  await runCommand('Show or Focus Hover');
  const hover = page.locator('.monaco-hover:not(.hidden) .monaco-hover-content').first();
  await hover.waitFor({ state: 'visible' });
  await sleep(300);
  return hover;
}

/**
 * How the hover's code block shows on screen, checked character by character in the
 * font the page gives it: a character drawn exactly like one no font has (a box) is
 * missing, and a character whose advance differs from the grid's cell breaks the columns.
 */
async function glyphReport(hover) {
  return hover.evaluate((element) => {
    // A fenced code block, as VS Code renders it: lines of tokens between <br>s.
    const code = element.querySelector('[data-code] .monaco-tokenized-source');
    if (code === null) {
      return { font: '', text: '', characters: 0, lines: 0, missing: [], misaligned: [], combining: [] };
    }
    const text = code.innerText;
    const style = getComputedStyle(code);
    const font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 64;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    context.font = font;
    context.textBaseline = 'top';
    const draw = (character) => {
      context.clearRect(0, 0, 64, 64);
      context.fillText(character, 8, 8);
      return context.getImageData(0, 0, 64, 64).data.join(',');
    };
    // A code point of the last plane's private use area: no font draws it.
    const missingPicture = draw('\u{10FFFD}');
    const cell = context.measureText('M').width;
    const characters = [...new Set([...text])].filter((character) => character !== '\n');
    const missing = [];
    const misaligned = [];
    const combining = [];
    for (const character of characters) {
      if (/\p{M}/u.test(character)) {
        combining.push(character);
        continue;
      }
      if (character.trim() !== '' && draw(character) === missingPicture) {
        missing.push(character);
      }
      if (Math.abs(context.measureText(character).width - cell) > 0.01) {
        misaligned.push(character);
      }
    }
    const lines = text.split('\n').filter((line) => line !== '');
    return { font: style.fontFamily, text, characters: characters.length, lines: lines.length, missing, misaligned, combining };
  });
}

function assertDrawnInColumns(report) {
  assert(report.combining.length === 0, `combining marks: ${JSON.stringify(report.combining)}`);
  assert(report.missing.length === 0, `drawn as missing glyphs in ${report.font}: ${JSON.stringify(report.missing)}`);
  assert(report.misaligned.length === 0, `wider or narrower than a cell in ${report.font}: ${JSON.stringify(report.misaligned)}`);
}

/** The board panel's frame (the webview's inner document), once it shows the viewer. */
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

/** The label of the board the panel shows, once its picture is drawn. */
async function boardLabel(frame) {
  const board = frame.locator('[data-testid="board"]');
  const label = await board.getAttribute('data-label', { timeout: 1000 }).catch(() => null);
  // The label changes at once; the picture when the server has drawn it (its alt names it).
  const image = board.locator('img.ppn-board-image');
  const alt = (await image.count().catch(() => 0)) ? await image.getAttribute('alt', { timeout: 1000 }).catch(() => null) : null;
  return label !== null && alt === `The board after ${label}` ? label : null;
}

async function waitForBoard(frame, label) {
  return waitFor(`the board panel to show ${label}`, async () => ((await boardLabel(frame)) === label ? label : undefined));
}

/** The cursor's place as the status bar shows it: `Ln 3, Col 1`. */
async function cursorPlace() {
  return (await page.locator('.statusbar-item[id="status.editor.selection"]').textContent().catch(() => '')) ?? '';
}

/** Waits for the editor's cursor to match; the status bar shows it once the editor has the focus. */
async function waitForCursorPlace(what, pattern) {
  await runCommand('View: Focus First Editor Group');
  return waitFor(what, async () => pattern.test(await cursorPlace()));
}

async function waitForCursor(line, column) {
  return waitForCursorPlace(`the cursor at ${line}:${column}`, new RegExp(`Ln ${line}, Col ${column}(?!\\d)`));
}

// ---------------------------------------------------------------------------------------
// code-server.

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The process ids of the ppn-ls bundled in the extensions of this test's profile. */
function serverProcesses() {
  const found = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const executable = fs.readlinkSync(`/proc/${entry}/exe`);
      if (executable.startsWith(extensionsDirectory) && executable.endsWith('/server/ppn-ls')) {
        found.push(Number(entry));
      }
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

let extensionsDirectory = '';

/** PATH without any directory that holds a ppn-ls: the extension must use its own. */
function pathWithoutPpnLs() {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((directory) => directory !== '' && !fs.existsSync(path.join(directory, 'ppn-ls')))
    .join(path.delimiter);
}

/**
 * Workspace Trust as a careful user has it: on, with no dialog when a folder opens (a
 * folder not yet trusted opens in Restricted Mode; the test trusts it later, from the
 * Workspace Trust editor).
 */
const TRUST_SETTINGS = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.emptyWindow': false,
};

async function startCodeServer(root, { workspaceTrust }) {
  const userData = path.join(root, 'user-data');
  const extensions = path.join(root, 'extensions');
  extensionsDirectory = extensions;
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  const settings = { ...USER_SETTINGS, ...(workspaceTrust ? TRUST_SETTINGS : { 'security.workspace.trust.enabled': false }) };
  fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  const common = ['--config', path.join(root, 'code-server.yaml'), '--user-data-dir', userData, '--extensions-dir', extensions];
  fs.writeFileSync(path.join(root, 'code-server.yaml'), '');
  const installStarted = Date.now();
  execFileSync(codeServer, [...common, '--install-extension', vsix], { stdio: ['ignore', 'pipe', 'inherit'] });
  const installMs = Date.now() - installStarted;
  const port = await freePort();
  const env = { ...process.env, PATH: pathWithoutPpnLs() };
  const log = fs.openSync(path.join(artifacts, `code-server-${path.basename(root)}.log`), 'w');
  const child = spawn(
    codeServer,
    [
      ...common,
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
      '--disable-getting-started-override',
    ],
    { env, stdio: ['ignore', log, log], detached: true },
  );
  await waitFor('code-server to listen', async () => {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      return response.ok;
    } catch {
      return false;
    }
  }, 60_000);
  return { child, port, installMs };
}

/**
 * Sets the workspace's settings as a user does: in its settings.json, opened from the
 * palette. (`ppn.server.path` may be set for a machine or a workspace, not in the user
 * settings of a remote window, which code-server's are.)
 */
async function writeWorkspaceSettings(settings) {
  await runCommand('Preferences: Open Workspace Settings (JSON)');
  await waitFor('settings.json in the active tab', async () =>
    (await page.locator(ACTIVE_TAB).getAttribute('aria-label').catch(() => ''))?.startsWith('settings.json'),
  );
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(JSON.stringify(settings, null, 2));
  await save();
  await runCommand('View: Close Editor');
}

// ---------------------------------------------------------------------------------------
// The test.

async function main() {
  const started = Date.now();
  fs.mkdirSync(artifacts, { recursive: true });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ppn-vscode-e2e-'));
  let browser;
  try {
    browser = await chromium.launchPersistentContext(path.join(root, 'chromium'), {
      executablePath: browserPath,
      headless: true,
      viewport: { width: 1400, height: 900 },
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    await trustSession(browser, path.join(root, 'trust'));
    await featureSession(browser, path.join(root, 'features'));
  } finally {
    await browser?.close().catch(() => {});
    if (failed === 0) {
      fs.rmSync(root, { recursive: true, force: true });
    } else {
      console.log(`kept ${root} for inspection`);
    }
  }
  console.log(`${passed} passed, ${failed} failed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exit(failed === 0 ? 0 : 1);
}

/**
 * Starts a code-server of its own in `root`, opens `workspace` in a new tab of the browser
 * once `firstFile` shows in the explorer, and runs `body`; stops them after.
 */
async function withCodeServer(browser, root, { workspaceTrust, workspace, firstFile }, body) {
  const { child, port, installMs } = await startCodeServer(root, { workspaceTrust });
  console.log(
    `code-server on port ${port}, Workspace Trust ${workspaceTrust ? 'on' : 'off'}; extension installed in ${installMs} ms`,
  );
  try {
    page = await browser.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator('.monaco-workbench').waitFor();
    await page.locator(`.explorer-folders-view .monaco-list-row[aria-label^="${firstFile}"]`).waitFor();
    await body();
  } finally {
    await page?.close().catch(() => {});
    page = undefined;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
}

async function featureSession(browser, root) {
  const workspace = path.join(root, 'games');
  fs.mkdirSync(workspace, { recursive: true });
  fs.writeFileSync(path.join(workspace, 'tablut.ppn'), TABLUT);
  fs.writeFileSync(path.join(workspace, 'tafl.otg'), TAFL);
  fs.writeFileSync(path.join(workspace, 'record.wxf'), XIANGQI);
  fs.writeFileSync(path.join(workspace, 'play.ppn'), PLAY);
  fs.copyFileSync(path.join(examples, README_EXAMPLE), path.join(workspace, README_EXAMPLE));
  // A "server" that fails at once, counting how often it is started.
  const crashCount = path.join(root, 'crash-count');
  const crashingServer = path.join(root, 'crashing-ppn-ls');
  fs.writeFileSync(crashingServer, `#!/bin/sh\necho started >> '${crashCount}'\necho 'simulated failure' >&2\nexit 3\n`);
  fs.chmodSync(crashingServer, 0o755);
  await withCodeServer(browser, root, { workspaceTrust: false, workspace, firstFile: 'tablut.ppn' }, () =>
    runChecks({ workspace, crashCount, crashingServer }),
  );
}

async function trustSession(browser, root) {
  const stranger = path.join(root, 'cloned-repository');
  fs.mkdirSync(path.join(stranger, '.vscode'), { recursive: true });
  fs.mkdirSync(path.join(stranger, 'tools'));
  fs.writeFileSync(path.join(stranger, 'game.ppn'), STRANGER_GAME);
  fs.writeFileSync(path.join(stranger, '.vscode', 'settings.json'), JSON.stringify(STRANGER_SETTINGS, null, 2));
  // The marker is outside the folder, where the folder's program would not be looked for.
  const marker = path.join(root, 'started-by-the-folder');
  const program = path.join(stranger, 'tools', 'ppn-ls');
  fs.writeFileSync(program, `#!/bin/sh\necho "$0 $*" >> '${marker}'\nexit 3\n`);
  fs.chmodSync(program, 0o755);
  await withCodeServer(browser, root, { workspaceTrust: true, workspace: stranger, firstFile: 'game.ppn' }, () =>
    runTrustChecks({ marker }),
  );
}

async function runTrustChecks({ marker }) {
  const trustIndicator = () =>
    page.evaluate(() => {
      const statusBar = document.querySelector('.statusbar')?.textContent ?? '';
      return statusBar.includes('Restricted Mode');
    });

  await check('with Workspace Trust on, a new folder opens in Restricted Mode', async () => {
    await waitFor('Restricted Mode in the status bar', trustIndicator);
  });

  await check("in Restricted Mode the folder's ppn.server.path and args are ignored: the bundled server serves it", async () => {
    await openFile('game.ppn');
    const rows = await waitFor('the diagnostics of game.ppn', async () => {
      const found = (await problems()).filter((row) => row.includes('unexpected `]`'));
      return found.length > 0 ? found : undefined;
    });
    // The squiggle is drawn a moment after the Problems row may show.
    await waitFor('an error squiggle in game.ppn', async () => (await squiggles('error')) >= 1);
    const servers = serverProcesses();
    assert(servers.length === 1, `${servers.length} bundled servers running`);
    const commandLine = fs.readFileSync(`/proc/${servers[0]}/cmdline`, 'utf8').split('\0').filter(Boolean);
    assert(commandLine.length === 1, `the bundled server was started with ${JSON.stringify(commandLine.slice(1))}`);
    const output = await outputChannel('PPN Language Server');
    assert(/Starting \S+\/server\/ppn-ls \(bundled with the extension\)/.test(output), `no bundled start in ${JSON.stringify(output.slice(0, 500))}`);
    // Time enough for the folder's program to have been started, had it been.
    await sleep(3000);
    if (fs.existsSync(marker)) {
      throw new Error(`the folder's program was started: ${fs.readFileSync(marker, 'utf8')}`);
    }
    assert(await trustIndicator(), 'no longer in Restricted Mode');
    await page.screenshot({ path: path.join(artifacts, 'restricted-mode.png') });
    return rows[0].slice(0, 60);
  });

  await check('trusting the folder later starts the program its settings name, with its arguments', async () => {
    await runCommand('Workspaces: Manage Workspace Trust');
    const trustButton = page.locator('.workspace-trust-editor .monaco-button', { hasText: /^Trust( Folder)?$/ }).first();
    await trustButton.click();
    await waitFor('Restricted Mode to end', async () => !(await trustIndicator()));
    const started = await waitFor("the folder's program to be started", async () =>
      fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : undefined,
    );
    assert(/tools\/ppn-ls --from-the-folder\n$/.test(started), JSON.stringify(started));
    const errors = await waitFor('its failure reported', async () => {
      const found = (await notifications()).filter((notification) => notification.severity === 'error');
      return found.length > 0 ? found : undefined;
    });
    assert(errors[0].message.includes('ppn.server.path'), errors[0].message);
    // Trust comes with a configuration change: the program is started once, not twice.
    await sleep(3000);
    const starts = fs.readFileSync(marker, 'utf8').split('\n').filter(Boolean).length;
    assert(starts === 1, `the folder's program was started ${starts} times`);
    return started.trim().replace(/^.*\/tools\//, 'tools/');
  });
}

async function runChecks({ workspace, crashCount, crashingServer }) {
  const tablut = path.join(workspace, 'tablut.ppn');
  await openFile('tablut.ppn');

  await check('diagnostics show as squiggles', async () => {
    const count = await waitFor('two error squiggles', async () => {
      const found = await squiggles('error');
      return found >= 2 ? found : undefined;
    });
    return `${count} error squiggles`;
  });

  await check('the Problems panel lists them with code and place', async () => {
    const rows = await waitFor('two problems', async () => {
      const found = await problems();
      return found.length === 2 ? found : undefined;
    });
    assert(/^Error: `e7\*c7` is a capture as the first PPN drafts wrote it.* at line 7 and character 15/.test(rows[0]), rows[0]);
    assert(/^Error: unexpected `\]`: there is no `\[` to close at line 10 and character 10/.test(rows[1]), rows[1]);
  });

  await check('a quick fix rewrites the old capture', async () => {
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await goTo(7, 16);
    await runCommand('Quick Fix...');
    const action = page.locator('.action-widget .monaco-list-row', { hasText: 'write `e7:c7`' });
    await action.waitFor({ state: 'visible' });
    // The only fix there, already selected.
    await page.keyboard.press('Enter');
    await action.waitFor({ state: 'hidden' });
    await save();
    const text = fs.readFileSync(tablut, 'utf8');
    assert(text.split('\n')[6] === '2. d1-d3 2... e7:c7', `line 7 is now ${JSON.stringify(text.split('\n')[6])}`);
    await waitFor('the old-capture problem to go', async () => !(await problems()).some((row) => row.includes('e7*c7')));
  });

  await check('hover on a move shows the board, every character drawn and in its column', async () => {
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await goTo(9, 2);
    const hover = await hoverAtCursor();
    const text = await hover.innerText();
    await page.screenshot({ path: path.join(artifacts, 'hover-ppn.png') });
    assert(text.includes('3...'), `the hover does not name the move: ${JSON.stringify(text.slice(0, 200))}`);
    const report = await glyphReport(hover);
    assert(report.lines >= 9, `the board has ${report.lines} lines: ${JSON.stringify(report.text)}`);
    assertDrawnInColumns(report);
    await page.keyboard.press('Escape');
    return `${report.characters} distinct characters in ${report.font}`;
  });

  await check('completion offers the macro and inserts it', async () => {
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await goTo(11, 1);
    await page.keyboard.type('5. ');
    await page.keyboard.type('`');
    const item = page.locator('.suggest-widget.visible .monaco-list-row', { hasText: 'opening' });
    await item.first().waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    await save();
    const line = fs.readFileSync(tablut, 'utf8').split('\n')[10];
    assert(line === "5. `opening'", `line 11 is ${JSON.stringify(line)}`);
  });

  let frame;
  await check('PPN: Show Board shows the board at the cursor and follows it', async () => {
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await goTo(9, 2);
    await runCommand('PPN: Show Board');
    frame = await boardFrame();
    await waitForBoard(frame, '3...');
    await page.screenshot({ path: path.join(artifacts, 'board-ppn.png') });
    await page.locator('.editor-group-container .monaco-editor .view-lines').first().click();
    await goTo(7, 2);
    await waitForBoard(frame, '2.');
  });

  await check("the board panel's controls move the cursor, and the board with it", async () => {
    frame ??= await boardFrame();
    await page.locator('.editor-group-container .monaco-editor .view-lines').first().click();
    // The states of a move's sub-moves (`3... e4-e3;*d3`) are steps of their own.
    await goTo(9, 2);
    await waitForBoard(frame, '3...');
    const click = async (control) => frame.locator(`[data-testid="${control}"]`).click();
    await click('next');
    await waitForBoard(frame, '3....');
    await waitForCursorPlace('the cursor on `*d3`', /Ln 9, Col 1[12](?!\d)/);
    await click('next');
    await waitForBoard(frame, '4.');
    await waitForCursor(10, 1);
    await click('last');
    await waitForBoard(frame, '5.');
    await waitForCursor(11, 1);
    assert(await frame.locator('[data-testid="next"]').isDisabled(), 'next is not disabled at the last move');
    await click('first');
    await waitForBoard(frame, 'start');
    await waitForCursor(1, 1);
    // The keys of the viewer, in the panel.
    await frame.locator('[data-testid="board"]').click();
    await page.keyboard.press('ArrowRight');
    await waitForBoard(frame, '1.');
    await waitForCursor(6, 1);
    await click('prev');
    await waitForBoard(frame, 'start');
    // Flipped: the same board, drawn from the other side.
    const picture = async () => frame.locator('[data-testid="board"] img').getAttribute('src');
    const upright = await picture();
    await click('flip');
    await waitFor(
      'the flipped picture',
      async () =>
        (await picture()) !== upright &&
        (await frame.locator('[data-testid="board"]').getAttribute('data-flipped')) === 'true',
    );
    await page.screenshot({ path: path.join(artifacts, 'board-controls.png') });
    await click('flip');
    // Play: the cursor walks through the game; the user's own move stops it.
    await frame.locator('[data-testid="speed"]').selectOption({ label: '4×' });
    await click('play');
    await waitForBoard(frame, '2.');
    await waitForCursorPlace('the cursor on the move played', /Ln (7|8|9|10|11), Col \d+/);
    await page.locator('.editor-group-container .monaco-editor .view-lines').first().click();
    await goTo(6, 2);
    await waitForBoard(frame, '1.');
    await sleep(1500);
    assert((await boardLabel(frame)) === '1.', `still playing: ${await boardLabel(frame)}`);
    assert((await cursorPlace()).includes('Ln 6, Col 2'), await cursorPlace());
  });

  await check('an OpenTafl record: its illegal move, hover and board', async () => {
    await openFile('tafl.otg');
    const rows = await waitFor('the illegal move in Problems', async () => {
      const found = (await problems()).filter((row) => row.includes('is illegal'));
      return found.length > 0 ? found : undefined;
    });
    assert(/^Error: 2b Ke6-a1 is illegal.* at line 7 and character 11/.test(rows[0]), rows[0]);
    assert((await squiggles('error')) >= 1, 'no error squiggle in tafl.otg');
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await goTo(6, 5);
    const hover = await hoverAtCursor();
    const report = await glyphReport(hover);
    await page.screenshot({ path: path.join(artifacts, 'hover-otg.png') });
    assert(report.lines >= 7, `the hover's board has ${report.lines} lines`);
    assertDrawnInColumns(report);
    await page.keyboard.press('Escape');
    frame ??= await boardFrame();
    await waitForBoard(frame, '1a');
  });

  await check('a move made on the board panel is written into the file as typing is; one undo takes it back', async () => {
    const play = path.join(workspace, 'play.ppn');
    await openFile('play.ppn');
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await goTo(4, 3);
    frame ??= await boardFrame();
    await waitForBoard(frame, '1.');
    // The squares lie over the picture, named as a screen reader says them.
    const e4 = frame.locator('[data-square="e4"]');
    await e4.waitFor({ state: 'attached' });
    const named = await e4.getAttribute('aria-label');
    assert(/^e4, \S/.test(named) && !named.includes('empty'), `e4 is named ${JSON.stringify(named)}`);
    // Clicked, then its square: written after 1. e2-e4, and its board shown.
    await frame.locator('[data-square="d7"]').click();
    await frame.locator('[data-square="d7"].ppn-picked').waitFor();
    await frame.locator('[data-square="d5"]').click();
    await waitForBoard(frame, '2.');
    const said = await frame.locator('[data-testid="move-message"]').textContent();
    assert(said === 'Written: d7-d5', `the panel said ${JSON.stringify(said)}`);
    await page.screenshot({ path: path.join(artifacts, 'board-move-entered.png') });
    // The document is edited, not the file: dirty until saved, as after typing.
    await runCommand('View: Focus First Editor Group');
    await save();
    const written = fs.readFileSync(play, 'utf8');
    assert(written === '---\nGameType: Chess\n...\n1. e2-e4 2. d7-d5\n', `play.ppn holds ${JSON.stringify(written)}`);
    // One undo in the editor takes the move back.
    await page.keyboard.press('Control+Z');
    await save();
    const undone = fs.readFileSync(play, 'utf8');
    assert(undone === PLAY, `after one undo play.ppn holds ${JSON.stringify(undone)}`);
    await waitForBoard(frame, '1.');
  });

  await check('a xiangqi WXF record: its illegal move, hover and board', async () => {
    await openFile('record.wxf');
    const rows = await waitFor('the blocked horse in Problems', async () => {
      const found = (await problems()).filter((row) => row.includes("horse's leg is blocked"));
      return found.length > 0 ? found : undefined;
    });
    assert(/ at line 4 and character 5/.test(rows[0]), rows[0]);
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await goTo(3, 5);
    const hover = await hoverAtCursor();
    const report = await glyphReport(hover);
    await page.screenshot({ path: path.join(artifacts, 'hover-wxf.png') });
    assert(report.lines >= 10, `the hover's board has ${report.lines} lines`);
    assertDrawnInColumns(report);
    await page.keyboard.press('Escape');
    frame ??= await boardFrame();
    await waitForBoard(frame, '1.');
  });

  await check('no error notification', async () => {
    await showNotificationCentre();
    const shown = await notifications();
    const errors = shown.filter((notification) => notification.severity === 'error');
    assert(errors.length === 0, JSON.stringify(errors));
    return `${shown.length} notifications, none an error`;
  });

  await check('the output channel names the bundled server and holds no error', async () => {
    const text = await outputChannel('PPN Language Server');
    assert(/Starting \S+\/server\/ppn-ls \(bundled with the extension\)/.test(text), `no bundled start in ${JSON.stringify(text.slice(0, 500))}`);
    const bad = text.split('\n').filter((line) => /\[Error|panicked|error/i.test(line));
    assert(bad.length === 0, JSON.stringify(bad));
  });

  await check('a server killed while in use gives one message and is not restarted', async () => {
    await clearNotifications();
    const before = serverProcesses();
    assert(before.length === 1, `${before.length} bundled servers running: ${JSON.stringify(before)}`);
    process.kill(before[0], 'SIGKILL');
    await waitFor('an error notification', async () =>
      (await notifications()).some((notification) => notification.severity === 'error'),
    );
    await sleep(5000);
    const errors = (await notifications()).filter((notification) => notification.severity === 'error');
    assert(errors.length === 1, `${errors.length} error notifications: ${JSON.stringify(errors)}`);
    assert(/the language server stopped: .*was killed by SIGKILL.*ppn\.server\.path/.test(errors[0].message), errors[0].message);
    const after = serverProcesses();
    assert(after.length === 0, `restarted: ${JSON.stringify(after)}`);
  });

  await check('a crashing server gives one message naming ppn.server.path, and is not restarted', async () => {
    await clearNotifications();
    await writeWorkspaceSettings({ 'ppn.server.path': crashingServer });
    const shown = await waitFor('an error notification', async () => {
      const found = (await notifications()).filter((notification) => notification.severity === 'error');
      return found.length > 0 ? found : undefined;
    });
    // Time enough for a restart loop to show itself.
    await sleep(5000);
    const errors = (await notifications()).filter((notification) => notification.severity === 'error');
    assert(errors.length === 1, `${errors.length} error notifications: ${JSON.stringify(errors)}`);
    assert(errors[0].message.includes('ppn.server.path'), errors[0].message);
    assert(errors[0].message.includes('exited with code 3'), errors[0].message);
    const starts = fs.readFileSync(crashCount, 'utf8').split('\n').filter(Boolean).length;
    assert(starts === 1, `the crashing server was started ${starts} times`);
    return shown[0].message;
  });

  await check('a missing server gives one message naming ppn.server.path', async () => {
    await clearNotifications();
    await writeWorkspaceSettings({ 'ppn.server.path': '/nonexistent/ppn-ls' });
    await waitFor('an error notification', async () =>
      (await notifications()).some((notification) => notification.severity === 'error'),
    );
    await sleep(2000);
    const errors = (await notifications()).filter((notification) => notification.severity === 'error');
    assert(errors.length === 1, `${errors.length} error notifications: ${JSON.stringify(errors)}`);
    assert(/"\/nonexistent\/ppn-ls" does not exist or is not executable.*ppn\.server\.path/.test(errors[0].message), errors[0].message);
  });

  await check('with the setting emptied again the bundled server is back', async () => {
    await clearNotifications();
    await writeWorkspaceSettings({});
    await openFile('tablut.ppn');
    await waitFor('the diagnostics again', async () => (await problems()).some((row) => row.includes('unexpected `]`')));
    const errors = (await notifications()).filter((notification) => notification.severity === 'error');
    assert(errors.length === 0, JSON.stringify(errors));
  });

  const unexpectedBracket = (rows) => rows.find((row) => row.includes('unexpected `]`'));

  await check('a ppn-ls setting changes what is reported', async () => {
    await writeWorkspaceSettings({ 'ppn-ls.diagnostics.severity': { 'unexpected-token': 'warning' } });
    await openFile('tablut.ppn');
    const row = await waitFor('the unexpected `]` as a warning', async () => {
      const found = unexpectedBracket(await problems());
      return found?.startsWith('Warning:') ? found : undefined;
    });
    await waitFor('a warning squiggle', async () => (await squiggles('warning')) >= 1);
    return row.slice(0, 60);
  });

  const configFile = path.join(workspace, 'ppn-ls.toml');
  await check('a ppn-ls.toml written to disk wins over the setting', async () => {
    fs.writeFileSync(configFile, '[diagnostics.severity]\nunexpected-token = "off"\n');
    await waitFor('the unexpected `]` to go', async () => unexpectedBracket(await problems()) === undefined);
  });

  await check('ppn-ls.toml counts as it is typed, and its mistakes are reported in it', async () => {
    await openFile('ppn-ls.toml');
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('[diagnostics.severity]\nunexpected-token = "error"\nunexpected-tokens = "off"\n');
    const row = await waitFor('the unexpected `]` as an error again', async () => {
      const found = unexpectedBracket(await problems());
      return found?.startsWith('Error:') ? found : undefined;
    });
    const mistake = await waitFor('the unknown code reported in ppn-ls.toml', async () =>
      (await problems()).find((entry) => entry.includes('unexpected-tokens') && entry.includes('at line 3 and character 1')),
    );
    assert(mistake.startsWith('Warning:'), mistake);
    await save();
    return `${row.slice(0, 40)}; ${mistake.slice(0, 80)}`;
  });

  await check('ppn-ls.hover.board: reference draws the reference glyphs', async () => {
    await writeWorkspaceSettings({ 'ppn-ls.hover.board': 'reference' });
    await openFile('tablut.ppn');
    await goTo(9, 2);
    const hover = await hoverAtCursor();
    const report = await glyphReport(hover);
    await page.keyboard.press('Escape');
    assert(report.combining.includes('\u20dd'), `no enclosing circle: ${JSON.stringify(report.text.slice(0, 200))}`);
  });

  await check("the extension's page shows its icon, and its README's picture at its address in the repository", async () => {
    await runCommand('Extensions: Show Enabled Extensions');
    await page.locator('.extensions-viewlet .monaco-list-row', { hasText: 'Portable Piecepack Notation' }).first().click();
    const icon = page.locator('.extension-editor .header .icon-container img.icon');
    const iconWidth = await waitFor('the icon, drawn', async () =>
      icon.evaluate((image) => (image.complete && /icon\.png/.test(image.src) ? image.naturalWidth : 0)).catch(() => 0),
    );
    assert(iconWidth >= 128, `the icon is ${iconWidth} pixels wide`);
    // The README, in a frame of its own: its picture at an https address (VS Code shows a
    // relative one broken, as this test found), the one packaging wrote.
    const alt = 'A PPN game with the board panel beside it';
    const source = await waitFor("the README's picture", async () => {
      for (const frame of page.frames()) {
        const picture = frame.locator(`img[alt="${alt}"]`);
        if ((await picture.count().catch(() => 0)) > 0) {
          return picture.first().getAttribute('src').catch(() => undefined);
        }
      }
      return undefined;
    });
    assert(source === readmePicture, `the picture is at ${source}, not ${readmePicture}`);
    await page.screenshot({ path: path.join(artifacts, 'extension-page.png') });
    // Closed by its tab: the keys would go to the README's frame.
    await page.locator(`${ACTIVE_TAB} .codicon-close`).click();
    return `icon ${iconWidth} px wide`;
  });

  await check("the extension README's picture: an example game beside its board", async () => {
    await writeWorkspaceSettings({});
    await runCommand('View: Close All Editors');
    await runCommand('View: Hide Panel');
    await runCommand('View: Show Explorer');
    await page.setViewportSize({ width: 1280, height: 720 });
    try {
      await openFile(README_EXAMPLE);
      // The game and its board, without the test's other files beside them.
      await runCommand('View: Toggle Primary Side Bar Visibility');
      await goTo(12, 2);
      await runCommand('PPN: Show Board');
      const frame = await boardFrame();
      const label = await waitFor('the board of move 4', async () => {
        const shown = await boardLabel(frame);
        return shown?.startsWith('4') ? shown : undefined;
      });
      await page.locator('.editor-group-container .monaco-editor .view-lines').first().click();
      await goTo(12, 2);
      await sleep(500);
      await page.screenshot({ path: path.join(artifacts, 'marketplace-board-panel.png') });
      return `the board after ${label}`;
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 });
    }
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
