/* SPDX-License-Identifier: Apache-2.0 */
/* idna.c - the hostname and idn-hostname formats: RFC 1123 labels,
 * IDNA2008 A-labels (Punycode, RFC 3492, that must round-trip) and U-labels
 * (RFC 5891 §5.4, the contextual rules of RFC 5892 appendix A, the Bidi rule
 * of RFC 5893). Unicode properties (general category, script, bidi class)
 * come from PCRE2's tables through tiny cached regexes. */
#include "buf.h"
#include "validate.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <ctype.h>
#include <stdint.h>
#include <string.h>

#define MAX_LABEL_CP 256

/* UTF-8 -> code points (the loaders validated UTF-8 already). */
static size_t utf8_decode(const char *s, size_t n, uint32_t *out, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k < max;) {
        unsigned char c = (unsigned char)s[i];
        uint32_t cp;
        size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        if (i + len > n)
            return (size_t)-1;
        cp = len == 1 ? c : len == 2 ? c & 0x1Fu : len == 3 ? c & 0x0Fu : c & 0x07u;
        for (size_t j = 1; j < len; j++)
            cp = cp << 6 | ((unsigned char)s[i + j] & 0x3Fu);
        out[k++] = cp;
        i += len;
    }
    return k;
}

/* RFC 3492 Punycode. */
enum { PC_BASE = 36, PC_TMIN = 1, PC_TMAX = 26, PC_SKEW = 38, PC_DAMP = 700, PC_BIAS = 72, PC_N = 128 };

static uint32_t pc_adapt(uint32_t delta, uint32_t numpoints, int first)
{
    uint32_t k = 0;
    delta = first ? delta / PC_DAMP : delta / 2;
    delta += delta / numpoints;
    while (delta > ((PC_BASE - PC_TMIN) * PC_TMAX) / 2) {
        delta /= PC_BASE - PC_TMIN;
        k += PC_BASE;
    }
    return k + (PC_BASE - PC_TMIN + 1) * delta / (delta + PC_SKEW);
}

static int pc_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0' + 26;
    if (c >= 'a' && c <= 'z') return c - 'a';
    if (c >= 'A' && c <= 'Z') return c - 'A';
    return -1;
}

static size_t punycode_decode(const char *in, size_t n, uint32_t *out, size_t max)
{
    uint32_t cp = PC_N, bias = PC_BIAS, i = 0;
    size_t k = 0, b = 0, pos;
    for (size_t j = 0; j < n; j++)
        if (in[j] == '-')
            b = j;
    if (b > max)
        return (size_t)-1;
    for (size_t j = 0; j < b; j++) {
        if ((unsigned char)in[j] >= 0x80)
            return (size_t)-1;
        out[k++] = (unsigned char)in[j];
    }
    for (pos = b > 0 ? b + 1 : 0; pos < n;) {
        uint32_t oldi = i, w = 1;
        for (uint32_t kk = PC_BASE;; kk += PC_BASE) {
            int d;
            uint32_t t;
            if (pos >= n || (d = pc_digit(in[pos++])) < 0)
                return (size_t)-1;
            if ((uint32_t)d > (UINT32_MAX - i) / w)
                return (size_t)-1;
            i += (uint32_t)d * w;
            t = kk <= bias ? PC_TMIN : kk >= bias + PC_TMAX ? PC_TMAX : kk - bias;
            if ((uint32_t)d < t)
                break;
            if (w > UINT32_MAX / (PC_BASE - t))
                return (size_t)-1;
            w *= PC_BASE - t;
        }
        bias = pc_adapt(i - oldi, (uint32_t)k + 1, oldi == 0);
        if (i / (k + 1) > 0x10FFFF - cp || k >= max)
            return (size_t)-1;
        cp += i / (uint32_t)(k + 1);
        i %= (uint32_t)(k + 1);
        memmove(out + i + 1, out + i, (k - i) * sizeof *out);
        out[i++] = cp;
        k++;
    }
    return k;
}

