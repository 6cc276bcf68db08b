/* SPDX-License-Identifier: Apache-2.0 */
/* gen_hvsj.c - the helm-values-schema-json flavour (gen.h): what the `helm
 * schema` plugin (losisin/helm-values-schema-json) makes of a values file.
 *
 * A map is an object with its keys as properties, a list an array whose
 * items are every item's schema merged, a scalar a type read from its text
 * as Go's strconv reads it (a quoted one is a string; an empty one null),
 * an alias nothing. Then the key's `@schema` parts, in the order written
 * (head comment, line, foot), each a keyword or one of the tool's words
 * (`item`, `itemProperties`, `skipProperties`, `mergeProperties`, `hidden`,
 * `nullable`, `required`...). Descriptions come from helm-docs `# --`
 * lines when helm_docs is on. An annotation the tool would refuse is a
 * warning here, and the part is left out. */
#include "gen_int.h"
#include "alloc.h"
#include "synth.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Go's strconv on a scalar's text ----------------------------------- */

static int go_parse_int10(const char *s)
{
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    if (!*p)
        return 0;
    for (; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    errno = 0;
    (void)strtoll(s, NULL, 10);
    return errno == 0;
}

/* An exponent's sign and digits from `p` (after its letter): the position
 * after them, or NULL when there is no digit. */
static const char *exponent_digits(const char *p)
{
    if (*p == '+' || *p == '-')
        p++;
    if (!isdigit((unsigned char)*p))
        return NULL;
    while (isdigit((unsigned char)*p))
        p++;
    return p;
}

/* strconv.ParseFloat: decimal (digits, '.', exponent, '_' between digits),
 * hexadecimal with a 'p' exponent, inf / infinity / nan in any case. */
static int go_parse_float(const char *s)
{
    const char *p = s;
    int digits = 0;
    if (*p == '+' || *p == '-')
        p++;
    if (!strcasecmp(p, "inf") || !strcasecmp(p, "infinity") || (!strcasecmp(p, "nan") && p == s))
        return 1;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
        for (; isxdigit((unsigned char)*p) || *p == '.'; p++)
            digits += *p != '.';
        if (!digits || (*p != 'p' && *p != 'P'))
            return 0;
        p = exponent_digits(p + 1);
        return p && *p == '\0';
    }
    for (; isdigit((unsigned char)*p) || *p == '.'; p++)
        digits += *p != '.';
    if (!digits)
        return 0;
    if ((*p == 'e' || *p == 'E') && !(p = exponent_digits(p + 1)))
        return 0;
    if (*p)
        return 0;
    /* at most one '.' */
    return strchr(s, '.') == strrchr(s, '.');
}

static int go_parse_bool(const char *s, int *v)
{
    static const char *const t[] = { "1", "t", "T", "TRUE", "true", "True" };
    static const char *const f[] = { "0", "f", "F", "FALSE", "false", "False" };
    for (int i = 0; i < 6; i++) {
        if (!strcmp(s, t[i]))
            return *v = 1, 1;
        if (!strcmp(s, f[i]))
            return *v = 0, 1;
    }
    return 0;
}

/* losisin's getYAMLKind */
static const char *yaml_kind(const char *s)
{
    int b;
    if (go_parse_int10(s))
        return "integer";
    if (go_parse_float(s))
        return "number";
    if (go_parse_bool(s, &b))
        return "boolean";
    return *s ? "string" : "null";
}

/* ---- the parts ------------------------------------------------------------ */

static void warn(gen *g, const sd_hvsj_part *p, const char *why)
{
    sd_diag_warning(g->diags, p->loc, "`@schema %s`: %s; the part is left out", p->name, why);
}

/* processList: a YAML flow list, else comma-separated words (a word in
 * double quotes unquoted; "null" is null unless strings_only). */
