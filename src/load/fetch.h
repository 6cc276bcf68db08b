/* SPDX-License-Identifier: Apache-2.0 */
/* fetch.h - http(s) documents through libcurl, with an on-disk cache.
 *
 * In: absolute http or https URLs (no fragment). Out: the bytes of the
 * document, or an error code with a sentence saying what happened (HTTP
 * status, timeout, too large, scheme refused, not cached in offline mode).
 * Every transfer is limited: http and https only, also after a redirect,
 * at most 5 redirects, TLS peers verified, connect and total timeouts, a
 * size cap enforced while the body arrives, no credentials. */
#ifndef SD_FETCH_H
#define SD_FETCH_H

#include "buf.h"
#include "diag.h"
#include "sd.h"

#include <stddef.h>

#define SD_FETCH_CONNECT_TIMEOUT_MS 10000L
#define SD_FETCH_TIMEOUT_MS         30000L
#define SD_FETCH_MAX_SIZE           ((size_t)16 << 20)
#define SD_FETCH_MAX_REDIRECTS      5

/** Options; zero values mean the defaults above. */
typedef struct sd_fetch_opts {
    const char *cache_dir;     /* NULL: $XDG_CACHE_HOME/schemadoc, else ~/.cache/schemadoc */
    int    no_cache;           /* neither read nor write the cache */
    int    offline;            /* never touch the network: the cache or an error */
    int    refresh;            /* ignore cached copies, fetch again and update the cache */
    long   connect_timeout_ms; /* per request */
    long   timeout_ms;         /* per request, the whole transfer */
    size_t max_size;           /* body bytes */
    int    max_redirects;      /* -1: none followed */
} sd_fetch_opts;

typedef struct sd_fetch sd_fetch;

/** A fetcher: one curl handle (connections are reused), the options and a
 *  request counter. `opts` is copied, its strings too; NULL means defaults.
 *  Free with sd_fetch_free(). Returns 0, SD_ENOMEM or SD_ERROR (libcurl
 *  could not start). */
int sd_fetch_new(sd_fetch **out, const sd_fetch_opts *opts);
void sd_fetch_free(sd_fetch *f);

/** Get the document at `url` into `body` (cleared first; a NUL follows the
 *  bytes). Uses the cache as the options say. On failure returns SD_EDENIED
 *  (scheme or credentials refused), SD_ENOTFOUND (HTTP 404 or 410, or not
 *  cached in offline mode), SD_ELIMIT (timeout, size cap, too many
 *  redirects) or SD_EIO (anything else), and writes one sentence naming the
 *  URL and the problem into `why`, e.g. "cannot fetch 'http://h/x.json':
 *  HTTP 404". A cache that cannot be written is not a failure: the sentence
 *  goes into `warning` (when not NULL) and the call succeeds. */
int sd_fetch_get(sd_buf *body, sd_fetch *f, const char *url, sd_buf *why,
                 sd_buf *warning);

/** The same, reporting the problem as an error at `from` in `diags`.
 *  *out is a new NUL-terminated string the caller frees. */
int sd_fetch_url(char **out, size_t *out_len, sd_fetch *f, const char *url,
                 sd_loc from, sd_diags *diags);

/** The cache directory in use (borrowed), or NULL when there is none. */
const char *sd_fetch_cache_dir(const sd_fetch *f);

/** The cache file that holds `url` (fragment ignored, URL normalised), into `out`. Returns 0, SD_ENOMEM, or
 *  SD_ENOTFOUND when there is no cache directory. */
int sd_fetch_cache_path(sd_buf *out, const sd_fetch *f, const char *url);

/** How many network requests this fetcher started (redirects included). */
unsigned long sd_fetch_requests(const sd_fetch *f);

#endif
