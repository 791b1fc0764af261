import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { afterEach, test } from 'node:test';
import { GameLineResult, RenderParams, RenderResult } from '../../src/board';
import { FakeEditor, fakeEditor, installFakeVscode } from './fakeVscode';

const fake = installFakeVscode();
// Loaded after the fake is installed, so that they see it as `vscode`.
const { BoardPanel, isBoardLanguage } = require('../../src/boardPanel') as typeof import('../../src/boardPanel');
const { lspBoardSource, viewerAssets } = require('../../src/lspBoardSource') as typeof import('../../src/lspBoardSource');
const { ResponseError } = require('vscode-languageclient/node') as typeof import('vscode-languageclient/node');

/** The extension's folder (media/viewer/ is copied there by `npm run compile`). */
const EXTENSION = path.resolve(__dirname, '..', '..', '..');

interface Request {
  method: string;
  params: RenderParams;
}

/**
 * A game of three states on lines 3, 4 and 5 (the start shown on lines 0 to 2): the server
 * answers `ppn/render` with the state at the cursor's line and `ppn/gameLine` with the game.
 */
const STATES = ['start', '1.', '2.'];

function stateAtLine(line: number): number {
  return Math.max(0, Math.min(line - 2, STATES.length - 1));
}

function board(state: number, flip = false): RenderResult {
  const label = STATES[state];
  return {
    label,
    game: 0,
    state,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48"><title>after ${label}${flip ? ', flipped' : ''}</title></svg>\n`,
  };
}

const LINE: GameLineResult = {
  game: 0,
  name: 'Tablut',
  current: 0,
  states: STATES.map((label, ref) => ({
    label,
    text: ref === 0 ? '' : `move ${ref}`,
    comment: '',
    ref,
    cursor: { line: ref === 0 ? 0 : ref + 2, character: 0 },
  })),
  variations: [],
};

type Answer = (method: string, params: RenderParams) => Promise<unknown>;

const gameAnswers: Answer = async (method, params) =>
  method === 'ppn/render'
    ? board(stateAtLine(params.position.line), params.flip === true)
    : { ...LINE, current: stateAtLine(params.position.line) };

function fakeClient(answer: Answer = gameAnswers, running = true) {
  const requests: Request[] = [];
  const client = {
    isRunning: () => running,
    code2ProtocolConverter: {
      asUri: (uri: { toString(): string }) => uri.toString(),
      asPosition: (position: { line: number; character: number }) => ({ line: position.line, character: position.character }),
    },
    sendRequest: (method: string, params: RenderParams) => {
      requests.push({ method, params });
      return answer(method, params);
    },
  };
  return { client, requests };
}

/** A position as plain data (the panel makes `vscode.Position`s). */
const plain = ({ line, character }: { line: number; character: number }) => ({ line, character });

const settle = (ms = 250) => new Promise((resolve) => setTimeout(resolve, ms));

function moveCursor(editor: FakeEditor, line: number): void {
  editor.selection = { active: { line, character: 0 } };
  fake.selectionChanged.fire({ textEditor: editor });
}

function open(editor: FakeEditor, client: unknown) {
  fake.activeTextEditor = editor;
  BoardPanel.show(lspBoardSource(() => client as never), viewerAssets(EXTENSION));
  return fake.panels.at(-1)!;
}

afterEach(() => {
  BoardPanel.disposeCurrent();
  fake.activeTextEditor = undefined;
});

