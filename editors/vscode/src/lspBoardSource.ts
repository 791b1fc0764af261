// The board panel's boards from the language server (`ppn/render`, `ppn/gameLine`), and the
// panel's page files read from the extension's folder: the desktop's way.

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, ResponseError } from 'vscode-languageclient/node';
import { GAME_LINE_METHOD, Position, RENDER_METHOD, RenderParams } from './board';
import { BoardNote, BoardPlay, BoardSource, EnteredMove, PanelAssets } from './boardPanel';

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
  /** A question about a state of a game (`ppn/boardGrid` and the others). */
  const askOfState = async (method: string, document: vscode.TextDocument, fields: Record<string, unknown>) => {
    const client = running();
    if (!client) {
      throw new BoardNote('The PPN language server is not running.');
    }
    const params = { textDocument: { uri: client.code2ProtocolConverter.asUri(document.uri) }, ...fields };
    try {
      return { client, answer: (await client.sendRequest(method, params)) as unknown };
    } catch (error) {
      if (error instanceof ResponseError && error.code === METHOD_NOT_FOUND) {
        throw new BoardNote(`This version of ppn-ls does not answer ${method} yet.`);
      }
      throw error;
    }
  };
  const play: BoardPlay = {
    grid: async (document, game, state, flip) => (await askOfState(BOARD_GRID_METHOD, document, { game, state, flip })).answer,
    targets: async (document, game, state, from) =>
      (await askOfState(LEGAL_TARGETS_METHOD, document, { game, state, from })).answer,
    moveInWords: async (document, game, state) => {
      const words = (await askOfState(MOVE_IN_WORDS_METHOD, document, { game, state })).answer;
      return typeof words === 'string' ? words : '';
    },
    enterMove: async (document, game, state, from, to, choice): Promise<EnteredMove> => {
      const fields: Record<string, unknown> = { game, state, from, to };
      if (choice.capture !== undefined && choice.capture >= 0) {
        fields.capture = choice.capture === 1;
      }
      if (choice.placement) {
        fields.placement = choice.placement;
      }
      const { client, answer } = await askOfState(ENTER_MOVE_METHOD, document, fields);
      const found = answer as {
        edit?: { range: unknown; newText: string; cursor: { line: number; character: number }; written: string };
        ask?: string;
        refused?: string;
      } | null;
      if (found?.edit) {
        const edit = found.edit;
        const cursor = new vscode.Position(edit.cursor.line, edit.cursor.character);
        const range = client.protocol2CodeConverter.asRange(
          edit.range as Parameters<typeof client.protocol2CodeConverter.asRange>[0],
        );
        if (!range) {
          return { refused: 'the server wrote a move with no place' };
        }
        return {
          edit: {
            range,
            newText: edit.newText,
            written: edit.written,
            cursor: () => cursor,
          },
        };
      }
      if (typeof found?.ask === 'string') {
        return { ask: found.ask };
      }
      return { refused: typeof found?.refused === 'string' ? found.refused : 'the server wrote no move' };
    },
  };
  return {
    unavailable: () => (running() ? undefined : 'The PPN language server is not running.'),
    render: (document, position, flip, token) => ask(RENDER_METHOD, document, position, flip, token),
    gameLine: (document, position, token) => ask(GAME_LINE_METHOD, document, position, undefined, token),
    play,
  };
}

/** ppn-ls's requests for the board to play on (server/src/lsp/handlers/custom.rs). */
const BOARD_GRID_METHOD = 'ppn/boardGrid';
const LEGAL_TARGETS_METHOD = 'ppn/legalTargets';
const ENTER_MOVE_METHOD = 'ppn/enterMove';
const MOVE_IN_WORDS_METHOD = 'ppn/moveInWords';
