/* fuzz_validate.c - compile a schema and validate an instance: part 0 is
 * the schema, the last part the instance, parts between are documents the
 * schema may $ref (file:///fuzz/N.json). The first byte picks the draft
 * and whether formats assert. */
#include "fuzz.h"
#include "validate.h"

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
        sd_validate(v, sd_doc_root(docs.doc[n - 1]), &res, &diags);
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
