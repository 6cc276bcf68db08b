/* SPDX-License-Identifier: Apache-2.0 */
/* gen.h - a chart's JSON Schema from its values files and what their
 * comments say (issue 35): `schemadoc schema`, and the schema every command
 * uses when a chart ships none.
 *
 * What a key's schema says, strongest first:
 *   1. an explicit `@schema` annotation (helm-values-schema-json parts, a
 *      helm-schema block: atschema.h);
 *   2. a helm-docs `# -- (type)` or a Bitnami `## @param key [modifiers]`;
 *   3. the default's own type (a `null` default allows anything; a `{}`
 *      default that nothing types is a free-form map).
 * Keys commented out under a map (commented.h) are its optional properties,
 * typed from the commented value.
 *
 * Three flavours, chosen from what the values file is written in (or forced
 * with `like`): a file annotated for helm-values-schema-json (or a chart with
 * its `.schema.yaml`) gets that tool's schema, one annotated for helm-schema
 * that tool's (title from the key, every key required, closed maps, `global`),
 * and any other schemadoc's own (descriptions and `markdownDescription` from
 * helm-docs or Bitnami comments, commented-out keys, `default`s of scalars).
 * The tree keeps the chart author's key order; sd_gen_write() writes it as
 * schemadoc does, or byte for byte as the tool of its flavour would. */
#ifndef SD_GEN_H
#define SD_GEN_H

#include "buf.h"
#include "node.h"

struct sd_docset;
struct sd_dialect;

enum sd_gen_flavour {
    SD_GEN_AUTO = 0,    /* from the values file */
    SD_GEN_NATIVE,      /* schemadoc's own */
    SD_GEN_HVSJ,        /* helm-values-schema-json (losisin, `helm schema`) */
    SD_GEN_HELMSCHEMA   /* helm-schema (dadav) */
};

/** Options: the tools' settings (a `.schema.yaml`, helm-schema flags) and
 *  the draft. Zero values are each tool's defaults. */
typedef struct sd_gen_opts {
    int         flavour;          /* enum sd_gen_flavour */
    int         exact;            /* exactly the tool's reading (--like): helm-docs
                                     types stay ignored where the tool ignores them */
    int         draft;            /* 4, 6, 7, 2019, 2020; 0: the flavour's (2020-12; helm-schema 7) */
    /* helm-values-schema-json */
    int         helm_docs;        /* -1: no, 0: when the file has `# --` lines (under
                                     `exact`, as the tool: no), 1: yes */
    int         no_additional;    /* close every object (--no-additional-properties) */
    int         no_global;        /* do not add `global` to a closed root */
    const char *root_id, *root_ref, *root_title, *root_description;
    int         root_additional;  /* 0 unset, 1 false, 2 true */
    const char *k8s_version;      /* for `$ref: $k8s/...` */
    const char *k8s_url;          /* NULL: the tool's default template */
    int         indent;           /* 0: 4 (hvsj), 2 (helm-schema, schemadoc) */
    int         bundle;           /* copy the files `$ref`s name into the root's `$defs` */
    int         bundle_without_id; /* ... and point the `$ref`s at them ("#/$defs/NAME")
                                     instead of giving each copy its `$id` */
    /* helm-schema: -k fields not generated, and -g */
    int         skip_title, skip_description, skip_required, skip_default, skip_additional;
    int         dont_add_global;
    const char *base_dir;         /* where relative `$ref` files are read (NULL: none are) */
    struct sd_docset *docs;       /* how they are read: the run's documents, with the
                                     chart's confinement and the --map prefixes that may
                                     lead out of it (docset.h); NULL: a set of its own,
                                     confined to base_dir */
    /* schemadoc's own reading: values files the chart's CI installs (ci/),
     * valid by definition: a key they set to another type than its
     * default's gets that type too */
    const sd_doc *const *examples;
    size_t      nexamples;
    /* ... and the examples its README shows (sd_gen_readme_examples()),
     * which widen only a placeholder default: `""`, or a list of `""` */
    const sd_doc *const *readme;
    size_t      nreadme;
    /* the comment dialect of the values files (dialect.h), as the source
     * chose it for the chart; NULL: each file's own (sd_dialect_detect) */
    const struct sd_dialect *dialect;
} sd_gen_opts;

/** The schema of `values` (n >= 1 documents, merged in order as Helm merges
 *  `-f` files) as a new synthetic document the caller frees with
 *  sd_doc_free(). *flavour (may be NULL) gets the flavour used. Malformed
 *  annotations are warnings in `diags`; NULL only when out of memory
 *  (reported). */
sd_doc *sd_gen_schema(const sd_doc *const *values, size_t n, const sd_gen_opts *opts, int *flavour,
                      sd_diags *diags);
/** helm-schema's merge of a dependency chart's schema `child` (its own
 *  schema, made or shipped) into `parent` (from sd_gen_schema; changed in
 *  place): with `imports` (the dependency's Chart.yaml `import-values`)
 *  what it imports (a name: the child's `exports.NAME` keys at the parent's
 *  root, replacing the parent's; `{child: PATH, parent: PATH}`: the child's
 *  PATH as the parent's PATH, titled by its last key), else a property
 *  `name` (the alias or name) holding the child's properties, titled
 *  `name`, described by the chart's `description`, nothing required.
 *  Returns 0 or SD_ENOMEM. */
int sd_gen_helmschema_dep(sd_doc *parent, const sd_doc *child, const char *name, const char *description,
                          const sd_node *imports);

/** Append `schema` (from sd_gen_schema) as text: `flavour` SD_GEN_NATIVE in
 *  schemadoc's keyword order and the author's key order, two-space JSON and
 *  a final newline; SD_GEN_HVSJ / SD_GEN_HELMSCHEMA exactly as that tool
 *  writes it (Go's encoding/json: its key order, its escapes, its numbers,
 *  its indentation and final newline). Errors are sticky in `out`. */
void sd_gen_write(sd_buf *out, const sd_doc *schema, int flavour, const sd_gen_opts *opts);

/** Read a helm-values-schema-json `.schema.yaml` (or any YAML of its keys)
 *  into `opts` and the values files it lists into *values (n of them, into
 *  the arena of `cfg`; NULL when it lists none). Unknown keys are warnings.
 *  Returns 0, or SD_ESYNTAX with an error in `diags`, or SD_EDENIED when a
 *  listed values file is an absolute path or leaves the chart directory
 *  as written ("../x"; the caller reads each with sd_doc_load_in(), which
 *  refuses symbolic links out of the chart). */
int sd_gen_config(sd_gen_opts *opts, const char ***values, size_t *n, const sd_doc *cfg, sd_diags *diags);

/** The YAML examples of a chart's README (`text`, `len` bytes, named `name`
 *  in positions): each fenced ```yaml (or yml) block that parses to a
 *  non-empty map, as new documents in docs[0..] (at most `max`) that the
 *  caller frees with sd_doc_free(). Returns how many; a block that does not
 *  parse is left out (and on running out of memory, the rest). */
size_t sd_gen_readme_examples(sd_doc **docs, size_t max, const char *text, size_t len, const char *name);
/** The same for the README.md in `chart_dir` (a symbolic link is not
 *  followed; no README, no examples). */
size_t sd_gen_chart_readme(sd_doc **docs, size_t max, const char *chart_dir);

#endif
