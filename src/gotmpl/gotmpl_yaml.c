/* SPDX-License-Identifier: Apache-2.0 */
/* gotmpl_yaml.c - toYaml and fromYaml as helm-docs has them (gopkg.in/yaml.v3):
 * values out with yaml.v3's choices (sorted keys, 4-space indentation,
 * quoting what would read back as another type, literal blocks for
 * multi-line strings), and YAML in through libyaml's event parser with
 * yaml.v3's typing of plain scalars (`yes` is a string, 017 is octal),
 * anchors shared rather than copied and `<<` merge keys applied. */
#include "gotmpl_int.h"
#include "yaml_scalar.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define S(v) (v).u.s.p, (v).u.s.n


/* --- YAML: yaml.v3's typing of plain scalars ---------------------------------------------- */

/* yaml.v3's typing of the plain scalar s[0..n) (util/yaml_scalar.c): 0 str,
 * 1 null, 2 bool, 3 int, 4 float, 5 timestamp (kept as a string). An
 * integer beyond int64 is a float here: values have no unsigned kind. */
static int resolve_plain(const char *s, size_t n, long long *iv, double *fv, int *bv)
{
    sd_yaml_scalar v = sd_yaml_scalar_read(s, n, SD_YAML_GO_V3);
    switch (v.type) {
    case SD_YAML_NULL: return 1;
    case SD_YAML_BOOL: *bv = v.b; return 2;
    case SD_YAML_INT: *iv = v.i; return 3;
    case SD_YAML_UINT: *fv = (double)v.u; return 4;
    case SD_YAML_FLOAT: *fv = v.f; return 4;
    case SD_YAML_TIMESTAMP: return 5;
    default: return 0;
    }
}

/* --- YAML in (libyaml events, explicit stack, aliases shared) ------------------------- */

typedef struct yframe { sd_gval v; int is_map; sd_gval key; int have_key; int merge; } yframe;
typedef struct yanchor { char *name; sd_gval v; } yanchor;

static int add_child(sd_gheap *h, yframe *f, sd_gval v, gwalk *w)
{
    if (!f->is_map)
        return sd_glist_push(h, f->v, v);
    if (!f->have_key) {
        f->key = v;
        f->have_key = 1;
        return 0;
    }
    f->have_key = 0;
    if (f->key.kind == SD_G_STR && f->key.u.s.n == 2 && memcmp(f->key.u.s.p, "<<", 2) == 0 && f->merge) {
        /* a merge key: the merged maps' keys, unless already set */
        sd_gval src[64];
        size_t ns = 0;
        if (v.kind == SD_G_MAP)
            src[ns++] = v;
        else if (v.kind == SD_G_LIST)
            for (size_t i = 0; i < v.u.l->n && ns < 64; i++)
                if (v.u.l->items[i].kind == SD_G_MAP)
                    src[ns++] = v.u.l->items[i];
        for (size_t s = 0; s < ns; s++)
            for (size_t i = 0; i < sd_gmap_len(src[s]); i++) {
                size_t kl;
                if (sd_gotmpl__visit(w) < 0)
                    return SD_ELIMIT;
                const char *k = sd_gmap_key(src[s], i, &kl);
                if (sd_gmap_get(f->v, k, kl).kind == SD_G_MISSING)
                    sd_gmap_set(h, f->v, k, kl, sd_gmap_val(src[s], i));
            }
        return 0;
    }
    sd_buf kb = SD_BUF_INIT;
    sd_buf_init(&kb, (size_t)64 << 20);
    sd_gotmpl__strval(&kb, f->key, w);
    int r = w->over || sd_buf_failed(&kb) ? SD_ELIMIT : sd_gmap_set(h, f->v, kb.ptr, kb.len, v);
    sd_buf_release(&kb);
    return r;
}

