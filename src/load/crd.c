/* SPDX-License-Identifier: Apache-2.0 */
/* crd.c - the layout of CustomResourceDefinitions (see crd.h). */
#include "crd.h"
#include "buf.h"

#include <stdlib.h>
#include <string.h>

int sd_crd_is(const sd_node *root)
{
    const char *k = sd_node_str(sd_node_get(root, "kind"));
    return k && !strcmp(k, "CustomResourceDefinition");
}

int sd_doc_has_crd(const sd_doc *doc)
{
    for (size_t i = 0; i < doc->nroots; i++)
        if (sd_crd_is(doc->roots[i].node))
            return 1;
    return 0;
}

static int bool_member(const sd_node *v, const char *key, int absent)
{
    const sd_node *t = sd_node_get(v, key);
    if (!t)
        return absent;
    return t->kind == SD_BOOL && t->num.b;
}

static int read_one(sd_crd *crd, const sd_node *r, size_t docidx)
{
    const sd_node *spec = sd_node_get(r, "spec");
    const sd_node *vs = sd_node_get(spec, "versions");
    const sd_node *shared = sd_node_get(sd_node_get(spec, "validation"), "openAPIV3Schema");
    size_t nv = vs && vs->kind == SD_SEQ ? vs->n : 0;
    sd_buf ptr = SD_BUF_INIT;

    memset(crd, 0, sizeof *crd);
    crd->root = r;
    crd->docidx = docidx;
    crd->group = sd_node_str(sd_node_get(spec, "group"));
    crd->kind = sd_node_str(sd_node_get(sd_node_get(spec, "names"), "kind"));
    if (!(crd->versions = calloc(nv ? nv : 1, sizeof *crd->versions)))
        return SD_ENOMEM;
    crd->nversions = nv ? nv : 1;
    for (size_t i = 0; i < crd->nversions; i++) {
        sd_crd_version *v = &crd->versions[i];
        const sd_node *vn = nv ? vs->items[i].value : NULL;
        const sd_node *schema = vn ? sd_node_get(sd_node_get(vn, "schema"), "openAPIV3Schema") : NULL;
        sd_buf_clear(&ptr);
        if (schema)
            sd_buf_printf(&ptr, "#/%zu/spec/versions/%zu/schema/openAPIV3Schema", docidx, i);
        else if ((schema = shared))
            sd_buf_printf(&ptr, "#/%zu/spec/validation/openAPIV3Schema", docidx);
        v->node = vn;
        v->name = vn ? sd_node_get(vn, "name") : sd_node_get(spec, "version");
        v->schema = schema;
        v->served = vn ? bool_member(vn, "served", 1) : 1;
        v->storage = vn ? bool_member(vn, "storage", 0) : 1;
        v->deprecated = vn ? bool_member(vn, "deprecated", 0) : 0;
        if (schema && !(v->schema_ptr = sd_buf_detach(&ptr)))
            return SD_ENOMEM;
    }
    sd_buf_release(&ptr);
    return 0;
}

int sd_crds_read(sd_crds *out, const sd_doc *doc)
{
    size_t n = 0;

    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < doc->nroots; i++)
        n += sd_crd_is(doc->roots[i].node);
    if (!n)
        return 0;
    if (!(out->items = calloc(n, sizeof *out->items)))
        return SD_ENOMEM;
    for (size_t i = 0; i < doc->nroots; i++) {
        if (!sd_crd_is(doc->roots[i].node))
            continue;
        if (read_one(&out->items[out->n++], doc->roots[i].node, i) < 0) {
            sd_crds_release(out);
            return SD_ENOMEM;
        }
    }
    return 0;
}

void sd_crds_release(sd_crds *c)
{
    for (size_t i = 0; i < c->n; i++) {
        for (size_t k = 0; k < c->items[i].nversions; k++)
            free(c->items[i].versions[k].schema_ptr);
        free(c->items[i].versions);
    }
    free(c->items);
    memset(c, 0, sizeof *c);
}

const sd_crd_version *sd_crds_for(const sd_crds *c, const sd_node *instance,
                                  const sd_crd **crd_out)
{
    const char *api = sd_node_str(sd_node_get(instance, "apiVersion"));
    const char *kind = sd_node_str(sd_node_get(instance, "kind"));
    const sd_crd_version *fallback = NULL;
    const sd_crd *fcrd = NULL;

    for (size_t i = 0; i < c->n; i++) {
        const sd_crd *crd = &c->items[i];
        int kind_ok = !kind || !crd->kind || !strcmp(kind, crd->kind);
        for (size_t k = 0; k < crd->nversions; k++) {
            const sd_crd_version *v = &crd->versions[k];
            const char *name = sd_node_str(v->name);
            if (v->node && api && crd->group && name && kind_ok) {
                size_t gl = strlen(crd->group);
                if (!strncmp(api, crd->group, gl) && api[gl] == '/' && !strcmp(api + gl + 1, name)) {
                    if (crd_out)
                        *crd_out = crd;
                    return v;
                }
            }
            if (!fallback || (v->node && v->storage)) {
                fallback = v;
                fcrd = crd;
            }
        }
    }
    if (crd_out)
        *crd_out = fcrd;
    return fallback;
}
