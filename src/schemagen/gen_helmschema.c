/* SPDX-License-Identifier: Apache-2.0 */
/* gen_helmschema.c - the helm-schema flavour (gen.h): what dadav/helm-schema
 * makes of a values file.
 *
 * Each key: the keywords of its `# @schema` block; when it has none, the
 * type of its value as yaml.v3 tags it. Then, unless the block gives a
 * `$ref`: the key is required by its parent (unless the block exists or
 * says `required: false`), a map is closed (`additionalProperties: false`
 * unless the block says otherwise), the title is the key, the description
 * the rest of its head comment, a scalar's value its `default` (cast to the
 * type), a map's keys its properties (unless the block lists them) and a
 * list's items `anyOf` the items' schemas. `$ref` to a local JSON file is
 * read in its place; `definitions` go to the root. The root is draft-07,
 * closed, with `global`. Every schema object carries `required` (its list,
 * or []) unless its type is a scalar or array type. */
#include "gen_int.h"
#include "alloc.h"
#include "docset.h"
#include "file.h"
#include "uri.h"
#include "ptr.h"
#include "synth.h"

#include <stdlib.h>
#include <string.h>

/* The keywords helm-schema's Schema struct keeps (and `x-` ones). */
static const char *const kept[] = {
    "additionalProperties", "default", "then", "patternProperties", "properties", "definitions", "if",
    "minimum", "multipleOf", "exclusiveMaximum", "items", "exclusiveMinimum", "maximum", "else", "pattern",
    "const", "$ref", "$schema", "$id", "format", "description", "title", "type", "anyOf", "allOf", "oneOf",
    "not", "examples", "enum", "deprecated", "readOnly", "writeOnly", "required", "minLength", "maxLength",
    "minItems", "maxItems", "uniqueItems", "contains", "additionalItems", "minProperties", "maxProperties",
    "propertyNames", "dependencies", "$comment", "contentEncoding", "contentMediaType", NULL
};
static const char *const sub_one[] = { "then", "if", "else", "items", "not", "contains", "additionalItems",
                                       "propertyNames", NULL };
static const char *const sub_list[] = { "anyOf", "allOf", "oneOf", NULL };
static const char *const sub_map[] = { "properties", "patternProperties", "definitions", NULL };

static int in(const char *k, const char *const *l)
{
    for (; *l; l++)
        if (!strcmp(k, *l))
            return 1;
    return 0;
}

/* A block's YAML as the Schema struct reads it: unknown keywords dropped,
 * `required: true|false` a fact, sub-schemas the same way. */
static sd_node *as_schema(gen *g, const sd_node *y, int depth)
{
    sd_node *s;
    if (!y || y->kind != SD_MAP || depth > 200)
        return y ? sd_gen__copy(g, y) : NULL;
    s = sd_gen__map(g);
    for (uint32_t i = 0; s && i < y->n; i++) {
        const char *k = y->items[i].key->str;
        const sd_node *v = y->items[i].value;
        if (!in(k, kept) && strncmp(k, "x-", 2) != 0)
            continue;
        if (!strcmp(k, "required") && v->kind == SD_BOOL) {
            sd_gen__set_flag(g, s, GEN_REQ, v->num.b);
            continue;
        }
        if (in(k, sub_one) && v->kind == SD_MAP) {
            sd_gen__set(g, s, k, as_schema(g, v, depth + 1));
        } else if (in(k, sub_list) && v->kind == SD_SEQ) {
            sd_node *l = sd_gen__seq(g);
            for (uint32_t j = 0; l && j < v->n; j++)
                if (sd_synth_push(g->out, l, as_schema(g, v->items[j].value, depth + 1)) < 0)
                    g->oom = 1;
            sd_gen__set(g, s, k, l);
        } else if (in(k, sub_map) && v->kind == SD_MAP) {
            sd_node *m = sd_gen__map(g);
            for (uint32_t j = 0; m && j < v->n; j++)
                sd_gen__set(g, m, v->items[j].key->str, as_schema(g, v->items[j].value, depth + 1));
            sd_gen__set(g, s, k, m);
        } else if (!strcmp(k, "type") && v->kind == SD_SEQ) {
            sd_node *l = sd_gen__seq(g);   /* a null in the list is "null" */
            for (uint32_t j = 0; l && j < v->n; j++) {
                const sd_node *t = v->items[j].value;
                if (sd_synth_push(g->out, l, t->kind == SD_NULL ? sd_gen__str(g, "null") : sd_gen__copy(g, t)) < 0)
                    g->oom = 1;
            }
            sd_gen__set(g, s, k, l->n == 1 ? l->items[0].value : l);
        } else if (v->kind == SD_NULL) {
            /* yaml.v3 leaves a field unset for a null */
        } else {
            sd_gen__set(g, s, k, sd_gen__copy(g, v));
        }
    }
    return s;
}

