/* model.c - sources -> the normalized model (JSON), see model.h.
 *
 * The model is built by walking the effective schema and the values tree
 * side by side: structure, types and constraints come from the schema,
 * defaults and descriptions from values.yaml (whose comments win over a
 * schema description). A $ref never copies its target: the node links to a
 * shared definition (listed once under "definitions") and only the values
 * written below it are walked. */
#include "model.h"
#include "annot.h"
#include "buf.h"
#include "chart.h"
#include "docset.h"
#include "emit.h"
#include "rows.h"
#include "uri.h"
#include "ytt.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct def_entry {
    const sd_node *target;
    const sd_doc  *doc;
    char          *id;
    char          *pointer;     /* where it is: "#/$defs/a", or an absolute URI */
    int            built;
} def_entry;

typedef struct mctx {
    sd_diags      *diags;
    sd_model_opts  opts;
    sd_annots     *annots;      /* values comments, or NULL */
    json_t        *ids;         /* set of ids handed out */
    const char    *id_prefix;   /* "def-" while building definitions */
    def_entry     *defs;
    size_t         ndefs, adefs;
    const sd_node *building;    /* the definition being built (recursion mark) */
    sd_docset     *docs;        /* other documents reached by $ref */
    int            err;         /* first error (unresolved reference without --lenient) */
} mctx;

/* ---- small helpers ------------------------------------------------------ */

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

static json_t *loc_json(sd_loc l)
{
    if (!l.file)
        return json_null();
    if (l.line <= 0)
        return json_string(l.file);
    return json_sprintf("%s:%d:%d", l.file, l.line, l.column);
}

/* helm-docs' type words (pkg/document/values.go) */
static const char *helm_sd_node_type_word(const sd_node *v)
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

static char *unique_id(mctx *c, const char *want)
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

static void setn(json_t *o, const char *k, json_t *v)
{
    if (v)
        json_object_set_new(o, k, v);
}

/* A flag is written only when true: absent means false (docs/model.md),
 * which keeps a model of 20,000 nodes small. */
static void setb(json_t *o, const char *k, int v)
{
    if (v)
        json_object_set_new(o, k, json_true());
}

/* An empty array or object is left out: absent means empty. */
static void setne(json_t *o, const char *k, json_t *v)
{
    if (v && ((json_is_array(v) && json_array_size(v)) || (json_is_object(v) && json_object_size(v))))
        json_object_set_new(o, k, v);
    else
        json_decref(v);
}

/* ---- $ref ------------------------------------------------------------------ */

/* Decode one JSON pointer segment (~1 -> /, ~0 -> ~, %XX). */
static char *ptr_segment(const char *s, size_t n)
{
    sd_buf b = SD_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '~' && i + 1 < n && (s[i + 1] == '0' || s[i + 1] == '1')) {
            sd_buf_putc(&b, s[i + 1] == '0' ? '~' : '/');
            i++;
        } else if (s[i] == '%' && i + 2 < n && isxdigit((unsigned char)s[i + 1]) &&
                   isxdigit((unsigned char)s[i + 2])) {
            char hex[3] = { s[i + 1], s[i + 2], 0 };
            sd_buf_putc(&b, (char)strtol(hex, NULL, 16));
            i += 2;
        } else {
            sd_buf_putc(&b, s[i]);
        }
    }
    return sd_buf_detach(&b);
}

/* Follow an in-document pointer "#/a/b" from `root`. NULL if absent. */
static const sd_node *follow_pointer(const sd_node *root, const char *frag, char **last)
{
    const sd_node *n = root;
    const char *p = frag;
    *last = NULL;
    if (*p == '#')
        p++;
    while (n && *p == '/') {
        const char *e = strchr(p + 1, '/');
        size_t len = e ? (size_t)(e - p - 1) : strlen(p + 1);
        char *seg = ptr_segment(p + 1, len);
        if (!seg)
            return NULL;
        if (n->kind == SD_MAP) {
            n = sd_node_get(n, seg);
        } else if (n->kind == SD_SEQ) {
            char *end;
            unsigned long i = strtoul(seg, &end, 10);
            n = (*seg && !*end && i < n->n) ? n->items[i].value : NULL;
        } else {
            n = NULL;
        }
        free(*last);
        *last = seg;
        p += len + 1;
    }
    return *p ? NULL : n;
}

/* The shared-definition id for `target` (registering it), or NULL. */
static const char *def_id(mctx *c, const sd_node *target, const sd_doc *doc, const char *name,
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
    e->id = unique_id(c, want.ptr);
    c->id_prefix = saved;
    e->pointer = strdup(pointer ? pointer : "#");
    e->built = 0;
    sd_buf_release(&want);
    return e->id;
}

/* A subschema of `root` named by an anchor: `$anchor: name`, or a draft
 * 6/7 `$id: "#name"` / draft-4 `id`. */
static const sd_node *find_anchor(const sd_node *n, const char *name, int depth)
{
    const sd_node *t;
    if (!n || depth > 200)
        return NULL;
    if (n->kind == SD_MAP) {
        if (((t = sd_node_get(n, "$anchor")) && t->kind == SD_STR && !strcmp(t->str, name)) ||
            ((t = sd_node_get(n, "$dynamicAnchor")) && t->kind == SD_STR && !strcmp(t->str, name)))
            return n;
        const char *ids[] = { "$id", "id" };
        for (int k = 0; k < 2; k++)
            if ((t = sd_node_get(n, ids[k])) && t->kind == SD_STR && t->str[0] == '#' && !strcmp(t->str + 1, name))
                return n;
    }
    if (n->kind == SD_MAP || n->kind == SD_SEQ)
        for (size_t i = 0; i < n->n; i++)
            if ((t = find_anchor(n->items[i].value, name, depth + 1)))
                return t;
    return NULL;
}

/* A name for a definition: its pointer's last segment, its anchor, or the
 * file name without extension. */
