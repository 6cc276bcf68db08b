/* SPDX-License-Identifier: Apache-2.0 */
/* secret_view.c - the reference page marks secrets as the form does
 * (docs/form.md "Secrets"), from the same rule (secret.h): a node whose key
 * path holds a secret value gets the badge "secret", and the html page
 * prints no secret string in clear: a non-empty secret default (also one
 * inside a map's or a list's default) becomes "********", and so does each
 * secret string in the chart's values.yaml that "Default values" shows.
 * view.c keeps the keys of the nodes being walked (sd_render__key_push/pop)
 * and calls sd_render__secret_mark() for each node; the md page is a README
 * and prints its defaults as helm-docs does. */
#include "render_int.h"
#include "node.h"
#include "alloc.h"
#include "secret.h"
#include "diag.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MASK "********"

int sd_render__key_push(view *v, const char *key)
{
    /* (a failure is recorded: what is below the key goes unmasked, and the
     * run must fail) */
    if (sd_grow((void **)&v->keys, &v->keys_cap, v->nkeys + 1, sizeof *v->keys) < 0)
        return -1;
    /* a list's item ("[]", "[0]") is an index: NULL */
    v->keys[v->nkeys++] = key && key[0] == '[' ? NULL : key;
    return 0;
}

void sd_render__key_pop(view *v)
{
    if (v->nkeys)
        v->nkeys--;
}

/* The hints the rule reads from a model node (form_schema.js secretHints):
 * its type (string when it allows one), format, writeOnly, description. */
static sd_secret_hints hints_of(sd_val *node)
{
    sd_secret_hints h = { NULL, NULL, 0, NULL };
    sd_val *t = sd_val_object_get(node, "type"), *x;
    size_t i;
    sd_val_array_foreach(t, i, x) {
        const char *s = sd_val_string_value(x);
        if (!s)
            continue;
        if (!h.type || !strcmp(s, "string"))
            h.type = s;
    }
    h.format = str(sd_val_object_get(node, "constraints"), "format");
    h.write_only = flag(node, "writeOnly");
    h.description = str(node, "description");
    return h;
}

/* The model node of member `key` of `node` (its property, else its
 * additionalProperties), of an item (its items), or NULL. */
static sd_val *member_at(sd_val *node, const char *key, size_t hint)
{
    sd_val *x, *props;
    size_t i;
    if (!key)
        return sd_val_object_get(node, "items");
    props = sd_val_object_get(node, "properties");
    /* a default's keys are mostly in the order of the properties: the one
     * at the same index first (a map of K keys: K lookups, not K * K / 2) */
    if ((x = sd_val_array_get(props, hint))) {
        const char *k = str(x, "key");
        if (k && !strcmp(k, key))
            return x;
    }
    sd_val_array_foreach(props, i, x) {
        const char *k = str(x, "key");
        if (k && !strcmp(k, key))
            return x;
    }
    x = sd_val_object_get(node, "additionalProperties");
    return sd_val_is_object(x) ? x : NULL;
}

static sd_val *member(sd_val *node, const char *key)
{
    return member_at(node, key, 0);
}

/* The classifications made, by what they read: the model node (its
 * hints) and the last key and its parent's (pointers into the model and
 * the defaults, which live as long as the view). A node's default holds
 * its subtree, each of which is a default too: without this every string
 * of a depth-d default is classified d times. */
typedef struct secret_memo_slot { const void *node, *key, *parent; int c; } secret_memo_slot;
struct secret_memo { secret_memo_slot *s; size_t cap, n; };

static size_t memo_hash(const void *a, const void *b, const void *c)
{
    uintptr_t h = (uintptr_t)a * 0x9E3779B97F4A7C15u ^ (uintptr_t)b * 0xC2B2AE3D27D4EB4Fu ^ (uintptr_t)c * 0x165667B19E3779F9u;
    return (size_t)(h ^ (h >> 29));
}

