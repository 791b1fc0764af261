import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  BoardPiece,
  escapeHtml,
  footprint,
  isBoardAtResult,
  pieceColor,
  pieceLabel,
  renderBoardBody,
  renderBoardSvg,
  renderPanelHtml,
} from '../../src/board';

function piece(overrides: Partial<BoardPiece>): BoardPiece {
  return { piece_side: 'tile_back', suit: 1, rank: 1, cfg: 'piecepack', x: 2, y: 2, angle: 0, ...overrides };
}

test('isBoardAtResult accepts the contract and rejects other shapes', () => {
  const good = { label: '1.', text: 'diagram', pieces: [piece({})] };
  assert.equal(isBoardAtResult(good), true);
  assert.equal(isBoardAtResult({ label: '1.', text: 'diagram', pieces: [] }), true);
  assert.equal(isBoardAtResult(null), false);
  assert.equal(isBoardAtResult({ label: 1, text: '', pieces: [] }), false);
  assert.equal(isBoardAtResult({ label: '1.', pieces: [] }), false);
  assert.equal(isBoardAtResult({ label: '1.', text: '', pieces: [{ ...piece({}), x: 'b' }] }), false);
  assert.equal(isBoardAtResult({ label: '1.', text: '', pieces: [{ ...piece({}), angle: Number.NaN }] }), false);
});

test('escapeHtml neutralises markup', () => {
  assert.equal(escapeHtml(`<b a="x">'&'</b>`), '&lt;b a=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/b&gt;');
});

test('footprints follow the kind of piece and its configuration', () => {
  assert.deepEqual(footprint(piece({ piece_side: 'tile_face' })), { shape: 'rect', width: 2, height: 2 });
  assert.deepEqual(footprint(piece({ piece_side: 'tile_face', cfg: 'subpack' })), { shape: 'rect', width: 1, height: 1 });
  assert.deepEqual(footprint(piece({ piece_side: 'tile_face', cfg: 'dominoes_blue' })), { shape: 'rect', width: 1, height: 2 });
  assert.deepEqual(footprint(piece({ piece_side: 'coin_back' })), { shape: 'circle', width: 0.75, height: 0.75 });
  assert.deepEqual(footprint(piece({ piece_side: 'bit_face', cfg: 'chess2' })), { shape: 'circle', width: 0.8, height: 0.8 });
  assert.equal(footprint(piece({ piece_side: 'pyramid_top', cfg: 'icehouse_pieces', rank: 3 })).shape, 'triangle');
});

test('labels show suit and rank of face-up pieces only', () => {
  assert.equal(pieceLabel(piece({ piece_side: 'tile_face', suit: 4, rank: 2 })), '⚔a');
  assert.equal(pieceLabel(piece({ piece_side: 'tile_back', suit: 4, rank: 2 })), '');
  assert.equal(pieceLabel(piece({ piece_side: 'coin_face', suit: 2, rank: 6 })), '5');
  assert.equal(pieceLabel(piece({ piece_side: 'coin_face', suit: 2, rank: 1 })), 'n');
  assert.equal(pieceLabel(piece({ piece_side: 'coin_back', suit: 1, rank: 4 })), '☀');
  assert.equal(pieceLabel(piece({ piece_side: 'pawn_face', suit: 3 })), '♛');
  assert.equal(pieceLabel(piece({ piece_side: 'bit_face', cfg: 'chess2', suit: 6, rank: 6 })), '♔');
  assert.equal(pieceLabel(piece({ piece_side: 'bit_back', cfg: 'chess2', suit: 2, rank: 2 })), '♞');
  assert.equal(pieceLabel(piece({ piece_side: 'tile_face', cfg: 'dominoes', suit: 4, rank: 7 })), '3|6');
  assert.equal(pieceLabel(piece({ piece_side: 'die_face', cfg: 'dice', suit: 6, rank: 5 })), '5');
});

