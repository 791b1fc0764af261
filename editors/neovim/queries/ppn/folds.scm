[
  (game)
  (metadata)
  (comment)
  (movetext)
] @fold
