/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_ytt.c - ytt schema annotations (#@schema/..., #@data/values-schema)
 * and their Starlark literals, turned into a JSON Schema. */
#include "fuzz.h"
#include "ytt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sd_diags diags = SD_DIAGS_INIT;
    sd_doc *doc = NULL, *schema = NULL;
    if (size > FUZZ_MAX_INPUT)
        return -1;
    if (sd_doc_load_mem(&doc, "schema.yaml", (const char *)data, size, SD_FMT_YAML, NULL, &diags) == 0) {
        (void)sd_ytt_is_schema(doc);
        if (sd_ytt_schema(&schema, doc, &diags) == 0)
            sd_doc_free(schema);
        sd_doc_free(doc);
    }
    sd_diags_release(&diags);
    return 0;
}
