---@brief
--- ppn-ls: language server for Portable Piecepack Notation (PPN), OpenTafl Notation
--- (OTN: .otg and .otn files) and xiangqi-setup's files (annoFEN, XAY, xiangqi FEN, WXF).
---
--- Install the `ppn-ls` binary (e.g. `cargo install --path server --locked` from the
--- repository) and make sure it is on your `PATH`, or set `cmd` to its full path.
---
--- With no arguments `ppn-ls` speaks the Language Server Protocol over stdio.
---@type vim.lsp.Config
return {
  cmd = { 'ppn-ls' },
  filetypes = { 'ppn', 'otn', 'annofen', 'xay', 'fen', 'wxf' },
  root_markers = { '.git' },
}
