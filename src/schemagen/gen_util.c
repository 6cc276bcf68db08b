/* SPDX-License-Identifier: Apache-2.0 */
/* gen_util.c - what the schema generator's readings build with (gen_int.h):
 * schema maps and values in the output document, keys set, appended and
 * removed, facts, deep copies and equality, the JSON types of helm-docs
 * words, yaml.v3's scalar types. */
#include "gen_int.h"
#include "alloc.h"
#include "synth.h"

#include <stdlib.h>
#include <string.h>

/* Positions name the output's own copy of the values file's name: the
 * values document may be freed before the schema is. */
static sd_loc here(const gen *g)
{
    return (sd_loc){ g->out->file, g->loc.file ? g->loc.line : 0, g->loc.file ? g->loc.column : 0 };
}

sd_node *sd_gen__map(gen *g)
{
    sd_node *n = sd_synth_map(g->out, here(g));
    if (!n)
        g->oom = 1;
    return n;
}

sd_node *sd_gen__seq(gen *g)
{
    sd_node *n = sd_synth_seq(g->out, here(g));
    if (!n)
        g->oom = 1;
    return n;
}

sd_node *sd_gen__strn(gen *g, const char *s, size_t len)
{
    sd_node *n = sd_synth_map(g->out, here(g));
    char *c = sd_arena_strndup(&g->out->arena, s, len);
    if (!n || !c) {
        g->oom = 1;
        return NULL;
    }
    n->kind = SD_STR;
    n->str = c;
    n->len = (uint32_t)len;
    return n;
}

sd_node *sd_gen__str(gen *g, const char *s)
{
    return sd_gen__strn(g, s, strlen(s));
}

sd_node *sd_gen__bool(gen *g, int v)
{
    sd_node *n = sd_synth_bool(g->out, here(g), v);
    if (!n)
        g->oom = 1;
    return n;
}

sd_node *sd_gen__int(gen *g, long long v)
{
    sd_node *n = sd_synth_int(g->out, here(g), v);
    if (!n)
        g->oom = 1;
    return n;
}

sd_node *sd_gen__num(gen *g, double v)
{
    sd_node *n = sd_synth_num(g->out, here(g), v);
    if (!n)
        g->oom = 1;
    return n;
}

static sd_node *copy_rec(gen *g, const sd_node *src, int depth)
{
    sd_node *n;
    if (!src || depth > 1000)
        return src ? sd_gen__map(g) : NULL;
    if (src->kind == SD_MAP || src->kind == SD_SEQ) {
        n = src->kind == SD_MAP ? sd_gen__map(g) : sd_gen__seq(g);
        for (uint32_t i = 0; n && i < src->n && !g->oom; i++) {
            sd_node *v = copy_rec(g, src->items[i].value, depth + 1);
            if (!v)
                break;
            if (src->kind == SD_MAP)
                sd_gen__set(g, n, src->items[i].key->str, v);
            else if (sd_synth_push(g->out, n, v) < 0)
                g->oom = 1;
        }
        if (n)
            n->loc = (sd_loc){ g->out->file, src->loc.line, src->loc.column };
        return g->oom ? NULL : n;
    }
    n = sd_synth_copy(g->out, src);
    if (!n)
        g->oom = 1;
    else
        n->loc = (sd_loc){ g->out->file, src->loc.line, src->loc.column };
    return n;
}

sd_node *sd_gen__copy(gen *g, const sd_node *src)
{
    return copy_rec(g, src, 0);
}

void sd_gen__set(gen *g, sd_node *map, const char *key, sd_node *v)
{
    if (!map || !v || g->oom)
        return;
    map->keyidx = 0;
    if (sd_synth_set(g->out, map, key, v) < 0)
        g->oom = 1;
}

void sd_gen__append(gen *g, sd_node *map, const char *key, sd_node *v)
{
    if (!map || !v || g->oom)
        return;
    if (map->n < 4) {   /* (small: sd_synth_set's own growth) */
        sd_gen__set(g, map, key, v);
        return;
    }
    /* grow as sd_synth_set would, without its search */
    size_t cap = 4;
    while (cap < map->n)
        cap *= 2;
    if (map->n == cap) {
        sd_pair *items = sd_arena_alloc(&g->out->arena, 2 * cap * sizeof *items);
        if (!items) {
            g->oom = 1;
            return;
        }
        memcpy(items, map->items, map->n * sizeof *items);
        map->items = items;
    }
    sd_node *k = sd_gen__str(g, key);
    if (!k)
        return;
    k->loc = v->loc;
    sd_pair *p = &map->items[map->n++];
    memset(p, 0, sizeof *p);
    p->key = k;
    p->value = v;
    p->c_trail = -1;
    map->keyidx = 0;
}

