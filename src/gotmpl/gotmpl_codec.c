/* gotmpl_codec.c - values to and from text: toJson / toPrettyJson /
 * toRawJson / fromJson (Go encoding/json), toYaml / fromYaml (helm-docs:
 * gopkg.in/yaml.v3, read here with libyaml and typed with yaml.v3's rules),
 * b64enc / b64dec, and the regex functions (Go RE2 syntax, run by PCRE2 with
 * a match limit). */
#include "gotmpl_int.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <math.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define S(v) (v).u.s.p, (v).u.s.n

static void big_buf(sd_buf *b) { sd_buf_init(b, (size_t)64 << 20); }

/* --- JSON out ---------------------------------------------------------------------- */

static void json_str(sd_buf *b, const char *s, size_t n, int html)
{
    sd_buf_putc(b, '"');
    for (size_t i = 0; i < n; ) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            if (c == '"') sd_buf_puts(b, "\\\"");
            else if (c == '\\') sd_buf_puts(b, "\\\\");
            else if (c == '\n') sd_buf_puts(b, "\\n");
            else if (c == '\r') sd_buf_puts(b, "\\r");
            else if (c == '\t') sd_buf_puts(b, "\\t");
            else if (c < 0x20 || (html && (c == '<' || c == '>' || c == '&')))
                sd_buf_printf(b, "\\u%04x", c);
            else
                sd_buf_putc(b, (char)c);
            i++;
            continue;
        }
        /* validate one UTF-8 sequence; invalid bytes become U+FFFD */
        size_t l = c >= 0xF0 && c < 0xF5 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
        int ok = l && i + l <= n && c < 0xF5;
        for (size_t k = 1; ok && k < l; k++)
            ok = ((unsigned char)s[i + k] & 0xC0) == 0x80;
        if (ok && l == 3 && c == 0xE0 && (unsigned char)s[i + 1] < 0xA0) ok = 0;
        if (ok && l == 3 && c == 0xED && (unsigned char)s[i + 1] >= 0xA0) ok = 0;
        if (ok && l == 4 && c == 0xF0 && (unsigned char)s[i + 1] < 0x90) ok = 0;
        if (ok && l == 4 && c == 0xF4 && (unsigned char)s[i + 1] >= 0x90) ok = 0;
        if (!ok) {
            sd_buf_puts(b, "\\ufffd");
            i++;
            continue;
        }
        if (l == 3 && c == 0xE2 && (unsigned char)s[i + 1] == 0x80 &&
            ((unsigned char)s[i + 2] == 0xA8 || (unsigned char)s[i + 2] == 0xA9))
            sd_buf_printf(b, "\\u202%c", (unsigned char)s[i + 2] == 0xA8 ? '8' : '9');
        else
            sd_buf_put(b, s + i, l);
        i += l;
    }
    sd_buf_putc(b, '"');
}

static void json_nl(sd_buf *b, const char *indent, int depth)
{
    sd_buf_putc(b, '\n');
    for (int i = 0; i < depth; i++)
        sd_buf_puts(b, indent);
}

