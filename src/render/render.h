/* SPDX-License-Identifier: Apache-2.0 */
/* render.h - the model -> view model -> Mustache templates -> a page.
 *
 * The view model is the model (docs/model.md) with render-ready fields added
 * (docs/themes.md lists them): HTML descriptions, defaults as YAML,
 * constraints in words, anchors, entries flattened by section, Markdown
 * table cells. Templates come from a data directory found at run time
 * ($SCHEMADOC_DATA, the executable's directory and its parent, the current
 * directory) or, failing that, from copies embedded in the binary. */
#ifndef SD_RENDER_H
#define SD_RENDER_H

#include "buf.h"
#include "diag.h"
#include "mustache.h"

#include "val.h"
#include <stddef.h>

/* ---- the output formats (outfmt.def: one row each) ------------------------ */

/* SD_OUT_<id>: a row's index in sd_outfmts (SD_OUT_COUNT: how many). */
enum sd_outfmt_id {
#define SD_OUTFMT(id, name, ext, make, top, markup, escape, flags) SD_OUT_##id,
#include "outfmt.def"
#undef SD_OUTFMT
    SD_OUT_COUNT
};
/* How a format's page is made (the `make` column). */
enum sd_outfmt_make { SD_MAKE_MODEL, SD_MAKE_DOC, SD_MAKE_PAGE, SD_MAKE_MARKDOWN, SD_MAKE_FORM };
/* What the view writes descriptions and cells in (`markup`); sd_render_view(). */
enum sd_markup { SD_MARKUP_NONE, SD_MARKUP_HTML, SD_MARKUP_MD, SD_MARKUP_ADOC };
/* What applies to a format (`flags`). */
enum sd_outfmt_flags {
    SD_OUTFMT_THEMED = 1 << 0,
    SD_OUTFMT_README = 1 << 1,
    SD_OUTFMT_SOURCE_URL = 1 << 2,
    SD_OUTFMT_REFERENCE = 1 << 3,
    SD_OUTFMT_SCRIPT = 1 << 4,
    SD_OUTFMT_LAZY_ROWS = 1 << 5
};
/* One output format. Static data: every pointer is a literal or a function. */
typedef struct sd_outfmt {
    const char *name;              /* --format NAME */
    const char *ext;               /* ".html" */
    int         make;              /* enum sd_outfmt_make */
    const char *top;               /* the top-level template, or NULL */
    int         markup;            /* enum sd_markup */
    sd_mustache_escape_fn escape;  /* {{x}}'s escaping, or NULL for HTML's */
    unsigned    flags;             /* enum sd_outfmt_flags */
} sd_outfmt;

/** The table, indexed by enum sd_outfmt_id, in outfmt.def's order (static). */
extern const sd_outfmt sd_outfmts[SD_OUT_COUNT];
/** The row named `name`, or NULL (borrowed: static). A template name that
 *  is no row's ("diff/html", a --template page) is NULL too. */
const sd_outfmt *sd_outfmt_find(const char *name);

typedef struct sd_render_opts {
    const char *format;        /* a row's name (sd_outfmts), or a top-level
                                  template's ("diff/html"); NULL: "html" */
    const char *theme;         /* a theme NAME or a DIRectory; NULL: "default" */
    const char *template_file; /* a custom top-level template, or NULL */
    const char *source_url;    /* http(s) URL of the chart's folder: each
                                  location links to URL/FILE#LLINE; or NULL */
    const char *reference_url; /* form: the html reference page (URL or relative
                                  path, no fragment): each field links to
                                  URL#ANCHOR, the page's anchor of its key; or NULL */
} sd_render_opts;

/** Add the view-model fields to `model` in place (it stays a valid model:
 *  fields are only added). `markup` (enum sd_markup) selects what
 *  descriptions and cells are written in: HTML descriptions, Markdown
 *  cells and tables, or AsciiDoc constraint words. `model` stays the
 *  caller's (borrowed); the added values are owned by it. Returns 0 or
 *  SD_ENOMEM. */
int sd_render_view(sd_val *model, int markup);

/** Render `model` (view fields are added to it) in `opts->format` and append
 *  the page to `out`. `out` and `model` are the caller's (borrowed; the
 *  caller releases them); `opts` is only read. Returns 0, or a negative code with a diagnostic:
 *  SD_ENOTFOUND (unknown theme or template), SD_ESYNTAX (a template does
 *  not compile), SD_ELIMIT, SD_ENOMEM. */
int sd_render(sd_buf *out, sd_val *model, const sd_render_opts *opts, sd_diags *diags);

/** What a Markdown page is written into (md_page.c): all NULL for the page
 *  alone. */
typedef struct sd_render_md_opts {
    const char *readme;             /* --readme FILE, or NULL */
    const char *output;             /* -o FILE, or NULL */
    const char *gotmpl;             /* --gotmpl FILE, or NULL (then CHART/README.md.gotmpl) */
    const char *helm_docs_version;  /* --helm-docs-version V, or NULL */
} sd_render_md_opts;
/** The bytes `schemadoc SOURCE --format md` writes, into `out`: the chart's
 *  helm-docs template run (README.md.gotmpl or o->gotmpl) when there is
 *  one, else the Markdown page; with o->readme, the whole new README (the
 *  page between the schemadoc markers, or the Parameters section replaced,
 *  or refused with SD_ENOTFOUND naming the markers). `out`, `model`, `ro`
 *  and `o` are borrowed (the caller's; `model` gains view fields). Returns
 *  0 or a negative code with a diagnostic. */
