-- feedlint as a language server in Neovim, 0.7 (Debian 12's) to 0.11+.
-- Put this file in ~/.config/nvim/plugin/, or require it from init.lua.
-- Feeds open as XML; each is linted with the workspace around it: the
-- directory that holds feedlint.toml (or .git) above the file.
vim.filetype.add({ extension = { atom = "xml", rss = "xml", atomdeleted = "xml" } })

local cmd = { "feedlint", "server" }

-- The workspace of a file: the nearest directory above it with a
-- feedlint.toml, else with a .git, else the file's own directory.
local function root_of(file)
  local dir = vim.fn.fnamemodify(file, ":p:h")
  local config = vim.fn.findfile("feedlint.toml", dir .. ";")
  if config ~= "" then
    return vim.fn.fnamemodify(config, ":p:h")
  end
  local git = vim.fn.finddir(".git", dir .. ";")
  if git ~= "" then
    return vim.fn.fnamemodify(git, ":p:h:h")
  end
  return dir
end

if vim.lsp.config and vim.lsp.enable then
  -- Neovim 0.11+: the built-in configuration.
  vim.lsp.config("feedlint", {
    cmd = cmd,
    filetypes = { "xml", "json" },
    root_markers = { "feedlint.toml", ".git" },
  })
  vim.lsp.enable("feedlint")
  return
end

-- Neovim 0.7 to 0.10: a client a workspace, started for each XML or JSON
-- buffer (the server lints JSON Feeds and leaves other JSON alone).
local clients = {}
vim.api.nvim_create_autocmd("FileType", {
  pattern = { "xml", "json" },
  callback = function(args)
    local file = vim.api.nvim_buf_get_name(args.buf)
    local root = root_of(file ~= "" and file or vim.fn.getcwd() .. "/untitled")
    if vim.lsp.start then
      -- 0.8 to 0.10: vim.lsp.start reuses a client with the same name and root.
      vim.lsp.start({ name = "feedlint", cmd = cmd, root_dir = root }, { bufnr = args.buf })
      return
    end
    -- 0.7: one client a root, attached to each buffer by hand.
    local id = clients[root]
    if id == nil or vim.lsp.get_client_by_id(id) == nil then
      id = vim.lsp.start_client({ name = "feedlint", cmd = cmd, root_dir = root })
      clients[root] = id
    end
    if id then
      vim.lsp.buf_attach_client(args.buf, id)
    end
  end,
})