static int json_val(sd_buf *b, sd_gval v, int html, const char *indent, int depth)
{
    int r;
    if (depth > 1000)
        return SD_ELIMIT;
    switch (v.kind) {
    case SD_G_MISSING: case SD_G_NIL: sd_buf_puts(b, "null"); return 0;
    case SD_G_BOOL: sd_buf_puts(b, v.u.b ? "true" : "false"); return 0;
    case SD_G_INT: sd_buf_printf(b, "%lld", v.u.i); return 0;
    case SD_G_FLOAT: {
        double a = fabs(v.u.f);
        if (!isfinite(v.u.f))
            return SD_EINVALID;
        if (a != 0 && (a < 1e-6 || a >= 1e21)) {
            sd_buf t = SD_BUF_INIT;
            sd_gotmpl__fmt_float(&t, v.u.f, 'e', -1);
            /* e-07 -> e-7 */
            if (t.len >= 4 && t.ptr[t.len - 4] == 'e' && t.ptr[t.len - 3] == '-' && t.ptr[t.len - 2] == '0') {
                t.ptr[t.len - 2] = t.ptr[t.len - 1];
                t.len--;
            }
            sd_buf_put(b, t.ptr, t.len);
            sd_buf_release(&t);
        } else {
            sd_gotmpl__fmt_float(b, v.u.f, 'f', -1);
        }
        return 0;
    }
    case SD_G_STR: json_str(b, S(v), html); return 0;
    case SD_G_LIST:
        sd_buf_putc(b, '[');
        for (size_t i = 0; i < v.u.l->n; i++) {
            if (i)
                sd_buf_putc(b, ',');
            if (indent)
                json_nl(b, indent, depth + 1);
            if ((r = json_val(b, v.u.l->items[i], html, indent, depth + 1)) != 0)
                return r;
        }
        if (indent && v.u.l->n)
            json_nl(b, indent, depth);
        sd_buf_putc(b, ']');
        return 0;
    case SD_G_MAP: {
        size_t n = v.u.m->n, *ix = malloc((n ? n : 1) * sizeof *ix);
        if (!ix)
            return SD_ENOMEM;
        for (size_t i = 0; i < n; i++)
            ix[i] = i;
        if (!v.u.m->type_name) /* maps: sorted keys; structs: field order */
            for (size_t i = 1; i < n; i++)
                for (size_t j = i; j > 0 && sd_gotmpl__strcmp(v.u.m->keys[ix[j - 1]], v.u.m->klen[ix[j - 1]],
                                                              v.u.m->keys[ix[j]], v.u.m->klen[ix[j]]) > 0; j--) {
                    size_t t = ix[j]; ix[j] = ix[j - 1]; ix[j - 1] = t;
                }
        sd_buf_putc(b, '{');
        for (size_t i = 0; i < n; i++) {
            if (i)
                sd_buf_putc(b, ',');
            if (indent)
                json_nl(b, indent, depth + 1);
            json_str(b, v.u.m->keys[ix[i]], v.u.m->klen[ix[i]], html);
            sd_buf_puts(b, indent ? ": " : ":");
            if ((r = json_val(b, v.u.m->vals[ix[i]], html, indent, depth + 1)) != 0) {
                free(ix);
                return r;
            }
        }
        if (indent && n)
            json_nl(b, indent, depth);
        sd_buf_putc(b, '}');
        free(ix);
        return 0;
    }
    case SD_G_OBJ: sd_buf_puts(b, "{}"); return 0;
    }
    return 0;
}

int sd_gotmpl__to_json(sd_buf *b, sd_gval v, int html, const char *indent)
{
    return json_val(b, v, html, indent, 0);
}

static int to_json(sd_gval *o, sd_gcall *c, sd_gval v, int html, const char *indent, int must)
{
    sd_buf b;
    big_buf(&b);
    int r = json_val(&b, v, html, indent, 0);
    if (r == SD_EINVALID || r == SD_ELIMIT) {
        sd_buf_release(&b);
        if (must)
            return sd_gcall_fail(c, r == SD_EINVALID ? "json: unsupported value: NaN or Inf" : "json: nesting too deep");
        *o = sd_gstr_static("", 0);
        return 0;
    }
    return sd_gotmpl__buf_val(o, c, &b);
}

static int f_tojson(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return to_json(o, c, a[0], 1, NULL, 0); }
static int f_toprettyjson(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return to_json(o, c, a[0], 1, "  ", 0); }
static int f_torawjson(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return to_json(o, c, a[0], 0, NULL, 0); }
static int f_musttojson(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return to_json(o, c, a[0], 1, NULL, 1); }
static int f_musttoprettyjson(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return to_json(o, c, a[0], 1, "  ", 1); }
static int f_musttorawjson(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return to_json(o, c, a[0], 0, NULL, 1); }

