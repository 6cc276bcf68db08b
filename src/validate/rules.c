/* SPDX-License-Identifier: Apache-2.0 */
/* rules.c - compiled validators (vprog.h records) -> the rules document.
 *
 * Every `vs` record of every entry's validator becomes one JSON object in
 * "records", referring to other records by index (so $ref cycles are just
 * numbers); schema pointers are shared through a parent table ("paths"),
 * patterns and file names through their own tables; each record carries
 * the file:line:col of its keywords so that messages point where the C
 * validator's do. Values that messages quote from the schema (enum lists,
 * const) are rendered here once, with the C code's own renderer. The
 * message catalogue (vmsg.h) goes in as "messages", the named formats
 * (vnamed.h) as "named". Output is
 * deterministic: records in compile order, tables in first-use order.
 * Format: docs/rules.md. */
#include "rules.h"
#include "pmap.h"
#include "ecma_re.h"
#include "emit.h"
#include "keywords.h"
#include "vmsg.h"
#include "vnamed.h"
#include "vprog.h"
#include "jsnum.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small maps: pointer -> index (pmap.h), string -> index ---------------- */

/* A string table: index by first use; strings are borrowed. */
typedef struct stab { const char **items; size_t n, alloc; sd_pmap byhash; } stab;

static long stab_add(stab *t, const char *s)
{
    /* linear on purpose: a few dozen files, patterns deduplicated by hash below */
    uint64_t h = s ? sd_hash_fnv(s, strlen(s)) : 0;
    uintptr_t *hit = sd_pmap_get(&t->byhash, (const void *)(uintptr_t)(h | 1));
    if (hit) {
        for (size_t i = *hit; i < t->n; i++)
            if ((!s && !t->items[i]) || (s && t->items[i] && !strcmp(s, t->items[i])))
                return (long)i;
    }
    if (t->n == t->alloc) {
        size_t na = t->alloc ? t->alloc * 2 : 16;
        const char **p = realloc(t->items, na * sizeof *p);
        if (!p)
            return -1;
        t->items = p;
        t->alloc = na;
    }
    if (!hit && sd_pmap_put(&t->byhash, (const void *)(uintptr_t)(h | 1), t->n) < 0)
        return -1;
    t->items[t->n] = s;
    return (long)t->n++;
}

/* ---- the export ------------------------------------------------------------ */

typedef struct pattern { const char *src; sd_loc loc; } pattern;

typedef struct rx {
    sd_buf *o;
    sd_diags *diags;
    sd_pmap rec;                 /* vs* -> global record index */
    sd_pmap path;                /* sd_schema_info* -> path index */
    sd_pmap res;                 /* resource sd_schema_info* -> index */
    const sd_schema_info **ress; size_t nres, ares;
    stab files;
    const char *file_last;    /* the last file looked up, and its index */
    long file_last_i;
    int nfile_last;
    stab pats;
    sd_loc *pat_loc;          /* first place each pattern is written */
    int *pat_risk;            /* enum sd_re_risk of each pattern */
    sd_buf paths;             /* the "paths" array body */
    sd_buf scratch;
    size_t npaths;
    sd_buf warnings;          /* the "warnings" array body */
    size_t nwarnings;
    int err;
} rx;

static void nomem(rx *x)
{
    x->err = SD_ENOMEM;
}

static long file_index(rx *x, const char *file)
{
    long i;
    if (x->nfile_last && file == x->file_last)   /* nearly always the same file */
        return x->file_last_i;
    if ((i = stab_add(&x->files, file)) < 0)
        nomem(x);
    x->file_last = file;
    x->file_last_i = i;
    x->nfile_last = 1;
    return i;
}


/* A JSON string; most need no escaping (emit.c's rules: " \\ < > & and controls). */
static void put_strn(sd_buf *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&') {
            sd_emit_json_string(o, s, n);
            return;
        }
    }
    if (sd_buf_grow(o, n + 2))
        return;
    o->ptr[o->len++] = '"';
    memcpy(o->ptr + o->len, s, n);
    o->len += n;
    o->ptr[o->len++] = '"';
    o->ptr[o->len] = '\0';
}

static void put_str(sd_buf *o, const char *s)
{
    put_strn(o, s, strlen(s));
}

static void put_at(rx *x, sd_loc l)
{
    sd_buf_putc(x->o, '[');
    sd_buf_put_int(x->o, file_index(x, l.file));
    sd_buf_putc(x->o, ',');
    sd_buf_put_int(x->o, l.line);
    sd_buf_putc(x->o, ',');
    sd_buf_put_int(x->o, l.column);
    sd_buf_putc(x->o, ']');
}