static char *def_name(const char *uri_no_frag, const char *frag, const char *last)
{
    if (last && *last)
        return strdup(last);
    if (frag && *frag && frag[0] != '/')
        return strdup(frag);
    const char *b = strrchr(uri_no_frag, '/');
    b = b ? b + 1 : uri_no_frag;
    size_t n = strcspn(b, ".");
    char *r = malloc(n + 1);
    if (r) {
        memcpy(r, b, n);
        r[n] = '\0';
    }
    return r;
}

static void unresolved(mctx *c, const sd_node *refnode, const char *fmt, const char *a)
{
    sd_buf m = SD_BUF_INIT;
    sd_buf_printf(&m, fmt, a);
    if (c->opts.lenient) {
        sd_diag_warning(c->diags, refnode->loc, "unresolved reference '%s': %s", refnode->str, m.ptr);
    } else if (!c->err) {
        c->err = sd_diag_error(c->diags, SD_EREF, refnode->loc, "unresolved reference '%s': %s",
                               refnode->str, m.ptr);
    }
    sd_buf_release(&m);
}

/* Resolve the $ref `refnode` written in `doc`: the prefix maps first
 * (schema-dependencies.json, --map), else RFC 3986 against the document's
 * URI; the document comes from the docset (loaded once, confined to the
 * chart); the fragment is a JSON pointer or an anchor. */
static const sd_node *resolve_ref(mctx *c, const sd_doc *doc, const sd_node *refnode,
                                  const char **id_out, const sd_doc **doc_out)
{
    const char *ref = refnode->str;
    char *last = NULL, *abs = NULL, *base = NULL, *frag = NULL, *mapped = NULL, *docuri = NULL;
    const sd_node *t = NULL;
    const sd_doc *tdoc = doc;

    *id_out = NULL;
    *doc_out = doc;
    if (ref[0] == '#') {
        t = follow_pointer(sd_doc_root(doc), ref, &last);
        if (!t && ref[1] && ref[1] != '/')
            t = find_anchor(sd_doc_root(doc), ref + 1, 0);
        if (t) {
            *id_out = def_id(c, t, doc, last ? last : ref[1] && ref[1] != '/' ? ref + 1 : "root", ref);
            free(last);
            return t;
        }
        sd_buf why = SD_BUF_INIT;
        if (last)
            sd_buf_printf(&why, "pointer segment '%s' not found in %s", last, doc->file);
        else
            sd_buf_printf(&why, "no anchor '%s' in %s", ref + 1, doc->file);
        unresolved(c, refnode, "%s", why.ptr);
        sd_buf_release(&why);
        free(last);
        return NULL;
    }
    if (!c->docs) {
        unresolved(c, refnode, "%s", "references to other documents are not followed here");
        return NULL;
    }
    if (sd_docset_map(&mapped, c->docs, ref) < 0)
        goto done;
    if (!mapped) {
        const char *u = sd_docset_uri(c->docs, doc);
        if (!u && sd_uri_from_path(&docuri, doc->file) < 0)
            goto done;
        if (sd_uri_resolve(&abs, u ? u : docuri, ref) < 0)
            goto done;
    }
    if (sd_uri_split_fragment(&base, &frag, mapped ? mapped : abs) < 0)
        goto done;
    sd_doc *loaded = NULL;
    if (sd_docset_get(&loaded, c->docs, base, refnode->loc, ref, c->opts.lenient ? NULL : c->diags) < 0) {
        if (c->opts.lenient)
            sd_diag_warning(c->diags, refnode->loc, "unresolved reference '%s': cannot load %s", ref, base);
        else if (!c->err)
            c->err = SD_EREF;
        goto done;
    }
    tdoc = loaded;
    if (!frag || !*frag || frag[0] == '/') {
        sd_buf f = SD_BUF_INIT;
        sd_buf_printf(&f, "#%s", frag ? frag : "");
        t = follow_pointer(sd_doc_root(loaded), f.ptr, &last);
        sd_buf_release(&f);
    } else {
        t = find_anchor(sd_doc_root(loaded), frag, 0);
    }
    if (!t) {
        sd_buf why = SD_BUF_INIT;
        if (last)
            sd_buf_printf(&why, "pointer segment '%s' not found in %s", last, base);
        else
            sd_buf_printf(&why, "no anchor '%s' in %s", frag ? frag : "", base);
        unresolved(c, refnode, "%s", why.ptr);
        sd_buf_release(&why);
        goto done;
    }
    char *name = def_name(base, frag, last);
    *id_out = def_id(c, t, tdoc, name ? name : "schema", mapped ? mapped : abs);
    *doc_out = tdoc;
    free(name);
done:
    free(last);
    free(abs);
    free(base);
    free(frag);
    free(mapped);
    free(docuri);
    return t;
}

/* ---- nodes ---------------------------------------------------------------- */

static const char *const constraint_keys[] = {
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    "minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType",
    "minItems", "maxItems", "uniqueItems", "minContains", "maxContains",
    "minProperties", "maxProperties", "required", "dependentRequired", "dependencies",
    NULL
};

static json_t *build(mctx *c, const char *key, const char *path, const char *pointer,
                     const sd_node *schema, const sd_doc *sdoc,
                     const sd_pair *vpair, const sd_node *value, int depth);

static json_t *branch_list(mctx *c, const sd_node *arr, const char *kw, const char *path,
                           const char *pointer, const sd_doc *sdoc, int depth)
{
    json_t *out = json_array();
    sd_buf ptr = SD_BUF_INIT;
    for (size_t i = 0; i < arr->n; i++) {
        sd_buf_clear(&ptr);
        sd_buf_printf(&ptr, "%s/%s/%zu", pointer, kw, i);
        json_array_append_new(out, build(c, NULL, path, ptr.ptr, arr->items[i].value, sdoc, NULL, NULL, depth + 1));
    }
    sd_buf_release(&ptr);
    return out;
}

/* The dotted values path as helm-docs writes it: `a.b`, `a[0].b`, and keys
 * holding '.' or ' ' in double quotes (`configs.cm."admin.enabled"`). */