static int from_json(sd_gval *o, sd_gcall *c, const sd_gval *a, int must)
{
    char err[200];
    if (sd_gval_from_json_text(o, c->heap, S(a[0]), err, sizeof err) < 0) {
        if (sd_gheap_failed(c->heap))
            return sd_gcall_fail(c, "result too large");
        if (must)
            return sd_gcall_fail(c, "%s", err);
        *o = sd_gnil();
    }
    return 0;
}

static int f_fromjson(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return from_json(o, c, a, 0); }
static int f_mustfromjson(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return from_json(o, c, a, 1); }

/* --- YAML: yaml.v3's typing of plain scalars ---------------------------------------------- */

/* 0 str, 1 null, 2 bool, 3 int, 4 float, 5 timestamp (kept as a string) */
static int resolve_plain(const char *s, size_t n, long long *iv, double *fv, int *bv)
{
    char buf[128], *e;
    if (n == 0 || (n == 1 && s[0] == '~'))
        return 1;
    if (n < sizeof buf) {
        memcpy(buf, s, n);
        buf[n] = '\0';
    } else {
        return 0;
    }
    if (!strcmp(buf, "null") || !strcmp(buf, "Null") || !strcmp(buf, "NULL"))
        return 1;
    if (!strcmp(buf, "true") || !strcmp(buf, "True") || !strcmp(buf, "TRUE")) { *bv = 1; return 2; }
    if (!strcmp(buf, "false") || !strcmp(buf, "False") || !strcmp(buf, "FALSE")) { *bv = 0; return 2; }
    if (!strcmp(buf, ".inf") || !strcmp(buf, ".Inf") || !strcmp(buf, ".INF") ||
        !strcmp(buf, "+.inf") || !strcmp(buf, "+.Inf") || !strcmp(buf, "+.INF")) { *fv = INFINITY; return 4; }
    if (!strcmp(buf, "-.inf") || !strcmp(buf, "-.Inf") || !strcmp(buf, "-.INF")) { *fv = -INFINITY; return 4; }
    if (!strcmp(buf, ".nan") || !strcmp(buf, ".NaN") || !strcmp(buf, ".NAN")) { *fv = NAN; return 4; }
    /* int: Go ParseInt(s, 0, 64): sign, 0x / 0o / 0b / 0 prefixes, underscores */
    {
        const char *d = buf;
        char clean[128];
        size_t k = 0;
        int neg = 0, base = 10;
        if (*d == '+' || *d == '-')
            neg = *d++ == '-';
        if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) base = 16, d += 2;
        else if (d[0] == '0' && (d[1] == 'o' || d[1] == 'O')) base = 8, d += 2;
        else if (d[0] == '0' && (d[1] == 'b' || d[1] == 'B')) base = 2, d += 2;
        else if (d[0] == '0' && d[1]) base = 8, d += 1;
        int ok = *d != '\0' && *d != '_';
        for (; *d && ok; d++) {
            if (*d == '_')
                continue;
            int v = *d >= '0' && *d <= '9' ? *d - '0' : *d >= 'a' && *d <= 'f' ? *d - 'a' + 10
                    : *d >= 'A' && *d <= 'F' ? *d - 'A' + 10 : 99;
            if (v >= base)
                ok = 0;
            clean[k++] = *d;
        }
        clean[k] = '\0';
        if (ok && k) {
            unsigned long long u = strtoull(clean, &e, base);
            if (!*e && (neg ? u <= 9223372036854775808ULL : u <= 9223372036854775807ULL)) {
                *iv = neg ? (long long)(0 - u) : (long long)u;
                return 3;
            }
        }
    }
    /* float: yaml.v3's yamlStyleFloat ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ */
    {
        const char *p = buf;
        int digits = 0;
        if (*p == '+' || *p == '-') p++;
        if (*p == '.') {
            p++;
            while (*p >= '0' && *p <= '9') p++, digits++;
        } else {
            while (*p >= '0' && *p <= '9') p++, digits++;
            if (digits && *p == '.') {
                p++;
                while (*p >= '0' && *p <= '9') p++;
            }
        }
        if (digits && (*p == 'e' || *p == 'E')) {
            const char *q = p + 1;
            if (*q == '+' || *q == '-') q++;
            if (*q >= '0' && *q <= '9') {
                while (*q >= '0' && *q <= '9') q++;
                p = q;
            }
        }
        if (digits && !*p) {
            *fv = strtod(buf, NULL);
            return 4;
        }
    }
    /* timestamps (2001-12-14, 2001-12-14T21:59:43.10Z ...): decoded as strings */
    if (n >= 10 && buf[4] == '-' && buf[7] == '-' && buf[0] >= '0' && buf[0] <= '9')
        return 5;
    return 0;
}

