// Writes the TextMate grammars of xiangqi-setup's formats: annoFEN, xiangqi FEN, WXF and
// XAY. The board rules (piece letters, empty counts, `<codes>`, `[stacks]`) are shared by
// three of them, so they are assembled here instead of being edited by hand.
//
//   node scripts/build-xiangqi-grammars.mjs           write the grammars
//   node scripts/build-xiangqi-grammars.mjs --check   fail if a committed grammar is stale

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const syntaxes = join(dirname(fileURLToPath(import.meta.url)), '..', 'syntaxes');

const redPiece = '[RHEAKCPNBGM]';
const blackPiece = '[rheakcpnbgm]';

function boardRules(suffix) {
  return {
    code: {
      match: '(<)([^>\\s/\\[\\]<]*)(>)',
      captures: {
        1: { name: `punctuation.definition.annotation.begin.${suffix}` },
        2: { name: `constant.other.annotation.${suffix}` },
        3: { name: `punctuation.definition.annotation.end.${suffix}` },
      },
    },
    stack: { match: '[\\[\\]]', name: `punctuation.section.stack.${suffix}` },
    red: { match: redPiece, name: `entity.name.type.piece.red.${suffix}` },
    black: { match: blackPiece, name: `entity.name.type.piece.black.${suffix}` },
    empty: { match: '[0-9]', name: `constant.numeric.empty.${suffix}` },
    rank: { match: '/', name: `punctuation.separator.rank.${suffix}` },
    invalid: { match: '[^\\s]', name: `invalid.illegal.${suffix}` },
  };
}

// A board, then the fields after it (side to move, counters).
function positionRule(suffix, begin, beginCaptures) {
  const rules = boardRules(suffix);
  return {
    begin,
    beginCaptures,
    end: '$',
    name: `meta.position.${suffix}`,
    patterns: [
      {
        begin: '\\G[ \\t]*',
        end: '(?=[ \\t])|$',
        name: `meta.board.${suffix}`,
        patterns: [rules.code, rules.stack, rules.red, rules.black, rules.empty, rules.rank, rules.invalid],
      },
      { match: '[^\\s]+', name: `string.unquoted.field.${suffix}` },
    ],
  };
}

const comment = (suffix) => ({
  match: '^\\s*(#).*$',
  name: `comment.line.number-sign.${suffix}`,
  captures: { 1: { name: `punctuation.definition.comment.${suffix}` } },
});

