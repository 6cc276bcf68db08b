/* SPDX-License-Identifier: Apache-2.0 */
/* gotmpl_codec.c - values to and from JSON as Go's encoding/json writes and
 * reads them (toJson, toPrettyJson, toRawJson, fromJson and their must*
 * forms), base64 (b64enc, b64dec), and the helm-docs / Helm names refused
 * on purpose. */
#include "gotmpl_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S(v) (v).u.s.p, (v).u.s.n

/* --- JSON out ---------------------------------------------------------------------- */

static void json_nl(sd_buf *b, const char *indent, int depth)
{
    sd_buf_putc(b, '\n');
    for (int i = 0; i < depth; i++)
        sd_buf_puts(b, indent);
}

static int json_val(sd_buf *b, sd_gval v, int html, const char *indent, int depth, gwalk *w)
{
    int r;
    if (depth > 1000 || sd_gotmpl__visit(w) < 0 || sd_buf_failed(b))
        return SD_ELIMIT;
    switch (v.kind) {
    case SD_G_MISSING: case SD_G_NIL: sd_buf_puts(b, "null"); return 0;
    case SD_G_BOOL: sd_buf_puts(b, v.u.b ? "true" : "false"); return 0;
    case SD_G_INT: sd_buf_printf(b, "%lld", v.u.i); return 0;
    case SD_G_FLOAT: {
        double a = fabs(v.u.f);
        if (!isfinite(v.u.f))
            return SD_EINVALID;
        if (a != 0 && (a < 1e-6 || a >= 1e21)) {
            sd_buf t = SD_BUF_INIT;
            sd_gotmpl__fmt_float(&t, v.u.f, 'e', -1);
            /* e-07 -> e-7 */
            if (t.len >= 4 && t.ptr[t.len - 4] == 'e' && t.ptr[t.len - 3] == '-' && t.ptr[t.len - 2] == '0') {
                t.ptr[t.len - 2] = t.ptr[t.len - 1];
                t.len--;
            }
            sd_buf_put(b, t.ptr, t.len);
            sd_buf_release(&t);
        } else {
            sd_gotmpl__fmt_float(b, v.u.f, 'f', -1);
        }
        return 0;
    }
    case SD_G_STR: sd_buf_put_go_json(b, S(v), html); return 0;
    case SD_G_LIST:
        sd_buf_putc(b, '[');
        for (size_t i = 0; i < v.u.l->n; i++) {
            if (i)
                sd_buf_putc(b, ',');
            if (indent)
                json_nl(b, indent, depth + 1);
            if ((r = json_val(b, v.u.l->items[i], html, indent, depth + 1, w)) != 0)
                return r;
        }
        if (indent && v.u.l->n)
            json_nl(b, indent, depth);
        sd_buf_putc(b, ']');
        return 0;
    case SD_G_MAP: {
        /* maps: sorted keys (qsort); structs: field order */
        size_t n = v.u.m->n, *ix = v.u.m->type_name ? malloc((n ? n : 1) * sizeof *ix) : sd_gotmpl__key_order(v.u.m);
        if (!ix)
            return SD_ENOMEM;
        for (size_t i = 0; v.u.m->type_name && i < n; i++)
            ix[i] = i;
        sd_buf_putc(b, '{');
        for (size_t i = 0; i < n; i++) {
            if (i)
                sd_buf_putc(b, ',');
            if (indent)
                json_nl(b, indent, depth + 1);
            sd_buf_put_go_json(b, v.u.m->keys[ix[i]], v.u.m->klen[ix[i]], html);
            sd_buf_puts(b, indent ? ": " : ":");
            if ((r = json_val(b, v.u.m->vals[ix[i]], html, indent, depth + 1, w)) != 0) {
                free(ix);
                return r;
            }
        }
        if (indent && n)
            json_nl(b, indent, depth);
        sd_buf_putc(b, '}');
        free(ix);
        return 0;
    }
    case SD_G_OBJ: sd_buf_puts(b, "{}"); return 0;
    }
    return 0;
}

static int to_json(sd_gval *o, sd_gcall *c, sd_gval v, int html, const char *indent, int must)
{
    sd_buf b;
    gwalk w = sd_gotmpl__walk(c);
    sd_gotmpl__buf(c, &b);
    int r = json_val(&b, v, html, indent, 0, &w);
    if (r == SD_EINVALID || r == SD_ELIMIT) {
        int full = sd_buf_failed(&b);
        sd_buf_release(&b);
        /* the bounds are errors whatever the function (Go would have run
         * out of memory); Sprig's toJson turns its own errors into "" */
        if (w.over)
            return sd_gotmpl__walked(c, &w);
        if (full)
            return sd_gcall_fail(c, "result too large");
        if (must)
            return sd_gcall_fail(c, r == SD_EINVALID ? "json: unsupported value: NaN or Inf" : "json: nesting too deep");
        *o = sd_gstr_static("", 0);
        return 0;
    }
    return sd_gotmpl__buf_walked(o, c, &b, &w);
}

