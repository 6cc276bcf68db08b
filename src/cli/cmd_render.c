/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_render.c - `schemadoc SOURCE [--format FMT] [-o FILE]`: parse the
 * arguments, open the source, build the model, write it in the chosen
 * format (or splice it into a README). */
#include "cli.h"
#include "annot.h"
#include "file.h"
#include "buf.h"
#include "model.h"
#include "out.h"
#include "readme.h"
#include "render.h"
#include "sd.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* --reference: an http(s) URL, or a relative path (a scheme such as
 * `javascript:` or `file:` is refused: no ':' before the first '/'), with no
 * fragment (the form appends #ANCHOR), no whitespace or markup characters. */
static int valid_reference(const char *u)
{
    const char *slash = strchr(u, '/'), *colon = strchr(u, ':');

    if (!*u || strchr(u, '#'))
        return 0;
    if (colon && (!slash || colon < slash))
        return sd_cli_valid_url(u);
    for (; *u; u++)
        if ((unsigned char)*u <= ' ' || *u == 0x7f || *u == '"' || *u == '<' || *u == '>' || *u == '\\')
            return 0;
    return 1;
}

/* Read a whole file into `out`. A missing file is empty when `missing_ok`
 * (missing: no such file; anything else there that cannot be read fails). */
static int slurp(sd_buf *out, const char *path, int missing_ok, sd_diags *diags)
{
    if (missing_ok && !sd_file_present(path))
        return 0;
    return sd_file_read_buf(out, path, SD_FILE_MAX, 0, diags);
}

/* Write `data` to `target` unless it already holds exactly that; with
 * `check`, print a diff instead and return 1 when the file is stale. */
static int update_file(const char *target, const char *data, size_t len, int check, sd_diags *diags)
{
    sd_buf old = SD_BUF_INIT, diff = SD_BUF_INIT;
    int r = 0;

    if ((r = slurp(&old, target, 1, diags)) < 0)
        goto done;
    if (old.len == len && memcmp(old.ptr, data, len) == 0) {
        r = 0;
    } else if (check) {
        sd_readme_diff(&diff, old.ptr, old.len, data, len, target);
        fwrite(diff.ptr, 1, diff.len, stdout);
        fflush(stdout);
        r = 1;
    } else {
        r = sd_out_write(target, data, len, diags);
    }
done:
    sd_buf_release(&old);
    sd_buf_release(&diff);
    return r;
}

/* The page's buffer failed: memory, or writing its text ahead (the
 * stream's commit says why, and gives the stream up). */
static void buf_failure(sd_buf *out, sd_out **stream, sd_diags *diags)
{
    if (sd_buf_error(out) == SD_EIO && *stream) {
        (void)sd_out_commit(*stream, "", 0, diags);
        *stream = NULL;
    } else {
        sd_diag_error(diags, sd_buf_failed(out) ? sd_buf_error(out) : SD_ENOMEM, (sd_loc){ NULL, 0, 0 },
                      "out of memory");
    }
}

/* A chart without values.yaml, schema or subcharts has no keys: an empty
 * page with exit 0 would look like a success. Returns 1 (an error in
 * `diags`) for such a chart, else 0. */
static int nothing_to_document(const sd_source *src, sd_diags *diags)
{
    const sd_chart *c = sd_source_chart(src);
    if (!c || c->values || c->schema || c->nsubcharts)
        return 0;
    sd_diag_error(diags, SD_ENOTFOUND, (sd_loc){ c->dir, 0, 0 },
                  "the chart has no values.yaml (and no values.schema.json): there are no keys "
                  "to document");
    return 1;
}

/* One page to make: what sd_cmd_render() read from argv. */
/* A chart's README is refused when its dialect's tool would refuse it
 * (the dialect's check: readme-generator's when a value has no `## @param`
 * or a `@param` names no value), with errors in `diags` (warnings, and 0,
 * when `lenient`). Returns 1 when refused. */
static int metadata_inconsistent(sd_source *src, int lenient, sd_diags *diags)
{
    const sd_chart *c = sd_source_chart(src);
    const sd_dialect *d = c ? sd_source_dialect(src, c) : NULL;
    sd_annots an;
    int r = 0;

    if (!c || !c->values || !d->check)
        return 0;
    if (sd_annots_scan(&an, c->values, d, diags) == 0)
        r = d->check(c->values, &an, lenient, diags);
    sd_annots_release(&an);
    if (r == SD_ENOMEM)
        sd_diag_error(diags, SD_ENOMEM, (sd_loc){ c->dir, 0, 0 }, "out of memory");
    return r != 0;
}

typedef struct page_job {
    const char       *source;
    const sd_outfmt  *format;   /* the row of --format */
    const char       *output, *readme;
    int               check;
    sd_render_opts    ro;
    sd_render_md_opts md;
    sd_source_opts    sopts;
    sd_model_opts     mopts;
} page_job;

/* The page of pj->source in pj->format, appended to `out` (which writes
 * ahead to `*stream` when there is one). Returns the exit status. */
static int make_page(sd_buf *out, sd_out **stream, page_job *pj, sd_diags *diags)
{
    const sd_outfmt *format = pj->format;
    sd_source *src = NULL;
    sd_val *m = NULL;
    sd_templates *page = NULL;   /* html: the templates, compiled before the model */
    int status = SD_EXIT_OK;

    if (format->make == SD_MAKE_DOC) {
        if (sd_source_dump(out, pj->source, diags) < 0 || sd_buf_failed(out)) {
            if (sd_buf_failed(out))
                buf_failure(out, stream, diags);
            return SD_EXIT_ERROR;
        }
        return SD_EXIT_OK;
    }
    /* a helm-docs template that never reads the values table needs no
     * schema: remote $refs are not followed (no network, no cache
     * needed), and what does not resolve is nobody's concern */
    int lazy = format->make == SD_MAKE_MARKDOWN && sd_chart_is_dir(pj->source) &&
               !sd_render_md_reads_schema(pj->source, &pj->ro, &pj->md);
    int lenient = pj->sopts.lenient;
    /* the form: a typed key's Kubernetes fields are its fields */
    pj->sopts.k8s_bundle = format->make == SD_MAKE_FORM;
    if (lazy) {
        pj->sopts.offline = 1;
        pj->sopts.lenient = 1;
        pj->mopts.skip_rows = 1;
    }
    /* a README readme-generator would refuse is refused before the model
     * is built (the check's messages are all there is to say) */
    if (sd_source_open(&src, pj->source, &pj->sopts, diags) == 0 && !nothing_to_document(src, diags) &&
        !(pj->readme && metadata_inconsistent(src, lenient, diags))) {
        /* a chart's rows (the md table) cost a tenth of an html page or
         * a form: build them only when the templates may read them (the
         * model keeps them for @section names either way: the entries
         * are grouped by them). A theme that does not load is reported
         * by sd_render() as before. */
        if ((format->flags & SD_OUTFMT_LAZY_ROWS) && sd_source_kind(src) == SD_SOURCE_CHART) {
            sd_diags scratch = SD_DIAGS_INIT;
            if (sd_templates_open(&page, &pj->ro, &scratch) == 0 && scratch.count == 0) {
                pj->mopts.skip_rows = !sd_templates_reads(page, "rows");
            } else {
                sd_templates_free(page);
                page = NULL;
            }
            sd_diags_release(&scratch);
        }
        if (lazy) {
            sd_diags quiet = SD_DIAGS_INIT;
            m = sd_model_build(src, &pj->mopts, &quiet);
            for (size_t k = 0; k < quiet.count; k++)   /* errors only: the refs' warnings are moot */
                if (quiet.items[k].severity == SD_SEV_ERROR)
                    sd_diag_add(diags, SD_SEV_ERROR, quiet.items[k].code, quiet.items[k].loc,
                                quiet.items[k].schema_ptr, quiet.items[k].instance_ptr, "%s",
                                quiet.items[k].message ? quiet.items[k].message : "out of memory");
            sd_diags_release(&quiet);
        } else {
            m = sd_model_build(src, &pj->mopts, diags);
        }
    }
    if (m && format->make != SD_MAKE_FORM) {
        /* only the form reads the source again: give its documents
         * back before the page is built (a lower peak) */
        sd_source_free(src);
        src = NULL;
    }
    if (!m) {
        status = SD_EXIT_ERROR;
    } else if (format->make == SD_MAKE_MODEL) {
        if (sd_model_write_json(out, m) < 0) {
            buf_failure(out, stream, diags);
            status = SD_EXIT_ERROR;
        }
    } else if ((format->make == SD_MAKE_MARKDOWN ? sd_render_markdown(out, m, &pj->ro, &pj->md, diags)
                : format->make == SD_MAKE_FORM   ? sd_render_form(out, m, src, &pj->ro, diags)
                : page                           ? sd_templates_render(out, page, m, diags)
                                                 : sd_render(out, m, &pj->ro, diags)) < 0) {
        status = SD_EXIT_ERROR;
    } else if (sd_buf_failed(out)) {
        buf_failure(out, stream, diags);
        status = SD_EXIT_ERROR;
    }
    /* the process ends soon: the model's pages (and the form's source) go
     * back at once, unless they must be freed (sd_cli_skip_free) */
    if (!m || !sd_cli_skip_free()) {
        sd_val_decref(m);
        sd_source_free(src);
    }
    sd_templates_free(page);
    return status;
}

/* Write the page: the README it rewrites, the file --check compares, or
 * the output stream. Returns the exit status. */
static int deliver(sd_buf *out, sd_out **stream, const page_job *pj, sd_diags *diags)
{
    int r;
    if (pj->readme) {
        /* sd_render_markdown made the whole new README */
        if ((r = update_file(pj->readme, out->ptr, out->len, pj->check, diags)) < 0)
            return SD_EXIT_ERROR;
        return r > 0 ? SD_EXIT_FOUND_WANTING : SD_EXIT_OK;
    }
    if (pj->check) {
        if ((r = update_file(pj->output, out->ptr, out->len, 1, diags)) < 0)
            return SD_EXIT_ERROR;
        return r > 0 ? SD_EXIT_FOUND_WANTING : SD_EXIT_OK;
    }
    r = sd_out_commit(*stream, out->ptr, out->len, diags);
    *stream = NULL;
    return r < 0 ? SD_EXIT_ERROR : SD_EXIT_OK;
}

/* Make and write the page of `pj`: the exit status. */
static int run(page_job *pj)
{
    sd_diags diags = SD_DIAGS_INIT;
    sd_buf out = SD_BUF_INIT;
    sd_out *stream = NULL;  /* the page goes to a temporary file as it is made */
    int status;

    /* a README update and --check compare the whole text with the file's */
    if (!pj->readme && !pj->check) {
        if (sd_out_open(&stream, pj->output, &diags) < 0) {
            sd_cli_print_diags(&diags);
            sd_diags_release(&diags);
            return SD_EXIT_ERROR;
        }
        out.spill = sd_out_spill;
        out.spill_ctx = stream;
    }
    if ((status = make_page(&out, &stream, pj, &diags)) == SD_EXIT_OK)
        status = deliver(&out, &stream, pj, &diags);
    if (stream && sd_buf_error(&out) == SD_EIO)
        buf_failure(&out, &stream, &diags);   /* a stage stopped at the failed write: say why */
    sd_out_discard(stream);   /* a failed run: no output at all */
    sd_cli_print_diags(&diags);
    sd_diags_release(&diags);
    sd_buf_release(&out);
    return status;
}

/* The names of the formats whose flags include `flags` (all: 0), as
 * "json, doc, html" or with `and` as "html, md and form", for messages: a
 * static buffer, valid until the next call. */
static const char *names(unsigned flags, int and)
{
    static char text[256];
    size_t n = 0, k = 0;

    for (size_t i = 0; i < SD_OUT_COUNT; i++)
        n += (sd_outfmts[i].flags & flags) == flags;
    text[0] = '\0';
    for (size_t i = 0; i < SD_OUT_COUNT; i++) {
        if ((sd_outfmts[i].flags & flags) != flags)
            continue;
        if (k++)
            strncat(text, and && k == n ? " and " : ", ", sizeof text - strlen(text) - 1);
        strncat(text, sd_outfmts[i].name, sizeof text - strlen(text) - 1);
    }
    return text;
}

int sd_cmd_render(int argc, char **argv)
{
    const char *source = NULL, *format = NULL, *output = NULL, *v;
    const sd_outfmt *fmt;
    sd_render_opts ro = { NULL, NULL, NULL, NULL, NULL };
    const char *readme = NULL;
    sd_render_md_opts md = { NULL, NULL, NULL, NULL };
    int check = 0;
    int i, r;
    sd_source_opts sopts;
    char *held[3] = { NULL, NULL, NULL };   /* the paths sd_render_md_confine resolved */
    sd_model_opts mopts;

    memset(&sopts, 0, sizeof sopts);
    memset(&mopts, 0, sizeof mopts);

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((r = sd_cli_source_opt(argc, argv, &i, &sopts)) != 0) {
            if (r < 0) {
                free((void *)sopts.maps);
                return SD_EXIT_ERROR;
            }
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--format", &v)) != 0) {
            if (r < 0)
                return sd_cli_usage_error("option '--format' needs a value: %s", names(0, 0));
            format = v;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--output", &v)) != 0 ||
                   (r = sd_cli_opt_value(argc, argv, &i, "-o", &v)) != 0) {
            if (r < 0)
                return sd_cli_usage_error("option '%s' needs a file name", a);
            output = v;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--theme", &v)) != 0) {
            if (r < 0)
                return sd_cli_usage_error("option '--theme' needs a theme name or directory");
            ro.theme = v;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--template", &v)) != 0) {
            if (r < 0)
                return sd_cli_usage_error("option '--template' needs a file name");
            ro.template_file = v;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--readme", &v)) != 0) {
            if (r < 0)
                return sd_cli_usage_error("option '--readme' needs a file name");
            readme = v;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--gotmpl", &v)) != 0) {
            if (r < 0)
                return sd_cli_usage_error("option '--gotmpl' needs a file name");
            md.gotmpl = v;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--helm-docs-version", &v)) != 0) {
            if (r < 0)
                return sd_cli_usage_error("option '--helm-docs-version' needs a version");
            md.helm_docs_version = v;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--source-url", &v)) != 0) {
            if (r < 0 || !sd_cli_valid_url(v))
                return sd_cli_usage_error("option '--source-url' takes an http(s) URL");
            ro.source_url = v;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--reference", &v)) != 0) {
            if (r < 0 || !valid_reference(v))
                return sd_cli_usage_error("option '--reference' takes an http(s) URL or a relative path "
                                          "(no fragment, no other scheme)");
            ro.reference_url = v;
        } else if (strcmp(a, "--check") == 0) {
            check = 1;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--descriptions", &v)) != 0) {
            /* comments: the rows helm-docs prints, byte for byte */
            if (r < 0 || (strcmp(v, "comments") && strcmp(v, "schema")))
                return sd_cli_usage_error("option '--descriptions' needs one of: comments, schema");
            mopts.descriptions = strcmp(v, "comments") ? SD_MODEL_DESC_FALLBACK : SD_MODEL_DESC_COMMENTS;
        } else if (a[0] == '-' && a[1] != '\0') {
            return sd_cli_unknown_option(a, SD_CMD_RENDER, NULL);
        } else if (!source) {
            source = a;
        } else {
            return sd_cli_usage_error("more than one SOURCE given ('%s' and '%s')", source, a);
        }
    }
    if (!source)
        return sd_cli_usage_error("no SOURCE given");
    if (!format)
        format = readme || md.gotmpl ? names(SD_OUTFMT_README, 0) : "json";
    if (!(fmt = sd_outfmt_find(format)))
        return sd_cli_usage_error("unknown format '%s'; valid formats: %s", format, names(0, 0));
    format = fmt->name;   /* (a name names() gave is overwritten by its next call) */
    if (readme && !(fmt->flags & SD_OUTFMT_README))
        return sd_cli_usage_error("'--readme' takes Markdown: use '--format %s' (or no --format)",
                                  names(SD_OUTFMT_README, 0));
    if (readme && output)
        return sd_cli_usage_error("'--readme' and '-o' both name the output; give one");
    if (check && !readme && (!output || strcmp(output, "-") == 0))
        return sd_cli_usage_error("'--check' needs the file to compare: '--readme FILE' or '-o FILE'");
    if (ro.source_url && !(fmt->flags & SD_OUTFMT_SOURCE_URL))
        return sd_cli_usage_error("'--source-url' applies to the %s format", names(SD_OUTFMT_SOURCE_URL, 1));
    if (ro.reference_url && !(fmt->flags & SD_OUTFMT_REFERENCE))
        return sd_cli_usage_error("'--reference' applies to the %s format", names(SD_OUTFMT_REFERENCE, 1));
    if ((ro.theme || ro.template_file) && !(fmt->flags & SD_OUTFMT_THEMED))
        return sd_cli_usage_error("'--theme' and '--template' apply to the %s formats", names(SD_OUTFMT_THEMED, 1));
    if ((md.gotmpl || md.helm_docs_version) && !(fmt->flags & SD_OUTFMT_README))
        return sd_cli_usage_error("'--gotmpl' and '--helm-docs-version' apply to the %s format",
                                  names(SD_OUTFMT_README, 1));
    if (md.gotmpl && (ro.theme || ro.template_file))
        return sd_cli_usage_error("'--gotmpl' and '--theme'/'--template' choose different templates; give one");
    md.readme = readme;
    md.output = output;
    ro.format = format;
    /* a README, template or output inside the chart stays inside it */
    sd_diags diags = SD_DIAGS_INIT;
    if (sd_render_md_confine(&md, source, held, &diags) < 0) {
        sd_cli_print_diags(&diags);
        sd_diags_release(&diags);
        for (i = 0; i < 3; i++)
            free(held[i]);
        free((void *)sopts.maps);
        return SD_EXIT_ERROR;
    }
    sd_diags_release(&diags);
    readme = md.readme;
    output = md.output;
    {
        page_job pj = { source, fmt, output, readme, check, ro, md, sopts, mopts };
        int status = run(&pj);
        for (i = 0; i < 3; i++)
            free(held[i]);
        free((void *)sopts.maps);
        return status;
    }
}
