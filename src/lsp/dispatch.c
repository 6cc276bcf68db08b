/* SPDX-License-Identifier: Apache-2.0 */
/* dispatch.c - JSON-RPC 2.0 over the framing of frame.c: parse each body
 * (jansson), check its shape, keep the lifecycle (initialize, initialized,
 * shutdown, exit; requests before initialize: -32002; after shutdown:
 * -32600), negotiate the position encoding, and hand each method to the
 * file that does it; unknown requests get -32601, unparsable bodies
 * -32700. Diagnostics are published once no message is waiting, so a
 * burst of keystrokes is validated once. */
#include "lsp_int.h"
#include "alloc.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* ---- lifecycle ---------------------------------------------------------- */

/* general.positionEncodings: the first of the client's we know; utf-16
 * when it offers none (the protocol's default). */
static int pick_encoding(json_t *params)
{
    json_t *l = json_object_get(json_object_get(json_object_get(params, "capabilities"), "general"),
                                "positionEncodings");
    size_t i;
    json_t *v;
    json_array_foreach(l, i, v) {
        const char *e = json_string_value(v);
        if (!e)
            continue;
        if (!strcmp(e, "utf-8"))
            return SD_LSP_UTF8;
        if (!strcmp(e, "utf-16"))
            return SD_LSP_UTF16;
        if (!strcmp(e, "utf-32"))
            return SD_LSP_UTF32;
    }
    return SD_LSP_UTF16;
}

static void log_message(sd_lsp *s, int type, const char *msg)
{
    sd_lsp__notify(s, "window/logMessage", json_pack("{s:i,s:s}", "type", type, "message", msg));
}

static const char *enc_name(int enc)
{
    return enc == SD_LSP_UTF8 ? "utf-8" : enc == SD_LSP_UTF32 ? "utf-32" : "utf-16";
}

static json_t *initialize(sd_lsp *s, json_t *params)
{
    s->enc = pick_encoding(params);
    s->progress = json_is_true(json_object_get(json_object_get(json_object_get(params, "capabilities"), "window"),
                                               "workDoneProgress"));
    sd_lsp__root(s, params);
    if (json_object_get(params, "initializationOptions") &&
        sd_lsp__settings(s, json_object_get(params, "initializationOptions")) < 0)
        log_message(s, 2, "schemadoc: initializationOptions: expected {\"schemadoc\": {\"charts\": {\"<glob>\": \"<chart dir>\"}}}");
    return json_pack("{s:{s:s,s:{s:b,s:i,s:{s:b}},s:b,s:{s:[s,s]},s:{s:[s]},s:b,s:b,s:b},s:{s:s,s:s}}",
                     "capabilities",
                       "positionEncoding", enc_name(s->enc),
                       "textDocumentSync", "openClose", 1, "change", 2, "save", "includeText", 0,
                       "hoverProvider", 1,
                       "completionProvider", "triggerCharacters", ":", " ",
                       "codeActionProvider", "codeActionKinds", "quickfix",
                       "documentSymbolProvider", 1,
                       "definitionProvider", 1,
                       "referencesProvider", 1,
                     "serverInfo", "name", "schemadoc", "version", SD_VERSION);
}

/* ---- parsing ------------------------------------------------------------------ */

/* The message in `body`, or NULL with the reply (-32700) sent. */
static json_t *parse(sd_lsp *s, const sd_buf *body)
{
    sd_doc *doc = NULL;
    sd_diags dg = SD_DIAGS_INIT;
    json_t *msg = NULL;
    int oom = 0;
    int err = sd_doc_load_mem(&doc, "message", body->ptr, body->len, SD_FMT_JSON, NULL, &dg);

    if (err == 0 && doc->nroots == 1 && doc->roots[0].node) {
        msg = sd_lsp__json_from_node(doc->roots[0].node, 0, &oom);
    } else if (err == SD_ENOMEM) {
        oom = 1;
    } else {
        sd_buf m = SD_BUF_INIT;
        const sd_diag *g = dg.count ? &dg.items[0] : NULL;
        if (g)
            sd_buf_printf(&m, "invalid JSON at line %d, column %d: %s", g->loc.line, g->loc.column, g->message);
        else
            sd_buf_puts(&m, "invalid JSON: no value");
        sd_lsp__error(s, NULL, SD_RPC_PARSE_ERROR, m.ptr);
        sd_buf_release(&m);
    }
    if (oom) {
        sd_alloc_note_failure();
        sd_lsp__error(s, NULL, SD_RPC_INTERNAL_ERROR, "out of memory reading a message");
    }
    sd_doc_free(doc);
    sd_diags_release(&dg);
    return msg;
}

