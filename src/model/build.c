/* SPDX-License-Identifier: Apache-2.0 */
/* build.c - one schema location (and the values written there) -> one
 * model node, recursively (see model_int.h, docs/model.md).
 *
 * The effective schema and the values tree are walked side by side:
 * structure, types and constraints come from the schema, defaults and
 * descriptions from values.yaml (whose comments win over a schema
 * description). A $ref is followed through the source's resolver and never
 * copied: the node links to a shared definition (defs.c) and only the values
 * written below it are walked. */
#include "model_int.h"
#include "entity.h"
#include "alloc.h"
#include "buf.h"
#include "emit.h"
#include "keywords.h"
#include "ptr.h"
#include "uri.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define set   sd_model__set
#define flag  sd_model__flag

/* One node being built: where it is, what its $ref brought in. */
typedef struct bnode {
    mctx          *c;
    const mplace  *at;
    const sd_node *schema;   /* the node's own schema map, or NULL */
    const sd_node *eff;      /* its $ref target when there is one, else schema */
    const sd_doc  *edoc;     /* the document eff lives in */
    const char    *ref_id;   /* the definition the node links to, or NULL */
    const sd_annot *an;      /* the values comment for the path, or NULL */
    sd_val        *n;
    uint64_t       keys;     /* a one-hash Bloom filter of the keys of schema and eff */
} bnode;

/* The filter bit of a key (length and first two bytes: keywords differ). */
static inline uint64_t key_bit(const char *s, size_t n)
{
    return (uint64_t)1 << ((n * 7 + (unsigned char)s[0] * 3 + (n > 1 ? (unsigned char)s[1] : 0)) & 63);
}

static uint64_t keys_of(const sd_node *m)
{
    uint64_t k = 0;
    for (size_t i = 0; m && i < m->n; i++)
        if (m->items[i].key->len)
            k |= key_bit(m->items[i].key->str, m->items[i].key->len);
    return k;
}

/* A keyword of the node: its own schema first, then the $ref target's. A
 * node is asked for some forty keywords and has a few: the filter answers
 * most misses without a lookup. */
static inline const sd_node *kw(const bnode *b, const char *name)
{
    const sd_node *t;
    size_t n = strlen(name);
    if (!n || !(b->keys & key_bit(name, n)))
        return NULL;
    if (b->schema && (t = sd_node_get(b->schema, name)))
        return t;
    return b->eff && b->eff != b->schema ? sd_node_get(b->eff, name) : NULL;
}

/* The document a keyword found by kw() belongs to. */
static const sd_doc *kw_doc(const bnode *b, const char *name)
{
    return b->schema && sd_node_get(b->schema, name) ? b->at->sdoc : b->edoc;
}

/* `path` made absolute against `cwd` with "." and ".." segments and
 * repeated slashes removed, lexically (no symbolic links followed). A new
 * string, or NULL when out of memory. */
static char *abs_norm(const char *cwd, const char *path)
{
    sd_buf in = SD_BUF_INIT, out = SD_BUF_INIT;
    char *seg, *save = NULL;

    if (path[0] != '/' && cwd)
        sd_buf_printf(&in, "%s/", cwd);
    sd_buf_puts(&in, path);
    if (sd_buf_failed(&in))
        return NULL;
    for (seg = strtok_r(in.ptr, "/", &save); seg; seg = strtok_r(NULL, "/", &save)) {
        if (!strcmp(seg, "."))
            continue;
        if (!strcmp(seg, "..")) {
            char *slash = out.len ? strrchr(out.ptr, '/') : NULL;
            out.len = slash ? (size_t)(slash - out.ptr) : 0;
            if (out.ptr)
                out.ptr[out.len] = '\0';
            continue;
        }
        sd_buf_printf(&out, "/%s", seg);
    }
    if (!out.len)
        sd_buf_putc(&out, '/');
    sd_buf_release(&in);
    return sd_buf_detach(&out);
}

int sd_model__where_init(mctx *c, const char *base)
{
    char cwd[4096];
    c->where_cwd = getcwd(cwd, sizeof cwd) ? strdup(cwd) : NULL;
    c->where_base = abs_norm(c->where_cwd, base && *base ? base : ".");
    return c->where_base ? 0 : SD_ENOMEM;
}

void sd_model__where_release(mctx *c)
{
    free(c->where_base);
    free(c->where_cwd);
    for (size_t i = 0; i < sizeof c->where_name / sizeof *c->where_name; i++) {
        free(c->where_name[i]);
        c->where_name[i] = NULL;
        c->where_file[i] = NULL;
    }
    c->where_base = c->where_cwd = NULL;
}

/* How a document is named in the model: a URL as it is; a local file
 * relative to the base (the chart directory, or the schema file's folder),
 * so that no page names a directory of the machine that made it. A file
 * outside the base is reached from it with "../"; a name in parentheses
 * (a document made in memory) as it is. A new string. */