/* "/" and a pointer segment, escaped (RFC 6901), as resolve.c builds them. */
static void seg(sd_buf *b, const char *s, size_t n)
{
    size_t start = 0;
    sd_buf_putc(b, '/');
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '~' && s[i] != '/')
            continue;
        sd_buf_put(b, s + start, i - start);
        sd_buf_puts(b, s[i] == '~' ? "~0" : "~1");
        start = i + 1;
    }
    sd_buf_put(b, s + start, n - start);
}

/* The path index of `info`: the chain of parents gets entries first, each
 * holding its parent's index and the pointer text it adds (the segment
 * resolve.c's sd_schema_ptr would add: keyword, then key or index). */
static long path_index(rx *x, sd_resolver *r, sd_schema_info *info)
{
    uintptr_t *hit = sd_pmap_get(&x->path, info);
    sd_schema_info *chain[64];
    size_t n;
    if (hit)
        return (long)*hit;
    /* walk up to a known ancestor (or the root), then number downwards;
     * a chain longer than 64 is cut into several passes */
    for (;;) {
        sd_schema_info *i = info;
        n = 0;
        while (i && !sd_pmap_get(&x->path, i)) {
            if (n == sizeof chain / sizeof *chain)
                n = 0;   /* restart the window nearer the root */
            chain[n++] = i;
            i = (sd_schema_info *)(uintptr_t)i->parent;
        }
        sd_schema_info *top = chain[n - 1], *up = (sd_schema_info *)(uintptr_t)top->parent;
        long parent = up ? (long)*sd_pmap_get(&x->path, up) : -1;
        sd_buf_puts(&x->paths, x->npaths ? ",[" : "[");
        sd_buf_put_int(&x->paths, parent);
        sd_buf_putc(&x->paths, ',');
        if (up) {
            sd_buf *t = &x->scratch;
            sd_buf_clear(t);
            seg(t, top->seg_kw, strlen(top->seg_kw));
            if (top->seg_key)
                seg(t, top->seg_key, top->seg_keylen);
            else if (top->seg_idx >= 0) {
                sd_buf_putc(t, '/');
                sd_buf_put_int(t, top->seg_idx);
            }
            sd_emit_json_string(&x->paths, t->ptr, t->len);
            if (sd_buf_failed(t))
                nomem(x);
        } else {
            const char *p = sd_schema_ptr(r, top);
            if (!p)
                return nomem(x), -1;
            put_str(&x->paths, p);
        }
        sd_buf_putc(&x->paths, ']');
        if (sd_pmap_put(&x->path, top, x->npaths++) < 0) {
            nomem(x);
            return -1;
        }
        if (top == info)
            return (long)x->npaths - 1;
    }
}

static long res_index(rx *x, const sd_schema_info *res)
{
    uintptr_t *hit = sd_pmap_get(&x->res, res);
    if (hit)
        return (long)*hit;
    if (x->nres == x->ares) {
        size_t na = x->ares ? x->ares * 2 : 16;
        const sd_schema_info **p = realloc(x->ress, na * sizeof *p);
        if (!p)
            return nomem(x), -1;
        x->ress = p;
        x->ares = na;
    }
    x->ress[x->nres] = res;
    if (sd_pmap_put(&x->res, res, x->nres) < 0)
        return nomem(x), -1;
    return (long)x->nres++;
}

static long rec_of(rx *x, const vs *s)
{
    uintptr_t *hit = sd_pmap_get(&x->rec, s);
    return hit ? (long)*hit : -1;
}

