vim.filetype.add({
  extension = {
    ppn = 'ppn',
  },
})
