-- xiangqi-setup's files: annoFEN positions, XAY (YAML) positions, xiangqi FEN and WXF
-- game records. annoFEN, FEN and WXF share the tree-sitter-xiangqi parser; XAY is YAML.
vim.filetype.add({
  extension = {
    annofen = 'annofen',
    xay = 'xay',
    fen = 'fen',
    wxf = 'wxf',
  },
})
if vim.treesitter and vim.treesitter.language and vim.treesitter.language.register then
  vim.treesitter.language.register('xiangqi', { 'annofen', 'fen', 'wxf' })
  vim.treesitter.language.register('yaml', 'xay')
end
