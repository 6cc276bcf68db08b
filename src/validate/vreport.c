/* SPDX-License-Identifier: Apache-2.0 */
/* vreport.c - how the validator reports: each finding's record (the
 * instance pointer and dotted path, the keyword's place in the schema),
 * values in messages (JSON, numbers
 * as written, cut at 60 bytes on a UTF-8 boundary; src/form/rules_text.js
 * writes the same), the edit distance "did you mean" ranks by, and the
 * result lists (released, or turned into diagnostics), the names of types,
 * and how close a failed anyOf/oneOf branch came. */
#include "vprog.h"
#include "alloc.h"
#include "buf.h"
#include "emit.h"
#include "ptr.h"
#include "validate.h"
#include "vmsg.h"

#include <stdarg.h>
#include <stdio.h>

#include <stdlib.h>
#include <string.h>

/* ---- records -------------------------------------------------------------- */

static int plain_key(const char *s, size_t n)
{
    if (!n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '.' || ch == '[' || ch == ']' || ch == '"' || ch <= ' ')
            return 0;
    }
    return 1;
}

static void path_strings(const vseg *path, size_t upto, char **ptr, char **key)
{
    sd_buf p = SD_BUF_INIT, k = SD_BUF_INIT;
    char num[32];
    for (size_t i = 0; i < upto; i++) {
        const vseg *g = &path[i];
        if (g->key) {
            sd_ptr_push(&p, g->key->u.s, g->key->len);
            if (plain_key(g->key->u.s, g->key->len)) {
                if (k.len)
                    sd_buf_putc(&k, '.');
                sd_buf_put(&k, g->key->u.s, g->key->len);
            } else {
                sd_buf_puts(&k, "[");
                sd_emit_json_string(&k, g->key->u.s, g->key->len);
                sd_buf_puts(&k, "]");
            }
        } else {
            snprintf(num, sizeof num, "%zu", g->idx);
            sd_buf_printf(&p, "/%s", num);
            sd_buf_printf(&k, "[%s]", num);
        }
    }
    if (!k.len)
        sd_buf_puts(&k, SD_MSG_ROOT_KEY);
    *ptr = sd_buf_detach(&p);
    *key = sd_buf_detach(&k);
}

static sd_loc kw_loc(const vs *s, const char *kw)
{
    if (s->node->kind == SD_MAP)
        for (size_t i = 0; i < s->node->n; i++)
            if (strcmp(s->node->items[i].key->str, kw) == 0)
                return s->node->items[i].key->loc;
    return s->node->loc;
}

void sd_vprog__record(sd_validator *v, sd_vresult *r, size_t max, int warn, const vseg *path, size_t npath,
                      const vs *s, const char *kw, sd_loc loc, int at_key, const char *fmt, va_list ap)
{
    sd_verror *e;
    sd_buf m = SD_BUF_INIT, sp = SD_BUF_INIT;

    if (warn) {
        if (r->nwarnings >= max ||
            sd_grow((void **)&r->warnings, &r->awarnings, r->nwarnings + 1, sizeof *r->warnings) < 0)
            return;
        e = &r->warnings[r->nwarnings++];
    } else {
        r->total++;
        if (r->count >= max)
            return;
        if (sd_grow((void **)&r->items, &r->alloc, r->count + 1, sizeof *r->items) < 0)
            return;
        e = &r->items[r->count++];
    }
    memset(e, 0, sizeof *e);
    path_strings(path, npath, &e->path, &e->key);
    e->loc = loc;
    e->at_key = at_key;
    e->keyword = kw;
    sd_buf_vprintf(&m, fmt, ap);
    e->message = sd_buf_detach(&m);
    {
        const char *sptr = sd_schema_ptr(v->r, s->info);
        sd_buf_puts(&sp, sptr ? sptr : "");   /* NULL: out of memory, noted by the buffer */
    }
    if (kw && strcmp(kw, "false") != 0) {
        sd_ptr_push(&sp, kw, strlen(kw));
        e->schema_loc = kw_loc(s, kw);
    } else {
        e->schema_loc = s->node->loc;
    }
    e->schema_path = sd_buf_detach(&sp);
}

