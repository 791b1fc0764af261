// Starts ppn-ls for .ppn, OpenTafl (.otg, .otn) and xiangqi-setup files and registers the
// PPN commands. A server that cannot start or stops is reported once and left stopped: a
// missing or broken executable would only fail again, so restarting it in a loop helps
// nobody. In a workspace the user has not trusted, the workspace's own `ppn.server.*`
// settings are ignored (see launchSettings.ts); trusting it later restarts the server with
// them.

import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from 'vscode-languageclient/node';
import { BoardPanel, BoardSource, ShowTarget } from './boardPanel';
import { lspBoardSource, viewerAssets } from './lspBoardSource';
import { SERVED_LANGUAGES } from './languages';
import {
  LaunchSettings,
  ignoredSettingsMessage,
  ignoredWorkspaceSettings,
  launchSettings,
  sameLaunchSettings,
} from './launchSettings';
import { CONFIG_FILE_NAME, OUTPUT_CHANNEL_NAME, SERVER_SETTINGS_SECTION, serverSettings } from './settings';
import { ServerExit, serverFailureMessage } from './serverFailure';
import {
  ResolvedServer,
  bundledServerPath,
  chooseServer,
  isExecutableFile,
  serverNotFoundMessage,
} from './serverPath';

export { OUTPUT_CHANNEL_NAME };
/** How long a stopped server's process is given to exit before it is killed. */
const EXIT_GRACE_MS = 2000;

/**
 * The protocol library shows its own notification for every way a server can fail to start
 * or stop ("couldn't create connection", "connection got closed", ...), some of them
 * forced. This extension tells the user once itself (see {@link reportFailure}), so those
 * go to the output channel only.
 */
class PpnLanguageClient extends LanguageClient {
  override error(message: string, data?: unknown, showNotification: boolean | 'force' = true): void {
    super.error(message, data, showNotification === 'force' ? false : showNotification);
  }
}

/** One start of the server: its client, its process, and whether its end was reported. */
class ServerSession {
  readonly client: LanguageClient;
  process: ChildProcess | undefined;
  initialized = false;
  stopping = false;
  private reported = false;
  private exitInfo: ServerExit | undefined;
  private readonly exited: Promise<void>;
  private markExited!: () => void;

  constructor(
    readonly server: ResolvedServer,
    args: string[],
    output: vscode.OutputChannel,
  ) {
    this.exited = new Promise((resolve) => (this.markExited = resolve));
    const serverOptions: ServerOptions = () => this.spawn(args);
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        ...SERVED_LANGUAGES.flatMap((language) => servedSchemes().map((scheme) => ({ scheme, language }))),
        // The project's configuration: the server reads it as it is typed, and reports
        // its mistakes in it.
        { scheme: 'file', pattern: `**/${CONFIG_FILE_NAME}` },
      ],
      outputChannel: output,
      // The editor's `ppn-ls.*` settings, at start and after each change.
      initializationOptions: () => ({ [SERVER_SETTINGS_SECTION]: serverSettings() }),
      synchronize: { configurationSection: SERVER_SETTINGS_SECTION },
      initializationFailedHandler: () => false,
      errorHandler: {
        // Writing to a server that has gone fails; its end is reported once, by `closed`.
        error: (_error, _message, count) => ({
          action: count !== undefined && count <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown,
          handled: true,
        }),
        closed: () => {
          if (!this.stopping) {
            void this.reportFailure();
          }
          return { action: CloseAction.DoNotRestart, handled: true };
        },
      },
    };
    this.client = new PpnLanguageClient('ppn', OUTPUT_CHANNEL_NAME, serverOptions, clientOptions);
  }

  private spawn(args: string[]): Promise<ChildProcess> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.server.command, args, { cwd: baseDirectory(), stdio: 'pipe' });
      this.process = child;
      child.once('spawn', () => resolve(child));
      child.once('error', (error) => reject(error));
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        this.markExited();
      });
    });
  }

  /** Tells the user, once, that the server could not start or stopped. */
  async reportFailure(reason?: string): Promise<void> {
    if (this.reported || this.stopping) {
      return;
    }
    this.reported = true;
    // The connection usually closes a moment before the process is seen to exit.
    if (this.process !== undefined) {
      await Promise.race([this.exited, delay(1000)]);
    }
    const message = serverFailureMessage({
      command: this.server.command,
      source: this.server.source,
      wasRunning: this.initialized,
      exit: this.exitInfo,
      reason,
    });
    showFailure(message);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    try {
      if (this.client.needsStop()) {
        await this.client.stop(EXIT_GRACE_MS);
      }
    } catch (error) {
      outputChannel?.appendLine(`Stopping the language server failed: ${String(error)}`);
    }
    const child = this.process;
    if (child !== undefined && child.exitCode === null && child.signalCode === null) {
      await Promise.race([this.exited, delay(EXIT_GRACE_MS)]);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill();
      }
    }
  }
}

