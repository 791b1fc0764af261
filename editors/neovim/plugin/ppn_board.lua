-- :PpnBoard opens the picture of the board after the move under the cursor. It asks the
-- ppn-ls language server (`ppn/render`) for the picture, writes it to a temporary .svg
-- file and opens that with the system's viewer (or the command in g:ppn_board_open).
-- :PpnBoard! flips the board, to see it from the other side.

local function ppn_client(bufnr)
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  for _, client in ipairs(get({ bufnr = bufnr })) do
    if client.name == 'ppn_ls' or client.name == 'ppn-ls' then
      return client
    end
  end
  return nil
end

local function open_file(path)
  local command = vim.g.ppn_board_open
  if type(command) == 'string' and command ~= '' then
    vim.fn.jobstart({ command, path }, { detach = true })
  elseif vim.ui and vim.ui.open then
    vim.ui.open(path)
  elseif vim.fn.has('mac') == 1 then
    vim.fn.jobstart({ 'open', path }, { detach = true })
  else
    vim.fn.jobstart({ 'xdg-open', path }, { detach = true })
  end
end

local function show_board(flip)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = ppn_client(bufnr)
  if client == nil then
    vim.notify('PpnBoard: ppn-ls is not attached to this buffer', vim.log.levels.WARN)
    return
  end
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  params.flip = flip
  vim.lsp.buf_request(bufnr, 'ppn/render', params, function(err, result)
    if err then
      vim.notify('PpnBoard: ' .. (err.message or tostring(err)), vim.log.levels.ERROR)
      return
    end
    if type(result) ~= 'table' or type(result.svg) ~= 'string' then
      vim.notify('PpnBoard: no board here', vim.log.levels.INFO)
      return
    end
    local path = vim.g.ppn_board_file or (vim.fn.tempname() .. '.svg')
    local file = io.open(path, 'w')
    if file == nil then
      vim.notify('PpnBoard: cannot write ' .. path, vim.log.levels.ERROR)
      return
    end
    file:write(result.svg)
    file:close()
    vim.g.ppn_board_last = { label = result.label, path = path }
    open_file(path)
  end)
end

vim.api.nvim_create_user_command('PpnBoard', function(command)
  show_board(command.bang)
end, { bang = true, desc = 'Open the picture of the board after the move under the cursor' })
