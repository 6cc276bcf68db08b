/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_validate.c - compile a schema and validate an instance: part 0 is
 * the schema, the last part the instance, parts between are documents the
 * schema may $ref (file:///fuzz/N.json). The first byte picks the draft
 * and whether formats assert. A JSON instance the tape parser takes is
 * validated again as that tape (what `validate` does with a .json values
 * file): any difference in verdict, message or position aborts. */
#include "fuzz.h"
#include "validate.h"

#include <stdlib.h>

static int same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void tape_agrees(sd_validator *v, const fuzz_part *inst, const sd_doc *doc, int r,
                        const sd_vresult *res)
{
    sd_tape t;
    sd_vresult tr = SD_VRESULT_INIT;
    sd_diags d = SD_DIAGS_INIT;
    char *text = malloc(inst->n + 1);
    if (!text)
        return;
    memcpy(text, inst->p, inst->n);
    text[inst->n] = '\0';
    if (sd_tape_parse(&t, text, inst->n, doc->file, 0) == 0) {
        int r2 = sd_validate_tape(v, 0, &t, &tr, &d);
        int ok = r2 == r && tr.count == res->count && tr.total == res->total && tr.nwarnings == res->nwarnings;
        for (size_t i = 0; ok && i < tr.count + tr.nwarnings; i++) {
            const sd_verror *a = i < tr.count ? &tr.items[i] : &tr.warnings[i - tr.count];
            const sd_verror *b = i < tr.count ? &res->items[i] : &res->warnings[i - tr.count];
            ok = same(a->path, b->path) && same(a->key, b->key) && same(a->message, b->message) &&
                 same(a->keyword, b->keyword) && same(a->schema_path, b->schema_path) &&
                 a->loc.line == b->loc.line && a->loc.column == b->loc.column;
        }
        if (!ok)
            abort();   /* the tape reports otherwise than the tree */
        sd_tape_free(&t);
    }
    for (size_t i = 0; i < d.count; i++)
        free(sd_diag_format(&d.items[i]));
    sd_diags_release(&d);
    sd_vresult_release(&tr);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int drafts[] = { 0, 4, 6, 7, 2019, 2020 };
    fuzz_part parts[FUZZ_MAX_PARTS];
    sd_diags diags = SD_DIAGS_INIT;
    sd_validate_opts vo;
    sd_validator *v = NULL;
    fuzz_docs docs;
    size_t n;
    unsigned sel;

    if (size < 1 || size > FUZZ_MAX_INPUT)
        return -1;
    sel = data[0];
    n = fuzz_split(parts, data + 1, size - 1);
    if (n < 2)
        return 0;
    fuzz_docs_load(&docs, parts, n, &diags);
    memset(&vo, 0, sizeof vo);
    vo.default_draft = drafts[sel % 6];
    vo.formats = (int)(sel / 6 % 3);
    vo.load = fuzz_load_cb;
    vo.payload = &docs;
    vo.base_uri = "file:///fuzz/0.json";
    vo.max_errors = 50;
    vo.regex_match_limit = 100000;
    if (docs.doc[0] && docs.doc[n - 1] &&
        sd_validator_new(&v, docs.doc[0], sd_doc_root(docs.doc[0]), &vo, &diags) == 0) {
        sd_vresult res = SD_VRESULT_INIT;
        int r = sd_validate(v, sd_doc_root(docs.doc[n - 1]), &res, &diags);
        if (docs.doc[n - 1]->is_json && (r == 0 || r == SD_EINVALID))
            tape_agrees(v, &parts[n - 1], docs.doc[n - 1], r, &res);
        sd_vresult_to_diags(&res, &diags);
        sd_vresult_release(&res);
        sd_validator_free(v);
    }
    for (size_t i = 0; i < diags.count; i++)
        free(sd_diag_format(&diags.items[i]));
    fuzz_docs_free(&docs);
    sd_diags_release(&diags);
    return 0;
}
