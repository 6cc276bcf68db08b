/* SPDX-License-Identifier: Apache-2.0 */
/* synth.c - documents built in code (see synth.h). */
#include "synth.h"
#include "emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

sd_doc *sd_synth_new(const char *file)
{
    sd_doc *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->text = calloc(1, 1);
    d->file = sd_arena_strdup(&d->arena, file);
    d->roots = sd_arena_alloc(&d->arena, sizeof *d->roots);
    if (!d->text || !d->file || !d->roots) {
        sd_doc_free(d);
        return NULL;
    }
    return d;
}

void sd_synth_set_root(sd_doc *doc, sd_node *root)
{
    doc->roots[0].node = root;
    doc->nroots = root ? 1 : 0;
}

static sd_node *mk(sd_doc *doc, sd_kind k, sd_loc loc)
{
    sd_node *n = sd_arena_alloc(&doc->arena, sizeof *n);
    if (n) {
        n->kind = (uint8_t)k;
        n->style = SD_STYLE_JSON;
        n->loc = loc;
    }
    return n;
}

sd_node *sd_synth_map(sd_doc *doc, sd_loc loc) { return mk(doc, SD_MAP, loc); }
sd_node *sd_synth_seq(sd_doc *doc, sd_loc loc) { return mk(doc, SD_SEQ, loc); }

sd_node *sd_synth_str(sd_doc *doc, sd_loc loc, const char *s)
{
    sd_node *n = mk(doc, SD_STR, loc);
    if (n && !(n->str = sd_arena_strdup(&doc->arena, s)))
        return NULL;
    if (n)
        n->len = strlen(s);
    return n;
}

sd_node *sd_synth_int(sd_doc *doc, sd_loc loc, long long v)
{
    sd_node *n = mk(doc, SD_INT, loc);
    char tmp[32];
    if (n) {
        n->num.i = v;
        n->len = (size_t)snprintf(tmp, sizeof tmp, "%lld", v);
        if (!(n->str = sd_arena_strdup(&doc->arena, tmp)))
            return NULL;
    }
    return n;
}

sd_node *sd_synth_num(sd_doc *doc, sd_loc loc, double v)
{
    sd_node *n = mk(doc, SD_FLOAT, loc);
    sd_buf b = SD_BUF_INIT;
    if (n) {
        n->num.f = v;
        n->style = SD_STYLE_PLAIN;
        sd_emit_number(&b, v);
        n->len = b.len;
        n->str = sd_arena_strdup(&doc->arena, b.ptr);
        sd_buf_release(&b);
        if (!n->str)
            return NULL;
    }
    return n;
}

sd_node *sd_synth_bool(sd_doc *doc, sd_loc loc, int v)
{
    sd_node *n = mk(doc, SD_BOOL, loc);
    if (n) {
        n->num.b = v != 0;
        n->str = v ? "true" : "false";
        n->len = strlen(n->str);
    }
    return n;
}

sd_node *sd_synth_null(sd_doc *doc, sd_loc loc)
{
    sd_node *n = mk(doc, SD_NULL, loc);
    if (n) {
        n->str = "null";
        n->len = 4;
    }
    return n;
}

/* Capacity is implicit: 4, 8, 16, ... the smallest at or above n. */
static size_t cap_for(size_t n)
{
    size_t c = 4;
    while (c < n)
        c *= 2;
    return c;
}

static int grow_items(sd_doc *doc, sd_node *n)
{
    size_t c = cap_for(n->n);
    if (n->n && n->n < c)
        return 0;
    if (n->n)
        c *= 2;
    sd_pair *items = sd_arena_alloc(&doc->arena, c * sizeof *items);
    if (!items)
        return SD_ENOMEM;
    if (n->n)
        memcpy(items, n->items, n->n * sizeof *items);
    n->items = items;
    return 0;
}

int sd_synth_set(sd_doc *doc, sd_node *map, const char *key, sd_node *value)
{
    for (size_t i = 0; i < map->n; i++)
        if (!strcmp(map->items[i].key->str, key)) {
            map->items[i].value = value;
            return 0;
        }
    sd_node *k = sd_synth_str(doc, value ? value->loc : map->loc, key);
    if (!k || !value || grow_items(doc, map))
        return SD_ENOMEM;
    sd_pair *p = &map->items[map->n++];
    memset(p, 0, sizeof *p);
    p->key = k;
    p->value = value;
    p->c_trail = -1;
    return 0;
}

int sd_synth_push(sd_doc *doc, sd_node *seq, sd_node *value)
{
    if (!value || grow_items(doc, seq))
        return SD_ENOMEM;
    sd_pair *p = &seq->items[seq->n++];
    memset(p, 0, sizeof *p);
    p->value = value;
    p->c_trail = -1;
    return 0;
}

sd_node *sd_synth_copy(sd_doc *doc, const sd_node *src)
{
    sd_node *n = mk(doc, (sd_kind)src->kind, src->loc);
    if (!n)
        return NULL;
    n->style = src->style;
    n->big = src->big;
    n->num = src->num;
    n->len = src->len;
    if (src->str && !(n->str = sd_arena_strndup(&doc->arena, src->str, src->len)))
        return NULL;
    if (src->n) {
        n->items = sd_arena_alloc(&doc->arena, cap_for(src->n) * sizeof *n->items);
        if (!n->items)
            return NULL;
        n->n = src->n;
        for (size_t i = 0; i < src->n; i++) {
            n->items[i].c_trail = -1;
            if (src->items[i].key && !(n->items[i].key = sd_synth_copy(doc, src->items[i].key)))
                return NULL;
            if (!(n->items[i].value = sd_synth_copy(doc, src->items[i].value)))
                return NULL;
        }
    }
    return n;
}
