/* SPDX-License-Identifier: Apache-2.0 */
/* rename_notes.c - what a chart says of its own renames: the sentences of
 * the "Upgrading" part of its README (and UPGRADING.md, RELEASE-NOTES.md,
 * CHANGELOG.md) read as (old, new) pairs, and the `renamedFrom` /
 * `x-renamed-from` annotations of its values.yaml. In: NEW's chart
 * directory. Out: the pairs, for rename.c to pair the keys by (rule
 * "readme" and "hint"). Every file is read as a chart file (confined). */
#include "diff_int.h"
#include "annot.h"
#include "atschema.h"
#include "file.h"
#include "node.h"
#include "sd.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A token of a notes line: a `code span` or an _italic_ key. */
typedef struct ntok { const char *s; size_t n; size_t at, end; } ntok;

/* Is `s` (n bytes) a key path: no spaces, at least one letter? */
static int keyish(const char *s, size_t n)
{
    int alpha = 0;
    if (!n || n > 200)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (isspace((unsigned char)s[i]) || s[i] == '`')
            return 0;
        if (isalpha((unsigned char)s[i]))
            alpha = 1;
    }
    return alpha;
}

/* Only separators between two tokens of one list: ", ", " and ", " or ". */
static int list_gap(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (isspace((unsigned char)s[i]) || s[i] == ','))
        i++;
    if (i < n && n - i >= 3 && !strncasecmp(s + i, "and", 3))
        i += 3;
    else if (i < n && n - i >= 2 && !strncasecmp(s + i, "or", 2))
        i += 2;
    while (i < n && (isspace((unsigned char)s[i]) || s[i] == ','))
        i++;
    return i == n;
}

/* The renames one line of notes states, appended to `out` as [old, new]:
 *   "`a` renamed as `b`", "`a` moved to `b`", "`a` -> `b`", "`a` is now `b`",
 *   "`a` is deprecated in favor of `b`", "a -> b" (bare keys around an arrow);
 *   "`a` and `b` were renamed to `c` and `d`, respectively": two pairs, in
 *   order. Lists of different lengths, or of two or more without
 *   "respectively", or one key going to two, state no pair: which value goes
 *   where is not said. */