/* The description: helm-docs tags (`@default -- x`, `@section -- x`) and
 * the `-- ` prefix taken out (helm-schema without -x). */
static sd_node *description(gen *g, const char *d)
{
    sd_buf b = SD_BUF_INIT;
    if (!d || !*d)
        return NULL;
    while (*d) {
        const char *e = strchr(d, '\n');
        size_t n = e ? (size_t)(e - d) : strlen(d);
        const char *t = d;
        while (t < d + n && (*t == ' ' || *t == '\t'))
            t++;
        if (!(*t == '@' && t + 1 < d + n && (t[1] == '_' || (t[1] >= 'a' && t[1] <= 'z') ||
                                             (t[1] >= 'A' && t[1] <= 'Z') || (t[1] >= '0' && t[1] <= '9')))) {
            if (b.len)
                sd_buf_putc(&b, '\n');
            if (n >= 2 && d[0] == '-' && d[1] == '-')
                sd_buf_put(&b, d + 2 + (n > 2 && (d[2] == ' ' || d[2] == '\t')), n - 2 - (n > 2 && (d[2] == ' ' || d[2] == '\t')));
            else
                sd_buf_put(&b, d, n);
        }
        d += n + (e != NULL);
    }
    sd_node *r = b.len ? sd_gen__strn(g, b.ptr, b.len) : NULL;
    if (sd_buf_failed(&b))
        g->oom = 1;
    sd_buf_release(&b);
    return r;
}

/* castNodeValueByType: the value's text as the first type that takes it. */
static sd_node *cast_default(gen *g, const sd_node *v, const sd_node *type)
{
    const char *raw = v->kind == SD_NULL && v->style == SD_STYLE_PLAIN && !*v->str ? "" : v->str;
    for (uint32_t i = 0; type && i < (type->kind == SD_SEQ ? type->n : 1); i++) {
        const sd_node *t = type->kind == SD_SEQ ? type->items[i].value : type;
        char *end;
        if (t->kind != SD_STR)
            continue;
        if (!strcmp(t->str, "boolean") && (!strcmp(raw, "true") || !strcmp(raw, "false")))
            return sd_gen__bool(g, raw[0] == 't');
        if (!strcmp(t->str, "integer")) {
            long long n = strtoll(raw, &end, 10);
            if (*raw && !*end)
                return sd_gen__int(g, n);
        }
        if (!strcmp(t->str, "number")) {
            double d = strtod(raw, &end);
            if (*raw && !*end)
                return sd_gen__num(g, d);
        }
    }
    return sd_gen__str(g, raw);
}

const sd_node *sd_gen__ptr_step(const sd_node *n, const char *tok)
{
    if (n->kind == SD_MAP)
        return sd_node_get(n, tok);
    if (n->kind == SD_SEQ) {
        char *end;
        unsigned long i = strtoul(tok, &end, 10);
        return *tok && !*end && i < n->n ? n->items[i].value : NULL;
    }
    return NULL;
}