const grammars = {
  'annofen.tmLanguage.json': {
    name: 'annoFEN',
    scopeName: 'source.annofen',
    fileTypes: ['annofen'],
    patterns: [
      comment('annofen'),
      positionRule('annofen', '^\\s*(v1)(?=[ \\t])', { 1: { name: 'keyword.other.version.annofen' } }),
      { match: '^\\s*\\S.*$', name: 'invalid.illegal.line.annofen' },
    ],
  },
  'xiangqi-fen.tmLanguage.json': {
    name: 'xiangqi FEN',
    scopeName: 'source.xiangqi-fen',
    fileTypes: ['fen'],
    patterns: [comment('xiangqi-fen'), positionRule('xiangqi-fen', '^(?=\\s*[^#\\s])', {})],
  },
  'wxf.tmLanguage.json': {
    name: 'WXF',
    scopeName: 'source.wxf',
    fileTypes: ['wxf'],
    patterns: [
      positionRule('wxf', '^\\s*(FEN)(?=[ \\t])', { 1: { name: 'keyword.other.header.wxf' } }),
      {
        begin: '(SETUP\\{)',
        end: '(\\})',
        beginCaptures: { 1: { name: 'keyword.control.block.wxf' } },
        endCaptures: { 1: { name: 'keyword.control.block.wxf' } },
        name: 'meta.setup.wxf',
        patterns: [
          {
            match: '\\b([A-Za-z])([a-i][0-9])\\b',
            captures: {
              1: { name: 'entity.name.type.piece.wxf' },
              2: { name: 'variable.other.point.wxf' },
            },
          },
          { match: '\\b(RED|BLACK|MOVE)\\b', name: 'keyword.other.setup.wxf' },
          { match: '\\b[0-9]+\\b', name: 'constant.numeric.wxf' },
        ],
      },
      {
        begin: '(START\\{)',
        end: '(\\}END)',
        beginCaptures: { 1: { name: 'keyword.control.block.wxf' } },
        endCaptures: { 1: { name: 'keyword.control.block.wxf' } },
        name: 'meta.moves.wxf',
        patterns: [
          { match: '(?<![\\w.+=-])[0-9]+\\.+(?![+=-][1-9])', name: 'constant.numeric.move-number.wxf' },
          {
            match: '(?<![\\w.+=-])([A-Za-z])([1-9+=\\-])([.+=\\-])([1-9])(?![\\w.+=-])',
            captures: {
              1: { name: 'entity.name.type.piece.wxf' },
              2: { name: 'variable.other.file.wxf' },
              3: { name: 'keyword.operator.direction.wxf' },
              4: { name: 'constant.numeric.amount.wxf' },
            },
          },
          {
            match: '(?<![\\w.+=-])([1-9+\\-][+\\-1-9])([.+=\\-])([1-9])(?![\\w.+=-])',
            captures: {
              1: { name: 'variable.other.file.wxf' },
              2: { name: 'keyword.operator.direction.wxf' },
              3: { name: 'constant.numeric.amount.wxf' },
            },
          },
          { match: '(?<![\\w/-])(1-0|0-1|1/2-1/2|\\*)(?![\\w/-])', name: 'constant.language.result.wxf' },
          { match: '[^\\s]+', name: 'invalid.illegal.wxf' },
        ],
      },
      {
        match: '^\\s*([A-Z][A-Z0-9_]*)\\b[ \\t]*(.*)$',
        captures: {
          1: { name: 'keyword.other.header.wxf' },
          2: { name: 'string.unquoted.header-value.wxf' },
        },
      },
    ],
  },
  'xay.tmLanguage.json': {
    name: 'XAY',
    scopeName: 'source.xay',
    fileTypes: ['xay'],
    patterns: [
      {
        match: '(?:^|(?<=\\s))(#).*$',
        name: 'comment.line.number-sign.xay',
        captures: { 1: { name: 'punctuation.definition.comment.xay' } },
      },
      {
        match: '^([A-Za-z_][\\w-]*)\\s*(:)',
        captures: {
          1: { name: 'entity.name.tag.yaml' },
          2: { name: 'punctuation.separator.key-value.mapping.yaml' },
        },
      },
      { match: "'[^']*'|\"[^\"]*\"", name: 'string.quoted.xay' },
      { match: '[\\[\\]]', name: 'punctuation.definition.sequence.xay' },
      { match: ',', name: 'punctuation.separator.sequence.xay' },
      { match: '(?<=^|[\\s\\[,-])(?:a[+-][0-9][+-][0-9]|[bp][bgm])(?=\\s*[,\\]#]|\\s*$)', name: 'constant.other.annotation.xay' },
      { match: `(?<=^|[\\s\\[,-])${redPiece}(?=\\s*[,\\]#]|\\s*$)`, name: 'entity.name.type.piece.red.xay' },
      { match: `(?<=^|[\\s\\[,-])${blackPiece}(?=\\s*[,\\]#]|\\s*$)`, name: 'entity.name.type.piece.black.xay' },
      { match: '\\b[0-9]+\\b', name: 'constant.numeric.xay' },
    ],
  },
};

const check = process.argv.includes('--check');
let stale = false;
for (const [file, grammar] of Object.entries(grammars)) {
  const text = `${JSON.stringify(
    { $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json', ...grammar },
    null,
    2,
  )}\n`;
  const path = join(syntaxes, file);
  if (check) {
    let committed = '';
    try {
      committed = readFileSync(path, 'utf8');
    } catch {
      committed = '';
    }
    if (committed !== text) {
      console.error(`${file} is stale: run node scripts/build-xiangqi-grammars.mjs`);
      stale = true;
    }
  } else {
    writeFileSync(path, text);
  }
}
if (stale) {
  process.exit(1);
}
