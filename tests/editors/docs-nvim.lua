-- SPDX-License-Identifier: Apache-2.0
-- tests/editors/docs-nvim.lua - after docs/editors.md's Neovim config (the
-- init.lua given with -u) has opened ED_FILE: wait for its diagnostics
-- (ED_WAIT_MS), then write the clients attached to the buffer and the
-- diagnostics list as JSON to ED_OUT, and quit. For suite-lsp-editors.sh.
local buf = vim.api.nvim_get_current_buf()
local wait_ms = tonumber(os.getenv('ED_WAIT_MS') or '') or 20000
vim.wait(wait_ms, function() return #vim.diagnostic.get(buf) > 0 end, 10)
local out = { clients = {}, diagnostics = {} }
for _, c in pairs(vim.lsp.buf_get_clients(buf)) do table.insert(out.clients, c.name) end
for _, d in ipairs(vim.diagnostic.get(buf)) do
  -- the column in code points, as validate gives it (Neovim's are bytes)
  local text = vim.api.nvim_buf_get_lines(buf, d.lnum, d.lnum + 1, false)[1] or ''
  local ok, col = pcall(vim.str_utfindex, text, math.min(d.col, #text))
  table.insert(out.diagnostics, { line = d.lnum, col = ok and col or d.col, message = d.message })
end
local f = io.open(os.getenv('ED_OUT'), 'w')
f:write(vim.fn.json_encode(out))
f:close()
vim.cmd('qall!')
