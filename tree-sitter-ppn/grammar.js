/**
 * @file Portable Piecepack Notation (PPN 0.14) grammar for tree-sitter
 * @license MIT
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

// Parse precedences: a slice binds tighter than any prefix (`^a2[1]` is `^(a2[1])`),
// and a count grabs the location that follows it (`2(3,1)` is one PieceId).
const PREC = {
  prefix: 1,
  count: 2,
  slice: 3,
};

// Any non-ASCII character that is neither whitespace nor an undertie MoveToken:
// piece glyphs (chess, cards, dominoes, dice, pyramids, suits, μ, ⬢ ...).
const GLYPH = '[^\\x00-\\x7F\\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\u203F\\u035C]';
const SPEC_ASCII = '[A-Za-z0-9<>v]';
const SPEC_BRACKETS = '\\(\\)|/\\\\|\\[\\]|\\[X\\]|\\[#\\]';
// `,a45` angle, `,r2` rank, `,s1` suit, `,subpack'` configuration.
const SPEC_ATTRIBUTE = ",(a-?[0-9.]+|[rs][0-9]+|[A-Za-z0-9_.-]*')";

/**
 * A PieceSpec token. `caretFirst` allows a leading `^` (angle up), which is only
 * unambiguous after `?`, `/`, `~` and `=`; elsewhere a leading `^` starts a PieceId.
 * @param {boolean} caretFirst
 */
function pieceSpecPattern(caretFirst) {
  const simple = `(${SPEC_ASCII}|\\^|${GLYPH}|${SPEC_BRACKETS})`;
  const first = caretFirst ? simple : `(${SPEC_ASCII}|${GLYPH}|${SPEC_BRACKETS})`;
  return new RegExp(`(${first}${simple}*(${SPEC_ATTRIBUTE})*|(${SPEC_ATTRIBUTE})+)`);
}

