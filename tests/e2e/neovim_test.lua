-- End-to-end test: a real Neovim with the project's Neovim configuration
-- (editors/neovim) drives the ppn-ls binary found on PATH.
-- Run from the repository root: nvim --headless --clean -u tests/e2e/neovim_test.lua
-- Prints one line per check and "N passed, M failed"; exits 1 on any failure.

local root = vim.fn.getcwd()
vim.cmd('filetype on')
-- The set-up the README gives, with the path of this clone.
local example = table.concat(vim.fn.readfile(root .. '/editors/neovim/example/init.lua'), '\n')
example = example:gsub('/path/to/ppn%-ls', root)
assert(load(example, 'editors/neovim/example/init.lua'))()
vim.cmd('runtime! ftdetect/*.lua')
vim.cmd('runtime! plugin/ppn_board.lua')

local passed, failed = 0, 0
local function say(line)
  io.stdout:write(line .. '\n')
end

local function check(name, ok, detail)
  if ok then
    passed = passed + 1
    say('ok   ' .. name)
  else
    failed = failed + 1
    say('FAIL ' .. name .. (detail and (': ' .. detail) or ''))
  end
end

local function finish()
  say(string.format('%d passed, %d failed', passed, failed))
  vim.cmd(failed == 0 and 'qall!' or 'cquit! 1')
end

-- The game under test: line 4 (0-based 3) holds a move on an empty square.
local lines = {
  '---',
  'Macros: {home: S@a1}',
  '...',
  '1. S@b2 1... *b5',
  '2. t@{b,d}{2..4..2} 2... `home\'',
}

local function request(bufnr, method, params)
  local responses = vim.lsp.buf_request_sync(bufnr, method, params, 10000) or {}
  for _, response in pairs(responses) do
    if response.result then
      return response.result
    end
  end
  return nil
end

-- A WXF record whose second red move jumps a horse over a blocked leg.
local function run_xiangqi()
  local path = vim.fn.tempname() .. '.wxf'
  vim.fn.writefile({ 'FORMAT  WXF', 'START{', ' 1. H2+3 h8+7', ' 2. H3+4 r9.8', '}END' }, path)
  vim.cmd.edit(path)
  local bufnr = vim.api.nvim_get_current_buf()
  check('filetype is wxf', vim.bo[bufnr].filetype == 'wxf', vim.bo[bufnr].filetype)
  local attached = vim.wait(15000, function()
    return #vim.lsp.get_clients({ bufnr = bufnr, name = 'ppn_ls' }) > 0
  end, 50)
  check('ppn_ls attaches to a WXF record', attached)
  if not attached then
    return finish()
  end
  local got = vim.wait(15000, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 50)
  local first = vim.diagnostic.get(bufnr)[1] or {}
  check(
    'the illegal horse move is flagged with its reason',
    got and first.lnum == 3 and first.col == 4 and first.code == 'wxf-illegal-move'
      and first.message:find("horse's leg is blocked", 1, true) ~= nil,
    vim.inspect(first)
  )
  local hover = request(bufnr, 'textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = 2, character = 5 },
  })
  local hover_text = hover and hover.contents and (hover.contents.value or vim.inspect(hover.contents)) or ''
  check(
    'hover on a WXF move shows the board after it',
    hover_text:find('Red horse h0–g2', 1, true) ~= nil and hover_text:find('```', 1, true) ~= nil,
    hover_text
  )
  finish()
end
local run_opentafl

