// The `ppn/render` contract and the HTML the board panel shows for it. The server draws
// the board (the same picture as `ppn-ls render`); this module only checks the answer and
// puts it on the page. Kept free of the `vscode` module so that it can be unit-tested with
// plain Node.

export const RENDER_METHOD = 'ppn/render';

export interface RenderParams {
  textDocument: { uri: string };
  position: { line: number; character: number };
}

export interface RenderResult {
  /** The move the board is shown after, e.g. `3...`. */
  label: string;
  /** The picture of the board, a standalone SVG document. */
  svg: string;
}

/** Whether an untrusted value from the server has the shape of a RenderResult. */
export function isRenderResult(value: unknown): value is RenderResult {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.label === 'string' &&
    typeof candidate.svg === 'string' &&
    /^\s*<svg[\s>]/.test(candidate.svg)
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

/**
 * The picture as an image: shown through a data: URL, never inserted as markup, so nothing
 * in it can run in the panel.
 */
export function renderBoardBody(result: RenderResult | null): string {
  if (result === null) {
    return '<p class="note">Put the cursor on a move to see the board after it.</p>';
  }
  const source = `data:image/svg+xml;base64,${Buffer.from(result.svg, 'utf8').toString('base64')}`;
  const label = escapeHtml(result.label);
  return `<h2>After ${label}</h2><img class="board" alt="The board after ${label}" src="${source}">`;
}

export function renderMessageBody(message: string): string {
  return `<p class="note">${escapeHtml(message)}</p>`;
}

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
  img.board { display: block; width: 100%; max-height: 80vh; object-fit: contain; object-position: left top; }
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
