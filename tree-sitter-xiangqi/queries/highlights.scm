; annoFEN, xiangqi FEN and WXF: capture names of tree-sitter's highlight CLI.

(comment) @comment
(version) @keyword

(piece) @type
(empty) @number
(row_separator) @punctuation.delimiter
(code "<" @punctuation.bracket ">" @punctuation.bracket)
(code_name) @constant
(stack "[" @punctuation.bracket "]" @punctuation.bracket)
(field) @string

(header_key) @property
(header_value) @string

["SETUP{" "}" "START{" "}END"] @keyword
(setup_side) @keyword
(setup_move "MOVE" @keyword)
(point) @variable
(number) @number

(move_number) @label
(file) @variable
(direction) @operator
(amount) @number
(tandem_move) @variable
(result) @constant
