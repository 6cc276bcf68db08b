/* SPDX-License-Identifier: Apache-2.0 */
/* k8s_types.c - the embedded Kubernetes definitions (k8s_types.json, made
 * by gen-types.py) parsed into a document, looked up by full or short name,
 * and named as the API reference names them.
 *
 * In: the gzip bytes `make` embeds (build/gen/k8stypes.c), inflated by
 * zlib (already linked for packaged charts, load/archive.c). Out:
 * sd_k8s_types, one parsed document the caller frees. */
#include "k8s.h"
#include "alloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

struct sd_k8s_types {
    sd_doc        *doc;
    const sd_node *defs;   /* the "definitions" map */
};

/* The embedded definitions inflated into a new buffer (*len bytes, NUL
 * after them), or NULL when memory fails: the bytes are our own, so a
 * stream that does not inflate to the size its trailer gives is a broken
 * build, reported the same way. */
static char *inflate_types(size_t *len)
{
    const unsigned char *gz = sd_k8s__types_gz;
    size_t n = sd_k8s__types_gz_len;
    /* gzip's trailer: the inflated size, little-endian, modulo 2^32 */
    uint32_t want = n < 18 ? 0 : (uint32_t)gz[n - 4] | (uint32_t)gz[n - 3] << 8 |
                                 (uint32_t)gz[n - 2] << 16 | (uint32_t)gz[n - 1] << 24;
    char *buf = malloc((size_t)want + 1);
    z_stream zs;
    int ok;

    if (!buf)
        return NULL;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
        free(buf);
        return NULL;
    }
    zs.next_in = (unsigned char *)gz;
    zs.avail_in = (uInt)n;
    zs.next_out = (unsigned char *)buf;
    zs.avail_out = want;
    ok = inflate(&zs, Z_FINISH) == Z_STREAM_END && zs.total_out == want;
    inflateEnd(&zs);
    if (!ok) {
        free(buf);
        return NULL;
    }
    buf[want] = '\0';
    *len = want;
    return buf;
}

int sd_k8s_types_open(sd_k8s_types **out)
{
    sd_diags quiet = SD_DIAGS_INIT;
    sd_k8s_types *t = calloc(1, sizeof *t);

    *out = NULL;
    if (!t) {
        sd_alloc_note_failure();
        return SD_ENOMEM;
    }
    /* built from a file gen-types.py checked: only memory can fail here */
    size_t len = 0;
    char *json = inflate_types(&len);

    if (!json)
        sd_alloc_note_failure();
    int rc = !json ? SD_ENOMEM
                   : sd_doc_load_mem(&t->doc, "(Kubernetes " SD_K8S_RELEASE " types)", json,
                                     len, SD_FMT_JSON, NULL, &quiet);
    free(json);
    sd_diags_release(&quiet);
    if (rc < 0 || !(t->defs = sd_node_get(sd_doc_root(t->doc), "definitions"))) {
        sd_k8s_types_free(t);
        return SD_ENOMEM;
    }
    *out = t;
    return 0;
}

void sd_k8s_types_free(sd_k8s_types *t)
{
    if (!t)
        return;
    sd_doc_free(t->doc);
    free(t);
}

/* "core/v1.Toleration" and "core.v1.Toleration" -> "io.k8s.api.core.v1.Toleration" */
static const sd_node *by_suffix(const sd_k8s_types *t, const char *name, size_t len,
                                const char **full)
{
    const sd_node *d = t->defs;
    for (uint32_t i = 0; i < d->n; i++) {
        const sd_node *k = d->items[i].key;
        size_t kl = k->len;
        if (kl <= len)
            continue;
        /* the name's dots (or one slash) line up with the full name's end */
        const char *tail = k->str + kl - len;
        if (tail[-1] != '.')
            continue;
        size_t j = 0;
        for (; j < len; j++)
            if (tail[j] != name[j] && !(name[j] == '/' && tail[j] == '.'))
                break;
        if (j == len) {
            if (full)
                *full = k->str;
            return d->items[i].value;
        }
    }
    return NULL;
}

