/* vreport.c - how the validator reports: values in messages (JSON, numbers
 * as written, cut at 60 bytes on a UTF-8 boundary; src/form/rules_text.js
 * writes the same), the edit distance "did you mean" ranks by, and the
 * result lists (released, or turned into diagnostics), the names of types,
 * and how close a failed anyOf/oneOf branch came. */
#include "vprog.h"
#include "buf.h"
#include "emit.h"
#include "validate.h"
#include "vmsg.h"

#include <stdlib.h>
#include <string.h>

/* Compact JSON of `n` with numbers as written (src/form/rules.js renders
 * the same); stops once `b` is past `stop` bytes. */
static void show_json(sd_buf *b, const sd_node *n, size_t stop, int depth)
{
    if (b->len > stop)
        return;
    switch (n->kind) {
    case SD_INT: case SD_FLOAT:
        if (n->str && n->len) {
            sd_buf_put(b, n->str, n->len);
            return;
        }
        break;
    case SD_MAP: case SD_SEQ:
        if (depth > 64) {
            sd_buf_puts(b, n->kind == SD_MAP ? "{...}" : "[...]");
            return;
        }
        sd_buf_putc(b, n->kind == SD_MAP ? '{' : '[');
        for (size_t i = 0; i < n->n && b->len <= stop; i++) {
            if (i)
                sd_buf_putc(b, ',');
            if (n->items[i].key) {
                sd_emit_json_string(b, n->items[i].key->str, n->items[i].key->len);
                sd_buf_putc(b, ':');
            }
            show_json(b, n->items[i].value, stop, depth + 1);
        }
        sd_buf_putc(b, n->kind == SD_MAP ? '}' : ']');
        return;
    default:
        break;
    }
    sd_emit_json(b, NULL, n, 0, 0);
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
void sd_vprog__show(sd_buf *b, const sd_node *n)
{
    switch (n->kind) {
    case SD_STR:
        if (n->len > 60) {
            sd_emit_json_string(b, n->str, utf8_cut(n->str, 57));
            sd_buf_puts(b, "...");
        } else {
            sd_emit_json_string(b, n->str, n->len);
        }
        break;
    default: {
        sd_buf t = SD_BUF_INIT;
        show_json(&t, n, 60, 0);
        if (t.len > 60) {
            sd_buf_put(b, t.ptr, utf8_cut(t.ptr, 57));
            sd_buf_puts(b, "...");
        } else {
            sd_buf_put(b, t.ptr, t.len);
        }
        sd_buf_release(&t);
        break;
    }
    }
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
            if (e->schema_loc.file && e->schema_loc.line)
                sd_diag_add(diags, sev, code, e->loc, sp, e->path, "%s: %s (%s:%d:%d)",
                            e->key, e->message, e->schema_loc.file, e->schema_loc.line, e->schema_loc.column);
            else
                sd_diag_add(diags, sev, code, e->loc, sp, e->path, "%s: %s", e->key, e->message);
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
