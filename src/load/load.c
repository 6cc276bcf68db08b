/* SPDX-License-Identifier: Apache-2.0 */
/* load.c - YAML text -> sd_doc with positions and comments (libyaml events).
 *
 * In: a file or buffer. Out: an sd_doc whose nodes keep file:line:column
 * (1-based; libyaml counts from 0, this is the only place that converts),
 * whose comments are scanned from the text (libyaml drops them) and attached
 * to the pair they document, and whose scalars are typed as Helm's go-yaml v2
 * types them. JSON files go to json.c. Limits: file size, nesting depth and
 * the nodes aliases add, against one budget per run (an alias bomb fails
 * fast, and a hundred small ones in a run's documents fail too). */
#include "node.h"
#include "alloc.h"
#include "load_int.h"
#include "buf.h"
#include "file.h"
#include "hash.h"
#include "yaml_scalar.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>


#define DEFAULT_MAX_FILE  ((size_t)64 << 20)
#define DEFAULT_MAX_DEPTH 1000

/* The run's budget of nodes added through aliases (node.h). Thread-local:
 * a run is one thread's work (the command line's process, a library
 * caller's sd_open() and what follows). */
static _Thread_local uint64_t alias_max = SD_LOAD_MAX_ALIAS_NODES, alias_used;

void sd_load_budget_reset(uint64_t max)
{
    alias_max = max ? max : SD_LOAD_MAX_ALIAS_NODES;
    alias_used = 0;
}

uint64_t sd_load_budget_used(void)
{
    return alias_used;
}

uint64_t sd_load__alias_left(const sd_load_limits *lim)
{
    uint64_t left = alias_max > alias_used ? alias_max - alias_used : 0;
    if (lim && lim->max_nodes && lim->max_nodes < left)
        left = lim->max_nodes;
    return left;
}

void sd_load__alias_spend(uint64_t n)
{
    alias_used += n;
}

/* ---- scalar typing --------------------------------------------------------- */

/* A plain scalar typed as Helm's go-yaml v2 types it (util/yaml_scalar.c,
 * docs/yaml-typing.md): sets kind/num of `n` from `s`. */
static void type_plain(sd_node *n, const char *s, size_t len)
{
    sd_yaml_scalar v = sd_yaml_scalar_read(s, len, SD_YAML_GO_V2);
    switch (v.type) {
    case SD_YAML_NULL: n->kind = SD_NULL; break;
    case SD_YAML_BOOL: n->kind = SD_BOOL; n->num.b = v.b; break;
    case SD_YAML_INT: n->kind = SD_INT; n->num.i = v.i; break;
    case SD_YAML_UINT: n->kind = SD_INT; n->big = 1; n->num.f = (double)v.u; break;
    case SD_YAML_FLOAT: n->kind = SD_FLOAT; n->num.f = v.f; break;
    default: n->kind = SD_STR;
    }
}

/* ---- the event-driven builder --------------------------------------------- */

typedef struct frame {
    sd_node *node;
    sd_pair *items;
    size_t   n, alloc;
    sd_node *pending_key;  /* maps: key read, value not yet */
    uint64_t weight;
    int      anchor;       /* index into anchors, or -1 */
} frame;

typedef struct anchor {
    char    *name;
    sd_node *node;
    uint64_t weight;
    int      done;
} anchor;

typedef struct builder {
    sd_doc        *doc;
    sd_diags      *diags;
    sd_load_limits lim;
    frame         *stack;
    int            depth, alloc;
    anchor        *anchors;
    size_t         nanchors, aalloc;
    sd_root       *roots;
    size_t         nroots, ralloc;
    size_t        *spans;     /* [start, end) byte ranges of quoted/block scalars */
    size_t         nspans, salloc;
    uint64_t       aliased;   /* nodes this document's aliases added */
} builder;

static sd_loc mark_loc(builder *b, yaml_mark_t m)
{
    sd_loc l = { b->doc->file, (int)m.line + 1, (int)m.column + 1 };
    return l;
}

