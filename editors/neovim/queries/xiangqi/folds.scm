[
  (setup)
  (moves)
] @fold
