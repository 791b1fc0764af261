; annoFEN, xiangqi FEN and WXF (the tree-sitter-xiangqi grammar). The languages
; `annofen`, `xiangqi-fen` and `wxf` inherit these.

(comment) @comment
(version) @keyword

; Boards: piece letters, empty counts, rank separators, annotations and stacks.
(piece) @type
(empty) @constant.numeric
(row_separator) @punctuation.delimiter
(code
  [
    "<"
    ">"
  ] @punctuation.bracket)
(code_name) @constant
(stack
  [
    "["
    "]"
  ] @punctuation.bracket)
(field) @string.special

; WXF headers and blocks.
(header_key) @attribute
(header_value) @string
[
  "SETUP{"
  "}"
  "START{"
  "}END"
] @keyword
(setup_side) @keyword
(setup_move
  "MOVE" @keyword)
(point) @variable
(number) @constant.numeric

; WXF moves.
(move_number) @label
(file) @variable
(direction) @operator
(amount) @constant.numeric
(tandem_move) @variable
(result) @constant.builtin
