/* SPDX-License-Identifier: Apache-2.0 */
/* readme.c - README region rewrite for `--readme FILE` and the line diff
 * that `--check` prints. The diff is a plain LCS over the lines left after
 * trimming the common head and tail; past a size bound the middle is shown
 * as one replacement, which is still a correct (if long) diff. */
#include "readme.h"
#include "sd.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Find a line consisting of `marker` (surrounding blanks allowed) at or
 * after `from`; returns its start offset and sets *end past its newline. */
static long find_marker(const char *s, size_t len, size_t from, const char *marker, size_t *end)
{
    size_t ml = strlen(marker), i = from;

    while (i < len) {
        const char *nl = memchr(s + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - s) : len, a = i, b = e;
        while (a < b && (s[a] == ' ' || s[a] == '\t'))
            a++;
        while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == '\r'))
            b--;
        if (b - a == ml && memcmp(s + a, marker, ml) == 0) {
            *end = nl ? e + 1 : e;
            return (long)i;
        }
        i = nl ? e + 1 : len;
    }
    return -1;
}

int sd_readme_splice(sd_buf *out, const char *old, size_t old_len,
                     const char *gen, size_t gen_len, const char *name,
                     sd_diags *diags)
{
    size_t s_end = 0, e_end = 0;
    long s = find_marker(old, old_len, 0, SD_README_START, &s_end);
    long e = find_marker(old, old_len, s < 0 ? 0 : s_end, SD_README_END, &e_end);
    sd_loc loc = { name, 0, 0 };

    if (s < 0 && e < 0) {
        /* The region goes at the end, after a blank line. */
        sd_buf_put(out, old, old_len);
        if (old_len && old[old_len - 1] != '\n')
            sd_buf_putc(out, '\n');
        if (old_len)
            sd_buf_putc(out, '\n');
        sd_buf_puts(out, SD_README_START "\n");
        sd_buf_put(out, gen, gen_len);
        if (gen_len && gen[gen_len - 1] != '\n')
            sd_buf_putc(out, '\n');
        sd_buf_puts(out, SD_README_END "\n");
        return 0;
    }
    if (s < 0 || e < 0) {
        size_t dummy;
        if (s < 0 && find_marker(old, old_len, 0, SD_README_END, &dummy) >= 0)
            return sd_diag_error(diags, SD_ESYNTAX, loc,
                                 "'" SD_README_END "' without a '" SD_README_START "' before it");
        return sd_diag_error(diags, SD_ESYNTAX, loc,
                             "'" SD_README_START "' without a '" SD_README_END "' after it");
    }
    sd_buf_put(out, old, s_end);
    if (s_end == old_len || old[s_end - 1] != '\n')
        sd_buf_putc(out, '\n');
    sd_buf_put(out, gen, gen_len);
    if (gen_len && gen[gen_len - 1] != '\n')
        sd_buf_putc(out, '\n');
    sd_buf_put(out, old + e, old_len - (size_t)e);
    return 0;
}

/* --- line diff ------------------------------------------------------------ */

typedef struct line { const char *p; size_t n; } line;   /* n includes '\n' */

static line *split_lines(const char *s, size_t len, size_t *count)
{
    size_t n = 0, i, k = 0;
    line *v;

    for (i = 0; i < len; i++)
        if (s[i] == '\n')
            n++;
    if (len && s[len - 1] != '\n')
        n++;
    if (!(v = calloc(n ? n : 1, sizeof *v)))
        return NULL;
    for (i = 0; i < len; ) {
        const char *nl = memchr(s + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - s) + 1 : len;
        v[k].p = s + i;
        v[k].n = e - i;
        k++;
        i = e;
    }
    *count = n;
    return v;
}

static int line_eq(const line *a, const line *b)
{
    return a->n == b->n && memcmp(a->p, b->p, a->n) == 0;
}

enum { OP_SAME, OP_DEL, OP_ADD };
typedef struct op { int kind; size_t ai, bi; } op;

static void put_line(sd_buf *out, char mark, const line *l)
{
    sd_buf_putc(out, mark);
    sd_buf_put(out, l->p, l->n);
    if (!l->n || l->p[l->n - 1] != '\n')
        sd_buf_puts(out, "\n\\ No newline at end of file\n");
}

