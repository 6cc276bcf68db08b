/* SPDX-License-Identifier: Apache-2.0 */
/* gen.c - the schema of a chart's values files (see gen.h): the run over
 * the values files and the choice of reading; the readings are gen_hvsj.c,
 * gen_helmschema.c and gen_native.c, what they build with gen_util.c. */
#include "gen_int.h"
#include "alloc.h"
#include "docset.h"
#include "synth.h"

#include <stdlib.h>
#include <string.h>

/* ---- the run -------------------------------------------------------------- */

/* Remove the "\x01" facts from every map of the tree, and give a wide map
 * its key index (later stages look keys up in it, sd_node_get()). */
static void strip_facts(gen *g, sd_node *s, int depth)
{
    if (!s || depth > 2000 || (s->kind != SD_MAP && s->kind != SD_SEQ))
        return;
    for (uint32_t i = 0; i < s->n;) {
        if (s->kind == SD_MAP && s->items[i].key->str[0] == '\x01') {
            memmove(&s->items[i], &s->items[i + 1], (s->n - i - 1) * sizeof *s->items);
            s->n--;
            s->keyidx = 0;
            continue;
        }
        strip_facts(g, s->items[i].value, depth + 1);
        i++;
    }
    if (s->kind == SD_MAP && s->n > 16 && sd_node__set_items(&g->out->arena, s, s->items, s->n) < 0)
        g->oom = 1;
}

/* Which flavour a values file is written for: helm-values-schema-json
 * parts, else helm-schema blocks, else schemadoc's own, which also reads a
 * file that mixes the two tools' annotations (each tool would ignore the
 * other's). */
static int pick(const sd_atschema *at)
{
    if (at->hvsj && (at->blocks || at->root_block))
        return SD_GEN_NATIVE;
    if (at->hvsj)
        return SD_GEN_HVSJ;
    if (at->blocks || at->root_block)
        return SD_GEN_HELMSCHEMA;
    return SD_GEN_NATIVE;
}

static void release_doc_state(gen *g)
{
    sd_atschema_release(&g->at);
    sd_annots_release(&g->an);
    sd_ckeys_release(&g->ck);
}

/* The root as each reading finishes it ($schema, root options, `global`,
 * closing objects...); `root` may be NULL (no values). */
static sd_node *finish(gen *g, sd_node *root)
{
    if (!root && !(root = sd_gen__map(g)))
        return NULL;
    switch (g->flavour) {
    case SD_GEN_HVSJ:
        /* bundling comes last (the closed objects stay the values' own),
         * called from here: gen_bundle.c reads files through the readings,
         * which the merge must not call back into */
        if ((root = sd_gen__hvsj_finish(g, root)) && g->o->bundle)
            sd_gen__bundle(g, root);
        return root;
    case SD_GEN_HELMSCHEMA: return sd_gen__helmschema_finish(g, root);
    default:                return sd_gen__native_finish(g, root);
    }
}

sd_doc *sd_gen_schema(const sd_doc *const *values, size_t n, const sd_gen_opts *opts, int *flavour,
                      sd_diags *diags)
{
    static const sd_gen_opts none;
    gen g;
    sd_node *root = NULL;

    memset(&g, 0, sizeof g);
    g.o = opts ? opts : &none;
    g.diags = diags;
    g.docs = g.o->docs;
    g.path = (sd_buf)SD_BUF_INIT;
    if (!(g.out = sd_synth_new(n && values[0] ? values[0]->file : "values.yaml"))) {
        sd_alloc_note_failure();
        return NULL;
    }
    g.flavour = g.o->flavour;
    for (size_t i = 0; i < n && !g.oom; i++) {
        sd_node *s = NULL;
        g.values = values[i];
        if (sd_atschema_scan(&g.at, values[i], diags) < 0 || sd_annots_scan(&g.an, values[i], g.o->dialect, diags) < 0 ||
            sd_ckeys_scan(&g.ck, values[i]) < 0) {
            g.oom = 1;
            release_doc_state(&g);
            break;
        }
        if (g.flavour == SD_GEN_AUTO)
            g.flavour = pick(&g.at);
        g.draft = g.o->draft ? g.o->draft : g.flavour == SD_GEN_HELMSCHEMA ? 7 : 2020;
        /* helm-docs descriptions: as asked; else when the file has `# --`
         * lines, except in helm-values-schema-json's exact reading (the
         * tool reads them only with useHelmDocs / --use-helm-docs) */
        g.helm_docs = g.o->helm_docs > 0 ||
                      (g.o->helm_docs == 0 && g.at.helmdocs > 0 && !(g.o->exact && g.flavour == SD_GEN_HVSJ));
        switch (g.flavour) {
        case SD_GEN_HVSJ:       s = sd_gen__hvsj(&g); break;
        case SD_GEN_HELMSCHEMA: s = sd_gen__helmschema(&g); break;
        default:                s = sd_gen__native(&g); break;
        }
        if (s)
            root = root ? sd_gen__hvsj_merge(&g, root, s) : s;
        release_doc_state(&g);
    }
    if (!g.oom && g.flavour == SD_GEN_AUTO)
        g.flavour = SD_GEN_NATIVE;
    if (!g.oom)
        root = finish(&g, root);
    free(g.ptr);
    sd_buf_release(&g.path);
    if (g.own_docs)
        sd_docset_free(g.docs);   /* the synthetic copies own no node of its documents */
    if (g.oom || !root) {
        sd_doc_free(g.out);
        sd_alloc_note_failure();
        return NULL;
    }
    strip_facts(&g, root, 0);
    if (g.oom) {
        sd_doc_free(g.out);
        sd_alloc_note_failure();
        return NULL;
    }
    sd_synth_set_root(g.out, root);
    if (flavour)
        *flavour = g.flavour;
    return g.out;
}