/* A warning of the export: in `diags` and in the document's "warnings". */
static void warn(rx *x, sd_loc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void warn(rx *x, sd_loc loc, const char *fmt, ...)
{
    sd_buf m = SD_BUF_INIT;
    sd_diag d;
    char *line;
    va_list ap;
    va_start(ap, fmt);
    sd_buf_vprintf(&m, fmt, ap);
    va_end(ap);
    sd_diag_warning(x->diags, loc, "%s", m.ptr);
    memset(&d, 0, sizeof d);
    d.severity = SD_SEV_WARNING;
    d.loc = loc;
    d.message = m.ptr;
    if ((line = sd_diag_format(&d))) {
        sd_buf_puts(&x->warnings, x->nwarnings++ ? ",\n  " : "\n  ");
        put_str(&x->warnings, line);
        free(line);
    } else {
        nomem(x);
    }
    sd_buf_release(&m);
}

/* What the browser will make of a new pattern: warn where it differs from
 * PCRE2, remember how it may backtrack. */
static int judge_pattern(rx *x, const char *src, sd_loc loc)
{
    sd_ecma_re r;
    if (!sd_ecma_re_check(&r, src, strlen(src))) {
        warn(x, loc, "JavaScript refuses the pattern '%s' (%s, at character %zu): the browser treats "
             "every value as not matching it", src, r.error, r.offset);
        return SD_RE_LINEAR;
    }
    if (r.differs & SD_RE_DIFF_CLASS_S)
        warn(x, loc, "in the pattern '%s', \\S inside [...] excludes only ASCII white space here (PCRE2) "
             "but all Unicode white space in the browser", src);
    if (r.differs & SD_RE_DIFF_U_BRACE)
        warn(x, loc, "in the pattern '%s', \\u{...} is a code point in the browser but the letter u "
             "and a repetition here (PCRE2)", src);
    if (r.differs & SD_RE_DIFF_BACKREF)
        warn(x, loc, "in the pattern '%s', a back-reference to a group that has not matched matches the "
             "empty string in the browser and fails here (PCRE2)", src);
    if (r.risk == SD_RE_EXP)
        warn(x, loc, "the pattern '%s' can backtrack catastrophically (exponential time on some values); "
             "both validators give up on such a value and report it", src);
    return r.risk;
}

static long pattern_index(rx *x, const char *src, sd_loc loc)
{
    size_t before = x->pats.n;
    long i = stab_add(&x->pats, src);
    if (i < 0)
        return nomem(x), -1;
    if (x->pats.n > before) {
        sd_loc *l = realloc(x->pat_loc, x->pats.alloc * sizeof *l);
        int *rk = l ? realloc(x->pat_risk, x->pats.alloc * sizeof *rk) : NULL;
        if (l)
            x->pat_loc = l;
        if (!rk)
            return nomem(x), -1;
        x->pat_risk = rk;
        l[i] = loc;
        rk[i] = judge_pattern(x, src, loc);
    }
    return i;
}

/* A number of the schema as JSON: the value, or [value, "text"] when the
 * text it was written as differs from what JavaScript prints for it
 * (messages quote the text as written). */
static void put_number(rx *x, const sd_node *n)
{
    sd_buf v = SD_BUF_INIT;
    sd_jsnum_put(&v, sd_node_number(n));
    if (n->str && n->len && (n->len != v.len || memcmp(n->str, v.ptr, v.len) != 0)) {
        sd_buf_printf(x->o, "[%s,", v.ptr);
        sd_emit_json_string(x->o, n->str, n->len);
        sd_buf_putc(x->o, ']');
    } else {
        sd_buf_put(x->o, v.ptr, v.len);
    }
    sd_buf_release(&v);
}

/* ,"name": */
static void put_key(sd_buf *o, const char *name)
{
    sd_buf_puts(o, ",\"");
    sd_buf_puts(o, name);
    sd_buf_puts(o, "\":");
}

static void put_recs(rx *x, const char *name, vs *const *a, size_t n)
{
    put_key(x->o, name);
    sd_buf_putc(x->o, '[');
    for (size_t i = 0; i < n; i++) {
        if (i)
            sd_buf_putc(x->o, ',');
        sd_buf_put_int(x->o, rec_of(x, a[i]));
    }
    sd_buf_putc(x->o, ']');
}

static void put_rec(rx *x, const char *name, const vs *s)
{
    if (s) {
        put_key(x->o, name);
        sd_buf_put_int(x->o, rec_of(x, s));
    }
}

static void put_count(rx *x, const char *name, long long v)
{
    if (v >= 0) {
        put_key(x->o, name);
        sd_buf_put_int(x->o, v);
    }
}

static void put_num_kw(rx *x, const char *name, const sd_node *n)
{
    if (!n)
        return;
    sd_buf_printf(x->o, ",\"%s\":", name);
    put_number(x, n);
}

static void put_locs(rx *x, const vs *s)
{
    const sd_node *n = s->node;
    int any = 0;
    if (n->kind != SD_MAP)
        return;
    for (size_t i = 0; i < n->n; i++) {
        const char *k = n->items[i].key->str;
        const sd_kw *kw = sd_kw_find(k, n->items[i].key->len);
        /* the keywords whose errors point at their own key (vreport.c kw_loc):
         * those with messages of their own, whatever the draft */
        if (!kw || !kw->msgs)
            continue;
        /* the first key of that name, as kw_loc finds it */
        int first = 1;
        for (size_t j = 0; j < i && first; j++)
            first = strcmp(n->items[j].key->str, k) != 0;
        if (!first)
            continue;
        sd_buf_puts(x->o, any++ ? "," : ",\"loc\":{");
        put_str(x->o, k);
        sd_buf_puts(x->o, ":[");
        sd_buf_put_int(x->o, n->items[i].key->loc.line);
        sd_buf_putc(x->o, ',');
        sd_buf_put_int(x->o, n->items[i].key->loc.column);
        sd_buf_putc(x->o, ']');
    }
    if (any)
        sd_buf_putc(x->o, '}');
}

/* ---- the keywords of a record that rules.c writes itself (field OWN) ------- */

static void put_dynamic_ref(rx *x, const vs *s)
{
    if (!s->dynref)
        return;
    sd_buf_printf(x->o, ",\"dynamicRef\":[%ld,", rec_of(x, s->dynref));
    if (s->dyn_kind == 1)
        put_str(x->o, s->dyn_name);
    else
        sd_buf_puts(x->o, s->dyn_kind == 2 ? "true" : "null");
    sd_buf_putc(x->o, ']');
}

/* the allowed values, and the list as the message shows it */
static void put_enum(rx *x, const vs *s)
{
    sd_buf *o = x->o, b = SD_BUF_INIT;
    if (!s->enum_)
        return;
    sd_buf_puts(o, ",\"enum\":");
    sd_emit_json(o, NULL, s->enum_, 0, 0);
    for (size_t i = 0; i < s->enum_->n && i < 12; i++) {
        if (i) sd_buf_puts(&b, SD_MSG_ENUM_SEP);
        sd_vprog__show_node(&b, s->enum_->items[i].value);
    }
    if (s->enum_->n > 12)
        sd_buf_printf(&b, SD_MSG_ENUM_MORE, (size_t)s->enum_->n - 12);
    sd_buf_puts(o, ",\"enumText\":");
    sd_emit_json_string(o, b.ptr, b.len);
    sd_buf_release(&b);
}

static void put_const(rx *x, const vs *s)
{
    sd_buf *o = x->o, b = SD_BUF_INIT;
    if (!s->has_const)
        return;
    sd_buf_puts(o, ",\"const\":");
    sd_emit_json(o, NULL, s->const_, 0, 0);
    sd_vprog__show_node(&b, s->const_);
    sd_buf_puts(o, ",\"constText\":");
    sd_emit_json_string(o, b.ptr, b.len);
    sd_buf_release(&b);
}

static void put_format(rx *x, const vs *s)
{
    sd_buf *o = x->o;
    if (s->format < 0 || (!s->assert_format && !s->warn_format))
        return;
    sd_buf_puts(o, ",\"format\":");
    put_str(o, sd_format_name(s->format));
    if (strcmp(sd_format_check_name(s->format), sd_format_name(s->format)) != 0) {
        sd_buf_puts(o, ",\"formatCheck\":");
        put_str(o, sd_format_check_name(s->format));
    }
    if (s->warn_format && !s->assert_format) {
        sd_buf_puts(o, ",\"formatWarn\":");
        put_str(o, sd_draft_name(s->draft));
    }
}

/* names (strings only) */
static void put_names(sd_buf *o, const sd_node *list)
{
    int any = 0;
    sd_buf_putc(o, '[');
    for (size_t i = 0; i < list->n; i++) {
        const sd_node *r = list->items[i].value;
        if (r->kind != SD_STR)
            continue;
        if (any++) sd_buf_putc(o, ',');
        sd_emit_json_string(o, r->str, r->len);
    }
    sd_buf_putc(o, ']');
}

static void put_required(rx *x, const vs *s)
{
    if (!s->required)
        return;
    sd_buf_puts(x->o, ",\"required\":");
    put_names(x->o, s->required);
    if (s->nreq_fast)
        sd_buf_puts(x->o, ",\"requiredLate\":1");
}

/* dependencies, dependentRequired and dependentSchemas, in schema order */
static void put_deps(rx *x, const vs *s)
{
    sd_buf *o = x->o;
    if (!s->ndeps)
        return;
    sd_buf_puts(o, ",\"dependencies\":[");
    for (size_t i = 0; i < s->ndeps; i++) {
        const vdep *d = &s->deps[i];
        sd_buf_puts(o, i ? ",[" : "[");
        sd_emit_json_string(o, d->name, d->len);
        sd_buf_putc(o, ',');
        put_str(o, d->kw);
        sd_buf_putc(o, ',');
        if (d->req)
            put_names(o, d->req);
        else
            sd_buf_puts(o, "null");
        sd_buf_printf(o, ",%ld]", d->s ? rec_of(x, d->s) : -1L);
    }
    sd_buf_putc(o, ']');
}

static void put_properties(rx *x, const vs *s)
{
    sd_buf *o = x->o;
    if (!s->nprops)
        return;
    sd_buf_puts(o, ",\"properties\":[");
    for (size_t i = 0; i < s->nprops; i++) {
        if (i) sd_buf_putc(o, ',');
        put_strn(o, s->props[i].name, s->props[i].len);
        sd_buf_putc(o, ',');
        sd_buf_put_int(o, rec_of(x, s->props[i].s));
    }
    sd_buf_putc(o, ']');
}

static void put_pattern_properties(rx *x, const vs *s)
{
    sd_buf *o = x->o;
    if (!s->npats)
        return;
    sd_buf_puts(o, ",\"patternProperties\":[");
    for (size_t i = 0; i < s->npats; i++) {
        sd_loc l = { NULL, 0, 0 };
        const sd_node *pp = sd_node_get(s->node, "patternProperties");
        if (pp && pp->kind == SD_MAP && i < pp->n)
            l = pp->items[i].key->loc;
        sd_buf_printf(o, "%s%ld,%ld", i ? "," : "", pattern_index(x, s->pats[i].re.src, l),
                      rec_of(x, s->pats[i].s));
    }
    sd_buf_putc(o, ']');
}

/* A keyword whose field is OWN in keywords.def: its case here. */
static void put_own(rx *x, const vs *s, const sd_kw *kw)
{
    switch (kw->id) {
    case SD_KW_dynamicRef: put_dynamic_ref(x, s); break;
    case SD_KW_type:
        if (s->types) {
            sd_buf_puts(x->o, ",\"type\":");
            sd_buf_put_int(x->o, s->types);
        }
        break;
    case SD_KW_enum: put_enum(x, s); break;
    case SD_KW_const: put_const(x, s); break;
    case SD_KW_pattern:
        if (s->pattern.code) {
            const sd_node *pn = sd_node_get(s->node, "pattern");
            sd_buf_printf(x->o, ",\"pattern\":%ld", pattern_index(x, s->pattern.src, pn ? pn->loc : s->node->loc));
        }
        break;
    case SD_KW_format: put_format(x, s); break;
    case SD_KW_required: put_required(x, s); break;
    case SD_KW_dependencies: put_deps(x, s); break;
    case SD_KW_properties: put_properties(x, s); break;
    case SD_KW_patternProperties: put_pattern_properties(x, s); break;
    case SD_KW_contains:
        if (s->contains) {   /* minContains and maxContains only with it */
            put_rec(x, "contains", s->contains);
            put_count(x, "minContains", s->minc);
            put_count(x, "maxContains", s->maxc);
        }
        break;
    default:
        nomem(x);   /* a row of keywords.def without its case here: test_keywords fails on it */
        break;
    }
}

/* One keyword of a record, as its row of keywords.def says. */
static void put_field(rx *x, const vs *s, const sd_kw *kw)
{
    const char *at = (const char *)s + kw->off;
    switch (kw->field) {
    case SD_KF_COUNT: put_count(x, kw->record, *(const long long *)(const void *)at); break;
    case SD_KF_NUM: put_num_kw(x, kw->record, *(const sd_node *const *)(const void *)at); break;
    case SD_KF_REC: put_rec(x, kw->record, *(vs *const *)(const void *)at); break;
    case SD_KF_RECS: {
        size_t n = *(const size_t *)(const void *)((const char *)s + kw->off_n);
        if (n)
            put_recs(x, kw->record, *(vs **const *)(const void *)at, n);
        break;
    }
    case SD_KF_FLAG:
        if (*(const uint8_t *)at) {
            put_key(x->o, kw->record);
            sd_buf_putc(x->o, '1');
        }
        break;
    case SD_KF_OWN: put_own(x, s, kw); break;
    default: break;
    }
}

static void put_record(rx *x, sd_validator *v, const vs *s, int entry_draft)
{
    sd_buf *o = x->o;
    sd_buf_puts(o, "{\"at\":");
    put_at(x, s->node->loc);
    sd_buf_puts(o, ",\"ptr\":");
    sd_buf_put_int(o, path_index(x, v->r, s->info));
    if (s->loop) {
        sd_buf_puts(o, ",\"loop\":1}");
        return;
    }
    if (s->alias) {
        sd_buf_puts(o, ",\"alias\":");
        sd_buf_put_int(o, rec_of(x, s->alias));
        sd_buf_putc(o, '}');
        return;
    }
    if (s->kind != VS_SCHEMA) {
        sd_buf_printf(o, ",\"bool\":%s}", s->kind == VS_TRUE ? "true" : "false");
        return;
    }
    if (s->draft != entry_draft)
        sd_buf_printf(o, ",\"draft\":%d", s->draft);
    if (v->has_dynamic && s->res)
        sd_buf_printf(o, ",\"res\":%ld", res_index(x, s->res));
    /* the keywords in the table's order (docs/rules.md): a keyword whose
     * `need` bit the record lacks gave it nothing to carry */
    for (size_t i = 0; i < SD_KW_COUNT; i++) {
        const sd_kw *kw = &sd_kw_table[i];
        if (kw->record && (!kw->need || (s->need & kw->need)))
            put_field(x, s, kw);
    }
    put_locs(x, s);
    sd_buf_putc(o, '}');
}

/* The text of every number of `n` that JavaScript would print differently,
 * by JSON pointer: messages quote numbers as written. */
static void default_texts(sd_buf *b, size_t *count, const sd_node *n, const char *ptr, int depth)
{
    if (depth > 200)
        return;
    if ((n->kind == SD_INT || n->kind == SD_FLOAT) && n->str && n->len) {
        sd_buf v = SD_BUF_INIT;
        sd_jsnum_put(&v, sd_node_number(n));
        if (v.len != n->len || memcmp(v.ptr, n->str, v.len)) {
            sd_buf_puts(b, (*count)++ ? ", " : "");
            put_str(b, ptr);
            sd_buf_puts(b, ": ");
            sd_emit_json_string(b, n->str, n->len);
        }
        sd_buf_release(&v);
        return;
    }
    if (n->kind != SD_MAP && n->kind != SD_SEQ)
        return;
    for (size_t i = 0; i < n->n; i++) {
        sd_buf p = SD_BUF_INIT;
        sd_buf_puts(&p, ptr);
        sd_buf_putc(&p, '/');
        if (n->items[i].key) {
            const sd_node *k = n->items[i].key;
            for (size_t j = 0; j < k->len; j++) {
                if (k->str[j] == '~') sd_buf_puts(&p, "~0");
                else if (k->str[j] == '/') sd_buf_puts(&p, "~1");
                else sd_buf_putc(&p, k->str[j]);
            }
        } else {
            sd_buf_printf(&p, "%zu", i);
        }
        default_texts(b, count, n->items[i].value, p.ptr, depth + 1);
        sd_buf_release(&p);
    }
}

/* Each resource's dynamic anchors, as the validator's dynamic_target()
 * looks them up: BASE#NAME for every NAME a $dynamicRef of this validator
 * uses, and the resource itself for $recursiveRef. */
static void put_resource(rx *x, const sd_validator *v, const sd_schema_info *res)
{
    sd_buf *o = x->o, uri = SD_BUF_INIT;
    int any = 0;
    sd_buf_putc(o, '{');
    if (res->rec_anchor && res->user)
        sd_buf_printf(o, "\"recursiveAnchor\":%ld", rec_of(x, res->user));
    for (size_t i = 0; i < v->nlist; i++) {
        const vs *s = v->list[i];
        int seen = 0;
        if (s->dyn_kind != 1)
            continue;
        for (size_t j = 0; j < i && !seen; j++)
            seen = v->list[j]->dyn_kind == 1 && !strcmp(v->list[j]->dyn_name, s->dyn_name);
        if (seen)
            continue;
        sd_buf_clear(&uri);
        sd_buf_printf(&uri, "%s#%s", res->base, s->dyn_name);
        const sd_schema_info *a = sd_resolver_lookup(v->r, uri.ptr);
        if (!a || !a->dyn_anchor || strcmp(a->dyn_anchor, s->dyn_name) || !a->user)
            continue;
        if (!any++)
            sd_buf_puts(o, res->rec_anchor && res->user ? ",\"dynamicAnchors\":{" : "\"dynamicAnchors\":{");
        else
            sd_buf_putc(o, ',');
        put_str(o, s->dyn_name);
        sd_buf_printf(o, ":%ld", rec_of(x, a->user));
    }
    if (any)
        sd_buf_putc(o, '}');
    sd_buf_putc(o, '}');
    sd_buf_release(&uri);
}

static const char *formats_name(int f)
{
    return f == SD_FORMATS_ASSERT ? "assert" : f == SD_FORMATS_IGNORE ? "ignore" : "default";
}

/* 1 when an earlier entry than `e` has the same program (its records are
 * written once). */
static int seen_before(const sd_rules_entry *entries, size_t e)
{
    for (size_t i = 0; i < e; i++)
        if (entries[i].val == entries[e].val)
            return 1;
    return 0;
}

/* Number the records of every program (references may point forwards;
 * entries that share a program share its records), and take the limits
 * the programs were compiled with. Returns the number of records. */
static size_t number_records(rx *x, const sd_rules_entry *entries, size_t n, unsigned long *limit,
                             size_t *max_errors)
{
    size_t next = 0;
    for (size_t e = 0; e < n && !x->err; e++) {
        const sd_validator *v = entries[e].val;
        if (seen_before(entries, e))
            continue;
        for (size_t i = 0; i < v->nlist; i++)
            if (sd_pmap_put(&x->rec, v->list[i], next++) < 0)
                nomem(x);
        if (v->opts.regex_match_limit)
            *limit = v->opts.regex_match_limit;
        if (v->opts.max_errors)
            *max_errors = v->opts.max_errors;
    }
    return next;
}

/* The header: what made the document, the options, the message catalogue,
 * the named formats. */
static void put_header(sd_buf *out, const sd_rules_opts *opts, unsigned long limit, size_t max_errors)
{
    sd_buf_printf(out, "{\"rules\": 1,\n \"generator\": \"schemadoc %s\",\n \"source\": ", SD_VERSION);
    put_str(out, opts && opts->source ? opts->source : "");
    sd_buf_puts(out, ",\n \"kind\": ");
    put_str(out, opts && opts->kind ? opts->kind : "schema");
    sd_buf_printf(out, ",\n \"options\": {\"formats\": \"%s\", \"draft\": %d, \"defaultDraft\": %d, "
                  "\"matchLimit\": %lu, \"maxDepth\": %d, \"maxErrors\": %zu}",
                  formats_name(opts ? opts->formats : 0), opts ? opts->draft : 0,
                  opts && opts->default_draft ? opts->default_draft : SD_DRAFT_2020,
                  limit, MAX_DEPTH, max_errors);
    sd_buf_puts(out, ",\n \"messages\": {");
    {
        static const struct { const char *id, *text; } cat[] = {
#define SD_VMSG_ROW(id) { #id, SD_MSG_##id },
            SD_VMSG_LIST(SD_VMSG_ROW)
#undef SD_VMSG_ROW
        };
        for (size_t i = 0; i < sizeof cat / sizeof *cat; i++) {
            sd_buf_puts(out, i ? ",\n  " : "\n  ");
            put_str(out, cat[i].id);
            sd_buf_puts(out, ": ");
            put_str(out, cat[i].text);
        }
    }
    sd_buf_puts(out, "}");
    /* the named formats (vnamed.h): [format, pattern, words] */
    sd_buf_puts(out, ",\n \"named\": [");
    {
        static const char *const named[][3] = {
#define SD_VNAMED_ROW(name, re, words) { name, re, words },
            SD_VNAMED_LIST(SD_VNAMED_ROW)
#undef SD_VNAMED_ROW
        };
        for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
            sd_buf_puts(out, i ? ", [" : "[");
            for (int j = 0; j < 3; j++) {
                if (j)
                    sd_buf_puts(out, ", ");
                if (named[i][j])
                    put_str(out, named[i][j]);
                else
                    sd_buf_puts(out, "null");
            }
            sd_buf_puts(out, "]");
        }
    }
    sd_buf_puts(out, "]");
}

