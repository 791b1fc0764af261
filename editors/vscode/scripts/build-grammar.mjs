// Writes syntaxes/ppn.tmLanguage.json. The grammar repeats a few character classes in
// many rules (inside and outside brace expansions), so it is assembled here from named
// pieces instead of being edited by hand.
//
//   node scripts/build-grammar.mjs           write the grammar
//   node scripts/build-grammar.mjs --check   fail if the committed grammar is stale

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const grammarPath = join(dirname(fileURLToPath(import.meta.url)), '..', 'syntaxes', 'ppn.tmLanguage.json');

// Piece glyphs that stand for a whole PieceSpec or part of one: chess, card suits, dice,
// checkers, dominoes, playing cards, bits, pyramids, boards, the hexpack mark.
const glyphClass =
  '[\\x{2654}-\\x{265F}\\x{2660}-\\x{2667}\\x{2680}-\\x{2685}\\x{26C0}-\\x{26C3}' +
  '\\x{1F030}-\\x{1F093}\\x{1FA00}-\\x{1FA6F}\\x{1F0A0}-\\x{1F0F5}\\x{25CF}\\x{25CB}\\x{25B2}\\x{25A0}\\x{25A6}\\x{2B22}]';
// The ASCII spellings of bit `()`, pyramid `/\`, card `[]`, board `[X]` and go board `[#]`.
const asciiGlyph = '\\(\\)|/\\\\|\\[\\]|\\[X\\]|\\[#\\]';

// One character of a PieceSpec: anything but whitespace, MoveTokens and structure.
const specChar = "[^\\s@\\\\\\-_\\x{203F}:#*+=~!$%|&?/{}()\\[\\];`',.]";
// `,sN`, `,rN`, `,aN` set suit, rank and angle; `,name'` sets the configuration. Inside a
// brace expansion an unescaped comma separates alternatives, so these only exist outside.
const specAttribute = ",[asr]-?[0-9]*\\.?[0-9]+|,[^\\s,'@\\\\{}`]+'";
// A macro may stand for (part of) a PieceSpec, as in R`6-3'<@(10.5,3).
const macroText = "`[^\\s;`']*'";
const specAtomOutside = `(?:${asciiGlyph}|${macroText}|${specAttribute}|${specChar})`;
const specAtomInside = `(?:${asciiGlyph}|${macroText}|${specChar})`;

const number = '-?[0-9]*\\.?[0-9]+';
const directions =
  'NNE|ENE|ESE|SSE|SSW|WSW|WNW|NNW|UUR|RUR|RDR|DDR|DDL|LDL|LUL|UUL|' +
  'NE|SE|SW|NW|UR|DR|DL|UL|N|E|S|W|U|R|D|L';

const pieceSpecScope = 'entity.name.type.piece.ppn';

// The inside of a PieceSpec: glyphs and attribute settings get scopes of their own.
const pieceSpecInner = [
  { include: '#macro' },
  {
    match: "(,)([^\\s,'@\\\\{}`]+)(')",
    captures: {
      1: { name: 'punctuation.separator.attribute.ppn' },
      2: { name: 'support.type.configuration.ppn' },
      3: { name: 'punctuation.definition.configuration.end.ppn' },
    },
  },
  {
    match: '(,)([asr])(-?[0-9]*\\.?[0-9]+)',
    captures: {
      1: { name: 'punctuation.separator.attribute.ppn' },
      2: { name: 'storage.modifier.attribute.ppn' },
      3: { name: 'constant.numeric.ppn' },
    },
  },
  { match: `${glyphClass}|${asciiGlyph}`, name: 'constant.character.glyph.ppn' },
];

function pieceSpecCapture() {
  return { name: pieceSpecScope, patterns: pieceSpecInner };
}

