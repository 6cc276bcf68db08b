/* SPDX-License-Identifier: Apache-2.0 */
/* data.c - what a diagnostic carries for the code actions (actions.c), in
 * its `data`: the instance's JSON pointer, and for a deprecated key the key
 * that replaces it, when the chart's notice names one ("use `x` instead",
 * "replaced by x", "in favour of x"), one only, of the same map, and a key
 * the chart knows (its model's members): never a guess. */
#include "lsp_int.h"
#include "alloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int sd_lsp__ptr_path(const char *ptr, sd_lsp_path *p)
{
    memset(p, 0, sizeof *p);
    while (*ptr == '/') {
        const char *e = strchr(ptr + 1, '/');
        size_t n = e ? (size_t)(e - ptr - 1) : strlen(ptr + 1);
        char *seg;
        if (p->n == SD_LSP_PATH_MAX)
            return sd_lsp__path_release(p), -1;
        if (!(seg = malloc(n + 1)))
            return sd_alloc_note_failure(), sd_lsp__path_release(p), -1;
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            char c = ptr[1 + i];
            if (c == '~' && i + 1 < n && (ptr[2 + i] == '0' || ptr[2 + i] == '1'))
                c = ptr[2 + i++] == '1' ? '/' : '~';
            seg[k++] = c;
        }
        seg[k] = '\0';
        p->seg[p->n++] = seg;
        ptr += n + 1;
    }
    return 0;
}

/* Does the chart's model have member `key` in the map at `p` (its
 * properties, not a key any map takes)? */
static int known_member(sd_lsp_chart *c, const sd_lsp_path *p, const char *key, size_t kl)
{
    json_t *n = sd_lsp__model_node(c, p), *m;
    size_t i;
    json_array_foreach(n ? sd_lsp__members(c, n) : NULL, i, m) {
        const char *k = json_string_value(json_object_get(m, "key"));
        if (k && strlen(k) == kl && !memcmp(k, key, kl))
            return 1;
    }
    return 0;
}

/* The key that a deprecation notice names as the replacement of the key
 * at `p` ("use `x` instead", "replaced by x", "in favour of x"), when it is
 * one key, of the same map, that the chart knows: a new string, else NULL.
 * The name may be written whole ("global.x") or from the map ("x"). */
static char *replacement(sd_lsp_chart *c, const sd_lsp_path *p, const char *notice)
{
    static const char *const says[] = { "use ", "replaced by ", "in favor of ", "in favour of ", NULL };
    const char *t = NULL;
    for (const char *const *w = says; *w && !t; w++)
        for (const char *q = notice; *q && !t; q++)
            if (!strncasecmp(q, *w, strlen(*w)) && (q == notice || !isalpha((unsigned char)q[-1])))
                t = q + strlen(*w);
    if (!t || !p->n)
        return NULL;
    while (*t == ' ' || *t == '`' || *t == '\'' || *t == '"')
        t++;
    size_t n = 0;
    while (isalnum((unsigned char)t[n]) || t[n] == '_' || t[n] == '-' || t[n] == '.' || t[n] == '/')
        n++;
    while (n && t[n - 1] == '.')
        n--;   /* the end of the sentence */
    if (!n)
        return NULL;
    const char *rest = t + n;
    while (*rest == '`' || *rest == '\'' || *rest == '"' || *rest == ' ')
        rest++;
    if (*rest == ',' || *rest == '/' || !strncasecmp(rest, "and ", 4) || !strncasecmp(rest, "or ", 3))
        return NULL;   /* several keys: which one is not said */
    /* whole (its map's path, then the key), else from the map */
    const char *last = t;
    for (size_t i = 0; i < n; i++)
        if (t[i] == '.')
            last = t + i + 1;
    size_t ll = (size_t)(t + n - last);
    sd_lsp_path parent = *p;
    parent.n = p->n - 1;
    if (last != t) {
        sd_buf pre = SD_BUF_INIT;
        for (int i = 0; i < parent.n; i++)
            sd_buf_printf(&pre, "%s%s", i ? "." : "", parent.seg[i]);
        int same = pre.len == (size_t)(last - 1 - t) && !memcmp(pre.ptr, t, pre.len);
        sd_buf_release(&pre);
        if (!same)
            return NULL;   /* a key of another map: moving a value is not renaming it */
    }
    if (!ll || (strlen(p->seg[p->n - 1]) == ll && !memcmp(p->seg[p->n - 1], last, ll)) ||
        !known_member(c, &parent, last, ll))
        return NULL;
    char *r = strndup(last, ll);
    if (!r)
        sd_alloc_note_failure();
    return r;
}

json_t *sd_lsp__action_data(sd_lsp_chart *c, const char *ptr, const char *keyword, const char *msg)
{
    json_t *data = json_pack("{s:s}", "path", ptr);
    const char *notice = msg ? strstr(msg, " is deprecated: ") : NULL;
    sd_lsp_path p;
    if (!data || !c || !keyword || strcmp(keyword, "deprecated") || !notice || sd_lsp__ptr_path(ptr, &p) < 0)
        return data;
    char *r = replacement(c, &p, notice + 16);
    if (r)
        json_object_set_new(data, "replacement", json_string(r));
    free(r);
    sd_lsp__path_release(&p);
    return data;
}