static int oom(builder *b)
{
    sd_loc l = { b->doc->file, 0, 0 };
    return sd_diag_error(b->diags, SD_ENOMEM, l, "out of memory");
}


static int anchor_find(builder *b, const char *name)
{
    size_t i = b->nanchors;
    while (i-- > 0)
        if (strcmp(b->anchors[i].name, name) == 0)
            return (int)i;
    return -1;
}

static int anchor_define(builder *b, const char *name, sd_node *node)
{
    if (sd_grow((void **)&b->anchors, &b->aalloc, b->nanchors + 1, sizeof *b->anchors))
        return -1;
    anchor *a = &b->anchors[b->nanchors];
    if (!(a->name = strdup(name)))
        return -1;
    a->node = node;
    a->weight = 1;
    a->done = 0;
    return (int)b->nanchors++;
}

static sd_node *new_node(builder *b, sd_kind kind, yaml_mark_t m, const unsigned char *tag)
{
    sd_node *n = sd_arena_alloc(&b->doc->arena, sizeof *n);
    if (!n)
        return NULL;
    n->kind = (uint8_t)kind;
    n->loc = mark_loc(b, m);
    if (tag && !(n->tag = sd_arena_strdup(&b->doc->arena, (const char *)tag)))
        return NULL;
    return n;
}

/* An alias adds a copy of its anchor's `w` nodes: against the document's
 * limit and the run's budget (node.h). Weights are summed, never expanded,
 * so a billion laughs stops at the alias that crosses the line. */
static int limit_alias(builder *b, uint64_t w, yaml_mark_t m)
{
    uint64_t left = sd_load__alias_left(&b->lim);
    if (w > left - b->aliased)   /* b->aliased <= left: checked at each alias */
        return sd_diag_error(b->diags, SD_ELIMIT, mark_loc(b, m),
                             "aliases expand the documents of this run to more than %llu nodes "
                             "(the alias limit; SCHEMADOC_MAX_ALIAS_NODES=N raises it)",
                             (unsigned long long)(alias_max));
    b->aliased += w;
    return 0;
}

/* Add a finished value to the innermost collection (or as a document root). */
static int add_value(builder *b, sd_node *v, uint64_t w, int via_alias)
{
    frame *f;

    if (b->depth == 0) {
        if (sd_grow((void **)&b->roots, &b->ralloc, b->nroots + 1, sizeof *b->roots))
            return oom(b);
        memset(&b->roots[b->nroots], 0, sizeof *b->roots);
        b->roots[b->nroots++].node = v;
        return 0;
    }
    f = &b->stack[b->depth - 1];
    if (f->node->kind == SD_MAP && !f->pending_key) {
        if (v->kind == SD_MAP || v->kind == SD_SEQ)
            return sd_diag_error(b->diags, SD_ESYNTAX, v->loc,
                                 "mapping keys must be scalars (a %s is used as a key)",
                                 sd_kind_name(v->kind));
        f->pending_key = v;
        f->weight += w;
        return 0;
    }
    if (sd_grow((void **)&f->items, &f->alloc, f->n + 1, sizeof *f->items))
        return oom(b);
    sd_pair *p = &f->items[f->n++];
    memset(p, 0, sizeof *p);
    p->key = f->pending_key;
    p->value = v;
    p->c_trail = -1;
    if (via_alias)
        p->c_trail = -2; /* marks a pair whose value is shared; fixed up later */
    f->pending_key = NULL;
    f->weight += w;
    return 0;
}

static int push(builder *b, sd_node *n, int anchor_idx, yaml_mark_t m)
{
    frame *f;
    if (b->depth >= b->lim.max_depth)
        return sd_diag_error(b->diags, SD_ELIMIT, mark_loc(b, m),
                             "nesting is deeper than %d levels", b->lim.max_depth);
    if (b->depth == b->alloc) {
        int na = b->alloc ? b->alloc * 2 : 32;
        frame *s = realloc(b->stack, (size_t)na * sizeof *s);
        if (!s)
            return oom(b);
        b->stack = s;
        b->alloc = na;
    }
    f = &b->stack[b->depth++];
    memset(f, 0, sizeof *f);
    f->node = n;
    f->weight = 1;
    f->anchor = anchor_idx;
    return 0;
}