/* The edit script for a[lo_a, hi_a) -> b[lo_b, hi_b), appended to ops. */
static size_t script(op *ops, const line *a, size_t na, const line *b, size_t nb)
{
    size_t pre = 0, suf = 0, k = 0, i, j, m, n;

    while (pre < na && pre < nb && line_eq(&a[pre], &b[pre]))
        pre++;
    while (suf < na - pre && suf < nb - pre && line_eq(&a[na - 1 - suf], &b[nb - 1 - suf]))
        suf++;
    for (i = 0; i < pre; i++)
        ops[k++] = (op){ OP_SAME, i, i };
    m = na - pre - suf;
    n = nb - pre - suf;
    uint32_t *t = NULL;
    if (m && n && (uint64_t)(m + 1) * (n + 1) <= 16u * 1024 * 1024)
        t = calloc((m + 1) * (n + 1), sizeof *t);
    if (t) {
        /* t[i][j] = LCS length of a[pre+i..] and b[pre+j..] */
        for (i = m; i-- > 0; )
            for (j = n; j-- > 0; )
                t[i * (n + 1) + j] = line_eq(&a[pre + i], &b[pre + j])
                    ? t[(i + 1) * (n + 1) + j + 1] + 1
                    : (t[(i + 1) * (n + 1) + j] >= t[i * (n + 1) + j + 1]
                       ? t[(i + 1) * (n + 1) + j] : t[i * (n + 1) + j + 1]);
        i = j = 0;
        while (i < m || j < n) {
            if (i < m && j < n && line_eq(&a[pre + i], &b[pre + j])) {
                ops[k++] = (op){ OP_SAME, pre + i, pre + j }; i++; j++;
            } else if (i < m && (j == n || t[(i + 1) * (n + 1) + j] >= t[i * (n + 1) + j + 1])) {
                ops[k++] = (op){ OP_DEL, pre + i, pre + j }; i++;
            } else {
                ops[k++] = (op){ OP_ADD, pre + i, pre + j }; j++;
            }
        }
        free(t);
    } else {
        for (i = 0; i < m; i++)
            ops[k++] = (op){ OP_DEL, pre + i, pre };
        for (j = 0; j < n; j++)
            ops[k++] = (op){ OP_ADD, pre + m, pre + j };
    }
    for (i = 0; i < suf; i++)
        ops[k++] = (op){ OP_SAME, na - suf + i, nb - suf + i };
    return k;
}

size_t sd_readme_diff(sd_buf *out, const char *a, size_t a_len,
                      const char *b, size_t b_len, const char *name)
{
    size_t na = 0, nb = 0, nops, changed = 0, i;
    line *la = split_lines(a, a_len, &na), *lb = split_lines(b, b_len, &nb);
    op *ops = NULL;
    const size_t ctx = 3;

    if (!la || !lb || !(ops = calloc(na + nb + 1, sizeof *ops))) {
        free(la); free(lb);
        sd_buf_puts(out, "(out of memory computing the diff)\n");
        return 1;
    }
    nops = script(ops, la, na, lb, nb);
    for (i = 0; i < nops; i++)
        if (ops[i].kind != OP_SAME)
            changed++;
    if (changed)
        sd_buf_printf(out, "--- a/%s\n+++ b/%s\n", name, name);
    for (i = 0; i < nops; ) {
        size_t first, last, j, as = 0, ac = 0, bs = 0, bc = 0;
        if (ops[i].kind == OP_SAME) { i++; continue; }
        /* A hunk: from ctx lines before this change to ctx lines after the
         * last change that is within 2*ctx of the previous one. */
        first = i > ctx ? i - ctx : 0;
        last = i;
        for (j = i; j < nops; j++) {
            if (ops[j].kind != OP_SAME)
                last = j;
            else if (j - last > 2 * ctx)
                break;
        }
        j = last + ctx + 1 < nops ? last + ctx + 1 : nops;
        for (size_t k = first; k < j; k++) {
            if (ops[k].kind != OP_ADD) ac++;
            if (ops[k].kind != OP_DEL) bc++;
        }
        as = ops[first].ai + (ac ? 1 : 0);
        bs = ops[first].bi + (bc ? 1 : 0);
        sd_buf_printf(out, "@@ -%zu", as);
        if (ac != 1) sd_buf_printf(out, ",%zu", ac);
        sd_buf_printf(out, " +%zu", bs);
        if (bc != 1) sd_buf_printf(out, ",%zu", bc);
        sd_buf_puts(out, " @@\n");
        for (size_t k = first; k < j; k++) {
            if (ops[k].kind == OP_SAME) put_line(out, ' ', &la[ops[k].ai]);
            else if (ops[k].kind == OP_DEL) put_line(out, '-', &la[ops[k].ai]);
            else put_line(out, '+', &lb[ops[k].bi]);
        }
        i = j;
    }
    free(ops); free(la); free(lb);
    return changed;
}
