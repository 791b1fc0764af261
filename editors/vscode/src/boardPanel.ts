// The "PPN: Show Board" side panel: the board at the cursor with the game viewer's
// controls (first, previous, next, last, play, flip, the move list). It follows the cursor,
// and every step taken in the panel moves the cursor to that move, so that the panel and
// the cursor never disagree: the board shown is always the board at the cursor.

import * as vscode from 'vscode';
import {
  FromPage,
  GameLineResult,
  Position,
  ToPage,
  cursorOf,
  isGameLine,
  isRenderResult,
  pictureHtml,
  renderPanelHtml,
  viewerGame,
} from './board';
import { isServedLanguage } from './languages';

/** Cursor moves closer together than this are answered once. */
const FOLLOW_DELAY_MS = 120;
/** Pictures kept for the states around the one shown (a step back is then immediate). */
const PICTURES_KEPT = 64;

/** The languages whose files the panel follows: every language the server reads. */
export function isBoardLanguage(languageId: string): boolean {
  return isServedLanguage(languageId);
}

/**
 * Where the panel gets its boards: the language server (`ppn/render`, `ppn/gameLine`), or
 * ppn-ls's WebAssembly running in the extension host. Both answer as the server does.
 */
export interface BoardSource {
  /** Why no board can be had now (the server is not running), or undefined. */
  unavailable(): string | undefined;
  /** The picture of the board at `position`, as `ppn/render` answers (`null` outside every game). */
  render(
    document: vscode.TextDocument,
    position: Position,
    flip: boolean,
    token?: vscode.CancellationToken,
  ): Promise<unknown>;
  /** The game at `position`, as `ppn/gameLine` answers (`null` outside every game). */
  gameLine(document: vscode.TextDocument, position: Position, token?: vscode.CancellationToken): Promise<unknown>;
  /** The board to play on, where the source has it. */
  play?: BoardPlay;
}

/** What the answer to a move asks: take or stack (1 or 0), insert or replace the rest. */
export interface MoveChoice {
  capture?: number;
  placement?: string;
}

/** A move made on the board: an edit, a question, or a refusal with why. */
export type EnteredMove =
  | { ask: string }
  | { refused: string }
  | {
      edit: {
        range: vscode.Range;
        newText: string;
        written: string;
        /** Where the move lies once the edit is applied. */
        cursor(document: vscode.TextDocument): vscode.Position;
      };
    };

/**
 * The board to play on, for state `ref` of game `game` (as `ppn/gameLine` numbers them):
 * its squares as drawn, where a piece may go, a move as an edit, and a move in words. The
 * server answers `ppn/boardGrid`, `ppn/legalTargets`, `ppn/enterMove`, `ppn/moveInWords`.
 */
export interface BoardPlay {
  grid(document: vscode.TextDocument, game: number, ref: number, flip: boolean): Promise<unknown>;
  targets(document: vscode.TextDocument, game: number, ref: number, from: string): Promise<unknown>;
  enterMove(
    document: vscode.TextDocument,
    game: number,
    ref: number,
    from: string,
    to: string,
    choice: MoveChoice,
  ): Promise<EnteredMove>;
  moveInWords(document: vscode.TextDocument, game: number, ref: number): Promise<string>;
}

/** An error whose message is shown as the panel's note as it is (not as a failure). */
export class BoardNote extends Error {}

/** The page's own files, and the nonce its content security policy allows them by. */
export interface PanelAssets {
  viewerScript: string;
  viewerStyle: string;
  nonce(): string;
}

/** The game shown: the document revision it was listed from, and its states. */
interface ListedGame {
  uri: string;
  version: number;
  document: vscode.TextDocument;
  line: GameLineResult;
}

/** Where a code lens shows the board: the server's `ppn.showBoard` argument. */
export interface ShowTarget {
  uri: string;
  position: Position;
  animate?: boolean;
}

function isShowTarget(value: unknown): value is ShowTarget {
  const target = value as ShowTarget;
  return (
    typeof target === 'object' &&
    target !== null &&
    typeof target.uri === 'string' &&
    typeof target.position?.line === 'number' &&
    typeof target.position?.character === 'number'
  );
}

