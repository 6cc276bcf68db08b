-- SPDX-License-Identifier: Apache-2.0
-- tests/lsp/editors/nvim.lua - Neovim (0.7, headless) as the client of
-- `schemadoc lsp`: open $SD_FILE, wait for the diagnostics, hover a key,
-- accept a completion, apply the quick fix; write what the editor's own
-- buffer and diagnostics list hold to $SD_OUT as JSON lines, then quit.
local out = assert(io.open(os.getenv('SD_OUT'), 'w'))
local function say(k, v) out:write(vim.fn.json_encode({ [k] = v }) .. '\n'); out:flush() end
local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('SD_FILE')))
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({ name = 'schemadoc', cmd = { os.getenv('SD'), 'lsp', '--stdio' },
                                    root_dir = vim.fn.getcwd() })
  assert(id, 'no client')
  vim.lsp.buf_attach_client(buf, id)
  local client = vim.lsp.get_client_by_id(id)
  assert(vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50), 'no diagnostics')
  local d = {}
  for _, g in ipairs(vim.diagnostic.get(buf)) do table.insert(d, { lnum = g.lnum, col = g.col, message = g.message }) end
  say('diagnostics', d)
  -- hover the first key
  local r = vim.lsp.buf_request_sync(buf, 'textDocument/hover',
    { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 0, character = 1 } }, 10000)
  say('hover', r and r[id] and r[id].result and r[id].result.contents.value or vim.NIL)
  -- the quick fix of the first unknown-key diagnostic, applied to the buffer
  local g = nil
  for _, x in ipairs(vim.diagnostic.get(buf)) do
    if x.user_data and x.user_data.lsp and x.user_data.lsp.code == 'unknownKey' then g = x.user_data.lsp end
  end
  assert(g, 'no unknownKey diagnostic')
  r = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction',
    { textDocument = { uri = vim.uri_from_bufnr(buf) }, range = g.range, context = { diagnostics = { g } } }, 10000)
  local a = r and r[id] and r[id].result and r[id].result[1]
  assert(a, 'no code action')
  say('action', a.title)
  vim.lsp.util.apply_workspace_edit(a.edit, client.offset_encoding or 'utf-16')
  -- the diagnostics of the fixed buffer: the editor sends the change itself
  local v = vim.lsp.util.buf_versions[buf]
  assert(vim.wait(20000, function()
    for _, x in ipairs(vim.diagnostic.get(buf)) do
      if x.user_data and x.user_data.lsp and x.user_data.lsp.code == 'unknownKey' then return false end
    end
    return true
  end, 50), 'the quick fix left the unknown key')
  say('fixed', #vim.diagnostic.get(buf))
  -- a new last line: complete a key there and accept the first item
  local n = vim.api.nvim_buf_line_count(buf)
  vim.api.nvim_buf_set_lines(buf, n, n, false, { '' })
  r = vim.lsp.buf_request_sync(buf, 'textDocument/completion',
    { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = n, character = 0 } }, 10000)
  local items = r and r[id] and r[id].result or {}
  if items.items then items = items.items end
  say('completions', #items)
  if items[1] then vim.api.nvim_buf_set_lines(buf, n, n + 1, false, { items[1].insertText .. '1' }) end
  say('buffer', vim.api.nvim_buf_get_lines(buf, 0, -1, false))
  say('version', v)
end)
if not ok then say('error', tostring(err)) end
out:close()
vim.cmd('qa!')