static char *where_name(const mctx *c, const char *file)
{
    char *abs;
    const char *base = c->where_base, *p, *q, *cut;
    sd_buf b = SD_BUF_INIT;

    /* a name in parentheses is no file: "(Kubernetes 1.36 types)" */
    if (!base || strstr(file, "://") || file[0] == '(')
        return strdup(file);
    if (!(abs = abs_norm(c->where_cwd, file)))
        return NULL;
    /* skip the segments both share, then climb out of the rest of base */
    for (p = base, q = abs, cut = abs; *p && *p == *q; p++, q++)
        if (*p == '/')
            cut = q;
    if (!strcmp(base, "/"))
        cut = abs, p = base + 1;
    else if (!*p && (*q == '/' || !*q))
        cut = q, p = base + (q - abs);
    else
        p = base + (cut - abs);
    for (; *p; p++)
        if (*p == '/')
            sd_buf_puts(&b, "../");
    sd_buf_puts(&b, *cut == '/' ? cut + 1 : cut);
    free(abs);
    if (!b.len)
        sd_buf_putc(&b, '.');
    return sd_buf_detach(&b);
}

sd_val *sd_model__loc(mctx *c, sd_loc l)
{
    const char *f = l.file;
    if (!l.file)
        return sd_val_null();
    if (c) {
        /* a node names its schema file and its values file in turn: a few
         * slots keep each name made once */
        size_t i, n = sizeof c->where_file / sizeof *c->where_file;
        for (i = 0; i < n && c->where_file[i] != l.file; i++)
            ;
        if (i == n) {
            i = c->where_next++ % n;
            free(c->where_name[i]);
            c->where_name[i] = where_name(c, l.file);
            c->where_file[i] = c->where_name[i] ? l.file : NULL;
        }
        if (c->where_name[i])
            f = c->where_name[i];
    }
    if (l.line <= 0)
        return sd_val_string(f);
    {
        /* "%s:%d:%d" without printf: once or twice per node */
        char small[256], *p;
        size_t n = strlen(f);
        int nums[2] = { l.line, l.column };
        if (n > sizeof small - 24 || l.column < 0)
            return sd_val_sprintf("%s:%d:%d", f, l.line, l.column);
        memcpy(small, f, n);
        p = small + n;
        for (int k = 0; k < 2; k++) {
            char digits[12];
            int d = 0;
            unsigned v = (unsigned)nums[k];
            do
                digits[d++] = (char)('0' + v % 10);
            while (v /= 10);
            *p++ = ':';
            while (d)
                *p++ = digits[--d];
        }
        /* a values position is its node's alone, and a schema position
         * is seldom 24 bytes or shorter (the most the table of shared
         * short strings takes): kept out of that table */
        return sd_val_stringn_unique(small, (size_t)(p - small));
    }
}

/* helm-docs' type words (pkg/document/values.go) */
static const char *helm_type_of_value(const sd_node *v)
{
    switch (v->kind) {
    case SD_NULL: return "string";
    case SD_BOOL: return "bool";
    case SD_INT: return "int";
    case SD_FLOAT: return "float";
    case SD_STR: return "string";
    case SD_MAP: return "object";
    default: return "list";
    }
}

static const char *helm_type_of_schema(const char *t)
{
    if (!strcmp(t, "integer")) return "int";
    if (!strcmp(t, "number")) return "float";
    if (!strcmp(t, "boolean")) return "bool";
    if (!strcmp(t, "array")) return "list";
    return t;
}

/* helm-docs' type words back to JSON Schema's, or NULL (tpl/..., others). */
static const char *json_type_of_helm(const char *t)
{
    static const char *const map[][2] = {
        { "string", "string" }, { "int", "integer" }, { "integer", "integer" }, { "float", "number" },
        { "number", "number" }, { "bool", "boolean" }, { "boolean", "boolean" }, { "list", "array" },
        { "array", "array" }, { "object", "object" }, { "dict", "object" }, { "map", "object" }
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(t, map[i][0]))
            return map[i][1];
    return NULL;
}

/* ---- $ref -------------------------------------------------------------- */

/* A name for a definition: the ref's last pointer segment, its anchor, or
 * the file name without extension. Caller frees. */
static char *def_name(const char *ref, const char *abs)
{
    const char *frag = strchr(ref, '#');
    sd_buf b = SD_BUF_INIT;

    if (frag && frag[1] == '/') {
        sd_buf dec = SD_BUF_INIT;
        sd_uri_pct_decode_append(&dec, frag + 1, strlen(frag + 1));
        for (const char *p = dec.ptr; *p == '/'; )
            p = sd_ptr_next(&b, p);
        sd_buf_release(&dec);
        return sd_buf_detach(&b);
    }
    if (frag && frag[1])
        return strdup(frag + 1);
    if (frag && ref[0] == '#')
        return strdup("root");
    {
        size_t end = strcspn(abs, "#");
        const char *base = abs;
        for (size_t i = 0; i < end; i++)
            if (abs[i] == '/')
                base = abs + i + 1;
        sd_buf_put(&b, base, strcspn(base, ".#"));
    }
    return sd_buf_detach(&b);
}

