/* SPDX-License-Identifier: Apache-2.0 */
/* node.c - small queries on the document model, and freeing a document (see node.h). */
#include "node.h"
#include "hash.h"

#include <stdlib.h>
#include <string.h>

sd_node *sd_doc_root(const sd_doc *doc)
{
    return doc && doc->nroots ? doc->roots[0].node : NULL;
}

#define KEYIDX_MIN 16

static size_t keyidx_cap(size_t n)
{
    size_t cap = 32;
    while (cap < n * 2)
        cap *= 2;
    return cap;
}

static uint64_t key_hash(const char *s, size_t n)
{
    uint64_t h = sd_hash_fnv(s, n);
    return h ^ (h >> 31);
}

size_t sd_node__items_bytes(int kind, size_t cnt)
{
    size_t cap = kind == SD_MAP && cnt > KEYIDX_MIN ? keyidx_cap(cnt) : 0;
    return cnt * sizeof(sd_pair) + cap * sizeof(uint32_t);
}

void sd_node__adopt_items(sd_node *n, sd_pair *items, size_t cnt)
{
    size_t cap;
    uint32_t *tab;

    n->keyidx = 0;
    n->n = (uint32_t)cnt;
    n->items = cnt ? items : NULL;
    if (n->kind != SD_MAP || cnt <= KEYIDX_MIN)
        return;
    cap = keyidx_cap(cnt);
    tab = (uint32_t *)(void *)(items + cnt);   /* zeroed by the arena */
    for (size_t i = 0; i < cnt; i++) {
        const sd_node *k = items[i].key;
        size_t j = (size_t)key_hash(k->str, k->len) & (cap - 1);
        for (; tab[j]; j = (j + 1) & (cap - 1)) {
            const sd_node *o = items[tab[j] - 1].key;
            if (o->len == k->len && memcmp(o->str, k->str, k->len) == 0)
                break;
        }
        if (!tab[j])
            tab[j] = (uint32_t)i + 1;
    }
    n->keyidx = 1;
}

int sd_node__set_items(sd_arena *a, sd_node *n, const sd_pair *src, size_t cnt)
{
    sd_pair *items;

    n->keyidx = 0;
    n->n = 0;
    n->items = NULL;
    if (!cnt)
        return 0;
    if (!(items = sd_arena_alloc(a, sd_node__items_bytes(n->kind, cnt))))
        return SD_ENOMEM;
    memcpy(items, src, cnt * sizeof *items);
    sd_node__adopt_items(n, items, cnt);
    return 0;
}

const sd_pair *sd_node_get_pair(const sd_node *map, const char *key)
{
    size_t i, n;
    if (!map || map->kind != SD_MAP)
        return NULL;
    n = strlen(key);
    if (map->keyidx) {
        size_t cap = keyidx_cap(map->n);
        const uint32_t *tab = (const uint32_t *)(const void *)(map->items + map->n);
        for (i = (size_t)key_hash(key, n) & (cap - 1); tab[i]; i = (i + 1) & (cap - 1)) {
            const sd_node *k = map->items[tab[i] - 1].key;
            if (k->len == n && memcmp(k->str, key, n) == 0)
                return &map->items[tab[i] - 1];
        }
        return NULL;
    }
    for (i = 0; i < map->n; i++) {
        const sd_node *k = map->items[i].key;
        if (k->len == n && memcmp(k->str, key, n) == 0)
            return &map->items[i];
    }
    return NULL;
}

sd_node *sd_node_get(const sd_node *map, const char *key)
{
    const sd_pair *p = sd_node_get_pair(map, key);
    return p ? p->value : NULL;
}

const char *sd_node_str(const sd_node *n)
{
    return n && n->kind == SD_STR ? n->str : NULL;
}

const char *sd_kind_name(sd_kind k)
{
    static const char *const names[] = { "null", "boolean", "integer", "number",
                                         "string", "map", "list" };
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

const char *sd_node_type_word(const sd_node *n)
{
    return sd_kind_type_word((sd_kind)n->kind);
}

const char *sd_kind_type_word(sd_kind k)
{
    switch (k) {
    case SD_NULL: return "null";
    case SD_BOOL: return "boolean";
    case SD_INT: return "integer";
    case SD_FLOAT: return "number";
    case SD_STR: return "string";
    case SD_MAP: return "object";
    default: return "array";
    }
}

double sd_node_number(const sd_node *n)
{
    if (!n)
        return 0;
    if (n->kind == SD_INT)
        return n->big ? n->num.f : (double)n->num.i;
    if (n->kind == SD_FLOAT)
        return n->num.f;
    return 0;
}

static int key_eq(const sd_node *a, const sd_node *b)
{
    return a->len == b->len && memcmp(a->str, b->str, a->len) == 0;
}

static uint64_t hash_key(const sd_node *k)
{
    return sd_hash_fnv(k->str, k->len);
}

/* Duplicate keys are an error naming both places. Small maps compare
 * pairwise; large ones use a temporary open-addressing table so that a
 * hostile 100,000-key map stays linear. Merge-key (`<<`) pairs are skipped. */
int sd_node__check_dups(const sd_pair *items, size_t n, sd_diags *diags)
{
    const sd_node *first = NULL, *second = NULL;

    if (n < 2)
        return 0;
    if (n <= 16) {
        for (size_t i = 1; i < n && !second; i++)
            for (size_t j = 0; j < i; j++)
                if (key_eq(items[i].key, items[j].key)) {
                    first = items[j].key, second = items[i].key;
                    break;
                }
    } else {
        size_t cap = 32, mask;
        while (cap < n * 2)
            cap *= 2;
        mask = cap - 1;
        size_t *tab = calloc(cap, sizeof *tab);
        if (!tab) {
            sd_loc l = { items[0].key->loc.file, 0, 0 };
            return sd_diag_error(diags, SD_ENOMEM, l, "out of memory");
        }
        for (size_t i = 0; i < n && !second; i++) {
            size_t h = (size_t)hash_key(items[i].key) & mask;
            while (tab[h]) {
                if (key_eq(items[tab[h] - 1].key, items[i].key)) {
                    first = items[tab[h] - 1].key, second = items[i].key;
                    break;
                }
                h = (h + 1) & mask;
            }
            tab[h] = i + 1;
        }
        free(tab);
    }
    if (second && !(second->len == 2 && memcmp(second->str, "<<", 2) == 0 && second->style == SD_STYLE_PLAIN))
        return sd_diag_error(diags, SD_EDUP, second->loc,
                             "duplicate key '%s' (first defined at %d:%d)",
                             second->str, first->loc.line, first->loc.column);
    return 0;
}

void sd_doc_free(sd_doc *doc)
{
    if (!doc)
        return;
    free(doc->text);
    sd_arena_release(&doc->arena);
    free(doc);
}