/* ---- values in messages ------------------------------------------------------ */

/* A scalar as JSON: a tree's node as the emitter writes it, a parsed
 * tape's as its text says. */
static void show_scalar(sd_buf *b, const sd_tape *t, const sd_tval *x)
{
    if (t->src) {
        sd_emit_json(b, NULL, sd_tape_node(t, x), 0, 0);
        return;
    }
    switch (vk(x)) {
    case SD_STR: sd_emit_json_string(b, x->u.s, x->len); break;
    case SD_BOOL: sd_buf_puts(b, x->u.b ? "true" : "false"); break;
    case SD_NULL: sd_buf_puts(b, "null"); break;
    default: {
        size_t len;
        const char *s = sd_tape_text(t, x, &len);
        sd_buf_put(b, s, len);
        break;
    }
    }
}

/* Compact JSON of `x` with numbers as written (src/form/rules.js renders
 * the same); stops once `b` is past `stop` bytes. */
static void show_json(sd_buf *b, const sd_tape *t, const sd_tval *x, size_t stop, int depth)
{
    if (b->len > stop)
        return;
    switch (vk(x)) {
    case SD_INT: case SD_FLOAT: {
        size_t len;
        const char *s = sd_tape_text(t, x, &len);
        if (s && len) {
            sd_buf_put(b, s, len);
            return;
        }
        break;
    }
    case SD_MAP: case SD_SEQ: {
        const int map = vk(x) == SD_MAP;
        const sd_tval *y = x + 1;
        if (depth > 64) {
            sd_buf_puts(b, map ? "{...}" : "[...]");
            return;
        }
        sd_buf_putc(b, map ? '{' : '[');
        for (uint32_t i = 0; i < x->len && b->len <= stop; i++) {
            if (i)
                sd_buf_putc(b, ',');
            if (map) {
                sd_emit_json_string(b, y->u.s, y->len);
                sd_buf_putc(b, ':');
                y++;
            }
            show_json(b, t, y, stop, depth + 1);
            y = sd_tval_next(y);
        }
        sd_buf_putc(b, map ? '}' : ']');
        return;
    }
    default:
        break;
    }
    show_scalar(b, t, x);
}

/* Where to cut `s` to at most `max` bytes without splitting a UTF-8 character. */
static size_t utf8_cut(const char *s, size_t max)
{
    size_t cut = max;
    while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
        cut--;
    return cut;
}

/* Short rendering of a value for messages: JSON, numbers as written,
 * anything past 60 bytes cut to 57 and "..." (docs/rules.md, "Values"). */
void sd_vprog__show(sd_buf *b, const sd_tape *t, const sd_tval *x)
{
    switch (vk(x)) {
    case SD_STR:
        if (x->len > 60) {
            sd_emit_json_string(b, x->u.s, utf8_cut(x->u.s, 57));
            sd_buf_puts(b, "...");
        } else {
            sd_emit_json_string(b, x->u.s, x->len);
        }
        break;
    default: {
        sd_buf o = SD_BUF_INIT;
        show_json(&o, t, x, 60, 0);
        if (o.len > 60) {
            sd_buf_put(b, o.ptr, utf8_cut(o.ptr, 57));
            sd_buf_puts(b, "...");
        } else {
            sd_buf_put(b, o.ptr, o.len);
        }
        sd_buf_release(&o);
        break;
    }
    }
}

void sd_vprog__show_node(sd_buf *b, const sd_node *n)
{
    sd_tape t;
    if (sd_tape_from_node(&t, n) != 0) {
        sd_buf_puts(b, "...");   /* out of memory (noted by the tape): the message stays readable */
        return;
    }
    sd_vprog__show(b, &t, t.v);
    sd_tape_free(&t);
}