int sd_render_markdown(sd_buf *out, sd_val *model, const sd_render_opts *ro,
                       const sd_render_md_opts *o, sd_diags *diags);
/** When `source` is a chart directory: o->readme, o->gotmpl and o->output
 *  that lie inside it as written must resolve inside it (a chart can ship
 *  README.md as a link to ~/.ssh/id_rsa: --check would print it, a write
 *  would copy it); one that leads out is refused (SD_EDENIED with a
 *  diagnostic), one that leads through a link inside the chart is replaced
 *  by the file it resolves to. held[0..2] receive the new strings (the
 *  caller frees them, also on failure). Returns 0 or a negative code. */
int sd_render_md_confine(sd_render_md_opts *o, const char *source, char **held, sd_diags *diags);

/** Whether `schemadoc CHART --format md` (with `ro` and `o`) may read the
 *  schema: 0 only when it runs a helm-docs template (the chart's
 *  README.md.gotmpl in `chart_dir`, or o->gotmpl) that never reads the
 *  values table (sd_helmdocs_reads_values()), so its model can be built
 *  without following remote $refs; 1 otherwise (`chart_dir` NULL: not a
 *  chart). Reads its arguments only; allocates nothing the caller keeps. */
int sd_render_md_reads_schema(const char *chart_dir, const sd_render_opts *ro, const sd_render_md_opts *o);

/** sd_render() in steps, so that a caller can ask what the templates read
 *  before it builds the model (the CLI skips a chart's "rows" for a page
 *  that never reads them: sd_model_opts.skip_rows).
 *  sd_templates_open() finds and compiles the templates for `opts` (which,
 *  with its strings, must outlive the page): 0 with *out to free with
 *  sd_templates_free(), or sd_render()'s errors with *out NULL.
 *  sd_templates_reads() is sd_mustache_may_read() over the page's
 *  templates: 1 when a render may read the model's top-level member `name`.
 *  sd_templates_render() is sd_render() with the page's templates (`out` and
 *  `model` borrowed, as sd_render()). sd_templates_free() frees the page
 *  and its compiled templates; NULL is allowed. */
typedef struct sd_templates sd_templates;
int sd_templates_open(sd_templates **out, const sd_render_opts *opts, sd_diags *diags);
int sd_templates_reads(const sd_templates *pg, const char *name);
int sd_templates_render(sd_buf *out, sd_templates *pg, sd_val *model, sd_diags *diags);
void sd_templates_free(sd_templates *pg);

/** Render any JSON `data` as given (no view fields are added) with the
 *  top-level template named `opts->format` ("diff/html": templates/diff/
 *  html.mustache), the theme's partials (html/style, html/script) and the
 *  other templates available as partials. `out` and `data` are borrowed
 *  (`data` is only read). Same returns as sd_render(). */
int sd_render_data(sd_buf *out, sd_val *data, const sd_render_opts *opts, sd_diags *diags);

/** A diff of two models (src/diff) as `format`: "json", "md", or "html"
 *  (the view fields are added to `diff`, then templates/diff/html with
 *  `theme`, NULL: default). Appends to `out`; same returns as sd_render(),
 *  SD_EUSAGE for another format. `generator` names the tool in the page.
 *  `out` and `diff` are borrowed (`diff` gains the view fields). */
int sd_render_diff(sd_buf *out, sd_val *diff, const char *format, const char *theme,
                   const char *generator, sd_diags *diags);

/** The index page of a charts repository (`schemadoc --recursive DIR -o
 *  SITE/`, site_index.c): `charts` is a list of objects, one per chart,
 *  with "path" (below DIR), and where known "name", "version",
 *  "description", "href" (its page, relative to the index: percent-encoded
 *  here), "deprecated", "linked" (its page was made) and "failed" (true
 *  values). The view's fields are added to each ("title", "md_title",
 *  "md_version", "md_description"), then templates/index/html or index/md
 *  (`format` "html" or "md") of `theme` (NULL: default) renders them;
 *  `generator` names the tool in the page. Appends to `out`; same returns as
 *  sd_render(), SD_EUSAGE for another format. `out` and `charts` are
 *  borrowed (`charts` gains the view fields). */
int sd_render_index(sd_buf *out, sd_val *charts, const char *format, const char *theme,
                    const char *generator, sd_diags *diags);

typedef struct sd_source sd_source;

/** The interactive form of `model` (docs/form.md): the "form" template of
 *  `opts->theme` with the page data (slim model, defaults, the rules of
 *  `src` as `schemadoc rules` writes them) and the bundled script inlined
 *  under a hash-based CSP. Appends the page to `out`; `model` is only read
 *  and `src` only queried (both borrowed, the caller's).
 *  Returns 0 or a negative code with a diagnostic (as sd_render, or a
 *  schema that does not compile). */
int sd_render_form(sd_buf *out, sd_val *model, sd_source *src, const sd_render_opts *opts, sd_diags *diags);

/** The templates and themes compiled into the binary (src/embed-assets.sh
 *  generates the table from templates/ and themes/). Names are paths
 *  relative to the repository: "templates/html.mustache". */
typedef struct sd_asset {
    const char          *name;
    const unsigned char *data;
    size_t               len;
} sd_asset;
extern const sd_asset sd_assets[];
extern const size_t   sd_assets_count;

#endif