static size_t punycode_encode(const uint32_t *in, size_t n, char *out, size_t max)
{
    uint32_t cp = PC_N, delta = 0, bias = PC_BIAS, h, b;
    size_t k = 0;
    for (size_t j = 0; j < n; j++)
        if (in[j] < 0x80) {
            if (k >= max) return (size_t)-1;
            out[k++] = (char)in[j];
        }
    h = b = (uint32_t)k;
    if (b > 0) {
        if (k >= max) return (size_t)-1;
        out[k++] = '-';
    }
    while (h < n) {
        uint32_t m = UINT32_MAX;
        for (size_t j = 0; j < n; j++)
            if (in[j] >= cp && in[j] < m)
                m = in[j];
        if ((uint64_t)(m - cp) * (h + 1) + delta > UINT32_MAX)
            return (size_t)-1;
        delta += (m - cp) * (h + 1);
        cp = m;
        for (size_t j = 0; j < n; j++) {
            if (in[j] < cp)
                delta++;
            if (in[j] == cp) {
                uint32_t q = delta;
                for (uint32_t kk = PC_BASE;; kk += PC_BASE) {
                    uint32_t t = kk <= bias ? PC_TMIN : kk >= bias + PC_TMAX ? PC_TMAX : kk - bias, dgt;
                    if (q < t)
                        break;
                    dgt = t + (q - t) % (PC_BASE - t);
                    if (k >= max) return (size_t)-1;
                    out[k++] = (char)(dgt < 26 ? 'a' + dgt : '0' + dgt - 26);
                    q = (q - t) / (PC_BASE - t);
                }
                if (k >= max) return (size_t)-1;
                out[k++] = (char)(q < 26 ? 'a' + q : '0' + q - 26);
                bias = pc_adapt(delta, h + 1, h == b);
                delta = 0;
                h++;
            }
        }
        delta++;
        cp++;
    }
    return k;
}

/* Unicode properties of one code point, through PCRE2's tables. */
enum {
    U_MARK, U_UPPER, U_GREEK, U_HEBREW, U_KANA_HAN, U_PVALID, U_JOINING,
    B_L, B_R, B_AL, B_AN, B_EN, B_ES, B_CS, B_ET, B_ON, B_BN, B_NSM, U_COUNT
};

static int uprop(int which, uint32_t cp)
{
    static const char *const pats[U_COUNT] = {
        "^\\p{M}$", "^[\\p{Lu}\\p{Lt}]$", "^\\p{Greek}$", "^\\p{Hebrew}$",
        "^[\\p{Hiragana}\\p{Katakana}\\p{Han}]$", "^[\\p{Ll}\\p{Lo}\\p{Lm}\\p{Mn}\\p{Mc}\\p{Nd}]$",
        "^[\\p{Arabic}\\p{Syriac}\\p{Nko}\\p{Mongolian}\\p{Mandaic}\\p{Manichaean}\\p{Psalter_Pahlavi}]$",
        "^\\p{bc=L}$", "^\\p{bc=R}$", "^\\p{bc=AL}$", "^\\p{bc=AN}$", "^\\p{bc=EN}$", "^\\p{bc=ES}$",
        "^\\p{bc=CS}$", "^\\p{bc=ET}$", "^\\p{bc=ON}$", "^\\p{bc=BN}$", "^\\p{bc=NSM}$",
    };
    static pcre2_code *res[U_COUNT];
    static pcre2_match_data *md;
    char buf[4];
    size_t len;
    int rc;
    if (!res[which]) {
        int ec;
        PCRE2_SIZE off;
        if (!(res[which] = pcre2_compile((PCRE2_SPTR)pats[which], PCRE2_ZERO_TERMINATED, PCRE2_UTF, &ec, &off, NULL)))
            return 0;
    }
    if (!md && !(md = pcre2_match_data_create(1, NULL)))
        return 0;
    len = sd_utf8_encode(cp, buf);
    rc = pcre2_match(res[which], (PCRE2_SPTR)buf, len, 0, 0, md, NULL);
    return rc >= 0;
}

