/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_load.c - the YAML and JSON loaders: positions, comments, typing,
 * limits; then the doc emitter (--format doc) over what loaded. The tape
 * parser (tree/tape.h) reads the same bytes: it must accept only what
 * json.c accepts, and then hold as many values (else abort). Each loaded
 * tree is also copied into a tape (sd_tape_from_node). */
#include "emit.h"
#include "fuzz.h"
#include "tape.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const enum sd_format fmts[] = { SD_FMT_YAML, SD_FMT_JSON };
    if (size > FUZZ_MAX_INPUT)
        return -1;
    for (size_t i = 0; i < 2; i++) {
        sd_diags diags = SD_DIAGS_INIT;
        sd_doc *doc = NULL;
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
