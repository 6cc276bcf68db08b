/* SPDX-License-Identifier: Apache-2.0 */
/* references.c - textDocument/references and textDocument/definition:
 * where values.yaml sets a key (hover.c), and where the chart's templates
 * read it.
 * In: the chart's templates/ (read once per chart, on the first question,
 * by helm/tmplrefs.c, which follows the dot through `with` and `range`,
 * `$` and `$variables`); out: for a key of the open values file, the
 * Location of each term that stands for it (`.Values.a.b`, `.b` under
 * `with .Values.a`, `$r.b` in a range) and of each that writes a map above
 * it out whole (`toYaml .Values.a`, `include "x" .Values.a`). */
#include "lsp_int.h"
#include "alloc.h"
#include "tmplrefs.h"

#include <stdlib.h>
#include <string.h>

/* One term of a template: where it is (positions in the session's
 * encoding) and the nodes of the trie it may be. */
typedef struct tref {
    uint32_t file;
    long     l0, c0, l1, c1;
    uint32_t node[4];
    uint8_t  nnode, use;
} tref;

struct sd_lsp_refs {
    sd_tmplrefs trie;
    char      **uris;    /* of each template file */
    size_t      nuris;
    tref       *refs;
    size_t      nrefs, arefs;
    int         oom;
};

void sd_lsp__refs_free(struct sd_lsp_refs *r)
{
    if (!r)
        return;
    sd_tmplrefs_release(&r->trie);
    for (size_t i = 0; i < r->nuris; i++)
        free(r->uris[i]);
    free(r->uris);
    free(r->refs);
    free(r);
}

typedef struct reading {
    struct sd_lsp_refs *r;
    const char         *dir;    /* the chart's */
    sd_lsp_doc          text;   /* the file's text (borrowed) for positions */
    int                 enc;
} reading;

static int on_action(const sd_tmplact *act, void *payload)
{
    reading *g = payload;
    struct sd_lsp_refs *r = g->r;
    for (size_t i = 0; i < act->nterm; i++) {
        const sd_tmplterm *t = &act->term[i];
        if (sd_grow((void **)&r->refs, &r->arefs, r->nrefs + 1, sizeof *r->refs) < 0)
            return r->oom = 1;
        tref *x = &r->refs[r->nrefs++];
        x->file = (uint32_t)(r->nuris - 1);
        sd_lsp__position(&g->text, t->start, g->enc, &x->l0, &x->c0);
        sd_lsp__position(&g->text, t->end, g->enc, &x->l1, &x->c1);
        x->nnode = (uint8_t)t->nnode;
        memcpy(x->node, t->node, t->nnode * sizeof *t->node);
        x->use = (uint8_t)t->use;
    }
    return 0;
}

static int on_file(const char *rel, const char *text, size_t len, void *payload)
{
    reading *g = payload;
    struct sd_lsp_refs *r = g->r;
    sd_buf p = SD_BUF_INIT;
    char **l = realloc(r->uris, (r->nuris + 1) * sizeof *l);
    if (!l)
        return r->oom = 1, SD_ENOMEM;
    r->uris = l;
    sd_buf_printf(&p, "%s/%s", g->dir, rel);
    if (sd_buf_failed(&p) || !(r->uris[r->nuris] = sd_lsp__path_uri(p.ptr))) {
        sd_buf_release(&p);
        return r->oom = 1, SD_ENOMEM;
    }
    sd_buf_release(&p);
    r->nuris++;
    sd_lsp_doc *d = &g->text;
    d->text.ptr = (char *)text;   /* read only: positions */
    d->text.len = len;
    d->nlines = 0;
    if (sd_tmplrefs__scan_each(&r->trie, text, len, on_action, g) < 0 || r->oom)
        return r->oom = 1, SD_ENOMEM;
    return 0;
}

/* The chart's templates read (on first use). NULL when it has none, or
 * they cannot be read. */