/* The node at JSON pointer `p` ("/a/0/b") under `n`, or NULL. */
const sd_node *sd_gen__ptr_walk(const sd_node *n, const char *p)
{
    sd_buf tok = SD_BUF_INIT;
    while (n && p && *p == '/') {
        sd_buf_clear(&tok);
        p = sd_ptr_next(&tok, p);
        n = sd_gen__ptr_step(n, tok.ptr);
    }
    sd_buf_release(&tok);
    return p && *p ? NULL : n;
}

/* The documents `$ref`s are read from: the run's (the chart's confinement
 * and its --map prefixes), or a set of the generator's own confined to
 * base_dir. NULL when out of memory (noted). */
sd_docset *sd_gen__docs(gen *g)
{
    if (!g->docs) {
        sd_docset_opts o;
        sd_diags quiet = SD_DIAGS_INIT;
        memset(&o, 0, sizeof o);
        o.chart_root = g->o->base_dir;
        if (sd_docset_new(&g->docs, &o, &quiet) < 0)
            g->oom = 1;
        else
            g->own_docs = 1;
        sd_diags_release(&quiet);
    }
    return g->docs;
}

/* The absolute URI a relative `$ref` names: by a prefix map, else against
 * base_dir (helm-schema reads it beside the values file). NULL when out of
 * memory. */
char *sd_gen__ref_uri(gen *g, sd_docset *ds, const char *ref)
{
    char *uri = NULL, *base = NULL;
    sd_buf dir = SD_BUF_INIT;

    if (sd_docset_map(&uri, ds, ref) < 0)
        return NULL;
    if (uri)
        return uri;
    sd_buf_printf(&dir, "%s/", g->o->base_dir);
    if (!sd_buf_failed(&dir) && sd_uri_from_path(&base, dir.ptr) == 0)
        (void)sd_uri_resolve(&uri, base, ref);
    free(base);
    sd_buf_release(&dir);
    return uri;
}

/* A `$ref` to a JSON file beside the values file: read in place of the
 * schema (with its JSON pointer). 1 when done. The file is read through
 * the docset: a `$ref` leading out of the chart (`../x`, `/etc/x`, a
 * symbolic link) is an error there, and nothing of it is read; a file that
 * is missing or does not load leaves the `$ref` as written, as before. */
static int read_ref(gen *g, sd_node *s, const sd_atann *a)
{
    const sd_node *r = sd_node_get(s, "$ref");
    if (!r || r->kind != SD_STR || !g->o->base_dir || r->str[0] == '#' || strstr(r->str, "://"))
        return 0;
    sd_docset *ds = sd_gen__docs(g);
    char *uri = ds ? sd_gen__ref_uri(g, ds, r->str) : NULL;
    const char *hash;
    sd_diags quiet = SD_DIAGS_INIT;
    sd_doc *d = NULL;
    int done = 0, err;
    if (!uri) {
        g->oom = 1;
        return 0;
    }
    if (!sd_uri_scheme_is(uri, "file")) {   /* a prefix to a URL: the resolver's, later */
        free(uri);
        return 0;
    }
    hash = strchr(uri, '#');
    err = sd_docset_get(&d, ds, uri, a ? a->block_loc : r->loc, r->str, &quiet);
    if (err == SD_EDENIED) {
        size_t n = 0;
        for (size_t i = 0; i < quiet.count; i++)
            if (quiet.items[i].severity == SD_SEV_ERROR && quiet.items[i].message && ++n)
                sd_diag_error(g->diags, SD_EDENIED, quiet.items[i].loc, "%s", quiet.items[i].message);
        if (!n)   /* (the message itself ran out of memory) */
            sd_diag_error(g->diags, SD_EDENIED, r->loc, "$ref '%s' is refused", r->str);
    } else if (err == 0 && d) {
        const sd_node *t = sd_doc_root(d);
        if (hash && hash[1])
            t = sd_gen__ptr_walk(t, hash + 1);
        if (t && t->kind == SD_MAP) {
            sd_node *c = sd_gen__copy(g, t);
            s->n = 0;
            s->keyidx = 0;
            for (uint32_t i = 0; c && i < c->n; i++)
                sd_gen__set(g, s, c->items[i].key->str, c->items[i].value);
            sd_gen__set_flag(g, s, GEN_DATA, 1);
            done = 1;
        } else {
            sd_diag_warning(g->diags, a ? a->block_loc : r->loc, "`$ref: %s`: no schema there; left as written",
                            r->str);
        }
    }
    sd_diags_release(&quiet);
    free(uri);
    return done;
}