/* ---- dispatch ---------------------------------------------------------------- */

typedef json_t *(*request_fn)(sd_lsp *s, json_t *params, int *code, const char **why);

/* A notification's handler; its errors are only logged (window/logMessage). */
typedef int (*notify_fn)(sd_lsp *s, json_t *params);

static int on_open(sd_lsp *s, json_t *params)
{
    sd_lsp_doc *d = NULL;
    int r = sd_lsp__did_open(s, params, &d);
    if (r == 0 && d)
        sd_lsp__attach(s, d);
    return r;
}

static int on_save(sd_lsp *s, json_t *params)
{
    sd_lsp_doc *d = sd_lsp__doc_find(s, json_string_value(json_object_get(
                                            json_object_get(params, "textDocument"), "uri")));
    if (!d)
        return -1;
    if (d->path)
        sd_lsp__file_changed(s, d->path);
    return 0;
}

/* workspace/didChangeWatchedFiles: a chart's file changed on disk */
static int on_watched(sd_lsp *s, json_t *params)
{
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(params, "changes"), i, c) {
        char *p = sd_lsp__uri_path(json_string_value(json_object_get(c, "uri")));
        if (p)
            sd_lsp__file_changed(s, p);
        free(p);
    }
    return 0;
}

/* workspace/didChangeConfiguration: new settings; every document is
 * attached again (a glob may now name another chart) */
static int on_config(sd_lsp *s, json_t *params)
{
    if (sd_lsp__settings(s, json_object_get(params, "settings")) < 0)
        return -1;
    for (size_t i = 0; i < s->ndocs; i++) {
        sd_lsp__attach(s, s->docs[i]);
        s->docs[i]->dirty = 1;
    }
    return 0;
}

static const struct { const char *method; notify_fn fn; } notifications[] = {
    { "textDocument/didOpen", on_open },
    { "textDocument/didChange", sd_lsp__did_change },
    { "textDocument/didClose", sd_lsp__did_close },
    { "textDocument/didSave", on_save },
    { "workspace/didChangeWatchedFiles", on_watched },
    { "workspace/didChangeConfiguration", on_config },
};

