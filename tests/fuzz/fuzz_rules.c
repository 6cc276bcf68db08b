/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_rules.c - the rules export (`schemadoc rules`): compile a schema
 * (part 0; later parts are documents it may $ref) and write the program
 * as JSON, which must then parse. (Comparing the JavaScript interpreter's
 * verdicts with C's on the same inputs is not done here: node is too slow
 * to start once per input; tests/suite-rules-js.sh compares them on the
 * JSON-Schema-Test-Suite.) */
#include "fuzz.h"
#include "rules.h"
#include "validate.h"

#include "val.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_part parts[FUZZ_MAX_PARTS];
    sd_diags diags = SD_DIAGS_INIT;
    sd_validate_opts vo;
    sd_validator *v = NULL;
    fuzz_docs docs;
    size_t n;

    if (size > FUZZ_MAX_INPUT)
        return -1;
    n = fuzz_split(parts, data, size);
    fuzz_docs_load(&docs, parts, n, &diags);
    memset(&vo, 0, sizeof vo);
    vo.load = fuzz_load_cb;
    vo.payload = &docs;
    vo.base_uri = "file:///fuzz/0.json";
    if (docs.doc[0] && sd_validator_new(&v, docs.doc[0], sd_doc_root(docs.doc[0]), &vo, &diags) == 0) {
        sd_rules_entry e;
        sd_rules_opts ro;
        sd_buf out = SD_BUF_INIT;
        memset(&e, 0, sizeof e);
        memset(&ro, 0, sizeof ro);
        e.name = "schema";
        e.val = v;
        ro.source = "fuzz.json";
        ro.kind = "schema";
        if (sd_rules_export(&out, &e, 1, &ro, &diags) == 0) {
            sd_val_error jerr;
            /* big integers are valid JSON (JavaScript reads them as numbers) */
            sd_val *j = sd_val_loadb(out.ptr, out.len, SD_VAL_ALLOW_NUL | SD_VAL_DECODE_INT_AS_REAL, &jerr);
            /* jansson cannot hold a number past 1e308 (valid JSON still) */
            if (!j && !strstr(jerr.text, "overflow")) {
                fprintf(stderr, "rules export is not JSON: %s at %d:%d\n", jerr.text, jerr.line, jerr.column);
                abort();
            }
            sd_val_decref(j);
        }
        sd_buf_release(&out);
        sd_validator_free(v);
    }
    fuzz_docs_free(&docs);
    sd_diags_release(&diags);
    return 0;
}
