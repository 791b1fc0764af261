; Games (`---` to the next `---`) are the "class" of a PPN file, moves its "functions".
(game) @class.outer

(movetext) @class.inner

(move) @function.outer @function.inner

(comment) @comment.outer

(comment_text) @comment.inner

(metadata) @block.inner

(brace_expansion) @block.outer

(piece_id) @parameter.inner

(location) @parameter.inner

(piece_spec) @parameter.inner