test('colours follow the suit', () => {
  assert.notEqual(pieceColor(piece({ suit: 1 })), pieceColor(piece({ suit: 2 })));
  assert.equal(pieceColor(piece({ cfg: 'checkers2', suit: 6 })), '#fafafa');
  assert.equal(pieceColor(piece({ cfg: 'dominoes_green' })), pieceColor(piece({ cfg: 'go', suit: 3 })));
});

test('tile backs hide their suit, coin backs show it', () => {
  const tileBacks = [1, 2, 3, 4].map((suit) => renderBoardSvg([piece({ piece_side: 'tile_back', suit })]));
  const fills = tileBacks.map((svg) => svg.match(/<rect [^>]*fill="([^"]*)"/)?.[1]);
  assert.equal(new Set(fills).size, 1);
  const tileFace = renderBoardSvg([piece({ piece_side: 'tile_face', suit: 1 })]);
  assert.notEqual(tileFace.match(/<rect [^>]*fill="([^"]*)"/)?.[1], fills[0]);
  const coinBack = renderBoardSvg([piece({ piece_side: 'coin_back', suit: 2 })]);
  assert.match(coinBack, /<circle [^>]*fill="#263238"/);
  assert.match(coinBack, />☾<\/text>/);
});

test('the SVG draws every piece in play order, with y pointing up', () => {
  const pieces = [
    piece({ piece_side: 'tile_back', x: 2, y: 2 }),
    piece({ piece_side: 'coin_face', suit: 1, rank: 3, x: 1, y: 1 }),
    piece({ piece_side: 'coin_back', suit: 2, rank: 4, x: 3, y: 3, angle: 90 }),
  ];
  const svg = renderBoardSvg(pieces);
  assert.equal(svg.match(/<g(?: transform="[^"]*")?><title>/g)?.length, 3);
  const titles = [...svg.matchAll(/<title>([^<]*)<\/title>/g)].map((match) => match[1]);
  assert.deepEqual(titles, [
    'tile_back suit 1 rank 1 (piecepack) at (2, 2)',
    'coin_face suit 1 rank 3 (piecepack) at (1, 1)',
    'coin_back suit 2 rank 4 (piecepack) at (3, 3) angle 90',
  ]);
  const viewBox = svg.match(/viewBox="([^"]*)"/)?.[1].split(' ').map(Number);
  assert.deepEqual(viewBox, [0, 0, 4, 4]);
  // (1,1) is low on the board, so it is drawn near the bottom of the picture.
  assert.match(svg, /<circle cx="1" cy="3" r="0.375"/);
  assert.match(svg, /<circle cx="3" cy="1" r="0.375"/);
  assert.match(svg, /transform="rotate\(-90 3 1\)"/);
  assert.match(svg, /<rect x="1" y="1" width="2" height="2"/);
});

test('an empty board has no drawing', () => {
  assert.equal(renderBoardSvg([]), '');
  const body = renderBoardBody({ label: 'setup.', pieces: [], text: '(empty board)\n' });
  assert.match(body, /The board is empty/);
  assert.match(body, /<pre class="diagram">\(empty board\)\n<\/pre>/);
});

test('the body names the move and escapes the diagram', () => {
  const body = renderBoardBody({ label: '<3...>', pieces: [piece({})], text: 'a < b & c' });
  assert.match(body, /<h2>After &lt;3...&gt;<\/h2>/);
  assert.match(body, /1 piece</);
  assert.match(body, /a &lt; b &amp; c/);
  assert.match(renderBoardBody(null), /Put the cursor on a move/);
});

test('the page only runs its own script', () => {
  const html = renderPanelHtml({ cspSource: 'vscode-resource:', nonce: 'abc123', body: '<p>x</p>' });
  assert.match(html, /script-src 'nonce-abc123'/);
  assert.match(html, /default-src 'none'/);
  assert.match(html, /<script nonce="abc123">/);
  assert.match(html, /<div id="board"><p>x<\/p><\/div>/);
  assert.match(html, /postMessage\(\{ type: 'ready' \}\)/);
});