// Rules of a move; `inside` selects the variant for the text of a brace expansion.
function moveRules(inside) {
  const specAtom = inside ? specAtomInside : specAtomOutside;
  // In a brace expansion `\,` `\{` `\}` are escapes, not the drop-below MoveToken.
  const dropBelow = inside ? '\\\\(?![,{}\\\\])' : '\\\\';
  // Inside braces the comma of a coordinate pair is escaped: (14\,2.5).
  const coordinateComma = inside ? '\\\\?,' : ',';
  const rules = [
    { include: '#brace-expansion' },
    {
      match: `(@>|\\$>)(${number})?`,
      captures: {
        1: { name: 'keyword.operator.rotate.ppn' },
        2: { name: 'constant.numeric.angle.ppn' },
      },
    },
    {
      comment: 'PieceSpec of a drop: PieceSpec@Location or PieceSpec\\Location',
      match: `(${specAtom}+)(?=@(?!>)|${dropBelow})`,
      captures: { 1: pieceSpecCapture() },
    },
    ...(inside
      ? [
          {
            comment: 'an alternative that continues the PieceSpec of the preamble: ?d{S~5,M~n}',
            match: `(?<=[{,])(?![a-z]+[0-9])(${specAtom}+)(?=[~=\\-_\\x{203F}@:#$%!*+])`,
            captures: { 1: pieceSpecCapture() },
          },
        ]
      : []),
    {
      comment: '?PieceSpec (one piece) and /PieceSpec (every matching piece)',
      match: `([?/])(${specAtom}*)`,
      captures: {
        1: { name: 'keyword.operator.search.ppn' },
        2: pieceSpecCapture(),
      },
    },
    {
      match: `(=)(${specAtom}*)`,
      captures: {
        1: { name: 'keyword.operator.replace.ppn' },
        2: pieceSpecCapture(),
      },
    },
    {
      match: `(~)(${specAtom}*)`,
      captures: {
        1: { name: 'keyword.operator.update.ppn' },
        2: pieceSpecCapture(),
      },
    },
    { include: '#macro' },
    {
      comment: 'relative offset <x,y>',
      match: `(<)\\s*(${number})\\s*(${coordinateComma})\\s*(${number})\\s*(>)`,
      name: 'meta.location.relative.ppn',
      captures: {
        1: { name: 'punctuation.definition.location.begin.ppn' },
        2: { name: 'constant.numeric.ppn' },
        3: { name: 'punctuation.separator.coordinates.ppn' },
        4: { name: 'constant.numeric.ppn' },
        5: { name: 'punctuation.definition.location.end.ppn' },
      },
    },
    {
      comment: 'Cartesian coordinates (x,y)',
      match: `(\\()\\s*(${number})\\s*(${coordinateComma})\\s*(${number})\\s*(\\))`,
      name: 'meta.location.cartesian.ppn',
      captures: {
        1: { name: 'punctuation.definition.location.begin.ppn' },
        2: { name: 'constant.numeric.ppn' },
        3: { name: 'punctuation.separator.coordinates.ppn' },
        4: { name: 'constant.numeric.ppn' },
        5: { name: 'punctuation.definition.location.end.ppn' },
      },
    },
    {
      comment: 'N Direction offset such as 3NE, only where a Location is expected',
      match: `(?<![^\\s;\\-_\\x{203F}@\\\\|{,])([0-9]*\\.?[0-9]+)(${directions})(?![\\p{L}\\p{N}])`,
      name: 'meta.location.direction.ppn',
      captures: {
        1: { name: 'constant.numeric.ppn' },
        2: { name: 'variable.other.direction.ppn' },
      },
    },
    {
      comment: 'slice of a stack: b4[1], b4[3:6], (2,4)[1,3,5]',
      match: '(\\[)([0-9][0-9\\s,:]*)(\\])',
      name: 'meta.slice.ppn',
      captures: {
        1: { name: 'punctuation.definition.slice.begin.ppn' },
        2: {
          patterns: [
            { match: '[0-9]+', name: 'constant.numeric.ppn' },
            { match: '[,:]', name: 'punctuation.separator.slice.ppn' },
          ],
        },
        3: { name: 'punctuation.definition.slice.end.ppn' },
      },
    },
    {
      comment: 'chess-algebraic-style location: b2, aa7',
      match: '(?<!\\p{L})[a-z]+[0-9]+',
      name: 'variable.other.location.ppn',
    },
    { match: `${glyphClass}|${asciiGlyph}`, name: `${pieceSpecScope} constant.character.glyph.ppn` },
  ];
  if (inside) {
    rules.push(
      { match: '\\\\[,{}\\\\]', name: 'constant.character.escape.ppn' },
      { match: '\\.\\.', name: 'keyword.operator.range.ppn' },
      { match: ',', name: 'punctuation.separator.alternative.ppn' },
    );
  }
  rules.push(
    // A leading minus here is the move MoveToken; signed numbers have rules of their own.
    { match: '[0-9]*\\.?[0-9]+', name: 'constant.numeric.ppn' },
    { match: `@|${dropBelow}`, name: 'keyword.operator.drop.ppn' },
    { match: '[-_\\x{203F}]', name: 'keyword.operator.move.ppn' },
    { match: ':', name: 'keyword.operator.capture.ppn' },
    { match: '#', name: 'keyword.operator.swap.ppn' },
    { match: '\\*', name: 'keyword.operator.remove.ppn' },
    { match: '\\+', name: 'keyword.operator.flip.ppn' },
    { match: '!', name: 'keyword.operator.raise.ppn' },
    { match: '%', name: 'keyword.operator.order.ppn' },
    { match: '[|$]', name: 'keyword.operator.anchor.ppn' },
    { match: '&', name: 'keyword.operator.location-of.ppn' },
    { match: '\\^', name: 'keyword.operator.initial-state.ppn' },
    { match: '[()]', name: 'punctuation.section.parens.ppn' },
  );
  return rules;
}