void sd_gen__del(sd_node *map, const char *key)
{
    if (!map || map->kind != SD_MAP)
        return;
    for (uint32_t i = 0; i < map->n; i++)
        if (!strcmp(map->items[i].key->str, key)) {
            memmove(&map->items[i], &map->items[i + 1], (map->n - i - 1) * sizeof *map->items);
            map->n--;
            map->keyidx = 0;
            return;
        }
}

int sd_gen__flag(const sd_node *s, const char *flag)
{
    const sd_node *f = s && s->kind == SD_MAP ? sd_node_get(s, flag) : NULL;
    return f && f->kind == SD_BOOL && f->num.b;
}

void sd_gen__set_flag(gen *g, sd_node *s, const char *flag, int on)
{
    if (!s || s->kind != SD_MAP)
        return;
    if (on)
        sd_gen__set(g, s, flag, sd_gen__bool(g, 1));
    else
        sd_gen__del(s, flag);
}

void sd_gen__push(gen *g, const char *seg)
{
    if (sd_grow((void **)&g->ptr, &g->aptr, g->nptr + 1, sizeof *g->ptr) < 0) {
        g->oom = 1;
        return;
    }
    g->ptr[g->nptr++] = seg;
}

void sd_gen__pop(gen *g)
{
    if (g->nptr)
        g->nptr--;
}

int sd_gen__equal(const sd_node *a, const sd_node *b)
{
    if (!a || !b)
        return a == b;
    int na = a->kind == SD_INT || a->kind == SD_FLOAT, nb = b->kind == SD_INT || b->kind == SD_FLOAT;
    if (na && nb)
        return sd_node_number(a) == sd_node_number(b);
    if (a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case SD_NULL: return 1;
    case SD_BOOL: return a->num.b == b->num.b;
    case SD_STR:  return a->len == b->len && !memcmp(a->str, b->str, a->len);
    case SD_SEQ:
        if (a->n != b->n)
            return 0;
        for (uint32_t i = 0; i < a->n; i++)
            if (!sd_gen__equal(a->items[i].value, b->items[i].value))
                return 0;
        return 1;
    case SD_MAP:
        if (a->n != b->n)
            return 0;
        for (uint32_t i = 0; i < a->n; i++)
            if (!sd_gen__equal(a->items[i].value, sd_node_get(b, a->items[i].key->str)))
                return 0;
        return 1;
    default:
        return 0;
    }
}

/* Go's strconv.ParseInt(s, 0, 64) after yaml.v3 took the '_' out: a sign,
 * then 0x / 0o / 0b / a leading 0 (octal) or decimal digits. */
static int go_int0(const char *s, size_t n)
{
    size_t i = 0;
    int base = 10;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    if (i + 1 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X'))
        base = 16, i += 2;
    else if (i + 1 < n && s[i] == '0' && (s[i + 1] == 'o' || s[i + 1] == 'O'))
        base = 8, i += 2;
    else if (i + 1 < n && s[i] == '0' && (s[i + 1] == 'b' || s[i + 1] == 'B'))
        base = 2, i += 2;
    else if (i + 1 < n && s[i] == '0')
        base = 8, i += 1;
    if (i >= n)
        return base == 10 || base == 8 ? i > 0 && s[i - 1] == '0' : 0;
    for (; i < n; i++) {
        int c = (unsigned char)s[i], d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                        : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;
        if (d >= base)
            return 0;
    }
    return 1;
}

/* yaml.v3's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ */
static int yaml_float(const char *s, size_t n)
{
    size_t i = 0, d = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++, d++;
        if (!d)
            return 0;
    } else {
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++, d++;
        if (!d)
            return 0;
        if (i < n && s[i] == '.') {
            i++;
            while (i < n && s[i] >= '0' && s[i] <= '9')
                i++;
        }
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t e = 0;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++, e++;
        if (!e)
            return 0;
    }
    return i == n;
}