/* Follow the $ref `ref` written in `schema` (of `sdoc`): sets the
 * definition's id and the target's document. NULL when it does not
 * resolve (reported by the source: an error, or a warning when lenient). */
static const sd_node *follow_ref(mctx *c, const sd_doc *sdoc, const sd_node *schema,
                                 const sd_node *ref, const char **id_out, const sd_doc **doc_out)
{
    const sd_schema_info *ti;
    char *abs = NULL, *name;

    *id_out = NULL;
    *doc_out = sdoc;
    if (sd_source_resolve(c->src, &ti, sdoc, schema, ref, c->diags) < 0) {
        if (!sd_source_options(c->src)->lenient && !c->err)
            c->err = SD_EREF;
        return NULL;
    }
    if (ref->str[0] != '#' &&
        sd_resolver_ref_uri(sd_source_resolver(c->src), &abs, schema, ref->str) < 0)
        return NULL;
    if ((name = def_name(ref->str, abs ? abs : ref->str))) {
        *id_out = sd_model__def_id(c, ti->node, ti->doc, *name ? name : "schema",
                                   abs ? abs : ref->str);
        *doc_out = ti->doc;
    }
    free(name);
    free(abs);
    return *id_out ? ti->node : NULL;
}

/* ---- the parts of a node ------------------------------------------------ */

static void describe(bnode *b)
{
    const char *key = b->at->key;
    const sd_node *t;

    if ((t = kw(b, "title")) && t->kind == SD_STR) {
        /* plain text written for HTML forms: `MongoDB&reg;` reads MongoDB® */
        char *plain = strchr(t->str, '&') ? sd_entity_decode(t->str) : NULL;
        set(b->n, "title", plain ? sd_val_string(plain) : sd_model__doc_str(t->str));
        free(plain);
        flag(b->n, "title_explicit", 1);
    } else if (key && (!strcmp(key, "[]") || key[0] == '[' || !strcmp(key, "*"))) {
        set(b->n, "title", sd_val_string(!strcmp(key, "*") ? "Any key" : key[1] == ']' ? "Item" : key));
    } else {
        char *h = sd_humanize(key ? key : "");
        set(b->n, "title", sd_val_string(h ? h : ""));
        free(h);
    }
    if (b->an && b->an->description && b->an->described) {
        set(b->n, "description", sd_val_string(b->an->description));
        set(b->n, "description_from", sd_val_string("values"));
        /* the comment wins; the schema's own words are kept when they differ */
        if ((t = kw(b, "description")) && t->kind == SD_STR && *t->str &&
            strcmp(t->str, b->an->description) != 0)
            set(b->n, "schema_description", sd_model__doc_str(t->str));
    } else if ((t = kw(b, "description")) && t->kind == SD_STR) {
        set(b->n, "description", sd_model__doc_str(t->str));
        set(b->n, "description_from", sd_val_string("schema"));
    } else if (b->an && b->an->plain && b->c->annots && b->c->annots->plain) {
        /* a chart that writes neither dialect: the comment above the key */
        set(b->n, "description", sd_val_string(b->an->plain));
        set(b->n, "description_from", sd_val_string("comment"));
    }
}

/* Merge rule: the schema's type wins; a default of another type is
 * reported at both places. */
static void check_default_type(bnode *b, sd_val *types, int nullable)
{
    const sd_node *value = b->at->value, *tkw = kw(b, "type");
    const char *path = b->at->path && *b->at->path ? b->at->path : "(root)";
    const char *vt = sd_node_type_word(value);
    size_t i;
    sd_val *tw;
    int ok = 0;

    sd_val_array_foreach(types, i, tw) {
        const char *w = sd_val_string_value(tw);
        if (!strcmp(w, vt) || (!strcmp(w, "number") && !strcmp(vt, "integer")) ||
            (!strcmp(w, "integer") && !strcmp(vt, "number") && value->num.f == (double)(long long)value->num.f))
            ok = 1;
    }
    if (ok || (nullable && value->kind == SD_NULL) || kw(b, "x-kubernetes-int-or-string"))
        return;
    char *ts = sd_val_dumps(types, SD_VAL_COMPACT | SD_VAL_ENCODE_ANY);
    sd_diag_warning(b->c->diags, value->loc, "%s: the default is %s but the schema says %s (%s:%d:%d)",
                    path, vt, ts ? ts : "?", tkw->loc.file, tkw->loc.line, tkw->loc.column);
    sd_diag_add(b->c->diags, SD_SEV_NOTE, 0, tkw->loc, NULL, NULL, "%s: the schema's type is here", path);
    free(ts);
}

