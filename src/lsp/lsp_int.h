/* SPDX-License-Identifier: Apache-2.0 */
/* lsp_int.h - what the files of the language server share: the server's
 * state, the open documents, the charts they belong to, and one function
 * group per file (frame.c: the bytes; dispatch.c: JSON-RPC and the
 * lifecycle; docs.c: documents and edits; position.c: positions in three
 * encodings; diagnose.c: which chart, and its findings; settings.c: the
 * client's settings and $/progress; hover.c, complete.c, actions.c,
 * references.c: the features). docs/lsp.md */
#ifndef SD_LSP_INT_H
#define SD_LSP_INT_H

#include "lsp.h"
#include "buf.h"
#include "node.h"
#include "span.h"

#include <jansson.h>
#include <stddef.h>

/* JSON-RPC and LSP error codes */
enum {
    SD_RPC_PARSE_ERROR = -32700, SD_RPC_INVALID_REQUEST = -32600,
    SD_RPC_METHOD_NOT_FOUND = -32601, SD_RPC_INVALID_PARAMS = -32602,
    SD_RPC_INTERNAL_ERROR = -32603, SD_RPC_SERVER_NOT_INITIALIZED = -32002,
    SD_RPC_REQUEST_CANCELLED = -32800
};

/* position encodings: the unit a `character` counts */
enum sd_lsp_enc { SD_LSP_UTF8 = 8, SD_LSP_UTF16 = 16, SD_LSP_UTF32 = 32 };

/* ---- frame.c ------------------------------------------------------------- */

typedef struct sd_lsp_reader {
    int    fd;
    char  *buf;          /* bytes read and not used yet: buf[pos..len) */
    size_t pos, len, cap;
    int    eof;
} sd_lsp_reader;

/** Read the next message's body into `body` (cleared first). Returns 1 with
 *  a body, 0 at the end of the input, or -1 after a framing error (a
 *  malformed header, no Content-Length, a body larger than `max`: skipped
 *  without being kept) with its reason in `why`; reading may go on. */
int sd_lsp__read(sd_lsp_reader *r, sd_buf *body, size_t max, sd_buf *why);
/** 1 when bytes of a next message are waiting (read or readable now). */
int sd_lsp__pending(sd_lsp_reader *r);
/** Write one message (the header, then `len` bytes of `body`). 0 or SD_EIO. */
int sd_lsp__write(int fd, const char *body, size_t len);

/* A request's handler: the result (new reference; NULL is JSON null), or
 * *code set (an SD_RPC_* code) with a static reason in *why. */
struct sd_lsp;
typedef struct sd_lsp_request {
    const char *method;
    json_t *(*fn)(struct sd_lsp *s, json_t *params, int *code, const char **why);
} sd_lsp_request;
/** The requests the features answer (features.c), ending with a NULL method. */
extern const sd_lsp_request sd_lsp__requests[];

/* ---- the server --------------------------------------------------------- */

struct sd_lsp_refs;

/* A chart the open documents belong to, opened once. */
typedef struct sd_lsp_chart {
    char       *dir;      /* its directory, absolute */
    sd_source  *src;      /* NULL when it could not be opened */
    char       *why;      /* then the first error, as the CLI prints it */
    json_t     *model;    /* its model (docs/model.md) as JSON, built on first use */
    int         model_failed;
    int         is_schema;  /* `dir` is a plain schema (a yaml-language-server
                               modeline's $schema: a path or URL), no chart */
    struct sd_lsp_refs *refs;  /* its templates' reads (references.c), on first use */
} sd_lsp_chart;

/* An open document. */
typedef struct sd_lsp_doc {
    char          *uri;
    char          *path;     /* its file path (file: URIs), or NULL */
    sd_buf         text;
    long           version;
    size_t        *lines;    /* byte offset where each line starts */
    size_t         nlines;   /* 0: to be counted again */
    int            dirty;    /* diagnostics to publish */
    sd_lsp_chart  *chart;    /* borrowed from the server; NULL: none found */
    int            is_defaults;  /* it is its chart's values.yaml */
    char          *chart_why;    /* why no chart: a modeline pointing nowhere */
    sd_doc        *parsed;   /* the text parsed (hover, completion), or NULL */
    json_t        *published;    /* the diagnostics last published (code actions) */
    int            parsed_ok;
    sd_span_text   span;     /* the text indexed for ends (tree/span.h) */
    int            span_ok;  /* 0: to be indexed again */
} sd_lsp_doc;

typedef struct sd_lsp {
    sd_lsp_opts    opts;
    sd_lsp_reader  in;
    int            out_fd;
    int            initialized, shutdown, done, status;
    int            enc;        /* enum sd_lsp_enc */
    sd_lsp_doc   **docs;
    size_t         ndocs;
    sd_lsp_chart **charts;
    size_t         ncharts;
    int            write_failed;
    char          *root;       /* the workspace root's path (settings' globs), or NULL */
    json_t        *globs;      /* settings: {"<glob>": "<chart dir>"} (settings.c) */
    int            progress;   /* the client takes window/workDoneProgress */
    long           next_id;    /* of our requests to the client */
} sd_lsp;