static void child_path(sd_buf *b, const char *path, const char *key)
{
    sd_buf_clear(b);
    if (path)
        sd_buf_puts(b, path);
    if (key[0] == '[' || !strcmp(key, "*"))
        sd_buf_puts(b, key[0] == '*' && b->len ? ".*" : key);
    else
        sd_annot_path_push(b, key, strlen(key));
}

static void child_pointer(sd_buf *b, const char *pointer, const char *kw, const char *key)
{
    sd_buf_clear(b);
    sd_buf_puts(b, pointer);
    sd_buf_putc(b, '/');
    sd_buf_puts(b, kw);
    if (key) {
        sd_buf_putc(b, '/');
        for (const char *k = key; *k; k++) {
            if (*k == '~') sd_buf_puts(b, "~0");
            else if (*k == '/') sd_buf_puts(b, "~1");
            else sd_buf_putc(b, *k);
        }
    }
}

static json_t *build(mctx *c, const char *key, const char *path, const char *pointer,
                     const sd_node *schema, const sd_doc *sdoc,
                     const sd_pair *vpair, const sd_node *value, int depth)
{
    json_t *n = json_object();
    const sd_node *eff = schema, *ref, *t;
    const sd_doc *edoc = sdoc;  /* the document eff lives in */
    const char *ref_id = NULL;
    const sd_annot *an = c->annots && path ? sd_annots_get(c->annots, path) : NULL;
    sd_buf cp = SD_BUF_INIT, cptr = SD_BUF_INIT;
    char *id = unique_id(c, path && *path ? path : key ? key : NULL);

    if (schema && schema->kind != SD_MAP)
        schema = eff = NULL; /* boolean schemas: nothing to document */
    setn(n, "id", json_string(id));
    free(id);
    setn(n, "key", key ? json_string(key) : json_null());
    setn(n, "path", json_string(path ? path : ""));
    setn(n, "pointer", json_string(pointer));

    /* a $ref links to a shared definition; the target supplies what the
     * referring node does not say itself */
    if (schema && (ref = sd_node_get(schema, "$ref")) && ref->kind == SD_STR) {
        const sd_doc *tdoc;
        const sd_node *target = resolve_ref(c, sdoc, ref, &ref_id, &tdoc);
        if (ref_id) {
            setn(n, "ref", json_string(ref_id));
            if (target == c->building)
                setn(n, "recursive", json_true());
        } else {
            setn(n, "ref_unresolved", json_string(ref->str));
        }
        if (target && target->kind == SD_MAP) {
            eff = target;
            edoc = tdoc;
        }
    }
#define KW(name) (schema && (t = sd_node_get(schema, name)) ? t : (eff && (t = sd_node_get(eff, name)) ? t : NULL))
/* the document a keyword found by KW() belongs to */
#define KWDOC(name) (schema && sd_node_get(schema, name) ? sdoc : edoc)

    /* title and description */
    if ((t = KW("title")) && t->kind == SD_STR) {
        setn(n, "title", json_string(t->str));
        setb(n, "title_explicit", 1);
    } else if (key && (!strcmp(key, "[]") || key[0] == '[' || !strcmp(key, "*"))) {
        setn(n, "title", json_string(!strcmp(key, "*") ? "Any key" : key[1] == ']' ? "Item" : key));
    } else {
        char *h = sd_humanize(key ? key : "");
        setn(n, "title", json_string(h ? h : ""));
        free(h);
    }
    if (an && an->description && an->described) {
        setn(n, "description", json_string(an->description));
        setn(n, "description_from", json_string("values"));
    } else if ((t = KW("description")) && t->kind == SD_STR) {
        setn(n, "description", json_string(t->str));
        setn(n, "description_from", json_string("schema"));
    }

    /* types */
    json_t *types = json_array();
    int nullable = 0;
    if ((t = KW("type"))) {
        if (t->kind == SD_STR)
            json_array_append_new(types, json_string(t->str));
        else if (t->kind == SD_SEQ)
            for (size_t i = 0; i < t->n; i++)
                if (t->items[i].value->kind == SD_STR)
                    json_array_append_new(types, json_string(t->items[i].value->str));
    } else if (value) {
        json_array_append_new(types, json_string(sd_node_type_word(value)));
    }
    for (size_t i = 0; i < json_array_size(types); i++)
        if (!strcmp(json_string_value(json_array_get(types, i)), "null"))
            nullable = 1;
    if ((t = KW("nullable")) && t->kind == SD_BOOL && t->num.b)
        nullable = 1;
    if (an && an->nullable)
        nullable = 1;
    const char *ht = NULL;
    if (an && an->type)
        ht = an->type;
    else if (value)
        ht = helm_sd_node_type_word(value);
    else if (json_array_size(types))
        ht = helm_type_of_schema(json_string_value(json_array_get(types, 0)));
    const sd_node *tkw;
    if (value && json_array_size(types) && schema && (tkw = KW("type"))) {
        /* merge rule: the schema's type wins; a default of another type is
         * reported at both places */
        const char *vt = sd_node_type_word(value);
        int ok = 0;
        size_t i;
        json_t *tw;
        json_array_foreach(types, i, tw) {
            const char *w = json_string_value(tw);
            if (!strcmp(w, vt) || (!strcmp(w, "number") && !strcmp(vt, "integer")) ||
                (!strcmp(w, "integer") && !strcmp(vt, "number") && value->num.f == (double)(long long)value->num.f))
                ok = 1;
        }
        if (!ok && !(nullable && value->kind == SD_NULL) && !(KW("x-kubernetes-int-or-string"))) {
            char *ts = json_dumps(types, JSON_COMPACT | JSON_ENCODE_ANY);
            sd_diag_warning(c->diags, value->loc, "%s: the default is %s but the schema says %s (%s:%d:%d)",
                            path && *path ? path : "(root)", vt, ts ? ts : "?", tkw->loc.file, tkw->loc.line, tkw->loc.column);
            sd_diag_add(c->diags, SD_SEV_NOTE, 0, tkw->loc, NULL, NULL, "%s: the schema's type is here",
                        path && *path ? path : "(root)");
            free(ts);
        }
    }
    setn(n, "type", types);
    setn(n, "helm_type", json_string(ht ? ht : ""));
    setb(n, "nullable", nullable);

    /* default: the value written in values.yaml, else the schema's */
    if (value) {
        setn(n, "default", sd_node_to_jansson(value));
        setb(n, "has_default", 1);
    } else if ((t = KW("default"))) {
        setn(n, "default", sd_node_to_jansson(t));
        setb(n, "has_default", 1);
    }
    if (an && an->default_text)
        setn(n, "default_text", json_string(an->default_text));

    /* examples, enum, const */
    json_t *ex = json_array();
    if ((t = KW("x-examples")) && t->kind == SD_SEQ) {
        /* ytt examples: {title?, value} */
        for (size_t i = 0; i < t->n; i++) {
            const sd_node *e = t->items[i].value, *x;
            json_t *o = json_object();
            if ((x = sd_node_get(e, "title")) && x->kind == SD_STR)
                setn(o, "title", json_string(x->str));
            if ((x = sd_node_get(e, "value"))) {
                if (x->tag && !strcmp(x->tag, "!starlark"))
                    setn(o, "source", json_string(x->str));
                else
                    setn(o, "value", sd_node_to_jansson(x));
            }
            json_array_append_new(ex, o);
        }
    } else if ((t = KW("examples")) && t->kind == SD_SEQ)
        for (size_t i = 0; i < t->n; i++) {
            json_t *e = json_object();
            setn(e, "value", sd_node_to_jansson(t->items[i].value));
            json_array_append_new(ex, e);
        }
    else if ((t = KW("example"))) {
        json_t *e = json_object();
        setn(e, "value", sd_node_to_jansson(t));
        json_array_append_new(ex, e);
    }
    setne(n, "examples", ex);
    if ((t = KW("enum")))
        setn(n, "enum", sd_node_to_jansson(t));
    if ((t = KW("const")))
        setn(n, "const", sd_node_to_jansson(t));

    json_t *cons = json_object();
    for (const char *const *k = constraint_keys; *k; k++)
        if ((t = KW(*k)))
            setn(cons, *k, sd_node_to_jansson(t));
    if ((t = KW("additionalProperties")) && t->kind == SD_BOOL)
        setn(cons, "additionalProperties", json_boolean(t->num.b));
    setne(n, "constraints", cons);

    /* flags */
    int deprecated = (t = KW("deprecated")) && t->kind == SD_BOOL && t->num.b;
    setb(n, "deprecated", deprecated);
    if ((t = KW("x-deprecation")) && t->kind == SD_STR)
        setn(n, "deprecation", json_string(t->str));
    if ((t = KW("x-removed"))) {
        setb(n, "removed", 1);
        setn(n, "removal", json_string(t->kind == SD_STR ? t->str : ""));
    }
    if (((t = KW("x-ytt-rules")) && t->kind == SD_SEQ) || KW("x-ytt-key")) {
        json_t *y = json_object();
        if (t && t->kind == SD_SEQ)
            setn(y, "rules", sd_node_to_jansson(t));
        if ((t = KW("x-ytt-key")) && t->kind == SD_STR)
            setn(y, "key", json_string(t->str));
        setn(n, "ytt", y);
    }
    setb(n, "readOnly", (t = KW("readOnly")) && t->kind == SD_BOOL && t->num.b);
    setb(n, "writeOnly", (t = KW("writeOnly")) && t->kind == SD_BOOL && t->num.b);
    /* "required" is set by the parent */
    if (an && an->section)
        setn(n, "section", json_string(an->section));

    /* Kubernetes extensions */
    json_t *k8s = json_object();
    if ((t = KW("x-kubernetes-int-or-string")) && t->kind == SD_BOOL && t->num.b)
        setn(k8s, "int_or_string", json_true());
    if ((t = KW("x-kubernetes-preserve-unknown-fields")) && t->kind == SD_BOOL && t->num.b)
        setn(k8s, "preserve_unknown_fields", json_true());
    if ((t = KW("x-kubernetes-embedded-resource")) && t->kind == SD_BOOL && t->num.b)
        setn(k8s, "embedded_resource", json_true());
    if ((t = KW("x-kubernetes-list-type")) && t->kind == SD_STR)
        setn(k8s, "list_type", json_string(t->str));
    if ((t = KW("x-kubernetes-list-map-keys")))
        setn(k8s, "list_map_keys", sd_node_to_jansson(t));
    if ((t = KW("x-kubernetes-map-type")) && t->kind == SD_STR)
        setn(k8s, "map_type", json_string(t->str));
    if ((t = KW("x-kubernetes-validations")) && t->kind == SD_SEQ) {
        json_t *rules = json_array();
        for (size_t i = 0; i < t->n; i++) {
            const sd_node *r = t->items[i].value;
            json_t *o = json_object();
            const sd_node *x;
            if ((x = sd_node_get(r, "rule"))) setn(o, "rule", sd_node_to_jansson(x));
            if ((x = sd_node_get(r, "message"))) setn(o, "message", sd_node_to_jansson(x));
            if ((x = sd_node_get(r, "messageExpression"))) setn(o, "messageExpression", sd_node_to_jansson(x));
            if ((x = sd_node_get(r, "reason"))) setn(o, "reason", sd_node_to_jansson(x));
            if ((x = sd_node_get(r, "fieldPath"))) setn(o, "fieldPath", sd_node_to_jansson(x));
            json_array_append_new(rules, o);
        }
        setn(k8s, "validations", rules);
    }
    if (json_object_size(k8s))
        setn(n, "kubernetes", k8s);
    else
        json_decref(k8s);

    /* where */
    if (schema)
        setn(n, "defined_at", loc_json(schema->loc));
    if (vpair && vpair->key)
        setn(n, "value_at", loc_json(vpair->key->loc));
    else if (value)
        setn(n, "value_at", loc_json(value->loc));

    if (depth >= c->opts.max_depth) {
        setn(n, "truncated", json_true());
        goto done;
    }

    /* children: properties (values order first, then schema-only ones) */
    /* Structure comes from the node itself; a referenced definition's
     * structure is documented once, with the definition, and only consulted
     * for the values written below this node. */
    const sd_node *st = ref_id ? schema : eff;
#define SKW(name) (st ? sd_node_get(st, name) : NULL)
    json_t *props = json_array();
    const sd_node *sprops = KW("properties");
    const sd_node *addl = KW("additionalProperties");
    const sd_node *pattern = KW("patternProperties");
    const sd_node *req = KW("required");
    const sd_node *own_props = SKW("properties");
    if (sprops && sprops->kind != SD_MAP)
        sprops = NULL;
    if (value && value->kind == SD_MAP) {
        for (size_t i = 0; i < value->n; i++) {
            const sd_pair *vp = &value->items[i];
            const char *k = vp->key->str;
            const sd_node *ks = sprops ? sd_node_get(sprops, k) : NULL;
            const sd_doc *kdoc = KWDOC("properties");
            child_path(&cp, path, k);
            if (ks) {
                child_pointer(&cptr, pointer, "properties", k);
            } else if (pattern && pattern->kind == SD_MAP && pattern->n) {
                /* documented by the first pattern's schema (no regex match here) */
                ks = pattern->items[0].value;
                kdoc = KWDOC("patternProperties");
                child_pointer(&cptr, pointer, "patternProperties", pattern->items[0].key->str);
            } else if (addl && addl->kind == SD_MAP) {
                ks = addl;
                kdoc = KWDOC("additionalProperties");
                child_pointer(&cptr, pointer, "additionalProperties", NULL);
            } else {
                child_pointer(&cptr, pointer, "properties", k);
            }
            json_t *ch = build(c, k, cp.ptr, cptr.ptr, ks, kdoc, vp, vp->value, depth + 1);
            json_array_append_new(props, ch);
        }
    }
    if (own_props && own_props->kind == SD_MAP) {
        for (size_t i = 0; i < own_props->n; i++) {
            const char *k = own_props->items[i].key->str;
            if (value && value->kind == SD_MAP && sd_node_get(value, k))
                continue;
            child_path(&cp, path, k);
            child_pointer(&cptr, pointer, "properties", k);
            json_array_append_new(props, build(c, k, cp.ptr, cptr.ptr, own_props->items[i].value, sdoc, NULL, NULL, depth + 1));
        }
    }
    if (req && req->kind == SD_SEQ) {
        size_t i;
        json_t *ch;
        json_array_foreach(props, i, ch) {
            const char *k = json_string_value(json_object_get(ch, "key"));
            for (size_t r = 0; k && r < req->n; r++)
                if (req->items[r].value->kind == SD_STR && !strcmp(req->items[r].value->str, k))
                    json_object_set_new(ch, "required", json_true());
        }
    }
    if (json_array_size(props))
        setn(n, "properties", props);
    else
        json_decref(props);

    /* list elements written in values.yaml: key[0], key[1], ... */
    const sd_node *items = KW("items");
    const sd_node *prefix = KW("prefixItems");
    const sd_node *own_items = SKW("items");
    const sd_node *own_prefix = SKW("prefixItems");
    const sd_node *own_addl = SKW("additionalProperties");
    const sd_node *own_pattern = SKW("patternProperties");
    if (value && value->kind == SD_SEQ && value->n) {
        json_t *els = json_array();
        for (size_t i = 0; i < value->n; i++) {
            char ik[32];
            const sd_node *is = prefix && prefix->kind == SD_SEQ && i < prefix->n ? prefix->items[i].value
                              : items && items->kind == SD_MAP ? items
                              : items && items->kind == SD_SEQ && i < items->n ? items->items[i].value : NULL;
            snprintf(ik, sizeof ik, "[%zu]", i);
            child_path(&cp, path, ik);
            sd_buf_clear(&cptr);
            sd_buf_printf(&cptr, "%s/items", pointer);
            const sd_doc *idoc = prefix && prefix->kind == SD_SEQ && i < prefix->n ? KWDOC("prefixItems") : KWDOC("items");
            json_array_append_new(els, build(c, ik, cp.ptr, cptr.ptr, is, idoc, &value->items[i], value->items[i].value, depth + 1));
        }
        setn(n, "elements", els);
    }
    if (own_items && own_items->kind == SD_MAP) {
        child_path(&cp, path, "[]");
        child_pointer(&cptr, pointer, "items", NULL);
        setn(n, "items", build(c, "[]", cp.ptr, cptr.ptr, own_items, sdoc, NULL, NULL, depth + 1));
    }
    if (own_prefix && own_prefix->kind == SD_SEQ)
        setn(n, "prefixItems", branch_list(c, own_prefix, "prefixItems", path, pointer, sdoc, depth));
    if (own_addl && own_addl->kind == SD_MAP) {
        child_path(&cp, path, "*");
        child_pointer(&cptr, pointer, "additionalProperties", NULL);
        setn(n, "additionalProperties", build(c, "*", cp.ptr, cptr.ptr, own_addl, sdoc, NULL, NULL, depth + 1));
    }
    if (own_pattern && own_pattern->kind == SD_MAP && own_pattern->n) {
        json_t *pp = json_array();
        for (size_t i = 0; i < own_pattern->n; i++) {
            json_t *o = json_object();
            setn(o, "pattern", json_string(own_pattern->items[i].key->str));
            child_path(&cp, path, "*");
            child_pointer(&cptr, pointer, "patternProperties", own_pattern->items[i].key->str);
            setn(o, "node", build(c, "*", cp.ptr, cptr.ptr, own_pattern->items[i].value, sdoc, NULL, NULL, depth + 1));
            json_array_append_new(pp, o);
        }
        setn(n, "patternProperties", pp);
    }
    if ((t = SKW("propertyNames")) && t->kind == SD_MAP) {
        child_pointer(&cptr, pointer, "propertyNames", NULL);
        setn(n, "propertyNames", build(c, NULL, path, cptr.ptr, t, sdoc, NULL, NULL, depth + 1));
    }
    static const char *const lists[] = { "allOf", "anyOf", "oneOf", NULL };
    for (const char *const *k = lists; *k; k++)
        if (schema && (t = sd_node_get(schema, *k)) && t->kind == SD_SEQ)
            setn(n, *k, branch_list(c, t, *k, path, pointer, sdoc, depth));
    static const char *const singles[] = { "not", "if", "then", "else", "contains", NULL };
    for (const char *const *k = singles; *k; k++)
        if (schema && (t = sd_node_get(schema, *k)) && t->kind == SD_MAP) {
            child_pointer(&cptr, pointer, *k, NULL);
            setn(n, *k, build(c, NULL, path, cptr.ptr, t, sdoc, NULL, NULL, depth + 1));
        }
#undef KW
#undef KWDOC
#undef SKW
done:
    sd_buf_release(&cp);
    sd_buf_release(&cptr);
    return n;
}

