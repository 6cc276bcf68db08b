/* SPDX-License-Identifier: Apache-2.0 */
/* annot_bitnami.c - read Bitnami readme-generator doc comments (the
 * bitnami row of dialects.def; annot.h says what an annotation holds).
 *
 * readme-generator reads every `## @...` line of the file in order:
 * `## @param path [modifiers] text`, `## @extra`, `## @section`,
 * `## @skip` and `## @descriptionStart` ... `## @descriptionEnd`. A file
 * is written in the dialect when it has one `## @param` line.
 *
 * In: a values document's comments. Out: annotations added to an
 * sd_annots, their strings in its arena. */
#include "annot_int.h"
#include "buf.h"

#include <stdlib.h>
#include <string.h>

int sd_annot__bitnami_detect(const sd_doc *values)
{
    /* a file with both kinds is written in the one it uses more:
     * kube-prometheus-stack has one stray `## @param` among 40 helm-docs
     * `# --` comments, and readme-generator's reading of it would show one
     * description where helm-docs shows 40 */
    size_t params = 0, dashes = 0;
    for (size_t i = 0; i < values->ncomments; i++) {
        const char *t = values->comments[i].text;
        if (t[0] == '#' && sd_annot__starts(sd_annot__skip_ws(t + 1), "@param "))
            params++;
        else if (t[0] == ' ' && t[1] == '-' && t[2] == '-')   /* helm-docs' "# --" */
            dashes++;
    }
    return params > 0 && params >= dashes;
}

/* `## @param path [modifiers] description` and friends, in file order. */
int sd_annot__bitnami_read(sd_annots *a, const sd_doc *doc)
{
    char *section = NULL;
    sd_buf desc = SD_BUF_INIT;
    int in_desc = 0;

    for (size_t i = 0; i < doc->ncomments; i++) {
        const sd_comment *c = &doc->comments[i];
        const char *t = c->text;
        if (t[0] != '#')
            continue; /* Bitnami tags are `## @...` */
        t = sd_annot__skip_ws(t + 1);
        if (in_desc) {
            if (sd_annot__starts(t, "@descriptionEnd")) {
                in_desc = 0;
                a->chart_description = sd_annot__dupn(a, desc.ptr, desc.len);
                sd_buf_clear(&desc);
            } else {
                if (desc.len)
                    sd_buf_putc(&desc, '\n');
                sd_buf_puts(&desc, t);
            }
            continue;
        }
        if (sd_annot__starts(t, "@descriptionStart")) {
            in_desc = 1;
            sd_buf_clear(&desc);
        } else if (sd_annot__starts(t, "@section ")) {
            section = sd_annot__dup0(a, sd_annot__skip_ws(t + 9));
            if (section)
                sd_annot__rtrim(section);
        } else if (sd_annot__starts(t, "@skip ")) {
            const char *p = sd_annot__skip_ws(t + 6), *e = p;
            while (*e && *e != ' ' && *e != '\t')
                e++;
            char **s = realloc(a->skips, (a->nskips + 1) * sizeof *s);
            if (!s)
                return SD_ENOMEM;
            a->skips = s;
            a->skips[a->nskips++] = sd_annot__dupn(a, p, (size_t)(e - p));
        } else if (sd_annot__starts(t, "@param ") || sd_annot__starts(t, "@extra ")) {
            int extra = t[1] == 'e';
            const char *p = sd_annot__skip_ws(t + 7), *e = p;
            while (*e && *e != ' ' && *e != '\t')
                e++;
            sd_annot *r = sd_annot__add(a);
            if (!r)
                return SD_ENOMEM;
            r->path = sd_annot__dupn(a, p, (size_t)(e - p));
            r->described = 1;
            r->extra = (unsigned char)extra;
            r->loc.file = doc->file;
            r->loc.line = c->line;
            r->loc.column = c->column;
            if (section)
                r->section = section;   /* the arena's: shared by the section's params */
            p = sd_annot__skip_ws(e);
            if (*p == '[') {
                const char *close = strchr(p, ']');
                if (close) {
                    r->modifiers = sd_annot__dupn(a, p + 1, (size_t)(close - p - 1));
                    /* modifiers: comma separated; [default: X] may hold commas */
                    char *mods = sd_annot__dupn(a, p + 1, (size_t)(close - p - 1));
                    char *m = mods;
                    while (m && *m) {
                        m = (char *)sd_annot__skip_ws(m);
                        if (sd_annot__starts(m, "default:")) {
                            r->default_text = sd_annot__dup0(a, sd_annot__skip_ws(m + 8));
                            if (r->default_text)
                                sd_annot__rtrim(r->default_text);
                            break;
                        }
                        char *comma = strchr(m, ',');
                        if (comma)
                            *comma = '\0';
                        sd_annot__rtrim(m);
                        if (strcmp(m, "nullable") == 0)
                            r->nullable = 1;
                        else if (!strcmp(m, "array") || !strcmp(m, "object") || !strcmp(m, "string")) {
                            r->type = sd_annot__dup0(a, m);
                        }
                        m = comma ? comma + 1 : NULL;
                    }
                    p = sd_annot__skip_ws(close + 1);
                }
            }
            r->description = sd_annot__dup0(a, p);
            if (r->description)
                sd_annot__rtrim(r->description);
        }
    }
    sd_buf_release(&desc);
    return 0;
}