/* One entry point: its root record, and what the interpreter needs beside
 * the program (alias, defaults and their texts, a CRD's group, version,
 * kind). */
static void put_entry(sd_buf *out, rx *x, const sd_rules_entry *en)
{
    const sd_validator *v = en->val;
    put_str(out, en->name);
    const vs *root = v->roots[en->root];
    sd_buf_printf(out, ": {\"root\": %ld, \"draft\": %d", rec_of(x, root), root->draft);
    if (v->has_dynamic)
        sd_buf_puts(out, ", \"dynamic\": 1");
    if (en->alias) {
        sd_buf_puts(out, ", \"alias\": ");
        put_str(out, en->alias);
    }
    if (en->alias || en->defaults) {
        sd_buf b = SD_BUF_INIT;
        size_t nt = 0;
        sd_buf_puts(out, ", \"defaults\": ");
        if (en->defaults && en->defaults->kind == SD_MAP)
            sd_emit_json(out, NULL, en->defaults, 0, 0);
        else
            sd_buf_puts(out, "{}");
        if (en->defaults)
            default_texts(&b, &nt, en->defaults, "", 0);
        if (nt) {
            sd_buf_puts(out, ", \"defaultsTexts\": {");
            sd_buf_put(out, b.ptr, b.len);
            sd_buf_putc(out, '}');
        }
        sd_buf_release(&b);
    }
    if (en->group) {
        sd_buf_puts(out, ", \"group\": ");
        put_str(out, en->group);
    }
    if (en->version) {
        sd_buf_puts(out, ", \"version\": ");
        put_str(out, en->version);
    }
    if (en->kind) {
        sd_buf_puts(out, ", \"kind\": ");
        put_str(out, en->kind);
    }
    sd_buf_putc(out, '}');
}

