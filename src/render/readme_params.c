/* SPDX-License-Identifier: Apache-2.0 */
/* readme_params.c - a README's "## Parameters" section rewritten in place,
 * by Bitnami readme-generator-for-helm's rule (lib/render.js
 * insertReadmeTable, read for its behaviour): the section runs from the line
 * after its heading to the last table-like line before the next heading of
 * the same level; that span and the line after it are replaced by one "###"
 * table per section, padded as the markdown-table package pads them. The
 * file is split on \r?\n and joined with \n, as readme-generator does. */
#include "readme.h"
#include "dialect.h"
#include "helmdocs.h"
#include "render_int.h"
#include "sd.h"

#include <stdlib.h>
#include <string.h>

typedef struct sline { const char *p; size_t n; } sline;

/* Split as JS's split(/\r?\n/): a "\r" right before "\n" is dropped. */
static sline *split(const char *s, size_t len, size_t *count)
{
    size_t n = 1, k = 0, i, st = 0;
    for (i = 0; i < len; i++)
        if (s[i] == '\n')
            n++;
    sline *v = calloc(n, sizeof *v);
    if (!v)
        return NULL;
    for (i = 0; i <= len; i++) {
        if (i == len || s[i] == '\n') {
            size_t e = i;
            if (i < len && e > st && s[e - 1] == '\r')
                e--;
            v[k].p = s + st;
            v[k].n = e - st;
            k++;
            st = i + 1;
        }
    }
    *count = k;
    return v;
}

/* JavaScript's \s at s[i] (ASCII and the Unicode spaces); its byte length or 0. */
static size_t js_space(const char *s, size_t n, size_t i)
{
    const unsigned char *u = (const unsigned char *)s + i;
    size_t left = n - i;
    if (*u == ' ' || (*u >= '\t' && *u <= '\r'))
        return 1;
    if (left >= 2 && u[0] == 0xC2 && u[1] == 0xA0)
        return 2;
    if (left >= 3) {
        unsigned cp = (unsigned)(u[0] & 0x0F) << 12 | (unsigned)(u[1] & 0x3F) << 6 | (u[2] & 0x3F);
        if ((u[0] & 0xF0) == 0xE0 &&
            (cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 ||
             cp == 0x202F || cp == 0x205F || cp == 0x3000 || cp == 0xFEFF))
            return 3;
    }
    return 0;
}

/* /^(##+)\s+Parameters/: the number of '#', or 0. */
static size_t params_heading(const sline *l)
{
    size_t h = 0, i;
    while (h < l->n && l->p[h] == '#')
        h++;
    if (h < 2)
        return 0;
    i = h;
    size_t w = 0;
    while (i < l->n && (w = js_space(l->p, l->n, i)) > 0)
        i += w;
    if (i == h || l->n - i < 10 || memcmp(l->p + i, "Parameters", 10) != 0)
        return 0;
    return h;
}

/* /^#{h}\s/ */
static int same_level(const sline *l, size_t h)
{
    for (size_t i = 0; i < h; i++)
        if (i >= l->n || l->p[i] != '#')
            return 0;
    return h < l->n && js_space(l->p, l->n, h) > 0;
}

/* readme-generator's "last table-like line" test: a non-empty line that
 * does not match /(?!.*\|).*\S(?<!\|.*)(?<!#.*)/, i.e. one that holds a '|',
 * or has no non-space character before its first '#'. */
static int table_like(const sline *l)
{
    if (l->n == 0)
        return 0;
    if (memchr(l->p, '|', l->n))
        return 1;
    for (size_t i = 0; i < l->n; ) {
        size_t w = js_space(l->p, l->n, i);
        if (w) {
            i += w;
            continue;
        }
        return l->p[i] == '#';
    }
    return 1; /* only spaces */
}

/* String.length: UTF-16 code units. */
static size_t js_len(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char u = (unsigned char)s[i];
        if ((u & 0xC0) != 0x80)
            c += u >= 0xF0 ? 2 : 1;
    }
    return c;
}

