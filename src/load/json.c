/* SPDX-License-Identifier: Apache-2.0 */
/* json.c - strict JSON (RFC 8259) text -> sd_doc nodes with positions.
 *
 * jansson keeps no positions, and a side table from json_t to positions would
 * cost more than parsing, so JSON files get this small parser of our own: it
 * builds the same sd_node tree as the YAML loader (style SD_STYLE_JSON),
 * checks UTF-8, rejects duplicate keys, and bounds the nesting depth. */
#include "node.h"
#include "load_int.h"
#include "buf.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct jp {
    sd_doc        *doc;
    sd_diags      *diags;
    const char    *s, *end;
    const char    *p;
    int            line;
    const char    *line_start;
    const char    *col_at;     /* column cache: column of col_at is col */
    int            col;
    int            ascii_line; /* no byte >= 0x80 seen on this line yet */
    int            depth, max_depth;
    sd_pair       *scratch;    /* pairs of the open containers, innermost last */
    size_t         nscratch, ascratch;
    uint32_t      *counts;     /* members of each container, in the order they open */
    size_t         ncounts, next;
} jp;

static sd_loc here(jp *j, const char *at)
{
    sd_loc l;
    if (j->ascii_line && at >= j->line_start) {
        /* bytes are characters: no scan needed */
        l.file = j->doc->file;
        l.line = j->line;
        l.column = (int)(at - j->line_start) + 1;
        return l;
    }
    if (j->col_at < j->line_start || j->col_at > at) {
        j->col_at = j->line_start;
        j->col = 1;
    }
    for (; j->col_at < at; j->col_at++)
        if (((unsigned char)*j->col_at & 0xC0) != 0x80)
            j->col++;
    l.file = j->doc->file;
    l.line = j->line;
    l.column = j->col;
    return l;
}

static int fail(jp *j, const char *at, const char *what)
{
    if (at >= j->end)
        return sd_diag_error(j->diags, SD_ESYNTAX, here(j, j->end),
                             "unexpected end of input, expected %s", what);
    unsigned char c = (unsigned char)*at;
    if (c >= 0x20 && c < 0x7f)
        return sd_diag_error(j->diags, SD_ESYNTAX, here(j, at),
                             "unexpected '%c', expected %s", c, what);
    return sd_diag_error(j->diags, SD_ESYNTAX, here(j, at),
                         "unexpected byte 0x%02x, expected %s", c, what);
}

static int nomem(jp *j)
{
    return sd_diag_error(j->diags, SD_ENOMEM, here(j, j->p), "out of memory");
}

static void skip_ws(jp *j)
{
    const char *p = j->p;
    for (; p < j->end; p++) {
        if (*p == '\n') {
            j->line++;
            j->line_start = p + 1;
            j->ascii_line = 1;
        } else if (*p != ' ' && *p != '\t' && *p != '\r') {
            break;
        }
    }
    j->p = p;
}

static sd_node *node(jp *j, sd_kind k, const char *at)
{
    sd_node *n = sd_arena_alloc(&j->doc->arena, sizeof *n);
    if (n) {
        n->kind = (uint8_t)k;
        n->style = SD_STYLE_JSON;
        n->loc = here(j, at);
    }
    return n;
}