/* Every program's records, straight into `out`; they fill the tables
 * written after them. *res_owner gets, for each resource, the validator
 * that owns it (a new array). */
static void put_records(sd_buf *out, rx *x, const sd_rules_entry *entries, size_t n,
                        const sd_validator ***res_owner)
{
    size_t nrec = 0;
    x->o = out;
    sd_buf_puts(out, ",\n \"records\": [");
    for (size_t e = 0; e < n && !x->err; e++) {
        sd_validator *v = (sd_validator *)(uintptr_t)entries[e].val;
        size_t res_before = x->nres;
        if (seen_before(entries, e))
            continue;
        for (size_t i = 0; i < v->nlist && !x->err; i++) {
            sd_buf_puts(out, nrec++ ? ",\n  " : "\n  ");
            put_record(x, v, v->list[i], v->roots[0]->draft);
        }
        if (x->nres > res_before) {
            const sd_validator **p = realloc(*res_owner, x->ares * sizeof *p);
            if (!p) {
                nomem(x);
                break;
            }
            *res_owner = p;
            for (size_t i = res_before; i < x->nres; i++)
                (*res_owner)[i] = v;
        }
    }
    sd_buf_puts(out, nrec ? "\n ]" : "]");
}

/* The tables the records point into: files, patterns, resources, paths,
 * and the warnings; the document's end. */
