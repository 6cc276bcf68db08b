/* SPDX-License-Identifier: Apache-2.0 */
/* defs.c - node ids and the shared definitions of the model: a schema that
 * is reached by $ref (or listed under $defs / definitions) is documented
 * once, under "definitions", and linked from every node that uses it. */
#include "model_int.h"
#include "alloc.h"
#include "buf.h"
#include "ptr.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* b = its first `base` bytes and "-i" */
static void with_suffix(sd_buf *b, size_t base, sd_val_int i)
{
    char num[24];
    snprintf(num, sizeof num, "-%lld", (long long)i);
    sd_buf_truncate(b, base);
    sd_buf_puts(b, num);
}

sd_val *sd_model__unique_id_val(mctx *c, const char *want)
{
    sd_buf b = SD_BUF_INIT;
    sd_val *seen, *id;
    const char *text = want && *want ? want : "root";
    size_t len = strlen(text);

    /* most names are free: the id is the name as given, no buffer */
    if (c->id_prefix || sd_val_object_getn(c->ids, text, len)) {
        size_t base;
        sd_buf_puts(&b, c->id_prefix ? c->id_prefix : "");
        sd_buf_put(&b, text, len);
        base = b.len;
        if (!sd_buf_failed(&b) && (seen = sd_val_object_get(c->ids, b.ptr))) {
            /* taken: the first free "-N", N from 2. A taken name remembers
             * where its last search ended (ids are never given back), so n
             * look-alike names cost n lookups, not n * n / 2. */
            sd_val_int i = sd_val_is_integer(seen) ? sd_val_integer_value(seen) : 2;
            for (with_suffix(&b, base, i); !sd_buf_failed(&b) && sd_val_object_get(c->ids, b.ptr);
                 with_suffix(&b, base, ++i))
                ;
            if (!sd_buf_failed(&b)) {
                b.ptr[base] = '\0';
                sd_val_object_set_new(c->ids, b.ptr, sd_val_integer(i + 1));
                b.ptr[base] = '-';
            }
        }
        if (sd_buf_failed(&b)) {
            sd_buf_release(&b);
            sd_alloc_note_failure();
            return NULL;
        }
        text = b.ptr;
        len = b.len;
    }
    /* the set of ids is keyed by each id's own bytes (no copy) */
    id = sd_val_stringn_unique(text, len);
    sd_buf_release(&b);
    if (id && sd_val_object_set_new_strkey(c->ids, id, sd_val_true()) < 0)
        sd_alloc_note_failure();
    return id;
}

char *sd_model__unique_id(mctx *c, const char *want)
{
    sd_val *id = sd_model__unique_id_val(c, want);
    char *s = id ? strdup(sd_val_string_value(id)) : NULL;
    if (id && !s)
        sd_alloc_note_failure();
    sd_val_decref(id);
    return s;
}

static size_t ptr_hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33;
    return (size_t)x;
}

/* The slot of `target` in the definitions index (its entry, or the empty
 * slot where it goes). */
static size_t def_slot(const mctx *c, const sd_node *target)
{
    size_t j = ptr_hash(target) & (c->defcap - 1);
    while (c->defidx[j] && c->defs[c->defidx[j] - 1].target != target)
        j = (j + 1) & (c->defcap - 1);
    return j;
}

/* Keep the index at most half full: rebuild it twice as large. */
static int def_index_grow(mctx *c)
{
    size_t cap = c->defcap ? c->defcap * 2 : 64;
    uint32_t *old = c->defidx;
    if (!(c->defidx = calloc(cap, sizeof *c->defidx))) {
        c->defidx = old;
        return SD_ENOMEM;
    }
    free(old);
    c->defcap = cap;
    for (size_t i = 0; i < c->ndefs; i++)
        c->defidx[def_slot(c, c->defs[i].target)] = (uint32_t)i + 1;
    return 0;
}