// `while` rather than `end`: an embedded YAML grammar may keep rules open across lines
// (VS Code's does), and only a `while` condition is checked before those at every line.
// The metadata goes on while lines are neither `...`, `---` nor empty; the closing `...`
// line is then matched by `metadata-end`.
const metadataWhile = '^(?!\\.\\.\\.|---|\\s*$)';

const grammar = {
  $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
  name: 'Portable Piecepack Notation',
  scopeName: 'source.ppn',
  fileTypes: ['ppn'],
  patterns: [
    { include: '#metadata-first-game' },
    { include: '#metadata' },
    { include: '#metadata-end' },
    { include: '#movetext' },
  ],
  repository: {
    metadata: {
      comment: 'a game starts with a --- line; its YAML metadata ends at a ... line',
      begin: '^\\x{FEFF}?(---)',
      beginCaptures: { 1: { name: 'punctuation.definition.metadata.begin.ppn' } },
      while: metadataWhile,
      name: 'meta.metadata.ppn',
      contentName: 'meta.embedded.block.yaml',
      patterns: [{ include: 'source.yaml' }],
    },
    'metadata-first-game': {
      comment: 'the first game may leave out its --- line: metadata if it opens with a YAML key',
      begin: "\\A\\x{FEFF}?(?=[A-Za-z_][\\w\\- ']*:(?:\\s|$))",
      while: metadataWhile,
      name: 'meta.metadata.ppn',
      contentName: 'meta.embedded.block.yaml',
      patterns: [{ include: 'source.yaml' }],
    },
    'metadata-end': {
      comment: 'the ... line that closes a metadata block; what follows it on the line is ignored',
      match: '^(\\.\\.\\.)(.*)$',
      captures: {
        1: { name: 'punctuation.definition.metadata.end.ppn' },
        2: { name: 'comment.line.metadata-end.ppn' },
      },
    },
    movetext: {
      patterns: [
        { include: '#comment' },
        { include: '#comment-multiline' },
        {
          comment: 'a lone . repeats the previous MoveNumber with one more period',
          match: '(?<!\\S)\\.(?!\\S)',
          name: 'punctuation.separator.submove.ppn',
        },
        {
          match: '(?<!\\S)[\\p{L}\\p{N}_.]+\\.(?!\\S)',
          name: 'constant.numeric.move-number.ppn',
        },
        { match: ';', name: 'punctuation.separator.submove.ppn' },
        { include: '#move' },
      ],
    },
    comment: {
      comment: 'braces with whitespace before { and after } and no braces inside',
      match: '(?<!\\S)(\\{)([^{}]*)(\\})(?!\\S)',
      name: 'comment.block.ppn',
      captures: {
        1: { name: 'punctuation.definition.comment.begin.ppn' },
        3: { name: 'punctuation.definition.comment.end.ppn' },
      },
    },
    'comment-multiline': {
      begin: '(?<!\\S)(\\{)(?=[^{}]*$)',
      beginCaptures: { 1: { name: 'punctuation.definition.comment.begin.ppn' } },
      end: '(\\})|(?=^---)',
      endCaptures: { 1: { name: 'punctuation.definition.comment.end.ppn' } },
      name: 'comment.block.ppn',
    },
    macro: {
      match: "(`)([^\\s;`']*)(')",
      name: 'meta.macro.ppn',
      captures: {
        1: { name: 'punctuation.definition.macro.begin.ppn' },
        2: { name: 'entity.name.function.macro.ppn' },
        3: { name: 'punctuation.definition.macro.end.ppn' },
      },
    },
    'brace-expansion': {
      begin: '\\{',
      beginCaptures: { 0: { name: 'punctuation.section.braces.begin.ppn' } },
      end: '(\\})|(?=$)',
      endCaptures: { 1: { name: 'punctuation.section.braces.end.ppn' } },
      name: 'meta.brace-expansion.ppn',
      patterns: moveRules(true),
    },
    move: { patterns: moveRules(false) },
  },
};

const text = `${JSON.stringify(grammar, null, 2)}\n`;
if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(grammarPath, 'utf8');
  } catch {
    // A missing file is stale too.
  }
  if (committed !== text) {
    console.error(`${grammarPath} is out of date: run node scripts/build-grammar.mjs`);
    process.exit(1);
  }
} else {
  writeFileSync(grammarPath, text);
}
