// Starts ppn-ls for .ppn, OpenTafl (.otg, .otn) and xiangqi-setup files and registers the
// PPN commands.

import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from 'vscode-languageclient/node';
import { BoardPanel } from './boardPanel';
import { SERVED_LANGUAGES } from './languages';
import { isExecutableFile, resolveServerPath, serverNotFoundMessage } from './serverPath';

let client: LanguageClient | undefined;
let outputChannel: vscode.OutputChannel | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  outputChannel = vscode.window.createOutputChannel('PPN Language Server');
  context.subscriptions.push(
    outputChannel,
    vscode.commands.registerCommand('ppn.showBoard', () => BoardPanel.show(() => client)),
    vscode.commands.registerCommand('ppn.restartServer', () => restartServer()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('ppn.server')) {
        void restartServer();
      }
    }),
    { dispose: () => BoardPanel.disposeCurrent() },
  );
  await startServer();
}

export async function deactivate(): Promise<void> {
  await stopServer();
}

function baseDirectory(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

async function startServer(): Promise<void> {
  const configuration = vscode.workspace.getConfiguration('ppn.server');
  const configuredPath = configuration.get<string>('path');
  const args = configuration.get<string[]>('args') ?? [];
  const command = resolveServerPath(configuredPath, {
    env: process.env,
    platform: process.platform,
    baseDirectory: baseDirectory(),
    isExecutableFile,
  });
  if (command === undefined) {
    const message = serverNotFoundMessage(configuredPath, process.env);
    outputChannel?.appendLine(message);
    void vscode.window.showErrorMessage(message, 'Open Settings').then((choice) => {
      if (choice === 'Open Settings') {
        void vscode.commands.executeCommand('workbench.action.openSettings', 'ppn.server.path');
      }
    });
    return;
  }

  const serverOptions: ServerOptions = {
    run: { command, args, transport: TransportKind.stdio },
    debug: { command, args, transport: TransportKind.stdio },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: SERVED_LANGUAGES.flatMap((language) => [
      { scheme: 'file', language },
      { scheme: 'untitled', language },
    ]),
    outputChannel,
  };
  const newClient = new LanguageClient('ppn', 'PPN Language Server', serverOptions, clientOptions);
  client = newClient;
  try {
    await newClient.start();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    client = undefined;
    void vscode.window.showErrorMessage(`PPN: the language server "${command}" failed to start: ${reason}`);
  }
}

async function stopServer(): Promise<void> {
  const running = client;
  client = undefined;
  if (running) {
    try {
      await running.stop();
    } catch (error) {
      outputChannel?.appendLine(`Stopping the language server failed: ${String(error)}`);
    }
  }
}

async function restartServer(): Promise<void> {
  await stopServer();
  await startServer();
}