/* Build every registered definition (building may register more). */
static json_t *build_definitions(mctx *c)
{
    json_t *defs = json_array();
    for (size_t i = 0; i < c->ndefs; i++) {
        /* building may register more definitions (and move c->defs) */
        if (c->defs[i].built)
            continue;
        c->defs[i].built = 1;
        const sd_node *target = c->defs[i].target;
        const sd_doc *tdoc = c->defs[i].doc;
        char *id = strdup(c->defs[i].id);
        char *ptr = strdup(c->defs[i].pointer);
        if (!id || !ptr) {
            free(id);
            free(ptr);
            break;
        }
        const char *name = id + 4; /* "def-" */
        const sd_node *saved = c->building;
        c->building = target;
        c->id_prefix = "def-";
        json_t *n = build(c, name, name, ptr, target, tdoc, NULL, NULL, 0);
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

/* ---- sources ------------------------------------------------------------------ */

static json_t *chart_meta(const sd_chart *ch)
{
    const sd_node *r = sd_doc_root(ch->chart_yaml);
    json_t *m = r && r->kind == SD_MAP ? sd_node_to_jansson(r) : json_object();
    json_object_set_new(m, "dir", json_string(ch->dir));
    json_object_set_new(m, "defined_at", json_string(ch->chart_yaml->file));
    return m;
}

/* Register the definitions/$defs of a schema so that they are listed even
 * when nothing refers to them. */
static void register_defs(mctx *c, const sd_doc *doc)
{
    const sd_node *root = sd_doc_root(doc);
    static const char *const kws[] = { "$defs", "definitions", NULL };
    for (const char *const *k = kws; *k; k++) {
        const sd_node *d = sd_node_get(root, *k);
        if (d && d->kind == SD_MAP)
            for (size_t i = 0; i < d->n; i++)
            {
                sd_buf p = SD_BUF_INIT;
                sd_buf_printf(&p, "#/%s/", *k);
                for (const char *q = d->items[i].key->str; *q; q++) {
                    if (*q == '~') sd_buf_puts(&p, "~0");
                    else if (*q == '/') sd_buf_puts(&p, "~1");
                    else sd_buf_putc(&p, *q);
                }
                def_id(c, d->items[i].value, doc, d->items[i].key->str, p.ptr);
                sd_buf_release(&p);
            }
    }
}

static void index_nodes(json_t *idx, json_t *n, int depth)
{
    static const char *const kids[] = { "properties", "elements", NULL };
    const char *path = json_string_value(json_object_get(n, "path"));
    if (depth > 200)
        return;
    if (path && *path && !json_object_get(idx, path))
        json_object_set(idx, path, n);
    for (const char *const *k = kids; *k; k++) {
        size_t i;
        json_t *ch;
        json_array_foreach(json_object_get(n, *k), i, ch)
            index_nodes(idx, ch, depth + 1);
    }
}

/* Each row points at its node (by id) and carries the schema's verdicts
 * that tables show: required, deprecated, the JSON Schema types. */
static void link_rows(json_t *rows, json_t *root)
{
    json_t *idx = json_object();
    size_t i;
    json_t *r;
    index_nodes(idx, root, 0);
    json_array_foreach(rows, i, r) {
        json_t *n = json_object_get(idx, json_string_value(json_object_get(r, "key")));
        if (!n) {
            json_object_set_new(r, "node", json_null());
            continue;
        }
        json_object_set(r, "node", json_object_get(n, "id"));
        json_object_set(r, "required", json_object_get(n, "required"));
        json_object_set(r, "deprecated", json_object_get(n, "deprecated"));
        json_object_set(r, "schema_type", json_object_get(n, "type"));
        if (json_object_get(n, "enum"))
            json_object_set(r, "enum", json_object_get(n, "enum"));
        if (json_object_get(n, "ref_unresolved"))
            json_object_set(r, "ref_unresolved", json_object_get(n, "ref_unresolved"));
    }
    json_decref(idx);
}

static json_t *model_chart(mctx *c, const sd_chart *ch)
{
    json_t *m = json_object();
    const sd_node *values = ch->values ? sd_doc_root(ch->values) : NULL;
    const sd_node *schema = ch->schema ? sd_doc_root(ch->schema) : NULL;
    sd_annots an;

    if (sd_annots_scan(&an, ch->values, c->diags) < 0) {
        json_decref(m);
        return NULL;
    }
    c->annots = &an;
    if (ch->schema_is_yaml)
        sd_diag_warning(c->diags, (sd_loc){ ch->schema->file, 0, 0 },
                        "Helm itself only reads values.schema.json; values.schema.yaml is used for documentation and validation here");
    json_t *src = json_object();
    json_object_set_new(src, "kind", json_string("chart"));
    json_object_set_new(src, "path", json_string(ch->dir));
    json_object_set_new(src, "values", ch->values ? json_string(ch->values->file) : json_null());
    json_object_set_new(src, "schema", ch->schema ? json_string(ch->schema->file) : json_null());
    json_object_set_new(src, "dialect", json_string(an.dialect == SD_DIALECT_BITNAMI ? "bitnami" : "helm-docs"));
    json_object_set_new(m, "source", src);
    json_object_set_new(m, "chart", chart_meta(ch));
    if (an.chart_description)
        json_object_set_new(json_object_get(m, "chart"), "readme_description", json_string(an.chart_description));
    if (values && values->kind != SD_MAP && values->kind != SD_NULL)
        sd_diag_warning(c->diags, values->loc, "values.yaml is not a map");
    if (ch->schema)
        register_defs(c, ch->schema);
    json_t *root = build(c, NULL, "", "#", schema, ch->schema, NULL,
                         values && values->kind == SD_MAP ? values : NULL, 0);
    json_object_set_new(root, "title", json_string(sd_chart_name(ch) ? sd_chart_name(ch) : "values"));
    /* subcharts under charts/NAME/ are documented under their alias key, as
     * `helm-docs -u` does; keys the parent sets for them stay the parent's */
    for (size_t i = 0; i < ch->nsubcharts; i++) {
        const sd_chart *sub = ch->subcharts[i];
        if (values && sd_node_get(values, sub->alias))
            continue;
        sd_annots san;
        if (sd_annots_scan(&san, sub->values, c->diags) < 0)
            continue;
        sd_annots *saved = c->annots;
        c->annots = &san;
        if (sub->schema)
            register_defs(c, sub->schema);
        const sd_node *sv = sub->values ? sd_doc_root(sub->values) : NULL;
        json_t *sn = build(c, sub->alias, sub->alias, "#", sub->schema ? sd_doc_root(sub->schema) : NULL,
                           sub->schema, NULL, sv && sv->kind == SD_MAP ? sv : NULL, 1);
        json_object_set_new(sn, "subchart", json_string(sd_chart_name(sub) ? sd_chart_name(sub) : sub->alias));
        json_t *props = json_object_get(root, "properties");
        if (!props) {
            props = json_array();
            json_object_set_new(root, "properties", props);
        }
        json_array_append_new(props, sn);
        c->annots = saved;
        sd_annots_release(&san);
    }
    json_object_set_new(m, "root", root);
    json_object_set_new(m, "definitions", build_definitions(c));
    json_t *rows = sd_rows_build(ch->values, &an);
    link_rows(rows, root);
    json_object_set_new(m, "rows", rows);
    c->annots = NULL;
    sd_annots_release(&an);
    return m;
}

static json_t *model_schema(mctx *c, const sd_doc *doc)
{
    json_t *m = json_object();
    const sd_node *root = sd_doc_root(doc);
    json_t *src = json_object();
    const sd_node *t;

    json_object_set_new(src, "kind", json_string("schema"));
    json_object_set_new(src, "path", json_string(doc->file));
    if ((t = sd_node_get(root, "$schema")) && t->kind == SD_STR)
        json_object_set_new(src, "$schema", json_string(t->str));
    json_object_set_new(m, "source", src);
    register_defs(c, doc);
    json_t *r = build(c, NULL, "", "#", root, doc, NULL, NULL, 0);
    json_object_set_new(m, "root", r);
    json_object_set_new(m, "definitions", build_definitions(c));
    return m;
}

/* ---- ytt schemas ------------------------------------------------------------ */

static json_t *model_ytt(mctx *c, const sd_doc *doc)
{
    sd_doc *schema = NULL;
    if (sd_ytt_schema(&schema, doc, c->diags) < 0)
        return NULL;
    json_t *m = json_object(), *src = json_object(), *y = json_object();
    const sd_node *root = sd_doc_root(schema), *t;
    json_object_set_new(src, "kind", json_string("ytt"));
    json_object_set_new(src, "path", json_string(doc->file));
    json_object_set_new(m, "source", src);
    json_object_set_new(y, "file", json_string(doc->file));
    if ((t = sd_node_get(root, "title")) && t->kind == SD_STR)
        json_object_set_new(y, "title", json_string(t->str));
    if ((t = sd_node_get(root, "description")) && t->kind == SD_STR)
        json_object_set_new(y, "description", json_string(t->str));
    json_object_set_new(m, "ytt", y);
    json_t *r = build(c, NULL, "", "#", root, schema, NULL, NULL, 0);
    if (!json_object_get(y, "title"))
        json_object_set_new(r, "title", json_string("Data values"));
    json_object_set_new(m, "root", r);
    json_object_set_new(m, "definitions", build_definitions(c));
    sd_doc_free(schema);
    return m;
}

/* ---- Kubernetes CRDs ------------------------------------------------------- */

static int is_crd(const sd_node *r)
{
    const char *k = sd_node_str(sd_node_get(r, "kind"));
    return k && !strcmp(k, "CustomResourceDefinition");
}

static json_t *str_or_null(const sd_node *n)
{
    return n && n->kind != SD_MAP && n->kind != SD_SEQ ? sd_node_to_jansson(n) : json_null();
}

/* One CRD: its names and, per version, the openAPIV3Schema tree
 * (apiextensions.k8s.io/v1 spec.versions[].schema, or v1beta1's
 * spec.validation shared by every version). */
static json_t *crd_model(mctx *c, const sd_doc *doc, const sd_node *r, size_t docidx)
{
    const sd_node *spec = sd_node_get(r, "spec"), *names = sd_node_get(spec, "names");
    json_t *crd = json_object(), *versions = json_array();
    sd_buf ptr = SD_BUF_INIT;

    json_object_set_new(crd, "name", str_or_null(sd_node_get(sd_node_get(r, "metadata"), "name")));
    json_object_set_new(crd, "apiVersion", str_or_null(sd_node_get(r, "apiVersion")));
    json_object_set_new(crd, "group", str_or_null(sd_node_get(spec, "group")));
    json_object_set_new(crd, "scope", str_or_null(sd_node_get(spec, "scope")));
    json_object_set_new(crd, "names", names && names->kind == SD_MAP ? sd_node_to_jansson(names) : json_object());
    json_object_set_new(crd, "kind", str_or_null(sd_node_get(names, "kind")));
    json_object_set_new(crd, "defined_at", loc_json(r->loc));

    const sd_node *vs = sd_node_get(spec, "versions");
    const sd_node *shared = sd_node_get(sd_node_get(spec, "validation"), "openAPIV3Schema");
    size_t nv = vs && vs->kind == SD_SEQ ? vs->n : 0;
    for (size_t i = 0; i < nv || (i == 0 && nv == 0); i++) {
        const sd_node *v = nv ? vs->items[i].value : NULL;
        const sd_node *schema = v ? sd_node_get(sd_node_get(v, "schema"), "openAPIV3Schema") : NULL;
        json_t *o = json_object();
        const sd_node *t;
        sd_buf_clear(&ptr);
        if (schema)
            sd_buf_printf(&ptr, "#/%zu/spec/versions/%zu/schema/openAPIV3Schema", docidx, i);
        else if ((schema = shared))
            sd_buf_printf(&ptr, "#/%zu/spec/validation/openAPIV3Schema", docidx);
        json_object_set_new(o, "name", v ? str_or_null(sd_node_get(v, "name")) : str_or_null(sd_node_get(spec, "version")));
        json_object_set_new(o, "served", json_boolean(!v || !(t = sd_node_get(v, "served")) || (t->kind == SD_BOOL && t->num.b)));
        json_object_set_new(o, "storage", json_boolean(v ? (t = sd_node_get(v, "storage")) && t->kind == SD_BOOL && t->num.b : 1));
        json_object_set_new(o, "deprecated", json_boolean(v && (t = sd_node_get(v, "deprecated")) && t->kind == SD_BOOL && t->num.b));
        if (v && (t = sd_node_get(v, "deprecationWarning")) && t->kind == SD_STR)
            json_object_set_new(o, "deprecationWarning", json_string(t->str));
        if (v && (t = sd_node_get(v, "additionalPrinterColumns")))
            json_object_set_new(o, "printerColumns", sd_node_to_jansson(t));
        if (schema) {
            json_t *root = build(c, NULL, "", ptr.ptr, schema, doc, NULL, NULL, 0);
            json_object_set_new(root, "title", json_string(json_string_value(json_object_get(crd, "kind")) ?
                                                           json_string_value(json_object_get(crd, "kind")) : "resource"));
            json_object_set_new(o, "root", root);
        } else {
            json_object_set_new(o, "root", json_null());
        }
        json_array_append_new(versions, o);
    }
    json_object_set_new(crd, "versions", versions);
    sd_buf_release(&ptr);
    return crd;
}

static json_t *model_crds(mctx *c, const sd_doc *doc)
{
    json_t *m = json_object(), *crds = json_array(), *src = json_object();

    json_object_set_new(src, "kind", json_string("crd"));
    json_object_set_new(src, "path", json_string(doc->file));
    json_object_set_new(m, "source", src);
    for (size_t i = 0; i < doc->nroots; i++)
        if (is_crd(doc->roots[i].node))
            json_array_append_new(crds, crd_model(c, doc, doc->roots[i].node, i));
    /* the first CRD's fields at the top; its storage version as the root */
    json_t *first = json_array_get(crds, 0);
    json_object_set(m, "crd", first);
    json_object_set(m, "versions", json_object_get(first, "versions"));
    json_t *root = json_null();
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(first, "versions"), i, v)
        if (json_is_true(json_object_get(v, "storage")) || json_is_null(root))
            root = json_object_get(v, "root");
    json_object_set(m, "root", root);
    json_object_set_new(m, "crds", crds);
    json_object_set_new(m, "definitions", build_definitions(c));
    return m;
}

json_t *sd_model_build(const char *source, const sd_model_opts *opts, sd_diags *diags)
{
    mctx c;
    json_t *m = NULL;

    memset(&c, 0, sizeof c);
    c.diags = diags;
    if (opts)
        c.opts = *opts;
    if (!c.opts.max_depth)
        c.opts.max_depth = 64;
    c.ids = json_object();
    {
        sd_docset_opts dopts;
        memset(&dopts, 0, sizeof dopts);
        dopts.chart_root = sd_chart_is_dir(source) ? source : NULL;
        dopts.fetch.cache_dir = c.opts.cache_dir;
        dopts.fetch.offline = c.opts.offline;
        dopts.fetch.refresh = c.opts.refresh;
        dopts.fetch.timeout_ms = c.opts.timeout_ms;
        if (sd_docset_new(&c.docs, &dopts, diags) < 0)
            goto out;
        if (dopts.chart_root && sd_docset_read_chart_map(c.docs, diags) < 0)
            goto out;
        for (size_t i = 0; i < c.opts.nmaps; i++)
            if (sd_docset_add_map(c.docs, c.opts.maps[i], diags) < 0)
                goto out;
    }
    if (sd_chart_is_dir(source)) {
        sd_chart *ch;
        if (sd_chart_load(&ch, source, diags) == 0) {
            m = model_chart(&c, ch);
            sd_chart_free(ch);
        }
    } else {
        sd_doc *doc;
        if (sd_doc_load_file(&doc, source, SD_FMT_AUTO, NULL, diags) == 0) {
            int crd = 0;
            for (size_t i = 0; i < doc->nroots; i++)
                crd |= is_crd(doc->roots[i].node);
            m = crd ? model_crds(&c, doc) : sd_ytt_is_schema(doc) ? model_ytt(&c, doc) : model_schema(&c, doc);
            sd_doc_free(doc);
        }
    }
    if (m && c.err) {
        json_decref(m);
        m = NULL;
    }
    if (m)
        json_object_set_new(m, "schemadoc", json_string(SD_VERSION));
out:
    sd_docset_free(c.docs);
    for (size_t i = 0; i < c.ndefs; i++) {
        free(c.defs[i].id);
        free(c.defs[i].pointer);
    }
    free(c.defs);
    json_decref(c.ids);
    return m;
}
