// External scanner for PPN: the tokens that depend on line starts or on unbounded
// lookahead (game separators, the YAML metadata block, comments versus brace
// expansions, and MoveNumbers, which must be followed by whitespace).

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>

enum TokenType {
  GAME_SEPARATOR,
  METADATA_END,
  METADATA_UNTIL_DOTS_FOLLOWS,
  METADATA_UNTIL_BLANK_FOLLOWS,
  MOVETEXT_FOLLOWS,
  METADATA_UNTIL_DOTS,
  METADATA_UNTIL_BLANK,
  COMMENT_OPEN,
  COMMENT_TEXT,
  MOVE_NUMBER,
  WHITESPACE_AFTER_GAME,
  ERROR_SENTINEL,
};

void *tree_sitter_ppn_external_scanner_create(void) { return NULL; }

void tree_sitter_ppn_external_scanner_destroy(void *payload) { (void)payload; }

unsigned tree_sitter_ppn_external_scanner_serialize(void *payload, char *buffer) {
  (void)payload;
  (void)buffer;
  return 0;
}

void tree_sitter_ppn_external_scanner_deserialize(void *payload, const char *buffer,
                                                  unsigned length) {
  (void)payload;
  (void)buffer;
  (void)length;
}

static inline void advance(TSLexer *lexer) { lexer->advance(lexer, false); }

static inline void skip(TSLexer *lexer) { lexer->advance(lexer, true); }

static inline bool at_eof(TSLexer *lexer) { return lexer->eof(lexer); }

static inline bool is_newline(int32_t c) { return c == '\n' || c == '\r'; }

// The metadata block may end at a line that is empty or starts with a space or tab.
static inline bool is_blank(int32_t c) { return c == ' ' || c == '\t'; }

// Tabs, newlines, form feeds and every Unicode Z character separate movetext elements.
static bool is_space(int32_t c) {
  switch (c) {
    case ' ':
    case '\t':
    case '\n':
    case '\r':
    case '\f':
    case '\v':
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return true;
    default:
      return c >= 0x2000 && c <= 0x200A;
  }
}

static inline bool is_move_number_char(int32_t c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '.';
}

// Consumes one line terminator (`\n`, `\r\n` or `\r`), if any.
static void consume_newline(TSLexer *lexer) {
  if (lexer->lookahead == '\r') {
    advance(lexer);
  }
  if (lexer->lookahead == '\n') {
    advance(lexer);
  }
}

static void consume_rest_of_line(TSLexer *lexer) {
  while (!at_eof(lexer) && !is_newline(lexer->lookahead)) {
    advance(lexer);
  }
}

// Consumes up to `count` occurrences of `c`; true when all were present.
static bool consume_repeated(TSLexer *lexer, int32_t c, int count) {
  for (int i = 0; i < count; i++) {
    if (lexer->lookahead != c) {
      return false;
    }
    advance(lexer);
  }
  return true;
}

// Consumes a line and tells whether it reads like a YAML mapping entry
// (`Key: value` or `Key:`), the only way a game without `---` may open.
static bool consume_line_checking_yaml_key(TSLexer *lexer) {
  int32_t c = lexer->lookahead;
  bool looks_like_key = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
  bool saw_colon = false;
  while (!at_eof(lexer) && !is_newline(lexer->lookahead)) {
    c = lexer->lookahead;
    advance(lexer);
    if (saw_colon || !looks_like_key) {
      continue;
    }
    if (c == ':') {
      int32_t next = lexer->lookahead;
      saw_colon = true;
      looks_like_key = at_eof(lexer) || is_blank(next) || is_newline(next);
    } else if (c == '{' || c == '}' || c == '[' || c == ']' || c == '`') {
      looks_like_key = false;
    }
  }
  return looks_like_key && saw_colon;
}

// Consumes a run of whitespace and tells whether it ends a game: it runs to the end of the
// file or to a `---` line. The token then ends after the whitespace.
static bool consume_whitespace_after_game(TSLexer *lexer) {
  while (!at_eof(lexer) && is_space(lexer->lookahead)) {
    advance(lexer);
  }
  lexer->mark_end(lexer);
  lexer->result_symbol = WHITESPACE_AFTER_GAME;
  if (at_eof(lexer)) {
    return true;
  }
  // The column is asked for only at a `-`: see scan_game_separator.
  return lexer->lookahead == '-' && lexer->get_column(lexer) == 0 &&
         consume_repeated(lexer, '-', 3);
}