/* The block's definitions go to the root's. */
static void hoist_definitions(gen *g, sd_node *s)
{
    sd_node *defs = sd_node_get(s, "definitions"), *rd;
    if (!defs || defs->kind != SD_MAP || !g->root)
        return;
    if (!(rd = sd_node_get(g->root, "definitions"))) {
        rd = sd_gen__map(g);
        sd_gen__set(g, g->root, "definitions", rd);
    }
    for (uint32_t i = 0; rd && i < defs->n; i++) {
        const sd_node *old = sd_node_get(rd, defs->items[i].key->str);
        if (old && !sd_gen__equal(old, defs->items[i].value))
            sd_diag_warning(g->diags, defs->items[i].key->loc, "definition `%s` differs from one written before; "
                            "the first is kept", defs->items[i].key->str);
        else if (!old)
            sd_gen__set(g, rd, defs->items[i].key->str, defs->items[i].value);
    }
    sd_gen__del(s, "definitions");
}

static sd_node *map_schema(gen *g, const sd_node *v, sd_node *req, int depth);

static void add_req(gen *g, sd_node *req, const char *key)
{
    for (uint32_t i = 0; req && i < req->n; i++)
        if (!strcmp(req->items[i].value->str, key))
            return;
    if (req && sd_synth_push(g->out, req, sd_gen__str(g, key)) < 0)
        g->oom = 1;
}