module.exports = grammar({
  name: 'ppn',

  // Whitespace separates movetext elements, so it is part of the grammar, not an extra.
  extras: _ => [],

  externals: $ => [
    $.game_separator,
    $.metadata_end,
    // Zero-width decisions at the start of a game, taken by looking at the whole game:
    // metadata up to a `...` line, metadata up to a blank line, or none at all.
    $._metadata_until_dots_follows,
    $._metadata_until_blank_follows,
    $._movetext_follows,
    $._metadata_until_dots,
    $._metadata_until_blank,
    $._comment_open,
    $.comment_text,
    // `1.`, `1...`, `12S.`, `Round2.`, `setup.` and the lone `.` shortcut: letters,
    // digits, `_` and `.` ending in a period, followed by whitespace.
    $.move_number,
    // Whitespace after a game's last item that runs to the end of the file or to a `---`
    // line: it belongs to no game, so a game ends where its text does (editors' text
    // objects and motions skip a node that reaches the end of the file).
    $._whitespace_after_game,
    $._error_sentinel,
  ],

  rules: {
    source_file: $ => seq(
      optional(alias($._first_game, $.game)),
      optional($._whitespace_after_game),
      repeat(seq(alias($._separated_game, $.game), optional($._whitespace_after_game))),
    ),

    // The first game may omit `---`; it then has metadata when a `...` line follows, or
    // when it opens with a YAML mapping key and a blank line follows (the scanner
    // decides; a file opening with `{` opens with a comment).
    _first_game: $ => choice(
      seq($._metadata, optional($.movetext)),
      seq($._movetext_follows, $.movetext),
    ),

    _separated_game: $ => seq(
      $.game_separator,
      optional($._metadata),
      optional($.movetext),
    ),

    _metadata: $ => choice(
      seq(
        $._metadata_until_dots_follows,
        alias($._metadata_until_dots, $.metadata),
        $.metadata_end,
      ),
      seq($._metadata_until_blank_follows, alias($._metadata_until_blank, $.metadata)),
      $.metadata_end,
    ),

    movetext: $ => choice(
      seq($._whitespace, optional($._items)),
      $._items,
    ),

    _items: $ => seq($._item_list, optional($._whitespace)),

    // Left recursion instead of `repeat`: a repetition node reduced while the parser could
    // also shift the next element is fragile, so a re-parse would take a long movetext
    // apart item by item. Every prefix of this list is a plain node that an edit after it
    // leaves reusable as a whole.
    _item_list: $ => choice(
      $._item,
      seq($._item_list, $._whitespace, $._item),
    ),

    _item: $ => choice(
      $.comment,
      $.move_number,
      $._word,
    ),

    // Tabs, newlines, form feeds and every Unicode Z character (CRLF included).
    _whitespace: _ => /[\s\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+/,

    comment: $ => seq($._comment_open, optional($.comment_text), '}'),

    // A whitespace-free run: moves joined by the `;` shortcut.
    _word: $ => choice(
      seq($.move, repeat($._after_semicolon)),
      repeat1($._after_semicolon),
    ),

    _after_semicolon: $ => seq($.semicolon, optional($.move)),

    semicolon: _ => ';',

    move: $ => repeat1($._element),

    _element: $ => choice(
      $.move_token,
      $._rotation,
      $._update,
      alias($._subject_piece_spec, $.piece_spec),
      $.location,
      $.piece_id,
      $.macro,
      $.brace_expansion,
      $.number,
      $.other,
    ),

    move_token: _ => token(choice(
      '@', '\\', '-', '_', '\u203F', '\u035C', ':', '#', '*', '+', '!', '%',
    )),

    // `@>90`, `$>-45`: the angle is required.
    _rotation: $ => seq(
      alias(choice('@>', '$>'), $.move_token),
      $.degrees,
    ),

    degrees: _ => token(/-?([0-9]+(\.[0-9]*)?|\.[0-9]+)/),

    // `~PieceSpec` updates, `=PieceSpec` replaces.
    _update: $ => seq(
      alias(choice('~', '='), $.move_token),
      $._spec_operand,
    ),

    _spec_operand: $ => choice(
      alias($._prefixed_piece_spec, $.piece_spec),
      $.macro,
      $.brace_expansion,
    ),


    location: $ => choice(
      $._square,
      $._cartesian,
      $._offset,
      $._direction,
      $._expanded_coordinates,
      prec.right(PREC.prefix, seq('&', optional($._piece_reference))),
      prec(PREC.prefix, seq('|', $.location)),
      prec(PREC.prefix, seq('$', $._piece_reference)),
    ),

    // Chess-style, multi-letter files allowed: `e4`, `aa7`.
    _square: _ => token(/[a-z]+[0-9]+/),
    _cartesian: _ => token(/\(-?[0-9.]+\\?,-?[0-9.]+\)/),
    _offset: _ => token(/<[+-]?[0-9.]+\\?,[+-]?[0-9.]+>/),
    _direction: _ => token(/[0-9]+(\.[0-9]+)?[NESWURDL]{1,3}/),

    // Coordinates holding brace expansions, e.g. `({2..7},3)`.
    _expanded_coordinates: $ => seq('(', repeat(choice($._element, ',')), ')'),

    _piece_reference: $ => choice($.piece_id, $.location),

    piece_id: $ => choice(
      seq('?', $._spec_operand),
      seq('/', $._spec_operand),
      prec(PREC.prefix, seq('^', choice($._piece_reference, alias($._subject_piece_spec, $.piece_spec)))),
      prec(PREC.count, seq($.number, choice(
        alias($._cartesian, $.location),
        alias($._expanded_coordinates, $.location),
        $.piece_id,
      ))),
      // `2b4`: the top two pieces at b4 (one token, as `2b4` is also a valid PieceSpec).
      alias($._count_square, $.count_square),
      prec(PREC.slice, seq($._piece_reference, $.slice)),
    ),

    _count_square: _ => token(/[0-9]+[a-z]+[0-9]+/),

    slice: $ => seq('[', optional($.slice_indices), ']'),
    slice_indices: _ => /[0-9]+(:[0-9]+)?(,[0-9]+(:[0-9]+)?)*/,

    number: _ => token(/[0-9]+(\.[0-9]+)?/),

    macro: $ => seq('`', $.macro_name, '\''),
    macro_name: _ => /[^'`\s;]+/,

    brace_expansion: $ => seq(
      '{',
      optional($._brace_item),
      repeat(seq(',', optional($._brace_item))),
      '}',
    ),

    _brace_item: $ => choice(
      $.range,
      repeat1($._element),
    ),

    // `{1..5}`, `{2..8..2}`, `{b..f}`.
    range: _ => token(choice(
      /-?[0-9]+\.\.-?[0-9]+(\.\.-?[0-9]+)?/,
      /[A-Za-z]\.\.[A-Za-z](\.\.-?[0-9]+)?/,
    )),

    // Declared last: a PieceSpec loses ties against the shapes above (`b2` is a square,
    // `2S` a direction, `2b4` a count and a square, `3` a number).
    _subject_piece_spec: _ => token(pieceSpecPattern(false)),
    _prefixed_piece_spec: _ => token(pieceSpecPattern(true)),

    // Anything else inside a move (stray quotes, periods, commas, the escaped comma `\,`
    // of a brace expansion) is kept as text instead of an error.
    other: _ => token(choice(/["'.,]/, '\\,')),
  },
});
