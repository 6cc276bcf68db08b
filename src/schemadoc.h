/* SPDX-License-Identifier: Apache-2.0 */
/* schemadoc.h - the schemadoc library: configuration schemas in; the
 * normalized model, reference pages and validation results out.
 *
 * This header is the manual of the library (libschemadoc.a, pkg-config
 * name `schemadoc`). It uses standard C types only: no jansson, libyaml or
 * FILE. Text goes in as file names and comes out as NUL-terminated UTF-8
 * strings that the caller frees with schemadoc_free().
 *
 * A typical program (docs/example.c):
 *
 *     schemadoc_diags *d = schemadoc_diags_new();
 *     schemadoc_options o;
 *     schemadoc_source *src;
 *     char *page;
 *     schemadoc_options_init(&o);
 *     if (schemadoc_open(&src, "./chart", &o, d) == 0) {
 *         if (schemadoc_render_page(&page, NULL, src, "md", &o, d) == 0) {
 *             fputs(page, stdout);
 *             schemadoc_free(page);
 *         }
 *         schemadoc_close(src);
 *     }
 *     for (size_t i = 0; i < schemadoc_diags_count(d); i++) {
 *         char *line = schemadoc_diags_text(d, i);
 *         fprintf(stderr, "%s\n", line);
 *         schemadoc_free(line);
 *     }
 *     schemadoc_diags_free(d);
 *
 * Functions that can fail return 0 (or a count, where said) on success and
 * a negative enum sd_error code on failure, with the details recorded in
 * the schemadoc_diags list passed to them. No function prints anything.
 * Objects are not thread-safe; use one per thread. */
#ifndef SCHEMADOC_H
#define SCHEMADOC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every function of this header is exported (and nothing else: the
 * archive's internal symbols are local, the shared library's version
 * script names only these), under the prefix `schemadoc_`, so that a host
 * program's own `sd_*` names (systemd's among them) never clash. */
#if defined(_WIN32) && defined(SCHEMADOC_BUILDING)
#  define SCHEMADOC_API __declspec(dllexport)
#elif defined(__GNUC__)
#  define SCHEMADOC_API __attribute__((visibility("default")))
#else
#  define SCHEMADOC_API
#endif

#define SD_VERSION "0.1.0"
/** The version as a number: 0xMMmmpp. */
#define SD_VERSION_NUM 0x000100

/** Error codes: 0 is success, failures are negative. */
enum sd_error {
    SD_OK       = 0,
    SD_ERROR    = -1,  /* generic */
    SD_ENOMEM   = -2,  /* out of memory */
    SD_ENOTFOUND= -3,  /* missing file, key, pointer segment */
    SD_ESYNTAX  = -4,  /* malformed YAML / JSON / template */
    SD_EREF     = -5,  /* unresolvable $ref */
    SD_ELIMIT   = -6,  /* a size, depth or time bound was reached */
    SD_EIO      = -7,  /* read/write failure */
    SD_EUSAGE   = -8,  /* bad argument */
    SD_EINVALID = -9,  /* input read but found wanting (validation, stale docs) */
    SD_EDUP     = -10, /* duplicate mapping key */
    SD_EDENIED  = -11  /* confinement: path or URL not allowed */
};

/** Free a string (or any memory) the library handed to the caller. */
SCHEMADOC_API void schemadoc_free(void *p);

/* ---- diagnostics --------------------------------------------------------- */

/** How serious a diagnostic is. */
enum sd_severity { SD_SEV_ERROR = 0, SD_SEV_WARNING = 1, SD_SEV_NOTE = 2 };

/** A list of diagnostics: errors, warnings and notes, each with a position
 *  in a source file and, where it applies, JSON pointers into the schema
 *  and into the values. Loading stops at the first error; validation
 *  collects them all. */
typedef struct sd_diags schemadoc_diags;

/** A new, empty list; NULL when out of memory. Free with schemadoc_diags_free(). */
SCHEMADOC_API schemadoc_diags *schemadoc_diags_new(void);
/** Free the list and every diagnostic in it. NULL is allowed. */
SCHEMADOC_API void schemadoc_diags_free(schemadoc_diags *d);
/** The number of diagnostics recorded. */
SCHEMADOC_API size_t schemadoc_diags_count(const schemadoc_diags *d);
/** The number of errors among them (warnings and notes excluded). */
SCHEMADOC_API size_t schemadoc_diags_errors(const schemadoc_diags *d);