static secret_memo_slot *memo_slot(struct secret_memo *m, const void *node, const void *key, const void *parent)
{
    size_t i = memo_hash(node, key, parent) & (m->cap - 1);
    while (m->s[i].c && (m->s[i].node != node || m->s[i].key != key || m->s[i].parent != parent))
        i = (i + 1) & (m->cap - 1);
    return &m->s[i];
}

static int memo_grow(view *v)
{
    struct secret_memo *m = v->memo;
    if (!m && !(m = v->memo = calloc(1, sizeof *m)))
        return -1;
    if (m->cap && (m->n + 1) * 2 <= m->cap)
        return 0;
    struct secret_memo old = *m;
    m->cap = old.cap ? old.cap * 2 : 256;
    if (!(m->s = calloc(m->cap, sizeof *m->s))) {
        *m = old;
        return -1;
    }
    m->n = 0;
    for (size_t i = 0; i < old.cap; i++)
        if (old.s[i].c) {
            *memo_slot(m, old.s[i].node, old.s[i].key, old.s[i].parent) = old.s[i];
            m->n++;
        }
    free(old.s);
    return 0;
}

void sd_render__secret_memo_free(view *v)
{
    if (v->memo)
        free(v->memo->s);
    free(v->memo);
    v->memo = NULL;
}

static int classify(view *v, sd_val *node)
{
    sd_secret_hints h = hints_of(node);
    const char *key = NULL, *parent = NULL;
    size_t i = v->nkeys;
    while (i > 0 && !v->keys[i - 1])
        i--;
    static const char below[] = "";   /* no parent key, but a list above */
    if (i > 0)
        key = v->keys[--i];
    if (i > 0)
        parent = below;   /* (the rule asks whether anything is above the key) */
    while (i > 0 && !v->keys[i - 1])
        i--;
    if (i > 0)
        parent = v->keys[i - 1];
    if (memo_grow(v) < 0)
        return sd_secret_classify(v->secrets, v->keys, v->nkeys, &h);
    secret_memo_slot *s = memo_slot(v->memo, node, key, parent);
    if (!s->c) {
        *s = (secret_memo_slot){ node, key, parent, 1 + sd_secret_classify(v->secrets, v->keys, v->nkeys, &h) };
        v->memo->n++;
    }
    return s->c - 1;
}

/* `val` (under model node `node`, at the keys on v's stack) with each
 * non-empty secret string replaced by MASK: a new reference, or NULL when
 * it holds none. */
static sd_val *masked(view *v, sd_val *node, sd_val *val, int depth)
{
    sd_val *out = NULL, *x;
    size_t i, n;
    if (sd_val_is_string(val))
        return sd_val_string_length(val) && classify(v, node) == SD_SECRET_VALUE ? sd_val_string(MASK) : NULL;
    if (depth > 200)
        return NULL;
    if (sd_val_is_array(val)) {
        sd_val *item = member(node, NULL);
        if (sd_render__key_push(v, NULL) < 0)
            return NULL;
        sd_val_array_foreach(val, i, x) {
            sd_val *m = masked(v, item, x, depth + 1);
            if (m && !out) {
                out = sd_val_array();
                for (size_t j = 0; j < i; j++)
                    sd_val_array_append(out, sd_val_array_get(val, j));
            }
            if (out)
                sd_val_array_append_new(out, m ? m : sd_val_incref(x));
        }
        sd_render__key_pop(v);
        return out;
    }
    if (!sd_val_is_object(val))
        return NULL;
    n = sd_val_object_size(val);
    for (i = 0; i < n; i++) {
        const char *k = sd_val__key_at(val, i);
        sd_val *m;
        x = sd_val__value_at(val, i);
        if (sd_render__key_push(v, k) < 0)
            break;
        m = masked(v, member_at(node, k, i), x, depth + 1);
        sd_render__key_pop(v);
        if (m && !out) {
            out = sd_val_object();
            for (size_t j = 0; j < i; j++)
                sd_val_object_setn_new_nocheck(out, sd_val__key_at(val, j), sd_val__key_len_at(val, j),
                                               sd_val_incref(sd_val__value_at(val, j)));
        }
        if (out)
            sd_val_object_setn_new_nocheck(out, k, sd_val__key_len_at(val, i), m ? m : sd_val_incref(x));
    }
    return out;
}

