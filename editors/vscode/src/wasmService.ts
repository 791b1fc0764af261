// ppn-ls as WebAssembly in the extension host: where no ppn-ls executable can run (VS Code
// for the Web) or none was found (a desktop whose platform has no build), the extension
// answers from the `ppn-ls-web` module itself, one session per open document, through VS
// Code's own providers: diagnostics (with their quick fixes), hovers with the board,
// completion, semantic highlighting, formatting, the outline, folding, go to definition,
// references, rename, inlay hints, the code lenses above each game, and the board panel's
// pictures. Every answer is the one the language server gives for the same text;
// offsets cross in UTF-16 code units, which VS Code's documents count too.
//
// Kept free of Node's modules: the same code runs in a browser's extension host.

import * as vscode from 'vscode';
import { Position } from './board';
import { BoardPlay, BoardSource, EnteredMove } from './boardPanel';
import { SERVED_LANGUAGES, isServedLanguage } from './languages';

/** A session of the WebAssembly module (web/src/lib.rs and web/src/editor.rs). */
export interface WasmSession {
  editor_open(name: string, text: string): void;
  editor_edit(from: number, to: number, inserted: string): void;
  editor_diagnostics(most: number): string;
  editor_hover(at: number, referenceBoard: boolean): string;
  editor_completions(at: number): string;
  tokens(from: number, to: number): Uint32Array;
  editor_symbols(): string;
  editor_folds(): string;
  editor_format(lineWidth: number): string;
  editor_render(at: number, flipped: boolean): string;
  editor_game_line(at: number): string;
  editor_definition(at: number): string;
  editor_references(at: number, includeDeclaration: boolean): string;
  editor_prepare_rename(at: number): string;
  editor_rename(at: number, newName: string): string;
  editor_lenses(): string;
  editor_inlay_hints(from: number, to: number): string;
  grid(game: number, state: number, flipped: boolean): string;
  targets(game: number, state: number, from: string): string;
  enter_move(game: number, state: number, from: string, to: string, capture: number, placement: string): string;
  change(game: number, state: number): string;
  length(): number;
  free(): void;
}

/** What the extension needs of the WebAssembly module once it is instantiated. */
export interface PpnWasm {
  newSession(): WasmSession;
  tokenKinds(): string[];
}

/** Changes closer together than this are analysed once, and then the diagnostics are sent. */
const DIAGNOSTICS_DELAY_MS = 15;

/** The file name a document is read as: its own if ppn-ls knows its extension, else one for its language. */
const EXTENSIONS: Record<string, string> = {
  ppn: '.ppn',
  otn: '.otg',
  annofen: '.annofen',
  xay: '.xay',
  'xiangqi-fen': '.fen',
  wxf: '.wxf',
};
const KNOWN_EXTENSION = /\.(ppn|otg|otn|annofen|xay|fen|wxf)$/i;

export function sessionName(document: { uri: vscode.Uri; languageId: string }): string {
  const base = document.uri.path.split('/').pop() ?? '';
  return KNOWN_EXTENSION.test(base) ? base : `${base || 'untitled'}${EXTENSIONS[document.languageId] ?? ''}`;
}

interface WasmDiagnostic {
  from: number;
  to: number;
  severity: 'error' | 'warning' | 'info' | 'hint';
  code: string;
  message: string;
  related: { from: number; to: number; message: string }[];
  fixes: { title: string; edits: WasmEdit[] }[];
}

interface WasmRange {
  from: number;
  to: number;
}

interface WasmEdit {
  from: number;
  to: number;
  text: string;
}

