/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_comments.c - values.yaml doc comments in every dialect (helm-docs
 * `# --`, @param and friends of Bitnami's readme generator, the `@schema`
 * annotations of helm-values-schema-json and helm-schema), the rows made
 * from them, the keys commented out, and the schema made from them in each
 * reading, written in each tool's bytes (gen.h). */
#include "annot.h"
#include "atschema.h"
#include "commented.h"
#include "gen.h"
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
        if (sd_annots_scan(&an, doc, NULL, &diags) == 0) {
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
        sd_atschema at;
        if (sd_atschema_scan(&at, doc, &diags) == 0)
            sd_atschema_release(&at);
        for (int f = SD_GEN_AUTO; f <= SD_GEN_HELMSCHEMA; f++) {
            sd_gen_opts o;
            memset(&o, 0, sizeof o);
            o.flavour = f;
            o.exact = f == SD_GEN_HELMSCHEMA;
            o.k8s_version = "v1.0.0";
            sd_doc *s = sd_gen_schema((const sd_doc *const *)&doc, 1, &o, NULL, &diags);
            if (s) {
                sd_buf b = SD_BUF_INIT;
                sd_gen_write(&b, s, f, &o);
                if (!sd_buf_failed(&b) && (!b.len || b.ptr[0] != '{'))
                    abort();   /* a schema is an object */
                sd_buf_release(&b);
                sd_doc_free(s);
            }
        }
        sd_doc_free(doc);
    }
    sd_diags_release(&diags);
    return 0;
}