typedef enum {
  LINE_OTHER,
  LINE_BLANK,
  LINE_METADATA_END,
  LINE_GAME_SEPARATOR,
  LINE_NONE,
} LineKind;

// Classifies the line at the lexer (which must be at a line start) and consumes it with
// its terminator. `is_key` tells whether it reads like a YAML mapping entry.
static LineKind consume_line(TSLexer *lexer, bool *is_key) {
  *is_key = false;
  if (at_eof(lexer)) {
    return LINE_NONE;
  }
  int32_t c = lexer->lookahead;
  LineKind kind = LINE_OTHER;
  if (is_newline(c) || is_blank(c)) {
    kind = LINE_BLANK;
    consume_rest_of_line(lexer);
  } else if (c == '.' || c == '-') {
    if (consume_repeated(lexer, c, 3)) {
      kind = c == '.' ? LINE_METADATA_END : LINE_GAME_SEPARATOR;
    }
    consume_rest_of_line(lexer);
  } else {
    *is_key = consume_line_checking_yaml_key(lexer);
  }
  consume_newline(lexer);
  return kind;
}

// Decides, at the start of a game, how its metadata ends; lookahead only, the token is
// zero-width. A `...` line anywhere in the game ends the metadata; without one, the
// first blank line does; without either the game has none. A game without `---` (the
// first one) opens with metadata only when its first line reads like a YAML key, and
// never when it opens with a comment.
// The caller marks the token end at the start of the first line; `first_line` tells how
// much of the text it has already consumed.
typedef enum {
  FIRST_LINE_UNREAD,
  // Dashes or periods at the start of the first line.
  FIRST_LINE_STARTED,
  // Whitespace from the start of the first line up to something else
  // (scan_game_start_after_whitespace).
  WHITESPACE_READ,
} FirstLine;

static bool scan_game_start(TSLexer *lexer, const bool *valid_symbols, bool first_game,
                            FirstLine first_line, bool blank_line_read, bool at_line_start) {
  bool opens_with_comment = first_line == FIRST_LINE_UNREAD && lexer->lookahead == '{';
  bool first_is_key = false;
  bool blank_seen = false;
  bool dots_seen = false;
  LineKind kind = LINE_OTHER;
  if (first_line == FIRST_LINE_STARTED || (first_line == WHITESPACE_READ && !at_line_start)) {
    consume_rest_of_line(lexer);
    consume_newline(lexer);
  } else if (first_line == FIRST_LINE_UNREAD) {
    kind = consume_line(lexer, &first_is_key);
  }
  if (blank_line_read) {
    kind = LINE_BLANK;
  }
  if (kind == LINE_BLANK) {
    // The metadata would be empty, and the blank line is movetext whitespace.
    first_is_key = false;
    blank_seen = true;
  }
  while (kind != LINE_NONE) {
    bool is_key = false;
    kind = consume_line(lexer, &is_key);
    if (kind == LINE_GAME_SEPARATOR) {
      break;
    }
    if (kind == LINE_METADATA_END) {
      dots_seen = true;
      break;
    }
    if (kind == LINE_BLANK) {
      blank_seen = true;
    }
  }
  if (dots_seen && !(first_game && opens_with_comment)) {
    lexer->result_symbol = METADATA_UNTIL_DOTS_FOLLOWS;
  } else if (blank_seen && (first_is_key || (!first_game && !opens_with_comment))) {
    lexer->result_symbol = METADATA_UNTIL_BLANK_FOLLOWS;
  } else if (first_game) {
    lexer->result_symbol = MOVETEXT_FOLLOWS;
  } else {
    return false;
  }
  return valid_symbols[lexer->result_symbol];
}

