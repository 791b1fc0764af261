/**
 * @file OpenTafl Notation (OTN): game records (.otg), rules strings and position records (.otn)
 * @license MIT
 *
 * For highlighting and folding. The language server reads the files itself and reports
 * their problems; this grammar only has to name the parts of a well-formed record and to
 * recover from anything else line by line.
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

const MAN = /[tcnkmgTCNKMG]/;

module.exports = grammar({
  name: 'otn',

  extras: $ => [/\s/],

  rules: {
    source_file: $ => repeat($._item),

    _item: $ => choice(
      $.rules_tag,
      $.position_tag,
      $.tag,
      $.turn,
      $.commentary,
      $.rule_entry,
      $.position,
      $.text,
    ),

    // [rules:dim:11 ... start:/.../]
    rules_tag: $ => seq(
      alias(token(prec(3, '[rules:')), $.tag_open),
      repeat($.rule_entry),
      ']',
    ),

    // [position:/.../]
    position_tag: $ => seq(
      alias(token(prec(3, '[position:')), $.tag_open),
      optional($.position),
      ']',
    ),

    // [name:value]; a value may span lines.
    tag: $ => seq(
      field('name', $.tag_name),
      optional(field('value', $.tag_value)),
      ']',
    ),

    tag_name: _ => token(prec(2, /\[[a-z][a-z0-9_-]*:/)),

    tag_value: _ => /[^\]\[]+/,

    rule_entry: $ => prec.right(seq(
      field('key', $.rule_key),
      optional(field('value', choice($.position, $.rule_value))),
    )),

    rule_key: _ => token(prec(1, /[a-z]+:/)),

    rule_value: _ => token.immediate(prec(3, /[^\s\]\/][^\s\]]*/)),

    position: _ => token(prec(1, /\/[^\s\]]*/)),

    // 12. e5-e8 d3-d1   or   7a.1.2a. e5-e8
    turn: $ => prec.right(seq(
      field('number', $.turn_number),
      repeat(choice($.move, $.resignation, $.placeholder)),
    )),

    turn_number: _ => token(prec(2, /\d+[a-z]?(\.\d+\.\d+[a-z])*\.?/)),

    move: $ => seq(
      optional(field('man', $.man)),
      field('from', $.square),
      field('type', $.move_type),
      field('to', alias($._square_immediate, $.square)),
      optional($.captures),
      optional(field('info', $.info)),
    ),

    man: _ => token(prec(1, MAN)),

    square: _ => token(prec(2, /[a-z]\d+/)),

    _square_immediate: _ => token.immediate(/[a-z]\d+/),

    move_type: _ => token.immediate(choice('-', '^', '=', '^=')),

    captures: $ => seq(
      token.immediate('x'),
      $.capture,
      repeat(seq(token.immediate(prec(2, '/')), $.capture)),
    ),

    capture: $ => seq(
      optional(alias(token.immediate(MAN), $.man)),
      alias($._square_immediate, $.square),
    ),

    info: _ => token.immediate(choice('+', '-', '++', '--')),

    resignation: _ => token(prec(3, '---')),

    placeholder: _ => token(prec(3, /\.\.+/)),

    // [first move|second move]
    commentary: _ => token(prec(1, /\[[^\]\[]*\]/)),

    // A line of anything else: the specification's unbracketed commentary, or text the
    // language server reports.
    // (Never starting with what can continue a move record.)
    text: _ => token(prec(-1, /[^\[\]\sx\/+=^-][^\[\]\n\r]*/)),
  },
});
