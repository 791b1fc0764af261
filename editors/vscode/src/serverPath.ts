// Finding the ppn-ls executable: the one `ppn.server.path` names, else the one bundled in a
// platform-specific .vsix, else `ppn-ls` on PATH. Kept free of the `vscode` module so that
// it can be unit-tested with plain Node.

import * as fs from 'node:fs';
import * as path from 'node:path';

export const DEFAULT_SERVER_COMMAND = 'ppn-ls';

export interface ResolveEnvironment {
  /** Environment variables; PATH (Path on Windows), PATHEXT, HOME and USERPROFILE are read. */
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  /** Directory that a relative `ppn.server.path` is taken from, usually the workspace folder. */
  baseDirectory?: string;
  isExecutableFile: (candidate: string) => boolean;
  /** Where a platform-specific .vsix keeps its own ppn-ls (`server/ppn-ls` in the extension). */
  bundledServer?: string;
}

/** Where the server was found, for the output channel and for messages. */
export type ServerSource = 'setting' | 'bundled' | 'path';

export interface ResolvedServer {
  command: string;
  source: ServerSource;
}

/** The bundled executable's path inside the extension's folder. */
export function bundledServerPath(extensionPath: string, platform: NodeJS.Platform): string {
  const paths = pathModule(platform);
  return paths.join(extensionPath, 'server', platform === 'win32' ? 'ppn-ls.exe' : 'ppn-ls');
}

/** Whether the user left `ppn.server.path` empty (its default). */
export function isServerPathUnset(configured: string | undefined): boolean {
  return (configured ?? '').trim() === '';
}

/** The setting as the user wrote it, with the default for an empty value and `~` expanded. */
export function normalizeConfiguredPath(configured: string | undefined, env: ResolveEnvironment['env']): string {
  const trimmed = (configured ?? '').trim();
  if (trimmed === '') {
    return DEFAULT_SERVER_COMMAND;
  }
  const home = env.HOME ?? env.USERPROFILE;
  if (home && (trimmed === '~' || trimmed.startsWith('~/') || trimmed.startsWith('~\\'))) {
    return home + trimmed.slice(1);
  }
  return trimmed;
}

function pathModule(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

function environmentValue(env: ResolveEnvironment['env'], name: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') {
    return env[name];
  }
  // Windows environment names are case-insensitive (`Path`, `PATH`).
  const key = Object.keys(env).find((candidate) => candidate.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

/** Executable extensions to try on Windows when the name has none of its own. */
function windowsExtensions(env: ResolveEnvironment['env']): string[] {
  const pathext = environmentValue(env, 'PATHEXT', 'win32') ?? '.COM;.EXE;.BAT;.CMD';
  return pathext.split(';').filter((extension) => extension !== '');
}

function candidatesFor(file: string, environment: ResolveEnvironment): string[] {
  if (environment.platform !== 'win32' || pathModule('win32').extname(file) !== '') {
    return [file];
  }
  return [file, ...windowsExtensions(environment.env).map((extension) => file + extension.toLowerCase())];
}

/**
 * The server to start, or undefined when it cannot be found. With `ppn.server.path` unset,
 * the bundled executable if the extension has one, else `ppn-ls` on PATH; with it set, what
 * it names (see {@link resolveServerPath}).
 */
export function chooseServer(configured: string | undefined, environment: ResolveEnvironment): ResolvedServer | undefined {
  if (isServerPathUnset(configured) && environment.bundledServer !== undefined) {
    if (environment.isExecutableFile(environment.bundledServer)) {
      return { command: environment.bundledServer, source: 'bundled' };
    }
  }
  const command = resolveServerPath(configured, environment);
  if (command === undefined) {
    return undefined;
  }
  return { command, source: isServerPathUnset(configured) ? 'path' : 'setting' };
}

/**
 * The absolute path of the server executable, or undefined when it cannot be found.
 * A value with a directory part is a path (relative ones start at `baseDirectory`);
 * a bare name is looked up on PATH like a shell would.
 */
export function resolveServerPath(configured: string | undefined, environment: ResolveEnvironment): string | undefined {
  const wanted = normalizeConfiguredPath(configured, environment.env);
  const paths = pathModule(environment.platform);
  const hasDirectory = wanted.includes('/') || (environment.platform === 'win32' && wanted.includes('\\'));
  if (hasDirectory) {
    const absolute = paths.isAbsolute(wanted)
      ? wanted
      : paths.resolve(environment.baseDirectory ?? process.cwd(), wanted);
    return candidatesFor(absolute, environment).find(environment.isExecutableFile);
  }
  const searchPath = environmentValue(environment.env, 'PATH', environment.platform) ?? '';
  for (const directory of searchPath.split(paths.delimiter)) {
    if (directory === '') {
      continue;
    }
    const found = candidatesFor(paths.join(directory, wanted), environment).find(environment.isExecutableFile);
    if (found !== undefined) {
      return found;
    }
  }
  return undefined;
}

/** The real file-system check: a regular file that this process may execute. */
export function isExecutableFile(candidate: string): boolean {
  try {
    if (!fs.statSync(candidate).isFile()) {
      return false;
    }
    fs.accessSync(candidate, process.platform === 'win32' ? fs.constants.F_OK : fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The message shown when the executable is missing, naming the setting that fixes it. */
export function serverNotFoundMessage(configured: string | undefined, env: ResolveEnvironment['env']): string {
  const wanted = normalizeConfiguredPath(configured, env);
  const where = isServerPathUnset(configured)
    ? `this extension has no ppn-ls of its own and "${DEFAULT_SERVER_COMMAND}" is not on PATH`
    : wanted === DEFAULT_SERVER_COMMAND
      ? `"${DEFAULT_SERVER_COMMAND}" is not on PATH`
      : `"${wanted}" does not exist or is not executable`;
  return (
    `PPN: cannot start the language server: ${where}. ` +
    'Install it with "cargo install --path server" from a clone of the ppn-ls repository, ' +
    'or set "ppn.server.path" to the ppn-ls executable.'
  );
}
