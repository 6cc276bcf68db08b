/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_load.c - the YAML and JSON loaders: positions, comments, typing,
 * limits; then the doc emitter (--format doc) over what loaded. The tape
 * parser (tree/tape.h) reads the same bytes: it must accept only what
 * json.c accepts, and then hold as many values (else abort). Each loaded
 * tree is also copied into a tape (sd_tape_from_node). The YAML tape
 * (load/load_tape.h) must take only what the loader takes as one
 * document, and then hold the tree's tape: kinds, strings, numbers and
 * positions, value for value. */
#include "emit.h"
#include "fuzz.h"
#include "load_tape.h"
#include "tape.h"

#include <math.h>

#include <stdlib.h>

/* Values in a tree, keys included (what a tape of it holds), counted up
 * to a little past 100,000 (aliases can multiply a small text). */
static size_t count(const sd_node *n, size_t c)
{
    c++;
    if (n->kind == SD_MAP || n->kind == SD_SEQ)
        for (size_t i = 0; i < n->n && c <= 100000; i++)
            c = count(n->items[i].value, c + (n->items[i].key ? 1 : 0));
    return c;
}

/* The YAML tape of `data` against `doc`, the loader's tree of it (or NULL
 * when the loader refused it). */
static void yaml_tape(const uint8_t *data, size_t size, const sd_doc *doc)
{
    char *text = malloc(size + 1);
    sd_tape y, t;
    if (!text)
        return;
    memcpy(text, data, size);
    text[size] = '\0';
    sd_load_budget_reset(0);
    if (sd_load_tape_yaml(&y, text, size, "f.yaml", NULL) == 0) {
        if (!doc || doc->nroots != 1)
            abort();   /* taken where the loader refused, or a stream it must leave */
        if (count(sd_doc_root(doc), 0) <= 100000 && sd_tape_from_node(&t, sd_doc_root(doc)) == 0) {
            if (t.n != y.n)
                abort();
            for (size_t j = 0; j < y.n; j++) {
                const sd_tval *a = &y.v[j], *b = &t.v[j];
                sd_loc l = sd_tape_loc(&y, a), m = sd_tape_loc(&t, b);
                size_t al, bl;
                const char *at, *bt;
                if (sd_tape_kind(a) != sd_tape_kind(b) || l.line != m.line || l.column != m.column)
                    abort();
                switch (sd_tape_kind(a)) {
                case SD_STR:
                    if (a->len != b->len || memcmp(a->u.s, b->u.s, a->len) || a->u.s[a->len])
                        abort();
                    break;
                case SD_BOOL: if (a->u.b != b->u.b) abort(); break;
                case SD_INT: case SD_FLOAT:
                    at = sd_tape_text(&y, a, &al);
                    bt = sd_tape_text(&t, b, &bl);
                    if ((memcmp(&a->u, &b->u, sizeof a->u) && !(isnan(a->u.f) && isnan(b->u.f))) ||
                        sd_tape_big(a) != sd_tape_big(b) || al != bl || memcmp(at, bt, al))
                        abort();   /* the value, or its text as written for messages */
                    break;
                case SD_MAP: case SD_SEQ:
                    if (a->len != b->len || a->u.span != b->u.span)
                        abort();
                    break;
                default: break;
                }
            }
            sd_tape_free(&t);
        }
        sd_tape_free(&y);
    }
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const enum sd_format fmts[] = { SD_FMT_YAML, SD_FMT_JSON };
    if (size > FUZZ_MAX_INPUT)
        return -1;
    for (size_t i = 0; i < 2; i++) {
        sd_diags diags = SD_DIAGS_INIT;
        sd_doc *doc = NULL;
        sd_load_budget_reset(0);
        if (sd_doc_load_mem(&doc, i ? "f.json" : "f.yaml", (const char *)data, size, fmts[i], NULL,
                            &diags) == 0) {
            sd_buf b = SD_BUF_INIT;
            sd_tape t;
            sd_emit_doc_json(&b, doc);
            sd_buf_release(&b);
            size_t nv = sd_doc_root(doc) ? count(sd_doc_root(doc), 0) : 0;
            if (nv && nv <= 100000 && sd_tape_from_node(&t, sd_doc_root(doc)) == 0) {
                if (t.n != nv)
                    abort();
                sd_tape_free(&t);
            }
        }
        if (i == 0)
            yaml_tape(data, size, doc);
        if (i == 1) {
            char *text = malloc(size + 1);
            sd_tape t;
            if (text) {
                memcpy(text, data, size);
                text[size] = '\0';
                if (sd_tape_parse(&t, text, size, "f.json", 0) == 0) {
                    if (!doc || !sd_doc_root(doc) || t.n != count(sd_doc_root(doc), 0))
                        abort();   /* the tape took what json.c refused, or read it otherwise */
                    sd_tape_free(&t);
                }
                free(text);
            }
        }
        sd_doc_free(doc);
        sd_diags_release(&diags);
    }
    return 0;
}
