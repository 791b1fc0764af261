// The board panel's contracts with the server (`ppn/render`, `ppn/gameLine`) and with its
// page, and the page itself: the game viewer (server/assets/viewer/viewer.js, the one the
// one-file game and the web page use) with its controls, showing the server's pictures.
// Kept free of the `vscode` module so that it can be unit-tested with plain Node.

export const RENDER_METHOD = 'ppn/render';
export const GAME_LINE_METHOD = 'ppn/gameLine';

export interface Position {
  line: number;
  character: number;
}

export interface TextDocumentPosition {
  textDocument: { uri: string };
  position: Position;
}

export interface RenderParams extends TextDocumentPosition {
  /** The board seen from the other side of the table. */
  flip?: boolean;
}

export interface RenderResult {
  /** The move the board is shown after, e.g. `3...`. */
  label: string;
  /** The picture of the board, a standalone SVG document. */
  svg: string;
  /** The game, and the board's number in it (a `ref` of `ppn/gameLine`). */
  game?: number;
  state?: number;
}

/** A state of the game as `ppn/gameLine` gives it. */
export interface LineState {
  label: string;
  text: string;
  comment: string;
  /** Its number in the game, as `ppn/render` gives it. */
  ref: number;
  /** Where the cursor shows it. */
  cursor: Position;
}

export interface GameLineResult {
  game: number;
  name: string;
  states: LineState[];
  variations: { name: string; from: number; states: LineState[] }[];
  /** The state at the position asked about. */
  current: number;
}

/** A game as the viewer takes it. */
export interface ViewerGame {
  name: string;
  states: ViewerState[];
  variations: { name: string; from: number; states: ViewerState[] }[];
}

export interface ViewerState {
  label: string;
  text: string;
  comment: string;
  ref: number;
}

/** What the extension posts to the page. */
export type ToPage =
  | { type: 'message'; text: string }
  | { type: 'game'; game: ViewerGame; current: number }
  | { type: 'show'; ref: number }
  | { type: 'pause' }
  | { type: 'play' }
  | { type: 'picture'; id: number; html?: string; error?: string }
  | { type: 'answer'; id: number; result?: unknown; error?: string };

/** What the page posts to the extension. */
export type FromPage =
  | { type: 'ready' }
  | { type: 'picture'; id: number; ref: number; flipped: boolean }
  | { type: 'step'; ref: number }
  | { type: 'flipped'; flipped: boolean }
  | {
      type: 'board';
      id: number;
      ask: 'grid' | 'targets' | 'change' | 'enterMove';
      ref: number;
      flipped?: boolean;
      from?: string;
      to?: string;
      choice?: { capture?: number; placement?: string };
    };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Whether an untrusted value from the server has the shape of a RenderResult. */
export function isRenderResult(value: unknown): value is RenderResult {
  return (
    isObject(value) &&
    typeof value.label === 'string' &&
    typeof value.svg === 'string' &&
    /^\s*<svg[\s>]/.test(value.svg) &&
    (value.state === undefined || typeof value.state === 'number')
  );
}

function isPosition(value: unknown): value is Position {
  return isObject(value) && Number.isInteger(value.line) && Number.isInteger(value.character);
}

function isLineState(value: unknown): value is LineState {
  return (
    isObject(value) &&
    typeof value.label === 'string' &&
    typeof value.text === 'string' &&
    typeof value.comment === 'string' &&
    Number.isInteger(value.ref) &&
    isPosition(value.cursor)
  );
}

/** Whether an untrusted value from the server has the shape of a GameLineResult. */
export function isGameLine(value: unknown): value is GameLineResult {
  return (
    isObject(value) &&
    Number.isInteger(value.game) &&
    typeof value.name === 'string' &&
    Number.isInteger(value.current) &&
    Array.isArray(value.states) &&
    value.states.every(isLineState) &&
    Array.isArray(value.variations) &&
    value.variations.every(
      (variation) =>
        isObject(variation) &&
        typeof variation.name === 'string' &&
        Number.isInteger(variation.from) &&
        Array.isArray(variation.states) &&
        variation.states.every(isLineState),
    )
  );
}

/** The game as the viewer lists it: the states without their places in the text. */
export function viewerGame(line: GameLineResult): ViewerGame {
  const state = ({ label, text, comment, ref }: LineState): ViewerState => ({ label, text, comment, ref });
  return {
    name: line.name,
    states: line.states.map(state),
    variations: line.variations.map((variation) => ({
      name: variation.name,
      from: variation.from,
      states: variation.states.map(state),
    })),
  };
}