static sd_node *plist(gen *g, const sd_hvsj_part *p, int strings_only)
{
    const char *v = p->value;
    sd_node *list = sd_gen__seq(g);
    if (!list)
        return NULL;
    if (v[0] == '[') {
        int bad;
        sd_diags quiet = SD_DIAGS_INIT;
        sd_node *y = sd_atschema_yaml(&g->at, v, strlen(v), p->loc, &quiet, &bad);
        sd_diags_release(&quiet);
        if (y && y->kind == SD_SEQ) {
            for (uint32_t i = 0; i < y->n; i++) {
                const sd_node *it = y->items[i].value;
                sd_node *c;
                if (strings_only && it->kind != SD_MAP && it->kind != SD_SEQ)
                    c = it->kind == SD_NULL ? sd_gen__str(g, "null") : sd_gen__strn(g, it->str, it->len);
                else
                    c = sd_gen__copy(g, it);
                if (!c || sd_synth_push(g->out, list, c) < 0)
                    g->oom = 1;
            }
            return list;
        }
        v++;
    }
    size_t len = strlen(v);
    if (p->value[0] == '[' && len && v[len - 1] == ']')
        len--;
    for (size_t i = 0; i <= len && !g->oom;) {
        size_t j = i;
        while (j < len && v[j] != ',')
            j++;
        size_t a = i, b = j;
        while (a < b && isspace((unsigned char)v[a]))
            a++;
        while (b > a && isspace((unsigned char)v[b - 1]))
            b--;
        sd_node *c = NULL;
        if (!strings_only && b - a == 4 && !strncmp(v + a, "null", 4)) {
            c = sd_synth_null(g->out, (sd_loc){ g->out->file, g->loc.line, g->loc.column });
        } else {
            if (b > a && v[a] == '"' && b - a >= 2 && v[b - 1] == '"') {
                a++, b--;
            } else {
                while (a < b && v[a] == '"')
                    a++;
                while (b > a && v[b - 1] == '"')
                    b--;
            }
            c = sd_gen__strn(g, v + a, b - a);
        }
        if (!c || sd_synth_push(g->out, list, c) < 0)
            g->oom = 1;
        i = j + 1;
    }
    return list;
}

/* a list of one becomes its item (losisin: `type`, `item`) */
static sd_node *one_or_list(sd_node *l)
{
    return l && l->kind == SD_SEQ && l->n == 1 ? l->items[0].value : l;
}

static int pbool(gen *g, const sd_hvsj_part *p, int *out)
{
    if (!*p->value || !strcmp(p->value, "true"))
        return *out = 1, 1;
    if (!strcmp(p->value, "false"))
        return *out = 0, 1;
    warn(g, p, "expected true or false");
    return 0;
}

/* a YAML value (processObjectComment): NULL and *ok 0 when it is not YAML */
static sd_node *pyaml(gen *g, const sd_hvsj_part *p, int *ok)
{
    int bad;
    *ok = 0;
    if (!*p->value) {
        warn(g, p, "a value is missing");
        return NULL;
    }
    sd_node *y = sd_atschema_yaml(&g->at, p->value, strlen(p->value), p->loc, g->diags, &bad);
    if (bad)
        return NULL;
    *ok = 1;
    return y ? sd_gen__copy(g, y) : NULL;
}

/* a float keyword: "null" removes it */
static void pfloat(gen *g, sd_node *s, const sd_hvsj_part *p, int positive)
{
    char *end;
    if (!strcmp(p->value, "null")) {
        sd_gen__del(s, p->name);
        return;
    }
    double d = strtod(p->value, &end);
    if (!*p->value || *end || !go_parse_float(p->value)) {
        warn(g, p, "expected a number");
        return;
    }
    if (positive && !(d > 0)) {
        warn(g, p, "must be greater than zero");
        return;
    }
    sd_gen__set(g, s, p->name, sd_gen__num(g, d));
}

static void puint(gen *g, sd_node *s, const sd_hvsj_part *p)
{
    const char *v = p->value;
    if (!strcmp(v, "null")) {
        sd_gen__del(s, p->name);
        return;
    }
    if (!*v || v[0] == '-' || strspn(v, "0123456789") != strlen(v) || strlen(v) > 18) {
        warn(g, p, "expected an integer of 0 or more");
        return;
    }
    sd_gen__set(g, s, p->name, sd_gen__int(g, strtoll(v, NULL, 10)));
}

static sd_node *items_of(gen *g, sd_node *s)
{
    sd_node *it = sd_node_get(s, "items");
    if (!it || it->kind != SD_MAP) {
        it = sd_gen__map(g);
        sd_gen__set(g, s, "items", it);
    }
    return it;
}

