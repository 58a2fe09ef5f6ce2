-- Run by tests/it/editors.rs in a headless Neovim, after the plugin
-- (editors/neovim/feedlint.lua) and the feed are loaded: waits for the
-- feedlint server's diagnostics, writes them to $FEEDLINT_NVIM_OUT a line
-- each (line:column:code), and quits, with status 1 if none came.
local got = vim.wait(30000, function()
  return #vim.diagnostic.get(0) > 0
end, 50)
local out = assert(io.open(os.getenv("FEEDLINT_NVIM_OUT"), "w"))
out:write("version ", tostring(vim.version().major), ".", tostring(vim.version().minor), "\n")
for _, d in ipairs(vim.diagnostic.get(0)) do
  local lsp = d.user_data and d.user_data.lsp or {}
  out:write(string.format("%d:%d:%s\n", d.lnum, d.col, tostring(d.code or lsp.code)))
end
out:close()
if got then
  vim.cmd("qall!")
else
  vim.cmd("cquit 1")
end
