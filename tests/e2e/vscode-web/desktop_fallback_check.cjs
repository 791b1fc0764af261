// The universal package's bundle as a desktop's extension host loads it when no ppn-ls
// executable is found (extension.ts's fallback): required from Node, with a stand-in for the
// `vscode` module (enough of it for the language service), its WebAssembly read through
// `workspace.fs` from a file: URI. Checks the diagnostics, a hover's board and the board
// panel's picture of a small game.
//
//   node tests/e2e/vscode-web/desktop_fallback_check.cjs EXTENSION_FOLDER
const Module = require('node:module');
const fs = require('node:fs');
const assert = require('node:assert/strict');
const registered = {};
class Position { constructor(line, character) { this.line = line; this.character = character; } }
class Range { constructor(a, b) { this.start = a; this.end = b; } intersection(o) { return o; } isEqual() { return false; } }
const collection = { set: (uri, d) => { registered.diagnostics = d; }, delete() {}, dispose() {} };
const vscode = {
  Position, Range,
  Uri: { file: (p) => ({ scheme: 'file', path: p, fsPath: p, toString: () => 'file://' + p }), joinPath: (u, ...parts) => ({ scheme: 'file', path: [u.path, ...parts].join('/'), toString: () => 'file://' + [u.path, ...parts].join('/') }) },
  workspace: {
    fs: { readFile: async (uri) => new Uint8Array(fs.readFileSync(uri.path)) },
    onDidOpenTextDocument: () => ({ dispose() {} }), onDidChangeTextDocument: () => ({ dispose() {} }),
    onDidCloseTextDocument: () => ({ dispose() {} }), onDidChangeConfiguration: () => ({ dispose() {} }),
    getConfiguration: () => ({ get: (_k, d) => d }), textDocuments: [],
  },
  languages: new Proxy({ createDiagnosticCollection: () => collection }, { get: (t, k) => t[k] ?? ((...a) => { registered[k] = a; return { dispose() {} }; }) }),
  SemanticTokensLegend: class { constructor(t) { this.tokenTypes = t; } },
  EventEmitter: class { event() {} dispose() {} },
  Diagnostic: class { constructor(range, message, severity) { Object.assign(this, { range, message, severity }); } },
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  CompletionItemKind: {}, SymbolKind: {}, FoldingRangeKind: {}, CodeActionKind: { QuickFix: 'quickfix' },
  Hover: class { constructor(c, r) { this.contents = c; this.range = r; } },
  MarkdownString: class { constructor(v) { this.value = v; } },
};
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'vscode' ? vscode : load.call(this, request, ...rest); };
(async () => {
  const folder = require('node:path').resolve(process.argv[2]);
  const web = require(folder + '/dist/web.js');
  const output = { appendLine: (l) => console.log('output:', l) };
  const service = await web.startWasmService(vscode.Uri.file(folder), output);
  const text = '---\nGameType: Chess\n...\n1. e2-e4 e7-e5 ]\n';
  const lineStarts = [0, 4, 20, 24];
  const doc = {
    uri: { path: '/x/game.ppn', toString: () => 'file:///x/game.ppn' }, languageId: 'ppn', version: 1, isClosed: false,
    getText: () => text,
    positionAt: (o) => { let l = 0; while (l + 1 < lineStarts.length && lineStarts[l + 1] <= o) l++; return new Position(l, o - lineStarts[l]); },
    offsetAt: (p) => lineStarts[p.line] + p.character,
  };
  service.session(doc);
  await new Promise((r) => setTimeout(r, 100));
  const messages = registered.diagnostics.map((d) => d.message);
  assert.deepEqual(messages, ['unexpected `]`: there is no `[` to close']);
  const hover = registered.registerHoverProvider[1].provideHover(doc, new Position(3, 10));
  assert.match(hover.contents.value, /\*\*Board [^*]+\*\*\n\n```text\n/);
  const board = await service.boardSource.render(doc, { line: 3, character: 10 }, false);
  assert.match(board.label, /^1\./);
  assert.match(board.svg, /^<svg/);
  service.dispose();
  console.log('the universal bundle in Node (the desktop fallback): diagnostics, hover board and board panel answer');
})().catch((e) => { console.error(e); process.exit(1); });