let session: ServerSession | undefined;
/** ppn-ls's WebAssembly in the extension host, where no executable was found (see startWasmFallback). */
let wasmFallback: (vscode.Disposable & { boardSource: BoardSource }) | undefined;
let fallbackAnnounced = false;
let outputChannel: vscode.OutputChannel | undefined;
let extensionPath: string | undefined;
/** The settings the current server was chosen by (also when it could not be found). */
let launchedWith: LaunchSettings | undefined;
/** Starts and stops, one after the other: two at once could leave a server running unowned. */
let lifecycle: Promise<void> = Promise.resolve();

function serialized(task: () => Promise<void>): Promise<void> {
  const next = lifecycle.then(task, task);
  lifecycle = next.catch(() => undefined);
  return next;
}

/** The board panel's boards: from the server, or from the WebAssembly while it stands in for one. */
const serverBoards = lspBoardSource(() => session?.client);
const currentBoards = (): BoardSource => wasmFallback?.boardSource ?? serverBoards;
const boardSource: BoardSource = {
  unavailable: () => currentBoards().unavailable(),
  render: (document, position, flip, token) => currentBoards().render(document, position, flip, token),
  gameLine: (document, position, token) => currentBoards().gameLine(document, position, token),
  get play() {
    return currentBoards().play;
  },
};

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionPath = context.extensionPath;
  outputChannel = vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME);
  context.subscriptions.push(
    outputChannel,
    // From the palette with no argument; from a code lens with where and whether to play.
    vscode.commands.registerCommand('ppn.showBoard', (target?: ShowTarget) =>
      BoardPanel.show(boardSource, viewerAssets(context.extensionPath), target),
    ),
    vscode.commands.registerCommand('ppn.restartServer', () => serialized(restartServer)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('ppn.server')) {
        void serialized(restartIfSettingsChanged);
      }
    }),
    // Trust also changes the configuration (the workspace's values of restricted settings
    // appear); whichever comes first restarts, the other finds nothing changed.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void serialized(restartIfSettingsChanged)),
    { dispose: () => BoardPanel.disposeCurrent() },
  );
  await serialized(startServer);
}

export async function deactivate(): Promise<void> {
  await serialized(stopServer);
}

/** The folder a relative `ppn.server.path` starts at and the server runs in: a folder on disk. */
function baseDirectory(): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
}

/**
 * The URI schemes of the documents served: files, new files, and those of the workspace's
 * folders, so that a virtual workspace (a repository opened from the web) is served too:
 * the server is given every document's text and needs no file of its own.
 */
function servedSchemes(): string[] {
  const schemes = new Set(['file', 'untitled']);
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    schemes.add(folder.uri.scheme);
  }
  return [...schemes];
}

