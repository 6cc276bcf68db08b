/* SPDX-License-Identifier: Apache-2.0 */
/* api.c - the public entry points of schemadoc.h, over the stages: options
 * become source options, results become strings the caller frees, and
 * diagnostics are read through accessors. Nothing here prints. */
#include "schemadoc.h"
#include "buf.h"
#include "check.h"
#include "diag.h"
#include "diff.h"
#include "model.h"
#include "node.h"
#include "render.h"
#include "source.h"

#include <stdlib.h>
#include <string.h>

void schemadoc_free(void *p)
{
    free(p);
}

/* ---- diagnostics ---------------------------------------------------------- */

sd_diags *schemadoc_diags_new(void)
{
    return calloc(1, sizeof(sd_diags));
}

void schemadoc_diags_free(sd_diags *d)
{
    if (!d)
        return;
    sd_diags_release(d);
    free(d);
}

size_t schemadoc_diags_count(const sd_diags *d) { return d->count; }
size_t schemadoc_diags_errors(const sd_diags *d) { return d->errors; }

static const sd_diag *at(const sd_diags *d, size_t i)
{
    return i < d->count ? &d->items[i] : NULL;
}

int schemadoc_diags_severity(const sd_diags *d, size_t i) { return at(d, i) ? at(d, i)->severity : SD_SEV_ERROR; }
int schemadoc_diags_code(const sd_diags *d, size_t i) { return at(d, i) ? at(d, i)->code : SD_ERROR; }
const char *schemadoc_diags_message(const sd_diags *d, size_t i) { return at(d, i) ? at(d, i)->message : NULL; }
const char *schemadoc_diags_file(const sd_diags *d, size_t i) { return at(d, i) ? at(d, i)->loc.file : NULL; }
int schemadoc_diags_line(const sd_diags *d, size_t i) { return at(d, i) ? at(d, i)->loc.line : 0; }
int schemadoc_diags_column(const sd_diags *d, size_t i) { return at(d, i) ? at(d, i)->loc.column : 0; }
int schemadoc_diags_end_line(const sd_diags *d, size_t i) { return at(d, i) ? at(d, i)->end_line : 0; }
int schemadoc_diags_end_column(const sd_diags *d, size_t i) { return at(d, i) ? at(d, i)->end_column : 0; }
const char *schemadoc_diags_schema_ptr(const sd_diags *d, size_t i) { return at(d, i) ? at(d, i)->schema_ptr : NULL; }
const char *schemadoc_diags_instance_ptr(const sd_diags *d, size_t i) { return at(d, i) ? at(d, i)->instance_ptr : NULL; }

char *schemadoc_diags_text(const sd_diags *d, size_t i)
{
    return at(d, i) ? sd_diag_format(at(d, i)) : NULL;
}

/* The code of the first error recorded since `mark`, for a failure whose
 * own code was lost on the way (a NULL model). */
static int first_error(const sd_diags *d, size_t mark)
{
    for (size_t i = mark; i < d->count; i++)
        if (d->items[i].severity == SD_SEV_ERROR && d->items[i].code < 0)
            return d->items[i].code;
    return SD_ERROR;
}

