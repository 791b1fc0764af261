/**
 * tree-sitter grammar for the text formats of xiangqi-setup: annoFEN positions
 * (`v1 r[<bm><a+1-2>]bakabnr/...`), plain xiangqi FEN and WXF game records (header lines,
 * `FEN` or `SETUP{...}`, moves between `START{` and `}END`). XAY files are YAML and use
 * a YAML grammar.
 *
 * It is made for highlighting, folding and navigation in editors without semantic
 * tokens; ppn-ls itself reads the files with its own readers and reports every error.
 */

const PIECE = /[RHEAKCPNBGMrheakcpnbgm]/;

// After the first atom of a board, every part of it follows without a space: a space
// ends the board, and what comes after it are FEN's other fields.
const immediate = (rule) => token.immediate(rule);

module.exports = grammar({
  name: 'xiangqi',

  extras: ($) => [/[ \t\r\uFEFF]/],

  rules: {
    // One item per line (blocks span several); a newline ends what a line holds, so
    // that a FEN's move counters are not read as the start of another board.
    source_file: ($) => seq(repeat(seq(optional($._item), $._newline)), optional($._item)),

    _item: ($) =>
      choice($.comment, $.annofen, $.fen_line, $.header, $.fen_header, $.setup, $.moves),

    _newline: (_) => /\n/,

    comment: (_) => token(seq('#', /[^\n]*/)),

    // annoFEN: `v1 <board> [fields]`.
    annofen: ($) => seq(alias('v1', $.version), $.board, optional(seq($._gap, $.fields))),

    // A plain FEN line: `<board> [w|b - - 0 1]`.
    fen_line: ($) => seq($.board, optional(seq($._gap, $.fields))),

    board: ($) =>
      seq(
        choice($.piece, $.empty, $.code, $.stack, $.row_separator),
        repeat(
          choice(
            alias(immediate(PIECE), $.piece),
            alias(immediate(/[0-9]/), $.empty),
            alias(immediate('/'), $.row_separator),
            alias($._code_after, $.code),
            alias($._stack_after, $.stack),
          ),
        ),
      ),

    piece: (_) => PIECE,
    empty: (_) => /[0-9]/,
    row_separator: (_) => '/',

    code: ($) => seq('<', alias(immediate(/[^>\s\/\[\]<]+/), $.code_name), immediate('>')),
    _code_after: ($) =>
      seq(immediate('<'), alias(immediate(/[^>\s\/\[\]<]+/), $.code_name), immediate('>')),

    stack: ($) => seq('[', repeat1($._stacked), immediate(']')),
    _stack_after: ($) => seq(immediate('['), repeat1($._stacked), immediate(']')),
    _stacked: ($) => choice(alias(immediate(PIECE), $.piece), alias($._code_after, $.code)),

    // The space that ends a board; what follows is a field, not a piece.
    _gap: (_) => immediate(/[ \t]+/),

    fields: ($) => repeat1($.field),
    field: (_) => /[A-Za-z\-]+|[0-9]+/,

    // WXF: `KEY   value` lines.
    header: ($) => seq($.header_key, optional($.header_value)),
    header_key: (_) => /[A-Z][A-Z0-9_]*[ \t]+/,
    header_value: (_) => /[^\s#][^\n\r]*/,

    fen_header: ($) =>
      seq(alias(token(prec(1, /FEN[ \t]+/)), $.header_key), $.board, optional(seq($._gap, $.fields))),

    // `SETUP{ Ra0 Hb0 ... RED }`.
    setup: ($) =>
      seq(
        'SETUP{',
        repeat(choice($._newline, $.setup_piece, $.setup_side, $.setup_move)),
        '}',
      ),
    setup_piece: ($) => seq(alias(PIECE, $.piece), alias(immediate(/[a-i][0-9]/), $.point)),
    setup_side: (_) => choice('RED', 'BLACK'),
    setup_move: ($) => seq('MOVE', alias(/[0-9]+/, $.number)),

    // `START{ 1. P3+1 c8.7 ... }END`.
    moves: ($) =>
      seq(
        'START{',
        repeat(choice($._newline, $.move_number, $.move, $.tandem_move, $.result)),
        '}END',
      ),
    move_number: (_) => /[0-9]+\.+/,
    move: ($) =>
      seq(
        alias(/[A-Za-z]/, $.piece),
        alias(immediate(/[1-9+=\-]/), $.file),
        alias(immediate(/[.+=\-]/), $.direction),
        alias(immediate(/[1-9]/), $.amount),
      ),
    // Tandem pawns: `++.4`, `--.4`, `3+.4`, `33.4`.
    tandem_move: (_) => token(/[1-9+\-][+\-1-9][.+=\-][1-9]/),
    result: (_) => choice('1-0', '0-1', '1/2-1/2', '*'),
  },
});