// At the start of a game that opens with whitespace: the whitespace ends the game when it
// runs to the end of the file or a `---` line, as anywhere else; otherwise the game starts
// as scan_game_start decides, told whether a line read was blank (empty or starting with
// a space or tab).
static bool scan_game_start_after_whitespace(TSLexer *lexer, const bool *valid_symbols,
                                             bool first_game) {
  bool at_line_start = true;
  bool blank_line_read = false;
  while (!at_eof(lexer) && is_space(lexer->lookahead)) {
    int32_t c = lexer->lookahead;
    if (at_line_start && (is_newline(c) || is_blank(c))) {
      blank_line_read = true;
    }
    advance(lexer);
    if (c == '\r' && lexer->lookahead == '\n') {
      advance(lexer);
    }
    at_line_start = is_newline(c);
  }
  if (at_eof(lexer)) {
    lexer->mark_end(lexer);
    lexer->result_symbol = WHITESPACE_AFTER_GAME;
    return valid_symbols[WHITESPACE_AFTER_GAME];
  }
  if (lexer->lookahead == '-' && lexer->get_column(lexer) == 0) {
    // The token ends before the dashes whichever it is.
    lexer->mark_end(lexer);
    if (consume_repeated(lexer, '-', 3)) {
      lexer->result_symbol = WHITESPACE_AFTER_GAME;
      return valid_symbols[WHITESPACE_AFTER_GAME];
    }
    // A line starting with `-` that is not `---`: the game starts after the whitespace
    // (its zero-width token can no longer end before it), in the middle of that line.
    at_line_start = false;
  }
  return scan_game_start(lexer, valid_symbols, first_game, WHITESPACE_READ, blank_line_read,
                         at_line_start);
}

// The metadata block, from its first line start up to (not including) the line that
// ends it; the token keeps the terminators of its lines.
static bool scan_metadata(TSLexer *lexer, bool until_dots) {
  bool has_lines = false;
  for (;;) {
    if (at_eof(lexer)) {
      break;
    }
    int32_t c = lexer->lookahead;
    if (until_dots && c == '.') {
      advance(lexer);
      if (consume_repeated(lexer, '.', 2)) {
        break;
      }
    } else if (!until_dots && (is_newline(c) || is_blank(c))) {
      break;
    } else if (c == '-') {
      advance(lexer);
      if (consume_repeated(lexer, '-', 2)) {
        break;
      }
    }
    consume_rest_of_line(lexer);
    consume_newline(lexer);
    lexer->mark_end(lexer);
    has_lines = true;
  }
  lexer->result_symbol = until_dots ? METADATA_UNTIL_DOTS : METADATA_UNTIL_BLANK;
  return has_lines;
}

static bool scan_metadata_end(TSLexer *lexer) {
  if (!consume_repeated(lexer, '.', 3)) {
    return false;
  }
  consume_rest_of_line(lexer);
  lexer->mark_end(lexer);
  lexer->result_symbol = METADATA_END;
  return true;
}

// A `---` line. Its column is asked for only once the three are read: the lexer counts a
// column from the start of its line, and asking at every `-` of a game written on one
// line (`h5-d2`) read the line again for each move.
static bool scan_game_separator(TSLexer *lexer) {
  if (!consume_repeated(lexer, '-', 3) || lexer->get_column(lexer) != 3) {
    return false;
  }
  consume_rest_of_line(lexer);
  lexer->mark_end(lexer);
  lexer->result_symbol = GAME_SEPARATOR;
  return true;
}

// After a line terminator inside a comment: a `---` line ends the game, and with it
// any comment left open.
static bool next_line_starts_game(TSLexer *lexer) {
  return lexer->lookahead == '-' && consume_repeated(lexer, '-', 3);
}

// At a `{` that follows whitespace. It opens a comment unless it is a brace expansion,
// which never holds whitespace and is glued to text after its `}` (`{b3,f7}-1UL`).
static bool scan_comment_open(TSLexer *lexer) {
  advance(lexer);
  lexer->mark_end(lexer);
  lexer->result_symbol = COMMENT_OPEN;
  bool saw_space = false;
  for (;;) {
    if (at_eof(lexer)) {
      return true;
    }
    int32_t c = lexer->lookahead;
    if (c == '}') {
      if (saw_space) {
        return true;
      }
      advance(lexer);
      return at_eof(lexer) || is_space(lexer->lookahead);
    }
    if (c == '{') {
      return saw_space;
    }
    advance(lexer);
    if (is_space(c)) {
      saw_space = true;
      if (c == '\n' && next_line_starts_game(lexer)) {
        return true;
      }
    }
  }
}