/* A schema (a map or a boolean) written as YAML, or a list / map of them. */
static int schema_ok(const sd_node *v)
{
    return v && (v->kind == SD_MAP || v->kind == SD_BOOL);
}

static void part(gen *g, sd_node *s, const sd_hvsj_part *p, int *nullable)
{
    const char *k = p->name;
    int b, ok;
    sd_node *v;

    if (!strcmp(k, "enum")) {
        sd_gen__set(g, s, "enum", plist(g, p, 0));
    } else if (!strcmp(k, "examples")) {
        sd_gen__set(g, s, "examples", plist(g, p, 0));
    } else if (!strcmp(k, "type")) {
        sd_gen__set(g, s, "type", one_or_list(plist(g, p, 1)));
    } else if (!strcmp(k, "skipProperties") || !strcmp(k, "mergeProperties") || !strcmp(k, "hidden") ||
               !strcmp(k, "required")) {
        if (pbool(g, p, &b))
            sd_gen__set_flag(g, s, k[0] == 's' ? GEN_SKIP : k[0] == 'm' ? GEN_MERGE : k[0] == 'h' ? GEN_HIDDEN
                                                                                        : GEN_REQ, b);
    } else if (!strcmp(k, "uniqueItems") || !strcmp(k, "readOnly") || !strcmp(k, "deprecated")) {
        if (pbool(g, p, &b)) {
            if (b)
                sd_gen__set(g, s, k, sd_gen__bool(g, 1));
            else
                sd_gen__del(s, k);
        }
    } else if (!strcmp(k, "nullable")) {
        if (pbool(g, p, &b))
            *nullable = b;
    } else if (!strcmp(k, "multipleOf")) {
        pfloat(g, s, p, 1);
    } else if (!strcmp(k, "maximum") || !strcmp(k, "minimum")) {
        pfloat(g, s, p, 0);
    } else if (!strcmp(k, "maxLength") || !strcmp(k, "minLength") || !strcmp(k, "maxItems") ||
               !strcmp(k, "minItems") || !strcmp(k, "maxProperties") || !strcmp(k, "minProperties")) {
        puint(g, s, p);
    } else if (!strcmp(k, "pattern") || !strcmp(k, "title") || !strcmp(k, "description") ||
               !strcmp(k, "$id") || !strcmp(k, "$ref")) {
        if (*p->value)
            sd_gen__set(g, s, k, sd_gen__str(g, p->value));
        else
            sd_gen__del(s, k);
    } else if (!strcmp(k, "default") || !strcmp(k, "const")) {
        v = pyaml(g, p, &ok);
        if (ok && v && v->kind != SD_NULL)
            sd_gen__set(g, s, k, v);
        else if (ok)
            sd_gen__del(s, k);
    } else if (!strcmp(k, "patternProperties") || !strcmp(k, "itemProperties")) {
        v = pyaml(g, p, &ok);
        if (ok && v && v->kind != SD_MAP)
            warn(g, p, "expected a map of schemas");
        else if (ok)
            sd_gen__set(g, k[0] == 'p' ? s : items_of(g, s), k[0] == 'p' ? k : "properties", v);
    } else if (!strcmp(k, "allOf") || !strcmp(k, "anyOf") || !strcmp(k, "oneOf")) {
        v = pyaml(g, p, &ok);
        if (ok && v && v->kind != SD_SEQ)
            warn(g, p, "expected a list of schemas");
        else if (ok)
            sd_gen__set(g, s, k, v);
    } else if (!strcmp(k, "not")) {
        v = pyaml(g, p, &ok);
        if (ok && v && !schema_ok(v))
            warn(g, p, "expected a schema");
        else if (ok)
            sd_gen__set(g, s, k, v);
    } else if (!strcmp(k, "additionalProperties") || !strcmp(k, "unevaluatedProperties")) {
        if (!*p->value) {
            sd_gen__set(g, s, k, sd_gen__bool(g, 1));
        } else {
            v = pyaml(g, p, &ok);
            if (ok && !schema_ok(v))
                warn(g, p, "expected a schema or true / false");
            else if (ok)
                sd_gen__set(g, s, k, v);
        }
    } else if (!strcmp(k, "item")) {
        sd_gen__set(g, items_of(g, s), "type", one_or_list(plist(g, p, 1)));
    } else if (!strcmp(k, "itemEnum")) {
        sd_gen__set(g, items_of(g, s), "enum", plist(g, p, 0));
    } else if (!strcmp(k, "itemRef")) {
        sd_gen__set(g, items_of(g, s), "$ref", sd_gen__str(g, p->value));
    } else if (!strcmp(k, "itemRequired")) {
        sd_node *l = plist(g, p, 1);
        sd_gen__set(g, items_of(g, s), "required", l);
    } else if (!strcmp(k, "renamedFrom") || !strcmp(k, "x-renamed-from") || !strcmp(k, "k8s")) {
        /* diff's note of an old name (docs/annotations.md 8.4), the key's
         * Kubernetes type (docs/k8s.md): no keyword */
    } else {
        warn(g, p, "not an annotation helm-values-schema-json knows");
    }
}