/* --- YAML in (libyaml events, explicit stack, aliases shared) ------------------------- */

typedef struct yframe { sd_gval v; int is_map; sd_gval key; int have_key; int merge; } yframe;
typedef struct yanchor { char *name; sd_gval v; } yanchor;

static int add_child(sd_gheap *h, yframe *f, sd_gval v)
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
                const char *k = sd_gmap_key(src[s], i, &kl);
                if (sd_gmap_get(f->v, k, kl).kind == SD_G_MISSING)
                    sd_gmap_set(h, f->v, k, kl, sd_gmap_val(src[s], i));
            }
        return 0;
    }
    sd_buf kb = SD_BUF_INIT;
    sd_gotmpl__strval(&kb, f->key);
    int r = sd_gmap_set(h, f->v, kb.ptr, kb.len, v);
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

int sd_gotmpl__from_yaml(sd_gval *out, sd_gheap *h, const char *s, size_t n, char *err, size_t errlen)
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
                r = add_child(h, &stack[depth - 1], v) < 0 ? SD_ELIMIT : 0;
            else
                root = v;
            if (r)
                snprintf(err, errlen, "out of memory");
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
    (void)n;
    int r = sd_gotmpl__from_yaml(&v, c->heap, S(a[0]), err, sizeof err);
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

static int yaml_val(sd_buf *b, sd_gval v, int ind, int depth);

/* A value after "key:" or "- ": scalars inline, collections on the next lines. */
static int yaml_child(sd_buf *b, sd_gval v, int ind, int depth, int in_list)
{
    if (!yaml_is_block(v)) {
        sd_buf_putc(b, ' ');
        return yaml_val(b, v, ind + 4, depth + 1);
    }
    if (in_list && v.kind == SD_G_MAP) {
        sd_buf_putc(b, ' ');
        return yaml_val(b, v, ind + 2, depth + 1) ;
    }
    sd_buf_putc(b, '\n');
    yaml_indent(b, ind + 4);
    return yaml_val(b, v, ind + 4, depth + 1);
}

