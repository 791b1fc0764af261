; Game structure
(game_separator) @punctuation.special
(metadata_end) @punctuation.special

; Comments
(comment) @comment

; MoveNumbers and the `;` shortcut
(move_number) @label
(semicolon) @punctuation.delimiter

; Moves
(move_token) @operator
(piece_spec) @type
(location) @constant
(piece_id) @variable
(count_square) @variable
(slice) @punctuation.bracket
(slice_indices) @constant.numeric
(number) @constant.numeric
(degrees) @constant.numeric
(macro) @function.macro
(macro_name) @function.macro
(range) @constant.numeric

(brace_expansion
  [
    "{"
    "}"
    ","
  ] @punctuation.bracket)

(piece_id
  [
    "?"
    "/"
    "^"
  ] @punctuation.special)

(location
  [
    "&"
    "|"
    "$"
  ] @punctuation.special)

(other) @string
