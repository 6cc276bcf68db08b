/* infer.c - values -> a JSON Schema that accepts them (see infer.h). */
#include "infer.h"
#include "buf.h"
#include "synth.h"

#include <string.h>

static sd_node *infer(sd_doc *out, const sd_node *v, const sd_annots *a, sd_buf *path, int depth)
{
    sd_node *s = sd_synth_map(out, v->loc);
    const char *t = v->kind == SD_NULL ? NULL : sd_node_type_word(v);
    size_t base = path->len;

    if (!s)
        return NULL;
    if (t && sd_synth_set(out, s, "type", sd_synth_str(out, v->loc, t)))
        return NULL;
    if (a && a->dialect && path->len) {
        const sd_annot *an = sd_annots_get(a, path->ptr);
        if (!an && a->dialect == SD_DIALECT_HELMDOCS)
            an = sd_annots_get_old(a, path->ptr);
        if (an && an->description && *an->description &&
            sd_synth_set(out, s, "description", sd_synth_str(out, v->loc, an->description)))
            return NULL;
    }
    if (depth > 200)
        return s;
    if (v->kind == SD_MAP && v->n) {
        sd_node *props = sd_synth_map(out, v->loc);
        if (!props || sd_synth_set(out, s, "properties", props))
            return NULL;
        for (size_t i = 0; i < v->n; i++) {
            sd_buf_truncate(path, base);
            sd_annot_path_push(path, v->items[i].key->str, v->items[i].key->len);
            sd_node *c = infer(out, v->items[i].value, a, path, depth + 1);
            if (!c || sd_synth_set(out, props, v->items[i].key->str, c))
                return NULL;
        }
    } else if (v->kind == SD_SEQ && v->n) {
        sd_buf_truncate(path, base);
        sd_buf_puts(path, "[0]");
        sd_node *c = infer(out, v->items[0].value, a, path, depth + 1);
        if (!c || sd_synth_set(out, s, "items", c))
            return NULL;
    }
    sd_buf_truncate(path, base);
    return s;
}

sd_doc *sd_infer_schema(const sd_doc *values, const sd_annots *a, int draft)
{
    sd_buf name = SD_BUF_INIT, path = SD_BUF_INIT;
    const sd_node *root = values ? sd_doc_root(values) : NULL;
    sd_loc top = { values ? values->file : "values.yaml", 1, 1 };

    sd_buf_printf(&name, "%s", values ? values->file : "values.yaml");
    sd_doc *out = sd_synth_new(name.ptr);
    sd_buf_release(&name);
    if (!out)
        return NULL;
    sd_node *s = root ? infer(out, root, a, &path, 0) : sd_synth_map(out, top);
    sd_buf_release(&path);
    if (!s) {
        sd_doc_free(out);
        return NULL;
    }
    if (!root || root->kind == SD_NULL)
        sd_synth_set(out, s, "type", sd_synth_str(out, top, "object"));
    /* $schema first, as people write it */
    sd_node *withs = sd_synth_map(out, top);
    if (!withs || sd_synth_set(out, withs, "$schema", sd_synth_str(out, top, draft == 7
            ? "http://json-schema.org/draft-07/schema#" : "https://json-schema.org/draft/2020-12/schema"))) {
        sd_doc_free(out);
        return NULL;
    }
    for (size_t i = 0; i < s->n; i++)
        if (sd_synth_set(out, withs, s->items[i].key->str, s->items[i].value)) {
            sd_doc_free(out);
            return NULL;
        }
    sd_synth_set_root(out, withs);
    return out;
}