test('opening the panel shows the game at the cursor in the viewer', async () => {
  const editor = fakeEditor('file:///games/tablut.ppn', 'ppn', { line: 3, character: 5 });
  const { client, requests } = fakeClient();
  const panel = open(editor, client);
  await settle();
  assert.deepEqual(
    requests.map((request) => request.method),
    ['ppn/render', 'ppn/gameLine'],
  );
  assert.deepEqual(requests[0].params, {
    textDocument: { uri: 'file:///games/tablut.ppn' },
    position: { line: 3, character: 5 },
    flip: false,
  });
  const [game] = panel.postedOf<{ game: { name: string; states: unknown[] }; current: number }>('game');
  assert.equal(game.game.name, 'Tablut');
  assert.deepEqual(game.game.states[1], { label: '1.', text: 'move 1', comment: '', ref: 1 });
  assert.equal(game.current, 1);
  assert.deepEqual(panel.postedOf('show').at(-1), { type: 'show', ref: 1 });
  assert.match(panel.webview.html, /new PpnViewer\(/);
  assert.match(panel.webview.html, /class PpnViewer/);

  // The viewer asks for the picture of the state shown: the one fetched is used.
  panel.received.fire({ type: 'picture', id: 1, ref: 1, flipped: false });
  await settle(20);
  const [picture] = panel.postedOf<{ id: number; html: string }>('picture');
  assert.equal(picture.id, 1);
  const svg = Buffer.from(picture.html.match(/base64,([^"]*)"/)![1], 'base64').toString('utf8');
  assert.match(svg, /<title>after 1\.<\/title>/);
  assert.equal(requests.length, 2);
});

test('a step in the panel moves the cursor there, and the panel follows it', async () => {
  const editor = fakeEditor('file:///games/tablut.ppn', 'ppn', { line: 3, character: 0 });
  const { client, requests } = fakeClient();
  const panel = open(editor, client);
  await settle();
  panel.received.fire({ type: 'step', ref: 2 });
  assert.deepEqual(plain(editor.selection.active), { line: 4, character: 0 });
  assert.deepEqual(plain(editor.revealed.at(-1)!), { line: 4, character: 0 });
  fake.selectionChanged.fire({ textEditor: editor });
  await settle();
  assert.deepEqual(panel.postedOf('show').at(-1), { type: 'show', ref: 2 });
  // Its own step does not stop a game being played; the text did not change, so the game
  // is not asked for again.
  assert.equal(panel.postedOf('pause').length, 0);
  assert.deepEqual(
    requests.map((request) => request.method),
    ['ppn/render', 'ppn/gameLine', 'ppn/render'],
  );
  // The starting board: the cursor goes where the server says it shows it.
  panel.received.fire({ type: 'step', ref: 0 });
  assert.deepEqual(plain(editor.selection.active), { line: 0, character: 0 });
});

test('the user moving the cursor pauses a game being played', async () => {
  const editor = fakeEditor('file:///games/tablut.ppn', 'ppn', { line: 3, character: 0 });
  const { client } = fakeClient();
  const panel = open(editor, client);
  await settle();
  moveCursor(editor, 4);
  assert.equal(panel.postedOf('pause').length, 1);
  await settle();
  assert.deepEqual(panel.postedOf('show').at(-1), { type: 'show', ref: 2 });
});

test('a code lens shows the board where it points, and "Animate" plays the game from there', async () => {
  const editor = fakeEditor('file:///games/tablut.ppn', 'ppn', { line: 4, character: 0 });
  const { client, requests } = fakeClient();
  fake.activeTextEditor = editor;
  BoardPanel.show(lspBoardSource(() => client as never), viewerAssets(EXTENSION), {
    uri: 'file:///games/tablut.ppn',
    position: { line: 0, character: 0 },
    animate: true,
  });
  const panel = fake.panels.at(-1)!;
  assert.deepEqual(plain(editor.selection.active), { line: 0, character: 0 });
  fake.selectionChanged.fire({ textEditor: editor });
  await settle();
  assert.deepEqual(requests[0].params.position, { line: 0, character: 0 });
  assert.deepEqual(panel.postedOf('show').at(-1), { type: 'show', ref: 0 });
  // Played once the board is shown; the lens's own cursor move pauses nothing.
  assert.equal(panel.postedOf('play').length, 1);
  assert.equal(panel.postedOf('pause').length, 0);
  const types = panel.posted.map((message) => (message as { type: string }).type);
  assert.ok(types.lastIndexOf('show') < types.indexOf('play'), types.join(' '));
  // "Show board" on another file's game leaves this editor's cursor alone and plays nothing.
  BoardPanel.show(lspBoardSource(() => client as never), viewerAssets(EXTENSION), {
    uri: 'file:///games/other.ppn',
    position: { line: 5, character: 0 },
    animate: true,
  });
  await settle();
  assert.deepEqual(plain(editor.selection.active), { line: 0, character: 0 });
  assert.equal(panel.postedOf('play').length, 1);
});

test('flipping asks for flipped pictures, of any state', async () => {
  const editor = fakeEditor('file:///games/tablut.ppn', 'ppn', { line: 3, character: 0 });
  const { client, requests } = fakeClient();
  const panel = open(editor, client);
  await settle();
  panel.received.fire({ type: 'flipped', flipped: true });
  panel.received.fire({ type: 'picture', id: 7, ref: 2, flipped: true });
  await settle(20);
  assert.deepEqual(requests.at(-1), {
    method: 'ppn/render',
    params: { textDocument: { uri: 'file:///games/tablut.ppn' }, position: { line: 4, character: 0 }, flip: true },
  });
  const [picture] = panel.postedOf<{ id: number; html: string }>('picture');
  const svg = Buffer.from(picture.html.match(/base64,([^"]*)"/)![1], 'base64').toString('utf8');
  assert.match(svg, /after 2\., flipped/);
  // Following the cursor now draws the flipped board.
  moveCursor(editor, 2);
  await settle();
  assert.equal(requests.at(-1)!.params.flip, true);
});

test('an edit lists the game again', async () => {
  const editor = fakeEditor('file:///games/tablut.ppn', 'ppn', { line: 3, character: 0 });
  const { client, requests } = fakeClient();
  const panel = open(editor, client);
  await settle();
  editor.document.version = 2;
  fake.documentChanged.fire({ document: editor.document });
  await settle();
  assert.deepEqual(
    requests.map((request) => request.method),
    ['ppn/render', 'ppn/gameLine', 'ppn/render', 'ppn/gameLine'],
  );
  assert.equal(panel.postedOf('game').length, 2);
});

test('the panel follows the cursor in the files the server reads only', async () => {
  const editor = fakeEditor('file:///games/a.ppn', 'ppn', { line: 0, character: 0 });
  const { client, requests } = fakeClient(async (method, params) =>
    params.position.line === 7 ? null : gameAnswers(method, params),
  );
  const panel = open(editor, client);
  await settle();
  moveCursor(editor, 7);
  await settle();
  assert.deepEqual(requests.at(-1)!.params.position, { line: 7, character: 0 });
  assert.match(panel.postedOf<{ text: string }>('message').at(-1)!.text, /Put the cursor on a move/);

  const count = requests.length;
  const markdown = fakeEditor('file:///notes.md', 'markdown', { line: 1, character: 1 });
  fake.selectionChanged.fire({ textEditor: markdown });
  await settle();
  assert.equal(requests.length, count);

  for (const [uri, language] of [
    ['file:///games/game.wxf', 'wxf'],
    ['file:///games/position.annofen', 'annofen'],
    ['file:///games/record.otg', 'otn'],
  ]) {
    fake.selectionChanged.fire({ textEditor: fakeEditor(uri, language, { line: 4, character: 2 }) });
    await settle();
    assert.equal(requests.at(-1)!.params.textDocument.uri, uri);
  }
});

test('a burst of cursor moves sends one request for the last position', async () => {
  const editor = fakeEditor('file:///games/a.ppn', 'ppn', { line: 0, character: 0 });
  const { client, requests } = fakeClient();
  const panel = open(editor, client);
  await settle();
  for (let line = 1; line <= 4; line++) {
    moveCursor(editor, line);
  }
  await settle();
  assert.deepEqual(
    requests.filter((request) => request.method === 'ppn/render').map((request) => request.params.position.line),
    [0, 4],
  );
  assert.deepEqual(panel.postedOf('show').at(-1), { type: 'show', ref: 2 });
});

test('an answer that arrives after a newer request is dropped', async () => {
  const editor = fakeEditor('file:///games/a.ppn', 'ppn', { line: 3, character: 0 });
  const { client } = fakeClient(async (method, params) => {
    // The first answer is slow, the second fast.
    await settle(params.position.line === 3 ? 300 : 10);
    return gameAnswers(method, params);
  });
  const panel = open(editor, client);
  await settle(50);
  moveCursor(editor, 4);
  await settle(700);
  const shown = panel.postedOf<{ ref: number }>('show').map((show) => show.ref);
  assert.deepEqual(shown, [2]);
});

test('a server without the requests, and a stopped server, are explained', async () => {
  const editor = fakeEditor('file:///games/a.ppn', 'ppn', { line: 0, character: 0 });
  const missing = fakeClient(async () => {
    throw new ResponseError(-32601, 'Method not found');
  });
  let panel = open(editor, missing.client);
  await settle();
  assert.match(panel.postedOf<{ text: string }>('message').at(-1)!.text, /does not answer ppn\/render yet/);
  BoardPanel.disposeCurrent();

  const oldServer = fakeClient(async (method, params) => {
    if (method === 'ppn/gameLine') {
      throw new ResponseError(-32601, 'Method not found');
    }
    return gameAnswers(method, params);
  });
  panel = open(editor, oldServer.client);
  await settle();
  assert.match(panel.postedOf<{ text: string }>('message').at(-1)!.text, /does not answer ppn\/gameLine yet/);
  BoardPanel.disposeCurrent();

  const stopped = fakeClient(gameAnswers, false);
  panel = open(editor, stopped.client);
  await settle();
  assert.equal(stopped.requests.length, 0);
  assert.match(panel.postedOf<{ text: string }>('message').at(-1)!.text, /not running/);
});

test('answers of the wrong shape are reported, not drawn', async () => {
  const editor = fakeEditor('file:///games/a.ppn', 'ppn', { line: 0, character: 0 });
  const { client } = fakeClient(async () => ({ label: '1.', pieces: [], text: 'an old server' }));
  const panel = open(editor, client);
  await settle();
  assert.match(panel.postedOf<{ text: string }>('message').at(-1)!.text, /not a board/);
  BoardPanel.disposeCurrent();

  const lineless = fakeClient(async (method, params) => (method === 'ppn/gameLine' ? { states: 3 } : gameAnswers(method, params)));
  const second = open(editor, lineless.client);
  await settle();
  assert.match(second.postedOf<{ text: string }>('message').at(-1)!.text, /not a game/);
});

test('a page that reports ready gets the game and the state again; closing the panel stops following', async () => {
  const editor = fakeEditor('file:///games/a.ppn', 'ppn', { line: 3, character: 0 });
  const { client, requests } = fakeClient();
  const panel = open(editor, client);
  await settle();
  const sent = panel.posted.length;
  panel.received.fire({ type: 'ready' });
  assert.deepEqual(panel.posted.slice(sent), [panel.postedOf('game').at(-1), panel.postedOf('show').at(-1)]);

  panel.dispose();
  assert.equal(fake.selectionChanged.listenerCount, 0);
  const count = requests.length;
  moveCursor(editor, 4);
  await settle();
  assert.equal(requests.length, count);
});

test('the panel follows PPN, OpenTafl and xiangqi files only', () => {
  assert.ok(isBoardLanguage('ppn'));
  assert.ok(isBoardLanguage('otn'));
  assert.ok(isBoardLanguage('wxf'));
  assert.ok(!isBoardLanguage('yaml'));
});
