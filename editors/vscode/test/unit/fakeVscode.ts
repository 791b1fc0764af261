// A stand-in for the parts of the `vscode` module that the board panel uses, so that
// it can run under plain Node. Anything else a module asks of `vscode` at load time is
// answered by an inert proxy.

import Module = require('node:module');

type Listener<T> = (event: T) => void;

export class FakeEvent<T> {
  private readonly listeners = new Set<Listener<T>>();

  readonly subscribe = (listener: Listener<T>) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(event: T): void {
    for (const listener of [...this.listeners]) {
      listener(event);
    }
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}

export interface FakePosition {
  line: number;
  character: number;
}

export interface FakeEditor {
  document: { uri: { toString(): string }; languageId: string; isClosed: boolean; version: number };
  selection: { active: FakePosition };
  revealed: FakePosition[];
  revealRange(range: { start: FakePosition }): void;
}

export function fakeEditor(uri: string, languageId: string, active: FakePosition): FakeEditor {
  return {
    document: { uri: { toString: () => uri }, languageId, isClosed: false, version: 1 },
    selection: { active },
    revealed: [],
    revealRange(range) {
      this.revealed.push(range.start);
    },
  };
}

export class FakeWebviewPanel {
  readonly posted: unknown[] = [];
  readonly received = new FakeEvent<unknown>();
  readonly disposed = new FakeEvent<void>();
  isDisposed = false;
  revealCount = 0;
  readonly webview = {
    html: '',
    cspSource: 'vscode-webview:',
    postMessage: async (message: unknown) => {
      this.posted.push(message);
      return true;
    },
    onDidReceiveMessage: this.received.subscribe,
  };
  readonly onDidDispose = this.disposed.subscribe;

  reveal(): void {
    this.revealCount++;
  }

  dispose(): void {
    if (!this.isDisposed) {
      this.isDisposed = true;
      this.disposed.fire();
    }
  }

  /** The messages of one type posted to the page, oldest first. */
  postedOf<T = Record<string, unknown>>(type: string): T[] {
    return this.posted.filter((message) => (message as { type?: string }).type === type) as T[];
  }
}

export class FakeVscode {
  readonly panels: FakeWebviewPanel[] = [];
  readonly selectionChanged = new FakeEvent<{ textEditor: FakeEditor }>();
  readonly activeEditorChanged = new FakeEvent<FakeEditor | undefined>();
  readonly documentChanged = new FakeEvent<{ document: FakeEditor['document'] }>();
  readonly configurationChanged = new FakeEvent<{ affectsConfiguration(section: string): boolean }>();
  readonly trustGranted = new FakeEvent<void>();
  /** `workspace.isTrusted`. */
  trusted = true;
  activeTextEditor: FakeEditor | undefined;
  /** Settings by full name, e.g. `ppn.server.path`: the values `get` returns. */
  readonly settings = new Map<string, unknown>();
  /**
   * What `inspect` reports of a setting, by full name; a setting not here is reported as
   * the user's own value, the one in `settings`.
   */
  readonly inspected = new Map<string, { defaultValue?: unknown; globalValue?: unknown; workspaceValue?: unknown }>();
  readonly commands = new Map<string, (...args: unknown[]) => unknown>();
  readonly executedCommands: unknown[][] = [];
  readonly errorMessages: { message: string; items: string[] }[] = [];
  /** What the user picks from the next error message. */
  errorChoice: string | undefined;
  readonly outputLines: string[] = [];

  readonly module = {
    ViewColumn: { Beside: -2 },
    TextEditorRevealType: { InCenterIfOutsideViewport: 2 },
    Position: class {
      constructor(
        readonly line: number,
        readonly character: number,
      ) {}
    },
    Selection: class {
      constructor(
        readonly anchor: FakePosition,
        readonly active: FakePosition,
      ) {}
    },
    Range: class {
      constructor(
        readonly start: FakePosition,
        readonly end: FakePosition,
      ) {}
    },
    CancellationTokenSource: class {
      readonly token = { isCancellationRequested: false };
      cancel(): void {
        this.token.isCancellationRequested = true;
      }
      dispose(): void {}
    },
    window: {
      get activeTextEditor(): FakeEditor | undefined {
        return fake.activeTextEditor;
      },
      createWebviewPanel: () => {
        const panel = new FakeWebviewPanel();
        fake.panels.push(panel);
        return panel;
      },
      onDidChangeTextEditorSelection: this.selectionChanged.subscribe,
      onDidChangeActiveTextEditor: this.activeEditorChanged.subscribe,
      createOutputChannel: () => ({
        appendLine: (line: string) => fake.outputLines.push(line),
        dispose: () => {},
      }),
      showErrorMessage: async (message: string, ...items: string[]) => {
        fake.errorMessages.push({ message, items });
        return fake.errorChoice;
      },
    },
    commands: {
      registerCommand: (id: string, callback: (...args: unknown[]) => unknown) => {
        fake.commands.set(id, callback);
        return { dispose: () => fake.commands.delete(id) };
      },
      executeCommand: async (...args: unknown[]) => {
        fake.executedCommands.push(args);
      },
    },
    workspace: {
      onDidChangeTextDocument: this.documentChanged.subscribe,
      onDidChangeConfiguration: this.configurationChanged.subscribe,
      onDidGrantWorkspaceTrust: this.trustGranted.subscribe,
      get isTrusted(): boolean {
        return fake.trusted;
      },
      workspaceFolders: undefined,
      getConfiguration: (section?: string) => {
        const name = (key: string) => (section === undefined ? key : `${section}.${key}`);
        return {
          get: <T>(key: string): T | undefined => fake.settings.get(name(key)) as T | undefined,
          inspect: (key: string) => fake.inspected.get(name(key)) ?? { globalValue: fake.settings.get(name(key)) },
        };
      },
    },
  };
}

// The module object above refers back to the one instance through this binding.
let fake: FakeVscode;

function inert(): unknown {
  const target = function () {};
  return new Proxy(target, {
    get: (_target, property) => (property === '__esModule' ? false : inert()),
    apply: () => inert(),
    construct: () => inert() as object,
  });
}

/** Makes `require('vscode')` return the fake from now on in this process. */
export function installFakeVscode(): FakeVscode {
  fake = new FakeVscode();
  const exported = new Proxy(fake.module as Record<string | symbol, unknown>, {
    get: (target, property) => (property in target ? target[property] : inert()),
  });
  const moduleWithLoad = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const originalLoad = moduleWithLoad._load;
  moduleWithLoad._load = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? exported : originalLoad.call(this, request, ...rest);
  };
  return fake;
}