static sd_gval scalar_value(sd_gheap *h, const yaml_event_t *ev)
{
    const char *s = (const char *)ev->data.scalar.value;
    size_t n = ev->data.scalar.length;
    const char *tag = (const char *)ev->data.scalar.tag;
    long long iv = 0;
    double fv = 0;
    int bv = 0, k;
    if (tag && strcmp(tag, "tag:yaml.org,2002:str") == 0)
        return sd_gstr(h, s, n);
    if (!ev->data.scalar.plain_implicit && !tag)
        return sd_gstr(h, s, n);
    k = resolve_plain(s, n, &iv, &fv, &bv);
    switch (k) {
    case 1: return sd_gnil();
    case 2: return sd_gbool(bv);
    case 3: return sd_gint(iv);
    case 4: return sd_gfloat(fv);
    default: return sd_gstr(h, s, n);
    }
}

int sd_gotmpl__from_yaml(sd_gval *out, sd_gheap *h, const char *s, size_t n, char *err, size_t errlen,
                         gwalk *w)
{
    yaml_parser_t p;
    yaml_event_t ev;
    yframe *stack = NULL;
    yanchor *anchors = NULL;
    size_t depth = 0, cap = 0, nanch = 0, acap = 0;
    int r = 0, done = 0, docs = 0;
    sd_gval root = sd_gmissing();

    if (!yaml_parser_initialize(&p)) {
        snprintf(err, errlen, "out of memory");
        return SD_ENOMEM;
    }
    yaml_parser_set_input_string(&p, (const unsigned char *)s, n);
    while (!done && r == 0) {
        if (!yaml_parser_parse(&p, &ev)) {
            snprintf(err, errlen, "yaml: line %zu: %s", p.problem_mark.line + 1,
                     p.problem ? p.problem : "syntax error");
            r = SD_ESYNTAX;
            break;
        }
        sd_gval v = sd_gmissing();
        int push = 0, is_map = 0;
        const char *anchor = NULL;
        switch (ev.type) {
        case YAML_STREAM_END_EVENT: done = 1; break;
        case YAML_DOCUMENT_START_EVENT:
            if (++docs > 1)
                done = 1; /* Unmarshal reads the first document */
            break;
        case YAML_ALIAS_EVENT: {
            size_t i;
            for (i = nanch; i-- > 0; )
                if (strcmp(anchors[i].name, (const char *)ev.data.alias.anchor) == 0)
                    break;
            if (i == (size_t)-1) {
                snprintf(err, errlen, "yaml: unknown anchor '%s' referenced", ev.data.alias.anchor);
                r = SD_ESYNTAX;
                break;
            }
            v = anchors[i].v;
            break;
        }
        case YAML_SCALAR_EVENT:
            v = scalar_value(h, &ev);
            anchor = (const char *)ev.data.scalar.anchor;
            break;
        case YAML_SEQUENCE_START_EVENT:
            v = sd_glist_new(h, 0);
            push = 1;
            anchor = (const char *)ev.data.sequence_start.anchor;
            break;
        case YAML_MAPPING_START_EVENT:
            v = sd_gmap_new(h);
            push = is_map = 1;
            anchor = (const char *)ev.data.mapping_start.anchor;
            break;
        case YAML_SEQUENCE_END_EVENT: case YAML_MAPPING_END_EVENT:
            v = stack[--depth].v;
            break;
        default: break;
        }
        if (r == 0 && anchor) {
            if (nanch == acap) {
                size_t nc = acap ? acap * 2 : 16;
                yanchor *na = realloc(anchors, nc * sizeof *na);
                if (!na) { r = SD_ENOMEM; snprintf(err, errlen, "out of memory"); }
                else { anchors = na; acap = nc; }
            }
            if (r == 0) {
                anchors[nanch].name = strdup(anchor);
                anchors[nanch++].v = v;
            }
        }
        if (r == 0 && push) {
            if (depth >= 1000) {
                snprintf(err, errlen, "yaml: exceeded max depth of 1000");
                r = SD_ELIMIT;
            } else {
                if (depth == cap) {
                    size_t nc = cap ? cap * 2 : 32;
                    yframe *ns = realloc(stack, nc * sizeof *ns);
                    if (!ns) { r = SD_ENOMEM; snprintf(err, errlen, "out of memory"); }
                    else { stack = ns; cap = nc; }
                }
                if (r == 0) {
                    memset(&stack[depth], 0, sizeof *stack);
                    stack[depth].v = v;
                    stack[depth].is_map = is_map;
                    stack[depth].merge = 1;
                    depth++;
                }
            }
        } else if (r == 0 && (ev.type == YAML_SCALAR_EVENT || ev.type == YAML_ALIAS_EVENT ||
                              ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT)) {
            if (depth)
                r = add_child(h, &stack[depth - 1], v, w) < 0 ? SD_ELIMIT : 0;
            else
                root = v;
            if (r)
                snprintf(err, errlen, w->over ? "yaml: document too large (its keys and merges expand too far)"
                                              : "yaml: document too large");
        }
        yaml_event_delete(&ev);
        if (h->failed && !r) {
            r = h->failed;
            snprintf(err, errlen, "yaml: document too large");
        }
    }
    yaml_parser_delete(&p);
    for (size_t i = 0; i < nanch; i++)
        free(anchors[i].name);
    free(anchors);
    free(stack);
    if (r == 0)
        *out = root;
    return r;
}

