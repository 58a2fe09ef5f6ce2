-- feedlint as a language server in Neovim 0.11+ (vim.lsp.config), or with
-- nvim-lspconfig's configs on older versions. Put this file in
-- ~/.config/nvim/plugin/ or require it from init.lua.
vim.filetype.add({ extension = { atom = "xml", rss = "xml", atomdeleted = "xml" } })

vim.lsp.config("feedlint", {
  cmd = { "feedlint", "server" },
  filetypes = { "xml" },
  root_markers = { "feedlint.toml", ".git" },
})
vim.lsp.enable("feedlint")
