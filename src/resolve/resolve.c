/* SPDX-License-Identifier: Apache-2.0 */
/* resolve.c - point every $ref at its target; cycles are linked, never
 * followed, so a recursive schema is a finite graph.
 *
 * In: schema documents (sd_doc trees). Out: an index from absolute URIs
 * (resources by $id, anchors as URI#name) to nodes, a per-node info record
 * (base URI, draft, JSON pointer), and sd_resolver_resolve(), which turns
 * the text of a $ref into the node it names: RFC 3986 resolution against
 * the base in force, then a resource lookup (loading unknown documents
 * through the caller's callback), then a JSON pointer (RFC 6901, with
 * percent-decoding per RFC 3986 §2.1) or an anchor. Indexing is iterative,
 * so deep schemas cannot overflow the stack. */
#include "resolve.h"
#include "pmap.h"
#include "alloc.h"
#include "buf.h"
#include "ptr.h"
#include "uri.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- small hash maps ---------------------------------------------------- */

typedef struct smap_slot { char *key; void *val; uint64_t h; } smap_slot;
typedef struct smap { smap_slot *s; size_t n, cap; } smap;   /* string -> ptr */

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static void **smap_find(smap *m, const char *key)
{
    uint64_t h;
    size_t i;
    if (!m->cap)
        return NULL;
    h = hash_str(key);
    for (i = h & (m->cap - 1); m->s[i].key; i = (i + 1) & (m->cap - 1))
        if (m->s[i].h == h && strcmp(m->s[i].key, key) == 0)
            return &m->s[i].val;
    return NULL;
}

static int smap_put(smap *m, const char *key, void *val)
{
    void **v = smap_find(m, key);
    uint64_t h;
    size_t i;
    if (v) { *v = val; return 0; }
    if ((m->n + 1) * 2 > m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 64;
        smap_slot *ns = calloc(nc, sizeof *ns);
        if (!ns)
            return SD_ENOMEM;
        for (i = 0; i < m->cap; i++) {
            if (!m->s[i].key)
                continue;
            size_t j = m->s[i].h & (nc - 1);
            while (ns[j].key)
                j = (j + 1) & (nc - 1);
            ns[j] = m->s[i];
        }
        free(m->s);
        m->s = ns;
        m->cap = nc;
    }
    h = hash_str(key);
    for (i = h & (m->cap - 1); m->s[i].key; i = (i + 1) & (m->cap - 1))
        ;
    if (!(m->s[i].key = strdup(key)))
        return SD_ENOMEM;
    m->s[i].h = h;
    m->s[i].val = val;
    m->n++;
    return 0;
}

static void smap_free(smap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->s[i].key);
    free(m->s);
}

/* sd_pmap (pmap.h) holds pointers as words */
static void *pmap_get(const sd_pmap *m, const void *key)
{
    uintptr_t *v = sd_pmap_get(m, key);
    return v ? (void *)*v : NULL;
}

static int pmap_put(sd_pmap *m, const void *key, void *val)
{
    return sd_pmap_put(m, key, (uintptr_t)val);
}

/* ---- drafts --------------------------------------------------------------- */

int sd_draft_from_uri(const char *uri)
{
    static const struct { const char *pfx; int d; } t[] = {
        { "http://json-schema.org/draft-04/schema", SD_DRAFT_4 },
        { "https://json-schema.org/draft-04/schema", SD_DRAFT_4 },
        { "http://json-schema.org/draft-06/schema", SD_DRAFT_6 },
        { "https://json-schema.org/draft-06/schema", SD_DRAFT_6 },
        { "http://json-schema.org/draft-07/schema", SD_DRAFT_7 },
        { "https://json-schema.org/draft-07/schema", SD_DRAFT_7 },
        { "https://json-schema.org/draft/2019-09/schema", SD_DRAFT_2019 },
        { "http://json-schema.org/draft/2019-09/schema", SD_DRAFT_2019 },
        { "https://json-schema.org/draft/2020-12/schema", SD_DRAFT_2020 },
        { "http://json-schema.org/draft/2020-12/schema", SD_DRAFT_2020 },
        /* "the latest draft", common in Helm charts: read as 2020-12, as
         * Helm 4's validator (santhosh-tekuri/jsonschema v6) does */
        { "http://json-schema.org/schema", SD_DRAFT_2020 },
        { "https://json-schema.org/schema", SD_DRAFT_2020 },
    };
    size_t n;
    if (!uri)
        return SD_DRAFT_UNKNOWN;
    n = strlen(uri);
    if (n && uri[n - 1] == '#')
        n--;
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        if (strlen(t[i].pfx) == n && memcmp(t[i].pfx, uri, n) == 0)
            return t[i].d;
    return SD_DRAFT_UNKNOWN;
}

