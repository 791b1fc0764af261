; annoFEN, xiangqi FEN and WXF (the tree-sitter-xiangqi parser).

(comment) @comment @spell
(version) @keyword

; Boards: piece letters, empty counts, rank separators, annotations and stacks.
(piece) @type
(empty) @number
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
(header_key) @property
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
(number) @number

; WXF moves.
(move_number) @label
(file) @variable
(direction) @operator
(amount) @number
(tandem_move) @variable
(result) @constant.builtin