/* frame.c: messages out (a failed write sets s->write_failed) */
void sd_lsp__reply(sd_lsp *s, json_t *id, json_t *result /* stolen */);
void sd_lsp__error(sd_lsp *s, json_t *id, int code, const char *msg);
void sd_lsp__notify(sd_lsp *s, const char *method, json_t *params /* stolen */);
/** A request of ours to the client (its answer is not awaited). */
void sd_lsp__request(sd_lsp *s, const char *method, json_t *params /* stolen */);

/* ---- position.c --------------------------------------------------------- */

/** Count the lines of `d` (d->lines) when they are not counted. 0 or SD_ENOMEM. */
int sd_lsp__lines(sd_lsp_doc *d);
/** The byte offset of the LSP position (line, character in `enc` units);
 *  a position past the end of its line is the end of the line, past the
 *  last line the end of the text. */
size_t sd_lsp__offset(sd_lsp_doc *d, long line, long ch, int enc);
/** The LSP position of byte `off`. */
void sd_lsp__position(sd_lsp_doc *d, size_t off, int enc, long *line, long *ch);
/** The byte offset of a model position: 1-based line and column, the
 *  column counted in code points (0: the start of the line). */
size_t sd_lsp__loc_offset(sd_lsp_doc *d, int line, int column);
/** {"start":..., "end":...} of bytes [from, to). New reference. */
json_t *sd_lsp__range(sd_lsp_doc *d, size_t from, size_t to, int enc);
/** The end of what starts at byte `off`, as the library finds it
 *  (tree/span.h; `what`: SD_SPAN_KEY, SD_SPAN_VALUE): a key, a scalar as
 *  written (across lines too), a flow or block collection whole. */
size_t sd_lsp__span_end(sd_lsp_doc *d, size_t off, int what);
/** Forget the index of sd_lsp__span_end() (the text changed). */
void sd_lsp__span_forget(sd_lsp_doc *d);

/* ---- docs.c ------------------------------------------------------------- */

sd_lsp_doc *sd_lsp__doc_find(sd_lsp *s, const char *uri);
/** didOpen, didChange, didClose, didSave: 0, or an error code with `why`. */
int sd_lsp__did_open(sd_lsp *s, json_t *params, sd_lsp_doc **out);
int sd_lsp__did_change(sd_lsp *s, json_t *params);
int sd_lsp__did_close(sd_lsp *s, json_t *params);
void sd_lsp__docs_free(sd_lsp *s);
/** The file path of a file: URI (percent-decoded), or NULL. malloc'd. */
char *sd_lsp__uri_path(const char *uri);
/** The file: URI of an absolute path. malloc'd. */
char *sd_lsp__path_uri(const char *path);
/** A document of the loader (load/json.c reads JSON with positions and
 *  limits, and without the assertion jansson's lexer reaches when an
 *  allocation fails) as jansson values; `depth` 0. A new reference, or
 *  NULL with *oom set. */
json_t *sd_lsp__json_from_node(const sd_node *n, int depth, int *oom);
/** Record an allocation failure (alloc.h) when `err` or a diagnostic of
 *  `dg` is SD_ENOMEM: an answer left incomplete by it is then known. */
void sd_lsp__note_oom(const sd_diags *dg, int err);
/** The document parsed as it is now (d->parsed), or NULL when it does not
 *  parse. Borrowed. */
const sd_node *sd_lsp__doc_root(sd_lsp_doc *d);

/* ---- diagnose.c ---------------------------------------------------------- */

/** Find the chart of `d`: the chart folder it is in, else its modeline
 *  (`# schemadoc: chart=DIR`, `# yaml-language-server: $schema=PATH`),
 *  else the settings' globs (attach.c). */
void sd_lsp__attach(sd_lsp *s, sd_lsp_doc *d);
/** The local copy of a remote schema (`url`), through the source options'
 *  --map prefixes, else the fetcher's cache and --offline rules: a new
 *  path, or NULL with a new sentence in *why (diagnose.c). */
char *sd_lsp__remote_schema(sd_lsp *s, const char *url, char **why);
/** The chart in `dir` (absolute, resolved; a schema's path or URL when
 *  `is_schema`), opened on first use, with $/progress around it.
 *  Borrowed from the server; NULL when out of memory (diagnose.c). */
sd_lsp_chart *sd_lsp__chart_get(sd_lsp *s, const char *dir, int is_schema);
/** Validate `d` and publish its diagnostics. */
void sd_lsp__publish(sd_lsp *s, sd_lsp_doc *d);
/** A file changed on disk (saved, or watched): when it is a file of an
 *  open chart (values.yaml, the schema, Chart.yaml, a template), the chart
 *  is read again and its documents validated again. */
void sd_lsp__file_changed(sd_lsp *s, const char *path);
/** Publish the diagnostics of every document changed since. */
void sd_lsp__publish_dirty(sd_lsp *s);
/** Forget every chart (and detach the documents). */
void sd_lsp__charts_free(sd_lsp *s);

