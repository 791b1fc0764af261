// What the user is told when the language server cannot start or stops: one message that
// names the executable, how it ended, and the setting to fix. Kept free of the `vscode`
// module so that it can be unit-tested with plain Node.

import { ServerSource } from './serverPath';

/** How the server process ended, as Node reports it. */
export interface ServerExit {
  code: number | null;
  signal: string | null;
}

export interface ServerFailure {
  command: string;
  source: ServerSource;
  /** Whether the server had answered `initialize` before it stopped. */
  wasRunning: boolean;
  /** How the process ended, when it did (undefined if it never started or is unknown). */
  exit?: ServerExit;
  /** Why it could not be started or initialised, when that is what happened. */
  reason?: string;
}

function describeExit(exit: ServerExit | undefined): string | undefined {
  if (exit === undefined) {
    return undefined;
  }
  if (exit.signal !== null) {
    return `was killed by ${exit.signal}`;
  }
  if (exit.code !== null) {
    return `exited with code ${exit.code}`;
  }
  return undefined;
}

function whereFrom(source: ServerSource): string {
  switch (source) {
    case 'bundled':
      return 'the ppn-ls bundled with this extension';
    case 'path':
      return 'ppn-ls, found on PATH,';
    case 'setting':
      return 'ppn-ls, as set in "ppn.server.path",';
  }
}

/** The one message for a server that could not start or stopped; it is not restarted. */
export function serverFailureMessage(failure: ServerFailure): string {
  const how = describeExit(failure.exit);
  const what = `${whereFrom(failure.source)} "${failure.command}"`;
  let happened: string;
  if (failure.wasRunning) {
    happened = `PPN: the language server stopped: ${what} ${how ?? 'closed its connection'}.`;
  } else if (how !== undefined) {
    happened = `PPN: the language server could not start: ${what} ${how} before it answered.`;
  } else {
    const reason = failure.reason === undefined ? '' : `: ${failure.reason}`;
    happened = `PPN: the language server could not start: ${what} failed${reason}.`;
  }
  return (
    `${happened} It will not be restarted automatically. ` +
    'Set "ppn.server.path" to a working ppn-ls executable, then run "PPN: Restart Language Server"; ' +
    'the "PPN Language Server" output has its messages.'
  );
}