static void handle(sd_lsp *s, json_t *msg)
{
    json_t *id = json_object_get(msg, "id");
    json_t *jm = json_object_get(msg, "method");
    json_t *params = json_object_get(msg, "params");
    const char *method = json_string_value(jm);
    json_t *v = json_object_get(msg, "jsonrpc");

    if (!json_is_object(msg) || !v || !json_is_string(v) || strcmp(json_string_value(v), "2.0") ||
        (id && !json_is_string(id) && !json_is_integer(id) && !json_is_null(id)) ||
        (params && !json_is_object(params) && !json_is_array(params) && !json_is_null(params))) {
        sd_lsp__error(s, json_is_object(msg) && (json_is_string(id) || json_is_integer(id)) ? id : NULL,
                      SD_RPC_INVALID_REQUEST, "not a JSON-RPC 2.0 request: an object with \"jsonrpc\": \"2.0\", "
                      "a string \"method\", an integer or string \"id\" and object or array \"params\"");
        return;
    }
    if (!jm) {   /* a response to a request of ours (window/workDoneProgress/create: nothing awaits it) */
        if (!id)
            sd_lsp__error(s, NULL, SD_RPC_INVALID_REQUEST, "a message without \"method\" or \"id\"");
        return;
    }
    if (!method) {
        sd_lsp__error(s, id, SD_RPC_INVALID_REQUEST, "\"method\" must be a string");
        return;
    }
    if (!strcmp(method, "exit")) {
        s->done = 1;
        s->status = s->shutdown ? 0 : 1;
        return;
    }
    if (!id) {   /* a notification: never answered */
        if (!s->initialized || s->shutdown)
            return;   /* dropped, as the protocol says (exit aside) */
        for (size_t i = 0; i < sizeof notifications / sizeof *notifications; i++)
            if (!strcmp(method, notifications[i].method)) {
                if (notifications[i].fn(s, params) < 0)
                    log_message(s, 1, "schemadoc: a malformed notification was ignored");
                return;
            }
        /* initialized, $/cancelRequest (requests are answered in order, so
         * the one cancelled was answered already), $/setTrace, and any
         * other notification: nothing to do */
        return;
    }
    if (!strcmp(method, "initialize")) {
        if (s->initialized) {
            sd_lsp__error(s, id, SD_RPC_INVALID_REQUEST, "initialize was already called");
            return;
        }
        s->initialized = 1;
        sd_lsp__reply(s, id, initialize(s, params));
        return;
    }
    if (!s->initialized) {
        sd_lsp__error(s, id, SD_RPC_SERVER_NOT_INITIALIZED, "the server is not initialized: send initialize first");
        return;
    }
    if (s->shutdown) {
        sd_lsp__error(s, id, SD_RPC_INVALID_REQUEST, "the server is shut down: only exit is accepted");
        return;
    }
    if (!strcmp(method, "shutdown")) {
        s->shutdown = 1;
        sd_lsp__reply(s, id, json_null());
        return;
    }
    for (size_t i = 0; sd_lsp__requests[i].method; i++)
        if (!strcmp(method, sd_lsp__requests[i].method)) {
            int code = 0;
            const char *why = NULL;
            json_t *r = sd_lsp__requests[i].fn(s, params, &code, &why);
            if (code)
                sd_lsp__error(s, id, code, why ? why : "the request failed");
            else
                sd_lsp__reply(s, id, r);
            return;
        }
    {
        sd_buf m = SD_BUF_INIT;
        sd_buf_printf(&m, "unknown method: %.200s", method);
        sd_lsp__error(s, id, SD_RPC_METHOD_NOT_FOUND, m.ptr);
        sd_buf_release(&m);
    }
}

int sd_lsp_serve(int in_fd, int out_fd, const sd_lsp_opts *opts)
{
    sd_lsp s;
    sd_buf body = SD_BUF_INIT, why = SD_BUF_INIT;

    memset(&s, 0, sizeof s);
    if (opts)
        s.opts = *opts;
    if (!s.opts.max_message)
        s.opts.max_message = SD_LSP_MAX_MESSAGE;
    s.in.fd = in_fd;
    s.out_fd = out_fd;
    s.enc = SD_LSP_UTF16;
    s.status = 1;
    signal(SIGPIPE, SIG_IGN);   /* a client gone is a failed write, not a death */
    while (!s.done && !s.write_failed) {
        int r = sd_lsp__read(&s.in, &body, s.opts.max_message, &why);
        if (r == 0)
            break;
        if (r < 0) {
            sd_lsp__error(&s, NULL, strstr(why.ptr, "over the limit") ? SD_RPC_INVALID_REQUEST : SD_RPC_PARSE_ERROR,
                          why.ptr);
        } else {
            json_t *msg = parse(&s, &body);
            if (!msg) {
                /* answered */
            } else if (json_is_array(msg)) {
                sd_lsp__error(&s, NULL, SD_RPC_INVALID_REQUEST, "batches are not part of the language server protocol");
            } else {
                handle(&s, msg);
            }
            json_decref(msg);
        }
        /* a burst of edits: validated once it is over */
        if (!s.done && !sd_lsp__pending(&s.in))
            sd_lsp__publish_dirty(&s);
    }
    sd_buf_release(&body);
    sd_buf_release(&why);
    sd_lsp__docs_free(&s);
    sd_lsp__charts_free(&s);
    free(s.in.buf);
    free(s.root);
    json_decref(s.globs);
    return s.status;
}