static int is_merge_key(const sd_node *k)
{
    return k && k->style == SD_STYLE_PLAIN && k->len == 2 && memcmp(k->str, "<<", 2) == 0 &&
           (!k->tag || strcmp(k->tag, "tag:yaml.org,2002:merge") == 0);
}

static int key_eq(const sd_node *a, const sd_node *b)
{
    return a->len == b->len && memcmp(a->str, b->str, a->len) == 0;
}

/* The keys a merge has taken so far, by hash: a chain of maps each merging
 * the one before would otherwise compare every key with every other. */
typedef struct keyset {
    const sd_node **slot;
    size_t mask;
} keyset;

/* Add `k` unless an equal key is there: 1 when added, 0 when it was. */
static int keyset_add(keyset *ks, const sd_node *k)
{
    uint64_t h = sd_hash_fnv(k->str, k->len);
    size_t j = (size_t)(h ^ (h >> 29)) & ks->mask;
    for (; ks->slot[j]; j = (j + 1) & ks->mask)
        if (key_eq(ks->slot[j], k))
            return 0;
    ks->slot[j] = k;
    return 1;
}

/* YAML merge keys (`<<: *base`, `<<: [*a, *b]`), as go-yaml v2 applies them:
 * keys written in the map win, then earlier merge sources win over later. */
static int apply_merges(builder *b, frame *f)
{
    size_t i, nm = 0, bound = 0, cap = 16;
    sd_pair *out = NULL;
    size_t nout = 0, aout = 0;
    keyset ks;

    for (i = 0; i < f->n; i++) {
        const sd_node *v = f->items[i].value;
        if (!is_merge_key(f->items[i].key)) {
            bound++;
            continue;
        }
        nm++;
        if (v->kind == SD_SEQ) {
            for (size_t s = 0; s < v->n; s++)
                bound += v->items[s].value->kind == SD_MAP ? v->items[s].value->n : 0;
        } else if (v->kind == SD_MAP) {
            bound += v->n;
        }
    }
    if (!nm)
        return 0;
    while (cap < bound * 2)
        cap *= 2;
    if (!(ks.slot = calloc(cap, sizeof *ks.slot)))
        return oom(b);
    ks.mask = cap - 1;
    for (i = 0; i < f->n; i++)   /* keys written in the map win */
        if (!is_merge_key(f->items[i].key))
            keyset_add(&ks, f->items[i].key);
    for (i = 0; i < f->n; i++) {
        sd_pair *p = &f->items[i];
        if (!is_merge_key(p->key)) {
            if (sd_grow((void **)&out, &aout, nout + 1, sizeof *out))
                goto nomem;
            out[nout++] = *p;
            continue;
        }
        const sd_node *v = p->value;
        size_t nsrc = v->kind == SD_SEQ ? v->n : 1;
        for (size_t s = 0; s < nsrc; s++) {
            const sd_node *src = v->kind == SD_SEQ ? v->items[s].value : v;
            if (src->kind != SD_MAP) {
                free(out);
                free(ks.slot);
                return sd_diag_error(b->diags, SD_ESYNTAX, src->loc,
                                     "a merge key (<<) needs a map or a list of maps, not a %s",
                                     sd_kind_name(src->kind));
            }
            for (size_t k = 0; k < src->n; k++) {
                const sd_pair *mp = &src->items[k];
                if (!keyset_add(&ks, mp->key))
                    continue;   /* written in the map, or merged before */
                if (sd_grow((void **)&out, &aout, nout + 1, sizeof *out))
                    goto nomem;
                out[nout] = *mp;
                out[nout].c_count = 0;
                out[nout].c_trail = -3; /* merged: documented where it was written */
                nout++;
            }
        }
    }
    free(f->items);
    free(ks.slot);
    f->items = out;
    f->n = nout;
    f->alloc = aout;
    return 0;
nomem:
    free(out);
    free(ks.slot);
    return oom(b);
}

