/* SPDX-License-Identifier: Apache-2.0 */
/* docset.h - the set of documents of one run, and where they come from.
 *
 * In: absolute URIs (file://, http://, https://) asked for by the resolver,
 * a chart root, prefix maps (the chart's schema-dependencies.json and the
 * command line's --map). Out: loaded sd_doc trees, each URI loaded at most
 * once per run and freed with the set, or a diagnostic at the referring
 * $ref saying what was tried.
 *
 * The resolver's side of the contract, for each $ref:
 *   1. sd_docset_map(): a mapped prefix turns the ref into an absolute URI;
 *   2. otherwise it resolves the ref against its base (RFC 3986 §5.2) and
 *      looks in its own $id/$anchor index;
 *   3. a document it does not have yet comes from sd_docset_get() (or the
 *      callback sd_docset_load_cb(), same thing).
 *
 * Confinement (when a chart root is set): a file reached from the chart must
 * lie inside the chart directory, lexically and after following symbolic
 * links (realpath), or else inside a directory named by a --map target. A
 * document fetched over http(s) may never refer to a local file. Outside
 * files are refused before they are opened. */
#ifndef SD_DOCSET_H
#define SD_DOCSET_H

#include "diag.h"
#include "fetch.h"
#include "node.h"
#include "sd.h"

#define SD_CHART_DEPS_FILE "schema-dependencies.json"

typedef struct sd_docset sd_docset;

/** Options of one run; zero values are defaults. */
typedef struct sd_docset_opts {
    const char *chart_root;       /* chart directory: confinement and
                                     schema-dependencies.json; NULL: none */
    sd_fetch_opts fetch;          /* cache_dir, offline, refresh, timeouts, and
                                     max_size, which caps local files too */
    const sd_load_limits *limits; /* depth and node limits; NULL: defaults */
} sd_docset_opts;

/** Make an empty set. `opts` is copied (strings too). Fails with SD_ENOMEM,
 *  or SD_ENOTFOUND when the chart root is not a directory (reported in
 *  `diags`). Free with sd_docset_free(), which frees every document. */
int sd_docset_new(sd_docset **out, const sd_docset_opts *opts, sd_diags *diags);
void sd_docset_free(sd_docset *set);

/** Read `<chart root>/schema-dependencies.json` if there is one (no file is
 *  not an error): a JSON object from a prefix to a target, which is either a
 *  path relative to the chart directory or an http(s) URL. Errors name the
 *  file, line and column: SD_ESYNTAX (not JSON, not an object, empty prefix,
 *  target not a string), SD_EDENIED (absolute path, a path leaving the
 *  chart, another scheme, or the file itself reached through a symbolic
 *  link leading out of the chart). */
int sd_docset_read_chart_map(sd_docset *set, sd_diags *diags);

/** Add a map from the command line, "PREFIX=TARGET" (split at the first
 *  '='): TARGET is a local path (relative to the current directory), or an
 *  http, https or file URL. User maps are not confined: files under the
 *  target's directory may be read even when they are outside the chart.
 *  Returns 0 or SD_EUSAGE (reported), SD_ENOMEM. */
int sd_docset_add_map(sd_docset *set, const char *spec, sd_diags *diags);

/** Apply the prefix maps to the text of a $ref. When `ref` starts with a
 *  mapped prefix (the longest one wins; at equal length a --map beats the
 *  chart's file), the prefix is replaced by the target and *out is the
 *  resulting absolute URI (dot segments removed, fragment kept); when the
 *  target ends with '/' and the rest starts with '/', one slash is dropped.
 *  When no prefix matches, *out is NULL and the resolver goes on with
 *  RFC 3986 resolution against its base. *out is freed by the caller.
 *  Returns 0 or SD_ENOMEM. */
int sd_docset_map(char **out, const sd_docset *set, const char *ref);

/** The document at absolute URI `abs_uri` (fragment ignored), loading it
 *  on first use: file URIs from disk (confined as above), http(s) URIs
 *  through the fetcher and its cache. *out is borrowed: the set owns it.
 *  A failure is reported at `from`, the position of the $ref whose text is
 *  `ref_text` (NULL when there is no $ref, e.g. the root document), and is
 *  remembered: asking again reports again without a second attempt.
 *  Returns 0, SD_ENOTFOUND, SD_EDENIED, SD_ELIMIT, SD_EIO, SD_EREF (a
 *  scheme that cannot be loaded), SD_ESYNTAX (the document does not parse;
 *  its own position is in the error, a note points at `from`), SD_ENOMEM. */
int sd_docset_get(sd_doc **out, sd_docset *set, const char *abs_uri, sd_loc from,
                  const char *ref_text, sd_diags *diags);

/** The loader callback the resolver is handed: sd_docset_get() with the set
 *  passed as `payload`. */
typedef int (*sd_doc_load_fn)(void *payload, const char *abs_uri, sd_loc from,
                              const char *ref_text, sd_doc **out, sd_diags *diags);
int sd_docset_load_cb(void *set, const char *abs_uri, sd_loc from, const char *ref_text,
                      sd_doc **out, sd_diags *diags);

/** Hand a document loaded elsewhere (e.g. the root schema) to the set under
 *  `abs_uri`, so that refs back into it find it. On success the set owns
 *  `doc`; on failure (SD_EDUP: the URI is taken, SD_ENOMEM) the caller
 *  still does. */
int sd_docset_adopt(sd_docset *set, const char *abs_uri, sd_doc *doc);

/** The normalised URI (no fragment) a document of the set was loaded
 *  under, or NULL. Borrowed: valid until sd_docset_free(). This is the
 *  document's retrieval URI, the base for its relative refs (§5.1.3). */
const char *sd_docset_uri(const sd_docset *set, const sd_doc *doc);

/** The chart directory as a file URI ending in '/', or NULL. Borrowed. */
const char *sd_docset_chart_uri(const sd_docset *set);

/** Documents loaded or adopted so far. */
size_t sd_docset_count(const sd_docset *set);

/** The fetcher (for its statistics). Borrowed. */
sd_fetch *sd_docset_fetcher(sd_docset *set);

#endif