/* The list [word]: one per word, shared by every node of that type (most
 * nodes have one type of a handful, and the model's values never change
 * once built). */
static sd_val *one_type(bnode *b, const char *word)
{
    size_t len = strlen(word);
    sd_val *l = b->c->type_lists ? sd_val_object_getn(b->c->type_lists, word, len) : NULL;
    if (l)
        return sd_val_incref(l);
    l = sd_val_array();
    sd_val_array_append_new(l, sd_model__doc_str(word));
    if (b->c->type_lists && len <= 32 && sd_val_array_size(l) == 1)
        sd_val_object_setn_new_nocheck(b->c->type_lists, word, len, sd_val_incref(l));
    return l;
}

static void types(bnode *b)
{
    const sd_node *value = b->at->value, *t;
    sd_val *types = NULL;
    const char *ht = NULL;
    int nullable = 0;

    if ((t = kw(b, "type"))) {
        if (t->kind == SD_STR) {
            types = one_type(b, t->str);
        } else {
            types = sd_val_array();
            if (t->kind == SD_SEQ)
                for (size_t i = 0; i < t->n; i++)
                    if (t->items[i].value->kind == SD_STR)
                        sd_val_array_append_new(types, sd_model__doc_str(t->items[i].value->str));
        }
    } else if (b->an && b->an->type && json_type_of_helm(b->an->type)) {
        /* `# -- (string)`: the comment's type, also over an empty default
         * (one type rule for html and md) */
        types = one_type(b, json_type_of_helm(b->an->type));
    } else if (value) {
        types = one_type(b, sd_node_type_word(value));
    } else {
        types = sd_val_array();
    }
    for (size_t i = 0; i < sd_val_array_size(types); i++)
        if (!strcmp(sd_val_string_value(sd_val_array_get(types, i)), "null"))
            nullable = 1;
    if ((t = kw(b, "nullable")) && t->kind == SD_BOOL && t->num.b)
        nullable = 1;
    if (b->an && b->an->nullable)
        nullable = 1;
    if (b->an && b->an->type)
        ht = b->an->type;
    else if (value)
        ht = helm_type_of_value(value);
    else if (sd_val_array_size(types))
        ht = helm_type_of_schema(sd_val_string_value(sd_val_array_get(types, 0)));
    if (value && sd_val_array_size(types) && b->schema && kw(b, "type"))
        check_default_type(b, types, nullable);
    /* copy `ht` first: it may point into `types`, which set() gives away
     * (and frees at once when b->n could not be allocated) */
    sd_val *hts = sd_val_string(ht ? ht : "");
    set(b->n, "type", types);
    set(b->n, "helm_type", hts);
    flag(b->n, "nullable", nullable);
}

static void values(bnode *b)
{
    const sd_node *value = b->at->value, *t;
    sd_val *ex = sd_val_array();

    /* default: the value written in values.yaml, else the schema's */
    if (value) {
        set(b->n, "default", sd_node_to_val_memo(value, &b->c->vals));
        flag(b->n, "has_default", 1);
    } else if ((t = kw(b, "default"))) {
        set(b->n, "default", sd_node_to_val(t));
        flag(b->n, "has_default", 1);
    }
    if (b->an && b->an->default_text)
        set(b->n, "default_text", sd_val_string(b->an->default_text));

    if ((t = kw(b, "x-examples")) && t->kind == SD_SEQ) {
        /* ytt examples: {title?, value} */
        for (size_t i = 0; i < t->n; i++) {
            const sd_node *e = t->items[i].value, *x;
            sd_val *o = sd_val_object();
            if ((x = sd_node_get(e, "title")) && x->kind == SD_STR)
                set(o, "title", sd_model__doc_str(x->str));
            if ((x = sd_node_get(e, "value"))) {
                if (x->tag && !strcmp(x->tag, "!starlark"))
                    set(o, "source", sd_model__doc_str(x->str));
                else
                    set(o, "value", sd_node_to_val(x));
            }
            sd_val_array_append_new(ex, o);
        }
    } else if ((t = kw(b, "examples")) && t->kind == SD_SEQ) {
        for (size_t i = 0; i < t->n; i++) {
            sd_val *e = sd_val_object();
            set(e, "value", sd_node_to_val(t->items[i].value));
            sd_val_array_append_new(ex, e);
        }
    } else if ((t = kw(b, "example"))) {
        sd_val *e = sd_val_object();
        set(e, "value", sd_node_to_val(t));
        sd_val_array_append_new(ex, e);
    }
    sd_model__set_nonempty(b->n, "examples", ex);
    if ((t = kw(b, "enum")))
        set(b->n, "enum", sd_node_to_val(t));
    if ((t = kw(b, "const")))
        set(b->n, "const", sd_node_to_val(t));
}