static int f_tojson(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return to_json(o, c, a[0], 1, NULL, 0); }
static int f_toprettyjson(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return to_json(o, c, a[0], 1, "  ", 0); }
static int f_torawjson(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return to_json(o, c, a[0], 0, NULL, 0); }
static int f_musttojson(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return to_json(o, c, a[0], 1, NULL, 1); }
static int f_musttoprettyjson(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return to_json(o, c, a[0], 1, "  ", 1); }
static int f_musttorawjson(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return to_json(o, c, a[0], 0, NULL, 1); }

static int from_json(sd_gval *o, sd_gcall *c, const sd_gval *a, int must)
{
    char err[200];
    if (sd_gval_from_json_text(o, c->heap, S(a[0]), err, sizeof err) < 0) {
        if (sd_gheap_failed(c->heap))
            return sd_gcall_fail(c, "result too large");
        if (must)
            return sd_gcall_fail(c, "%s", err);
        *o = sd_gnil();
    }
    return 0;
}

static int f_fromjson(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return from_json(o, c, a, 0); }
static int f_mustfromjson(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return from_json(o, c, a, 1); }

/* --- base64 ------------------------------------------------------------------------- */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int f_b64enc(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    const unsigned char *s = (const unsigned char *)a[0].u.s.p;
    size_t len = a[0].u.s.n, i;
    (void)n;
    sd_gotmpl__buf(c, &b);
    for (i = 0; i + 2 < len; i += 3) {
        unsigned long x = (unsigned long)s[i] << 16 | (unsigned long)s[i + 1] << 8 | s[i + 2];
        char q[4] = { b64[x >> 18], b64[(x >> 12) & 63], b64[(x >> 6) & 63], b64[x & 63] };
        sd_buf_put(&b, q, 4);
    }
    if (len - i == 1) {
        unsigned long x = (unsigned long)s[i] << 16;
        char q[4] = { b64[x >> 18], b64[(x >> 12) & 63], '=', '=' };
        sd_buf_put(&b, q, 4);
    } else if (len - i == 2) {
        unsigned long x = (unsigned long)s[i] << 16 | (unsigned long)s[i + 1] << 8;
        char q[4] = { b64[x >> 18], b64[(x >> 12) & 63], b64[(x >> 6) & 63], '=' };
        sd_buf_put(&b, q, 4);
    }
    return sd_gotmpl__buf_val(o, c, &b);
}

static int f_b64dec(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    const char *s = a[0].u.s.p;
    size_t len = a[0].u.s.n;
    unsigned long acc = 0;
    int bits = 0;
    (void)n;
    sd_gotmpl__buf(c, &b);
    for (size_t i = 0; i < len; i++) {
        const char *p = s[i] ? strchr(b64, s[i]) : NULL;
        if (s[i] == '=') {
            /* padding must finish a quantum */
            size_t rest = len - i;
            if ((i + rest) % 4 || rest > 2)
                goto bad;
            for (size_t k = i; k < len; k++)
                if (s[k] != '=')
                    goto bad;
            break;
        }
        if (!p) {
bad:
            sd_buf_release(&b);
            {
                char msg[64];
                snprintf(msg, sizeof msg, "illegal base64 data at input byte %zu", i);
                *o = sd_gstrz(c->heap, msg);
            }
            return 0;
        }
        acc = (acc << 6) | (unsigned long)(p - b64);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            sd_buf_putc(&b, (char)((acc >> bits) & 0xFF));
        }
    }
    if (len % 4) {
        sd_buf_release(&b);
        char msg[64];
        snprintf(msg, sizeof msg, "illegal base64 data at input byte %zu", len - len % 4 + (len % 4 == 1 ? 0 : len % 4));
        *o = sd_gstrz(c->heap, msg);
        return 0;
    }
    return sd_gotmpl__buf_val(o, c, &b);
}

const gfunc sd_gotmpl__codec_funcs[] = {
    { "b64dec", "S", f_b64dec, NULL },
    { "b64enc", "S", f_b64enc, NULL },
    { "fromJson", "S", f_fromjson, NULL },
    { "mustFromJson", "S", f_mustfromjson, NULL },
    { "mustToJson", "A", f_musttojson, NULL },
    { "mustToPrettyJson", "A", f_musttoprettyjson, NULL },
    { "mustToRawJson", "A", f_musttorawjson, NULL },
    { "toJson", "A", f_tojson, NULL },
    { "toPrettyJson", "A", f_toprettyjson, NULL },
    { "toRawJson", "A", f_torawjson, NULL },
    { "highlight", "A", NULL, "syntax highlighting (helm-docs' chroma) is not implemented" },
    { "toHTML", "A", NULL, "helm-docs renders Markdown with gomarkdown, whose exact HTML schemadoc does not reproduce" },
    { "tpl", "A", NULL, "Helm's tpl is not part of helm-docs" },
    { "required", "A", NULL, "Helm's required is not part of helm-docs" },
    { "lookup", "A", NULL, "a template cannot reach the network" },
    { NULL, NULL, NULL, NULL }
};
