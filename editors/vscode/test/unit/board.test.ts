import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  GameLineResult,
  cursorOf,
  escapeHtml,
  isGameLine,
  isRenderResult,
  pictureHtml,
  renderPanelHtml,
  viewerGame,
} from '../../src/board';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>\n';

const LINE: GameLineResult = {
  game: 0,
  name: 'Tablut',
  current: 1,
  states: [
    { label: 'start', text: '', comment: '', ref: 0, cursor: { line: 0, character: 0 } },
    { label: '1.', text: 'a4-a3', comment: 'opens', ref: 1, cursor: { line: 4, character: 0 } },
  ],
  variations: [
    {
      name: '1a.1.',
      from: 1,
      states: [{ label: '1b', text: 'e7-d7', comment: '', ref: 7, cursor: { line: 6, character: 2 } }],
    },
  ],
};

test('isRenderResult accepts the contract and rejects other shapes', () => {
  assert.equal(isRenderResult({ label: '1.', svg: SVG }), true);
  assert.equal(isRenderResult({ label: '1.', svg: SVG, game: 0, state: 3 }), true);
  assert.equal(isRenderResult(null), false);
  assert.equal(isRenderResult({ label: 1, svg: SVG }), false);
  assert.equal(isRenderResult({ label: '1.' }), false);
  assert.equal(isRenderResult({ label: '1.', svg: '<p>not a picture</p>' }), false);
  assert.equal(isRenderResult({ label: '1.', svg: SVG, state: '3' }), false);
});

test('isGameLine accepts the contract and rejects other shapes', () => {
  assert.equal(isGameLine(LINE), true);
  assert.equal(isGameLine(null), false);
  assert.equal(isGameLine({ ...LINE, states: [{ label: '1.', ref: 1 }] }), false);
  assert.equal(isGameLine({ ...LINE, current: undefined }), false);
  assert.equal(isGameLine({ ...LINE, variations: [{ name: 'v', from: 'x', states: [] }] }), false);
});

test('the viewer gets the states without their places; the places give each state its cursor', () => {
  const game = viewerGame(LINE);
  assert.deepEqual(game.states[1], { label: '1.', text: 'a4-a3', comment: 'opens', ref: 1 });
  assert.deepEqual(game.variations[0], { name: '1a.1.', from: 1, states: [{ label: '1b', text: 'e7-d7', comment: '', ref: 7 }] });
  assert.deepEqual(cursorOf(LINE, 1), { line: 4, character: 0 });
  assert.deepEqual(cursorOf(LINE, 7), { line: 6, character: 2 });
  assert.equal(cursorOf(LINE, 5), undefined);
});

test('escapeHtml neutralises markup', () => {
  assert.equal(escapeHtml(`<b a="x">'&'</b>`), '&lt;b a=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/b&gt;');
});

test("the server's picture is an image from a data: URL, never markup", () => {
  const svg = `${SVG.trim()}<script>alert(1)</script>`;
  const html = pictureHtml({ label: '<3...>', svg });
  const source = html.match(/^<img class="ppn-board-image" alt="The board after &lt;3...&gt;" src="data:image\/svg\+xml;base64,([^"]*)">$/);
  assert.ok(source, html);
  assert.equal(Buffer.from(source[1], 'base64').toString('utf8'), svg);
});

test('the page runs only its own scripts, the viewer among them, and shows images from data: URLs', () => {
  const html = renderPanelHtml({
    cspSource: 'vscode-resource:',
    nonce: 'abc123',
    viewerScript: 'window.PpnViewer = class {}; // </script> inside',
    viewerStyle: '.ppn-viewer { color: red }',
  });
  assert.match(html, /default-src 'none'/);
  assert.match(html, /script-src 'nonce-abc123'/);
  assert.match(html, /style-src 'nonce-abc123'/);
  assert.match(html, /img-src vscode-resource: data:/);
  assert.match(html, /<script nonce="abc123">window\.PpnViewer = class \{\}; \/\/ <\\\/script> inside<\/script>/);
  assert.match(html, /<style nonce="abc123">\.ppn-viewer \{ color: red \}<\/style>/);
  assert.equal(html.match(/<script(?![^>]*nonce="abc123")/g), null);
  assert.match(html, /postMessage\(\{ type: 'ready' \}\)/);
  assert.match(html, /new PpnViewer\(/);
});
