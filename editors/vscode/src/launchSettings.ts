// Which ppn-ls to start and with what arguments, as the settings say, and what an untrusted
// workspace may not say. A folder's own `.vscode/settings.json` could name any program as
// `ppn.server.path`: in a workspace the user has not trusted, only the values the user set
// (or the defaults) count. VS Code already withholds a workspace's values of the settings
// the manifest lists as `restrictedConfigurations`; this module does not rely on that, so
// that an editor without Workspace Trust's filtering does not start the folder's program
// either. Kept free of the `vscode` module so that it can be unit-tested with plain Node.

/** The settings that choose the program started, as listed in `restrictedConfigurations`. */
export const LAUNCH_SETTINGS = ['ppn.server.path', 'ppn.server.args'] as const;

/** What `WorkspaceConfiguration.inspect` reports of one setting (the levels used here). */
export interface InspectedSetting<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/** How the server is launched: the configured path (empty for the default) and arguments. */
export interface LaunchSettings {
  path: string;
  args: string[];
}

export interface LaunchInputs {
  /** Whether the user trusts the workspace (`vscode.workspace.isTrusted`). */
  trusted: boolean;
  /** The values as `getConfiguration('ppn.server').get` gives them. */
  effective: { path: unknown; args: unknown };
  /** What `inspect` reports of `path` and `args`. */
  inspected: { path: InspectedSetting<unknown> | undefined; args: InspectedSetting<unknown> | undefined };
}

function asPath(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function asArgs(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The user's own value, else the default: what an untrusted workspace leaves standing. */
function userValue(inspected: InspectedSetting<unknown> | undefined): unknown {
  return inspected?.globalValue ?? inspected?.defaultValue;
}

/** The launch settings that apply: the effective values, or in an untrusted workspace the user's. */
export function launchSettings(inputs: LaunchInputs): LaunchSettings {
  if (inputs.trusted) {
    return { path: asPath(inputs.effective.path), args: asArgs(inputs.effective.args) };
  }
  return { path: asPath(userValue(inputs.inspected.path)), args: asArgs(userValue(inputs.inspected.args)) };
}

/**
 * The launch settings a workspace sets for itself that are being ignored because it is not
 * trusted (as far as `inspect` shows them), by full name.
 */
export function ignoredWorkspaceSettings(inputs: LaunchInputs): string[] {
  if (inputs.trusted) {
    return [];
  }
  const levels: [string, InspectedSetting<unknown> | undefined][] = [
    [LAUNCH_SETTINGS[0], inputs.inspected.path],
    [LAUNCH_SETTINGS[1], inputs.inspected.args],
  ];
  return levels
    .filter(([, inspected]) => inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined)
    .map(([name]) => name);
}

export function sameLaunchSettings(a: LaunchSettings | undefined, b: LaunchSettings): boolean {
  return a !== undefined && a.path === b.path && a.args.length === b.args.length && a.args.every((arg, i) => arg === b.args[i]);
}

/** The line the output channel gets when a workspace's launch settings are ignored. */
export function ignoredSettingsMessage(names: string[]): string {
  const listed = names.map((name) => `"${name}"`).join(' and ');
  return (
    `This workspace sets ${listed} in its own settings; ${names.length === 1 ? 'it is' : 'they are'} ignored ` +
    'until you trust the workspace (Workspace Trust), so that opening a folder never starts a program it names.'
  );
}
