; Games are the "classes" of a PPN file and moves its "functions": `]c` jumps to the next
; game, `maf` selects a move.
(game) @class.around

(movetext) @class.inside

(move) @function.around @function.inside

(comment) @comment.around

(comment_text) @comment.inside

(piece_id) @parameter.inside

(location) @parameter.inside

(piece_spec) @parameter.inside