static int yaml_val(sd_buf *b, sd_gval v, int ind, int depth)
{
    int r;
    if (depth > 500)
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
            if ((r = yaml_child(b, v.u.l->items[i], ind, depth, 1)) != 0)
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
        if (!(ix = malloc(n * sizeof *ix)))
            return SD_ENOMEM;
        for (size_t i = 0; i < n; i++)
            ix[i] = i;
        if (!is_struct)
            for (size_t i = 1; i < n; i++)
                for (size_t j = i; j > 0 && sd_gotmpl__strcmp(v.u.m->keys[ix[j - 1]], v.u.m->klen[ix[j - 1]],
                                                              v.u.m->keys[ix[j]], v.u.m->klen[ix[j]]) > 0; j--) {
                    size_t t = ix[j]; ix[j] = ix[j - 1]; ix[j - 1] = t;
                }
        for (size_t i = 0; i < n; i++) {
            if (i) {
                sd_buf_putc(b, '\n');
                yaml_indent(b, ind);
            }
            yaml_lower_key(b, v.u.m->keys[ix[i]], v.u.m->klen[ix[i]], is_struct, ind);
            sd_buf_putc(b, ':');
            if ((r = yaml_child(b, v.u.m->vals[ix[i]], ind, depth, 0)) != 0) {
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

int sd_gotmpl__to_yaml(sd_buf *b, sd_gval v)
{
    int r = yaml_val(b, v, 0, 0);
    sd_buf_putc(b, '\n');
    return r;
}

void sd_gval_yaml(sd_buf *b, sd_gval v)
{
    sd_gotmpl__to_yaml(b, v);
}

static int f_toyaml(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    (void)n;
    big_buf(&b);
    if (sd_gotmpl__to_yaml(&b, a[0]) != 0) {
        sd_buf_release(&b);
        *o = sd_gstr_static("", 0);
        return 0;
    }
    if (b.len && b.ptr[b.len - 1] == '\n')
        b.len--;   /* helm-docs: strings.TrimSuffix(out, "\n") */
    return sd_gotmpl__buf_val(o, c, &b);
}

/* --- base64 ------------------------------------------------------------------------- */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int f_b64enc(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    const unsigned char *s = (const unsigned char *)a[0].u.s.p;
    size_t len = a[0].u.s.n, i;
    (void)n;
    big_buf(&b);
    for (i = 0; i + 2 < len; i += 3) {
        unsigned long x = (unsigned long)s[i] << 16 | (unsigned long)s[i + 1] << 8 | s[i + 2];
        char q[4] = { b64[x >> 18], b64[(x >> 12) & 63], b64[(x >> 6) & 63], b64[x & 63] };
        sd_buf_put(&b, q, 4);
    }
    if (len - i == 1) {
        unsigned long x = (unsigned long)s[i] << 16;
        char q[4] = { b64[x >> 18], b64[(x >> 12) & 63], '=', '=' };
        sd_buf_put(&b, q, 4);
    } else if (len - i == 2) {
        unsigned long x = (unsigned long)s[i] << 16 | (unsigned long)s[i + 1] << 8;
        char q[4] = { b64[x >> 18], b64[(x >> 12) & 63], b64[(x >> 6) & 63], '=' };
        sd_buf_put(&b, q, 4);
    }
    return sd_gotmpl__buf_val(o, c, &b);
}

static int f_b64dec(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    const char *s = a[0].u.s.p;
    size_t len = a[0].u.s.n;
    unsigned long acc = 0;
    int bits = 0;
    (void)n;
    big_buf(&b);
    for (size_t i = 0; i < len; i++) {
        const char *p = s[i] ? strchr(b64, s[i]) : NULL;
        if (s[i] == '=') {
            /* padding must finish a quantum */
            size_t rest = len - i;
            if ((i + rest) % 4 || rest > 2)
                goto bad;
            for (size_t k = i; k < len; k++)
                if (s[k] != '=')
                    goto bad;
            break;
        }
        if (!p) {
bad:
            sd_buf_release(&b);
            {
                char msg[64];
                snprintf(msg, sizeof msg, "illegal base64 data at input byte %zu", i);
                *o = sd_gstrz(c->heap, msg);
            }
            return 0;
        }
        acc = (acc << 6) | (unsigned long)(p - b64);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            sd_buf_putc(&b, (char)((acc >> bits) & 0xFF));
        }
    }
    if (len % 4) {
        sd_buf_release(&b);
        char msg[64];
        snprintf(msg, sizeof msg, "illegal base64 data at input byte %zu", len - len % 4 + (len % 4 == 1 ? 0 : len % 4));
        *o = sd_gstrz(c->heap, msg);
        return 0;
    }
    return sd_gotmpl__buf_val(o, c, &b);
}

/* --- regular expressions ------------------------------------------------------------------ */

static pcre2_code *re_compile(sd_gcall *c, sd_gval re, int must)
{
    int ec;
    PCRE2_SIZE eo;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)re.u.s.p, re.u.s.n, PCRE2_UTF,
                                     &ec, &eo, NULL);
    if (!code && must) {
        PCRE2_UCHAR msg[160];
        pcre2_get_error_message(ec, msg, sizeof msg);
        sd_gcall_fail(c, "error parsing regexp: %s at offset %zu", (const char *)msg, (size_t)eo);
    }
    return code;
}