const char *sd_model__def_id(mctx *c, const sd_node *target, const sd_doc *doc, const char *name,
                             const char *pointer)
{
    size_t slot;

    if ((c->ndefs + 1) * 2 > c->defcap && def_index_grow(c) < 0)
        return NULL;
    slot = def_slot(c, target);
    if (c->defidx[slot])
        return c->defs[c->defidx[slot] - 1].id;
    if (sd_grow((void **)&c->defs, &c->adefs, c->ndefs + 1, sizeof *c->defs) < 0)
        return NULL;
    sd_buf want = SD_BUF_INIT;
    sd_buf_printf(&want, "def-%s", name && *name ? name : "schema");
    def_entry *e = &c->defs[c->ndefs++];
    e->target = target;
    e->doc = doc;
    const char *saved = c->id_prefix;
    c->id_prefix = NULL;
    e->id = sd_model__unique_id(c, want.ptr);
    c->id_prefix = saved;
    if (!(e->pointer = strdup(pointer ? pointer : "#")))
        sd_alloc_note_failure();
    e->name = NULL;
    if (e->id && strcmp(e->id, want.ptr) != 0) {
        /* the name is taken: say where this one is rather than number it */
        sd_buf q = SD_BUF_INIT;
        const char *f = doc && doc->file ? doc->file : "", *base = strrchr(f, '/');
        const char *ptr = pointer ? pointer : "#";
        sd_buf_printf(&q, "%s (%s%s)", name && *name ? name : "schema", base ? base + 1 : f,
                      strchr(ptr, '#') ? strchr(ptr, '#') : ptr);
        e->name = sd_buf_detach(&q);
    }
    e->built = 0;
    c->defidx[slot] = (uint32_t)c->ndefs;
    sd_buf_release(&want);
    return e->id;
}

/* Register the definitions/$defs of a schema so that they are listed even
 * when nothing refers to them. */
void sd_model__register_defs(mctx *c, const sd_doc *doc)
{
    const sd_node *root = sd_doc_root(doc);
    static const char *const kws[] = { "$defs", "definitions", NULL };
    sd_buf p = SD_BUF_INIT;

    for (const char *const *k = kws; *k; k++) {
        const sd_node *d = sd_node_get(root, *k);
        if (!d || d->kind != SD_MAP)
            continue;
        for (size_t i = 0; i < d->n; i++) {
            const sd_node *key = d->items[i].key;
            sd_buf_clear(&p);
            sd_buf_printf(&p, "#/%s", *k);
            sd_ptr_push(&p, key->str, key->len);
            sd_model__def_id(c, d->items[i].value, doc, key->str, p.ptr);
        }
    }
    sd_buf_release(&p);
}

/* Build every registered definition (building may register more). */
sd_val *sd_model__definitions(mctx *c)
{
    sd_val *defs = sd_val_array();
    for (size_t i = 0; i < c->ndefs; i++) {
        /* building may register more definitions (and move c->defs) */
        if (c->defs[i].built)
            continue;
        c->defs[i].built = 1;
        const sd_node *target = c->defs[i].target;
        char *id = c->defs[i].id ? strdup(c->defs[i].id) : NULL;
        char *ptr = c->defs[i].pointer ? strdup(c->defs[i].pointer) : NULL;
        char *shown = c->defs[i].name ? strdup(c->defs[i].name) : NULL;
        if (!id || !ptr || (c->defs[i].name && !shown)) {
            free(id);
            free(ptr);
            free(shown);
            sd_alloc_note_failure();
            break;
        }
        const char *name = id + 4; /* "def-" */
        const sd_node *saved = c->building;
        mplace at = { name, name, ptr, target, c->defs[i].doc, NULL, NULL, 0 };
        /* a definition's path is its name, not a values path: the comments
         * of a values key that happens to share it are not its own */
        sd_annots *saved_an = c->annots;
        c->annots = NULL;
        c->building = target;
        c->id_prefix = "def-";
        sd_val *n = sd_model__build(c, &at);
        c->id_prefix = NULL;
        c->building = saved;
        c->annots = saved_an;
        free(ptr);
        /* the definition's own id replaces the path-based one */
        sd_val_object_set_new_nocheck(n, "id", sd_val_string(id));
        sd_val_object_set_new_nocheck(n, "name", sd_val_string(shown ? shown : name));
        free(shown);
        free(id);
        sd_val_array_append_new(defs, n);
    }
    return defs;
}

void sd_model__defs_release(mctx *c)
{
    for (size_t i = 0; i < c->ndefs; i++) {
        free(c->defs[i].id);
        free(c->defs[i].pointer);
        free(c->defs[i].name);
    }
    free(c->defs);
    free(c->defidx);
    c->defs = NULL;
    c->defidx = NULL;
    c->ndefs = c->adefs = c->defcap = 0;
}