static int is_true(const sd_node *t)
{
    return t && t->kind == SD_BOOL && t->num.b;
}

static void kubernetes(bnode *b)
{
    sd_val *k8s = sd_val_object();
    const sd_node *t;

    if (is_true(kw(b, "x-kubernetes-int-or-string")))
        set(k8s, "int_or_string", sd_val_true());
    if (is_true(kw(b, "x-kubernetes-preserve-unknown-fields")))
        set(k8s, "preserve_unknown_fields", sd_val_true());
    if (is_true(kw(b, "x-kubernetes-embedded-resource")))
        set(k8s, "embedded_resource", sd_val_true());
    if ((t = kw(b, "x-kubernetes-list-type")) && t->kind == SD_STR)
        set(k8s, "list_type", sd_model__doc_str(t->str));
    if ((t = kw(b, "x-kubernetes-list-map-keys")))
        set(k8s, "list_map_keys", sd_node_to_val(t));
    if ((t = kw(b, "x-kubernetes-map-type")) && t->kind == SD_STR)
        set(k8s, "map_type", sd_model__doc_str(t->str));
    if ((t = kw(b, "x-kubernetes-validations")) && t->kind == SD_SEQ) {
        static const char *const fields[] = { "rule", "message", "messageExpression", "reason",
                                              "fieldPath", NULL };
        sd_val *rules = sd_val_array();
        for (size_t i = 0; i < t->n; i++) {
            const sd_node *r = t->items[i].value, *x;
            sd_val *o = sd_val_object();
            for (const char *const *f = fields; *f; f++)
                if ((x = sd_node_get(r, *f)))
                    set(o, *f, sd_node_to_val(x));
            sd_val_array_append_new(rules, o);
        }
        set(k8s, "validations", rules);
    }
    if (sd_val_object_size(k8s))
        set(b->n, "kubernetes", k8s);
    else
        sd_val_decref(k8s);
}

static void constraints_and_flags(bnode *b)
{
    sd_val *cons = sd_val_object();
    const sd_node *t;

    size_t nrows;
    const sd_kw *const *rows = sd_kw_model_rows(&nrows);

    /* the keywords that keywords.def gives a CONSTRAINT column, in its order */
    for (size_t i = 0; i < nrows; i++) {
        const sd_kw *k = rows[i];
        if (!(t = kw(b, k->name)))
            continue;
        if (k->model != SD_KM_CONSTRAINT_BOOL)
            set(cons, k->name, sd_node_to_val(t));
        else if (t->kind == SD_BOOL)
            set(cons, k->name, sd_val_boolean(t->num.b));
    }
    sd_model__set_nonempty(b->n, "constraints", cons);

    flag(b->n, "deprecated", is_true(kw(b, "deprecated")));
    if ((t = kw(b, "x-deprecation")) && t->kind == SD_STR)
        set(b->n, "deprecation", sd_model__doc_str(t->str));
    if ((t = kw(b, "x-removed"))) {
        flag(b->n, "removed", 1);
        set(b->n, "removal", sd_val_string(t->kind == SD_STR ? t->str : ""));
    }
    if (((t = kw(b, "x-ytt-rules")) && t->kind == SD_SEQ) || kw(b, "x-ytt-key")) {
        sd_val *y = sd_val_object();
        if (t && t->kind == SD_SEQ)
            set(y, "rules", sd_node_to_val(t));
        if ((t = kw(b, "x-ytt-key")) && t->kind == SD_STR)
            set(y, "key", sd_model__doc_str(t->str));
        set(b->n, "ytt", y);
    }
    flag(b->n, "readOnly", is_true(kw(b, "readOnly")));
    flag(b->n, "writeOnly", is_true(kw(b, "writeOnly")));
    flag(b->n, "form", is_true(kw(b, "form")));   /* Kubeapps/Bitnami: shown in a basic form */
    /* "required" is set by the parent */
    if (b->an && b->an->section)
        set(b->n, "section", sd_val_string(b->an->section));
    kubernetes(b);
}

/* ---- children ------------------------------------------------------------ */

/* The dotted values path as helm-docs writes it: `a.b`, `a[0].b`, and keys
 * holding '.' or ' ' in double quotes (`configs.cm."admin.enabled"`). */
static void child_path(sd_buf *out, const char *path, const char *key)
{
    sd_buf_clear(out);
    if (path)
        sd_buf_puts(out, path);
    if (key[0] == '[' || !strcmp(key, "*"))
        sd_buf_puts(out, key[0] == '*' && out->len ? ".*" : key);
    else
        sd_annot_path_push(out, key, strlen(key));
}

