/* defs.c - node ids and the shared definitions of the model: a schema that
 * is reached by $ref (or listed under $defs / definitions) is documented
 * once, under "definitions", and linked from every node that uses it. */
#include "model_int.h"
#include "buf.h"
#include "ptr.h"

#include <stdlib.h>
#include <string.h>

char *sd_model__unique_id(mctx *c, const char *want)
{
    sd_buf b = SD_BUF_INIT;
    const char *pre = c->id_prefix ? c->id_prefix : "";
    sd_buf_printf(&b, "%s%s", pre, want && *want ? want : "root");
    for (int i = 2; json_object_get(c->ids, b.ptr); i++) {
        sd_buf_clear(&b);
        sd_buf_printf(&b, "%s%s-%d", pre, want && *want ? want : "root", i);
    }
    json_object_set_new(c->ids, b.ptr, json_true());
    return sd_buf_detach(&b);
}

const char *sd_model__def_id(mctx *c, const sd_node *target, const sd_doc *doc, const char *name,
                             const char *pointer)
{
    for (size_t i = 0; i < c->ndefs; i++)
        if (c->defs[i].target == target)
            return c->defs[i].id;
    if (c->ndefs == c->adefs) {
        size_t n = c->adefs ? c->adefs * 2 : 32;
        def_entry *d = realloc(c->defs, n * sizeof *d);
        if (!d)
            return NULL;
        c->defs = d;
        c->adefs = n;
    }
    sd_buf want = SD_BUF_INIT;
    sd_buf_printf(&want, "def-%s", name && *name ? name : "schema");
    def_entry *e = &c->defs[c->ndefs++];
    e->target = target;
    e->doc = doc;
    const char *saved = c->id_prefix;
    c->id_prefix = NULL;
    e->id = sd_model__unique_id(c, want.ptr);
    c->id_prefix = saved;
    e->pointer = strdup(pointer ? pointer : "#");
    e->built = 0;
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
json_t *sd_model__definitions(mctx *c)
{
    json_t *defs = json_array();
    for (size_t i = 0; i < c->ndefs; i++) {
        /* building may register more definitions (and move c->defs) */
        if (c->defs[i].built)
            continue;
        c->defs[i].built = 1;
        const sd_node *target = c->defs[i].target;
        char *id = strdup(c->defs[i].id);
        char *ptr = strdup(c->defs[i].pointer);
        if (!id || !ptr) {
            free(id);
            free(ptr);
            break;
        }
        const char *name = id + 4; /* "def-" */
        const sd_node *saved = c->building;
        mplace at = { name, name, ptr, target, c->defs[i].doc, NULL, NULL, 0 };
        c->building = target;
        c->id_prefix = "def-";
        json_t *n = sd_model__build(c, &at);
        c->id_prefix = NULL;
        c->building = saved;
        free(ptr);
        /* the definition's own id replaces the path-based one */
        json_object_set_new(n, "id", json_string(id));
        json_object_set_new(n, "name", json_string(name));
        free(id);
        json_array_append_new(defs, n);
    }
    return defs;
}

void sd_model__defs_release(mctx *c)
{
    for (size_t i = 0; i < c->ndefs; i++) {
        free(c->defs[i].id);
        free(c->defs[i].pointer);
    }
    free(c->defs);
    c->defs = NULL;
    c->ndefs = c->adefs = 0;
}