/* appendNullType */
static void add_null(gen *g, sd_node *s)
{
    sd_node *t = sd_node_get(s, "type");
    if (!t) {
        sd_gen__set(g, s, "type", sd_gen__str(g, "null"));
        return;
    }
    if (t->kind == SD_STR) {
        if (!strcmp(t->str, "null"))
            return;
        sd_node *l = sd_gen__seq(g);
        if (l && (sd_synth_push(g->out, l, sd_gen__strn(g, t->str, t->len)) < 0 ||
                  sd_synth_push(g->out, l, sd_gen__str(g, "null")) < 0))
            g->oom = 1;
        sd_gen__set(g, s, "type", l);
        return;
    }
    if (t->kind == SD_SEQ) {
        for (uint32_t i = 0; i < t->n; i++)
            if (t->items[i].value->kind == SD_STR && !strcmp(t->items[i].value->str, "null"))
                return;
        if (sd_synth_push(g->out, t, sd_gen__str(g, "null")) < 0)
            g->oom = 1;
    }
}

void sd_gen__hvsj_apply(gen *g, sd_node *s, const sd_atann *a, int helm_docs)
{
    int nullable = 0;
    for (size_t i = 0; a && i < a->nparts && !g->oom; i++) {
        const sd_hvsj_part *p = &a->parts[i];
        if (p->where == SD_AT_HEAD && p->in_docs && helm_docs) {
            sd_diag_warning(g->diags, p->loc, "`# @schema` below a helm-docs `# --` line is part of the "
                            "description to helm-values-schema-json; write it above the `# --` line");
            continue;
        }
        sd_loc was = g->loc;
        g->loc = p->loc;
        part(g, s, p, &nullable);
        g->loc = was;
    }
    if (nullable)
        add_null(g, s);
}

/* ---- helm-docs descriptions (losisin's ParseHelmDocsComment) ------------ */

/* The path of `# a.b."c.d" -- text` split into its keys; 1 when it names
 * the key being made (g->ptr). */
static int path_is_here(gen *g, const char *path, size_t n)
{
    size_t k = 0, i = 0;
    while (i < n) {
        size_t st, en;
        if (path[i] == '"') {
            st = i + 1;
            const char *q = memchr(path + st, '"', n - st);
            if (!q)
                return 0;
            en = (size_t)(q - path);
            i = en + 1;
        } else {
            st = i;
            while (i < n && path[i] != '.')
                i++;
            en = i;
        }
        if (k >= g->nptr || strlen(g->ptr[k]) != en - st || memcmp(g->ptr[k], path + st, en - st))
            return 0;
        k++;
        if (i < n && path[i] == '.')
            i++;
    }
    return k == g->nptr;
}