/** An open document's session, and the changes not yet given to it. */
class OpenDocument {
  readonly session: WasmSession;
  private pending: { from: number; to: number; text: string }[] = [];
  /** The fixes of the diagnostics last sent, by diagnostic. */
  fixes = new Map<vscode.Diagnostic, WasmDiagnostic['fixes']>();
  timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    wasm: PpnWasm,
    readonly document: vscode.TextDocument,
  ) {
    this.session = wasm.newSession();
    this.session.editor_open(sessionName(document), document.getText());
  }

  changed(changes: readonly vscode.TextDocumentContentChangeEvent[]): void {
    for (const change of changes) {
      this.pending.push({ from: change.rangeOffset, to: change.rangeOffset + change.rangeLength, text: change.text });
    }
  }

  /** The session with every change made so far. */
  current(): WasmSession {
    if (this.pending.length > 0) {
      const pending = this.pending;
      this.pending = [];
      for (const change of pending) {
        this.session.editor_edit(change.from, change.to, change.text);
      }
      // A change missed (or counted otherwise) would make every answer wrong: start over.
      if (this.session.length() !== this.document.getText().length) {
        this.session.editor_open(sessionName(this.document), this.document.getText());
      }
    }
    return this.session;
  }

  dispose(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
    }
    this.session.free();
  }
}

const SEVERITIES: Record<WasmDiagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

const COMPLETION_KINDS: Record<string, vscode.CompletionItemKind> = {
  constant: vscode.CompletionItemKind.Constant,
  property: vscode.CompletionItemKind.Property,
  value: vscode.CompletionItemKind.Value,
  enumMember: vscode.CompletionItemKind.EnumMember,
};

const SYMBOL_KINDS: Record<string, vscode.SymbolKind> = {
  game: vscode.SymbolKind.Namespace,
  move: vscode.SymbolKind.Event,
  variation: vscode.SymbolKind.Namespace,
  moves: vscode.SymbolKind.Array,
};

/** The language service over the WebAssembly module. */
export class WasmLanguageService implements vscode.Disposable {
  private readonly open = new Map<string, OpenDocument>();
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('ppn');
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly legend: vscode.SemanticTokensLegend;
  private readonly tokensChanged = new vscode.EventEmitter<void>();

  private wasm: PpnWasm;