/* Diagnostic `i` (0 <= i < schemadoc_diags_count()). Strings are borrowed: valid
 * until the list is freed; NULL when the diagnostic has no such part. */
SCHEMADOC_API int         schemadoc_diags_severity(const schemadoc_diags *d, size_t i);  /* enum sd_severity */
SCHEMADOC_API int         schemadoc_diags_code(const schemadoc_diags *d, size_t i);      /* enum sd_error; 0 for warnings */
SCHEMADOC_API const char *schemadoc_diags_message(const schemadoc_diags *d, size_t i);   /* lowercase, no final period */
SCHEMADOC_API const char *schemadoc_diags_file(const schemadoc_diags *d, size_t i);      /* the file it is about, or NULL */
SCHEMADOC_API int         schemadoc_diags_line(const schemadoc_diags *d, size_t i);      /* 1-based; 0 when unknown */
SCHEMADOC_API int         schemadoc_diags_column(const schemadoc_diags *d, size_t i);    /* 1-based, in characters; 0 when unknown */
/* Where what line:column names ends: just past the value (a scalar as
 * written, quotes included; a flow collection to its closing bracket; a
 * block scalar or block collection to its last line) or, for an unexpected
 * key, the key; a syntax error: the token there. 1-based, the column in
 * characters (an exclusive end, as an editor's range); 0 when unknown (no
 * position, or a file whose text the run did not read). */
SCHEMADOC_API int         schemadoc_diags_end_line(const schemadoc_diags *d, size_t i);
SCHEMADOC_API int         schemadoc_diags_end_column(const schemadoc_diags *d, size_t i);
SCHEMADOC_API const char *schemadoc_diags_schema_ptr(const schemadoc_diags *d, size_t i);   /* "#/properties/port/maximum" */
SCHEMADOC_API const char *schemadoc_diags_instance_ptr(const schemadoc_diags *d, size_t i); /* "/service/port" */
/** Diagnostic `i` as the command line prints it ("values.yaml:4:3: error:
 *  ... [schema #/..., instance /...]"). A new string: schemadoc_free() it; NULL
 *  when out of memory. */
SCHEMADOC_API char *schemadoc_diags_text(const schemadoc_diags *d, size_t i);

/* ---- options ----------------------------------------------------------- */

#define SD_OPTIONS_VERSION 1

/** Everything a caller can choose; schemadoc_options_init() sets the defaults.
 *  Fields may only be added at the end, with `version` raised. */
typedef struct sd_options {
    int                version;     /* SD_OPTIONS_VERSION (set by schemadoc_options_init) */
    /* reading a source (docs/resolving.md) */
    int                draft;       /* JSON Schema dialect when `$schema` is absent:
                                       4, 6, 7, 2019 or 2020 (0: 2020-12) */
    int                lenient;     /* an unresolved $ref is a warning, not an error */
    const char *const *maps;        /* "PREFIX=TARGET" $ref prefix maps, as --map */
    size_t             nmaps;
    int                offline;     /* remote documents only from the cache */
    int                refresh;     /* fetch remote documents again */
    const char        *cache_dir;   /* NULL: $XDG_CACHE_HOME/schemadoc or ~/.cache/schemadoc */
    long               timeout_ms;  /* per remote request (0: 30 s) */
    /* validation (docs/validate.md) */
    int                force_draft; /* dialect forced on the schemas, wins over `$schema` (0: none) */
    int                formats;     /* 0: as the dialect says; 1: always assert; 2: never */
    /* pages (docs/themes.md) */
    const char        *theme;       /* a built-in theme name or a directory (NULL: "default") */
    const char        *template_file; /* a custom top-level template (NULL: the theme's) */
} schemadoc_options;

/** Set every option to its default. */
SCHEMADOC_API void schemadoc_options_init(schemadoc_options *o);

/* ---- sources -------------------------------------------------------------- */

/** An opened input: a Helm chart directory (with its subcharts), a JSON
 *  Schema file (draft 4 to 2020-12, JSON or YAML), a Kubernetes CRD file
 *  or a ytt schema, with every document its $refs reach. */