static struct sd_lsp_refs *refs_of(sd_lsp *s, sd_lsp_chart *c)
{
    if (c->refs || c->is_schema)
        return c->refs;
    struct sd_lsp_refs *r = calloc(1, sizeof *r);
    reading g;
    int has = 0;
    if (!r)
        return sd_alloc_note_failure(), NULL;
    r->trie = (sd_tmplrefs)SD_TMPLREFS_INIT;
    memset(&g, 0, sizeof g);
    g.r = r;
    g.enc = s->enc;
    g.dir = c->dir;
    int err = sd_tmplrefs__each_file(c->dir, &has, on_file, &g);
    free(g.text.lines);
    if (err == SD_ENOMEM || r->oom) {
        sd_alloc_note_failure();
        sd_lsp__refs_free(r);
        return NULL;
    }
    return c->refs = r;
}

/* Does node `id` of the trie stand for the values path `p` (1), or for a
 * map above it (2)? "*" matches any key or index. */
static int matches(const sd_tmplrefs *trie, uint32_t id, const sd_lsp_path *p)
{
    const char *seg[SD_LSP_PATH_MAX];
    size_t d = sd_tmplrefs_path(trie, id, seg, SD_LSP_PATH_MAX);
    if (!d || d > SD_LSP_PATH_MAX || d > (size_t)p->n || !strcmp(seg[0], "\x01"))
        return 0;   /* `.Values` itself, or a named template's dot */
    for (size_t i = 0; i < d; i++)
        if (strcmp(seg[i], "*") && (p->seg[i][0] == '[' || strcmp(seg[i], p->seg[i])))
            return 0;
    return d == (size_t)p->n ? 1 : 2;
}

json_t *sd_lsp__template_locations(sd_lsp *s, sd_lsp_chart *c, const sd_lsp_path *p)
{
    struct sd_lsp_refs *r = refs_of(s, c);
    json_t *out = json_array();
    for (size_t i = 0; r && out && i < r->nrefs; i++) {
        const tref *x = &r->refs[i];
        int m = 0;
        for (size_t k = 0; k < x->nnode && m != 1; k++) {
            int h = matches(&r->trie, x->node[k], p);
            if (h == 1 || (h == 2 && (x->use & (SD_TREF_WHOLE | SD_TREF_DUMP))))
                m = h;
        }
        if (!m)
            continue;
        json_array_append_new(out, json_pack("{s:s,s:{s:{s:i,s:i},s:{s:i,s:i}}}", "uri", r->uris[x->file],
                                             "range", "start", "line", (json_int_t)x->l0, "character",
                                             (json_int_t)x->c0, "end", "line", (json_int_t)x->l1,
                                             "character", (json_int_t)x->c1));
    }
    return out;
}

json_t *sd_lsp__references(sd_lsp *s, json_t *params, int *code, const char **why)
{
    size_t off;
    sd_lsp_doc *d = sd_lsp__doc_at(s, params, &off, code, why);
    sd_lsp_path p;
    json_t *out;

    if (!d || !d->chart || sd_lsp__path_at(d, off, &p) < 0)
        return NULL;
    out = sd_lsp__template_locations(s, d->chart, &p);
    if (out && json_is_true(json_object_get(json_object_get(params, "context"), "includeDeclaration"))) {
        json_t *decl = sd_lsp__values_location(d->chart, &p);
        if (decl)
            json_array_insert_new(out, 0, decl);
    }
    sd_lsp__path_release(&p);
    return out;
}

json_t *sd_lsp__definition(sd_lsp *s, json_t *params, int *code, const char **why)
{
    size_t off;
    sd_lsp_doc *d = sd_lsp__doc_at(s, params, &off, code, why);
    sd_lsp_path p;
    json_t *out, *at;

    if (!d || !d->chart || sd_lsp__path_at(d, off, &p) < 0)
        return NULL;
    /* values.yaml's line first, then the templates that read the key */
    out = sd_lsp__template_locations(s, d->chart, &p);
    if (out && (at = sd_lsp__values_location(d->chart, &p)))
        json_array_insert_new(out, 0, at);
    sd_lsp__path_release(&p);
    if (out && !json_array_size(out)) {
        json_decref(out);
        return NULL;
    }
    return out;
}