static void notes_line(sd_val *out, const char *line, size_t ll)
{
    static const char *const verbs[] = { "renamed as", "renamed to", "moved to", "replaced by", "in favor of",
                                         "in favour of", "->", "\xe2\x86\x92", "=>", "is now", "are now",
                                         "changed to", NULL };
    ntok t[32];
    int nt = 0, resp;
    char *low = strndup(line, ll);

    if (!low)
        return;
    for (size_t i = 0; i < ll; i++)
        low[i] = (char)tolower((unsigned char)low[i]);
    resp = strstr(low, "respectively") != NULL;
    for (size_t i = 0; i < ll && nt < 32; i++) {
        char q = line[i];
        if (q != '`' && !(q == '_' && (i == 0 || !isalnum((unsigned char)line[i - 1]))))
            continue;
        const char *close = memchr(line + i + 1, q, ll - i - 1);
        if (!close)
            break;
        /* an italic's closing _ is followed by a non-word character */
        while (q == '_' && close && close + 1 < line + ll && isalnum((unsigned char)close[1]))
            close = memchr(close + 1, q, (size_t)(line + ll - close - 1));
        if (!close)
            break;
        size_t n = (size_t)(close - line - i - 1);
        if (keyish(line + i + 1, n))
            t[nt++] = (ntok){ line + i + 1, n, i, (size_t)(close - line) + 1 };
        i = (size_t)(close - line);
    }
    if (!nt) {
        /* bare keys around an arrow, alone on their line: "- a.b -> c.d" */
        char w[3][256];
        size_t wat[3], wend[3];
        int nw = 0;
        size_t i = 0;
        while (i < ll && (isspace((unsigned char)line[i]) || line[i] == '-' || line[i] == '*'))
            i++;
        while (i < ll && nw < 4) {
            size_t b = i;
            while (i < ll && !isspace((unsigned char)line[i]))
                i++;
            if (nw < 3) {
                size_t wl = i - b < sizeof w[0] ? i - b : 0;   /* too long: no key */
                memcpy(w[nw], line + b, wl);
                w[nw][wl] = '\0';
                wat[nw] = b;
                wend[nw] = b + wl;
            }
            nw++;
            while (i < ll && isspace((unsigned char)line[i]))
                i++;
        }
        if (nw == 3 && (!strcmp(w[1], "->") || !strcmp(w[1], "=>") || !strcmp(w[1], "\xe2\x86\x92"))) {
            size_t e = wend[2] - wat[2];
            while (e && strchr(".,;", line[wat[2] + e - 1]))
                e--;
            if (keyish(w[0], strlen(w[0])) && keyish(line + wat[2], e)) {
                t[nt++] = (ntok){ line + wat[0], wend[0] - wat[0], wat[0], wend[0] };
                t[nt++] = (ntok){ line + wat[2], e, wat[2], wat[2] + e };
            }
        }
    }
    for (const char *const *v = verbs; *v; v++) {
        const char *at = strstr(low, *v);
        size_t vpos, vend;
        int l1, l0, r0, r1;
        if (!at)
            continue;
        vpos = (size_t)(at - low);
        vend = vpos + strlen(*v);
        /* the run of tokens right before the verb, and right after it */
        for (l1 = nt - 1; l1 >= 0 && t[l1].end > vpos; l1--)
            ;
        for (r0 = 0; r0 < nt && t[r0].at < vend; r0++)
            ;
        if (l1 < 0 || r0 >= nt || vpos - t[l1].end > 48 || t[r0].at - vend > 24)
            break;
        for (l0 = l1; l0 > 0 && list_gap(line + t[l0 - 1].end, t[l0].at - t[l0 - 1].end); l0--)
            ;
        for (r1 = r0; r1 + 1 < nt && list_gap(line + t[r1].end, t[r1 + 1].at - t[r1].end); r1++)
            ;
        int nl = l1 - l0 + 1, nr = r1 - r0 + 1;
        if (nl != nr || (nl > 1 && !resp))
            break;
        for (int k = 0; k < nl; k++) {
            sd_val *pair = sd_val_array();
            sd_val_array_append_new(pair, sd_val_stringn(t[l0 + k].s, t[l0 + k].n));
            sd_val_array_append_new(pair, sd_val_stringn(t[r0 + k].s, t[r0 + k].n));
            sd_val_array_append_new(out, pair);
        }
        break;
    }
    free(low);
}

/* Is a Markdown heading line about upgrading (or release notes)? */
static int upgrade_heading(const char *line, size_t ll)
{
    static const char *const words[] = { "upgrad", "migrat", "breaking", "release note", "changelog",
                                         "renamed", "deprecat", NULL };
    char *l = strndup(line, ll);
    int r = 0;
    for (char *p = l; p && *p; p++)
        *p = (char)tolower((unsigned char)*p);
    for (const char *const *w = words; l && *w && !r; w++)
        r = strstr(l, *w) != NULL;
    free(l);
    return r;
}

/* Renames a chart's notes state (notes_line), each as [old, new]
 * appended to `out`: the "Upgrading" part of NEW's README.md (the sections
 * whose heading is about upgrading, migrating, breaking changes, release
 * notes) and the whole of UPGRADING.md, RELEASE-NOTES.md or CHANGELOG.md
 * beside it (up to 4 MiB each). */
