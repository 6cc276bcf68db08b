/* SPDX-License-Identifier: Apache-2.0 */
/* vembedded.c - x-kubernetes-embedded-resource in the validator's walk
 * (vwalk.h): an object marked so is a Kubernetes object of its own, which
 * must name a valid apiVersion and kind, as the API server checks them. A
 * record and a tape map in, a verdict out (the object's other keywords are
 * vobject.c's). */
#include "vwalk.h"
#include "buf.h"
#include "vmsg.h"

/* An embedded Kubernetes object's apiVersion: VERSION or GROUP/VERSION (the
 * API server's ParseGroupVersion refuses only more than one slash); its
 * kind: a DNS-1035 label once lowercased (a letter, then letters, digits or
 * '-', ending with a letter or digit, 63 at most). */
#define ASCII_LETTER(ch) (((ch) | 32) >= 'a' && ((ch) | 32) <= 'z')
#define ASCII_ALNUM(ch) (ASCII_LETTER(ch) || ((ch) >= '0' && (ch) <= '9'))

static int k8s_name(int kind, const char *s, size_t n)
{
    size_t slashes = 0;
    if (!n)
        return 0;
    if (!kind) {
        for (size_t i = 0; i < n; i++)
            slashes += s[i] == '/';
        return slashes <= 1;
    }
    if (n > 63 || !ASCII_LETTER(s[0]) || !ASCII_ALNUM(s[n - 1]))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!ASCII_ALNUM(s[i]) && s[i] != '-')
            return 0;
    return 1;
}

/* x-kubernetes-embedded-resource: the object is a Kubernetes object of its
 * own, which must name a valid apiVersion and kind (k8s_name() checks them). */
SD_VWALK_COLD int sd_vwalk__embedded(vctx *c, const vs *s, const sd_tval *inst)
{
    static const char *const keys[] = { "apiVersion", "kind" };
    int ok = 1;
    for (int k = 0; k < 2; k++) {
        const sd_tval *x = map_get(inst, keys[k], strlen(keys[k]));
        if (x && vk(x) == SD_STR && k8s_name(k, x->u.s, x->len))
            continue;
        ok = 0;
        if (!c->res)
            return 0;
        if (!x) {
            sd_vwalk__err(c, s, "x-kubernetes-embedded-resource", inst, NULL, SD_MSG_EMBEDDED_MISSING, keys[k]);
        } else if (path_push(c, x - 1, 0) == 0) {
            sd_buf b = SD_BUF_INIT;
            sd_vprog__show(&b, c->t, x);
            sd_vwalk__err(c, s, "x-kubernetes-embedded-resource", x, NULL, k ? SD_MSG_EMBEDDED_KIND : SD_MSG_EMBEDDED_API,
                          b.ptr ? b.ptr : "");
            c->npath--;
            sd_buf_release(&b);
        }
    }
    return ok;
}