/* fromYaml: a map; errors go into .Error as helm-docs does */
static int f_fromyaml(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    char err[300];
    sd_gval v;
    gwalk w = sd_gotmpl__walk(c);
    (void)n;
    int r = sd_gotmpl__from_yaml(&v, c->heap, S(a[0]), err, sizeof err, &w);
    if (w.over)
        return sd_gotmpl__walked(c, &w);
    c->steps += w.start - w.left;
    if (r == SD_ENOMEM || r == SD_ELIMIT || sd_gheap_failed(c->heap))
        return sd_gcall_fail(c, "%s", err);
    sd_gval m = sd_gmap_new(c->heap);
    if (m.kind != SD_G_MAP)
        return sd_gcall_fail(c, "out of memory");
    if (r == 0 && v.kind == SD_G_MAP) {
        *o = v;
        return 0;
    }
    if (r == 0 && (v.kind == SD_G_MISSING || v.kind == SD_G_NIL)) {
        *o = m;
        return 0;
    }
    if (r == 0)
        snprintf(err, sizeof err, "yaml: unmarshal errors:\n  line 1: cannot unmarshal %s into map[string]interface {}",
                 v.kind == SD_G_LIST ? "!!seq" : "!!str");
    sd_gmap_set(c->heap, m, "Error", 5, sd_gstrz(c->heap, err));
    *o = m;
    return 0;
}

/* --- YAML out (yaml.v3 Marshal: 4-space indent, sorted keys) ------------------------------ */

static int old_bool(const char *s, size_t n)
{
    static const char *w[] = { "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
                               "on", "On", "ON", "off", "Off", "OFF", NULL };
    for (int i = 0; w[i]; i++)
        if (strlen(w[i]) == n && memcmp(w[i], s, n) == 0)
            return 1;
    return 0;
}

static int plain_ok(const char *s, size_t n)
{
    if (n == 0 || s[0] == ' ' || s[n - 1] == ' ' || s[0] == '\t' || s[n - 1] == '\t')
        return 0;
    if (strchr("?:,[]{}#&*!|>'\"%@`", s[0]) && !((s[0] == '?' || s[0] == ':') && n > 1 && s[1] != ' '))
        return 0;
    if (s[0] == '-' && (n == 1 || s[1] == ' '))
        return 0;
    if (n >= 3 && (!memcmp(s, "---", 3) || !memcmp(s, "...", 3)))
        return 0;
    if (s[n - 1] == ':')
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 || ch == 0x7f)
            return 0;
        if (ch == ':' && i + 1 < n && s[i + 1] == ' ')
            return 0;
        if (ch == '#' && i > 0 && s[i - 1] == ' ')
            return 0;
    }
    return 1;
}