/* pointer + "/" + kw [+ "/" + escaped key] */
static void child_pointer(sd_buf *out, const char *pointer, const char *kwd, const char *key)
{
    sd_buf_clear(out);
    sd_buf_puts(out, pointer);
    sd_buf_putc(out, '/');
    sd_buf_puts(out, kwd);
    if (key)
        sd_ptr_push(out, key, strlen(key));
}

/* Build a child at (key, path, pointer) of `schema` in `sdoc`. */
static sd_val *child(bnode *b, const char *key, const char *path, const char *pointer,
                     const sd_node *schema, const sd_doc *sdoc, const sd_pair *vpair,
                     const sd_node *value)
{
    mplace at = { key, path, pointer, schema, sdoc, vpair, value, b->at->depth + 1 };
    return sd_model__build(b->c, &at);
}

static sd_val *branch_list(bnode *b, const sd_node *arr, const char *kwd)
{
    sd_val *out = sd_val_array();
    sd_buf ptr = SD_BUF_INIT;
    for (size_t i = 0; i < arr->n; i++) {
        sd_buf_clear(&ptr);
        sd_buf_printf(&ptr, "%s/%s/%zu", b->at->pointer, kwd, i);
        sd_val_array_append_new(out, child(b, NULL, b->at->path, ptr.ptr, arr->items[i].value,
                                         b->at->sdoc, NULL, NULL));
    }
    sd_buf_release(&ptr);
    return out;
}

/* Properties: the keys written in values.yaml first (in their order), then
 * the schema's own properties that the values leave out. */
static void properties(bnode *b, const sd_node *st, sd_buf *cp, sd_buf *cptr)
{
    const mplace *at = b->at;
    const sd_node *value = at->value;
    sd_val *props = sd_val_array();
    const sd_node *sprops = kw(b, "properties");
    const sd_node *addl = kw(b, "additionalProperties");
    const sd_node *pattern = kw(b, "patternProperties");
    const sd_node *req = kw(b, "required");
    const sd_node *own_props = st ? sd_node_get(st, "properties") : NULL;

    if (sprops && sprops->kind != SD_MAP)
        sprops = NULL;
    if (value && value->kind == SD_MAP) {
        for (size_t i = 0; i < value->n; i++) {
            const sd_pair *vp = &value->items[i];
            const char *k = vp->key->str;
            const sd_node *ks = sprops ? sd_node_get(sprops, k) : NULL;
            const sd_doc *kdoc = kw_doc(b, "properties");
            child_path(cp, at->path, k);
            if (ks) {
                child_pointer(cptr, at->pointer, "properties", k);
            } else if (pattern && pattern->kind == SD_MAP && pattern->n) {
                /* documented by the first pattern's schema (no regex match here) */
                ks = pattern->items[0].value;
                kdoc = kw_doc(b, "patternProperties");
                child_pointer(cptr, at->pointer, "patternProperties", pattern->items[0].key->str);
            } else if (addl && addl->kind == SD_MAP) {
                ks = addl;
                kdoc = kw_doc(b, "additionalProperties");
                child_pointer(cptr, at->pointer, "additionalProperties", NULL);
            } else {
                child_pointer(cptr, at->pointer, "properties", k);
            }
            sd_val_array_append_new(props, child(b, k, cp->ptr, cptr->ptr, ks, kdoc, vp, vp->value));
        }
    }
    if (own_props && own_props->kind == SD_MAP) {
        for (size_t i = 0; i < own_props->n; i++) {
            const char *k = own_props->items[i].key->str;
            if (value && value->kind == SD_MAP && sd_node_get(value, k))
                continue;
            child_path(cp, at->path, k);
            child_pointer(cptr, at->pointer, "properties", k);
            sd_val_array_append_new(props, child(b, k, cp->ptr, cptr->ptr, own_props->items[i].value,
                                               at->sdoc, NULL, NULL));
        }
    }
    if (req && req->kind == SD_SEQ) {
        size_t i;
        sd_val *ch;
        sd_val_array_foreach(props, i, ch) {
            const char *k = sd_val_string_value(sd_val_object_get(ch, "key"));
            for (size_t r = 0; k && r < req->n; r++)
                if (req->items[r].value->kind == SD_STR && !strcmp(req->items[r].value->str, k))
                    sd_val_object_set_new_nocheck(ch, "required", sd_val_true());
        }
    }
    if (sd_val_array_size(props))
        set(b->n, "properties", props);
    else
        sd_val_decref(props);
}

