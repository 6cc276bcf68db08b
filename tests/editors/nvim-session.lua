-- SPDX-License-Identifier: Apache-2.0
-- tests/editors/nvim-session.lua - one editing session in headless Neovim
-- (0.7+) against `schemadoc lsp`, for tests/suite-lsp-editors.sh. Run as
--   nvim --headless -u NONE -i NONE -n -c 'luafile tests/editors/nvim-session.lua'
-- with the session in the environment (all positions 0-based, ASCII lines):
--   SD_LSP_CMD      the server command line, words split on spaces
--   ED_FILE         the values file to open (inside a chart copy)
--   ED_OUT          where the JSON result goes
--   ED_HOVER        "LINE:COL" of the key to hover
--   ED_COMPLETE     "LINE:COL" where to ask for completion
--   ED_LABEL        the completion item to accept
--   ED_SPOILED      LINE of the unknown key whose quick fix is applied
--   ED_WAIT_MS      how long to wait for each answer (default 20000)
-- Columns in the result are code points (Neovim's are bytes).
-- Steps, each waiting on the server's answer (never a fixed sleep): start the
-- client, open and attach the buffer, wait for diagnostics, hover, complete
-- and apply the item the way the client does (textEdit, else insertText,
-- else the label; a snippet is expanded to its text), ask code actions for
-- the spoiled key's diagnostic and apply the quick fix's workspace edit, wait
-- for the diagnostics of the edited text, then write the editor's own
-- buffer lines and diagnostics list as JSON and quit. A failing hover,
-- completion or quick fix is recorded in "errors" and the next steps still
-- run; the status is 1 when anything failed.
local env = os.getenv
local wait_ms = tonumber(env('ED_WAIT_MS') or '') or 20000
local out = { steps = {}, errors = {} }

local function pos(name)
  local l, c = (env(name) or ''):match('^(%d+):(%d+)$')
  if not l then error(name .. ' must be LINE:COL') end
  return tonumber(l), tonumber(c)
end

local function finish(status)
  local f = io.open(env('ED_OUT'), 'w')
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd((status == 0) and 'qall!' or 'cquit! 1')
end

-- a byte column of a buffer line in code points (validate's columns)
local function points(buf, line, col)
  local text = vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1] or ''
  local ok, n = pcall(vim.str_utfindex, text, math.min(col, #text))
  return ok and n or col
end

local function diags(buf)
  local r = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(r, { line = d.lnum, col = points(buf, d.lnum, d.col), col_bytes = d.col,
                      end_line = d.end_lnum, end_col = points(buf, d.end_lnum, d.end_col),
                      severity = d.severity, message = d.message, code = d.code or vim.NIL,
                      source = d.source or vim.NIL })
  end
  table.sort(r, function(a, b) return a.line < b.line or (a.line == b.line and a.col < b.col) end)
  return r
end

-- the text of a hover result: MarkupContent, MarkedString or a list of them
local function hover_text(contents)
  if type(contents) == 'string' then return contents end
  if contents.value then return contents.value end
  local parts = {}
  for _, c in ipairs(contents) do table.insert(parts, hover_text(c)) end
  return table.concat(parts, '\n')
end

local function run()
  local cmd = vim.split(env('SD_LSP_CMD') or '', ' ', { trimempty = true })
  local file = env('ED_FILE')
  local published = 0
  local exited = nil
  local id = vim.lsp.start_client({
    name = 'schemadoc',
    cmd = cmd,
    root_dir = vim.fn.fnamemodify(file, ':h'),
    flags = { debounce_text_changes = 0 }, -- each edit is sent at once
    handlers = {
      ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
        published = published + 1
        return vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
      end,
    },
    on_exit = function(code) exited = code end,
  })
  if not id then error('vim.lsp.start_client failed for: ' .. table.concat(cmd, ' ')) end
  local function await(what, cond)
    local ok = vim.wait(wait_ms, function() return cond() or exited ~= nil end, 10)
    if exited ~= nil and not cond() then error(what .. ': the server exited with status ' .. exited) end
    if not ok then error(what .. ': no answer within ' .. wait_ms .. ' ms') end
    table.insert(out.steps, what)
  end

  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].filetype = 'yaml'
  vim.lsp.buf_attach_client(buf, id)
  local client
  await('initialize', function()
    client = vim.lsp.get_client_by_id(id)
    return client and client.initialized
  end)
  local enc = client.offset_encoding or 'utf-16'
  out.offset_encoding = enc
  await('diagnostics', function() return published > 0 end)
  out.diagnostics = diags(buf)

  local uri = vim.uri_from_bufnr(buf)
  local function request(method, params)
    if not client.supports_method(method) then
      error(method .. ': the server does not offer it (its initialize result lacks the capability)')
    end
    local res, err = vim.lsp.buf_request_sync(buf, method, params, wait_ms)
    if not res then error(method .. ': ' .. tostring(err)) end
    local r = res[id]
    if not r then error(method .. ': no answer within ' .. wait_ms .. ' ms') end
    local e = r.err or r.error -- `error` up to 0.9, `err` from 0.10
    if e then error(method .. ': ' .. (type(e) == 'table' and e.message or vim.inspect(e))) end
    table.insert(out.steps, method)
    return r.result
  end

  -- the steps below go on after one fails (its error is kept), so that a
  -- server lacking one feature still shows what the others do
  local function step(name, fn)
    local ok, e = pcall(fn)
    if not ok then table.insert(out.errors, name .. ': ' .. tostring(e)) end
  end

  step('hover', function()
    local hl, hc = pos('ED_HOVER')
    local h = request('textDocument/hover', { textDocument = { uri = uri }, position = { line = hl, character = hc } })
    out.hover = h and h.contents and hover_text(h.contents) or vim.NIL
  end)

  -- completion, and the chosen item applied as the client applies it
  step('completion', function()
    local cl, cc = pos('ED_COMPLETE')
    vim.api.nvim_win_set_cursor(0, { cl + 1, cc })
    local c = request('textDocument/completion', { textDocument = { uri = uri }, position = { line = cl, character = cc } })
    local items = (c and c.items) or c or {}
    out.completion_labels = {}
    local chosen
    for _, it in ipairs(items) do
      table.insert(out.completion_labels, it.label)
      if it.label == env('ED_LABEL') then chosen = it end
    end
    if not chosen then error('no item labelled ' .. tostring(env('ED_LABEL'))) end
    local before = published
    local function text_of(t)
      if chosen.insertTextFormat == 2 then return vim.lsp.util.parse_snippet(t) end
      return t
    end
    if chosen.textEdit then
      local te = chosen.textEdit
      vim.lsp.util.apply_text_edits({ { range = te.range or te.insert, newText = text_of(te.newText) } }, buf, enc)
    else
      local t = text_of(chosen.insertText or chosen.label)
      vim.api.nvim_buf_set_text(buf, cl, cc, cl, cc, vim.split(t, '\n', { plain = true }))
    end
    if chosen.additionalTextEdits then vim.lsp.util.apply_text_edits(chosen.additionalTextEdits, buf, enc) end
    out.completion_applied = chosen.label
    await('diagnostics after the completion', function() return published > before end)
  end)

  -- the quick fix for the unknown key, the request built as Neovim's own
  -- vim.lsp.buf.code_action() builds it with the cursor on the key: the
  -- range from the cursor, context.diagnostics from get_line_diagnostics()
  -- (whose columns 0.7 gives in bytes, not in the encoding agreed on: a
  -- server must find its diagnostic by line, code and message)
  step('quick fix', function()
    local sl = tonumber(env('ED_SPOILED'))
    local here = vim.diagnostic.get(buf, { lnum = sl })[1]
    if not here then error('no diagnostic on line ' .. sl .. ' (0-based) to fix') end
    vim.api.nvim_win_set_cursor(0, { sl + 1, here.col })
    local params = vim.lsp.util.make_range_params(0, enc)
    params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, sl) }
    local actions = request('textDocument/codeAction', params) or {}
    out.code_actions = {}
    local fix
    for _, a in ipairs(actions) do
      table.insert(out.code_actions, a.title)
      if (a.kind or ''):match('^quickfix') and (not fix or a.isPreferred) then fix = a end
    end
    if not fix then error('textDocument/codeAction: no quickfix among ' .. #actions .. ' actions') end
    out.applied_action = fix.title
    local before = published
    if fix.edit then vim.lsp.util.apply_workspace_edit(fix.edit, enc) end
    if fix.command then
      local cmdobj = type(fix.command) == 'table' and fix.command or fix
      request('workspace/executeCommand', { command = cmdobj.command, arguments = cmdobj.arguments })
    end
    await('diagnostics after the quick fix', function() return published > before end)
  end)

  out.lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  out.final_diagnostics = diags(buf)
  vim.lsp.stop_client(id)
  vim.wait(wait_ms, function() return exited ~= nil end, 10)
  out.exit_status = exited or vim.NIL
end

local ok, err = pcall(run)
if not ok then table.insert(out.errors, tostring(err)) end
finish(#out.errors == 0 and 0 or 1)