static void yaml_double(sd_buf *b, const char *s, size_t n)
{
    sd_buf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\') { sd_buf_putc(b, '\\'); sd_buf_putc(b, (char)ch); }
        else if (ch == '\n') sd_buf_puts(b, "\\n");
        else if (ch == '\t') sd_buf_puts(b, "\\t");
        else if (ch == '\r') sd_buf_puts(b, "\\r");
        else if (ch < 0x20 || ch == 0x7f) sd_buf_printf(b, "\\x%02X", ch);
        else sd_buf_putc(b, (char)ch);
    }
    sd_buf_putc(b, '"');
}

static void yaml_indent(sd_buf *b, int n)
{
    for (int i = 0; i < n; i++)
        sd_buf_putc(b, ' ');
}

/* A scalar (string) in block context at indentation `ind`. */
static void yaml_string(sd_buf *b, const char *s, size_t n, int ind)
{
    long long iv;
    double fv;
    int bv;
    if (memchr(s, '\n', n)) {
        size_t trail = 0;
        while (trail < n && s[n - 1 - trail] == '\n')
            trail++;
        sd_buf_puts(b, trail == 0 ? "|-" : trail == 1 ? "|" : "|+");
        if (s[0] == ' ' || s[0] == '\n')
            sd_buf_puts(b, "4");
        size_t i = 0;
        while (i < n) {
            const char *nl = memchr(s + i, '\n', n - i);
            size_t e = nl ? (size_t)(nl - s) : n;
            sd_buf_putc(b, '\n');
            if (e > i)
                yaml_indent(b, ind);
            sd_buf_put(b, s + i, e - i);
            i = nl ? e + 1 : n;
            if (nl && i == n && trail > 1) {
                /* keep the extra blank lines of |+ */
            }
        }
        for (size_t k = 1; k < trail; k++)
            sd_buf_putc(b, '\n');
        return;
    }
    if (resolve_plain(s, n, &iv, &fv, &bv) != 0 || old_bool(s, n)) {
        yaml_double(b, s, n);
        return;
    }
    if (plain_ok(s, n)) {
        sd_buf_put(b, s, n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20) {
            yaml_double(b, s, n);
            return;
        }
    sd_buf_putc(b, '\'');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\'')
            sd_buf_putc(b, '\'');
        sd_buf_putc(b, s[i]);
    }
    sd_buf_putc(b, '\'');
}

static int yaml_is_block(sd_gval v)
{
    return (v.kind == SD_G_LIST && v.u.l->n) || (v.kind == SD_G_MAP && v.u.m->n);
}

static void yaml_lower_key(sd_buf *b, const char *k, size_t n, int is_struct, int ind)
{
    if (!is_struct) {
        yaml_string(b, k, n, ind);
        return;
    }
    for (size_t i = 0; i < n; i++)
        sd_buf_putc(b, (char)(k[i] >= 'A' && k[i] <= 'Z' ? k[i] + 32 : k[i]));
}

static int yaml_val(sd_buf *b, sd_gval v, int ind, int depth, gwalk *w);

/* A value after "key:" or "- ": scalars inline, collections on the next lines. */
static int yaml_child(sd_buf *b, sd_gval v, int ind, int depth, int in_list, gwalk *w)
{
    if (!yaml_is_block(v)) {
        sd_buf_putc(b, ' ');
        return yaml_val(b, v, ind + 4, depth + 1, w);
    }
    if (in_list && v.kind == SD_G_MAP) {
        sd_buf_putc(b, ' ');
        return yaml_val(b, v, ind + 2, depth + 1, w);
    }
    sd_buf_putc(b, '\n');
    yaml_indent(b, ind + 4);
    return yaml_val(b, v, ind + 4, depth + 1, w);
}