int sd_draft_from_name(const char *s)
{
    if (!s)
        return SD_DRAFT_UNKNOWN;
    if (strncmp(s, "draft", 5) == 0)
        s += 5 + (s[5] == '-');
    if (!strcmp(s, "4") || !strcmp(s, "04")) return SD_DRAFT_4;
    if (!strcmp(s, "6") || !strcmp(s, "06")) return SD_DRAFT_6;
    if (!strcmp(s, "7") || !strcmp(s, "07")) return SD_DRAFT_7;
    if (!strcmp(s, "2019-09") || !strcmp(s, "2019")) return SD_DRAFT_2019;
    if (!strcmp(s, "2020-12") || !strcmp(s, "2020")) return SD_DRAFT_2020;
    return SD_DRAFT_UNKNOWN;
}

const char *sd_draft_name(int d)
{
    switch (d) {
    case SD_DRAFT_4: return "draft-04";
    case SD_DRAFT_6: return "draft-06";
    case SD_DRAFT_7: return "draft-07";
    case SD_DRAFT_2019: return "2019-09";
    case SD_DRAFT_2020: return "2020-12";
    default: return "unknown";
    }
}

/* ---- the resolver --------------------------------------------------------- */

struct sd_resolver {
    sd_resolve_opts opts;
    sd_arena arena;      /* infos, base URIs, pointers */
    smap     uris;       /* absolute URI (no fragment) or URI#anchor -> sd_schema_info */
    sd_pmap  infos;      /* sd_node* -> sd_schema_info */
    sd_doc **owned;      /* meta-schemas loaded from memory */
    size_t   nowned;
    sd_pmap  keyidx;     /* big map node -> keyidx, for JSON pointer steps */
    sd_buf   scratch;    /* reused while building pointers */
};

/* A hash index over the keys of one large map, so that a pointer step into
 * a map of 50,000 definitions is not a linear scan each time. */
typedef struct keyidx { size_t cap; uint32_t *slot; } keyidx;

sd_resolver *sd_resolver_new(const sd_resolve_opts *opts)
{
    sd_resolver *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    sd_buf_init(&r->scratch, 0);
    if (opts)
        r->opts = *opts;
    if (!r->opts.draft)
        r->opts.draft = SD_DRAFT_2020;
    return r;
}

void sd_resolver_free(sd_resolver *r)
{
    if (!r)
        return;
    sd_buf_release(&r->scratch);
    smap_free(&r->uris);
    sd_pmap_release(&r->infos);
    for (size_t i = 0; i < r->keyidx.cap; i++) {
        keyidx *k = (keyidx *)r->keyidx.s[i].v;
        if (k) {
            free(k->slot);
            free(k);
        }
    }
    sd_pmap_release(&r->keyidx);
    for (size_t i = 0; i < r->nowned; i++)
        sd_doc_free(r->owned[i]);
    free(r->owned);
    sd_arena_release(&r->arena);
    free(r);
}

sd_schema_info *sd_resolver_info(sd_resolver *r, const sd_node *node)
{
    return pmap_get(&r->infos, node);
}

sd_schema_info *sd_resolver_lookup(sd_resolver *r, const char *abs_uri)
{
    void **v = smap_find(&r->uris, abs_uri);
    return v ? *v : NULL;
}

void sd_resolver_each(sd_resolver *r, void (*fn)(sd_schema_info *info, void *payload),
                      void *payload)
{
    /* callbacks may index more documents: walk a snapshot */
    size_t n = r->infos.cap, k = 0;
    sd_schema_info **snap = malloc((r->infos.n + 1) * sizeof *snap);
    if (!snap)
        return;
    for (size_t i = 0; i < n; i++)
        if (r->infos.s[i].k)
            snap[k++] = (sd_schema_info *)r->infos.s[i].v;
    for (size_t i = 0; i < k; i++)
        fn(snap[i], payload);
    free(snap);
}

typedef struct iframe {
    const sd_node *node;
    const char *base;    /* arena */
    const char *ptr;     /* arena: set for the subtree's root only */
    const sd_schema_info *parent;   /* the others: parent + one step */
    const char *kw, *key;
    size_t keylen;
    long idx;
    int draft;
    int is_root;
} iframe;