/* Hand `b` over as a malloc'd string. */
static int give(char **out, size_t *len, sd_buf *b, sd_diags *d)
{
    if (sd_buf_failed(b)) {
        sd_buf_release(b);
        return sd_diag_error(d, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
    }
    if (len)
        *len = b->len;
    *out = sd_buf_detach(b);
    return 0;
}

/* ---- options and sources ---------------------------------------------------- */

void schemadoc_options_init(schemadoc_options *o)
{
    memset(o, 0, sizeof *o);
    o->version = SD_OPTIONS_VERSION;
}

int schemadoc_open(sd_source **out, const char *path, const schemadoc_options *o, sd_diags *d)
{
    sd_source_opts so;

    /* jansson's allocator is the host's (json_set_alloc_funcs is global):
     * the library never installs its own; only the CLI's main does */
    *out = NULL;
    sd_load_budget_reset(0);   /* a run starts here: its own alias budget */
    memset(&so, 0, sizeof so);
    if (o && o->version >= 1) {
        so.draft = o->force_draft ? o->force_draft : o->draft;
        so.lenient = o->lenient;
        so.maps = o->maps;
        so.nmaps = o->nmaps;
        so.offline = o->offline;
        so.refresh = o->refresh;
        so.cache_dir = o->cache_dir;
        so.timeout_ms = o->timeout_ms;
    }
    return sd_source_open(out, path, &so, d);
}

void schemadoc_close(sd_source *src)
{
    sd_source_free(src);
}

/* ---- outputs ------------------------------------------------------------- */

int schemadoc_model_json(char **out, size_t *len, sd_source *src, sd_diags *d)
{
    size_t mark = d->count;
    sd_buf b = SD_BUF_INIT;
    sd_val *m;
    int err;

    *out = NULL;
    if (!(m = sd_model_build(src, NULL, d)))
        return first_error(d, mark);
    err = sd_model_write_json(&b, m);
    sd_val_decref(m);
    if (err < 0) {
        sd_buf_release(&b);
        return sd_diag_error(d, err, (sd_loc){ NULL, 0, 0 }, "out of memory");
    }
    return give(out, len, &b, d);
}

int schemadoc_render_page(char **out, size_t *len, sd_source *src, const char *format,
                   const schemadoc_options *o, sd_diags *d)
{
    size_t mark = d->count;
    sd_render_opts ro = { format, NULL, NULL, NULL, NULL };
    sd_buf b = SD_BUF_INIT;
    sd_val *m;
    int err;

    const sd_outfmt *f = sd_outfmt_find(format);
    *out = NULL;
    if (!f || (f->make != SD_MAKE_PAGE && f->make != SD_MAKE_MARKDOWN))
        return sd_diag_error(d, SD_EUSAGE, (sd_loc){ NULL, 0, 0 },
                             "unknown page format '%s' (html, md or adoc)", format ? format : "(null)");
    if (o && o->version >= 1) {
        ro.theme = o->theme;
        ro.template_file = o->template_file;
    }
    if (!(m = sd_model_build(src, NULL, d)))
        return first_error(d, mark);
    if (f->make == SD_MAKE_MARKDOWN) {
        /* as `schemadoc SOURCE --format md`: a chart's README.md.gotmpl
         * when it has one (render.h) */
        sd_render_md_opts mo = { NULL, NULL, NULL, NULL };
        err = sd_render_markdown(&b, m, &ro, &mo, d);
    } else {
        err = sd_render(&b, m, &ro, d);
    }
    sd_val_decref(m);
    if (err < 0) {
        sd_buf_release(&b);
        return err;
    }
    return give(out, len, &b, d);
}

/* a run of the check with `co` (the options of `o` added) */
static int validate(char **out_json, size_t *len, sd_source *src, const char *const *files, size_t nfiles,
                    sd_check_opts *co, const schemadoc_options *o, sd_diags *d)
{
    sd_check *chk = NULL;
    sd_buf b = SD_BUF_INIT;
    int err, status;

    if (out_json)
        *out_json = NULL;
    if (o && o->version >= 1) {
        co->draft = o->force_draft;
        co->formats = o->formats == 1 ? SD_FORMATS_ASSERT : o->formats == 2 ? SD_FORMATS_IGNORE
                                                                           : SD_FORMATS_DEFAULT;
    }
    if ((err = sd_check_run(&chk, src, files, nfiles, co, d)) < 0) {
        if (out_json) {
            sd_check_json_failed(&b, files, nfiles, d);
            give(out_json, len, &b, d);
        }
        return err;
    }
    status = sd_check_status(chk);
    if (out_json)
        sd_check_json(&b, chk, d);
    for (size_t i = 0; i < sd_check_count(chk); i++)
        sd_vresult_to_diags(&sd_check_result_at(chk, i)->res, d);
    sd_check_free(chk);
    if (out_json && (err = give(out_json, len, &b, d)) < 0)
        return err;
    sd_buf_release(&b);
    if (status == 2)
        return first_error(d, 0);
    return status;
}

int schemadoc_validate_files(char **out_json, size_t *len, sd_source *src, const char *const *files,
                      size_t nfiles, const schemadoc_options *o, sd_diags *d)
{
    sd_check_opts co;
    memset(&co, 0, sizeof co);
    return validate(out_json, len, src, files, nfiles, &co, o, d);
}

int schemadoc_validate_text(char **out_json, size_t *len, sd_source *src, const char *name, const char *text,
                            size_t text_len, unsigned flags, const schemadoc_options *o, sd_diags *d)
{
    sd_check_opts co;
    if (out_json)
        *out_json = NULL;
    if (!name || !text)
        return sd_diag_error(d, SD_EUSAGE, (sd_loc){ NULL, 0, 0 }, "schemadoc_validate_text: no name or no text");
    memset(&co, 0, sizeof co);
    co.mem_name = name;
    co.mem_text = text;
    co.mem_len = text_len;
    co.mem_defaults = (flags & SD_TEXT_DEFAULTS) != 0;
    sd_load_budget_reset(0);   /* each text its own alias budget, however many are checked */
    return validate(out_json, len, src, &name, 1, &co, o, d);
}

int schemadoc_diff_sources(char **out, size_t *len, sd_source *old_src, sd_source *new_src,
                    const char *format, unsigned flags, const schemadoc_options *o, sd_diags *d)
{
    size_t mark = d->count;
    sd_diff_opts dopts = { (flags & SD_DIFF_DESCRIPTIONS) != 0 };
    sd_buf b = SD_BUF_INIT;
    sd_val *om = NULL, *nm = NULL, *diff = NULL;
    int err = 0;

    *out = NULL;
    if (!format || (strcmp(format, "json") && strcmp(format, "md") && strcmp(format, "html")))
        return sd_diag_error(d, SD_EUSAGE, (sd_loc){ NULL, 0, 0 },
                             "unknown diff format '%s' (json, md or html)", format ? format : "(null)");
    if (sd_source_kind(old_src) != sd_source_kind(new_src))
        return sd_diag_error(d, SD_EUSAGE, (sd_loc){ sd_source_path(new_src), 0, 0 },
                             "diff: OLD and NEW are different kinds of source");
    if (!(om = sd_model_build(old_src, NULL, d)) || !(nm = sd_model_build(new_src, NULL, d)) ||
        !(diff = sd_diff_models(om, nm, old_src, new_src, &dopts, d))) {
        err = first_error(d, mark);
        goto done;
    }
    err = sd_render_diff(&b, diff, format, o && o->version >= 1 ? o->theme : NULL,
                         "schemadoc " SD_VERSION, d);
    if (err == SD_ENOMEM)
        sd_diag_error(d, err, (sd_loc){ NULL, 0, 0 }, "out of memory");
    if (err == 0 && (err = give(out, len, &b, d)) == 0)
        err = sd_diff_count(diff) > 0;
done:
    sd_buf_release(&b);
    sd_val_decref(om);
    sd_val_decref(nm);
    sd_val_decref(diff);
    return err;
}