static void put_tables(sd_buf *out, rx *x, const sd_validator **res_owner)
{
    sd_buf_puts(out, ",\n \"files\": [");
    for (size_t i = 0; i < x->files.n; i++) {
        if (i) sd_buf_puts(out, ", ");
        if (x->files.items[i]) put_str(out, x->files.items[i]);
        else sd_buf_puts(out, "null");
    }
    sd_buf_puts(out, "],\n \"patterns\": [");
    for (size_t i = 0; i < x->pats.n; i++) {
        sd_buf_puts(out, i ? ",\n  " : "\n  ");
        sd_buf_puts(out, "{\"source\": ");
        put_str(out, x->pats.items[i]);
        sd_buf_puts(out, ", \"at\": ");
        put_at(x, x->pat_loc[i]);
        if (x->pat_risk[i] != SD_RE_LINEAR)
            sd_buf_puts(out, x->pat_risk[i] == SD_RE_EXP ? ", \"risk\": \"exp\"" : ", \"risk\": \"poly\"");
        sd_buf_putc(out, '}');
    }
    sd_buf_puts(out, x->pats.n ? "\n ],\n \"resources\": [" : "],\n \"resources\": [");
    for (size_t i = 0; i < x->nres; i++) {
        sd_buf_puts(out, i ? ",\n  " : "\n  ");
        put_resource(x, res_owner[i], x->ress[i]);
    }
    sd_buf_puts(out, x->nres ? "\n ],\n \"paths\": [" : "],\n \"paths\": [");
    sd_buf_put(out, x->paths.ptr, x->paths.len);
    sd_buf_puts(out, "],\n \"warnings\": [");
    sd_buf_put(out, x->warnings.ptr, x->warnings.len);
    sd_buf_puts(out, x->nwarnings ? "\n ]\n}\n" : "]\n}\n");
}

