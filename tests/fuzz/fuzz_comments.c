/* fuzz_comments.c - values.yaml doc comments in both dialects (helm-docs
 * `# --`, @param and friends of Bitnami's readme generator), the rows
 * made from them, and the keys commented out. */
#include "annot.h"
#include "commented.h"
#include "fuzz.h"
#include "rows.h"

#include "val.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sd_diags diags = SD_DIAGS_INIT;
    sd_doc *doc = NULL;
    if (size > FUZZ_MAX_INPUT)
        return -1;
    if (sd_doc_load_mem(&doc, "values.yaml", (const char *)data, size, SD_FMT_YAML, NULL, &diags) == 0) {
        sd_annots an;
        memset(&an, 0, sizeof an);
        if (sd_annots_scan(&an, doc, &diags) == 0) {
            sd_val *rows = sd_rows_build(doc, &an);
            sd_val_decref(rows);
        }
        sd_annots_release(&an);
        sd_ckeys ck;
        if (sd_ckeys_scan(&ck, doc) == 0)
            for (size_t i = 0; i < ck.n; i++)
                if (!ck.items[i].value || !ck.items[i].key)
                    abort();
        sd_ckeys_release(&ck);
        sd_doc_free(doc);
    }
    sd_diags_release(&diags);
    return 0;
}
