; Multi-line tags (start-comment) and commentary fold.
[
  (tag)
  (commentary)
] @fold