typedef struct istack { iframe *f; size_t n, cap; } istack;

static int ipush(istack *s, const sd_node *node, const char *base, const char *ptr, int draft)
{
    if (sd_grow((void **)&s->f, &s->cap, s->n + 1, sizeof *s->f) < 0)
        return SD_ENOMEM;
    memset(&s->f[s->n], 0, sizeof s->f[s->n]);
    s->f[s->n].node = node;
    s->f[s->n].base = base;
    s->f[s->n].ptr = ptr;
    s->f[s->n].draft = draft;
    s->f[s->n].idx = -1;
    s->n++;
    return 0;
}

static const char *child_ptr(sd_resolver *r, const char *ptr, const char *kw,
                             const char *seg, size_t seglen, long idx);

/* Push a child schema of `parent` reached by keyword `kw` (and a map key or
 * an array index): its pointer is built only if someone asks for it. */
static int ipush_child(istack *s, const sd_node *node, const char *base, int draft,
                       const sd_schema_info *parent, const char *kw, const char *key,
                       size_t keylen, long idx)
{
    int err = ipush(s, node, base, NULL, draft);
    if (err)
        return err;
    iframe *f = &s->f[s->n - 1];
    f->parent = parent;
    f->kw = kw;
    f->key = key;
    f->keylen = keylen;
    f->idx = idx;
    return 0;
}

const char *sd_schema_ptr(sd_resolver *r, sd_schema_info *info)
{
    if (!info)
        return NULL;
    if (info->ptr)
        return info->ptr;
    const char *pp = info->parent ? sd_schema_ptr(r, (sd_schema_info *)(uintptr_t)info->parent) : "#";
    if (!pp)
        return NULL;
    info->ptr = child_ptr(r, pp, info->seg_kw, info->seg_key, info->seg_keylen, info->seg_idx);
    return info->ptr;
}

static const char *adup(sd_resolver *r, const char *s, size_t n)
{
    return sd_arena_strndup(&r->arena, s, n);
}

static const char *child_ptr(sd_resolver *r, const char *ptr, const char *kw,
                             const char *seg, size_t seglen, long idx)
{
    sd_buf *b = &r->scratch;   /* one buffer for the whole walk */
    sd_buf_clear(b);
    sd_buf_puts(b, ptr);
    sd_ptr_push(b, kw, strlen(kw));
    if (seg) {
        sd_ptr_push(b, seg, seglen);
    } else if (idx >= 0) {
        sd_buf_putc(b, '/');
        sd_buf_put_int(b, idx);
    }
    return sd_buf_failed(b) ? NULL : adup(r, b->ptr, b->len);
}

/* Register `uri` (exact text) for `info` unless already taken. */
static int reg(sd_resolver *r, const char *uri, sd_schema_info *info)
{
    if (smap_find(&r->uris, uri))
        return 0;  /* first one wins; duplicates are the schema's problem */
    return smap_put(&r->uris, uri, info);
}

/* Every keyword whose value holds subschemas starts with one of these
 * characters: most keys of a schema (type, description, ...) are rejected
 * by one table lookup instead of a row of strcmp. */
static int may_hold_schema(const char *k)
{
    switch (k[0]) {
    case 'a': case 'c': case 'd': case 'e': case 'i': case 'n': case 'o':
    case 'p': case 't': case 'u': case '$':
        return 1;
    default:
        return 0;
    }
}

static int is_schema_kw_single(const char *k, int d)
{
    static const char *const all[] = { "not", "additionalProperties", "items", NULL };
    static const char *const d6[] = { "propertyNames", "contains", NULL };
    static const char *const d7[] = { "if", "then", "else", NULL };
    static const char *const d19[] = { "unevaluatedItems", "unevaluatedProperties",
                                       "contentSchema", NULL };
    const char *const *t;
    for (t = all; *t; t++) if (!strcmp(k, *t)) return 1;
    if (d <= SD_DRAFT_2019 && !strcmp(k, "additionalItems")) return 1;
    if (d >= SD_DRAFT_6) for (t = d6; *t; t++) if (!strcmp(k, *t)) return 1;
    if (d >= SD_DRAFT_7) for (t = d7; *t; t++) if (!strcmp(k, *t)) return 1;
    if (d >= SD_DRAFT_2019) for (t = d19; *t; t++) if (!strcmp(k, *t)) return 1;
    return 0;
}