/* The next match at or after `start`; returns 1 with ovector filled, 0 none, <0 error */
static int re_next(sd_gcall *c, pcre2_code *code, pcre2_match_data *md, pcre2_match_context *mc,
                   sd_gval s, size_t start, PCRE2_SIZE **ov)
{
    int rc = pcre2_match(code, (PCRE2_SPTR)s.u.s.p, s.u.s.n, start, 0, md, mc);
    if (rc == PCRE2_ERROR_NOMATCH)
        return 0;
    if (rc < 0) {
        if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT)
            return sd_gcall_fail(c, "regular expression too costly to match (match limit)");
        return 0;   /* e.g. invalid UTF-8 subject: no match */
    }
    *ov = pcre2_get_ovector_pointer(md);
    return 1;
}

typedef struct rectx { pcre2_code *code; pcre2_match_data *md; pcre2_match_context *mc; } rectx;

static int re_open(sd_gcall *c, rectx *x, sd_gval re, int must)
{
    memset(x, 0, sizeof *x);
    if (!(x->code = re_compile(c, re, must)))
        return must ? -1 : 1;
    x->md = pcre2_match_data_create_from_pattern(x->code, NULL);
    x->mc = pcre2_match_context_create(NULL);
    if (!x->md || !x->mc)
        return sd_gcall_fail(c, "out of memory");
    pcre2_set_match_limit(x->mc, 1000000);
    pcre2_set_depth_limit(x->mc, 10000);
    return 0;
}

static void re_close(rectx *x)
{
    pcre2_match_context_free(x->mc);
    pcre2_match_data_free(x->md);
    pcre2_code_free(x->code);
}

/* Each non-overlapping match (Go's allMatches rule for empty matches), up to
 * `max` (negative: all); calls fn(start, end, ovector). */
typedef int (*re_fn)(void *p, size_t a, size_t e, PCRE2_SIZE *ov);
static int re_all(sd_gcall *c, rectx *x, sd_gval s, long long max, re_fn fn, void *payload)
{
    size_t pos = 0, prev_end = (size_t)-1;
    long long count = 0;
    PCRE2_SIZE *ov;
    while (pos <= s.u.s.n && (max < 0 || count < max)) {
        int r = re_next(c, x->code, x->md, x->mc, s, pos, &ov);
        if (r <= 0)
            return r;
        size_t a = ov[0], e = ov[1];
        if (a == e && a == prev_end) {
            /* an empty match right after the previous match is skipped */
            if (pos >= s.u.s.n)
                break;
            pos++;
            while (pos < s.u.s.n && ((unsigned char)s.u.s.p[pos] & 0xC0) == 0x80)
                pos++;
            continue;
        }
        if ((r = fn(payload, a, e, ov)) < 0)
            return r;
        count++;
        prev_end = e;
        if (e > a)
            pos = e;
        else {
            if (e >= s.u.s.n)
                break;
            pos = e + 1;
            while (pos < s.u.s.n && ((unsigned char)s.u.s.p[pos] & 0xC0) == 0x80)
                pos++;
        }
        if ((count & 1023) == 0 && sd_gotmpl__step(c))
            return c->err;
    }
    return 0;
}

static int f_regexmatch(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    rectx x;
    PCRE2_SIZE *ov;
    int r = re_open(c, &x, a[0], n < 0);
    if (r) {
        *o = sd_gbool(0);
        return r < 0 ? r : 0;
    }
    r = re_next(c, x.code, x.md, x.mc, a[1], 0, &ov);
    re_close(&x);
    if (r < 0)
        return r;
    *o = sd_gbool(r);
    return 0;
}

static int f_mustregexmatch(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return f_regexmatch(o, c, a, -1); }

typedef struct fctx { sd_gcall *c; sd_gval s, list; sd_buf *b; sd_gval repl; int literal; size_t last; rectx *x; } fctx;

static int collect(void *p, size_t a, size_t e, PCRE2_SIZE *ov)
{
    fctx *f = p;
    (void)ov;
    return sd_glist_push(f->c->heap, f->list, sd_gstr_static(f->s.u.s.p + a, e - a));
}