/* List elements written in values.yaml: key[0], key[1], ... */
static void elements(bnode *b, sd_buf *cp, sd_buf *cptr)
{
    const mplace *at = b->at;
    const sd_node *value = at->value;
    const sd_node *items = kw(b, "items"), *prefix = kw(b, "prefixItems");
    sd_val *els;

    if (!value || value->kind != SD_SEQ || !value->n)
        return;
    els = sd_val_array();
    for (size_t i = 0; i < value->n; i++) {
        char ik[32];
        int in_prefix = prefix && prefix->kind == SD_SEQ && i < prefix->n;
        const sd_node *is = in_prefix ? prefix->items[i].value
                          : items && items->kind == SD_MAP ? items
                          : items && items->kind == SD_SEQ && i < items->n ? items->items[i].value : NULL;
        snprintf(ik, sizeof ik, "[%zu]", i);
        child_path(cp, at->path, ik);
        sd_buf_clear(cptr);
        sd_buf_printf(cptr, "%s/items", at->pointer);
        sd_val_array_append_new(els, child(b, ik, cp->ptr, cptr->ptr, is,
                                         in_prefix ? kw_doc(b, "prefixItems") : kw_doc(b, "items"),
                                         &value->items[i], value->items[i].value));
    }
    set(b->n, "elements", els);
}

/* The schema's own structure: items, additional and pattern properties,
 * property names, the applicators. */
static void structure(bnode *b, const sd_node *st, sd_buf *cp, sd_buf *cptr)
{
    const mplace *at = b->at;
    const sd_node *t;
    static const char *const lists[] = { "allOf", "anyOf", "oneOf", NULL };
    static const char *const singles[] = { "not", "if", "then", "else", "contains", NULL };

    if (st && (t = sd_node_get(st, "items")) && t->kind == SD_MAP) {
        child_path(cp, at->path, "[]");
        child_pointer(cptr, at->pointer, "items", NULL);
        set(b->n, "items", child(b, "[]", cp->ptr, cptr->ptr, t, at->sdoc, NULL, NULL));
    }
    if (st && (t = sd_node_get(st, "prefixItems")) && t->kind == SD_SEQ)
        set(b->n, "prefixItems", branch_list(b, t, "prefixItems"));
    if (st && (t = sd_node_get(st, "additionalProperties")) && t->kind == SD_MAP) {
        child_path(cp, at->path, "*");
        child_pointer(cptr, at->pointer, "additionalProperties", NULL);
        set(b->n, "additionalProperties", child(b, "*", cp->ptr, cptr->ptr, t, at->sdoc, NULL, NULL));
    }
    if (st && (t = sd_node_get(st, "patternProperties")) && t->kind == SD_MAP && t->n) {
        sd_val *pp = sd_val_array();
        for (size_t i = 0; i < t->n; i++) {
            sd_val *o = sd_val_object();
            set(o, "pattern", sd_model__doc_str(t->items[i].key->str));
            child_path(cp, at->path, "*");
            child_pointer(cptr, at->pointer, "patternProperties", t->items[i].key->str);
            set(o, "node", child(b, "*", cp->ptr, cptr->ptr, t->items[i].value, at->sdoc, NULL, NULL));
            sd_val_array_append_new(pp, o);
        }
        set(b->n, "patternProperties", pp);
    }
    if (st && (t = sd_node_get(st, "propertyNames")) && t->kind == SD_MAP) {
        child_pointer(cptr, at->pointer, "propertyNames", NULL);
        set(b->n, "propertyNames", child(b, NULL, at->path, cptr->ptr, t, at->sdoc, NULL, NULL));
    }
    for (const char *const *k = lists; *k; k++)
        if (b->schema && (t = sd_node_get(b->schema, *k)) && t->kind == SD_SEQ)
            set(b->n, *k, branch_list(b, t, *k));
    for (const char *const *k = singles; *k; k++)
        if (b->schema && (t = sd_node_get(b->schema, *k)) && t->kind == SD_MAP) {
            child_pointer(cptr, at->pointer, *k, NULL);
            set(b->n, *k, child(b, NULL, at->path, cptr->ptr, t, at->sdoc, NULL, NULL));
        }
}