static void helmdocs_description(gen *g, sd_node *s, const sd_atann *a)
{
    size_t first = 0;
    sd_buf d = SD_BUF_INIT;
    const char *path, *type, *desc;
    size_t plen, tlen;

    if (!a || !a->nhead)
        return;
    while (first < a->nhead && !sd_hvsj_helmdocs(a->head[first] + 1, NULL, NULL, NULL, NULL, NULL))
        first++;
    if (first == a->nhead || !sd_hvsj_helmdocs(a->head[first] + 1, &path, &plen, &type, &tlen, &desc))
        return;
    sd_buf_puts(&d, desc);
    for (size_t i = first + 1; i < a->nhead; i++) {
        const char *l = a->head[i] + 1, *dash;
        while (*l == ' ' || *l == '\t')
            l++;
        size_t ln = strlen(l);
        while (ln && (l[ln - 1] == ' ' || l[ln - 1] == '\t' || l[ln - 1] == '\r'))
            ln--;
        if (!strncmp(l, "@schema", 7) && (l[7] == ' ' || l[7] == '\t'))
            continue;
        dash = strstr(l, "--");
        if (!dash || dash >= l + ln) {
            sd_buf_putc(&d, ' ');
            sd_buf_put(&d, l, ln);
        }
        /* (`@default -- x`, `@section -- x`: not the description) */
    }
    if (plen == 0 || path_is_here(g, path, plen))
        sd_gen__set(g, s, "description", sd_gen__strn(g, d.ptr, d.len));
    if (sd_buf_failed(&d))
        g->oom = 1;
    sd_buf_release(&d);
}

void sd_gen__helmdocs_type(gen *g, sd_node *s, const sd_atann *a, const sd_node *v)
{
    const char *type;
    size_t tlen, i = 0;
    char buf[128];

    if (g->o->exact || !a)
        return;
    while (i < a->nhead && !sd_hvsj_helmdocs(a->head[i] + 1, NULL, NULL, NULL, NULL, NULL))
        i++;
    if (i == a->nhead || !sd_hvsj_helmdocs(a->head[i] + 1, NULL, NULL, &type, &tlen, NULL) || !type ||
        tlen >= sizeof buf)
        return;
    memcpy(buf, type, tlen);
    buf[tlen] = '\0';
    sd_node *types = sd_gen__seq(g);
    if (!types || !sd_gen__helm_types(g, types, buf))
        return;
    const char *own = v->kind == SD_NULL ? "null" : v->kind == SD_MAP || v->kind == SD_SEQ ? NULL
                    : sd_node_type_word(v);
    if (own && !sd_gen__has_type(types, own) && sd_synth_push(g->out, types, sd_gen__str(g, own)) < 0)
        g->oom = 1;
    sd_gen__set(g, s, "type", types->n == 1 ? types->items[0].value : types);
}

/* ---- the tree ------------------------------------------------------------ */

/* A value reached through an alias: yaml.v3 gives the tool an alias node,
 * which has no kind of its own. The loader shares the anchored node, so
 * an alias is a value written before its key (or its list). */
static int is_alias_use(const sd_node *v, sd_loc at)
{
    if (!v->is_alias)
        return 0;
    return v->loc.line < at.line || (v->loc.line == at.line && v->loc.column < at.column);
}