  /**
   * `makeWasm` gives a fresh instance of the module: after a panic (a trap, which leaves an
   * instance's memory as it was mid-call) the sessions start over in a new one.
   */
  constructor(
    private readonly makeWasm: () => PpnWasm,
    private readonly output: vscode.OutputChannel,
  ) {
    this.wasm = makeWasm();
    const wasm = this.wasm;
    this.legend = new vscode.SemanticTokensLegend(wasm.tokenKinds(), []);
    const selector = SERVED_LANGUAGES.map((language) => ({ language }));
    this.subscriptions.push(
      this.diagnostics,
      this.tokensChanged,
      vscode.workspace.onDidOpenTextDocument((document) => this.opened(document)),
      vscode.workspace.onDidChangeTextDocument((event) => this.changed(event)),
      vscode.workspace.onDidCloseTextDocument((document) => this.closed(document)),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('ppn-ls')) {
          for (const open of this.open.values()) {
            this.schedule(open, 0);
          }
        }
      }),
      vscode.languages.registerHoverProvider(selector, { provideHover: (d, p) => this.hover(d, p) }),
      vscode.languages.registerCompletionItemProvider(
        selector,
        { provideCompletionItems: (d, p) => this.completions(d, p) },
        '`',
      ),
      vscode.languages.registerDocumentSemanticTokensProvider(
        selector,
        { provideDocumentSemanticTokens: (d) => this.tokens(d), onDidChangeSemanticTokens: this.tokensChanged.event },
        this.legend,
      ),
      vscode.languages.registerDocumentSymbolProvider(selector, { provideDocumentSymbols: (d) => this.symbols(d) }),
      vscode.languages.registerFoldingRangeProvider(selector, { provideFoldingRanges: (d) => this.folds(d) }),
      vscode.languages.registerDocumentFormattingEditProvider(selector, {
        provideDocumentFormattingEdits: (d) => this.format(d),
      }),
      vscode.languages.registerDefinitionProvider(selector, { provideDefinition: (d, p) => this.definition(d, p) }),
      vscode.languages.registerReferenceProvider(selector, {
        provideReferences: (d, p, c) => this.references(d, p, c.includeDeclaration),
      }),
      vscode.languages.registerRenameProvider(selector, {
        prepareRename: (d, p) => this.prepareRename(d, p),
        provideRenameEdits: (d, p, name) => this.rename(d, p, name),
      }),
      vscode.languages.registerCodeLensProvider(selector, { provideCodeLenses: (d) => this.lenses(d) }),
      vscode.languages.registerInlayHintsProvider(selector, { provideInlayHints: (d, r) => this.inlayHints(d, r) }),
      vscode.languages.registerCodeActionsProvider(
        selector,
        { provideCodeActions: (d, _r, c) => this.quickFixes(d, c) },
        { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
      ),
    );
    for (const document of vscode.workspace.textDocuments) {
      this.opened(document);
    }
  }

  /** The board to play on, from the sessions (web/src/board.rs), as the server answers it. */
  private readonly play: BoardPlay = {
    grid: async (document, game, state, flip) => {
      const session = this.session(document);
      return session ? parse(session.grid(game, state, flip)) : null;
    },
    targets: async (document, game, state, from) => {
      const session = this.session(document);
      return session ? parse(session.targets(game, state, from)) : null;
    },
    moveInWords: async (document, game, state) => this.session(document)?.change(game, state) ?? '',
    enterMove: async (document, game, state, from, to, choice): Promise<EnteredMove> => {
      const session = this.session(document);
      if (!session) {
        return { refused: 'the document is not read yet' };
      }
      const answer = parse(
        session.enter_move(game, state, from, to, choice.capture ?? -1, choice.placement ?? ''),
      ) as { edit?: WasmMoveEdit; ask?: string; refused?: string };
      if (answer.edit) {
        const edit = answer.edit;
        return {
          edit: {
            range: rangeOf(document, edit.from, edit.to),
            newText: edit.text,
            written: edit.written,
            // An offset of the text once edited: read from the document then.
            cursor: (edited) => edited.positionAt(edit.cursor),
          },
        };
      }
      return typeof answer.ask === 'string' ? { ask: answer.ask } : { refused: answer.refused ?? 'no move written' };
    },
  };

  /** The board panel's boards, from the sessions. */
  readonly boardSource: BoardSource = {
    play: this.play,
    unavailable: () => undefined,
    render: async (document, position, flip) => {
      const session = this.session(document);
      return session ? parse(session.editor_render(offsetAt(document, position), flip)) : null;
    },
    gameLine: async (document, position) => {
      const session = this.session(document);
      if (!session) {
        return null;
      }
      const line = parse(session.editor_game_line(offsetAt(document, position))) as WasmGameLine | null;
      if (!line) {
        return null;
      }
      const state = (s: WasmGameLine['states'][number]) => ({
        label: s.label,
        text: s.text,
        comment: s.comment,
        ref: s.ref,
        cursor: plainPosition(document.positionAt(s.cursor)),
      });
      return {
        game: line.game,
        name: line.name,
        current: line.current,
        states: line.states.map(state),
        variations: line.variations.map((v) => ({ name: v.name, from: v.from, states: v.states.map(state) })),
      };
    },
  };

  /** The session of a served document, up to date. */
  session(document: vscode.TextDocument): WasmSession | undefined {
    const open = this.open.get(document.uri.toString()) ?? this.opened(document);
    return open?.current();
  }

  private opened(document: vscode.TextDocument): OpenDocument | undefined {
    if (!isServedLanguage(document.languageId)) {
      return undefined;
    }
    const key = document.uri.toString();
    let open = this.open.get(key);
    if (!open) {
      open = new OpenDocument(this.wasm, document);
      this.open.set(key, open);
      this.schedule(open, 0);
    }
    return open;
  }

  private changed(event: vscode.TextDocumentChangeEvent): void {
    const open = this.open.get(event.document.uri.toString());
    if (!open || event.contentChanges.length === 0) {
      return;
    }
    open.changed(event.contentChanges);
    this.schedule(open, DIAGNOSTICS_DELAY_MS);
  }

  private closed(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    const open = this.open.get(key);
    if (open) {
      this.open.delete(key);
      open.dispose();
      this.diagnostics.delete(document.uri);
    }
  }

  private schedule(open: OpenDocument, delayMs: number): void {
    if (open.timer !== undefined) {
      clearTimeout(open.timer);
    }
    open.timer = setTimeout(() => {
      open.timer = undefined;
      if (this.open.get(open.document.uri.toString()) === open) {
        this.guarded('diagnostics', () => this.publish(open));
      }
    }, delayMs);
  }

  private publish(open: OpenDocument): void {
    const document = open.document;
    const most = vscode.workspace.getConfiguration('ppn-ls', document).get<number>('diagnostics.max-per-document', 100);
    // `ppn-ls.diagnostics.severity`, as the server applies it (no ppn-ls.toml is read here).
    const overrides = vscode.workspace.getConfiguration('ppn-ls', document).get<Record<string, string>>('diagnostics.severity', {});
    const found = (parse(open.current().editor_diagnostics(Math.max(1, most))) as WasmDiagnostic[]).filter(
      (d) => overrides[d.code] !== 'off',
    );
    const fixes = new Map<vscode.Diagnostic, WasmDiagnostic['fixes']>();
    const diagnostics = found.map((d) => {
      const severity = SEVERITIES[overrides[d.code] as WasmDiagnostic['severity']] ?? SEVERITIES[d.severity];
      const diagnostic = new vscode.Diagnostic(rangeOf(document, d.from, d.to), d.message, severity);
      diagnostic.code = d.code;
      diagnostic.source = 'ppn-ls';
      if (d.related.length > 0) {
        diagnostic.relatedInformation = d.related.map(
          (r) => new vscode.DiagnosticRelatedInformation(new vscode.Location(document.uri, rangeOf(document, r.from, r.to)), r.message),
        );
      }
      if (d.fixes.length > 0) {
        fixes.set(diagnostic, d.fixes);
      }
      return diagnostic;
    });
    open.fixes = fixes;
    this.diagnostics.set(document.uri, diagnostics);
  }

  private hover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    return this.guarded('hover', () => {
      const session = this.session(document);
      if (!session) {
        return undefined;
      }
      const style = vscode.workspace.getConfiguration('ppn-ls', document).get<string>('hover.board', 'plain');
      const found = parse(session.editor_hover(document.offsetAt(position), style === 'reference')) as {
        from: number;
        to: number;
        markdown: string;
      } | null;
      return found ? new vscode.Hover(new vscode.MarkdownString(found.markdown), rangeOf(document, found.from, found.to)) : undefined;
    });
  }

  private completions(document: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] | undefined {
    return this.guarded('completion', () => {
      const session = this.session(document);
      if (!session) {
        return undefined;
      }
      const items = parse(session.editor_completions(document.offsetAt(position))) as {
        label: string;
        kind: string;
        detail: string | null;
        documentation: string | null;
        insert: string;
        from: number;
        to: number;
        sort: string;
      }[];
      return items.map((item) => {
        const completion = new vscode.CompletionItem(item.label, COMPLETION_KINDS[item.kind]);
        completion.detail = item.detail ?? undefined;
        if (item.documentation) {
          completion.documentation = new vscode.MarkdownString(item.documentation);
        }
        completion.insertText = item.insert;
        completion.range = rangeOf(document, item.from, item.to);
        completion.sortText = item.sort;
        completion.filterText = item.label;
        return completion;
      });
    });
  }

  private tokens(document: vscode.TextDocument): vscode.SemanticTokens | undefined {
    return this.guarded('highlighting', () => {
      const session = this.session(document);
      if (!session) {
        return undefined;
      }
      const numbers = session.tokens(0, session.length());
      const builder = new vscode.SemanticTokensBuilder(this.legend);
      for (let i = 0; i + 2 < numbers.length; i += 3) {
        const start = document.positionAt(numbers[i]);
        const length = numbers[i + 1] - numbers[i];
        if (length > 0) {
          builder.push(start.line, start.character, length, numbers[i + 2], 0);
        }
      }
      return builder.build();
    });
  }

  private symbols(document: vscode.TextDocument): vscode.DocumentSymbol[] | undefined {
    return this.guarded('outline', () => {
      const session = this.session(document);
      if (!session) {
        return undefined;
      }
      const flat = parse(session.editor_symbols()) as {
        name: string;
        detail: string | null;
        kind: string;
        from: number;
        to: number;
        selectionFrom: number;
        selectionTo: number;
        parent: number;
      }[];
      const made: vscode.DocumentSymbol[] = [];
      const roots: vscode.DocumentSymbol[] = [];
      for (const s of flat) {
        const range = rangeOf(document, s.from, s.to);
        // VS Code wants the selection inside the range.
        const selection = range.intersection(rangeOf(document, s.selectionFrom, s.selectionTo)) ?? new vscode.Range(range.start, range.start);
        const symbol = new vscode.DocumentSymbol(s.name || ' ', s.detail ?? '', SYMBOL_KINDS[s.kind] ?? vscode.SymbolKind.Event, range, selection);
        made.push(symbol);
        (s.parent >= 0 ? made[s.parent].children : roots).push(symbol);
      }
      return roots;
    });
  }

  private folds(document: vscode.TextDocument): vscode.FoldingRange[] | undefined {
    return this.guarded('folding', () => {
      const session = this.session(document);
      if (!session) {
        return undefined;
      }
      const folds = parse(session.editor_folds()) as { start: number; end: number; kind: string }[];
      return folds.map(
        (f) =>
          new vscode.FoldingRange(f.start, f.end, f.kind === 'comment' ? vscode.FoldingRangeKind.Comment : vscode.FoldingRangeKind.Region),
      );
    });
  }

  private format(document: vscode.TextDocument): vscode.TextEdit[] | undefined {
    return this.guarded('formatting', () => {
      const session = this.session(document);
      if (!session) {
        return undefined;
      }
      const answer = parse(session.editor_format(80)) as { edits?: WasmEdit[]; error?: string };
      if (answer.error !== undefined) {
        this.output.appendLine(`${document.uri.toString(true)}: ${answer.error}`);
        return [];
      }
      return (answer.edits ?? []).map((edit) => vscode.TextEdit.replace(rangeOf(document, edit.from, edit.to), edit.text));
    });
  }

  private definition(document: vscode.TextDocument, position: vscode.Position): vscode.Location | undefined {
    return this.guarded('definition', () => {
      const session = this.session(document);
      const found = session ? (parse(session.editor_definition(document.offsetAt(position))) as WasmRange | null) : null;
      return found ? new vscode.Location(document.uri, rangeOf(document, found.from, found.to)) : undefined;
    });
  }

  private references(document: vscode.TextDocument, position: vscode.Position, includeDeclaration: boolean): vscode.Location[] | undefined {
    return this.guarded('references', () => {
      const session = this.session(document);
      if (!session) {
        return undefined;
      }
      const found = parse(session.editor_references(document.offsetAt(position), includeDeclaration)) as WasmRange[];
      return found.map((range) => new vscode.Location(document.uri, rangeOf(document, range.from, range.to)));
    });
  }

  private prepareRename(document: vscode.TextDocument, position: vscode.Position): { range: vscode.Range; placeholder: string } | undefined {
    const session = this.session(document);
    const found = session
      ? (parse(session.editor_prepare_rename(document.offsetAt(position))) as (WasmRange & { placeholder?: string; error?: string }) | null)
      : null;
    if (found?.error !== undefined) {
      // VS Code shows the message of an error thrown here.
      throw new Error(found.error);
    }
    if (!found || found.placeholder === undefined) {
      throw new Error('There is nothing to rename here.');
    }
    return { range: rangeOf(document, found.from, found.to), placeholder: found.placeholder };
  }

  private rename(document: vscode.TextDocument, position: vscode.Position, newName: string): vscode.WorkspaceEdit | undefined {
    const session = this.session(document);
    if (!session) {
      return undefined;
    }
    const answer = parse(session.editor_rename(document.offsetAt(position), newName)) as { edits?: WasmEdit[]; error?: string };
    if (answer.error !== undefined) {
      throw new Error(answer.error);
    }
    const edit = new vscode.WorkspaceEdit();
    for (const change of answer.edits ?? []) {
      edit.replace(document.uri, rangeOf(document, change.from, change.to), change.text);
    }
    return edit;
  }

  private lenses(document: vscode.TextDocument): vscode.CodeLens[] | undefined {
    return this.guarded('code lenses', () => {
      const session = this.session(document);
      if (!session) {
        return undefined;
      }
      const lenses = parse(session.editor_lenses()) as (WasmRange & { title: string; at: number; animate: boolean })[];
      return lenses.map(
        (lens) =>
          new vscode.CodeLens(rangeOf(document, lens.from, lens.to), {
            title: lens.title,
            command: 'ppn.showBoard',
            arguments: [{ uri: document.uri.toString(), position: plainPosition(document.positionAt(lens.at)), animate: lens.animate }],
          }),
      );
    });
  }

  private inlayHints(document: vscode.TextDocument, range: vscode.Range): vscode.InlayHint[] | undefined {
    return this.guarded('inlay hints', () => {
      const session = this.session(document);
      if (!session) {
        return undefined;
      }
      const hints = parse(session.editor_inlay_hints(document.offsetAt(range.start), document.offsetAt(range.end))) as {
        at: number;
        label: string;
        tooltip: string | null;
      }[];
      return hints.map((hint) => {
        const inlay = new vscode.InlayHint(document.positionAt(hint.at), hint.label);
        inlay.paddingLeft = true;
        if (hint.tooltip) {
          inlay.tooltip = hint.tooltip;
        }
        return inlay;
      });
    });
  }

  private quickFixes(document: vscode.TextDocument, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const open = this.open.get(document.uri.toString());
    if (!open) {
      return [];
    }
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics) {
      // VS Code hands back the diagnostics it was given, or copies equal to them.
      const fixes =
        open.fixes.get(diagnostic) ??
        [...open.fixes.entries()].find(
          ([sent]) => sent.code === diagnostic.code && sent.message === diagnostic.message && sent.range.isEqual(diagnostic.range),
        )?.[1];
      for (const fix of fixes ?? []) {
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.diagnostics = [diagnostic];
        action.edit = new vscode.WorkspaceEdit();
        for (const edit of fix.edits) {
          action.edit.replace(document.uri, rangeOf(document, edit.from, edit.to), edit.text);
        }
        actions.push(action);
      }
    }
    return actions;
  }

  /**
   * Runs `answer`; a failure (a panic in the module) is written to the output channel, and
   * every open document starts over in a fresh instance.
   */
  private guarded<T>(what: string, answer: () => T): T | undefined {
    try {
      return answer();
    } catch (error) {
      this.output.appendLine(`ppn-ls (WebAssembly) failed to answer ${what}: ${error instanceof Error ? error.message : String(error)}`);
      this.startOver();
      return undefined;
    }
  }

  private startOver(): void {
    try {
      this.wasm = this.makeWasm();
      for (const [key, open] of [...this.open.entries()]) {
        if (open.timer !== undefined) {
          clearTimeout(open.timer);
        }
        const fresh = new OpenDocument(this.wasm, open.document);
        this.open.set(key, fresh);
        this.schedule(fresh, 0);
      }
    } catch (error) {
      this.output.appendLine(`ppn-ls (WebAssembly) could not start again: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  dispose(): void {
    for (const open of this.open.values()) {
      open.dispose();
    }
    this.open.clear();
    for (const subscription of this.subscriptions.splice(0)) {
      subscription.dispose();
    }
  }
}

/** A move made on the board, as web/src/board.rs writes it (UTF-16 offsets). */
interface WasmMoveEdit {
  from: number;
  to: number;
  text: string;
  cursor: number;
  written: string;
}

interface WasmGameLine {
  game: number;
  name: string;
  current: number;
  states: { label: string; text: string; comment: string; ref: number; cursor: number }[];
  variations: { name: string; from: number; states: WasmGameLine['states'] }[];
}

function parse(json: string): unknown {
  return JSON.parse(json) as unknown;
}

function rangeOf(document: vscode.TextDocument, from: number, to: number): vscode.Range {
  return new vscode.Range(document.positionAt(from), document.positionAt(Math.max(from, to)));
}

function offsetAt(document: vscode.TextDocument, position: Position): number {
  return document.offsetAt(new vscode.Position(position.line, position.character));
}

function plainPosition(position: vscode.Position): Position {
  return { line: position.line, character: position.character };
}