sd_val *sd_model__build(mctx *c, const mplace *at)
{
    bnode b;
    const sd_node *ref;
    sd_buf cp = SD_BUF_INIT, cptr = SD_BUF_INIT;

    if (c->err == SD_ELIMIT)   /* over budget: the build is failing anyway */
        return sd_val_object();
    memset(&b, 0, sizeof b);
    b.c = c;
    b.at = at;
    b.n = sd_val_object_sized(12);   /* a node's fields: 11-15 on the corpus charts */
    b.schema = b.eff = at->schema && at->schema->kind == SD_MAP ? at->schema : NULL; /* boolean schemas: nothing to document */
    b.edoc = at->sdoc;
    b.an = c->annots && at->path ? sd_annots_get(c->annots, at->path) : NULL;

    {
        /* a node's id is most often its path, and a top-level key's path
         * its key: one string each then (the model's values never change) */
        sd_val *idv = sd_model__unique_id_val(c, at->path && *at->path ? at->path : at->key ? at->key : NULL);
        const char *id = sd_val_string_value(idv), *path = at->path ? at->path : "";
        sd_val *pv = id && !strcmp(id, path) ? sd_val_incref(idv) : sd_model__doc_str(path);
        set(b.n, "id", idv);
        set(b.n, "key", !at->key ? sd_val_null() : !strcmp(at->key, path) ? sd_val_incref(pv)
                                                                         : sd_model__doc_str(at->key));
        set(b.n, "path", pv);
    }
    set(b.n, "pointer", sd_model__doc_str(at->pointer));

    /* a $ref links to a shared definition; the target supplies what the
     * referring node does not say itself */
    if (b.schema && (ref = sd_node_get(b.schema, "$ref")) && ref->kind == SD_STR) {
        const sd_doc *tdoc;
        const sd_node *target = follow_ref(c, at->sdoc, b.schema, ref, &b.ref_id, &tdoc);
        if (b.ref_id) {
            set(b.n, "ref", sd_val_string(b.ref_id));
            if (target == c->building)
                set(b.n, "recursive", sd_val_true());
        } else {
            set(b.n, "ref_unresolved", sd_model__doc_str(ref->str));
        }
        if (target && target->kind == SD_MAP) {
            b.eff = target;
            b.edoc = tdoc;
        }
    }
    b.keys = keys_of(b.schema) | (b.eff != b.schema ? keys_of(b.eff) : 0);
    describe(&b);
    types(&b);
    values(&b);
    constraints_and_flags(&b);

    /* where */
    if (b.schema)
        set(b.n, "defined_at", sd_model__loc(c, b.schema->loc));
    if (at->vpair && at->vpair->key)
        set(b.n, "value_at", sd_model__loc(c, at->vpair->key->loc));
    else if (at->value)
        set(b.n, "value_at", sd_model__loc(c, at->value->loc));

    if (++c->nodes > c->max_nodes || c->ndefs > SD_MODEL_MAX_DEFS) {
        if (c->err != SD_ELIMIT) {
            sd_loc l = at->vpair && at->vpair->key ? at->vpair->key->loc
                     : at->value ? at->value->loc : b.schema ? b.schema->loc : (sd_loc){ NULL, 0, 0 };
            c->err = sd_diag_error(c->diags, SD_ELIMIT, l,
                                   "the documentation would have more than %d entries (at '%s'): "
                                   "the values or the schema expand too far",
                                   c->ndefs > SD_MODEL_MAX_DEFS ? SD_MODEL_MAX_DEFS : (int)c->max_nodes,
                                   at->path ? at->path : "");
        }
    } else if (at->depth >= c->max_depth) {
        set(b.n, "truncated", sd_val_true());
    } else {
        /* Structure comes from the node itself; a referenced definition's
         * structure is documented once, with the definition, and only
         * consulted for the values written below this node. */
        const sd_node *st = b.ref_id ? b.schema : b.eff;
        properties(&b, st, &cp, &cptr);
        elements(&b, &cp, &cptr);
        structure(&b, st, &cp, &cptr);
    }
    sd_buf_release(&cp);
    sd_buf_release(&cptr);
    return b.n;
}

char *sd_humanize(const char *key)
{
    sd_buf b = SD_BUF_INIT;
    const char *p = key;

    /* words: runs of letters and digits, split at camelCase humps; an
     * all-capitals word (TLS, URL) keeps its case, others are lowercased */
    while (*p) {
        while (*p && !isalnum((unsigned char)*p))
            p++;
        if (!*p)
            break;
        const char *w = p;
        if (isupper((unsigned char)*p)) {
            while (isupper((unsigned char)*p) || isdigit((unsigned char)*p))
                p++;
            /* "URLPath": the last capital starts the next word */
            if (p - w > 1 && islower((unsigned char)*p))
                p--;
            else if (p - w == 1)
                while (islower((unsigned char)*p) || isdigit((unsigned char)*p))
                    p++;
        } else {
            while (islower((unsigned char)*p) || isdigit((unsigned char)*p) || ((unsigned char)*p >= 0x80))
                p++;
        }
        if (p == w)
            p++;
        int acronym = p - w > 1;
        for (const char *q = w; q < p && acronym; q++)
            if (!isupper((unsigned char)*q) && !isdigit((unsigned char)*q))
                acronym = 0;
        if (b.len)
            sd_buf_putc(&b, ' ');
        for (const char *q = w; q < p; q++)
            sd_buf_putc(&b, acronym ? *q : (char)tolower((unsigned char)*q));
    }
    if (b.len)
        b.ptr[0] = (char)toupper((unsigned char)b.ptr[0]);
    return sd_buf_detach(&b);
}