// The text of a comment, up to its `}`. A comment left open stops before the next
// `{`, the next game or the end of the file, so the rest still parses.
static bool scan_comment_text(TSLexer *lexer) {
  lexer->result_symbol = COMMENT_TEXT;
  bool has_text = false;
  bool consumed = false;
  for (;;) {
    if (at_eof(lexer)) {
      return has_text;
    }
    int32_t c = lexer->lookahead;
    if (c == '}') {
      lexer->mark_end(lexer);
      return consumed;
    }
    if (c == '{') {
      return has_text;
    }
    advance(lexer);
    consumed = true;
    if (!is_space(c)) {
      lexer->mark_end(lexer);
      has_text = true;
    } else if (c == '\n' && next_line_starts_game(lexer)) {
      return has_text;
    }
  }
}

// A MoveNumber is a whole whitespace-delimited word, so `1.` is one but the `_1.`
// of `_1.5UL` is not.
static bool scan_move_number(TSLexer *lexer) {
  bool ends_with_period = false;
  while (is_move_number_char(lexer->lookahead)) {
    ends_with_period = lexer->lookahead == '.';
    advance(lexer);
  }
  if (!ends_with_period || !(at_eof(lexer) || is_space(lexer->lookahead))) {
    return false;
  }
  lexer->mark_end(lexer);
  lexer->result_symbol = MOVE_NUMBER;
  return true;
}

bool tree_sitter_ppn_external_scanner_scan(void *payload, TSLexer *lexer,
                                           const bool *valid_symbols) {
  (void)payload;
  if (valid_symbols[ERROR_SENTINEL]) {
    return false;
  }

  if (valid_symbols[COMMENT_TEXT]) {
    return scan_comment_text(lexer);
  }

  if (valid_symbols[METADATA_UNTIL_DOTS] || valid_symbols[METADATA_UNTIL_BLANK]) {
    return scan_metadata(lexer, valid_symbols[METADATA_UNTIL_DOTS]);
  }

  if (valid_symbols[METADATA_UNTIL_DOTS_FOLLOWS] && valid_symbols[METADATA_UNTIL_BLANK_FOLLOWS]) {
    bool first_game = valid_symbols[MOVETEXT_FOLLOWS];
    // The line terminator after `---` is padding of what follows it.
    if (!first_game && is_newline(lexer->lookahead)) {
      if (lexer->lookahead == '\r') {
        skip(lexer);
      }
      if (lexer->lookahead == '\n') {
        skip(lexer);
      }
    }
    if (at_eof(lexer) || (!first_game && lexer->get_column(lexer) != 0)) {
      return false;
    }
    lexer->mark_end(lexer);
    int32_t c = lexer->lookahead;
    if (c == '-' || c == '.') {
      if (consume_repeated(lexer, c, 3)) {
        consume_rest_of_line(lexer);
        lexer->mark_end(lexer);
        lexer->result_symbol = c == '-' ? GAME_SEPARATOR : METADATA_END;
        return valid_symbols[lexer->result_symbol];
      }
      return scan_game_start(lexer, valid_symbols, first_game, FIRST_LINE_STARTED, false, false);
    }
    if (is_space(c)) {
      return scan_game_start_after_whitespace(lexer, valid_symbols, first_game);
    }
    return scan_game_start(lexer, valid_symbols, first_game, FIRST_LINE_UNREAD, false, false);
  }

  if (valid_symbols[WHITESPACE_AFTER_GAME] && is_space(lexer->lookahead)) {
    return consume_whitespace_after_game(lexer);
  }

  if (valid_symbols[METADATA_END] && lexer->lookahead == '.' && lexer->get_column(lexer) == 0) {
    return scan_metadata_end(lexer);
  }

  // No later symbol starts with `-`.
  if (valid_symbols[GAME_SEPARATOR] && lexer->lookahead == '-') {
    return scan_game_separator(lexer);
  }

  if (valid_symbols[COMMENT_OPEN] && lexer->lookahead == '{') {
    return scan_comment_open(lexer);
  }

  if (valid_symbols[MOVE_NUMBER] && is_move_number_char(lexer->lookahead)) {
    return scan_move_number(lexer);
  }

  return false;
}