static int is_virama(uint32_t cp)
{
    /* Canonical_Combining_Class=Virama (9), Unicode 15 */
    static const uint32_t v[] = {
        0x094D, 0x09CD, 0x0A4D, 0x0ACD, 0x0B4D, 0x0BCD, 0x0C4D, 0x0CCD, 0x0D3B, 0x0D3C, 0x0D4D,
        0x0DCA, 0x0E3A, 0x0EBA, 0x0F84, 0x1039, 0x103A, 0x1714, 0x1715, 0x1734, 0x17D2, 0x1A60,
        0x1B44, 0x1BAA, 0x1BAB, 0x1BF2, 0x1BF3, 0x2D7F, 0xA806, 0xA82C, 0xA8C4, 0xA953, 0xA9C0,
        0xAAF6, 0xABED, 0x10A3F, 0x11046, 0x11070, 0x1107F, 0x110B9, 0x11133, 0x11134, 0x111C0,
        0x11235, 0x112EA, 0x1134D, 0x11442, 0x114C2, 0x115BF, 0x1163F, 0x116B6, 0x1172B, 0x11839,
        0x1193D, 0x1193E, 0x119E0, 0x11A34, 0x11A47, 0x11A99, 0x11C3F, 0x11D44, 0x11D45, 0x11D97
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        if (v[i] == cp)
            return 1;
    return 0;
}

static int bidi_class(uint32_t cp)
{
    for (int b = B_L; b <= B_NSM; b++)
        if (uprop(b, cp))
            return b;
    return -1;
}

/* RFC 5893 §2, for one label of a Bidi domain name. */
static int bidi_rule(const uint32_t *u, size_t n)
{
    int first = bidi_class(u[0]), rtl, en = 0, an = 0;
    size_t last = n;
    if (first != B_L && first != B_R && first != B_AL)
        return 0;
    rtl = first != B_L;
    while (last > 0 && bidi_class(u[last - 1]) == B_NSM)
        last--;
    for (size_t i = 0; i < n; i++) {
        int c = bidi_class(u[i]);
        if (rtl) {
            if (!(c == B_R || c == B_AL || c == B_AN || c == B_EN || c == B_ES || c == B_CS ||
                  c == B_ET || c == B_ON || c == B_BN || c == B_NSM))
                return 0;
        } else if (!(c == B_L || c == B_EN || c == B_ES || c == B_CS || c == B_ET || c == B_ON ||
                     c == B_BN || c == B_NSM)) {
            return 0;
        }
        en |= c == B_EN;
        an |= c == B_AN;
    }
    if (last == 0)
        return 0;
    {
        int e = bidi_class(u[last - 1]);
        if (rtl ? !(e == B_R || e == B_AL || e == B_EN || e == B_AN) : !(e == B_L || e == B_EN))
            return 0;
    }
    return !(rtl && en && an);
}

/* IDNA2008 (RFC 5891 §5.4, RFC 5892 appendix A) checks of a U-label. The
 * PVALID test is approximate: letters that are not upper or title case,
 * marks and decimal digits, plus the listed exceptions. */
static int check_ulabel(const uint32_t *u, size_t n)
{
    int arabic_indic = 0, ext_arabic_indic = 0, kana_dot = 0, kana_han = 0;
    if (n == 0 || u[0] == '-' || u[n - 1] == '-')
        return 0;
    if (n >= 4 && u[2] == '-' && u[3] == '-')
        return 0;
    if (uprop(U_MARK, u[0]))
        return 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = u[i];
        switch (c) {
        case 0x00DF: case 0x03C2: case 0x06FD: case 0x06FE: case 0x0F0B: case 0x3007:
            continue;   /* exceptions: PVALID */
        case 0x0640: case 0x07FA: case 0x302E: case 0x302F: case 0x3031: case 0x3032:
        case 0x3033: case 0x3034: case 0x3035: case 0x303B:
            return 0;   /* exceptions: DISALLOWED */
        case 0x00B7:    /* MIDDLE DOT: between two 'l' */
            if (i == 0 || i + 1 >= n || u[i - 1] != 'l' || u[i + 1] != 'l')
                return 0;
            continue;
        case 0x0375:    /* GREEK LOWER NUMERAL SIGN: followed by Greek */
            if (i + 1 >= n || !uprop(U_GREEK, u[i + 1]))
                return 0;
            continue;
        case 0x05F3: case 0x05F4:  /* GERESH, GERSHAYIM: after Hebrew */
            if (i == 0 || !uprop(U_HEBREW, u[i - 1]))
                return 0;
            continue;
        case 0x30FB:
            kana_dot = 1;
            continue;
        case 0x200D:    /* ZERO WIDTH JOINER: after a virama */
            if (i == 0 || !is_virama(u[i - 1]))
                return 0;
            continue;
        case 0x200C:    /* ZERO WIDTH NON-JOINER: after a virama, or between joining letters */
            if (i > 0 && is_virama(u[i - 1]))
                continue;
            if (i == 0 || i + 1 >= n || !uprop(U_JOINING, u[i - 1]) || !uprop(U_JOINING, u[i + 1]))
                return 0;
            continue;
        default:
            break;
        }
        if (c >= 0x0660 && c <= 0x0669)
            arabic_indic = 1;
        if (c >= 0x06F0 && c <= 0x06F9)
            ext_arabic_indic = 1;
        if (c < 0x80) {
            if (!(isalnum((int)c) || c == '-') || (c >= 'A' && c <= 'Z'))
                return 0;
            continue;
        }
        if (uprop(U_KANA_HAN, c))
            kana_han = 1;
        if (uprop(U_UPPER, c) || !uprop(U_PVALID, c))
            return 0;
    }
    if (arabic_indic && ext_arabic_indic)
        return 0;
    if (kana_dot && !kana_han)
        return 0;
    return 1;
}

static int is_rtl_char(uint32_t c)
{
    return uprop(B_R, c) || uprop(B_AL, c) || uprop(B_AN, c);
}