static sd_node *key_schema(gen *g, const sd_pair *p, sd_node *parent_req, int depth)
{
    const sd_node *v = p->value;
    const sd_atann *a = sd_atschema_get(&g->at, p);
    int data = a && a->has_block;
    g->loc = p->key->loc;
    sd_node *s = data && a->block ? as_schema(g, a->block, 0) : sd_gen__map(g);
    sd_node *desc = description(g, a ? a->block_desc : NULL);

    if (!s)
        return NULL;
    g->loc = p->key->loc;
    if (data)
        sd_gen__set_flag(g, s, GEN_DATA, 1);
    if (sd_node_get(s, "$ref") || sd_node_get(s, "patternProperties")) {
        read_ref(g, s, a);
    }
    hoist_definitions(g, s);
    if (!data) {
        sd_gen__set(g, s, "type", sd_gen__str(g, sd_gen__yaml12_type(v)));
        sd_gen__helmdocs_type(g, s, a, v);
    }
    data = sd_gen__flag(s, GEN_DATA);
    if (sd_gen__flag(s, GEN_REQ))
        add_req(g, parent_req, p->key->str);
    if (!sd_node_get(s, "$ref")) {
        const sd_node *r = sd_node_get(s, "required");
        if (!sd_gen__flag(s, GEN_REQ) && !(r && r->kind == SD_SEQ && r->n) && !g->o->skip_required && !data)
            add_req(g, parent_req, p->key->str);
        if (!g->o->skip_additional && v->kind == SD_MAP && (!data || !sd_node_get(s, "additionalProperties")))
            sd_gen__set(g, s, "additionalProperties", sd_gen__bool(g, 0));
        if (!sd_node_get(s, "title") && !g->o->skip_title)
            sd_gen__set(g, s, "title", sd_gen__str(g, p->key->str));
        if (!sd_node_get(s, "description") && !g->o->skip_description && desc)
            sd_gen__set(g, s, "description", desc);
        if (!g->o->skip_default && !sd_node_get(s, "default") && v->kind != SD_MAP && v->kind != SD_SEQ)
            sd_gen__set(g, s, "default", cast_default(g, v, sd_node_get(s, "type")));
        if (v->kind == SD_MAP && !sd_node_get(s, "properties")) {
            sd_node *req = sd_node_get(s, "required");
            if (!req || req->kind != SD_SEQ) {
                req = sd_gen__seq(g);
                sd_gen__set(g, s, "required", req);
            }
            sd_node *m = map_schema(g, v, req, depth + 1);
            const sd_node *pp = sd_node_get(s, "patternProperties");
            sd_node *props = sd_gen__map(g);
            for (uint32_t i = 0; m && props && i < m->n; i++) {
                /* keys a patternProperties pattern takes are left to it (a
                 * pattern is matched as a plain substring or prefix here) */
                int skip = 0;
                for (uint32_t j = 0; pp && pp->kind == SD_MAP && j < pp->n && !skip; j++) {
                    const char *pat = pp->items[j].key->str;
                    size_t pl = strlen(pat);
                    const char *k = m->items[i].key->str;
                    if (pat[0] == '^') {
                        size_t lit = strcspn(pat + 1, ".*+?[](){}|\\$");
                        skip = !strncmp(k, pat + 1, lit);
                    } else {
                        skip = pl && strstr(k, pat) != NULL;
                    }
                }
                if (!skip)
                    sd_gen__set(g, props, m->items[i].key->str, m->items[i].value);
            }
            if (props && props->n)
                sd_gen__set(g, s, "properties", props);
        } else if (v->kind == SD_SEQ && !sd_node_get(s, "items")) {
            sd_node *items = sd_gen__map(g), *any = sd_gen__seq(g);
            for (uint32_t i = 0; items && any && i < v->n && i < GEN_MAX_ITEMS; i++) {
                const sd_node *it = v->items[i].value;
                sd_node *c;
                if (it->kind != SD_MAP && it->kind != SD_SEQ) {
                    c = sd_gen__map(g);
                    sd_gen__set(g, c, "type", sd_gen__str(g, sd_gen__yaml12_type(it)));
                } else {
                    sd_node *req = sd_gen__seq(g);
                    c = sd_gen__map(g);
                    sd_gen__set(g, c, "type", sd_gen__str(g, "object"));
                    if (it->kind == SD_MAP) {
                        sd_node *m = map_schema(g, it, req, depth + 1);
                        if (m && m->n)
                            sd_gen__set(g, c, "properties", m);
                        if (!g->o->skip_additional)
                            sd_gen__set(g, c, "additionalProperties", sd_gen__bool(g, 0));
                    }
                    sd_gen__set(g, c, "required", req);
                }
                if (sd_synth_push(g->out, any, c) < 0)
                    g->oom = 1;
            }
            if (any && any->n)
                sd_gen__set(g, items, "anyOf", any);
            sd_gen__set(g, s, "items", items);
        }
    }
    if (sd_gen__flag(s, GEN_REQ) && !sd_node_get(s, "required"))
        sd_gen__set(g, s, "required", sd_gen__seq(g));
    return s;
}

/* The properties of a map's keys; each required key goes to `req`. */
static sd_node *map_schema(gen *g, const sd_node *v, sd_node *req, int depth)
{
    sd_node *props = sd_gen__map(g);
    if (depth > 1000)
        return props;
    for (uint32_t i = 0; props && i < v->n && !g->oom; i++)
        sd_gen__append(g, props, v->items[i].key->str, key_schema(g, &v->items[i], req, depth));
    return props;
}

sd_node *sd_gen__helmschema(gen *g)
{
    const sd_node *root = sd_doc_root(g->values);
    g->loc = (sd_loc){ g->values->file, 1, 1 };
    sd_node *s = sd_gen__map(g), *req = sd_gen__seq(g);

    if (!s)
        return NULL;
    g->root = s;
    sd_gen__set(g, s, "type", sd_gen__str(g, "object"));
    sd_gen__set(g, s, "required", req);
    if (root && root->kind == SD_MAP) {
        sd_node *props = map_schema(g, root, req, 0);
        if (props && props->n)
            sd_gen__set(g, s, "properties", props);
    }
    if (g->at.root_block) {
        sd_node *rb = as_schema(g, g->at.root_block, 0);
        for (uint32_t i = 0; rb && i < rb->n; i++)
            sd_gen__set(g, s, rb->items[i].key->str, rb->items[i].value);
    }
    return g->oom ? NULL : s;
}