static int pop(builder *b)
{
    frame *f = &b->stack[b->depth - 1];
    sd_node *n = f->node;
    uint64_t w = f->weight;
    int err;

    if (n->kind == SD_MAP) {
        if ((err = sd_node__check_dups(f->items, f->n, b->diags)) < 0)
            return err;
        if ((err = apply_merges(b, f)) < 0)
            return err;
    }
    if (sd_node__set_items(&b->doc->arena, n, f->items, f->n) < 0)
        return oom(b);
    free(f->items);
    if (f->anchor >= 0) {
        b->anchors[f->anchor].weight = w;
        b->anchors[f->anchor].done = 1;
    }
    b->depth--;
    return add_value(b, n, w, 0);
}

static int add_span(builder *b, yaml_mark_t s, yaml_mark_t e)
{
    if (sd_grow((void **)&b->spans, &b->salloc, b->nspans + 2, sizeof *b->spans))
        return oom(b);
    b->spans[b->nspans++] = s.index;
    b->spans[b->nspans++] = e.index;
    return 0;
}

static int on_scalar(builder *b, yaml_event_t *ev)
{
    const char *v = (const char *)ev->data.scalar.value;
    size_t len = ev->data.scalar.length;
    const char *tag = (const char *)ev->data.scalar.tag;
    sd_node *n = new_node(b, SD_STR, ev->start_mark, ev->data.scalar.tag);
    int anchor_idx = -1;

    if (!n || !(n->str = sd_arena_strndup(&b->doc->arena, v, len)))
        return oom(b);
    n->len = len;
    switch (ev->data.scalar.style) {
    case YAML_SINGLE_QUOTED_SCALAR_STYLE: n->style = SD_STYLE_SQUOTED; break;
    case YAML_DOUBLE_QUOTED_SCALAR_STYLE: n->style = SD_STYLE_DQUOTED; break;
    case YAML_LITERAL_SCALAR_STYLE: n->style = SD_STYLE_LITERAL; break;
    case YAML_FOLDED_SCALAR_STYLE: n->style = SD_STYLE_FOLDED; break;
    default: n->style = SD_STYLE_PLAIN;
    }
    if (n->style != SD_STYLE_PLAIN && add_span(b, ev->start_mark, ev->end_mark))
        return SD_ENOMEM;
    if (!tag || strcmp(tag, "!") == 0) {
        if (n->style == SD_STYLE_PLAIN && !tag)
            type_plain(n, v, len);
    } else if (strcmp(tag, YAML_STR_TAG) == 0 || strcmp(tag, "tag:yaml.org,2002:binary") == 0) {
        n->kind = SD_STR;
    } else if (strcmp(tag, YAML_NULL_TAG) == 0 || strcmp(tag, YAML_BOOL_TAG) == 0 ||
               strcmp(tag, YAML_INT_TAG) == 0 || strcmp(tag, YAML_FLOAT_TAG) == 0) {
        sd_node probe = *n;
        type_plain(&probe, v, len);
        int want = strcmp(tag, YAML_NULL_TAG) == 0 ? SD_NULL :
                   strcmp(tag, YAML_BOOL_TAG) == 0 ? SD_BOOL :
                   strcmp(tag, YAML_INT_TAG) == 0 ? SD_INT : SD_FLOAT;
        if (want == SD_FLOAT && probe.kind == SD_INT) {
            probe.kind = SD_FLOAT;
            probe.num.f = probe.big ? probe.num.f : (double)probe.num.i;
            probe.big = 0;
        }
        if (probe.kind != want)
            return sd_diag_error(b->diags, SD_ESYNTAX, n->loc,
                                 "cannot read '%s' as %s", n->str, tag + 18);
        *n = probe;
    } else if (n->style == SD_STYLE_PLAIN) {
        type_plain(n, v, len); /* unknown local tags: keep the value */
    }
    if (ev->data.scalar.anchor) {
        if ((anchor_idx = anchor_define(b, (const char *)ev->data.scalar.anchor, n)) < 0)
            return oom(b);
        b->anchors[anchor_idx].done = 1;
    }
    return add_value(b, n, 1, 0);
}