local function run()
  run_opentafl()
  local path = vim.fn.tempname() .. '.ppn'
  vim.fn.writefile(lines, path)
  vim.cmd.edit(path)
  local bufnr = vim.api.nvim_get_current_buf()
  check('filetype is ppn', vim.bo[bufnr].filetype == 'ppn', vim.bo[bufnr].filetype)

  local attached = vim.wait(15000, function()
    return #vim.lsp.get_clients({ bufnr = bufnr, name = 'ppn_ls' }) > 0
  end, 50)
  check('ppn_ls attaches', attached)
  if not attached then
    return finish()
  end

  -- What the README's set-up turns on for Neovim 0.11.
  check('nvim is 0.11 or later', vim.fn.has('nvim-0.11') == 1, vim.inspect(vim.version()))
  check('diagnostics show their text', vim.diagnostic.config().virtual_text == true,
    vim.inspect(vim.diagnostic.config().virtual_text))
  check('<C-x><C-o> asks the server', vim.bo[bufnr].omnifunc == 'v:lua.vim.lsp.omnifunc', vim.bo[bufnr].omnifunc)
  check('inlay hints are on', vim.lsp.inlay_hint.is_enabled({ bufnr = bufnr }))

  -- Diagnostics for the broken move, at its line and column.
  local got = vim.wait(15000, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 50)
  local diagnostics = vim.diagnostic.get(bufnr)
  local first = diagnostics[1] or {}
  check(
    'diagnostic on the empty square',
    got and first.lnum == 3 and first.col == 14 and first.code == 'no-piece',
    vim.inspect(first)
  )

  -- Hover on a move shows the board.
  local hover = request(bufnr, 'textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = 3, character = 4 },
  })
  local hover_text = hover and hover.contents and (hover.contents.value or vim.inspect(hover.contents)) or ''
  -- S@b2 drops the Suns coin back up: a coin showing the Suns on rank 2.
  check(
    'hover on a move shows the board',
    hover_text:find('**Board 1.**', 1, true) ~= nil and hover_text:find('2 ☀', 1, true) ~= nil,
    hover_text
  )

  -- :PpnBoard writes the picture of the board under the cursor and opens it.
  local picture = vim.fn.tempname() .. '.svg'
  vim.g.ppn_board_file = picture
  vim.g.ppn_board_open = 'true'
  vim.api.nvim_win_set_cursor(0, { 4, 4 })
  vim.cmd('PpnBoard')
  local drawn = vim.wait(15000, function()
    return vim.g.ppn_board_last ~= nil and vim.fn.filereadable(picture) == 1
  end, 50)
  local svg = drawn and table.concat(vim.fn.readfile(picture), '\n') or ''
  check(
    ':PpnBoard opens the picture of the move under the cursor',
    drawn and vim.g.ppn_board_last.label == '1.' and svg:find('<svg', 1, true) == 1
      and svg:find('<title>null of Suns coin, back up</title>', 1, true) ~= nil,
    vim.inspect(vim.g.ppn_board_last) .. ' ' .. svg:sub(1, 120)
  )

  -- :PpnAnimate writes a picture that plays the game from its start.
  vim.g.ppn_board_last = nil
  vim.fn.delete(picture)
  vim.cmd('PpnAnimate')
  local played = vim.wait(15000, function()
    return vim.g.ppn_board_last ~= nil and vim.fn.filereadable(picture) == 1
  end, 50)
  local animation = played and table.concat(vim.fn.readfile(picture), '\n') or ''
  local _, frames = animation:gsub('<g id="frame%-', '')
  check(
    ':PpnAnimate opens a picture that plays the game, a frame per board',
    played and vim.g.ppn_board_last.animated and vim.g.ppn_board_last.label == '2...' and frames == 5,
    vim.inspect(vim.g.ppn_board_last) .. ' frames: ' .. frames
  )

  -- The code lenses run ppn.showBoard, which Neovim has no command for but the plugin's.
  local lenses = request(bufnr, 'textDocument/codeLens', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
  }) or {}
  local titles = {}
  for _, lens in ipairs(lenses) do
    titles[#titles + 1] = lens.command and lens.command.title or '?'
  end
  local client = vim.lsp.get_clients({ bufnr = bufnr, name = 'ppn_ls' })[1]
  local outcomes = {}
  for _, lens in ipairs(lenses) do
    vim.g.ppn_board_last = nil
    vim.fn.delete(picture)
    local ok, err = pcall(function()
      client:exec_cmd(lens.command, { bufnr = bufnr })
    end)
    local opened = ok and vim.wait(15000, function()
      return vim.g.ppn_board_last ~= nil and vim.fn.filereadable(picture) == 1
    end, 50)
    outcomes[lens.command.title] = opened and vim.g.ppn_board_last or tostring(err)
  end
  local shown, animated = outcomes['Show board'], outcomes['Animate']
  check(
    'the Show board and Animate lenses open the last board and the played game',
    table.concat(titles, ',') == 'Show board,Animate'
      and type(shown) == 'table' and shown.label == '2...' and not shown.animated
      and type(animated) == 'table' and animated.animated,
    table.concat(titles, ',') .. ' ' .. vim.inspect(outcomes)
  )

  -- Completion after a backtick lists the macros.
  local completion = request(bufnr, 'textDocument/completion', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = 4, character = 26 },
  })
  local items = completion and (completion.items or completion) or {}
  local labels = {}
  for _, item in ipairs(items) do
    labels[item.label] = true
  end
  check('completion after a backtick lists macros', labels['home'] == true and labels['K'] == true,
    vim.inspect(vim.tbl_keys(labels)):sub(1, 200))

  -- Inlay hints show what a brace expansion expands to.
  local hints = request(bufnr, 'textDocument/inlayHint', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = 5, character = 0 } },
  }) or {}
  local hint_text = ''
  for _, hint in ipairs(hints) do
    local label = hint.label
    if type(label) == 'table' then
      local parts = {}
      for _, part in ipairs(label) do
        table.insert(parts, part.value)
      end
      label = table.concat(parts)
    end
    hint_text = hint_text .. label .. '\n'
  end
  check('inlay hint shows the brace expansion', hint_text:find('t@b2 t@b4 t@d2 t@d4', 1, true) ~= nil, hint_text)

  -- Editing the broken line fixes it: the diagnostics follow.
  vim.api.nvim_buf_set_lines(bufnr, 3, 4, false, { '1. S@b2 1... *b2' })
  local cleared = vim.wait(15000, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.code == 'no-piece' then
        return false
      end
    end
    return true
  end, 50)
  check('editing the line clears its diagnostic', cleared, vim.inspect(vim.diagnostic.get(bufnr)))

  vim.api.nvim_buf_set_lines(bufnr, 4, 5, false, { '2. *c7' })
  local flagged = vim.wait(15000, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.code == 'no-piece' and d.lnum == 4 and d.col == 4 then
        return true
      end
    end
    return false
  end, 50)
  check('a new broken move is flagged where it is', flagged, vim.inspect(vim.diagnostic.get(bufnr)))

  run_xiangqi()