static int is_schema_kw_array(const char *k, int d)
{
    if (!strcmp(k, "allOf") || !strcmp(k, "anyOf") || !strcmp(k, "oneOf"))
        return 1;
    if (d <= SD_DRAFT_2019 && !strcmp(k, "items"))
        return 1;
    if (d >= SD_DRAFT_2020 && !strcmp(k, "prefixItems"))
        return 1;
    return 0;
}

static int is_schema_kw_map(const char *k, int d)
{
    if (!strcmp(k, "properties") || !strcmp(k, "patternProperties") || !strcmp(k, "definitions"))
        return 1;
    if (d >= SD_DRAFT_2019 && (!strcmp(k, "$defs") || !strcmp(k, "dependentSchemas")))
        return 1;
    if (!strcmp(k, "dependencies"))
        return 1;   /* schema-valued entries only; arrays are skipped below */
    return 0;
}

int sd_resolve__subschemas(const char *k, int draft)
{
    return (is_schema_kw_single(k, draft) ? SD_SUB_ONE : 0) | (is_schema_kw_array(k, draft) ? SD_SUB_LIST : 0) |
           (is_schema_kw_map(k, draft) ? SD_SUB_MAP : 0);
}

static int is_schema_value(const sd_node *n)
{
    return n && (n->kind == SD_MAP || n->kind == SD_BOOL);
}

/* 1 if `n` has a key the index must look at ($schema, $id, $ref, the
 * anchors, draft 4's id): most schema nodes have none, and one pass over
 * the keys is cheaper than seven lookups. */
static int has_core_keyword(const sd_node *n)
{
    for (size_t i = 0; i < n->n; i++) {
        const sd_node *k = n->items[i].key;
        if (k->str[0] == '$' || (k->len == 2 && k->str[0] == 'i' && k->str[1] == 'd'))
            return 1;
    }
    return 0;
}