static sd_node *parse_string(jp *j)
{
    const char *start = j->p, *p = j->p + 1, *run = NULL;
    size_t extra = 0;
    int simple = 1;
    sd_node *n;

    /* first pass: find the end, validate, see whether escapes occur */
    for (;;) {
        if (p >= j->end) { fail(j, p, "'\"' to close the string"); return NULL; }
        unsigned char c = (unsigned char)*p;
        if (c == '"') break;
        if (c < 0x20) { fail(j, p, "a string character (control characters must be escaped)"); return NULL; }
        if (c == '\\') {
            simple = 0;
            p++;
            if (p >= j->end) { fail(j, p, "an escape sequence"); return NULL; }
            if (*p == 'u') {
                if (j->end - p < 5) { fail(j, j->end, "four hex digits"); return NULL; }
                p += 5;
            } else if (strchr("\"\\/bfnrt", *p) && *p) {
                p++;
            } else {
                fail(j, p, "an escape sequence (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
                return NULL;
            }
            continue;
        }
        if (c < 0x80) { p++; continue; }
        if (j->ascii_line) {
            /* columns count characters from here on: every byte of the
             * line before this string was a character of its own, so the
             * scan cache starts at its quote (not at the line's start:
             * strings before it may have been decoded in place since) */
            j->ascii_line = 0;
            j->col_at = start;
            j->col = (int)(start - j->line_start) + 1;
        }
        size_t l = sd_utf8_len((const unsigned char *)p, (const unsigned char *)j->end);
        if (!l) { fail(j, p, "valid UTF-8"); return NULL; }
        p += l;
    }
    (void)extra;
    if (!(n = node(j, SD_STR, start))) { nomem(j); return NULL; }
    /* In place (as RapidJSON's insitu mode): the document owns its text and
     * nothing reads a JSON text again after parsing, so the closing quote
     * becomes the NUL and escapes are decoded over the raw characters
     * (never longer). Saves a copy of every key and string. */
    char *out = (char *)(uintptr_t)(start + 1);
    if (simple) {
        out[p - start - 1] = '\0';
        n->str = out;
        n->len = (size_t)(p - start - 1);
        j->p = p + 1;
        return n;
    }
    /* columns are counted over the text: move the count past this string
     * before its characters are rewritten */
    here(j, p + 1);
    long len = sd_json_unescape(start + 1, p, out, &run);
    if (len < 0) { fail(j, run, "four hex digits"); return NULL; }
    n->str = out;
    n->len = (size_t)len;
    j->p = p + 1;
    return n;
}

static sd_node *parse_number(jp *j)
{
    const char *s = j->p, *p = s;
    int is_float = 0;
    sd_node *n;

    if (*p == '-') p++;
    if (p < j->end && *p == '0') p++;
    else if (p < j->end && *p >= '1' && *p <= '9') while (p < j->end && *p >= '0' && *p <= '9') p++;
    else { fail(j, p, "a digit"); return NULL; }
    if (p < j->end && *p == '.') {
        is_float = 1;
        p++;
        if (p >= j->end || !(*p >= '0' && *p <= '9')) { fail(j, p, "a digit after '.'"); return NULL; }
        while (p < j->end && *p >= '0' && *p <= '9') p++;
    }
    if (p < j->end && (*p == 'e' || *p == 'E')) {
        is_float = 1;
        p++;
        if (p < j->end && (*p == '+' || *p == '-')) p++;
        if (p >= j->end || !(*p >= '0' && *p <= '9')) { fail(j, p, "a digit in the exponent"); return NULL; }
        while (p < j->end && *p >= '0' && *p <= '9') p++;
    }
    if (!(n = node(j, is_float ? SD_FLOAT : SD_INT, s))) { nomem(j); return NULL; }
    if (!(n->str = sd_arena_strndup(&j->doc->arena, s, (size_t)(p - s)))) { nomem(j); return NULL; }
    n->len = (size_t)(p - s);
    if (is_float) {
        n->num.f = strtod(n->str, NULL);
    } else {
        errno = 0;
        long long v = strtoll(n->str, NULL, 10);
        if (errno == ERANGE) {
            n->big = 1; /* beyond int64: keep the text, compute with a double */
            n->num.f = strtod(n->str, NULL);
        } else {
            n->num.i = v;
        }
    }
    j->p = p;
    return n;
}

static sd_node *parse_value(jp *j);

static int push_pair(jp *j, sd_node *k, sd_node *v)
{
    if (j->nscratch == j->ascratch) {
        size_t na = j->ascratch ? j->ascratch * 2 : 256;
        sd_pair *s = realloc(j->scratch, na * sizeof *s);
        if (!s)
            return nomem(j);
        j->scratch = s;
        j->ascratch = na;
    }
    sd_pair *p = &j->scratch[j->nscratch++];
    p->key = k;
    p->value = v;
    p->c_first = p->c_count = 0;
    p->c_trail = -1;
    return 0;
}

static int close_container(jp *j, sd_node *n, size_t base)
{
    if (sd_node__set_items(&j->doc->arena, n, j->scratch + base, j->nscratch - base) < 0)
        return nomem(j);
    j->nscratch = base;
    return 0;
}

/* Members of every container, in the order the containers open, from one
 * quick pass over the text (strings skipped; members = commas + 1 unless
 * empty), so that parse_container() can put a container's pairs right after
 * its node: a walk of the tree then reads memory in order, where pairs
 * written after the children sit past the whole subtree (validation of
 * big.json: 300 -> 400 MB/s). Only a hint: NULL when out of memory or
 * nesting too deep, and counts are checked as the parse goes. */
static uint32_t *count_members(const char *p, const char *end, size_t *ncounts, int max_depth)
{
    size_t n = 0, cap = 1024, depth = 0;
    uint32_t *cnt = malloc(cap * sizeof *cnt);
    size_t *stack = malloc(((size_t)max_depth + 2) * sizeof *stack);
    unsigned char *empty = malloc((size_t)max_depth + 2);

    if (!cnt || !stack || !empty)
        goto fail;
    while (p < end) {
        char c = *p++;
        switch (c) {
        case ' ': case '\n': case '\r': case '\t':
            break;
        case '"':
            while (p < end) {
                c = *p++;
                if (c == '\\')
                    p++;
                else if (c == '"')
                    break;
            }
            if (depth) empty[depth] = 0;
            break;
        case '{': case '[':
            if (depth) empty[depth] = 0;
            if (depth > (size_t)max_depth)
                goto fail;
            if (n == cap) {
                uint32_t *m = realloc(cnt, (cap *= 2) * sizeof *cnt);
                if (!m)
                    goto fail;
                cnt = m;
            }
            cnt[n] = 0;
            stack[++depth] = n++;
            empty[depth] = 1;
            break;
        case '}': case ']':
            if (depth) {
                if (!empty[depth])
                    cnt[stack[depth]]++;
                depth--;
            }
            break;
        case ',':
            if (depth) cnt[stack[depth]]++;
            break;
        default:
            if (depth) empty[depth] = 0;
            break;
        }
    }
    free(stack);
    free(empty);
    *ncounts = n;
    return cnt;
fail:
    free(cnt);
    free(stack);
    free(empty);
    return NULL;
}

static sd_node *parse_container(jp *j, int is_obj)
{
    size_t base = j->nscratch, want = 0, k = 0;
    sd_kind kind = is_obj ? SD_MAP : SD_SEQ;
    sd_pair *dst = NULL;
    sd_node *n, *key = NULL, *v;

    if (j->counts && j->next < j->ncounts)
        want = j->counts[j->next++];
    if (want) {
        /* the node and its pairs in one piece (see count_members) */
        if ((n = sd_arena_alloc(&j->doc->arena, sizeof *n + sd_node__items_bytes(kind, want)))) {
            n->kind = (uint8_t)kind;
            n->style = SD_STYLE_JSON;
            n->loc = here(j, j->p);
            dst = (sd_pair *)(void *)(n + 1);
        }
    } else {
        n = node(j, kind, j->p);
    }
    if (!n) { nomem(j); return NULL; }
    if (++j->depth > j->max_depth) {
        sd_diag_error(j->diags, SD_ELIMIT, here(j, j->p), "nesting is deeper than %d levels",
                      j->max_depth);
        return NULL;
    }
    j->p++;
    skip_ws(j);
    if (j->p < j->end && *j->p == (is_obj ? '}' : ']')) {
        j->p++;
        j->depth--;
        return n;
    }
    for (;;) {
        skip_ws(j);
        if (j->p < j->end && *j->p == (is_obj ? '}' : ']') && (k || j->nscratch > base)) {
            fail(j, j->p, is_obj ? "a string key (JSON allows no comma before '}')"
                                 : "a JSON value (JSON allows no comma before ']')");
            return NULL;
        }
        if (is_obj) {
            if (j->p >= j->end || *j->p != '"') { fail(j, j->p, "a string key"); return NULL; }
            if (!(key = parse_string(j))) return NULL;
            skip_ws(j);
            if (j->p >= j->end || *j->p != ':') { fail(j, j->p, "':' after the key"); return NULL; }
            j->p++;
            skip_ws(j);
        }
        if (!(v = parse_value(j))) return NULL;
        if (dst && k < want) {
            dst[k].key = key;
            dst[k].value = v;
            dst[k].c_first = dst[k].c_count = 0;
            dst[k].c_trail = -1;
            k++;
        } else {
            /* more members than counted: go on in the scratch list */
            for (; dst && k; k--)
                if (push_pair(j, dst[want - k].key, dst[want - k].value)) return NULL;
            dst = NULL;
            if (push_pair(j, key, v)) return NULL;
        }
        skip_ws(j);
        if (j->p < j->end && *j->p == ',') { j->p++; continue; }
        if (j->p < j->end && *j->p == (is_obj ? '}' : ']')) { j->p++; break; }
        fail(j, j->p, is_obj ? "',' or '}'" : "',' or ']'");
        return NULL;
    }
    if (dst && k == want) {
        if (is_obj && sd_node__check_dups(dst, k, j->diags) < 0)
            return NULL;
        sd_node__adopt_items(n, dst, k);
    } else {
        for (size_t i = 0; dst && i < k; i++)   /* fewer than counted */
            if (push_pair(j, dst[i].key, dst[i].value)) return NULL;
        if (is_obj && sd_node__check_dups(j->scratch + base, j->nscratch - base, j->diags) < 0)
            return NULL;
        if (close_container(j, n, base)) return NULL;
    }
    j->depth--;
    return n;
}

static sd_node *literal(jp *j, const char *word, sd_kind k, int b)
{
    size_t n = strlen(word);
    sd_node *v;
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0) {
        fail(j, j->p, "a JSON value");
        return NULL;
    }
    if (!(v = node(j, k, j->p))) { nomem(j); return NULL; }
    v->str = word;
    v->len = n;
    v->num.b = b;
    j->p += n;
    return v;
}