/* Every schema object has `required` (its list or []) unless it is typed
 * as something other than an object. */
static void fix_required(gen *g, sd_node *s, int depth)
{
    if (!s || s->kind != SD_MAP || depth > 1000)
        return;
    const sd_node *t = sd_node_get(s, "type");
    int object = !t || (t->kind == SD_STR && (!strcmp(t->str, "object") || !*t->str));
    for (uint32_t i = 0; t && t->kind == SD_SEQ && i < t->n; i++)
        object |= t->items[i].value->kind == SD_STR && !strcmp(t->items[i].value->str, "object");
    if (t && t->kind == SD_SEQ && !t->n)
        object = 1;
    sd_node *r = sd_node_get(s, "required");
    if (!object)
        sd_gen__del(s, "required");
    else if (!r || r->kind != SD_SEQ)
        sd_gen__set(g, s, "required", sd_gen__seq(g));
    for (uint32_t i = 0; i < s->n; i++) {
        const char *k = s->items[i].key->str;
        sd_node *v = s->items[i].value;
        if (in(k, sub_one))
            fix_required(g, v, depth + 1);
        else if ((in(k, sub_list) || in(k, sub_map)) && (v->kind == SD_SEQ || v->kind == SD_MAP))
            for (uint32_t j = 0; j < v->n; j++)
                fix_required(g, v->items[j].value, depth + 1);
    }
}

sd_node *sd_gen__helmschema_finish(gen *g, sd_node *root)
{
    sd_node *props = sd_node_get(root, "properties");
    if (!g->o->dont_add_global && !sd_node_get(props, "global")) {
        sd_node *gl = sd_gen__map(g);
        sd_gen__set(g, gl, "type", sd_gen__str(g, "object"));
        if (!g->o->skip_title)
            sd_gen__set(g, gl, "title", sd_gen__str(g, "global"));
        if (!g->o->skip_description)
            sd_gen__set(g, gl, "description", sd_gen__str(g, "Global values are values that can be accessed "
                        "from any chart or subchart by exactly the same name."));
        if (!props) {
            props = sd_gen__map(g);
            sd_gen__set(g, root, "properties", props);
        }
        sd_gen__set(g, props, "global", gl);
    }
    if (!g->o->skip_additional && !sd_node_get(root, "additionalProperties"))
        sd_gen__set(g, root, "additionalProperties", sd_gen__bool(g, 0));
    sd_gen__set(g, root, "$schema", sd_gen__str(g, g->draft == 7 || !g->draft ? "http://json-schema.org/draft-07/schema#"
                                                   : g->draft == 2019 ? "https://json-schema.org/draft/2019-09/schema"
                                                   : "https://json-schema.org/draft/2020-12/schema"));
    fix_required(g, root, 0);
    return root;
}

/* ---- dependency charts ------------------------------------------------------ */

/* The schema at the dotted `path` of `s` (through `properties`), or NULL. */
static const sd_node *at_path(const sd_node *s, const char *path)
{
    char seg[256];
    while (s && *path) {
        size_t n = strcspn(path, ".");
        if (n >= sizeof seg)
            return NULL;
        memcpy(seg, path, n);
        seg[n] = '\0';
        s = sd_node_get(sd_node_get(s, "properties"), seg);
        path += n + (path[n] == '.');
    }
    return s;
}

/* The properties map of `s`, made when absent. */
static sd_node *props_of(gen *g, sd_node *s)
{
    sd_node *p = sd_node_get(s, "properties");
    if (!p && (p = sd_gen__map(g)))
        sd_gen__set(g, s, "properties", p);
    return p;
}