/* Index the subtree at `root` (iteratively). */
static int index_tree(sd_resolver *r, const sd_doc *doc, const sd_node *root,
                      const char *base, const char *ptr, int draft, int doc_root)
{
    istack st = { NULL, 0, 0 };
    sd_buf tmp = SD_BUF_INIT;
    int err = 0;

    if ((err = ipush(&st, root, base, ptr, draft)) < 0)
        return err;
    st.f[0].is_root = doc_root;
    while (st.n && !err) {
        iframe f = st.f[--st.n];
        const sd_node *n = f.node;
        sd_schema_info *info;
        int d = f.draft, has_ref = 0, is_res = f.is_root;
        const char *b = f.base;

        if (pmap_get(&r->infos, n))
            continue;   /* reached twice (YAML aliases): indexed already */
        if (!(info = sd_arena_alloc(&r->arena, sizeof *info))) {
            err = SD_ENOMEM;
            break;
        }
        if (n->kind == SD_MAP && has_core_keyword(n)) {
            const sd_node *sch = sd_node_get(n, "$schema");
            const sd_node *id;
            if (sch && sch->kind == SD_STR) {
                int sd_ = sd_draft_from_uri(sch->str);
                const sd_node *idn = sd_node_get(n, "$id");
                if (!idn)
                    idn = sd_node_get(n, "id");
                if (sd_ && (f.is_root || idn))
                    d = sd_;
            }
            has_ref = d <= SD_DRAFT_7 && sd_node_get(n, "$ref") != NULL;
            id = sd_node_get(n, d == SD_DRAFT_4 ? "id" : "$id");
            if (id && id->kind == SD_STR && !has_ref) {
                if (d <= SD_DRAFT_7 && id->str[0] == '#') {
                    /* drafts 4-7: "$id": "#foo" is a location-independent anchor */
                    sd_buf_clear(&tmp);
                    sd_buf_printf(&tmp, "%s%s", b, id->str);
                    if ((err = reg(r, tmp.ptr, info)) < 0)
                        break;
                } else {
                    char *abs = NULL, *hash;
                    if (sd_uri_resolve(&abs, b, id->str) < 0) { err = SD_ENOMEM; break; }
                    hash = strchr(abs, '#');
                    if (hash && hash[1] && d <= SD_DRAFT_7) {
                        if ((err = reg(r, abs, info)) < 0) { free(abs); break; }
                    }
                    if (hash)
                        *hash = '\0';
                    b = adup(r, abs, strlen(abs));
                    free(abs);
                    if (!b) { err = SD_ENOMEM; break; }
                    is_res = 1;
                }
            }
            if (d >= SD_DRAFT_2019) {
                const sd_node *a = sd_node_get(n, "$anchor");
                if (a && a->kind == SD_STR) {
                    sd_buf_clear(&tmp);
                    sd_buf_printf(&tmp, "%s#%s", b, a->str);
                    if ((err = reg(r, tmp.ptr, info)) < 0)
                        break;
                }
                a = sd_node_get(n, "$dynamicAnchor");
                if (d >= SD_DRAFT_2020 && a && a->kind == SD_STR) {
                    sd_buf_clear(&tmp);
                    sd_buf_printf(&tmp, "%s#%s", b, a->str);
                    if ((err = reg(r, tmp.ptr, info)) < 0)
                        break;
                    info->dyn_anchor = a->str;
                }
                a = sd_node_get(n, "$recursiveAnchor");
                if (d == SD_DRAFT_2019 && a && a->kind == SD_BOOL && a->num.b)
                    info->rec_anchor = 1;
            }
        }
        info->node = n;
        info->doc = doc;
        info->base = b;
        info->ptr = f.ptr;
        info->parent = f.parent;
        info->seg_kw = f.kw;
        info->seg_key = f.key;
        info->seg_keylen = f.keylen;
        info->seg_idx = f.idx;
        info->draft = d;
        info->is_resource = is_res;
        if ((err = pmap_put(&r->infos, n, info)) < 0)
            break;
        if (is_res && (err = reg(r, b, info)) < 0)
            break;
        if (n->kind != SD_MAP)
            continue;
        /* children, pushed in reverse so that they are indexed in order */
        for (size_t i = n->n; i-- > 0;) {
            const sd_node *kn = n->items[i].key, *v = n->items[i].value;
            const char *k = kn->str;
            if (!may_hold_schema(k) || v->kind == SD_STR || v->kind == SD_INT)
                continue;
            int sub = sd_resolve__subschemas(k, d);
            if ((sub & SD_SUB_ONE) && is_schema_value(v)) {
                if ((err = ipush_child(&st, v, b, d, info, k, NULL, 0, -1)) < 0)
                    break;
            } else if ((sub & SD_SUB_LIST) && v->kind == SD_SEQ) {
                for (size_t j = v->n; j-- > 0;) {
                    if (!is_schema_value(v->items[j].value))
                        continue;
                    if ((err = ipush_child(&st, v->items[j].value, b, d, info, k, NULL, 0, (long)j)) < 0)
                        break;
                }
            } else if ((sub & SD_SUB_MAP) && v->kind == SD_MAP) {
                for (size_t j = v->n; j-- > 0;) {
                    const sd_pair *pp = &v->items[j];
                    if (!is_schema_value(pp->value))
                        continue;
                    if ((err = ipush_child(&st, pp->value, b, d, info, k, pp->key->str, pp->key->len, -1)) < 0)
                        break;
                }
            }
            if (err)
                break;
        }
    }
    free(st.f);
    sd_buf_release(&tmp);
    return err;
}

int sd_resolver_add(sd_resolver *r, const sd_doc *doc, const sd_node *root,
                    const char *base, int draft, sd_diags *diags)
{
    char *own = NULL;
    const char *b;
    int err;

    if (!root)
        return 0;
    if (!base) {
        if (sd_uri_from_path(&own, doc && doc->file ? doc->file : "schema.json") == 0)
            base = own;
    }
    if (!base || !(b = adup(r, base, strcspn(base, "#")))) {
        free(own);
        sd_loc l = { doc ? doc->file : NULL, 0, 0 };
        return sd_diag_error(diags, SD_ENOMEM, l, "out of memory");
    }
    free(own);
    if (!draft)
        draft = r->opts.draft;
    if ((err = index_tree(r, doc, root, b, "#", draft, 1)) < 0) {
        sd_loc l = { doc ? doc->file : NULL, 0, 0 };
        return sd_diag_error(diags, err, l, "out of memory while indexing the schema");
    }
    return 0;
}

static int add_owned(sd_resolver *r, sd_doc *doc)
{
    sd_doc **p = realloc(r->owned, (r->nowned + 1) * sizeof *p);
    if (!p)
        return SD_ENOMEM;
    r->owned = p;
    r->owned[r->nowned++] = doc;
    return 0;
}