static int on_alias(builder *b, yaml_event_t *ev)
{
    const char *name = (const char *)ev->data.alias.anchor;
    int i = anchor_find(b, name);

    if (i < 0)
        return sd_diag_error(b->diags, SD_ESYNTAX, mark_loc(b, ev->start_mark),
                             "unknown anchor '%s' referenced", name);
    if (!b->anchors[i].done)
        return sd_diag_error(b->diags, SD_ESYNTAX, mark_loc(b, ev->start_mark),
                             "anchor '%s' value contains itself", name);
    b->anchors[i].node->is_alias = 1;
    if (limit_alias(b, b->anchors[i].weight, ev->start_mark) < 0)
        return SD_ELIMIT;
    return add_value(b, b->anchors[i].node, b->anchors[i].weight, 1);
}

static int on_collection(builder *b, yaml_event_t *ev, sd_kind kind)
{
    const yaml_char_t *tag = kind == SD_MAP ? ev->data.mapping_start.tag : ev->data.sequence_start.tag;
    const yaml_char_t *anc = kind == SD_MAP ? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
    int flow = kind == SD_MAP ? ev->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
                              : ev->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
    sd_node *n = new_node(b, kind, ev->start_mark, tag);
    int a = -1;

    if (!n)
        return oom(b);
    n->style = flow ? SD_STYLE_FLOW : SD_STYLE_BLOCK;
    if (anc && (a = anchor_define(b, (const char *)anc, n)) < 0)
        return oom(b);
    return push(b, n, a, ev->start_mark);
}

/* A tab in the indentation of the line libyaml stopped on (its message
 * there, "found character that cannot start any token", says nothing a
 * person can act on): the column of that tab, or -1. */
static long indent_tab(const sd_doc *doc, size_t index)
{
    size_t start = index < doc->text_len ? index : doc->text_len;
    while (start > 0 && doc->text[start - 1] != '\n')
        start--;
    for (size_t i = start; i < doc->text_len && (doc->text[i] == ' ' || doc->text[i] == '\t'); i++)
        if (doc->text[i] == '\t')
            return (long)(i - start);
    return -1;
}

static int yaml_error(builder *b, yaml_parser_t *p)
{
    sd_buf msg = SD_BUF_INIT;
    yaml_mark_t m = p->problem_mark;
    long tab;
    int err;

    if (p->error == YAML_MEMORY_ERROR)
        return oom(b);
    if (p->error != YAML_READER_ERROR && (tab = indent_tab(b->doc, m.index)) >= 0) {
        m.column = (size_t)tab;
        return sd_diag_error(b->diags, SD_ESYNTAX, mark_loc(b, m),
                             "tab character in indentation (YAML allows spaces only)");
    }
    sd_buf_puts(&msg, p->problem ? p->problem : "syntax error");
    if (p->context) {
        sd_buf_printf(&msg, " (%s at %d:%d)", p->context, (int)p->context_mark.line + 1,
                      (int)p->context_mark.column + 1);
    }
    if (p->error == YAML_READER_ERROR) {
        /* the reader reports a byte offset, not a line */
        size_t off = p->problem_offset, line = 1, col = 1;
        for (size_t i = 0; i < off && i < b->doc->text_len; i++) {
            if (b->doc->text[i] == '\n') line++, col = 1;
            else if (((unsigned char)b->doc->text[i] & 0xC0) != 0x80) col++;
        }
        m.line = line - 1;
        m.column = col - 1;
        /* libyaml gives -1 for an incomplete sequence: name the byte there */
        if (p->problem_value >= 0)
            sd_buf_printf(&msg, " (byte 0x%02x)", (unsigned)(p->problem_value & 0xff));
        else if (off < b->doc->text_len)
            sd_buf_printf(&msg, " (byte 0x%02x)", (unsigned)(unsigned char)b->doc->text[off]);
        else
            sd_buf_puts(&msg, " (at the end of the file)");
    }
    err = sd_diag_error(b->diags, SD_ESYNTAX, mark_loc(b, m), "%s",
                        msg.ptr[0] ? msg.ptr : "syntax error");
    sd_buf_release(&msg);
    return err;
}