export class BoardPanel implements vscode.Disposable {
  private static current: BoardPanel | undefined;

  private readonly subscriptions: vscode.Disposable[] = [];
  private pendingUpdate: NodeJS.Timeout | undefined;
  private inFlight: vscode.CancellationTokenSource | undefined;
  private lastEditor: vscode.TextEditor | undefined;
  private disposed = false;
  private flipped = false;
  private listed: ListedGame | undefined;
  /** The last message that set what the page shows (a note, or a game), and the last `show`. */
  private latestContent: ToPage | undefined;
  private latestShow: ToPage | undefined;
  /** Pictures by `uri@version:ref:flipped`, oldest first. */
  private readonly pictures = new Map<string, string>();
  /** Where this panel last put the cursor: a selection change there is its own step. */
  private steppedTo: { uri: string; position: Position } | undefined;
  /** Play the game once the board asked for is shown (the "Animate" lens). */
  private playWhenShown = false;

  /**
   * Opens the panel beside the editor, or reveals the open one, and shows the board at the
   * cursor; or, from a code lens, at `target`'s position of the active editor's document,
   * playing the game from there when it says `animate`.
   */
  static show(source: BoardSource, assets: PanelAssets, target?: ShowTarget): void {
    const editor = vscode.window.activeTextEditor;
    if (BoardPanel.current) {
      BoardPanel.current.panel.reveal(vscode.ViewColumn.Beside, true);
    } else {
      const panel = vscode.window.createWebviewPanel(
        'ppn.board',
        'PPN Board',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true, localResourceRoots: [], retainContextWhenHidden: true },
      );
      BoardPanel.current = new BoardPanel(panel, source, assets);
    }
    const shown = BoardPanel.current;
    shown.source = source;
    if (editor && isServedLanguage(editor.document.languageId)) {
      shown.lastEditor = editor;
      if (target && isShowTarget(target) && target.uri === editor.document.uri.toString()) {
        shown.putCursor(editor, target.position);
        shown.playWhenShown = target.animate === true;
      }
    }
    shown.scheduleUpdate(0);
  }

  static disposeCurrent(): void {
    BoardPanel.current?.dispose();
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private source: BoardSource,
    assets: PanelAssets,
  ) {
    panel.webview.html = renderPanelHtml({
      cspSource: panel.webview.cspSource,
      nonce: assets.nonce(),
      viewerScript: assets.viewerScript,
      viewerStyle: assets.viewerStyle,
    });
    this.subscriptions.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((message: unknown) => this.onPageMessage(message as FromPage)),
      vscode.window.onDidChangeTextEditorSelection((event) => {
        if (!isServedLanguage(event.textEditor.document.languageId)) {
          return;
        }
        this.lastEditor = event.textEditor;
        const active = event.textEditor.selection.active;
        const own =
          this.steppedTo !== undefined &&
          this.steppedTo.uri === event.textEditor.document.uri.toString() &&
          this.steppedTo.position.line === active.line &&
          this.steppedTo.position.character === active.character;
        if (!own) {
          // The user moved the cursor: a game being played stops there.
          this.steppedTo = undefined;
          this.post({ type: 'pause' });
        }
        this.scheduleUpdate(FOLLOW_DELAY_MS);
      }),
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (editor && isServedLanguage(editor.document.languageId)) {
          this.lastEditor = editor;
          this.scheduleUpdate(0);
        }
      }),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document === this.lastEditor?.document) {
          this.scheduleUpdate(FOLLOW_DELAY_MS);
        }
      }),
    );
  }

  private onPageMessage(message: FromPage): void {
    if (typeof message !== 'object' || message === null) {
      return;
    }
    switch (message.type) {
      case 'ready':
        // Posted before the page listened: send what it should show again.
        if (this.latestContent) {
          void this.panel.webview.postMessage(this.latestContent);
        }
        if (this.latestShow) {
          void this.panel.webview.postMessage(this.latestShow);
        }
        break;
      case 'picture':
        void this.answerPicture(message.id, message.ref, message.flipped === true);
        break;
      case 'step':
        this.moveCursorTo(message.ref);
        break;
      case 'board':
        void this.answerBoard(message);
        break;
      case 'flipped':
        this.flipped = message.flipped === true;
        break;
    }
  }

  /**
   * The board to play on: the squares, a piece's targets, a move's words, and a move made
   * on the board, written into the document as an edit (so undo, the dirty mark and saving
   * behave as for typing) with the cursor put on it, which brings its board here.
   */
  private async answerBoard(message: Extract<FromPage, { type: 'board' }>): Promise<void> {
    const answer = (reply: { result?: unknown; error?: string }) => this.post({ type: 'answer', id: message.id, ...reply });
    const listed = this.listed;
    const play = this.source.play;
    if (!listed || !play || listed.document.isClosed) {
      answer({ error: 'this board takes no move now' });
      return;
    }
    const { document, line } = listed;
    try {
      switch (message.ask) {
        case 'grid':
          answer({ result: await play.grid(document, line.game, message.ref, message.flipped === true) });
          return;
        case 'targets':
          answer({ result: await play.targets(document, line.game, message.ref, message.from ?? '') });
          return;
        case 'change':
          answer({ result: await play.moveInWords(document, line.game, message.ref) });
          return;
        case 'enterMove': {
          if (document.version !== listed.version) {
            answer({ result: { refused: 'the text changed meanwhile; make the move again on the new board' } });
            return;
          }
          const entered = await play.enterMove(document, line.game, message.ref, message.from ?? '', message.to ?? '', message.choice ?? {});
          if (!('edit' in entered)) {
            answer({ result: entered });
            return;
          }
          const edit = new vscode.WorkspaceEdit();
          edit.replace(document.uri, entered.edit.range, entered.edit.newText);
          if (!(await vscode.workspace.applyEdit(edit))) {
            answer({ result: { refused: 'VS Code did not apply the edit' } });
            return;
          }
          const editor = vscode.window.visibleTextEditors.find((shown) => shown.document === document);
          if (editor) {
            this.lastEditor = editor;
            const cursor = entered.edit.cursor(document);
            this.putCursor(editor, { line: cursor.line, character: cursor.character });
          }
          answer({ result: { edit: { written: entered.edit.written } } });
          return;
        }
      }
    } catch (error) {
      answer({ error: error instanceof Error ? error.message : String(error) });
    }
  }

  /** Puts the editor's cursor where it shows state `ref`; the panel follows from there. */
  private moveCursorTo(ref: number): void {
    const editor = this.lastEditor;
    const listed = this.listed;
    if (!editor || editor.document.isClosed || !listed || listed.uri !== editor.document.uri.toString()) {
      return;
    }
    const cursor = cursorOf(listed.line, ref);
    if (!cursor) {
      return;
    }
    this.putCursor(editor, cursor);
  }

  /** Moves the cursor as the panel's own step: the selection change it makes pauses nothing. */
  private putCursor(editor: vscode.TextEditor, cursor: Position): void {
    this.steppedTo = { uri: editor.document.uri.toString(), position: cursor };
    const position = new vscode.Position(cursor.line, cursor.character);
    editor.selection = new vscode.Selection(position, position);
    editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private scheduleUpdate(delayMs: number): void {
    if (this.pendingUpdate) {
      clearTimeout(this.pendingUpdate);
    }
    this.pendingUpdate = setTimeout(() => {
      this.pendingUpdate = undefined;
      void this.update();
    }, delayMs);
  }

  /** The board at the cursor: its picture (kept for the page) and the game it is in. */
  private async update(): Promise<void> {
    const editor = this.lastEditor;
    if (!editor || editor.document.isClosed) {
      this.showNote('Open a .ppn, .otg or xiangqi-setup file and put the cursor on a move.');
      return;
    }
    const unavailable = this.source.unavailable();
    if (unavailable !== undefined) {
      this.showNote(unavailable);
      return;
    }
    const source = this.source;
    this.inFlight?.cancel();
    const cancellation = new vscode.CancellationTokenSource();
    this.inFlight = cancellation;
    const document = editor.document;
    const uri = document.uri.toString();
    const version = document.version;
    const active = editor.selection.active;
    const position: Position = { line: active.line, character: active.character };
    try {
      const result: unknown = await source.render(document, position, this.flipped, cancellation.token);
      if (cancellation.token.isCancellationRequested) {
        return;
      }
      if (result === null || result === undefined) {
        this.listed = undefined;
        this.showNote('Put the cursor on a move to see the board after it.');
        return;
      }
      if (!isRenderResult(result) || result.state === undefined) {
        this.showNote('The board asked for is not a board.');
        return;
      }
      this.keepPicture(this.pictureKey(uri, version, result.state, this.flipped), pictureHtml(result));
      if (!this.listed || this.listed.uri !== uri || this.listed.version !== version || this.listed.line.game !== result.game) {
        const line: unknown = await source.gameLine(document, position, cancellation.token);
        if (cancellation.token.isCancellationRequested) {
          return;
        }
        if (!isGameLine(line)) {
          this.showNote('The game asked for is not a game.');
          return;
        }
        this.listed = { uri, version, document, line };
        this.post({ type: 'game', game: viewerGame(line), current: result.state });
      }
      this.post({ type: 'show', ref: result.state });
      if (this.playWhenShown) {
        this.playWhenShown = false;
        this.post({ type: 'play' });
      }
    } catch (error) {
      if (cancellation.token.isCancellationRequested) {
        return;
      }
      if (error instanceof BoardNote) {
        this.showNote(error.message);
      } else {
        const message = error instanceof Error ? error.message : String(error);
        this.showNote(`Could not get the board: ${message}`);
      }
    } finally {
      if (this.inFlight === cancellation) {
        this.inFlight = undefined;
      }
      cancellation.dispose();
    }
  }

  /** The picture of state `ref` of the game shown, for the page's viewer. */
  private async answerPicture(id: number, ref: number, flipped: boolean): Promise<void> {
    const listed = this.listed;
    const answer = (reply: { html?: string; error?: string }) => this.post({ type: 'picture', id, ...reply });
    if (!listed) {
      answer({ error: 'no game is shown' });
      return;
    }
    const key = this.pictureKey(listed.uri, listed.version, ref, flipped);
    const kept = this.pictures.get(key);
    if (kept !== undefined) {
      answer({ html: kept });
      return;
    }
    const cursor = cursorOf(listed.line, ref);
    if (this.source.unavailable() !== undefined || !cursor || listed.document.isClosed) {
      answer({ error: 'the board cannot be drawn now' });
      return;
    }
    try {
      const result: unknown = await this.source.render(listed.document, cursor, flipped);
      if (!isRenderResult(result)) {
        answer({ error: 'no board was drawn' });
        return;
      }
      const html = pictureHtml(result);
      this.keepPicture(key, html);
      answer({ html });
    } catch (error) {
      answer({ error: error instanceof Error ? error.message : String(error) });
    }
  }

  private pictureKey(uri: string, version: number, ref: number, flipped: boolean): string {
    return `${uri}@${version}:${ref}:${flipped}`;
  }

  private keepPicture(key: string, html: string): void {
    this.pictures.delete(key);
    this.pictures.set(key, html);
    while (this.pictures.size > PICTURES_KEPT) {
      const oldest = this.pictures.keys().next().value as string;
      this.pictures.delete(oldest);
    }
  }

  private showNote(text: string): void {
    this.latestShow = undefined;
    this.post({ type: 'message', text });
  }

  private post(message: ToPage): void {
    if (message.type === 'message' || message.type === 'game') {
      this.latestContent = message;
    } else if (message.type === 'show') {
      this.latestShow = message;
    }
    void this.panel.webview.postMessage(message);
  }

  dispose(): void {
    // Disposing the panel fires onDidDispose, which comes back here.
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    if (BoardPanel.current === this) {
      BoardPanel.current = undefined;
    }
    if (this.pendingUpdate) {
      clearTimeout(this.pendingUpdate);
    }
    this.inFlight?.cancel();
    for (const subscription of this.subscriptions.splice(0)) {
      subscription.dispose();
    }
    this.panel.dispose();
  }
}