/* The resource registered for `uri`, loading it when needed. Returns 0 with
 * *out set, or an error code with the reason (for the caller's message) in
 * `why`. */
static int find_resource(sd_resolver *r, sd_schema_info **out, const char *uri,
                         const char *ref, sd_loc loc, int draft, sd_buf *why, int *verbatim)
{
    void **v = smap_find(&r->uris, uri);
    int err;

    *out = NULL;
    if (v) {
        *out = *v;
        return 0;
    }
    for (const sd_metaschema *m = sd_metaschemas; m->uri; m++) {
        sd_diags tmp = SD_DIAGS_INIT;
        sd_doc *doc;
        if (strcmp(m->uri, uri) != 0)
            continue;
        err = sd_doc_load_mem(&doc, m->uri, m->json, (size_t)m->len, SD_FMT_JSON, NULL, &tmp);
        sd_diags_release(&tmp);
        if (err < 0 || (err = add_owned(r, doc)) < 0) {
            if (err == SD_ENOMEM)
                sd_doc_free(doc);
            sd_buf_puts(why, "built-in meta-schema failed to load");
            return err;
        }
        if ((err = index_tree(r, doc, sd_doc_root(doc), adup(r, uri, strlen(uri)), "#",
                              sd_draft_from_uri(uri) ? sd_draft_from_uri(uri) : SD_DRAFT_2020, 1)) < 0)
            return err;
        goto again;
    }
    if (!r->opts.load) {
        sd_buf_printf(why, "no schema has the URI '%s' and no loader is configured", uri);
        return SD_EREF;
    }
    {
        sd_diags tmp = SD_DIAGS_INIT;
        sd_doc *doc = NULL;
        err = r->opts.load(r->opts.payload, uri, loc, ref, &doc, &tmp);
        if ((err < 0 || !doc) && tmp.count && tmp.items[0].message &&
            !strncmp(tmp.items[0].message, "$ref '", 6) && tmp.items[0].loc.line == loc.line &&
            tmp.items[0].loc.column == loc.column) {
            /* the loader said what went wrong with this $ref: say it as it is */
            sd_buf_puts(why, tmp.items[0].message);
            *verbatim = 1;
            sd_diags_release(&tmp);
            return err < 0 ? err : SD_EREF;
        }
        if (err < 0 || !doc) {
            sd_buf_printf(why, "loading '%s' failed", uri);
            if (tmp.count && tmp.items[0].message) {
                sd_buf_puts(why, ": ");
                const sd_loc *dl = &tmp.items[0].loc;
                if (dl->file && dl->line && !(loc.file && !strcmp(dl->file, loc.file) &&
                                              dl->line == loc.line && dl->column == loc.column)) {
                    sd_buf_printf(why, "%s:%d:%d: ", tmp.items[0].loc.file,
                                  tmp.items[0].loc.line, tmp.items[0].loc.column);
                }
                sd_buf_puts(why, tmp.items[0].message);
            }
            sd_diags_release(&tmp);
            return err < 0 ? err : SD_EREF;
        }
        sd_diags_release(&tmp);
        if (!sd_doc_root(doc)) {   /* an empty file, or only comments */
            sd_buf_printf(why, "'%s' holds no document", uri);
            return SD_EREF;
        }
        if (!pmap_get(&r->infos, sd_doc_root(doc))) {
            const char *b = adup(r, uri, strlen(uri));
            /* a document without $schema is read in the dialect of the
             * schema that refers to it */
            if (!b || (err = index_tree(r, doc, sd_doc_root(doc), b, "#", draft ? draft : r->opts.draft, 1)) < 0)
                return SD_ENOMEM;
        }
        /* a document whose $id differs from the URI it was fetched by is
         * still known by that URI (the retrieval URI) */
        if (!smap_find(&r->uris, uri)) {
            sd_schema_info *ri = pmap_get(&r->infos, sd_doc_root(doc));
            if (ri && (err = smap_put(&r->uris, uri, ri)) < 0)
                return err;
        }
    }
again:
    v = smap_find(&r->uris, uri);
    if (!v) {
        sd_buf_printf(why, "no schema has the URI '%s'", uri);
        return SD_EREF;
    }
    *out = *v;
    return 0;
}

