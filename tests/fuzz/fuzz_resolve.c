/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_resolve.c - the resolver over up to four in-memory documents
 * (parts separated by FUZZ_SEP, served as file:///fuzz/N.json): index them
 * all, then resolve every $ref written anywhere. No network, no files. */
#include "fuzz.h"
#include "resolve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t budget;

static void each_ref(sd_resolver *r, const sd_node *n, int depth, sd_diags *diags)
{
    if (!n || depth > 200 || !budget)
        return;
    budget--;
    if (n->kind == SD_MAP) {
        const sd_node *ref = sd_node_get(n, "$ref");
        if (ref && ref->kind == SD_STR && sd_resolver_info(r, n)) {
            const sd_schema_info *out;
            char *uri = NULL;
            if (sd_resolver_resolve(r, &out, n, ref->str, ref->loc, diags) == 0)
                (void)sd_schema_ptr(r, (sd_schema_info *)out);
            if (sd_resolver_ref_uri(r, &uri, n, ref->str) == 0)
                free(uri);
        }
    }
    if (n->kind == SD_MAP || n->kind == SD_SEQ)
        for (size_t i = 0; i < n->n; i++)
            each_ref(r, n->items[i].value, depth + 1, diags);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_part parts[FUZZ_MAX_PARTS];
    sd_diags diags = SD_DIAGS_INIT;
    fuzz_docs docs;
    size_t n;
    sd_resolve_opts ro;
    sd_resolver *r;

    if (size > FUZZ_MAX_INPUT)
        return -1;
    n = fuzz_split(parts, data, size);
    fuzz_docs_load(&docs, parts, n, &diags);
    memset(&ro, 0, sizeof ro);
    ro.load = fuzz_load_cb;
    ro.payload = &docs;
    if ((r = sd_resolver_new(&ro))) {
        if (docs.doc[0])
            sd_resolver_add(r, docs.doc[0], sd_doc_root(docs.doc[0]), "file:///fuzz/0.json", 0, &diags);
        budget = 20000;
        for (size_t i = 0; i < n; i++)
            if (docs.doc[i])
                each_ref(r, sd_doc_root(docs.doc[i]), 0, &diags);
        sd_resolver_free(r);
    }
    fuzz_docs_free(&docs);
    sd_diags_release(&diags);
    return 0;
}