static int f_regexfind(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    rectx x;
    PCRE2_SIZE *ov;
    int r = re_open(c, &x, a[0], n < 0);
    *o = sd_gstr_static("", 0);
    if (r)
        return r < 0 ? r : 0;
    r = re_next(c, x.code, x.md, x.mc, a[1], 0, &ov);
    if (r > 0)
        *o = sd_gstr_static(a[1].u.s.p + ov[0], ov[1] - ov[0]);
    re_close(&x);
    return r < 0 ? r : 0;
}

static int f_regexfindall(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    rectx x;
    fctx f = { c, a[1], sd_glist_new(c->heap, 4), NULL, sd_gmissing(), 0, 0, &x };
    int r = re_open(c, &x, a[0], n < 0);
    *o = f.list;
    if (r)
        return r < 0 ? r : 0;
    r = re_all(c, &x, a[1], a[2].u.i, collect, &f);
    re_close(&x);
    return r < 0 ? r : 0;
}

/* Go's Regexp.Expand for $1, ${1}, $name, ${name}, $$ */
static void expand(fctx *f, PCRE2_SIZE *ov)
{
    const char *t = f->repl.u.s.p;
    size_t n = f->repl.u.s.n;
    uint32_t groups = 0;
    pcre2_pattern_info(f->x->code, PCRE2_INFO_CAPTURECOUNT, &groups);
    for (size_t i = 0; i < n; i++) {
        if (t[i] != '$' || i + 1 >= n) {
            sd_buf_putc(f->b, t[i]);
            continue;
        }
        if (t[i + 1] == '$') {
            sd_buf_putc(f->b, '$');
            i++;
            continue;
        }
        size_t st = i + 1, en;
        int brace = t[st] == '{';
        if (brace)
            st++;
        en = st;
        while (en < n && (t[en] == '_' || (t[en] >= 'a' && t[en] <= 'z') || (t[en] >= 'A' && t[en] <= 'Z') ||
                          (t[en] >= '0' && t[en] <= '9')))
            en++;
        if (en == st || (brace && (en >= n || t[en] != '}'))) {
            sd_buf_putc(f->b, '$');
            continue;
        }
        char name[64];
        size_t nl = en - st < sizeof name - 1 ? en - st : sizeof name - 1;
        memcpy(name, t + st, nl);
        name[nl] = '\0';
        long g = -1;
        char *e;
        long num = strtol(name, &e, 10);
        if (!*e)
            g = num;
        else
            g = pcre2_substring_number_from_name(f->x->code, (PCRE2_SPTR)name);
        if (g >= 0 && (uint32_t)g <= groups && ov[2 * g] != PCRE2_UNSET)
            sd_buf_put(f->b, f->s.u.s.p + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
        i = brace ? en : en - 1;
    }
}

static int replace_one(void *p, size_t a, size_t e, PCRE2_SIZE *ov)
{
    fctx *f = p;
    sd_buf_put(f->b, f->s.u.s.p + f->last, a - f->last);
    if (f->literal)
        sd_buf_put(f->b, S(f->repl));
    else
        expand(f, ov);
    f->last = e;
    return sd_buf_failed(f->b) ? SD_ELIMIT : 0;
}

static int do_replace(sd_gval *o, sd_gcall *c, const sd_gval *a, int literal, int must)
{
    rectx x;
    sd_buf b;
    fctx f = { c, a[1], sd_gmissing(), &b, a[2], literal, 0, &x };
    int r = re_open(c, &x, a[0], must);
    if (r) {
        *o = a[1];
        return r < 0 ? r : 0;
    }
    big_buf(&b);
    r = re_all(c, &x, a[1], -1, replace_one, &f);
    re_close(&x);
    if (r < 0) {
        sd_buf_release(&b);
        return c->err ? c->err : sd_gcall_fail(c, "result too large");
    }
    sd_buf_put(&b, a[1].u.s.p + f.last, a[1].u.s.n - f.last);
    return sd_gotmpl__buf_val(o, c, &b);
}

static int f_regexreplaceall(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return do_replace(o, c, a, 0, 0); }
static int f_regexreplaceallliteral(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return do_replace(o, c, a, 1, 0); }

static int split_one(void *p, size_t a, size_t e, PCRE2_SIZE *ov)
{
    fctx *f = p;
    (void)ov;
    if (e == 0 && a == 0 && f->s.u.s.n)
        return 0;  /* Go: an empty match at the start does not split */
    int r = sd_glist_push(f->c->heap, f->list, sd_gstr_static(f->s.u.s.p + f->last, a - f->last));
    f->last = e;
    return r;
}

static int f_regexsplit(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    rectx x;
    fctx f = { c, a[1], sd_glist_new(c->heap, 4), NULL, sd_gmissing(), 0, 0, &x };
    long long max = a[2].u.i;
    (void)n;
    *o = f.list;
    if (max == 0) {
        *o = sd_gnil();
        return 0;
    }
    int r = re_open(c, &x, a[0], 0);
    if (r)
        return 0;
    if (a[0].u.s.n && a[1].u.s.n == 0) {
        re_close(&x);
        sd_glist_push(c->heap, f.list, a[1]);
        return 0;
    }
    r = re_all(c, &x, a[1], max > 0 ? max - 1 : -1, split_one, &f);
    re_close(&x);
    if (r < 0)
        return r;
    sd_glist_push(c->heap, f.list, sd_gstr_static(a[1].u.s.p + f.last, a[1].u.s.n - f.last));
    return 0;
}

static int f_regexquotemeta(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    (void)n;
    big_buf(&b);
    for (size_t i = 0; i < a[0].u.s.n; i++) {
        if (strchr("\\.+*?()|[]{}^$", a[0].u.s.p[i]) && a[0].u.s.p[i])
            sd_buf_putc(&b, '\\');
        sd_buf_putc(&b, a[0].u.s.p[i]);
    }
    return sd_gotmpl__buf_val(o, c, &b);
}

const gfunc sd_gotmpl__codec_funcs[] = {
    { "b64dec", "S", f_b64dec, NULL },
    { "b64enc", "S", f_b64enc, NULL },
    { "fromJson", "S", f_fromjson, NULL },
    { "fromYaml", "S", f_fromyaml, NULL },
    { "mustFromJson", "S", f_mustfromjson, NULL },
    { "mustRegexMatch", "SS", f_mustregexmatch, NULL },
    { "mustToJson", "A", f_musttojson, NULL },
    { "mustToPrettyJson", "A", f_musttoprettyjson, NULL },
    { "mustToRawJson", "A", f_musttorawjson, NULL },
    { "regexFind", "SS", f_regexfind, NULL },
    { "regexFindAll", "SSI", f_regexfindall, NULL },
    { "regexMatch", "SS", f_regexmatch, NULL },
    { "regexQuoteMeta", "S", f_regexquotemeta, NULL },
    { "regexReplaceAll", "SSS", f_regexreplaceall, NULL },
    { "regexReplaceAllLiteral", "SSS", f_regexreplaceallliteral, NULL },
    { "regexSplit", "SSI", f_regexsplit, NULL },
    { "toJson", "A", f_tojson, NULL },
    { "toPrettyJson", "A", f_toprettyjson, NULL },
    { "toRawJson", "A", f_torawjson, NULL },
    { "toYaml", "A", f_toyaml, NULL },
    { "highlight", "A", NULL, "syntax highlighting (helm-docs' chroma) is not implemented" },
    { "toHTML", "A", NULL, "helm-docs renders Markdown with gomarkdown, whose exact HTML schemadoc does not reproduce" },
    { "tpl", "A", NULL, "Helm's tpl is not part of helm-docs" },
    { "required", "A", NULL, "Helm's required is not part of helm-docs" },
    { "lookup", "A", NULL, "a template cannot reach the network" },
    { NULL, NULL, NULL, NULL }
};
