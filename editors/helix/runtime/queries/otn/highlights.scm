; OpenTafl Notation, in Helix's theme scopes.

(tag_name) @attribute
(tag_open) @attribute
(tag_value) @string
"]" @punctuation.bracket

(rule_key) @variable.other.member
(rule_value) @constant
(position) @string.special

(turn_number) @constant.numeric

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