/* markdown-table v3 with its defaults: every cell padded to its column's width. */
static void md_table(sd_buf *out, char ***cells, size_t rows)
{
    size_t w[3] = { 0, 0, 0 };
    for (size_t r = 0; r < rows; r++)
        for (int c = 0; c < 3; c++) {
            size_t l = js_len(cells[r][c], strlen(cells[r][c]));
            if (l > w[c])
                w[c] = l;
        }
    for (size_t r = 0; r < rows; r++) {
        for (int c = 0; c < 3; c++) {
            const char *s = cells[r][c];
            size_t l = js_len(s, strlen(s));
            sd_buf_puts(out, c ? " " : "| ");
            sd_buf_puts(out, s);
            for (size_t k = l; k < w[c]; k++)
                sd_buf_putc(out, ' ');
            sd_buf_puts(out, " |");
        }
        if (r == 0) {
            sd_buf_putc(out, '\n');
            for (int c = 0; c < 3; c++) {
                sd_buf_puts(out, c ? " " : "| ");
                for (size_t k = 0; k < (w[c] ? w[c] : 1); k++)
                    sd_buf_putc(out, '-');
                sd_buf_puts(out, " |");
            }
        }
        if (r + 1 < rows)
            sd_buf_putc(out, '\n');
    }
}

/* a + b + c as a cell of the chart's Markdown: ordinary text as
 * readme-generator writes it, but what would be live where raw HTML is
 * rendered, or would start an HTML block, escaped (md_cells.c); a new
 * string, or NULL. */
static char *cat3(const char *a, const char *b, const char *c)
{
    sd_buf t = SD_BUF_INIT, d = SD_BUF_INIT;
    sd_buf_puts(&t, a);
    sd_buf_puts(&t, b);
    sd_buf_puts(&t, c);
    sd_render__md_defang(&d, t.ptr, t.len);
    sd_buf_release(&t);
    if (sd_buf_failed(&d)) {
        sd_buf_release(&d);
        return NULL;
    }
    return sd_buf_detach(&d);
}

/* One table per section (SD_DIALECT_SECTION_TABLES): the rows as Bitnami's
 * readme-generator's renderReadmeTable writes them (with its \r\n and
 * \n, split later). */
static int section_tables(sd_buf *out, sd_val *rows, const char *signs)
{
    size_t n = sd_val_array_size(rows), i = 0;
    while (i < n) {
        const char *sec = sd_val_string_value(sd_val_object_get(sd_val_array_get(rows, i), "section"));
        size_t j = i;
        while (j < n) {
            const char *s2 = sd_val_string_value(sd_val_object_get(sd_val_array_get(rows, j), "section"));
            if (!s2 || !sec || strcmp(s2, sec) != 0)
                break;
            j++;
        }
        if (j == i)
            j = i + 1;
        sd_buf_printf(out, "\r\n%s ", signs);
        if (sec)
            sd_render__md_defang(out, sec, strlen(sec));   /* a heading's text, as the cells */
        sd_buf_puts(out, "\r\n\n");
        char ***cells = calloc(j - i + 1, sizeof *cells);
        if (!cells)
            return SD_ENOMEM;
        static const char *head[3] = { "Name", "Description", "Value" };
        cells[0] = (char **)head;
        for (size_t k = i; k < j; k++) {
            sd_val *r = sd_val_array_get(rows, k);
            const char *key = sd_val_string_value(sd_val_object_get(r, "key"));
            const char *desc = sd_val_string_value(sd_val_object_get(r, "description"));
            sd_val *dv = sd_val_object_get(r, "default_text");
            char **c = calloc(3, sizeof *c);
            if (!c)
                break;
            c[0] = cat3("`", key ? key : "", "`");
            c[1] = cat3("", desc ? desc : "", "");
            c[2] = sd_val_is_true(sd_val_object_get(r, "extra")) || !sd_val_is_string(dv)
                   ? strdup("") : cat3("`", sd_val_string_value(dv), "`");
            cells[k - i + 1] = c;
        }
        int ok = 1;
        for (size_t k = 0; k <= j - i; k++)
            if (!cells[k] || !cells[k][0] || !cells[k][1] || !cells[k][2])
                ok = 0;
        if (ok) {
            md_table(out, cells, j - i + 1);
            sd_buf_puts(out, "\r\n");
        }
        for (size_t k = 1; k <= j - i; k++) {
            if (!cells[k])
                continue;
            for (int c = 0; c < 3; c++)
                free(cells[k][c]);
            free(cells[k]);
        }
        free(cells);
        if (!ok)
            return SD_ENOMEM;
        i = j;
    }
    return 0;
}