static uint64_t hash_mem(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

static const sd_node *map_lookup(sd_resolver *r, const sd_node *map, const char *k, size_t kl)
{
    keyidx *ix;
    if (map->n <= 32 || !(ix = pmap_get(&r->keyidx, map))) {
        if (map->n > 32 && (ix = calloc(1, sizeof *ix))) {
            size_t cap = 64;
            while (cap < map->n * 2)
                cap *= 2;
            if (!(ix->slot = calloc(cap, sizeof *ix->slot)) || pmap_put(&r->keyidx, map, ix) < 0) {
                free(ix->slot);
                free(ix);
                ix = NULL;
            } else {
                ix->cap = cap;
                for (size_t i = 0; i < map->n; i++) {
                    size_t j = hash_mem(map->items[i].key->str, map->items[i].key->len) & (cap - 1);
                    while (ix->slot[j])
                        j = (j + 1) & (cap - 1);
                    ix->slot[j] = (uint32_t)i + 1;
                }
            }
        }
        if (!ix) {
            for (size_t i = 0; i < map->n; i++) {
                const sd_node *kn = map->items[i].key;
                if (kn->len == kl && memcmp(kn->str, k, kl) == 0)
                    return map->items[i].value;
            }
            return NULL;
        }
    }
    for (size_t j = hash_mem(k, kl) & (ix->cap - 1); ix->slot[j]; j = (j + 1) & (ix->cap - 1)) {
        const sd_node *kn = map->items[ix->slot[j] - 1].key;
        if (kn->len == kl && memcmp(kn->str, k, kl) == 0)
            return map->items[ix->slot[j] - 1].value;
    }
    return NULL;
}

/* Walk a decoded JSON pointer from `node`. On failure says which segment in `why`. */
static const sd_node *walk_pointer(sd_resolver *r, const sd_node *node, const char *ptr, sd_buf *why)
{
    const char *p = ptr;
    sd_buf seg = SD_BUF_INIT;

    while (*p == '/' && node) {
        const char *q = sd_ptr_next(&seg, p++);
        const sd_node *next = NULL;
        if (node->kind == SD_MAP) {
            next = map_lookup(r, node, seg.ptr, seg.len);
        } else if (node->kind == SD_SEQ) {
            char *end;
            unsigned long ix;
            if (seg.len && isdigit((unsigned char)seg.ptr[0]) && !(seg.ptr[0] == '0' && seg.len > 1)) {
                ix = strtoul(seg.ptr, &end, 10);
                if (*end == '\0' && ix < node->n)
                    next = node->items[ix].value;
            }
        }
        if (!next) {
            sd_buf_printf(why, "'#%.*s' has no %s '%s'", (int)(p - 1 - ptr), ptr,
                          node->kind == SD_MAP ? "key" : node->kind == SD_SEQ ? "item" : "member (not an object)",
                          seg.ptr);
            sd_buf_release(&seg);
            return NULL;
        }
        node = next;
        p = q;
    }
    sd_buf_release(&seg);
    return node;
}

int sd_resolver_ref_uri(sd_resolver *r, char **out, const sd_node *from, const char *ref)
{
    sd_schema_info *fi = pmap_get(&r->infos, from);
    char *mapped = NULL, *hash;
    int err;

    *out = NULL;
    /* A resource the schemas embed (an `$id` known to the index) is known
     * before any prefix map is asked: `--map http://localhost:1234/=DIR`
     * must not send `http://localhost:1234/nested.json` to DIR when a
     * subschema says `"$id": "nested.json"` under that base. */
    if (r->opts.map && (err = sd_uri_resolve(out, fi ? fi->base : "", ref)) == 0) {
        if ((hash = strchr(*out, '#')))
            *hash = '\0';
        int known = smap_find(&r->uris, *out) != NULL;
        if (hash)
            *hash = '#';
        if (known)
            return 0;
        free(*out);
        *out = NULL;
    }
    if (r->opts.map && (mapped = r->opts.map(r->opts.payload, ref)))
        ref = mapped;
    err = sd_uri_resolve(out, fi ? fi->base : "", ref);
    free(mapped);
    return err;
}

int sd_resolver_resolve(sd_resolver *r, const sd_schema_info **out,
                        const sd_node *from, const char *ref, sd_loc loc,
                        sd_diags *diags)
{
    sd_schema_info *fi = pmap_get(&r->infos, from), *res = NULL, *ti;
    char *abs = NULL, *hash;
    const char *frag = NULL;
    sd_buf why = SD_BUF_INIT, dec = SD_BUF_INIT;
    int err = 0, verbatim = 0;

    *out = NULL;
    if (sd_resolver_ref_uri(r, &abs, from, ref) < 0) {
        err = sd_diag_error(diags, SD_ENOMEM, loc, "out of memory");
        goto done;
    }
    if ((hash = strchr(abs, '#'))) {
        *hash = '\0';
        frag = hash + 1;
    }
    if ((err = find_resource(r, &res, abs, ref, loc, fi ? fi->draft : 0, &why, &verbatim)) < 0)
        goto fail;
    if (!frag || !*frag) {
        ti = res;
    } else if (frag[0] == '/') {
        const sd_node *t;
        sd_uri_pct_decode_append(&dec, frag, strlen(frag));
        if (!(t = walk_pointer(r, res->node, dec.ptr, &why))) {
            sd_buf_printf(&why, " in %s", res->doc && res->doc->file ? res->doc->file : abs);
            err = SD_EREF;
            goto fail;
        }
        if (!(ti = pmap_get(&r->infos, t))) {
            /* not a place the index walked (an unknown keyword): index it
             * now, with the base and draft of the resource it sits in */
            const char *p = adup(r, frag - 1, strlen(frag) + 1);
            if (!p || (err = index_tree(r, res->doc, t, res->base, p, res->draft, 0)) < 0 ||
                !(ti = pmap_get(&r->infos, t))) {
                err = sd_diag_error(diags, SD_ENOMEM, loc, "out of memory");
                goto done;
            }
        }
    } else {
        void **v;
        sd_buf_printf(&dec, "%s#", abs);
        sd_uri_pct_decode_append(&dec, frag, strlen(frag));
        if (!(v = smap_find(&r->uris, dec.ptr))) {
            sd_buf_printf(&why, "no anchor '%s' in %s", frag, res->doc && res->doc->file ? res->doc->file : abs);
            err = SD_EREF;
            goto fail;
        }
        ti = *v;
    }
    *out = ti;
    goto done;
fail:
    if (hash)
        *hash = '#';
    if (!verbatim && err != SD_ENOMEM)
        err = SD_EREF;
    {
        /* where the $ref is written, for the message's [schema ...] part */
        sd_buf sp = SD_BUF_INIT;
        const char *fp = fi ? sd_schema_ptr(r, fi) : NULL;
        if (fp) {
            sd_buf_puts(&sp, fp);
            sd_ptr_push(&sp, "$ref", 4);
        }
        if (verbatim) {
            sd_diag_add(diags, SD_SEV_ERROR, err, loc, sp.len ? sp.ptr : NULL, NULL, "%s", why.ptr);
        } else if (ref[0] == '#') {
            sd_diag_add(diags, SD_SEV_ERROR, err, loc, sp.len ? sp.ptr : NULL, NULL,
                        "cannot resolve $ref '%s': %s", ref, why.ptr);
        } else {
            /* name local files relative to the working directory */
            char *cwd_uri = NULL;
            if (sd_uri_from_path(&cwd_uri, "x") < 0)
                cwd_uri = NULL;
            const char *shown_abs = abs, *shown_why = why.ptr, *w;
            size_t cl = cwd_uri ? strlen(cwd_uri) - 1 : 0;
            sd_buf w2 = SD_BUF_INIT;
            if (cwd_uri)
                cwd_uri[cl] = '\0';   /* "file:///cwd/" */
            if (cwd_uri && strncmp(abs, cwd_uri, cl) == 0)
                shown_abs = abs + cl;
            while (cwd_uri && (w = strstr(shown_why, cwd_uri))) {
                sd_buf_put(&w2, shown_why, (size_t)(w - shown_why));
                shown_why = w + cl;
            }
            sd_buf_puts(&w2, shown_why);
            if (strcmp(shown_abs, ref) == 0)
                sd_diag_add(diags, SD_SEV_ERROR, err, loc, sp.len ? sp.ptr : NULL, NULL,
                            "cannot resolve $ref '%s': %s", ref, w2.ptr);
            else
                sd_diag_add(diags, SD_SEV_ERROR, err, loc, sp.len ? sp.ptr : NULL, NULL,
                            "cannot resolve $ref '%s' (as '%s'): %s", ref, shown_abs, w2.ptr);
            sd_buf_release(&w2);
            free(cwd_uri);
        }
        sd_buf_release(&sp);
    }
done:
    free(abs);
    sd_buf_release(&why);
    sd_buf_release(&dec);
    return err;
}