unsigned sd_edit_distance(const char *a, size_t n, const char *b, size_t m)
{
    unsigned row[64], prev, tmp;
    if (m >= 64 || n >= 64)
        return 999;
    for (size_t j = 0; j <= m; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= n; i++) {
        prev = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= m; j++) {
            unsigned ca = (unsigned char)a[i - 1], cb = (unsigned char)b[j - 1];
            unsigned cost = ca == cb ? 0 : ((ca | 32) == (cb | 32) ? 0 : 1);
            tmp = row[j];
            row[j] = row[j] + 1 < row[j - 1] + 1 ? row[j] + 1 : row[j - 1] + 1;
            if (prev + cost < row[j])
                row[j] = prev + cost;
            prev = tmp;
        }
    }
    return row[m];
}

static void free_errors(sd_verror *items, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(items[i].path);
        free(items[i].key);
        free(items[i].message);
        free(items[i].schema_path);
    }
}

void sd_vresult_release(sd_vresult *res)
{
    free_errors(res->items, res->count);
    free_errors(res->warnings, res->nwarnings);
    free(res->items);
    free(res->warnings);
    res->items = res->warnings = NULL;
    res->count = res->alloc = res->total = res->nwarnings = res->awarnings = 0;
}

void sd_vresult_to_diags(const sd_vresult *res, sd_diags *diags)
{
    for (int pass = 0; pass < 2; pass++) {
        const sd_verror *list = pass ? res->items : res->warnings;
        size_t n = pass ? res->count : res->nwarnings;
        int sev = pass ? SD_SEV_ERROR : SD_SEV_WARNING, code = pass ? SD_EINVALID : 0;
        for (size_t i = 0; i < n; i++) {
            const sd_verror *e = &list[i];
            const char *sp = e->schema_path && *e->schema_path ? e->schema_path : NULL; /* no schema */
            size_t before = diags->count;
            if (e->schema_loc.file && e->schema_loc.line)
                sd_diag_add(diags, sev, code, e->loc, sp, e->path, "%s: %s (%s:%d:%d)",
                            e->key, e->message, e->schema_loc.file, e->schema_loc.line, e->schema_loc.column);
            else
                sd_diag_add(diags, sev, code, e->loc, sp, e->path, "%s: %s", e->key, e->message);
            if (diags->count > before) {
                diags->items[before].end_line = e->end_line;
                diags->items[before].end_column = e->end_column;
            }
        }
    }
}

/* "string or integer": the names of the type bits of `t` (vprog.h) */
void sd_vprog__type_names(sd_buf *b, unsigned t)
{
    static const struct { unsigned bit; const char *w; } tn[] = {
        { T_NULL, "null" }, { T_BOOL, "boolean" }, { T_INT, "integer" }, { T_NUM, "number" },
        { T_STR, "string" }, { T_OBJ, "object" }, { T_ARR, "array" }
    };
    int any = 0;
    if (t & T_NUM)
        t &= ~(unsigned)T_INT;
    for (size_t i = 0; i < sizeof tn / sizeof *tn; i++)
        if (t & tn[i].bit) {
            sd_buf_puts(b, any ? SD_MSG_TYPE_OR : "");
            sd_buf_puts(b, tn[i].w);
            any = 1;
        }
    if (!any)
        sd_buf_puts(b, SD_MSG_TYPE_NOTHING);
}

/* Rank a failed branch: a type mismatch on the value itself puts it last,
 * then fewer errors is closer. */
size_t sd_vprog__branch_score(const sd_vresult *r, size_t depth_path)
{
    size_t score = r->total;
    for (size_t i = 0; i < r->count; i++) {
        const sd_verror *e = &r->items[i];
        size_t depth = 0;
        for (const char *p = e->path; *p; p++)
            depth += *p == '/';
        if (depth == depth_path && e->keyword &&
            (!strcmp(e->keyword, "type") || !strcmp(e->keyword, "const") ||
             !strcmp(e->keyword, "enum") || !strcmp(e->keyword, "false")))
            score += 1000;
    }
    return score;
}