/** Where the cursor shows state `ref` of the game, if the game has it. */
export function cursorOf(line: GameLineResult, ref: number): Position | undefined {
  const found =
    line.states.find((state) => state.ref === ref) ??
    line.variations.flatMap((variation) => variation.states).find((state) => state.ref === ref);
  return found?.cursor;
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Text as UTF-8 in base64, with what both Node and a browser have. */
export function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * The picture as an image: shown through a data: URL, never inserted as markup, so nothing
 * in it can run in the panel, and the page's content security policy (no inline styles)
 * does not apply to the picture's own.
 */
export function pictureHtml(result: RenderResult): string {
  const source = `data:image/svg+xml;base64,${base64(result.svg)}`;
  return `<img class="ppn-board-image" alt="The board after ${escapeHtml(result.label)}" src="${source}">`;
}

/** The page: the viewer's script and style inline, each with the nonce the policy allows. */
export function renderPanelHtml(options: {
  cspSource: string;
  nonce: string;
  viewerScript: string;
  viewerStyle: string;
}): string {
  const { cspSource, nonce, viewerScript, viewerStyle } = options;
  // `</script>` or `</style>` inside them would end the element early.
  const script = viewerScript.replace(/<\/script/gi, '<\\/script');
  const style = viewerStyle.replace(/<\/style/gi, '<\\/style');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${cspSource} data:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>PPN board</title>
<style nonce="${nonce}">${style}</style>
<style nonce="${nonce}">
  body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0.5em 1em; }
  .note { opacity: 0.8; }
  /* The viewer in the editor's colours. */
  body .ppn-viewer {
    --ppn-fg: var(--vscode-foreground);
    --ppn-muted: var(--vscode-descriptionForeground);
    --ppn-bg: var(--vscode-editor-background);
    --ppn-panel: var(--vscode-button-secondaryBackground);
    --ppn-line: var(--vscode-panel-border, var(--vscode-widget-border));
    --ppn-accent: var(--vscode-focusBorder);
    --ppn-current: var(--vscode-list-activeSelectionBackground);
    font-family: var(--vscode-font-family);
  }
  body .ppn-viewer .ppn-button { color: var(--vscode-button-secondaryForeground, var(--vscode-foreground)); }
  body .ppn-viewer .ppn-picture { background: transparent; }
  body .ppn-viewer .ppn-picture > img { max-width: 100%; max-height: 100%; }
  body .ppn-viewer .ppn-moves { font-family: var(--vscode-editor-font-family); }
</style>
<script nonce="${nonce}">${script}</script>
</head>
<body>
<p id="note" class="note">Loading the board…</p>
<div id="viewer" hidden></div>
<script nonce="${nonce}">
(function () {
  const vscode = acquireVsCodeApi();
  const note = document.getElementById('note');
  const place = document.getElementById('viewer');
  const waiting = new Map();
  let nextId = 1;
  const picture = (game, ref, flipped) => new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    vscode.postMessage({ type: 'picture', id, ref, flipped });
  });
  // The board to play on: each question goes to the extension, which answers it by id.
  const asked = (ask, fields) => new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    vscode.postMessage(Object.assign({ type: 'board', id, ask }, fields));
  });
  const play = {
    grid: (game, ref, flipped) => asked('grid', { ref, flipped }),
    targets: (game, ref, from) => asked('targets', { ref, from }),
    change: (game, ref) => asked('change', { ref }),
    enterMove: (game, ref, from, to, choice) => asked('enterMove', { ref, from, to, choice }),
    // The extension has written the move (an edit of the document) when it answers.
    write: () => {},
  };
  const viewer = new PpnViewer(place, { games: [], picture }, {
    keys: document,
    // A step in the panel moves the editor's cursor, which brings the board back here.
    onStep: (game, state) => { if (state) vscode.postMessage({ type: 'step', ref: state.ref }); },
  });
  const flip = viewer.flip.bind(viewer);
  viewer.flip = () => {
    flip();
    vscode.postMessage({ type: 'flipped', flipped: viewer.flipped });
  };
  window.addEventListener('message', (event) => {
    const message = event.data;
    if (!message || typeof message.type !== 'string') return;
    if (message.type === 'message') {
      viewer.pause();
      note.textContent = message.text;
      note.hidden = false;
      place.hidden = true;
    } else if (message.type === 'game') {
      note.hidden = true;
      place.hidden = false;
      viewer.setSource(Object.assign({ games: [message.game], picture }, play));
      viewer.showRef(0, message.current);
    } else if (message.type === 'show') {
      viewer.showRef(0, message.ref);
    } else if (message.type === 'pause') {
      viewer.pause();
    } else if (message.type === 'play') {
      viewer.play();
    } else if (message.type === 'answer') {
      const request = waiting.get(message.id);
      waiting.delete(message.id);
      if (!request) return;
      if (message.error === undefined) request.resolve(message.result);
      else request.reject(new Error(message.error));
    } else if (message.type === 'picture') {
      const request = waiting.get(message.id);
      waiting.delete(message.id);
      if (!request) return;
      if (typeof message.html === 'string') request.resolve(message.html);
      else request.reject(message.error || 'no picture');
    }
  });
  // Messages posted before this page was listening are lost; ask for the latest ones.
  vscode.postMessage({ type: 'ready' });
})();
</script>
</body>
</html>`;
}
