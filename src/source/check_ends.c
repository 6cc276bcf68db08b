/* SPDX-License-Identifier: Apache-2.0 */
/* check_ends.c - the ends of a check's findings, at report time: for each
 * finding about a text the run read (a values file, an editor's unsaved
 * buffer, values.yaml), where its key or value ends (tree/span.h), so a
 * caller can underline it whole. Nodes keep only where they start; each
 * text is indexed once, on its first finding. */
#include "check.h"
#include "diag.h"
#include "span.h"

#include <stdlib.h>
#include <string.h>

typedef struct idx {
    const sd_check_text *t;
    sd_span_text             lines;
    int                  state;   /* 0 not indexed, 1 indexed, -1 failed */
} idx;

static const sd_span_text *lines_for(idx *x, size_t n, const char *file)
{
    if (!file)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if (x[i].t->file != file && strcmp(x[i].t->file, file))
            continue;
        if (x[i].state == 0)
            x[i].state = sd_span_text_init(&x[i].lines, x[i].t->text, x[i].t->len) == 0 ? 1 : -1;
        return x[i].state == 1 ? &x[i].lines : NULL;
    }
    return NULL;
}

static void set_ends(idx *x, size_t n, sd_verror *e, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        const sd_span_text *l = lines_for(x, n, e[i].loc.line ? e[i].loc.file : NULL);
        if (l)
            sd_span_end(l, e[i].loc.line, e[i].loc.column, e[i].at_key ? SD_SPAN_KEY : SD_SPAN_VALUE,
                        &e[i].end_line, &e[i].end_column);
    }
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
        const sd_span_text *l = lines_for(x, ntexts, g->loc.line && !g->end_line ? g->loc.file : NULL);
        if (l)
            sd_span_end(l, g->loc.line, g->loc.column, SD_SPAN_TOKEN, &g->end_line, &g->end_column);
    }
    for (size_t i = 0; i < ntexts; i++) {
        if (x[i].state < 0)
            err = SD_ENOMEM;
        if (x[i].state == 1)
            sd_span_text_release(&x[i].lines);
    }
    free(x);
    return err;
}