int sd_readme_params(sd_buf *out, const char *old, size_t old_len, sd_val *model,
                     const char *name, sd_diags *diags)
{
    size_t nl = 0, start = 0, end, h = 0, i;
    sline *l = split(old, old_len, &nl);
    sd_buf gen = SD_BUF_INIT, signs = SD_BUF_INIT;
    int r = 0;

    if (!l)
        return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ name, 0, 0 }, "out of memory");
    for (i = 0; i < nl && !h; i++)
        if ((h = params_heading(&l[i])))
            start = i + 1;
    if (!h) {
        free(l);
        return SD_ENOTFOUND;
    }
    for (end = start; end < nl && !same_level(&l[end], h); end++)
        ;
    /* from the bottom, the last table-like line; the span ends after it */
    size_t found = (size_t)-1;
    for (i = end; i-- > start; )
        if (table_like(&l[i])) {
            found = i;
            break;
        }
    end = found != (size_t)-1 ? found + 1 : start;

    /* the new section text, split and joined like the rest */
    for (i = 0; i <= h; i++)
        sd_buf_putc(&signs, '#');
    const sd_dialect *dialect = sd_dialect_find(sd_val_string_value(sd_val_object_get(sd_val_object_get(model, "source"), "dialect")));
    if (dialect && (dialect->flags & SD_DIALECT_SECTION_TABLES)) {
        if ((r = section_tables(&gen, sd_val_object_get(model, "rows"), signs.ptr)) < 0)
            r = sd_diag_error(diags, r, (sd_loc){ name, 0, 0 }, "out of memory");
    } else {
        sd_buf t = SD_BUF_INIT;
        size_t k = 0;
        if ((r = sd_helmdocs_values_table(&t, model, diags)) == 0) {
            while (k < t.len && t.ptr[k] == '\n')
                k++;
            sd_buf_putc(&gen, '\n');
            sd_buf_put(&gen, t.ptr + k, t.len - k);
            sd_buf_putc(&gen, '\n');
        }
        sd_buf_release(&t);
    }
    if (r == 0) {
        size_t gl = 0;
        sline *g = split(gen.ptr, gen.len, &gl);
        if (!g) {
            r = sd_diag_error(diags, SD_ENOMEM, (sd_loc){ name, 0, 0 }, "out of memory");
        } else {
            /* lines[0, start) + g + lines(end, nl): lines[start..end] are deleted */
            size_t first = 1;
            for (i = 0; i < start; i++, first = 0) {
                if (!first) sd_buf_putc(out, '\n');
                sd_buf_put(out, l[i].p, l[i].n);
            }
            for (i = 0; i < gl; i++, first = 0) {
                if (!first) sd_buf_putc(out, '\n');
                sd_buf_put(out, g[i].p, g[i].n);
            }
            for (i = end + 1; i < nl; i++, first = 0) {
                if (!first) sd_buf_putc(out, '\n');
                sd_buf_put(out, l[i].p, l[i].n);
            }
            free(g);
            if (sd_buf_failed(out))
                r = sd_diag_error(diags, sd_buf_error(out), (sd_loc){ name, 0, 0 }, "out of memory");
        }
    }
    sd_buf_release(&gen);
    sd_buf_release(&signs);
    free(l);
    return r;
}

int sd_readme_has_markers(const char *s, size_t len)
{
    /* either marker alone on a line */
    for (size_t i = 0; i < len; ) {
        const char *nl = memchr(s + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - s) : len, a = i, b = e;
        while (a < b && (s[a] == ' ' || s[a] == '\t'))
            a++;
        while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == '\r'))
            b--;
        if ((b - a == strlen(SD_README_START) && !memcmp(s + a, SD_README_START, b - a)) ||
            (b - a == strlen(SD_README_END) && !memcmp(s + a, SD_README_END, b - a)))
            return 1;
        i = nl ? e + 1 : len;
    }
    return 0;
}