end

-- An OpenTafl record: its filetype, its problems and its boards.
run_opentafl = function()
  local path = vim.fn.tempname() .. '.otg'
  vim.fn.writefile({
    '[rules:dim:7 ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]',
    '',
    '1. g4-g3 d5-f5',
    '2. g3-e3 f5-f6',
    '3. b4-b3 f6-f5',
    '4. b3-c3 f5-f6',
  }, path)
  vim.cmd.edit(path)
  local bufnr = vim.api.nvim_get_current_buf()
  -- Inside this scheduled callback Neovim may skip detection on `:edit` (it does for
  -- .otg, not .otn); `:filetype detect` runs the same detection a user's `:edit` does.
  if vim.bo[bufnr].filetype == '' then
    vim.cmd('filetype detect')
  end
  check('an .otg file is otn', vim.bo[bufnr].filetype == 'otn', vim.bo[bufnr].filetype)
  local attached = vim.wait(15000, function()
    return #vim.lsp.get_clients({ bufnr = bufnr, name = 'ppn_ls' }) > 0
  end, 50)
  check('ppn_ls attaches to the .otg file', attached)
  if not attached then
    return
  end
  -- 4a b3-c3 captures d3, which the record does not write.
  local got = vim.wait(15000, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.code == 'missing-capture' and d.lnum == 5 and d.col == 3 then
        return true
      end
    end
    return false
  end, 50)
  check('the unwritten capture is flagged', got, vim.inspect(vim.diagnostic.get(bufnr)))
  local hover = request(bufnr, 'textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = 5, character = 4 },
  })
  local hover_text = hover and hover.contents and (hover.contents.value or vim.inspect(hover.contents)) or ''
  check(
    'hover on an OpenTafl move shows its board',
    hover_text:find('**4a** `b3-c3`', 1, true) ~= nil and hover_text:find('```', 1, true) ~= nil,
    hover_text
  )
end

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  callback = function()
    vim.schedule(function()
      local ok, err = pcall(run)
      if not ok then
        check('test script runs', false, tostring(err))
        finish()
      end
    end)
  end,
})