void sd_render__secret_mark(view *v, sd_val *node)
{
    sd_val *def = sd_val_object_get(node, "default"), *m;
    if (!v->secrets)
        return;
    if (classify(v, node) == SD_SECRET_VALUE) {
        sd_val *b = sd_val_object_get(node, "badges");
        if (!sd_val_is_array(b)) {
            b = sd_val_array();
            sd_val_object_set_new_nocheck(node, "badges", b);
        }
        sd_val_array_append_new(b, sd_val_string("secret"));
        sd_val_object_set_new_nocheck(node, "secret", sd_val_true());
    }
    /* a string default always; a map's or a list's when the page prints
     * it as YAML (view->yaml) */
    if (!flag(node, "has_default") || !(sd_val_is_string(def) || v->yaml))
        return;
    if ((m = masked(v, node, def, 0)))
        sd_val_object_set_new_nocheck(node, "default", m);
}

/* --- the chart's values.yaml ---------------------------------------------- */

typedef struct span { size_t from, to; int squoted; } span;
typedef struct spans { span *s; size_t n, cap; int oom; } spans;

/* the byte offset of 1-based line:column (columns count code points) */
static size_t offset_of(const char *t, size_t len, int line, int col)
{
    size_t o = 0;
    for (int l = 1; l < line && o < len; o++)
        if (t[o] == '\n')
            l++;
    for (int c = 1; c < col && o < len && t[o] != '\n'; c++) {
        o++;
        while (o < len && ((unsigned char)t[o] & 0xC0) == 0x80)
            o++;
    }
    return o;
}

static size_t indent_at(const char *t, size_t line_start)
{
    size_t i = line_start;
    while (t[i] == ' ')
        i++;
    return i - line_start;
}

/* The bytes of the scalar `n` that starts at `o`: as written (a plain
 * scalar on one line, a quoted one to its closing quote), or to the last
 * following line indented more than the line it starts on (a block scalar,
 * a plain scalar folded over lines). */
static size_t scalar_end(const char *t, size_t len, size_t o, const sd_node *n)
{
    size_t i, ls = o, ind;
    if (n->style == SD_STYLE_SQUOTED) {
        for (i = o + 1; i < len; i++)
            if (t[i] == '\'') {
                if (i + 1 < len && t[i + 1] == '\'')
                    i++;
                else
                    return i + 1;
            }
        return len;
    }
    if (n->style == SD_STYLE_DQUOTED) {
        for (i = o + 1; i < len; i++) {
            if (t[i] == '\\')
                i++;
            else if (t[i] == '"')
                return i + 1;
        }
        return len;
    }
    if (n->style == SD_STYLE_PLAIN && n->str && o + n->len <= len && !memcmp(t + o, n->str, n->len))
        return o + n->len;
    while (ls > 0 && t[ls - 1] != '\n')
        ls--;
    ind = indent_at(t, ls);
    i = o;
    while (i < len && t[i] != '\n')
        i++;
    size_t end = i;   /* the end of the last line that belongs to it */
    while (i < len) {
        size_t next = i + 1, e = next;
        while (e < len && t[e] != '\n')
            e++;
        size_t k = indent_at(t, next);
        if (next + k == e) {   /* a blank line: may be inside */
            i = e;
            continue;
        }
        if (k <= ind || t[next + k] == '#')
            break;
        end = i = e;
    }
    if (n->style == SD_STYLE_PLAIN) {
        /* a comment after the last line is not the value's */
        while (end > o && (t[end - 1] == ' ' || t[end - 1] == '\t'))
            end--;
    }
    return end;
}

