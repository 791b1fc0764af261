// The editor's settings for the server itself (`ppn-ls.*`): the keys of a project's
// `ppn-ls.toml`, sent as `initializationOptions` and with `workspace/didChangeConfiguration`
// under `ppn-ls`. The server decides between them and the file.

import * as vscode from 'vscode';

/** The output channel's name, also named in messages. */
export const OUTPUT_CHANNEL_NAME = 'PPN Language Server';

/** The project's configuration file, which the server reads beside these settings. */
export const CONFIG_FILE_NAME = 'ppn-ls.toml';

/** The settings section the server reads, and the key it is sent under. */
export const SERVER_SETTINGS_SECTION = 'ppn-ls';

/** The `ppn-ls.*` settings as one plain JSON object (`{diagnostics: {...}, hover: {...}}`). */
export function serverSettings(): Record<string, unknown> {
  const value = vscode.workspace.getConfiguration().get<unknown>(SERVER_SETTINGS_SECTION);
  if (typeof value !== 'object' || value === null) {
    return {};
  }
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}