int sd_rules_export(sd_buf *out, const sd_rules_entry *entries, size_t n,
                    const sd_rules_opts *opts, sd_diags *diags)
{
    for (size_t e = 0; e < n; e++)   /* a validator without that entry point */
        if (!entries[e].val || entries[e].root >= entries[e].val->nroots)
            return sd_diag_error(diags, SD_EUSAGE, (sd_loc){ NULL, 0, 0 },
                                 "rules entry '%s' has no compiled schema",
                                 entries[e].name ? entries[e].name : "");
    rx x;
    const sd_validator **res_owner = NULL;
    unsigned long limit = DEFAULT_MATCH_LIMIT;
    size_t max_errors = 1000, nrec;
    int err = 0;

    memset(&x, 0, sizeof x);
    sd_buf_init(&x.paths, 0);
    sd_buf_init(&x.warnings, 0);
    sd_buf_init(&x.scratch, 0);
    x.diags = diags;
    nrec = number_records(&x, entries, n, &limit, &max_errors);
    sd_buf_grow(out, nrec * 160 + 8192);   /* a record takes about this much */

    put_header(out, opts, limit, max_errors);
    sd_buf_puts(out, ",\n \"entries\": {");
    for (size_t e = 0; e < n; e++) {
        sd_buf_puts(out, e ? ",\n  " : "\n  ");
        put_entry(out, &x, &entries[e]);
    }
    sd_buf_puts(out, "\n }");
    if (opts && opts->fallback) {
        sd_buf_puts(out, ",\n \"fallback\": ");
        put_str(out, opts->fallback);
    }
    if (opts && opts->extra)
        sd_buf_puts(out, opts->extra);
    put_records(out, &x, entries, n, &res_owner);
    put_tables(out, &x, res_owner);

    if (x.err || sd_buf_failed(&x.paths) || sd_buf_failed(&x.warnings) || sd_buf_failed(&x.scratch))
        err = sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
    else if (sd_buf_failed(out))
        err = sd_diag_error(diags, sd_buf_error(out), (sd_loc){ NULL, 0, 0 },
                            "the rules document is larger than its limit");
    sd_buf_release(&x.scratch);
    sd_buf_release(&x.paths);
    sd_buf_release(&x.warnings);
    sd_pmap_release(&x.rec);
    sd_pmap_release(&x.path);
    sd_pmap_release(&x.res);
    free(x.ress);
    free(res_owner);
    free(x.files.items);
    sd_pmap_release(&x.files.byhash);
    free(x.pats.items);
    sd_pmap_release(&x.pats.byhash);
    free(x.pat_loc);
    free(x.pat_risk);
    return err;
}
