-- ppn-ls in Neovim 0.11 or later, without plugins. Copy into your init.lua, with the path
-- of your clone of ppn-ls.
vim.opt.runtimepath:append('/path/to/ppn-ls/editors/neovim')
vim.lsp.enable('ppn_ls')

-- Neovim 0.11 shows diagnostics only as signs (`E`) unless their text is turned on.
vim.diagnostic.config({ virtual_text = true })

vim.api.nvim_create_autocmd('LspAttach', {
  callback = function(args)
    local client = vim.lsp.get_client_by_id(args.data.client_id)
    if client and client.name == 'ppn_ls' then
      -- Completion as you type (without this, <C-x><C-o> asks for it).
      vim.lsp.completion.enable(true, client.id, args.buf, { autotrigger = true })
      -- Brace expansions and macro values shown inline.
      vim.lsp.inlay_hint.enable(true, { bufnr = args.buf })
    end
  end,
})