int sd_gen_helmschema_dep(sd_doc *parent, const sd_doc *child, const char *name, const char *description,
                          const sd_node *imports)
{
    static const sd_gen_opts none;
    gen g;
    sd_node *root = sd_doc_root(parent);
    const sd_node *croot = sd_doc_root(child);

    memset(&g, 0, sizeof g);
    g.o = &none;
    g.out = parent;
    if (!root || root->kind != SD_MAP || !croot || croot->kind != SD_MAP)
        return 0;
    sd_node *props = props_of(&g, root);
    if (imports && imports->kind == SD_SEQ && imports->n) {
        /* Helm's import-values: `NAME` is the child's exports.NAME, merged
         * at the parent's root; {child: PATH, parent: PATH} the child's
         * PATH under the parent's PATH */
        for (uint32_t i = 0; i < imports->n && !g.oom; i++) {
            const sd_node *iv = imports->items[i].value, *src;
            if (iv->kind == SD_STR) {
                sd_buf p = SD_BUF_INIT;
                sd_buf_printf(&p, "exports.%s", iv->str);
                src = sd_buf_failed(&p) ? NULL : at_path(croot, p.ptr);
                sd_buf_release(&p);
                const sd_node *sp = sd_node_get(src, "properties");
                for (uint32_t j = 0; props && sp && sp->kind == SD_MAP && j < sp->n; j++)
                    sd_gen__set(&g, props, sp->items[j].key->str, sd_gen__copy(&g, sp->items[j].value));
            } else if (iv->kind == SD_MAP) {
                const sd_node *c = sd_node_get(iv, "child"), *pp = sd_node_get(iv, "parent");
                if (!c || c->kind != SD_STR || !pp || pp->kind != SD_STR || !(src = at_path(croot, c->str)))
                    continue;
                /* the parent's path: maps made on the way */
                sd_node *at = root, *m = NULL;
                const char *rest = pp->str;
                char seg[256];
                while (at && *rest) {
                    size_t n = strcspn(rest, ".");
                    if (n >= sizeof seg)
                        break;
                    memcpy(seg, rest, n);
                    seg[n] = '\0';
                    rest += n + (rest[n] == '.');
                    sd_node *ps = props_of(&g, at);
                    if (!*rest) {
                        /* an object of the child's keys (not closed) */
                        const sd_node *sp = sd_node_get(src, "properties"), *sd = sd_node_get(src, "description");
                        m = sd_gen__map(&g);
                        if (sd)
                            sd_gen__set(&g, m, "description", sd_gen__copy(&g, sd));
                        if (sp)
                            sd_gen__set(&g, m, "properties", sd_gen__copy(&g, sp));
                        sd_gen__set(&g, m, "required", sd_gen__seq(&g));
                        sd_gen__set(&g, m, "title", sd_gen__str(&g, seg));
                        sd_gen__set(&g, m, "type", sd_gen__str(&g, "object"));
                        sd_gen__set(&g, ps, seg, m);
                        break;
                    }
                    sd_node *next = sd_node_get(ps, seg);
                    if (!next) {
                        next = sd_gen__map(&g);
                        sd_gen__set(&g, next, "type", sd_gen__str(&g, "object"));
                        sd_gen__set(&g, ps, seg, next);
                    }
                    at = next;
                }
            }
        }
    } else if (props) {
        /* the dependency's values under its name */
        sd_node *d = sd_gen__map(&g);
        const sd_node *cp = sd_node_get(croot, "properties");
        if (description && *description)
            sd_gen__set(&g, d, "description", sd_gen__str(&g, description));
        if (cp)
            sd_gen__set(&g, d, "properties", sd_gen__copy(&g, cp));
        sd_gen__set(&g, d, "required", sd_gen__seq(&g));
        sd_gen__set(&g, d, "title", sd_gen__str(&g, name));
        sd_gen__set(&g, d, "type", sd_gen__str(&g, "object"));
        sd_gen__set(&g, props, name, d);
    }
    if (g.oom) {
        sd_alloc_note_failure();
        return SD_ENOMEM;
    }
    return 0;
}