int sd_format__hostname_1123(const char *s, size_t n)
{
    size_t i = 0;
    if (n == 0 || n > 253)
        return 0;
    while (i <= n) {
        size_t start = i;
        while (i < n && s[i] != '.') {
            if (!(isalnum((unsigned char)s[i]) || s[i] == '-'))
                return 0;
            i++;
        }
        if (i == start || i - start > 63 || s[start] == '-' || s[i - 1] == '-')
            return 0;
        i++;
    }
    return 1;
}

int sd_format__hostname(const char *s, size_t n, int idn)
{
    uint32_t u[MAX_LABEL_CP];
    size_t labels[128][2], nl = 0, i = 0, ascii_len = 0;
    int bidi_domain = 0;

    if (n == 0)
        return 0;
    /* split at '.' and, for idn, U+3002 U+FF0E U+FF61 (RFC 3490 §3.1) */
    for (size_t start = 0;;) {
        size_t sep = 0;
        if (i == n || s[i] == '.' ||
            (idn && i + 3 <= n && (!memcmp(s + i, "\xe3\x80\x82", 3) || !memcmp(s + i, "\xef\xbc\x8e", 3) ||
                                   !memcmp(s + i, "\xef\xbd\xa1", 3)))) {
            sep = i == n ? 0 : s[i] == '.' ? 1 : 3;
            if (nl == sizeof labels / sizeof *labels)
                return 0;
            labels[nl][0] = start;
            labels[nl][1] = i - start;
            nl++;
            if (i == n)
                break;
            i += sep;
            start = i;
            continue;
        }
        i++;
    }
    for (size_t l = 0; l < nl; l++) {
        const char *lab = s + labels[l][0];
        size_t len = labels[l][1], k, nu;
        int ascii = 1;
        if (len == 0)
            return 0;
        for (k = 0; k < len; k++)
            if ((unsigned char)lab[k] >= 0x80)
                ascii = 0;
        if (ascii) {
            if (len > 63)
                return 0;
            for (k = 0; k < len; k++)
                if (!(isalnum((unsigned char)lab[k]) || lab[k] == '-'))
                    return 0;
            if (lab[0] == '-' || lab[len - 1] == '-')
                return 0;
            ascii_len += len + 1;
            if (len >= 4 && lab[2] == '-' && lab[3] == '-') {
                char re[64];
                size_t m;
                int non_ascii = 0;
                if ((lab[0] | 32) != 'x' || (lab[1] | 32) != 'n')
                    return 0;
                /* an A-label: valid Punycode that re-encodes to itself and
                 * decodes to a valid U-label with some non-ASCII */
                nu = punycode_decode(lab + 4, len - 4, u, MAX_LABEL_CP);
                if (nu == (size_t)-1 || nu == 0)
                    return 0;
                m = punycode_encode(u, nu, re, sizeof re);
                if (m != len - 4)
                    return 0;
                for (k = 0; k < m; k++)
                    if (tolower((unsigned char)re[k]) != tolower((unsigned char)lab[4 + k]))
                        return 0;
                for (k = 0; k < nu; k++)
                    non_ascii |= u[k] >= 0x80;
                if (!non_ascii || !check_ulabel(u, nu))
                    return 0;
                for (k = 0; k < nu; k++)
                    bidi_domain |= is_rtl_char(u[k]);
            }
            continue;
        }
        if (!idn)
            return 0;
        nu = utf8_decode(lab, len, u, MAX_LABEL_CP);
        if (nu == (size_t)-1 || nu == 0 || nu >= MAX_LABEL_CP || !check_ulabel(u, nu))
            return 0;
        {
            char enc[64];
            size_t m = punycode_encode(u, nu, enc, sizeof enc);
            if (m == (size_t)-1 || m + 4 > 63)
                return 0;
            ascii_len += m + 5;
        }
        for (k = 0; k < nu; k++)
            bidi_domain |= is_rtl_char(u[k]);
    }
    if (ascii_len - 1 > 253)
        return 0;
    if (bidi_domain) {
        /* a Bidi domain name: every label obeys the Bidi rule (RFC 5893) */
        for (size_t l = 0; l < nl; l++) {
            const char *lab = s + labels[l][0];
            size_t len = labels[l][1], nu;
            if (len >= 4 && (lab[0] | 32) == 'x' && (lab[1] | 32) == 'n' && lab[2] == '-' && lab[3] == '-')
                nu = punycode_decode(lab + 4, len - 4, u, MAX_LABEL_CP);
            else
                nu = utf8_decode(lab, len, u, MAX_LABEL_CP);
            if (nu == (size_t)-1 || !bidi_rule(u, nu))
                return 0;
        }
    }
    return 1;
}
