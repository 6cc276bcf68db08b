/* SPDX-License-Identifier: Apache-2.0 */
/* entity.c - HTML character references -> UTF-8 (see entity.h). */
#include "entity.h"
#include "buf.h"

#include <stdlib.h>
#include <string.h>

static const struct { const char *name; unsigned long cp; } named[] = {
    { "amp", '&' }, { "lt", '<' }, { "gt", '>' }, { "quot", '"' }, { "apos", '\'' },
    { "nbsp", 0xA0 }, { "reg", 0xAE }, { "copy", 0xA9 }, { "trade", 0x2122 }, { "deg", 0xB0 },
    { "hellip", 0x2026 }, { "mdash", 0x2014 }, { "ndash", 0x2013 }, { "laquo", 0xAB },
    { "raquo", 0xBB }, { "lsquo", 0x2018 }, { "rsquo", 0x2019 }, { "ldquo", 0x201C },
    { "rdquo", 0x201D }, { "bull", 0x2022 }, { "middot", 0xB7 }, { "times", 0xD7 },
    { "divide", 0xF7 }, { "plusmn", 0xB1 }, { "micro", 0xB5 }, { "sect", 0xA7 }, { "para", 0xB6 },
    { "euro", 0x20AC }, { "pound", 0xA3 }, { "yen", 0xA5 }, { "cent", 0xA2 }, { "larr", 0x2190 },
    { "rarr", 0x2192 }, { "uarr", 0x2191 }, { "darr", 0x2193 }, { "harr", 0x2194 },
    { "le", 0x2264 }, { "ge", 0x2265 }, { "ne", 0x2260 }, { "infin", 0x221E },
    { NULL, 0 }
};

/* The code point of the reference at `p` (just after its '&'), with its
 * length up to and including the ';' in *len; 0 when it is none. */
static unsigned long reference(const char *p, size_t *len)
{
    const char *semi = strchr(p, ';');
    size_t n = semi ? (size_t)(semi - p) : 0;
    unsigned long cp = 0;

    if (!semi || n == 0 || n > 10)
        return 0;
    *len = n + 1;
    if (p[0] == '#') {
        int hex = p[1] == 'x' || p[1] == 'X';
        const char *d = p + 1 + hex;
        if (d == semi)
            return 0;
        for (; d < semi; d++) {
            int v = *d >= '0' && *d <= '9' ? *d - '0'
                  : hex && *d >= 'a' && *d <= 'f' ? *d - 'a' + 10
                  : hex && *d >= 'A' && *d <= 'F' ? *d - 'A' + 10 : -1;
            if (v < 0 || cp > 0x10FFFF)
                return 0;
            cp = cp * (hex ? 16 : 10) + (unsigned long)v;
        }
        /* a scalar value, and not a control character other than tab/newline */
        if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ||
            (cp < 0x20 && cp != '\t' && cp != '\n') || (cp >= 0x7F && cp < 0xA0))
            return 0;
        return cp;
    }
    for (size_t i = 0; named[i].name; i++)
        if (strlen(named[i].name) == n && !memcmp(named[i].name, p, n))
            return named[i].cp;
    return 0;
}

void sd_entity_decode_buf(sd_buf *b, const char *s)
{
    char u[8];

    for (const char *p = s; *p; p++) {
        size_t len = 0;
        unsigned long cp = *p == '&' ? reference(p + 1, &len) : 0;
        if (cp) {
            sd_buf_put(b, u, sd_utf8_encode(cp, u));
            p += len;
        } else {
            sd_buf_putc(b, *p);
        }
    }
}

char *sd_entity_decode(const char *s)
{
    sd_buf b = SD_BUF_INIT;

    sd_entity_decode_buf(&b, s);
    return sd_buf_detach(&b);   /* NULL when it failed */
}
