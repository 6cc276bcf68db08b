/* fuzz_load.c - the YAML and JSON loaders: positions, comments, typing,
 * limits; then the doc emitter (--format doc) over what loaded. */
#include "emit.h"
#include "fuzz.h"

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
            sd_emit_doc_json(&b, doc);
            sd_buf_release(&b);
            sd_doc_free(doc);
        }
        sd_diags_release(&diags);
    }
    return 0;
}
