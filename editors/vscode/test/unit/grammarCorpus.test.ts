// Runs the TextMate grammar over every PPN file of the repository (examples and the
// conformance games) and checks two things a single bad rule tends to break for whole
// files: where metadata blocks start and stop, and that movetext is not left unscoped.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import * as oniguruma from 'vscode-oniguruma';
import * as textmate from 'vscode-textmate';

const extensionRoot = path.resolve(__dirname, '../../..');
const repositoryRoot = path.resolve(extensionRoot, '../..');
const grammarFiles: Record<string, string> = {
  'source.ppn': path.join(extensionRoot, 'syntaxes/ppn.tmLanguage.json'),
  'source.yaml': path.join(extensionRoot, 'test/grammars/yaml-stub.tmLanguage.json'),
};

function ppnFiles(): string[] {
  const folders = ['examples', 'tests/conformance/examples', 'tests/conformance/generated', 'tests/conformance/reference-quirks'];
  return folders.flatMap((folder) => {
    const directory = path.join(repositoryRoot, folder);
    return fs.existsSync(directory)
      ? fs
          .readdirSync(directory)
          .filter((name) => name.endsWith('.ppn'))
          .sort()
          .map((name) => path.join(directory, name))
      : [];
  });
}

async function loadGrammar(): Promise<textmate.IGrammar> {
  const wasm = fs.readFileSync(path.join(path.dirname(require.resolve('vscode-oniguruma')), 'onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text: string) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scopeName: string) => {
      const file = grammarFiles[scopeName];
      return file === undefined ? null : textmate.parseRawGrammar(fs.readFileSync(file, 'utf8'), file);
    },
  });
  const grammar = await registry.loadGrammar('source.ppn');
  assert.ok(grammar, 'the PPN grammar loads');
  return grammar;
}

/** The lines that belong to a metadata block, worked out from the file layout alone. */
function expectedMetadataLines(lines: readonly string[]): Set<number> {
  const metadata = new Set<number>();
  let inMetadata = false;
  lines.forEach((line, index) => {
    const text = index === 0 ? line.replace(/^\uFEFF/, '') : line;
    if (text.startsWith('---') || (index === 0 && /^[A-Za-z_][\w\- ']*:(\s|$)/.test(text))) {
      inMetadata = true;
    } else if (text.startsWith('...') || /^\s*$/.test(text)) {
      inMetadata = false;
    }
    if (inMetadata) {
      metadata.add(index);
    }
  });
  return metadata;
}

// What the grammar may leave without a scope of its own: commas outside brace
// expansions, as in ({2..7},3), and the letters of brace ranges and preambles.
const allowedUnscoped = /^(,|[a-z]{1,2})$/;

test('metadata blocks and movetext scopes across the repository’s PPN files', async () => {
  const grammar = await loadGrammar();
  const files = ppnFiles();
  assert.ok(files.length >= 50, `found only ${files.length} PPN files`);
  const problems: string[] = [];
  let moveNumbers = 0;
  for (const file of files) {
    const lines = fs.readFileSync(file, 'utf8').split(/\r\n|\r|\n/);
    const metadata = expectedMetadataLines(lines);
    let state = textmate.INITIAL;
    lines.forEach((line, index) => {
      const { tokens, ruleStack } = grammar.tokenizeLine(line, state);
      state = ruleStack;
      const where = `${path.relative(repositoryRoot, file)}:${index + 1}`;
      const inMetadata = tokens.some((token) => token.scopes.includes('meta.metadata.ppn'));
      if (line.trim() !== '' && inMetadata !== metadata.has(index)) {
        problems.push(`${where}: ${metadata.has(index) ? 'should be' : 'should not be'} metadata: ${line}`);
      }
      if (inMetadata) {
        return;
      }
      for (const token of tokens) {
        const text = line.slice(token.startIndex, token.endIndex).trim();
        const ownScopes = token.scopes.filter((scope) => scope !== 'source.ppn' && scope !== 'meta.brace-expansion.ppn');
        if (token.scopes.includes('constant.numeric.move-number.ppn')) {
          moveNumbers++;
        }
        if (text !== '' && ownScopes.length === 0 && !allowedUnscoped.test(text)) {
          problems.push(`${where}: "${text}" has no scope`);
        }
      }
    });
  }
  assert.deepEqual(problems, []);
  assert.ok(moveNumbers > 1000, `only ${moveNumbers} MoveNumbers found`);
});
