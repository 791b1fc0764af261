import * as assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { RenderParams, RenderResult } from '../../src/board';
import { fakeEditor, installFakeVscode } from './fakeVscode';

const fake = installFakeVscode();
// Loaded after the fake is installed, so that they see it as `vscode`.
const { BoardPanel, isBoardLanguage } = require('../../src/boardPanel') as typeof import('../../src/boardPanel');
const { ResponseError } = require('vscode-languageclient/node') as typeof import('vscode-languageclient/node');

type Answer = (params: RenderParams) => Promise<unknown>;

interface Request {
  method: string;
  params: RenderParams;
}

function fakeClient(answer: Answer, running = true) {
  const requests: Request[] = [];
  const client = {
    isRunning: () => running,
    code2ProtocolConverter: {
      asUri: (uri: { toString(): string }) => uri.toString(),
      asPosition: (position: { line: number; character: number }) => ({ line: position.line, character: position.character }),
    },
    sendRequest: (method: string, params: RenderParams) => {
      requests.push({ method, params });
      return answer(params);
    },
  };
  return { client, requests };
}

function board(label: string): RenderResult {
  return {
    label,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48"><title>after ${label}</title></svg>\n`,
  };
}

const settle = (ms = 250) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  BoardPanel.disposeCurrent();
  fake.activeTextEditor = undefined;
});

