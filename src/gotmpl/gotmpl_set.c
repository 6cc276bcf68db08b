/* SPDX-License-Identifier: Apache-2.0 */
/* gotmpl_set.c - a set of named templates (Go's template namespace): its
 * lookup, creation and release, Go's IsEmptyTree, and Go's string literal
 * unquoting shared by the parser. */
#include "gotmpl_int.h"

#include <stdlib.h>
#include <string.h>

int sd_gotmpl__empty(const glist *l)
{
    if (!l)
        return 1;
    for (int i = 0; i < l->n; i++) {
        const gnode *n = l->nodes[i];
        if (n->kind != N_TEXT)
            return 0;
        for (size_t j = 0; j < n->len; j++)
            if (!(n->text[j] == ' ' || n->text[j] == '\t' || n->text[j] == '\r' || n->text[j] == '\n' ||
                  n->text[j] == '\v' || n->text[j] == '\f'))
                return 0;
    }
    return 1;
}

gtree **sd_gotmpl__slot(sd_gotmpl *set, const char *name)
{
    for (size_t i = 0; i < set->ntrees; i++)
        if (strcmp(set->trees[i]->name, name) == 0)
            return &set->trees[i];
    return NULL;
}

const gtree *sd_gotmpl__find(const sd_gotmpl *set, const char *name)
{
    gtree **s = sd_gotmpl__slot((sd_gotmpl *)set, name);
    return s ? *s : NULL;
}


int sd_gotmpl_new(sd_gotmpl **out, const char *main_name)
{
    sd_gotmpl *set = calloc(1, sizeof *set);
    *out = NULL;
    if (!set || !(set->main_name = sd_arena_strdup(&set->arena, main_name))) {
        free(set);
        return SD_ENOMEM;
    }
    *out = set;
    return 0;
}

void sd_gotmpl_free(sd_gotmpl *set)
{
    if (!set)
        return;
    sd_arena_release(&set->arena);
    free(set->trees);
    free(set);
}

int sd_gotmpl_has(const sd_gotmpl *set, const char *name)
{
    const gtree *t = sd_gotmpl__find(set, name);
    return t && !sd_gotmpl__empty(t->root);
}

/* --- Go literals ----------------------------------------------------------------- */

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

long sd_gotmpl__unquote(const char *s, size_t n, char quote, char *out, long *rune)
{
    size_t i = 0;
    long o = 0, count = 0;
    while (i < n) {
        unsigned long cp;
        unsigned char c = (unsigned char)s[i];
        count++;
        if (c != '\\') {
            if (c == (unsigned char)quote)
                return -1;
            if (rune) {
                /* decode one UTF-8 character */
                size_t l = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
                cp = c < 0x80 ? c : c < 0xE0 ? (c & 0x1F) : c < 0xF0 ? (c & 0x0F) : (c & 0x07);
                for (size_t k = 1; k < l && i + k < n; k++)
                    cp = (cp << 6) | ((unsigned char)s[i + k] & 0x3F);
                *rune = (long)cp;
                memcpy(out + o, s + i, l);
                o += (long)l;
                i += l;
                continue;
            }
            out[o++] = (char)c;
            i++;
            continue;
        }
        if (++i >= n)
            return -1;
        c = (unsigned char)s[i++];
        switch (c) {
        case 'a': cp = 7; break;
        case 'b': cp = 8; break;
        case 'f': cp = 12; break;
        case 'n': cp = 10; break;
        case 'r': cp = 13; break;
        case 't': cp = 9; break;
        case 'v': cp = 11; break;
        case '\\': cp = '\\'; break;
        case '\'': case '"':
            if (c != (unsigned char)quote)
                return -1;
            cp = c;
            break;
        case 'x': case 'u': case 'U': {
            int k = c == 'x' ? 2 : c == 'u' ? 4 : 8;
            cp = 0;
            for (int j = 0; j < k; j++, i++) {
                int h = i < n ? hexval((unsigned char)s[i]) : -1;
                if (h < 0)
                    return -1;
                cp = cp * 16 + (unsigned long)h;
            }
            if (c == 'x') {
                out[o++] = (char)cp;
                if (rune)
                    *rune = (long)cp;
                continue;
            }
            if (cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000))
                return -1;
            break;
        }
        default:
            if (c >= '0' && c <= '7') {
                cp = c - '0';
                for (int j = 0; j < 2; j++, i++) {
                    if (i >= n || s[i] < '0' || s[i] > '7')
                        return -1;
                    cp = cp * 8 + (unsigned long)(s[i] - '0');
                }
                if (cp > 255)
                    return -1;
                out[o++] = (char)cp;
                if (rune)
                    *rune = (long)cp;
                continue;
            }
            return -1;
        }
        if (rune)
            *rune = (long)cp;
        o += (long)sd_utf8_encode(cp, out + o);
    }
    if (rune && count != 1)
        return -1;
    return o;
}
