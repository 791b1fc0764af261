// The `ppn/boardAt` contract and the HTML the board panel shows for it. Kept free of
// the `vscode` module so that it can be unit-tested with plain Node.

export const BOARD_AT_METHOD = 'ppn/boardAt';

export interface BoardAtParams {
  textDocument: { uri: string };
  position: { line: number; character: number };
}

/** One piece in play order, as the reference describes it (suit and rank are 1-based). */
export interface BoardPiece {
  piece_side: string;
  suit: number;
  rank: number;
  cfg: string;
  x: number;
  y: number;
  /** Degrees counter-clockwise. */
  angle: number;
}

export interface BoardAtResult {
  /** The move the board is shown after, e.g. `3...`. */
  label: string;
  pieces: BoardPiece[];
  /** A text diagram of the same board. */
  text: string;
}

/** Whether an untrusted value from the server has the shape of a BoardAtResult. */
export function isBoardAtResult(value: unknown): value is BoardAtResult {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.label === 'string' &&
    typeof candidate.text === 'string' &&
    Array.isArray(candidate.pieces) &&
    candidate.pieces.every(isBoardPiece)
  );
}

function isBoardPiece(value: unknown): value is BoardPiece {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const piece = value as Record<string, unknown>;
  const finite = (field: unknown) => typeof field === 'number' && Number.isFinite(field);
  return (
    typeof piece.piece_side === 'string' &&
    typeof piece.cfg === 'string' &&
    finite(piece.suit) &&
    finite(piece.rank) &&
    finite(piece.x) &&
    finite(piece.y) &&
    finite(piece.angle)
  );
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

type Shape = 'rect' | 'circle' | 'triangle';

interface Footprint {
  shape: Shape;
  /** Board units; a square of the usual grid is 1 wide. */
  width: number;
  height: number;
}

const PIECEPACK_SUIT_COLORS = ['#c62828', '#263238', '#2e7d32', '#1565c0'];
const COLOR_SUITS = ['#d32f2f', '#212121', '#388e3c', '#1976d2', '#fbc02d', '#fafafa'];
const CARD_SUIT_COLORS = ['#c62828', '#212121', '#212121', '#c62828'];
const PLAIN_BACK = '#8d6e63';
const PLAIN_BACK_EDGE = '#4e342e';

function splitPieceSide(pieceSide: string): { kind: string; side: string } {
  const underscore = pieceSide.indexOf('_');
  return underscore < 0
    ? { kind: pieceSide, side: '' }
    : { kind: pieceSide.slice(0, underscore), side: pieceSide.slice(underscore + 1) };
}

function isPiecepack(cfg: string): boolean {
  return cfg === 'piecepack' || cfg === 'subpack' || cfg === 'hexpack';
}

/** Approximate top-down sizes, enough to tell pieces apart and see how they overlap. */
export function footprint(piece: BoardPiece): Footprint {
  const { kind } = splitPieceSide(piece.piece_side);
  const scale = piece.cfg === 'subpack' ? 0.5 : 1;
  switch (kind) {
    case 'tile':
      return piece.cfg.startsWith('dominoes')
        ? { shape: 'rect', width: 1, height: 2 }
        : { shape: 'rect', width: 2 * scale, height: 2 * scale };
    case 'coin':
    case 'saucer':
      return { shape: 'circle', width: 0.75 * scale, height: 0.75 * scale };
    case 'die':
    case 'pawn':
      return { shape: piece.cfg === 'dice' || kind === 'die' ? 'rect' : 'circle', width: 0.5 * scale, height: 0.5 * scale };
    case 'matchstick':
      return { shape: 'rect', width: 0.25 * scale, height: 2 * scale };
    case 'bit':
      return { shape: 'circle', width: 0.8, height: 0.8 };
    case 'pyramid': {
      const size = 0.5 + 0.2 * Math.min(Math.max(piece.rank, 1), 3);
      return { shape: 'triangle', width: size, height: size };
    }
    case 'card':
      return { shape: 'rect', width: 2.5, height: 3.5 };
    case 'board':
      return piece.cfg === 'go'
        ? { shape: 'rect', width: 18, height: 18 }
        : { shape: 'rect', width: 8, height: 8 };
    default:
      return { shape: 'rect', width: 1, height: 1 };
  }
}

function pick<T>(values: readonly T[], oneBased: number): T | undefined {
  return Number.isInteger(oneBased) ? values[oneBased - 1] : undefined;
}

export function pieceColor(piece: BoardPiece): string {
  if (isPiecepack(piece.cfg)) {
    return pick(PIECEPACK_SUIT_COLORS, piece.suit) ?? '#757575';
  }
  if (piece.cfg.startsWith('playing_cards') || piece.cfg === 'dual_piecepacks_expansion') {
    return pick(CARD_SUIT_COLORS, piece.suit) ?? '#757575';
  }
  if (piece.cfg.startsWith('dominoes_')) {
    const color = piece.cfg.slice('dominoes_'.length);
    const index = ['red', 'black', 'green', 'blue', 'yellow', 'white'].indexOf(color);
    return COLOR_SUITS[index] ?? '#fafafa';
  }
  if (piece.cfg === 'dominoes') {
    return '#fafafa';
  }
  return pick(COLOR_SUITS, piece.suit) ?? '#757575';
}

const CHESS_WHITE = ['♙', '♘', '♗', '♖', '♕', '♔'];
const CHESS_BLACK = ['♟', '♞', '♝', '♜', '♛', '♚'];
const PIECEPACK_SUIT_SYMBOLS = ['☀', '☾', '♛', '⚔'];
const CARD_SUIT_SYMBOLS = ['♥', '♠', '♣', '♦'];

function piecepackRank(rank: number): string {
  if (rank === 1) {
    return 'n';
  }
  if (rank === 2) {
    return 'a';
  }
  return String(rank - 1);
}

/** A short label drawn on the piece; empty for pieces that show their back. */
export function pieceLabel(piece: BoardPiece): string {
  const { kind, side } = splitPieceSide(piece.piece_side);
  const showsFace = side === 'face' || side === 'top';
  if (piece.cfg === 'chess1' || piece.cfg === 'chess2') {
    const glyphs = piece.suit === 6 ? CHESS_WHITE : CHESS_BLACK;
    return pick(glyphs, piece.rank) ?? '?';
  }
  if (isPiecepack(piece.cfg) && kind === 'coin' && side === 'back') {
    // Piecepack coins show their suit on the back.
    return pick(PIECEPACK_SUIT_SYMBOLS, piece.suit) ?? '?';
  }
  if (kind === 'board' || (!showsFace && kind !== 'die')) {
    return '';
  }
  if (isPiecepack(piece.cfg)) {
    const suit = pick(PIECEPACK_SUIT_SYMBOLS, piece.suit) ?? '?';
    if (kind === 'pawn' || kind === 'saucer') {
      return suit;
    }
    return kind === 'coin' ? piecepackRank(piece.rank) : `${suit}${piecepackRank(piece.rank)}`;
  }
  if (piece.cfg.startsWith('playing_cards') || piece.cfg === 'dual_piecepacks_expansion') {
    return `${piece.rank}${pick(CARD_SUIT_SYMBOLS, piece.suit) ?? '?'}`;
  }
  if (piece.cfg.startsWith('dominoes')) {
    return `${piece.suit - 1}|${piece.rank - 1}`;
  }
  if (piece.cfg === 'dice' || kind === 'die') {
    return String(piece.rank);
  }
  if (kind === 'pyramid') {
    return String(piece.rank);
  }
  return '';
}

function formatNumber(value: number): string {
  return Number(value.toFixed(3)).toString();
}

interface Bounds {
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

function boundsOf(pieces: readonly BoardPiece[]): Bounds {
  const bounds: Bounds = { minX: Infinity, maxX: -Infinity, minY: Infinity, maxY: -Infinity };
  for (const piece of pieces) {
    const { width, height } = footprint(piece);
    const reach = Math.max(width, height) / 2;
    bounds.minX = Math.min(bounds.minX, piece.x - reach);
    bounds.maxX = Math.max(bounds.maxX, piece.x + reach);
    bounds.minY = Math.min(bounds.minY, piece.y - reach);
    bounds.maxY = Math.max(bounds.maxY, piece.y + reach);
  }
  return bounds;
}

function describeForTooltip(piece: BoardPiece): string {
  return `${piece.piece_side} suit ${piece.suit} rank ${piece.rank} (${piece.cfg}) at (${formatNumber(piece.x)}, ${formatNumber(piece.y)})${
    piece.angle === 0 ? '' : ` angle ${formatNumber(piece.angle)}`
  }`;
}

function pieceSvg(piece: BoardPiece, flipY: (y: number) => number): string {
  const { shape, width, height } = footprint(piece);
  const { side } = splitPieceSide(piece.piece_side);
  const faceUp = side === 'face' || side === 'top';
  const color = pieceColor(piece);
  const cx = formatNumber(piece.x);
  const cy = formatNumber(flipY(piece.y));
  // The board's y axis points up and angles turn counter-clockwise; SVG's y points down,
  // so the same turn is a negative SVG rotation.
  const rotation = piece.angle === 0 ? '' : ` transform="rotate(${formatNumber(-piece.angle)} ${cx} ${cy})"`;
  const { kind } = splitPieceSide(piece.piece_side);
  // Tile and card backs look alike whatever their suit, as on the table.
  const plainBack = !faceUp && (kind === 'tile' || kind === 'card');
  const fill = faceUp ? '#fffdf5' : plainBack ? PLAIN_BACK : color;
  const stroke = plainBack ? PLAIN_BACK_EDGE : color;
  const attributes = `class="piece" fill="${fill}" stroke="${stroke}" stroke-width="0.05"`;
  let body: string;
  if (shape === 'circle') {
    body = `<circle cx="${cx}" cy="${cy}" r="${formatNumber(width / 2)}" ${attributes}/>`;
  } else if (shape === 'triangle') {
    const half = width / 2;
    const points = [
      [piece.x, flipY(piece.y) - half],
      [piece.x + half, flipY(piece.y) + half],
      [piece.x - half, flipY(piece.y) + half],
    ]
      .map(([x, y]) => `${formatNumber(x)},${formatNumber(y)}`)
      .join(' ');
    body = `<polygon points="${points}" ${attributes}/>`;
  } else {
    body =
      `<rect x="${formatNumber(piece.x - width / 2)}" y="${formatNumber(flipY(piece.y) - height / 2)}" ` +
      `width="${formatNumber(width)}" height="${formatNumber(height)}" rx="0.06" ${attributes}/>`;
  }
  const label = pieceLabel(piece);
  const fontSize = formatNumber(Math.min(Math.max(Math.min(width, height) * 0.45, 0.25), 0.8));
  const text =
    label === ''
      ? ''
      : `<text x="${cx}" y="${cy}" font-size="${fontSize}" fill="${faceUp ? color : '#fffdf5'}" ` +
        `text-anchor="middle" dominant-baseline="central">${escapeHtml(label)}</text>`;
  return `<g${rotation}><title>${escapeHtml(describeForTooltip(piece))}</title>${body}${text}</g>`;
}

/** An SVG drawing of the pieces in play order (later pieces on top); empty for no pieces. */
export function renderBoardSvg(pieces: readonly BoardPiece[]): string {
  if (pieces.length === 0) {
    return '';
  }
  const margin = 0.5;
  const bounds = boundsOf(pieces);
  const minX = Math.floor(bounds.minX - margin);
  const maxX = Math.ceil(bounds.maxX + margin);
  const minY = Math.floor(bounds.minY - margin);
  const maxY = Math.ceil(bounds.maxY + margin);
  const flipY = (y: number) => maxY - y + minY;
  const width = maxX - minX;
  const height = maxY - minY;
  const grid: string[] = [];
  for (let x = Math.ceil(minX); x <= maxX; x++) {
    grid.push(`<line x1="${x - 0.5}" y1="${minY}" x2="${x - 0.5}" y2="${maxY}"/>`);
  }
  for (let y = Math.ceil(minY); y <= maxY; y++) {
    grid.push(`<line x1="${minX}" y1="${y - 0.5}" x2="${maxX}" y2="${y - 0.5}"/>`);
  }
  return (
    `<svg class="board" xmlns="http://www.w3.org/2000/svg" viewBox="${minX} ${minY} ${width} ${height}" ` +
    `role="img" aria-label="board with ${pieces.length} piece${pieces.length === 1 ? '' : 's'}">` +
    `<g class="grid" stroke="currentColor" stroke-opacity="0.15" stroke-width="0.02">${grid.join('')}</g>` +
    pieces.map((piece) => pieceSvg(piece, flipY)).join('') +
    '</svg>'
  );
}

/** The panel's content for one answer of the server (`null`: the cursor is on no move). */
export function renderBoardBody(result: BoardAtResult | null): string {
  if (result === null) {
    return '<p class="note">Put the cursor on a move to see the board after it.</p>';
  }
  const count = result.pieces.length;
  const drawing = count === 0 ? '<p class="note">The board is empty.</p>' : renderBoardSvg(result.pieces);
  return (
    `<h2>After ${escapeHtml(result.label)}</h2>` +
    `<p class="note">${count} piece${count === 1 ? '' : 's'}</p>` +
    drawing +
    `<pre class="diagram">${escapeHtml(result.text)}</pre>`
  );
}

export function renderMessageBody(message: string): string {
  return `<p class="note">${escapeHtml(message)}</p>`;
}

/** The whole webview page; `body` is filled in later by messages from the extension. */
export function renderPanelHtml(options: { cspSource: string; nonce: string; body: string }): string {
  const { cspSource, nonce, body } = options;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${cspSource} data:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>PPN board</title>
<style nonce="${nonce}">
  body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 1em; }
  h2 { font-size: 1.1em; margin-bottom: 0.2em; }
  .note { opacity: 0.8; margin-top: 0.2em; }
  svg.board { width: 100%; max-height: 70vh; font-family: "Segoe UI Symbol", "Noto Sans Symbols", sans-serif; }
  pre.diagram { font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); overflow-x: auto; }
</style>
</head>
<body>
<div id="board">${body}</div>
<script nonce="${nonce}">
  const board = document.getElementById('board');
  window.addEventListener('message', (event) => {
    if (event.data && event.data.type === 'update' && typeof event.data.body === 'string') {
      board.innerHTML = event.data.body;
    }
  });
  // Updates posted before this page was listening are lost; ask for the latest one.
  acquireVsCodeApi().postMessage({ type: 'ready' });
</script>
</body>
</html>`;
}
