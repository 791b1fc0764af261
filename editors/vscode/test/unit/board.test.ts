import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeHtml, isRenderResult, renderBoardBody, renderMessageBody, renderPanelHtml } from '../../src/board';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>\n';

test('isRenderResult accepts the contract and rejects other shapes', () => {
  assert.equal(isRenderResult({ label: '1.', svg: SVG }), true);
  assert.equal(isRenderResult(null), false);
  assert.equal(isRenderResult({ label: 1, svg: SVG }), false);
  assert.equal(isRenderResult({ label: '1.' }), false);
  assert.equal(isRenderResult({ label: '1.', svg: '<p>not a picture</p>' }), false);
  assert.equal(isRenderResult({ label: '1.', pieces: [], text: 'a diagram' }), false);
});

test('escapeHtml neutralises markup', () => {
  assert.equal(escapeHtml(`<b a="x">'&'</b>`), '&lt;b a=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/b&gt;');
});

test("the body shows the server's picture as an image, never as markup", () => {
  const svg = `${SVG.trim()}<script>alert(1)</script>`;
  const body = renderBoardBody({ label: '<3...>', svg });
  assert.match(body, /<h2>After &lt;3...&gt;<\/h2>/);
  const source = body.match(/<img class="board" alt="The board after &lt;3...&gt;" src="data:image\/svg\+xml;base64,([^"]*)">/);
  assert.ok(source, body);
  assert.equal(Buffer.from(source[1], 'base64').toString('utf8'), svg);
  assert.doesNotMatch(body, /<script>|<svg/);
  assert.match(renderBoardBody(null), /Put the cursor on a move/);
  assert.equal(renderMessageBody('a < b'), '<p class="note">a &lt; b</p>');
});

test('the page only runs its own script and shows images from data: URLs', () => {
  const html = renderPanelHtml({ cspSource: 'vscode-resource:', nonce: 'abc123', body: '<p>x</p>' });
  assert.match(html, /script-src 'nonce-abc123'/);
  assert.match(html, /default-src 'none'/);
  assert.match(html, /img-src vscode-resource: data:/);
  assert.match(html, /<script nonce="abc123">/);
  assert.match(html, /<div id="board"><p>x<\/p><\/div>/);
  assert.match(html, /postMessage\(\{ type: 'ready' \}\)/);
});