void sd_diff__readme_hints(sd_val *out, const char *dir)
{
    static const char *const files[] = { "README.md", "UPGRADING.md", "RELEASE-NOTES.md", "CHANGELOG.md", NULL };

    if (!dir)
        return;
    for (const char *const *f = files; *f; f++) {
        sd_buf path = SD_BUF_INIT;
        char *text = NULL;
        size_t len = 0;
        sd_diags quiet = SD_DIAGS_INIT;
        int readme = f == files, level = 0;   /* level: the heading level of the upgrade part, 0 outside */

        sd_buf_printf(&path, "%s/%s", dir, *f);
        if (sd_buf_failed(&path) || sd_file_read_in(&text, &len, dir, path.ptr, 4u << 20, "upgrade notes", &quiet) < 0) {
            sd_buf_release(&path);
            sd_diags_release(&quiet);
            continue;
        }
        for (char *line = text; line && *line;) {
            char *end = strchr(line, '\n');
            size_t ll = end ? (size_t)(end - line) : strlen(line);
            int h = 0;
            while ((size_t)h < ll && line[h] == '#')
                h++;
            if (h && (size_t)h < ll && line[h] == ' ') {
                if (level && h <= level)
                    level = 0;
                if (!level && upgrade_heading(line, ll))
                    level = h;
            } else if (!readme || level) {
                notes_line(out, line, ll);
            }
            line = end ? end + 1 : NULL;
        }
        free(text);
        sd_buf_release(&path);
        sd_diags_release(&quiet);
    }
}

/* --- `@schema renamedFrom` ------------------------------------------------- */

/* The old path an annotation names, as a new string, or NULL. */
static char *renamed_from(const sd_atann *a)
{
    for (size_t i = 0; a && i < a->nparts; i++)
        if (!strcmp(a->parts[i].name, "renamedFrom") || !strcmp(a->parts[i].name, "x-renamed-from")) {
            const char *v = a->parts[i].value;
            size_t n = strlen(v);
            if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0])
                return strndup(v + 1, n - 2);
            return n ? strdup(v) : NULL;
        }
    if (a && a->block && a->block->kind == SD_MAP) {
        sd_node *v = sd_node_get(a->block, "renamedFrom");
        if (!v)
            v = sd_node_get(a->block, "x-renamed-from");
        if (v && v->kind == SD_STR && v->str && *v->str)
            return strdup(v->str);
    }
    return NULL;
}

static void renamed_walk(sd_val *out, const sd_atschema *at, const sd_node *n, sd_buf *path, int depth)
{
    size_t len = path->len;
    if (!n || n->kind != SD_MAP || depth > 200)
        return;
    for (size_t i = 0; i < n->n; i++) {
        const sd_pair *p = &n->items[i];
        char *from;
        if (!p->key || !p->key->str)
            continue;
        sd_annot_path_push(path, p->key->str, p->key->len);
        if (!sd_buf_failed(path) && (from = renamed_from(sd_atschema_get(at, p)))) {
            sd_val_object_set_new(out, path->ptr, sd_val_string(from));
            free(from);
        }
        renamed_walk(out, at, p->value, path, depth + 1);
        sd_buf_truncate(path, len);
    }
}

/* NEW's values.yaml keys annotated `# @schema renamedFrom: OLD.PATH` (either
 * `@schema` dialect; `x-renamed-from` is read too): dotted path -> OLD.PATH. */
sd_val *sd_diff__path_hints(const char *dir)
{
    sd_val *out = sd_val_object();
    sd_buf path = SD_BUF_INIT;
    sd_diags quiet = SD_DIAGS_INIT;
    sd_doc *doc = NULL;
    sd_atschema at;

    memset(&at, 0, sizeof at);
    if (!out || !dir)
        return out;
    sd_buf_printf(&path, "%s/values.yaml", dir);
    if (!sd_buf_failed(&path) && sd_doc_load_in(&doc, dir, path.ptr, "values file", SD_FMT_AUTO, NULL, &quiet) == 0 &&
        doc->nroots && sd_atschema_scan(&at, doc, &quiet) == 0) {
        sd_buf_clear(&path);
        renamed_walk(out, &at, doc->roots[0].node, &path, 0);
    }
    sd_atschema_release(&at);
    sd_doc_free(doc);
    sd_buf_release(&path);
    sd_diags_release(&quiet);
    return out;
}
