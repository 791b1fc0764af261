// The board panel's boards from the language server (`ppn/render`, `ppn/gameLine`), and the
// panel's page files read from the extension's folder: the desktop's way.

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, ResponseError } from 'vscode-languageclient/node';
import { GAME_LINE_METHOD, Position, RENDER_METHOD, RenderParams } from './board';
import { BoardNote, BoardSource, PanelAssets } from './boardPanel';

const METHOD_NOT_FOUND = -32601;

/** Where the game viewer's files are: copied into the extension by scripts/copy-viewer.mjs. */
export function viewerDirectory(extensionPath: string): string {
  return path.join(extensionPath, 'media', 'viewer');
}

/** The viewer's files from the extension's folder, and nonces from the system's randomness. */
export function viewerAssets(extensionPath: string): PanelAssets {
  const directory = viewerDirectory(extensionPath);
  return {
    viewerScript: fs.readFileSync(path.join(directory, 'viewer.js'), 'utf8'),
    viewerStyle: fs.readFileSync(path.join(directory, 'viewer.css'), 'utf8'),
    nonce: () => randomBytes(16).toString('base64'),
  };
}

/** Boards asked of the language server that `getClient` gives when asked. */
export function lspBoardSource(getClient: () => LanguageClient | undefined): BoardSource {
  const running = () => {
    const client = getClient();
    return client && client.isRunning() ? client : undefined;
  };
  const ask = async (
    method: string,
    document: vscode.TextDocument,
    position: Position,
    flip: boolean | undefined,
    token: vscode.CancellationToken | undefined,
  ): Promise<unknown> => {
    const client = running();
    if (!client) {
      throw new BoardNote('The PPN language server is not running.');
    }
    const params: RenderParams = {
      textDocument: { uri: client.code2ProtocolConverter.asUri(document.uri) },
      position: client.code2ProtocolConverter.asPosition(new vscode.Position(position.line, position.character)),
    };
    if (flip !== undefined) {
      params.flip = flip;
    }
    try {
      return token ? await client.sendRequest(method, params, token) : await client.sendRequest(method, params);
    } catch (error) {
      if (error instanceof ResponseError && error.code === METHOD_NOT_FOUND) {
        throw new BoardNote(`This version of ppn-ls does not answer ${method} yet.`);
      }
      throw error;
    }
  };
  return {
    unavailable: () => (running() ? undefined : 'The PPN language server is not running.'),
    render: (document, position, flip, token) => ask(RENDER_METHOD, document, position, flip, token),
    gameLine: (document, position, token) => ask(GAME_LINE_METHOD, document, position, undefined, token),
  };
}
