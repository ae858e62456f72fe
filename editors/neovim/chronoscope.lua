-- Put in your Neovim config (0.10 or newer): .ruleset files get
-- `chronoscope lsp` (diagnostics, hover, go to definition, completion,
-- symbols) and `//` comments.
vim.filetype.add({ extension = { ruleset = "ruleset" } })
vim.api.nvim_create_autocmd("FileType", {
  pattern = "ruleset",
  callback = function(args)
    vim.bo[args.buf].commentstring = "// %s"
    vim.lsp.start({
      name = "chronoscope",
      cmd = { "chronoscope", "lsp" },
      root_dir = vim.fs.root(args.buf, { ".git" }) or vim.fn.getcwd(),
    })
  end,
})
