; Games are the "classes" (Helix's type definitions) of a PPN file and moves its
; "functions": `]t` jumps to the next game, `mat` selects a game, `maf` a move.
(game) @class.around

(movetext) @class.inside

(move) @function.around @function.inside

(comment) @comment.around

(comment_text) @comment.inside

(piece_id) @parameter.inside

(location) @parameter.inside

(piece_spec) @parameter.inside
