-- OpenTafl Notation: game records (.otg), rules strings and positions (.otn).
vim.filetype.add({
  extension = {
    otg = 'otn',
    otn = 'otn',
  },
})