/** The launch settings that apply now, trust considered. */
function currentLaunchSettings(): { settings: LaunchSettings; ignored: string[] } {
  const configuration = vscode.workspace.getConfiguration('ppn.server');
  const inputs = {
    // `isTrusted` is undefined only in an editor that knows nothing of trust.
    trusted: vscode.workspace.isTrusted !== false,
    effective: { path: configuration.get<unknown>('path'), args: configuration.get<unknown>('args') },
    inspected: { path: configuration.inspect<unknown>('path'), args: configuration.inspect<unknown>('args') },
  };
  return { settings: launchSettings(inputs), ignored: ignoredWorkspaceSettings(inputs) };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function showFailure(message: string): void {
  outputChannel?.appendLine(message);
  void vscode.window.showErrorMessage(message, 'Open Settings', 'Show Output').then((choice) => {
    if (choice === 'Open Settings') {
      void vscode.commands.executeCommand('workbench.action.openSettings', 'ppn.server.path');
    } else if (choice === 'Show Output') {
      outputChannel?.show(true);
    }
  });
}

async function startServer(): Promise<void> {
  const { settings, ignored } = currentLaunchSettings();
  launchedWith = settings;
  if (ignored.length > 0) {
    outputChannel?.appendLine(ignoredSettingsMessage(ignored));
  }
  const configuredPath = settings.path;
  const args = settings.args;
  const server = chooseServer(configuredPath, {
    env: process.env,
    platform: process.platform,
    baseDirectory: baseDirectory(),
    isExecutableFile,
    bundledServer: extensionPath === undefined ? undefined : bundledServerPath(extensionPath, process.platform),
  });
  if (server === undefined) {
    if (configuredPath === '' && (await startWasmFallback())) {
      return;
    }
    showFailure(serverNotFoundMessage(configuredPath, process.env));
    return;
  }
  outputChannel?.appendLine(`Starting ${server.command} (${describeSource(server)})`);
  const started = new ServerSession(server, args, outputChannel!);
  session = started;
  try {
    await started.client.start();
    started.initialized = true;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await started.reportFailure(reason);
  }
}

function describeSource(server: ResolvedServer): string {
  switch (server.source) {
    case 'bundled':
      return 'bundled with the extension';
    case 'path':
      return 'found on PATH';
    case 'setting':
      return 'from ppn.server.path';
  }
}

async function stopServer(): Promise<void> {
  const running = session;
  session = undefined;
  wasmFallback?.dispose();
  wasmFallback = undefined;
  await running?.stop();
}

/** The bundle of the universal package that runs ppn-ls as WebAssembly (browser.ts). */
function wasmBundle(): string | undefined {
  return extensionPath === undefined ? undefined : path.join(extensionPath, 'dist', 'web.js');
}

/**
 * No executable fits: the universal package runs ppn-ls's WebAssembly in the extension host
 * instead, as it does in VS Code for the Web, and says so once. A package without it (the
 * platform ones carry an executable) reports the missing server as before.
 */
async function startWasmFallback(): Promise<boolean> {
  const bundle = wasmBundle();
  if (bundle === undefined || extensionPath === undefined || !fs.existsSync(bundle)) {
    return false;
  }
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const web = require(bundle) as typeof import('./browser');
    wasmFallback = await web.startWasmService(vscode.Uri.file(extensionPath), outputChannel!);
  } catch (error) {
    outputChannel?.appendLine(`ppn-ls's WebAssembly could not be started: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
  if (!fallbackAnnounced) {
    fallbackAnnounced = true;
    outputChannel?.appendLine(
      `No ppn-ls executable was found for ${process.platform}-${process.arch} (none bundled, "ppn.server.path" is empty, none on PATH): ` +
        "ppn-ls runs as WebAssembly in the extension host instead, with the same diagnostics, hovers, completion, highlighting, " +
        'formatting, outline, folding and board panel. Install ppn-ls or set "ppn.server.path" to use the native server.',
    );
  }
  return true;
}

async function restartServer(): Promise<void> {
  await stopServer();
  await startServer();
}

/** Restarts the server when the settings that choose it now say otherwise. */
async function restartIfSettingsChanged(): Promise<void> {
  if (!sameLaunchSettings(launchedWith, currentLaunchSettings().settings)) {
    await restartServer();
  }
}
