; OpenTafl Notation: tags, rules strings, turns, move records and commentary.

(tag_name) @property
(tag_open) @property
(tag_value) @string
"]" @punctuation.bracket

(rule_key) @property
(rule_value) @constant
(position) @string.special

(turn_number) @number

(man) @type
(square) @variable
(move_type) @operator
"x" @operator
"/" @operator
(info) @constant.builtin
(resignation) @keyword
(placeholder) @keyword

(commentary) @comment
(text) @comment
