// The extension where no ppn-ls executable can run: VS Code for the Web (vscode.dev,
// github.dev, ...), where this is the `browser` entry, and a desktop whose platform has no
// ppn-ls build, where extension.ts falls back to it. ppn-ls's WebAssembly (the
// `ppn-ls-web` crate) is loaded in the extension host itself, not in a worker of its own
// (some hosts, code-server's among them, let no extension start one), and answers through
// VS Code's providers (wasmService.ts). Bundled by scripts/build-web-extension.mjs with
// the module's JavaScript glue and the board viewer's files.

import * as vscode from 'vscode';
import { makeGlue } from 'ppn-ls-wasm-factory';
import { viewerScript, viewerStyle } from 'ppn-viewer-assets';
import { BoardPanel, PanelAssets, ShowTarget } from './boardPanel';
import { OUTPUT_CHANNEL_NAME } from './settings';
import { PpnWasm, WasmLanguageService, WasmSession } from './wasmService';

/** The WebAssembly file, beside this bundle in the package. */
const WASM_PATH = ['dist', 'ppn_ls_web_bg.wasm'];

/** The panel's page files (bundled), and nonces from the host's randomness. */
export const panelAssets: PanelAssets = {
  viewerScript,
  viewerStyle,
  nonce: () => {
    const bytes = new Uint8Array(16);
    globalThis.crypto.getRandomValues(bytes);
    return btoa(String.fromCharCode(...bytes));
  },
};

/** The module's bytes, read through VS Code's file system (or fetched, where it has no provider for the extension's scheme). */
async function wasmBytes(extensionUri: vscode.Uri): Promise<Uint8Array> {
  const uri = vscode.Uri.joinPath(extensionUri, ...WASM_PATH);
  try {
    return await vscode.workspace.fs.readFile(uri);
  } catch (error) {
    if (uri.scheme === 'file') {
      throw error;
    }
    const response = await fetch(uri.toString(true));
    if (!response.ok) {
      throw new Error(`${uri.toString(true)}: ${response.status} ${response.statusText}`);
    }
    return new Uint8Array(await response.arrayBuffer());
  }
}

/**
 * Compiles the module and starts the language service over it: what both the browser entry
 * and the desktop's fallback run.
 */
export async function startWasmService(
  extensionUri: vscode.Uri,
  output: vscode.OutputChannel,
): Promise<WasmLanguageService> {
  const bytes = await wasmBytes(extensionUri);
  const module = await WebAssembly.compile(bytes);
  // A panic's message, which the trap that follows would lose.
  (globalThis as { ppnPanicked?: (message: string) => void }).ppnPanicked = (message) =>
    output.appendLine(`ppn-ls (WebAssembly) panicked: ${message}`);
  const makeWasm = (): PpnWasm => {
    const glue = makeGlue();
    glue.initSync({ module });
    return { newSession: () => new glue.Session() as WasmSession, tokenKinds: () => glue.token_kinds() };
  };
  return new WasmLanguageService(makeWasm, output);
}

let service: WasmLanguageService | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME);
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('ppn.showBoard', (target?: ShowTarget) => {
      if (service) {
        BoardPanel.show(service.boardSource, panelAssets, target);
      }
    }),
    vscode.commands.registerCommand('ppn.restartServer', async () => {
      service?.dispose();
      service = await startWasmService(context.extensionUri, output);
    }),
    { dispose: () => BoardPanel.disposeCurrent() },
    { dispose: () => service?.dispose() },
  );
  try {
    service = await startWasmService(context.extensionUri, output);
    output.appendLine("ppn-ls runs as WebAssembly in this editor's extension host.");
  } catch (error) {
    const message = `ppn-ls's WebAssembly could not be loaded: ${error instanceof Error ? error.message : String(error)}`;
    output.appendLine(message);
    void vscode.window.showErrorMessage(message);
  }
}

export function deactivate(): void {
  service?.dispose();
  service = undefined;
}