static sd_node *node(gen *g, const sd_pair *p, const sd_node *v, sd_loc at, int depth)
{
    g->loc = p && p->key ? p->key->loc : v->loc;
    sd_node *s = sd_gen__map(g);
    sd_node **ordered = NULL;
    size_t nord = 0;
    char idx[24];

    if (!s || depth > 1000)
        return s;
    g->loc = p && p->key ? p->key->loc : v->loc;
    if (is_alias_use(v, at)) {
        /* no kind: only the comments speak */
    } else if (v->kind == SD_MAP) {
        sd_node *props = sd_gen__map(g), *req = sd_gen__seq(g);
        ordered = v->n ? malloc(v->n * sizeof *ordered) : NULL;
        for (uint32_t i = 0; i < v->n && !g->oom; i++) {
            const sd_pair *cp = &v->items[i];
            sd_gen__push(g, cp->key->str);
            sd_node *c = node(g, cp, cp->value, cp->key->loc, depth + 1);
            sd_gen__pop(g);
            if (!c || sd_gen__flag(c, GEN_HIDDEN))
                continue;
            if (sd_gen__flag(c, GEN_SKIP) && sd_gen__flag(c, "\x01object"))
                sd_gen__del(c, "properties");
            if (ordered)
                ordered[nord++] = c;
            sd_gen__append(g, props, cp->key->str, c);
            if (sd_gen__flag(c, GEN_REQ) && sd_synth_push(g->out, req, sd_gen__str(g, cp->key->str)) < 0)
                g->oom = 1;
        }
        sd_gen__set(g, s, "type", sd_gen__str(g, "object"));
        if (req && req->n)
            sd_gen__set(g, s, "required", req);
        if (props && props->n)
            sd_gen__set(g, s, "properties", props);
    } else if (v->kind == SD_SEQ) {
        sd_node *merged = NULL;
        sd_gen__set(g, s, "type", sd_gen__str(g, "array"));
        for (uint32_t i = 0; i < v->n && i < GEN_MAX_ITEMS && !g->oom; i++) {
            const sd_pair *ip = &v->items[i];
            snprintf(idx, sizeof idx, "%u", i);
            sd_gen__push(g, idx);
            sd_node *c = node(g, ip, ip->value, v->loc, depth + 1);
            sd_gen__pop(g);
            /* the tool's merge (a later item's type replaces an earlier's)
             * under --like; else the union, which every item fits */
            if (c && !sd_gen__flag(c, GEN_HIDDEN))
                merged = !merged ? c : g->o->exact ? sd_gen__hvsj_merge(g, merged, c)
                                                   : sd_gen__union(g, merged, c, 0);
        }
        if (merged)
            sd_gen__set(g, s, "items", merged);
    } else if (v->style == SD_STYLE_SQUOTED || v->style == SD_STYLE_DQUOTED) {
        sd_gen__set(g, s, "type", sd_gen__str(g, "string"));
    } else {
        sd_gen__set(g, s, "type", sd_gen__str(g, v->kind == SD_NULL && !*v->str ? "null" : yaml_kind(v->str)));
    }
    const sd_atann *a = p ? sd_atschema_get(&g->at, p) : NULL;
    g->loc = p && p->key ? p->key->loc : v->loc;
    if (g->helm_docs && p && p->key)
        helmdocs_description(g, s, a);
    if (p && p->key && !is_alias_use(v, at))
        sd_gen__helmdocs_type(g, s, a, v);
    sd_gen__hvsj_apply(g, s, a, g->helm_docs);
    /* IsType("object") */
    const sd_node *t = sd_node_get(s, "type");
    int object = t && t->kind == SD_STR && !strcmp(t->str, "object");
    for (uint32_t i = 0; t && t->kind == SD_SEQ && i < t->n; i++)
        object |= t->items[i].value->kind == SD_STR && !strcmp(t->items[i].value->str, "object");
    if (object)
        sd_gen__set_flag(g, s, "\x01object", 1);
    if (sd_gen__flag(s, GEN_SKIP) && object) {
        sd_gen__del(s, "properties");
    } else if (sd_gen__flag(s, GEN_MERGE) && nord) {
        sd_node *r = ordered[0];
        for (size_t i = 1; i < nord; i++)
            r = sd_gen__hvsj_merge(g, r, ordered[i]);
        sd_gen__set(g, s, "additionalProperties", r);
        sd_gen__del(s, "properties");
    }
    free(ordered);
    return s;
}

sd_node *sd_gen__hvsj(gen *g)
{
    const sd_node *root = sd_doc_root(g->values);
    g->loc = (sd_loc){ g->values->file, 1, 1 };
    sd_node *s = sd_gen__map(g), *props = sd_gen__map(g), *req = sd_gen__seq(g);

    if (!s)
        return NULL;
    sd_gen__set(g, s, "type", sd_gen__str(g, "object"));
    for (uint32_t i = 0; root && root->kind == SD_MAP && i < root->n && !g->oom; i++) {
        const sd_pair *p = &root->items[i];
        g->nptr = 0;
        sd_gen__push(g, p->key->str);
        sd_node *c = node(g, p, p->value, p->key->loc, 1);
        g->nptr = 0;
        if (!c || sd_gen__flag(c, GEN_HIDDEN))
            continue;
        sd_gen__append(g, props, p->key->str, c);
        if (sd_gen__flag(c, GEN_REQ) && sd_synth_push(g->out, req, sd_gen__str(g, p->key->str)) < 0)
            g->oom = 1;
    }
    if (req && req->n)
        sd_gen__set(g, s, "required", req);
    if (props && props->n)
        sd_gen__set(g, s, "properties", props);
    return g->oom ? NULL : s;
}