typedef struct sd_source schemadoc_source;

/** Open `path` with options `o` (NULL: defaults; the strings it points to
 *  must outlive the source). On success *out is a new source freed with
 *  schemadoc_close(). Fails with SD_ENOTFOUND, SD_ESYNTAX, SD_EREF, SD_EDENIED,
 *  SD_ELIMIT, SD_EIO or SD_ENOMEM, with errors in `d`. */
SCHEMADOC_API int schemadoc_open(schemadoc_source **out, const char *path, const schemadoc_options *o, schemadoc_diags *d);
/** Free a source and everything it read. NULL is allowed. */
SCHEMADOC_API void schemadoc_close(schemadoc_source *src);

/** The normalized model of `src` as JSON text (docs/model.md): the data
 *  every template receives. On success *out is a new string (schemadoc_free())
 *  and *len, when not NULL, its length. */
SCHEMADOC_API int schemadoc_model_json(char **out, size_t *len, schemadoc_source *src, schemadoc_diags *d);

/** The reference page of `src` in `format`: "html" (one self-contained
 *  page), "md" (helm-docs compatible Markdown) or "adoc" (AsciiDoc for
 *  asciidoctor), with the theme and
 *  template of `o`: the bytes `schemadoc SOURCE --format FORMAT` writes
 *  (for "md", a chart's README.md.gotmpl when it has one and `o` names no
 *  theme or template, as helm-docs would run it). On success *out is a new
 *  string (schemadoc_free()). */
SCHEMADOC_API int schemadoc_render_page(char **out, size_t *len, schemadoc_source *src, const char *format,
                   const schemadoc_options *o, schemadoc_diags *d);

/** Validate values files against `src` as `schemadoc validate` does (a
 *  chart: the files merged over values.yaml; a CRD: each document; a ytt
 *  schema: overlays on its defaults; a schema: each file). *out_json gets
 *  the results as the JSON array documented in docs/validate.md (NULL: not
 *  wanted). Returns 0 when everything is valid, 1 when something violates
 *  the schema (each violation is also in `d`, with its pointers), or a
 *  negative code when the files or the schema cannot be read. */
SCHEMADOC_API int schemadoc_validate_files(char **out_json, size_t *len, schemadoc_source *src, const char *const *files,
                      size_t nfiles, const schemadoc_options *o, schemadoc_diags *d);

/** Flags of schemadoc_validate_text(). */
enum sd_text_flags {
    SD_TEXT_DEFAULTS = 1 << 0   /* a chart: the text is its values.yaml as edited, the
                                   defaults themselves (not merged over the file on disk) */
};

/** schemadoc_validate_files() for one values file given as text: `text_len`
 *  bytes of `text` (an editor's unsaved buffer; copied) stand for the file
 *  `name`, which is never read, and positions in it are named `name`. A
 *  chart merges it over values.yaml as Helm does, so nothing values.yaml
 *  supplies is missing. Open the source once (schemadoc_open) and call this
 *  any number of times: the schema stays compiled. Returns as
 *  schemadoc_validate_files() does. */
SCHEMADOC_API int schemadoc_validate_text(char **out_json, size_t *len, schemadoc_source *src, const char *name,
                                          const char *text, size_t text_len, unsigned flags,
                                          const schemadoc_options *o, schemadoc_diags *d);

/* ---- upgrades (docs/diff.md) --------------------------------------------- */

/** Flags of schemadoc_diff_sources(). */
enum sd_diff_flags {
    SD_DIFF_DESCRIPTIONS = 1 << 0   /* also list changed descriptions */
};

/** What changed for users from `old_src` to `new_src` (two sources of the
 *  same kind), as `schemadoc diff` prints it: `format` is "json" (the
 *  change list of docs/diff.md), "md" (the table) or "html" (the page, in
 *  the theme of `o`). On success *out is a new string (schemadoc_free()). Returns
 *  0 when nothing changed, 1 when something did, or a negative code. */
SCHEMADOC_API int schemadoc_diff_sources(char **out, size_t *len, schemadoc_source *old_src, schemadoc_source *new_src,
                    const char *format, unsigned flags, const schemadoc_options *o, schemadoc_diags *d);

#ifdef __cplusplus
}
#endif

#endif
