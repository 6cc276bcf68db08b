/* SPDX-License-Identifier: Apache-2.0 */
/* check_rules.c - the rules document of a source (check.h,
 * docs/rules.md): each schema's compiled program with what the browser's
 * interpreter needs beside it (a subchart's alias and defaults, a ytt
 * schema's defaults, a CRD version's group, version and kind, the CRD
 * fallback), written by validate/rules.c; and validate's Kubernetes layer
 * (check_k8s.c) as "k8s": for a chart with a schema of its own, the typed
 * keys that schema leaves open, for a made one every typed key, with
 * their definitions. */
#include "check.h"
#include "rules.h"

#include <stdlib.h>
#include <string.h>

int sd_check_rules(sd_buf *out, sd_source *src, const sd_check_opts *opts, sd_diags *diags)
{
    sd_validate_opts vo;
    sd_rules_opts ro;
    sd_rules_entry *entries;
    sd_validator *v = NULL;
    const sd_crd_version *fallback = NULL;
    size_t n = 0, ns = sd_source_nschemas(src);
    int err, said = 0;

    sd_check_validate_opts(&vo, src, opts);
    if ((err = sd_source_validator(&v, src, &vo, diags)) < 0)
        return err;
    if (!(entries = calloc(ns ? ns : 1, sizeof *entries)))
        return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ sd_source_path(src), 0, 0 }, "out of memory");
    memset(&ro, 0, sizeof ro);
    ro.source = sd_source_path(src);
    ro.formats = vo.formats;
    ro.draft = vo.draft;
    ro.default_draft = sd_source_options(src)->draft;
    switch (sd_source_kind(src)) {
    case SD_SOURCE_CHART: ro.kind = "chart"; break;
    case SD_SOURCE_CRD:   ro.kind = "crd"; break;
    case SD_SOURCE_YTT:   ro.kind = "ytt"; break;
    default:              ro.kind = "schema"; break;
    }
    for (size_t i = 0; i < ns; i++) {
        const sd_source_schema *sc = sd_source_schema_at(src, i);
        sd_rules_entry *e = &entries[n];
        int entry;
        if (!sc->root)
            continue;
        if (sc->version) {
            /* the version `validate` falls back to: the first, else the
             * last storage version (sd_crds_for) */
            if (!fallback || (sc->version->node && sc->version->storage)) {
                fallback = sc->version;
                ro.fallback = sc->name;
            }
            sd_check__cel_note(diags, sc->root, &said, 0, "in the rules");
        }
        if ((entry = sd_source_entry(src, i, diags)) < 0) {
            free(entries);
            return entry;
        }
        e->name = sc->name;
        e->val = v;
        e->root = (size_t)entry;
        if (sc->chart && sc->chart != sd_source_chart(src)) {
            e->alias = sc->chart->alias;
            e->defaults = sc->chart->values ? sd_doc_root(sc->chart->values) : NULL;
        }
        if (sd_source_kind(src) == SD_SOURCE_YTT)
            e->defaults = sd_node_get(sc->root, "default");   /* the data values' defaults */
        if (sc->crd) {
            e->group = sc->crd->group;
            e->version = sd_node_str(sc->version->name);
            e->kind = sc->crd->kind;
        }
        n++;
    }
    if (sd_source_kind(src) == SD_SOURCE_CHART && !sd_source_chart(src)->schema)
        sd_diag_warning(diags, (sd_loc){ sd_source_chart(src)->dir, 0, 0 },
                        "the chart has no values.schema.json: Helm checks nothing, and neither do these rules");
    if (!n && sd_source_kind(src) == SD_SOURCE_CRD) {
        free(entries);
        return sd_diag_error(diags, SD_ENOTFOUND, (sd_loc){ sd_source_path(src), 0, 0 },
                             "the CRD has no openAPIV3Schema");
    }
    /* validate's Kubernetes layer, for the interpreter to apply too */
    sd_buf k8s = SD_BUF_INIT;
    if ((err = sd_check__k8s_rules(&k8s, src)) < 0) {
        free(entries);
        sd_buf_release(&k8s);
        return sd_diag_error(diags, err, (sd_loc){ sd_source_path(src), 0, 0 }, "out of memory");
    }
    ro.extra = k8s.len ? k8s.ptr : NULL;
    err = sd_rules_export(out, entries, n, &ro, diags);
    sd_buf_release(&k8s);
    free(entries);
    return err;
}