test('opening the panel asks for the board at the cursor and shows it', async () => {
  const editor = fakeEditor('file:///games/tablut.ppn', 'ppn', { line: 3, character: 5 });
  fake.activeTextEditor = editor;
  const { client, requests } = fakeClient(async () => board('3.'));
  BoardPanel.show(() => client as never);
  await settle();
  assert.deepEqual(requests, [
    {
      method: 'ppn/render',
      params: { textDocument: { uri: 'file:///games/tablut.ppn' }, position: { line: 3, character: 5 } },
    },
  ]);
  const panel = fake.panels.at(-1)!;
  const body = panel.bodies.at(-1)!;
  assert.match(body, /<h2>After 3\.<\/h2>/);
  assert.match(body, /<img class="board" alt="The board after 3\." src="data:image\/svg\+xml;base64,/);
  const picture = Buffer.from(body.match(/base64,([^"]*)"/)![1], 'base64').toString('utf8');
  assert.match(picture, /<title>after 3\.<\/title>/);
  assert.match(panel.webview.html, /Loading the board/);
});

test('the panel follows the cursor in PPN files only', async () => {
  const editor = fakeEditor('file:///games/a.ppn', 'ppn', { line: 0, character: 0 });
  fake.activeTextEditor = editor;
  const { client, requests } = fakeClient(async (params) => (params.position.line === 7 ? null : board('1.')));
  BoardPanel.show(() => client as never);
  await settle();
  const panel = fake.panels.at(-1)!;

  editor.selection = { active: { line: 7, character: 2 } };
  fake.selectionChanged.fire({ textEditor: editor });
  await settle();
  assert.deepEqual(requests.at(-1)!.params.position, { line: 7, character: 2 });
  assert.match(panel.bodies.at(-1)!, /Put the cursor on a move/);

  const markdown = fakeEditor('file:///notes.md', 'markdown', { line: 1, character: 1 });
  fake.selectionChanged.fire({ textEditor: markdown });
  await settle();
  assert.equal(requests.length, 2);
});

test('the panel follows the cursor in xiangqi-setup files too', async () => {
  const editor = fakeEditor('file:///games/a.ppn', 'ppn', { line: 0, character: 0 });
  fake.activeTextEditor = editor;
  const { client, requests } = fakeClient(async () => board('1.'));
  BoardPanel.show(() => client as never);
  await settle();
  for (const [uri, language] of [
    ['file:///games/game.wxf', 'wxf'],
    ['file:///games/position.annofen', 'annofen'],
    ['file:///games/position.xay', 'xay'],
    ['file:///games/position.fen', 'xiangqi-fen'],
  ]) {
    const xiangqi = fakeEditor(uri, language, { line: 4, character: 2 });
    fake.selectionChanged.fire({ textEditor: xiangqi });
    await settle();
    assert.equal(requests.at(-1)!.params.textDocument.uri, uri);
  }
  assert.equal(requests.length, 5);
});

test('a burst of cursor moves sends one request for the last position', async () => {
  const editor = fakeEditor('file:///games/a.ppn', 'ppn', { line: 0, character: 0 });
  fake.activeTextEditor = editor;
  const { client, requests } = fakeClient(async (params) => board(`${params.position.line}.`));
  BoardPanel.show(() => client as never);
  await settle();
  for (let line = 1; line <= 5; line++) {
    editor.selection = { active: { line, character: 0 } };
    fake.selectionChanged.fire({ textEditor: editor });
  }
  await settle();
  assert.deepEqual(
    requests.map((request) => request.params.position.line),
    [0, 5],
  );
  assert.match(fake.panels.at(-1)!.bodies.at(-1)!, /After 5\./);
});

test('an answer that arrives after a newer request is dropped', async () => {
  const editor = fakeEditor('file:///games/a.ppn', 'ppn', { line: 1, character: 0 });
  fake.activeTextEditor = editor;
  const { client } = fakeClient(async (params) => {
    // The first answer is slow, the second fast.
    await settle(params.position.line === 1 ? 300 : 10);
    return board(`${params.position.line}.`);
  });
  BoardPanel.show(() => client as never);
  await settle(50);
  editor.selection = { active: { line: 2, character: 0 } };
  fake.selectionChanged.fire({ textEditor: editor });
  await settle(600);
  const bodies = fake.panels.at(-1)!.bodies;
  assert.match(bodies.at(-1)!, /After 2\./);
  assert.equal(bodies.filter((body) => /After 1\./.test(body)).length, 0);
});

test('a server without ppn/render and a stopped server are explained', async () => {
  fake.activeTextEditor = fakeEditor('file:///games/a.ppn', 'ppn', { line: 0, character: 0 });
  const missing = fakeClient(async () => {
    throw new ResponseError(-32601, 'Unhandled method ppn/render');
  });
  BoardPanel.show(() => missing.client as never);
  await settle();
  assert.match(fake.panels.at(-1)!.bodies.at(-1)!, /does not answer ppn\/render yet/);
  BoardPanel.disposeCurrent();

  const stopped = fakeClient(async () => board('1.'), false);
  BoardPanel.show(() => stopped.client as never);
  await settle();
  assert.equal(stopped.requests.length, 0);
  assert.match(fake.panels.at(-1)!.bodies.at(-1)!, /not running/);
});

test('an answer of the wrong shape is reported, not drawn', async () => {
  fake.activeTextEditor = fakeEditor('file:///games/a.ppn', 'ppn', { line: 0, character: 0 });
  const { client } = fakeClient(async () => ({ label: '1.', pieces: [], text: 'an old server' }));
  BoardPanel.show(() => client as never);
  await settle();
  assert.match(fake.panels.at(-1)!.bodies.at(-1)!, /not a board/);
});

test('a page that reports ready gets the latest board again; closing the panel stops following', async () => {
  const editor = fakeEditor('file:///games/a.ppn', 'ppn', { line: 0, character: 0 });
  fake.activeTextEditor = editor;
  const { client, requests } = fakeClient(async () => board('9.'));
  BoardPanel.show(() => client as never);
  await settle();
  const panel = fake.panels.at(-1)!;
  const sent = panel.bodies.length;
  panel.received.fire({ type: 'ready' });
  assert.equal(panel.bodies.length, sent + 1);
  assert.equal(panel.bodies.at(-1), panel.bodies.at(-2));

  panel.dispose();
  assert.equal(fake.selectionChanged.listenerCount, 0);
  fake.selectionChanged.fire({ textEditor: editor });
  await settle();
  assert.equal(requests.length, 1);
});

test('the panel follows PPN and OpenTafl files only', () => {
  assert.ok(isBoardLanguage('ppn'));
  assert.ok(isBoardLanguage('otn'));
  assert.ok(!isBoardLanguage('yaml'));
});
