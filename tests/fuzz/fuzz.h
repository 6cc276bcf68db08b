/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz.h - shared by the libFuzzer targets (tests/fuzz/fuzz_*.c): split one
 * input into parts, serve parts as in-memory documents, a scratch directory
 * for targets that need files. No target touches the network. */
#ifndef SD_FUZZ_H
#define SD_FUZZ_H

#include "diag.h"
#include "node.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_SEP "\n--8<--\n"   /* separates the parts of one input */
#define FUZZ_MAX_PARTS 4
#define FUZZ_MAX_INPUT (256 * 1024)

typedef struct fuzz_part { const char *p; size_t n; } fuzz_part;

/* Split data at FUZZ_SEP into at most FUZZ_MAX_PARTS parts; returns how many. */
static inline size_t fuzz_split(fuzz_part *parts, const uint8_t *data, size_t size)
{
    const char *p = (const char *)data, *end = p + size;
    size_t n = 0, sl = strlen(FUZZ_SEP);
    while (n < FUZZ_MAX_PARTS - 1) {
        const char *q = NULL;
        for (const char *s = p; s + sl <= end; s++)
            if (*s == '\n' && memcmp(s, FUZZ_SEP, sl) == 0) {
                q = s;
                break;
            }
        if (!q)
            break;
        parts[n].p = p;
        parts[n].n = (size_t)(q - p);
        n++;
        p = q + sl;
    }
    parts[n].p = p;
    parts[n].n = (size_t)(end - p);
    return n + 1;
}

/* A part that looks like JSON is loaded as JSON, else as YAML. */
static inline enum sd_format fuzz_format(const fuzz_part *p)
{
    size_t i = 0;
    while (i < p->n && (p->p[i] == ' ' || p->p[i] == '\n'))
        i++;
    return i < p->n && (p->p[i] == '{' || p->p[i] == '[' || p->p[i] == '"') ? SD_FMT_JSON : SD_FMT_YAML;
}

/* In-memory documents "file:///fuzz/N.json" for the resolver's load callback. */
typedef struct fuzz_docs { sd_doc *doc[FUZZ_MAX_PARTS]; size_t n; } fuzz_docs;

static inline int fuzz_load_cb(void *payload, const char *abs_uri, sd_loc from, const char *ref_text,
                               sd_doc **out, sd_diags *diags)
{
    fuzz_docs *d = payload;
    unsigned k;
    char tail[8];
    (void)ref_text;
    if (sscanf(abs_uri, "file:///fuzz/%u.json%7s", &k, tail) == 1 && k < d->n && d->doc[k]) {
        *out = d->doc[k];
        return 0;
    }
    return sd_diag_error(diags, SD_ENOTFOUND, from, "no such document: %s", abs_uri);
}

static inline void fuzz_docs_load(fuzz_docs *d, const fuzz_part *parts, size_t n, sd_diags *diags)
{
    char name[64];
    memset(d, 0, sizeof *d);
    for (size_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, "/fuzz/%zu.json", i);
        sd_doc_load_mem(&d->doc[i], name, parts[i].p, parts[i].n, fuzz_format(&parts[i]), NULL, diags);
    }
    d->n = n;
}

static inline void fuzz_docs_free(fuzz_docs *d)
{
    for (size_t i = 0; i < d->n; i++)
        sd_doc_free(d->doc[i]);
}

/* Write `n` bytes to `path`; 0 or -1. */
static inline int fuzz_write(const char *path, const char *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    if (n && fwrite(p, 1, n, f) != n) {
        fclose(f);
        return -1;
    }
    return fclose(f);
}

#endif
