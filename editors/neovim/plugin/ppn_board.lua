-- :PpnBoard opens the picture of the board after the move under the cursor. It asks the
-- ppn-ls language server (`ppn/render`) for the picture, writes it to a temporary .svg
-- file and opens that with the system's viewer (or the command in g:ppn_board_open).
-- :PpnBoard! flips the board, to see it from the other side. :PpnAnimate opens a picture
-- that plays the game under the cursor from its start (a browser plays it). The code
-- lenses above each game (if code lenses are turned on) do the same.

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

-- Asks ppn-ls (`ppn/render`) for a picture with `params`, writes it to a temporary .svg
-- file and opens that. `what` names the command in messages.
local function open_picture(bufnr, params, what)
  local client = ppn_client(bufnr)
  if client == nil then
    vim.notify(what .. ': ppn-ls is not attached to this buffer', vim.log.levels.WARN)
    return
  end
  client:request('ppn/render', params, function(err, result)
    if err then
      vim.notify(what .. ': ' .. (err.message or tostring(err)), vim.log.levels.ERROR)
      return
    end
    if type(result) ~= 'table' or type(result.svg) ~= 'string' then
      vim.notify(what .. ': no board here', vim.log.levels.INFO)
      return
    end
    local path = vim.g.ppn_board_file or (vim.fn.tempname() .. '.svg')
    local file = io.open(path, 'w')
    if file == nil then
      vim.notify(what .. ': cannot write ' .. path, vim.log.levels.ERROR)
      return
    end
    file:write(result.svg)
    file:close()
    vim.g.ppn_board_last = { label = result.label, path = path, animated = params.animate == true }
    open_file(path)
  end, bufnr)
end

local function at_cursor(bufnr)
  local client = ppn_client(bufnr)
  local encoding = client and client.offset_encoding or 'utf-16'
  return vim.lsp.util.make_position_params(0, encoding)
end

vim.api.nvim_create_user_command('PpnBoard', function(command)
  local bufnr = vim.api.nvim_get_current_buf()
  local params = at_cursor(bufnr)
  params.flip = command.bang
  open_picture(bufnr, params, 'PpnBoard')
end, { bang = true, desc = 'Open the picture of the board after the move under the cursor' })

vim.api.nvim_create_user_command('PpnAnimate', function(command)
  local bufnr = vim.api.nvim_get_current_buf()
  local params = at_cursor(bufnr)
  params.flip = command.bang
  params.animate = true
  open_picture(bufnr, params, 'PpnAnimate')
end, { bang = true, desc = 'Open a picture that plays the game under the cursor from its start' })

-- The code lenses above each game (*Show board*, *Animate*) run `ppn.showBoard`, which
-- VS Code answers with its board panel; here it opens the picture instead.
vim.lsp.commands['ppn.showBoard'] = function(command, context)
  local where = (command.arguments or {})[1] or {}
  local bufnr = context.bufnr
  if where.uri then
    bufnr = vim.uri_to_bufnr(where.uri)
  end
  open_picture(bufnr, {
    textDocument = { uri = where.uri or vim.uri_from_bufnr(bufnr) },
    position = where.position,
    animate = where.animate == true,
  }, 'ppn.showBoard')
end