static void collect(view *v, sd_val *node, const sd_node *n, const char *text, size_t len, spans *out, int depth)
{
    if (!n || depth > 200)
        return;
    if (n->kind == SD_STR) {
        if (n->len && classify(v, node) == SD_SECRET_VALUE && n->loc.line > 0) {
            size_t o = offset_of(text, len, n->loc.line, n->loc.column);
            size_t e = scalar_end(text, len, o, n);
            if (e > o && out->n < 1000000) {
                if (sd_grow((void **)&out->s, &out->cap, out->n + 1, sizeof *out->s) < 0) {
                    out->oom = 1;   /* a secret not found must not be printed */
                    return;
                }
                out->s[out->n++] = (span){ o, e, n->style == SD_STYLE_SQUOTED };
            }
        }
        return;
    }
    if (n->kind != SD_MAP && n->kind != SD_SEQ)
        return;
    for (uint32_t i = 0; i < n->n; i++) {
        const sd_pair *p = &n->items[i];
        const char *k = n->kind == SD_MAP ? sd_node_str(p->key) : NULL;
        if (n->kind == SD_MAP && !k)
            continue;
        if (sd_render__key_push(v, k) < 0) {
            out->oom = 1;
            return;
        }
        collect(v, member(node, k), p->value, text, len, out, depth + 1);
        sd_render__key_pop(v);
    }
}

static int by_from(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return x->from < y->from ? -1 : x->from > y->from;
}

void sd_render__secret_values_yaml(view *v, sd_val *model)
{
    sd_val *chart = sd_val_object_get(model, "chart");
    sd_val *vy = sd_val_object_get(chart, "values_yaml");
    sd_doc *doc = NULL;
    sd_diags diags = SD_DIAGS_INIT;
    spans sp = { NULL, 0, 0, 0 };

    if (!v->secrets || !sd_val_is_string(vy))
        return;
    const char *text = sd_val_string_value(vy);
    size_t len = sd_val_string_length(vy);
    int rc = sd_doc_load_mem(&doc, "values.yaml", text, len, SD_FMT_YAML, NULL, &diags);
    if (rc < 0) {
        /* it parsed when the model was made; whatever fails now, no secret
         * is shown in clear: the section goes, and memory failing fails
         * the run (a page without it is not the page) */
        if (rc == SD_ENOMEM)
            sd_alloc_note_failure();
        sd_val_object_del(chart, "values_yaml");
        sd_diags_release(&diags);
        return;
    }
    size_t keep = v->nkeys;
    v->nkeys = 0;
    collect(v, sd_val_object_get(model, "root"), sd_doc_root(doc), text, len, &sp, 0);
    v->nkeys = keep;
    if (sp.oom) {
        sd_alloc_note_failure();
        sd_val_object_del(chart, "values_yaml");
    } else if (sp.n) {
        sd_buf b = SD_BUF_INIT;
        size_t at = 0;
        qsort(sp.s, sp.n, sizeof *sp.s, by_from);
        for (size_t i = 0; i < sp.n; i++) {
            if (sp.s[i].from < at)
                continue;   /* an alias's target, met twice */
            sd_buf_put(&b, text + at, sp.s[i].from - at);
            sd_buf_puts(&b, sp.s[i].squoted ? "'" MASK "'" : "\"" MASK "\"");
            at = sp.s[i].to;
        }
        sd_buf_put(&b, text + at, len - at);
        sd_val *masked = sd_buf_failed(&b) ? NULL : sd_val_stringn(b.ptr, b.len);
        if (masked) {
            sd_val_object_set_new_nocheck(chart, "values_yaml", masked);
        } else {
            sd_alloc_note_failure();
            sd_val_object_del(chart, "values_yaml");
        }
        sd_buf_release(&b);
    }
    free(sp.s);
    sd_doc_free(doc);
    sd_diags_release(&diags);
}