static int yaml_val(sd_buf *b, sd_gval v, int ind, int depth, gwalk *w)
{
    int r;
    if (depth > 500 || sd_gotmpl__visit(w) < 0 || sd_buf_failed(b))
        return SD_ELIMIT;
    switch (v.kind) {
    case SD_G_MISSING: case SD_G_NIL: sd_buf_puts(b, "null"); return 0;
    case SD_G_BOOL: sd_buf_puts(b, v.u.b ? "true" : "false"); return 0;
    case SD_G_INT: sd_buf_printf(b, "%lld", v.u.i); return 0;
    case SD_G_FLOAT:
        if (isnan(v.u.f)) sd_buf_puts(b, ".nan");
        else if (isinf(v.u.f)) sd_buf_puts(b, v.u.f > 0 ? ".inf" : "-.inf");
        else sd_gotmpl__fmt_float(b, v.u.f, 'g', -1);
        return 0;
    case SD_G_STR: yaml_string(b, S(v), ind); return 0;
    case SD_G_OBJ: sd_buf_puts(b, "{}"); return 0;
    case SD_G_LIST:
        if (!v.u.l->n) {
            sd_buf_puts(b, "[]");
            return 0;
        }
        for (size_t i = 0; i < v.u.l->n; i++) {
            if (i) {
                sd_buf_putc(b, '\n');
                yaml_indent(b, ind);
            }
            sd_buf_putc(b, '-');
            if ((r = yaml_child(b, v.u.l->items[i], ind, depth, 1, w)) != 0)
                return r;
        }
        return 0;
    case SD_G_MAP: {
        size_t n = v.u.m->n, *ix;
        int is_struct = v.u.m->type_name != NULL;
        if (!n) {
            sd_buf_puts(b, "{}");
            return 0;
        }
        /* maps: sorted keys; structs: field order */
        if (!(ix = is_struct ? malloc(n * sizeof *ix) : sd_gotmpl__key_order(v.u.m)))
            return SD_ENOMEM;
        for (size_t i = 0; is_struct && i < n; i++)
            ix[i] = i;
        for (size_t i = 0; i < n; i++) {
            if (i) {
                sd_buf_putc(b, '\n');
                yaml_indent(b, ind);
            }
            yaml_lower_key(b, v.u.m->keys[ix[i]], v.u.m->klen[ix[i]], is_struct, ind);
            sd_buf_putc(b, ':');
            if ((r = yaml_child(b, v.u.m->vals[ix[i]], ind, depth, 0, w)) != 0) {
                free(ix);
                return r;
            }
        }
        free(ix);
        return 0;
    }
    }
    return 0;
}

int sd_gotmpl__to_yaml(sd_buf *b, sd_gval v, gwalk *w)
{
    int r = yaml_val(b, v, 0, 0, w);
    sd_buf_putc(b, '\n');
    return r;
}

void sd_gval_yaml(sd_buf *b, sd_gval v)
{
    gwalk w = sd_gotmpl__walk_alone();
    sd_gotmpl__to_yaml(b, v, &w);
}

static int f_toyaml(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    gwalk w = sd_gotmpl__walk(c);
    (void)n;
    sd_gotmpl__buf(c, &b);
    if (sd_gotmpl__to_yaml(&b, a[0], &w) != 0) {
        int full = sd_buf_failed(&b);
        sd_buf_release(&b);
        if (w.over)
            return sd_gotmpl__walked(c, &w);
        if (full)
            return sd_gcall_fail(c, "result too large");
        *o = sd_gstr_static("", 0);   /* helm-docs: an error gives "" */
        return 0;
    }
    if (b.len && b.ptr[b.len - 1] == '\n')
        b.len--;   /* helm-docs: strings.TrimSuffix(out, "\n") */
    return sd_gotmpl__buf_walked(o, c, &b, &w);
}

const gfunc sd_gotmpl__yaml_funcs[] = {
    { "fromYaml", "S", f_fromyaml, NULL },
    { "toYaml", "A", f_toyaml, NULL },
    { NULL, NULL, NULL, NULL }
};