const sd_node *sd_k8s_types_def(const sd_k8s_types *t, const char *name, size_t len,
                                const char **full)
{
    char key[256];
    const sd_pair *p;

    if (!t || !len || len >= sizeof key)
        return NULL;
    memcpy(key, name, len);
    key[len] = '\0';
    if ((p = sd_node_get_pair(t->defs, key))) {
        if (full)
            *full = p->key->str;
        return p->value;
    }
    /* a short name: the core/v1 type first (Affinity, Probe...), then the
     * one that ends so in any group */
    if (!memchr(name, '.', len) && !memchr(name, '/', len)) {
        char core[300];
        snprintf(core, sizeof core, "io.k8s.api.core.v1.%s", key);
        if ((p = sd_node_get_pair(t->defs, core))) {
            if (full)
                *full = p->key->str;
            return p->value;
        }
    }
    return by_suffix(t, key, len, full);
}

const char *sd_k8s_types_ref(const sd_k8s_types *t, const char *ref)
{
    const char *full = NULL, *last;

    if (!t || !ref)
        return NULL;
    last = strrchr(ref, '/');
    last = last ? last + 1 : ref;
    if (last == ref && !strchr(ref, '.'))
        return NULL;   /* a bare word is no reference to a type */
    /* at least GROUP.VERSION.Kind: "core.v1.Probe", "io.k8s.api.core.v1.Probe" */
    const char *dot = strchr(last, '.');
    if (!dot || !strchr(dot + 1, '.'))
        return NULL;
    return sd_k8s_types_def(t, last, strlen(last), &full) ? full : NULL;
}

/* The group and version of a full name: "io.k8s.api.core.v1.X" -> "core",
 * "v1"; apimachinery's meta.v1 -> "meta", "v1". Returns the short name. */
static const char *split_name(const char *full, char *group, size_t gcap, char *version, size_t vcap)
{
    const char *kind = strrchr(full, '.');
    const char *ver = NULL, *grp = NULL;
    *group = *version = '\0';
    if (!kind)
        return full;
    for (const char *p = kind - 1; p > full; p--)
        if (*p == '.') {
            ver = p + 1;
            break;
        }
    if (ver) {
        for (const char *p = ver - 2; p > full; p--)
            if (*p == '.') {
                grp = p + 1;
                break;
            }
    }
    /* a version is v1, v2beta1...; apimachinery's Quantity and IntOrString
     * have none (api.resource, util.intstr): the kind alone */
    if (ver && grp && ver[0] == 'v' && ver[1] >= '0' && ver[1] <= '9') {
        snprintf(version, vcap, "%.*s", (int)(kind - ver), ver);
        snprintf(group, gcap, "%.*s", (int)(ver - 1 - grp), grp);
    }
    return kind + 1;
}

void sd_k8s_type_label(sd_buf *out, const char *full)
{
    char group[64], version[32];
    const char *kind = split_name(full, group, sizeof group, version, sizeof version);
    if (*group)
        sd_buf_printf(out, "%s (%s/%s)", kind, group, version);
    else
        sd_buf_puts(out, kind);
}

void sd_k8s_type_url(sd_buf *out, const char *full)
{
    char group[64], version[32];
    const char *kind = split_name(full, group, sizeof group, version, sizeof version);
    sd_buf_puts(out, "https://kubernetes.io/docs/reference/generated/kubernetes-api/v" SD_K8S_RELEASE "/");
    if (!*group)
        return;   /* no section of its own */
    sd_buf_putc(out, '#');
    for (const char *p = kind; *p; p++)
        sd_buf_putc(out, (char)tolower((unsigned char)*p));
    sd_buf_printf(out, "-%s-%s", version, group);
}

int sd_k8s_ref_label(sd_buf *label, sd_buf *url, const char *ref)
{
    const char *last = ref ? strrchr(ref, '/') : NULL;
    last = last ? last + 1 : ref;
    if (last && !strncmp(last, "def-", 4))
        last += 4;   /* the model's id of a definition */
    if (!last || (strncmp(last, "io.k8s.api.", 11) && strncmp(last, "io.k8s.apimachinery.", 20)))
        return 0;
    /* GROUP.VERSION.Kind after the prefix: a definition name, not a field */
    const char *kind = strrchr(last, '.');
    if (!kind || !(kind[1] >= 'A' && kind[1] <= 'Z'))
        return 0;
    if (label)
        sd_k8s_type_label(label, last);
    if (url)
        sd_k8s_type_url(url, last);
    return 1;
}
