// The "PPN: Show Board" side panel: asks the server for the picture of the board at the
// cursor and follows the cursor while the panel is open.

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { LanguageClient, ResponseError } from 'vscode-languageclient/node';
import {
  RENDER_METHOD,
  RenderParams,
  isRenderResult,
  renderBoardBody,
  renderMessageBody,
  renderPanelHtml,
} from './board';
import { isServedLanguage } from './languages';

const METHOD_NOT_FOUND = -32601;
/** Cursor moves closer together than this are answered once. */
const FOLLOW_DELAY_MS = 120;

/** The languages whose files the panel follows: every language the server reads. */
export function isBoardLanguage(languageId: string): boolean {
  return isServedLanguage(languageId);
}

export class BoardPanel implements vscode.Disposable {
  private static current: BoardPanel | undefined;

  private readonly subscriptions: vscode.Disposable[] = [];
  private pendingUpdate: NodeJS.Timeout | undefined;
  private inFlight: vscode.CancellationTokenSource | undefined;
  private lastEditor: vscode.TextEditor | undefined;
  private disposed = false;
  private latestBody: string | undefined;

  /** Opens the panel beside the editor, or reveals the open one, and shows the board at the cursor. */
  static show(getClient: () => LanguageClient | undefined): void {
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
      BoardPanel.current = new BoardPanel(panel, getClient);
    }
    if (editor && isServedLanguage(editor.document.languageId)) {
      BoardPanel.current.lastEditor = editor;
    }
    BoardPanel.current.scheduleUpdate(0);
  }

  static disposeCurrent(): void {
    BoardPanel.current?.dispose();
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly getClient: () => LanguageClient | undefined,
  ) {
    const nonce = randomBytes(16).toString('base64');
    panel.webview.html = renderPanelHtml({
      cspSource: panel.webview.cspSource,
      nonce,
      body: renderMessageBody('Loading the board…'),
    });
    this.subscriptions.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((message: unknown) => {
        const isReady = typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'ready';
        if (isReady && this.latestBody !== undefined) {
          this.showBody(this.latestBody);
        }
      }),
      vscode.window.onDidChangeTextEditorSelection((event) => {
        if (isServedLanguage(event.textEditor.document.languageId)) {
          this.lastEditor = event.textEditor;
          this.scheduleUpdate(FOLLOW_DELAY_MS);
        }
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

  private scheduleUpdate(delayMs: number): void {
    if (this.pendingUpdate) {
      clearTimeout(this.pendingUpdate);
    }
    this.pendingUpdate = setTimeout(() => {
      this.pendingUpdate = undefined;
      void this.update();
    }, delayMs);
  }

  private async update(): Promise<void> {
    const editor = this.lastEditor;
    if (!editor || editor.document.isClosed) {
      this.showBody(renderMessageBody('Open a .ppn, .otg or xiangqi-setup file and put the cursor on a move.'));
      return;
    }
    const client = this.getClient();
    if (!client || !client.isRunning()) {
      this.showBody(renderMessageBody('The PPN language server is not running.'));
      return;
    }
    this.inFlight?.cancel();
    const cancellation = new vscode.CancellationTokenSource();
    this.inFlight = cancellation;
    const params: RenderParams = {
      textDocument: { uri: client.code2ProtocolConverter.asUri(editor.document.uri) },
      position: client.code2ProtocolConverter.asPosition(editor.selection.active),
    };
    try {
      const result: unknown = await client.sendRequest(RENDER_METHOD, params, cancellation.token);
      if (cancellation.token.isCancellationRequested) {
        return;
      }
      if (result === null || result === undefined) {
        this.showBody(renderBoardBody(null));
      } else if (isRenderResult(result)) {
        this.showBody(renderBoardBody(result));
      } else {
        this.showBody(renderMessageBody(`The server answered ${RENDER_METHOD} with something that is not a board.`));
      }
    } catch (error) {
      if (cancellation.token.isCancellationRequested) {
        return;
      }
      if (error instanceof ResponseError && error.code === METHOD_NOT_FOUND) {
        this.showBody(renderMessageBody(`This version of ppn-ls does not answer ${RENDER_METHOD} yet.`));
      } else {
        const message = error instanceof Error ? error.message : String(error);
        this.showBody(renderMessageBody(`Could not get the board: ${message}`));
      }
    } finally {
      if (this.inFlight === cancellation) {
        this.inFlight = undefined;
      }
      cancellation.dispose();
    }
  }

  private showBody(body: string): void {
    this.latestBody = body;
    void this.panel.webview.postMessage({ type: 'update', body });
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