static sd_node *parse_value(jp *j)
{
    if (j->p >= j->end) { fail(j, j->p, "a JSON value"); return NULL; }
    switch (*j->p) {
    case '{': return parse_container(j, 1);
    case '[': return parse_container(j, 0);
    case '"': return parse_string(j);
    case 't': return literal(j, "true", SD_BOOL, 1);
    case 'f': return literal(j, "false", SD_BOOL, 0);
    case 'n': return literal(j, "null", SD_NULL, 0);
    default:
        if (*j->p == '-' || (*j->p >= '0' && *j->p <= '9'))
            return parse_number(j);
        fail(j, j->p, "a JSON value");
        return NULL;
    }
}

int sd_json__parse(sd_doc *doc, const sd_load_limits *lim, sd_diags *diags)
{
    jp j;
    sd_node *root;
    int err = 0;

    memset(&j, 0, sizeof j);
    j.doc = doc;
    j.diags = diags;
    j.s = j.p = j.line_start = j.col_at = doc->text;
    j.end = doc->text + doc->text_len;
    j.line = j.col = 1;
    j.ascii_line = 1;
    j.max_depth = lim->max_depth;
    /* a UTF-8 byte order mark is tolerated, as jansson does not but editors write it */
    if (j.end - j.p >= 3 && memcmp(j.p, "\xEF\xBB\xBF", 3) == 0)
        j.p += 3;
    j.counts = count_members(j.p, j.end, &j.ncounts, j.max_depth);
    skip_ws(&j);
    if (!(root = parse_value(&j))) {
        err = diags->count && diags->items[diags->count - 1].code ? diags->items[diags->count - 1].code : SD_ESYNTAX;
        goto done;
    }
    skip_ws(&j);
    if (j.p < j.end) {
        err = fail(&j, j.p, "end of input after the JSON value");
        goto done;
    }
    if (!(doc->roots = sd_arena_alloc(&doc->arena, sizeof *doc->roots))) {
        err = nomem(&j);
        goto done;
    }
    doc->roots[0].node = root;
    doc->nroots = 1;
done:
    free(j.scratch);
    free(j.counts);
    return err;
}
