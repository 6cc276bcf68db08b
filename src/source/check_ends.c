/* SPDX-License-Identifier: Apache-2.0 */
/* check_ends.c - the ends of a check's findings, at report time: for each
 * finding about a text the run read (a values file, an editor's unsaved
 * buffer, values.yaml), where its key or value ends (tree/span.h), so a
 * caller can underline it whole. Nodes keep only where they start; each
 * text is indexed once, on its first finding. */
#include "check.h"
#include "diag.h"
#include "span.h"
#include "file.h"
#include "alloc.h"

#include <stdlib.h>
#include <string.h>

/* The ends already found, by place (a direct-mapped cache): many findings
 * share one (a `required` error per missing key, all at the map's start),
 * and the end of a large block mapping is a walk over its lines. */
#define MEMO 1024
typedef struct memo { int line, column, what, end_line, end_column; } memo;

typedef struct idx {
    const sd_check_text *t;
    char                *copy;    /* the text read again (sd_check_text.reread) */
    sd_span_text         lines;
    memo                *memo;
    int                  state;   /* 0 not indexed, 1 indexed, -1 failed */
} idx;

static idx *text_for(idx *x, size_t n, const char *file)
{
    if (!file)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if (x[i].t->file != file && strcmp(x[i].t->file, file))
            continue;
        if (x[i].state == 0) {
            const char *text = x[i].t->text;
            size_t len = 0;
            sd_diags quiet = SD_DIAGS_INIT;
            /* (the file as it was read, unless it changed since) */
            int rc = x[i].t->reread ? sd_file_read(&x[i].copy, &len, x[i].t->reread, x[i].t->len, 0, &quiet) : -1;
            if (rc == 0 && len == x[i].t->len)
                text = x[i].copy;
            else if (rc == SD_ENOMEM)
                sd_alloc_note_failure();
            sd_diags_release(&quiet);
            x[i].memo = calloc(MEMO, sizeof *x[i].memo);
            x[i].state = x[i].memo && sd_span_text_init(&x[i].lines, text, x[i].t->len) == 0 ? 1 : -1;
        }
        return x[i].state == 1 ? &x[i] : NULL;
    }
    return NULL;
}

/* The end of what is at line:column of `file` in *el, *ec (0 when the file
 * is none of the texts). */
static void end_of(idx *x, size_t n, const char *file, int line, int column, int what, int *el, int *ec)
{
    idx *t = line ? text_for(x, n, file) : NULL;
    if (!t)
        return;
    memo *m = &t->memo[((unsigned)line * 31u + (unsigned)column * 7u + (unsigned)what) % MEMO];
    if (m->line != line || m->column != column || m->what != what) {
        m->line = line;
        m->column = column;
        m->what = what;
        sd_span_end(&t->lines, line, column, what, &m->end_line, &m->end_column);
    }
    *el = m->end_line;
    *ec = m->end_column;
}

static void set_ends(idx *x, size_t n, sd_verror *e, size_t count)
{
    for (size_t i = 0; i < count; i++)
        end_of(x, n, e[i].loc.file, e[i].loc.line, e[i].loc.column, e[i].at_key ? SD_SPAN_KEY : SD_SPAN_VALUE,
               &e[i].end_line, &e[i].end_column);
}

int sd_check__ends(const sd_check_text *texts, size_t ntexts, sd_vresult *const *res, size_t nres,
                   sd_diags *diags, size_t from)
{
    idx *x = calloc(ntexts ? ntexts : 1, sizeof *x);
    int err = 0;

    if (!x)
        return SD_ENOMEM;
    for (size_t i = 0; i < ntexts; i++)
        x[i].t = &texts[i];
    for (size_t r = 0; r < nres; r++) {
        set_ends(x, ntexts, res[r]->items, res[r]->count);
        set_ends(x, ntexts, res[r]->warnings, res[r]->nwarnings);
    }
    for (size_t i = from; i < diags->count; i++) {
        sd_diag *g = &diags->items[i];
        if (!g->end_line)
            end_of(x, ntexts, g->loc.file, g->loc.line, g->loc.column, SD_SPAN_TOKEN, &g->end_line, &g->end_column);
    }
    for (size_t i = 0; i < ntexts; i++) {
        if (x[i].state < 0)
            err = SD_ENOMEM;
        if (x[i].state == 1)
            sd_span_text_release(&x[i].lines);
        free(x[i].memo);
        free(x[i].copy);
    }
    free(x);
    return err;
}
