-- SPDX-License-Identifier: Apache-2.0
-- tests/lsp/editors/nvim-settings.lua - Neovim (0.7, headless) passes the
-- settings as docs/editors.md says: `init_options` (SD_MODE=init) or
-- `settings` (SD_MODE=settings, sent by on_init with
-- workspace/didChangeConfiguration),
-- mapping $SD_FILE (outside any chart) to a chart of the workspace
-- $SD_ROOT; the diagnostics of the editor's list go to $SD_OUT.
local out = assert(io.open(os.getenv('SD_OUT'), 'w'))
local function say(k, v) out:write(vim.fn.json_encode({ [k] = v }) .. '\n'); out:flush() end
local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('SD_FILE')))
  local buf = vim.api.nvim_get_current_buf()
  local conf = { schemadoc = { charts = { ['deploy/**/*.yaml'] = 'charts/app' } } }
  local cfg = { name = 'schemadoc', cmd = { os.getenv('SD'), 'lsp' }, root_dir = os.getenv('SD_ROOT') }
  if os.getenv('SD_MODE') == 'init' then
    cfg.init_options = conf
  else
    -- Neovim 0.7 sends `settings` only when on_init does (docs/editors.md)
    cfg.settings = conf
    cfg.on_init = function(client)
      client.notify('workspace/didChangeConfiguration', { settings = client.config.settings })
    end
  end
  local id = vim.lsp.start_client(cfg)
  assert(id, 'no client')
  vim.lsp.buf_attach_client(buf, id)
  assert(vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50), 'no diagnostics')
  local d = {}
  for _, g in ipairs(vim.diagnostic.get(buf)) do table.insert(d, { lnum = g.lnum, message = g.message }) end
  say('diagnostics', d)
end)
if not ok then say('error', tostring(err)) end
out:close()
vim.cmd('qa!')