static int parse_yaml(sd_doc *doc, const sd_load_limits *lim, sd_diags *diags)
{
    yaml_parser_t parser;
    yaml_event_t ev;
    builder b;
    int err = 0, done = 0;
    yaml_mark_t doc_mark = { 0, 0, 0 };
    size_t *doc_lines = NULL, ndl = 0, adl = 0;

    memset(&b, 0, sizeof b);
    b.doc = doc;
    b.diags = diags;
    b.lim = *lim;
    if (!yaml_parser_initialize(&parser))
        return oom(&b);
    yaml_parser_set_input_string(&parser, (const unsigned char *)doc->text, doc->text_len);
    while (!done && !err) {
        if (!yaml_parser_parse(&parser, &ev)) {
            err = yaml_error(&b, &parser);
            break;
        }
        switch (ev.type) {
        case YAML_STREAM_END_EVENT: done = 1; break;
        case YAML_DOCUMENT_START_EVENT: doc_mark = ev.start_mark; break;
        case YAML_DOCUMENT_END_EVENT:
            if (b.nroots && (ndl < b.nroots)) {
                if (sd_grow((void **)&doc_lines, &adl, b.nroots, sizeof *doc_lines)) {
                    err = oom(&b);
                    break;
                }
                doc_lines[ndl++] = doc_mark.line + 1;
            }
            break;
        case YAML_SCALAR_EVENT: err = on_scalar(&b, &ev); break;
        case YAML_ALIAS_EVENT: err = on_alias(&b, &ev); break;
        case YAML_SEQUENCE_START_EVENT: err = on_collection(&b, &ev, SD_SEQ); break;
        case YAML_MAPPING_START_EVENT: err = on_collection(&b, &ev, SD_MAP); break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT: err = pop(&b); break;
        default: break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    while (b.depth > 0)
        free(b.stack[--b.depth].items);
    free(b.stack);
    for (size_t i = 0; i < b.nanchors; i++)
        free(b.anchors[i].name);
    free(b.anchors);
    if (!err) {
        doc->nroots = b.nroots;
        if (b.nroots) {
            doc->roots = sd_arena_alloc(&doc->arena, b.nroots * sizeof *doc->roots);
            if (!doc->roots)
                err = oom(&b);
            else
                memcpy(doc->roots, b.roots, b.nroots * sizeof *b.roots);
        }
        /* stash each document's start line in c_first until comments attach */
        for (size_t i = 0; !err && i < b.nroots; i++)
            doc->roots[i].c_first = i < ndl ? (uint32_t)doc_lines[i] : 0;
        if (!err && b.lim.no_comments)
            sd_load__no_comments(doc);
        else if (!err)
            sd_load__attach_comments(doc, b.spans, b.nspans);
        if (!err && !doc->comments && doc->ncomments)
            err = oom(&b);
    }
    free(doc_lines);
    free(b.roots);
    free(b.spans);
    if (!err)
        alias_used += b.aliased;   /* a refused document gives its share back */
    return err;
}

/* ---- public entry points ------------------------------------------------ */

static void defaults(sd_load_limits *out, const sd_load_limits *in)
{
    if (in)
        *out = *in;
    else
        memset(out, 0, sizeof *out);
    if (!out->max_file) out->max_file = DEFAULT_MAX_FILE;
    if (out->max_file > SD_DOC_MAX_BYTES) out->max_file = SD_DOC_MAX_BYTES;
    if (!out->max_depth) out->max_depth = DEFAULT_MAX_DEPTH;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int load_owned(sd_doc **out, const char *name, char *text, size_t len,
                      enum sd_format fmt, const sd_load_limits *lim, sd_diags *diags)
{
    sd_load_limits l;
    sd_doc *doc;
    int err;

    *out = NULL;
    defaults(&l, lim);
    if (len > SD_DOC_MAX_BYTES) {
        /* a node keeps sizes and counts in 32 bits */
        free(text);
        return sd_diag_error(diags, SD_ELIMIT, (sd_loc){ name, 0, 0 },
                             "document of %zu bytes: the limit is %zu", len, SD_DOC_MAX_BYTES);
    }
    if (!(doc = calloc(1, sizeof *doc))) {
        free(text);
        sd_loc loc = { name, 0, 0 };
        return sd_diag_error(diags, SD_ENOMEM, loc, "out of memory");
    }
    doc->text = text;
    doc->text_len = len;
    /* a small document (a `@schema` part's value, a commented block) costs
     * about what its text does, not a 4 KiB block: nodes take 3 to 8 times
     * the text */
    if (len <= ((size_t)256 << 10))
        sd_arena_reserve(&doc->arena, len * 8 + strlen(name) + 128);
    if (!(doc->file = sd_arena_strdup(&doc->arena, name))) {
        sd_doc_free(doc);
        sd_loc loc = { name, 0, 0 };
        return sd_diag_error(diags, SD_ENOMEM, loc, "out of memory");
    }
    if (fmt == SD_FMT_AUTO)
        fmt = ends_with(name, ".json") ? SD_FMT_JSON : SD_FMT_YAML;
    doc->is_json = fmt == SD_FMT_JSON;
    /* libyaml skips a UTF-8 byte order mark without counting it in its
     * marks; the comment scanner reads the text by bytes: drop it here so
     * both agree (json.c skips its own) */
    if (!doc->is_json && doc->text_len >= 3 && memcmp(doc->text, "\xEF\xBB\xBF", 3) == 0) {
        memmove(doc->text, doc->text + 3, doc->text_len - 3 + 1);
        doc->text_len -= 3;
        len -= 3;
    }
    /* nodes take about 2.5 to 3.3 times the text (on
     * the corpus): one pre-faulted block instead of many page faults */
    if (len > ((size_t)256 << 10))
        sd_arena_reserve(&doc->arena, fmt == SD_FMT_JSON ? len / 2 * 7 : len * 3);
    err = doc->is_json ? sd_json__parse(doc, &l, diags) : parse_yaml(doc, &l, diags);
    if (err < 0) {
        sd_doc_free(doc);
        return err;
    }
    *out = doc;
    return 0;
}

int sd_doc_load_mem(sd_doc **out, const char *name, const char *text, size_t len,
                    enum sd_format fmt, const sd_load_limits *lim, sd_diags *diags)
{
    char *copy = malloc(len + 1);
    if (!copy) {
        sd_loc loc = { name, 0, 0 };
        *out = NULL;
        return sd_diag_error(diags, SD_ENOMEM, loc, "out of memory");
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    return load_owned(out, name, copy, len, fmt, lim, diags);
}

int sd_doc_load_file(sd_doc **out, const char *path, enum sd_format fmt,
                     const sd_load_limits *lim, sd_diags *diags)
{
    sd_load_limits l;
    char *text;
    size_t len;
    int err;

    *out = NULL;
    defaults(&l, lim);
    if ((err = sd_file_read(&text, &len, path, l.max_file, 0, diags)) < 0)
        return err;
    return load_owned(out, path, text, len, fmt, &l, diags);
}

int sd_doc_load_in(sd_doc **out, const char *chart_dir, const char *path, const char *what,
                   enum sd_format fmt, const sd_load_limits *lim, sd_diags *diags)
{
    sd_load_limits l;
    char *text;
    size_t len;
    int err;

    *out = NULL;
    defaults(&l, lim);
    if ((err = sd_file_read_in(&text, &len, chart_dir, path, l.max_file, what, diags)) < 0)
        return err;
    return load_owned(out, path, text, len, fmt, &l, diags);
}