/* yaml.v3's timestamps: 2006-1-2, optionally with a time. */
static int yaml_date(const char *s, size_t n)
{
    size_t i = 0, k;
    for (k = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++, k++)
        ;
    if (k != 4 || i >= n || s[i] != '-')
        return 0;
    for (int part = 0; part < 2; part++) {
        i++;
        for (k = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++, k++)
            ;
        if (k < 1 || k > 2)
            return 0;
        if (part == 0 && (i >= n || s[i] != '-'))
            return 0;
    }
    return i == n || s[i] == 'T' || s[i] == 't' || s[i] == ' ';
}

const char *sd_gen__yaml12_type(const sd_node *v)
{
    static const char *const nulls[] = { "", "~", "null", "Null", "NULL" };
    static const char *const bools[] = { "true", "True", "TRUE", "false", "False", "FALSE" };
    static const char *const floats[] = { ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf",
                                          "+.INF", "-.inf", "-.Inf", "-.INF" };
    char plain[64];
    size_t n = 0;

    if (v->kind == SD_MAP)
        return "object";
    if (v->kind == SD_SEQ)
        return "array";
    if (v->style != SD_STYLE_PLAIN || v->tag)
        return v->kind == SD_STR ? "string" : sd_node_type_word(v);
    for (size_t i = 0; i < sizeof nulls / sizeof *nulls; i++)
        if (!strcmp(v->str, nulls[i]))
            return "null";
    for (size_t i = 0; i < sizeof bools / sizeof *bools; i++)
        if (!strcmp(v->str, bools[i]))
            return "boolean";
    for (size_t i = 0; i < sizeof floats / sizeof *floats; i++)
        if (!strcmp(v->str, floats[i]))
            return "number";
    if (v->len >= sizeof plain)
        return "string";
    for (uint32_t i = 0; i < v->len; i++)
        if (v->str[i] != '_')
            plain[n++] = v->str[i];
    plain[n] = '\0';
    if (n && strchr("+-0123456789.", plain[0])) {
        if (yaml_date(v->str, v->len))
            return "string";
        if (go_int0(plain, n))
            return "integer";
        if (yaml_float(plain, n))
            return "number";
    }
    return "string";
}

/* The JSON types of a helm-docs `(type)` or a Bitnami modifier: "int" ->
 * integer, "(string, object)" -> both, "tpl/..." -> string. Appends to
 * `types` (a seq); returns how many it added. */
int sd_gen__helm_types(gen *g, sd_node *types, const char *t)
{
    static const char *const map[][2] = {
        { "string", "string" }, { "int", "integer" }, { "integer", "integer" }, { "float", "number" },
        { "number", "number" }, { "bool", "boolean" }, { "boolean", "boolean" }, { "list", "array" },
        { "array", "array" }, { "object", "object" }, { "dict", "object" }, { "map", "object" },
        { "null", "null" }, { "tpl", "string" }
    };
    int added = 0;
    while (t && *t) {
        size_t n = strcspn(t, ",/");
        const char *w = t;
        while (n && (*w == ' ' || *w == '\t'))
            w++, n--;
        size_t m = n;
        while (m && (w[m - 1] == ' ' || w[m - 1] == '\t'))
            m--;
        for (size_t i = 0; i < sizeof map / sizeof *map; i++)
            if (strlen(map[i][0]) == m && !strncmp(w, map[i][0], m)) {
                int dup = 0;
                for (uint32_t j = 0; j < types->n; j++)
                    dup |= !strcmp(types->items[j].value->str, map[i][1]);
                if (!dup && sd_synth_push(g->out, types, sd_gen__str(g, map[i][1])) < 0)
                    g->oom = 1;
                added += !dup;
            }
        t = w + n;
        if (*t == '/')
            break;   /* "tpl/array": the first word says it */
        if (*t == ',')
            t++;
    }
    return added;
}

int sd_gen__has_type(const sd_node *types, const char *t)
{
    for (uint32_t i = 0; i < types->n; i++)
        if (!strcmp(types->items[i].value->str, t) ||
            (!strcmp(t, "integer") && !strcmp(types->items[i].value->str, "number")))
            return 1;
    return 0;
}