/* ---- settings.c ---------------------------------------------------------- */

/** Take the client's settings: initializationOptions, or the `settings` of
 *  workspace/didChangeConfiguration (`{"schemadoc": {"charts": {...}}}`, or
 *  that inner object; a `schemadoc` without `charts` clears them; null or
 *  settings without either change nothing). 0, or -1 when they are
 *  malformed (kept as they were). */
int sd_lsp__settings(sd_lsp *s, json_t *opts);
/** The workspace root of `initialize` (rootUri, rootPath, the first
 *  workspace folder) into s->root. */
void sd_lsp__root(sd_lsp *s, json_t *params);
/** The chart directory that the settings' globs give `path` (absolute),
 *  as a new string, or NULL. */
char *sd_lsp__settings_chart(sd_lsp *s, const char *path);
/** 1 when `path` matches `glob` (`*` and `?` within a folder name, `**`
 *  any number of folders). */
int sd_lsp__glob(const char *glob, const char *path);
/** The start of a long job as $/progress (a token created first), when
 *  the client takes it: the token is written into `token` (`n` bytes; ""
 *  when nothing was sent) for sd_lsp__progress_end(). */
void sd_lsp__progress_begin(sd_lsp *s, const char *title, const char *msg, char *token, size_t n);
void sd_lsp__progress_end(sd_lsp *s, const char *token);

/* ---- keypath.c ---------------------------------------------------------- */

#define SD_LSP_PATH_MAX 64
/* A values path: its keys ("[3]" for a list item). */
typedef struct sd_lsp_path {
    char *seg[SD_LSP_PATH_MAX];
    int   n;
    int   on_key;    /* the position is on the key, not its value */
} sd_lsp_path;

void sd_lsp__path_release(sd_lsp_path *p);
/** The path of the key (or its scalar value) at byte `off` of the parsed
 *  text. 0, or -1 when the position is on no key (or the text does not parse). */
int sd_lsp__path_at(sd_lsp_doc *d, size_t off, sd_lsp_path *p);
/** The path of the map that a key indented `indent` columns at byte `off`
 *  would belong to, read from the indentation of the lines above. 0 or -1. */
int sd_lsp__parent_at(sd_lsp_doc *d, size_t off, int indent, sd_lsp_path *p);
/** The chart's model as JSON (built on first use; borrowed), or NULL. */
json_t *sd_lsp__model(sd_lsp_chart *c);
/** The model node of `p`, or NULL when the model has none. Borrowed. */
json_t *sd_lsp__model_node(sd_lsp_chart *c, const sd_lsp_path *p);
/** The members (`properties`) of model node `n`, its definition's when it
 *  is a ref. Borrowed; NULL when it has none. */
json_t *sd_lsp__members(sd_lsp_chart *c, json_t *n);

/* ---- the features (each a request of sd_lsp__requests) ------------------ */

json_t *sd_lsp__symbols(sd_lsp *s, json_t *params, int *code, const char **why);   /* symbols.c */
json_t *sd_lsp__hover(sd_lsp *s, json_t *params, int *code, const char **why);     /* hover.c */
json_t *sd_lsp__definition(sd_lsp *s, json_t *params, int *code, const char **why);  /* references.c */
json_t *sd_lsp__complete(sd_lsp *s, json_t *params, int *code, const char **why);  /* complete.c */
json_t *sd_lsp__actions(sd_lsp *s, json_t *params, int *code, const char **why);  /* actions.c */
/** A diagnostic's `data` for the code actions: {"path": instance pointer},
 *  and for a deprecated key whose notice names a key of the same map
 *  that the chart knows, "replacement" (that key). New reference (data.c). */
json_t *sd_lsp__action_data(sd_lsp_chart *c, const char *ptr, const char *keyword, const char *msg);
/** The segments of JSON pointer `ptr` ("/a/b~1c") into `p` (list indexes
 *  as they come: "3"). 0, or -1 (out of memory, too deep) (data.c). */
int sd_lsp__ptr_path(const char *ptr, sd_lsp_path *p);
json_t *sd_lsp__references(sd_lsp *s, json_t *params, int *code, const char **why);  /* references.c */
/** The Locations (a new array) of the template terms that read `p`, or
 *  write a map above it out whole (references.c). */
json_t *sd_lsp__template_locations(sd_lsp *s, sd_lsp_chart *c, const sd_lsp_path *p);
/** Free a chart's templates' reads (references.c). */
void sd_lsp__refs_free(struct sd_lsp_refs *r);
/** The Location where values.yaml sets `p`, else where the schema defines
 *  it; new reference, or NULL (hover.c). */
json_t *sd_lsp__values_location(sd_lsp_chart *c, const sd_lsp_path *p);
/** The open document and the byte offset that `params` name (textDocument,
 *  position); NULL with *code and *why set when there is none (hover.c). */
sd_lsp_doc *sd_lsp__doc_at(sd_lsp *s, json_t *params, size_t *off, int *code, const char **why);

#endif
