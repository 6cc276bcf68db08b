/* format.c - the `format` keyword's checks: string in, yes or no out.
 *
 * JSON Schema validation 2020-12 §7.3 names the formats and their RFCs:
 * date-time/date/time/duration (RFC 3339 and its appendix A), email
 * (RFC 5321 mailbox), hostname (RFC 1123), ipv4/ipv6 (RFC 2673 dotted
 * quad, RFC 4291), uri/uri-reference (RFC 3986), iri/iri-reference
 * (RFC 3987, checked as RFC 3986 that also allows non-ASCII), uuid
 * (RFC 4122), regex (compiles with PCRE2 as `pattern` does), json-pointer
 * (RFC 6901), relative-json-pointer, uri-template (RFC 6570 braces), plus
 * ytt's port (0-65535), percent (0-100, optional %) and Go durations
 * ("1h30m", time.ParseDuration) as `go-duration`. Unknown formats pass. */
#include "validate.h"
#include "buf.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
    F_DATE_TIME, F_DATE, F_TIME, F_DURATION, F_EMAIL, F_IDN_EMAIL, F_HOSTNAME,
    F_IDN_HOSTNAME, F_IPV4, F_IPV6, F_URI, F_URI_REF, F_IRI, F_IRI_REF, F_UUID,
    F_REGEX, F_JSON_POINTER, F_REL_JSON_POINTER, F_URI_TEMPLATE, F_PORT,
    F_PERCENT, F_GO_DURATION, F_HOSTNAME_RFC1123, F_COUNT
};

static const char *const names[F_COUNT] = {
    "date-time", "date", "time", "duration", "email", "idn-email", "hostname",
    "idn-hostname", "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference",
    "uuid", "regex", "json-pointer", "relative-json-pointer", "uri-template", "port",
    "percent", "go-duration", "hostname"
};

int sd_format_id_for(const char *name, int draft)
{
    int id = sd_format_id(name);
    /* draft 4 cites RFC 1123 alone: "a--b" is a fine host name there */
    return id == F_HOSTNAME && draft == 4 ? F_HOSTNAME_RFC1123 : id;
}

int sd_format_id(const char *name)
{
    for (int i = 0; i < F_HOSTNAME_RFC1123; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

const char *sd_format_name(int id)
{
    return id >= 0 && id < F_COUNT ? names[id] : "?";
}

static int digits(const char *s, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 1;
}

static int is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int check_date(const char *s, size_t n)
{
    static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    int y, m, d;
    if (n != 10 || s[4] != '-' || s[7] != '-')
        return 0;
    if (!digits(s, 4, &y) || !digits(s + 5, 2, &m) || !digits(s + 8, 2, &d))
        return 0;
    if (m < 1 || m > 12 || d < 1)
        return 0;
    return d <= mdays[m - 1] + (m == 2 && is_leap(y));
}

static int check_time(const char *s, size_t n)
{
    int h, mi, sec, oh = 0, om = 0, sign = 0;
    size_t i = 8;
    if (n < 9 || s[2] != ':' || s[5] != ':')
        return 0;
    if (!digits(s, 2, &h) || !digits(s + 3, 2, &mi) || !digits(s + 6, 2, &sec))
        return 0;
    if (h > 23 || mi > 59 || sec > 60)
        return 0;
    if (i < n && s[i] == '.') {
        size_t start = ++i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == start)
            return 0;
    }
    if (i >= n)
        return 0;
    if ((s[i] == 'Z' || s[i] == 'z') && i + 1 == n) {
        sign = 0;
    } else if ((s[i] == '+' || s[i] == '-') && n - i == 6 && s[i + 3] == ':') {
        if (!digits(s + i + 1, 2, &oh) || !digits(s + i + 4, 2, &om) || oh > 23 || om > 59)
            return 0;
        sign = s[i] == '+' ? 1 : -1;
    } else {
        return 0;
    }
    if (sec == 60) {
        /* a leap second is 23:59:60 in UTC */
        int utc = h * 60 + mi - sign * (oh * 60 + om);
        utc = ((utc % 1440) + 1440) % 1440;
        if (utc != 23 * 60 + 59)
            return 0;
    }
    return 1;
}

static int check_date_time(const char *s, size_t n)
{
    if (n < 20 || (s[10] != 'T' && s[10] != 't'))
        return 0;
    return check_date(s, 10) && check_time(s + 11, n - 11);
}

/* RFC 3339 appendix A: P(nY)(nM)(nD)(T(nH)(nM)(nS)) or PnW. */
static int check_duration(const char *s, size_t n)
{
    static const char date_units[] = "YMD", time_units[] = "HMS";
    size_t i = 1;
    int any = 0, in_time = 0, last = -1;
    if (n < 2 || s[0] != 'P')
        return 0;
    if (s[n - 1] == 'W') {
        for (i = 1; i < n - 1; i++)
            if (!isdigit((unsigned char)s[i]))
                return 0;
        return n > 2;
    }
    while (i < n) {
        if (s[i] == 'T') {
            if (in_time)
                return 0;
            in_time = 1;
            last = -1;
            i++;
            if (i >= n)
                return 0;
            continue;
        }
        size_t start = i;
        while (i < n && isdigit((unsigned char)s[i]))
            i++;
        if (i == start || i >= n)
            return 0;
        const char *units = in_time ? time_units : date_units;
        const char *u = strchr(units, s[i]);
        if (!u || s[i] == '\0')
            return 0;
        int idx = (int)(u - units);
        /* dur-year = n"Y" [dur-month], dur-month = n"M" [dur-day], and
         * likewise H, M, S: units follow each other without gaps */
        if (last >= 0 ? idx != last + 1 : 0)
            return 0;
        last = idx;
        any = 1;
        i++;
    }
    if (in_time && last < 0)
        return 0;
    return any;
}

static int check_ipv4(const char *s, size_t n)
{
    size_t i = 0;
    for (int part = 0; part < 4; part++) {
        size_t start = i;
        int v = 0;
        if (part) {
            if (i >= n || s[i] != '.')
                return 0;
            start = ++i;
        }
        while (i < n && s[i] >= '0' && s[i] <= '9' && i - start < 4)
            v = v * 10 + (s[i++] - '0');
        if (i == start || i - start > 3 || v > 255 || (s[start] == '0' && i - start > 1))
            return 0;
    }
    return i == n;
}

static int check_ipv6(const char *s, size_t n)
{
    int groups = 0, dbl = 0;
    size_t i = 0;
    if (n < 2)
        return 0;
    if (s[0] == ':') {
        if (s[1] != ':')
            return 0;
        dbl = 1;
        i = 2;
        if (i == n)
            return 1;
    }
    while (i < n) {
        size_t start = i;
        while (i < n && isxdigit((unsigned char)s[i]) && i - start < 5)
            i++;
        if (i < n && s[i] == '.') {
            /* trailing dotted quad counts as two groups */
            if (!check_ipv4(s + start, n - start))
                return 0;
            groups += 2;
            i = n;
            break;
        }
        if (i == start || i - start > 4)
            return 0;
        groups++;
        if (i == n)
            break;
        if (s[i] != ':')
            return 0;
        i++;
        if (i < n && s[i] == ':') {
            if (dbl)
                return 0;
            dbl = 1;
            i++;
            if (i == n)
                break;
        } else if (i == n) {
            return 0;
        }
    }
    return dbl ? groups < 8 : groups == 8;
}

/* ---- host names: RFC 1123 labels, IDNA2008 A-labels and U-labels ------- */

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

static size_t utf8_encode(uint32_t cp, char *o)
{
    if (cp < 0x80) { o[0] = (char)cp; return 1; }
    if (cp < 0x800) { o[0] = (char)(0xC0 | cp >> 6); o[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | cp >> 12); o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F)); return 3;
    }
    o[0] = (char)(0xF0 | cp >> 18); o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
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
    len = utf8_encode(cp, buf);
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

static int check_hostname_1123(const char *s, size_t n)
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

static int check_hostname(const char *s, size_t n, int idn)
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

static int check_email(const char *s, size_t n, int idn)
{
    const char *at = NULL;
    size_t i, local;
    if (n && s[0] == '"') {
        for (i = 1; i < n && s[i] != '"'; i++)
            if (s[i] == '\\')
                i++;
        if (i + 1 >= n || s[i + 1] != '@')
            return 0;
        at = s + i + 1;
    } else {
        for (i = 0; i < n; i++)
            if (s[i] == '@')
                at = s + i;
        if (!at)
            return 0;
        local = (size_t)(at - s);
        if (local == 0 || s[0] == '.' || s[local - 1] == '.')
            return 0;
        for (i = 0; i < local; i++) {
            unsigned char c = (unsigned char)s[i];
            if (c == '.' && s[i + 1] == '.')
                return 0;
            if (!(isalnum(c) || strchr(".!#$%&'*+-/=?^_`{|}~", c) || (idn && c >= 0x80)) || c == 0)
                return 0;
        }
    }
    {
        const char *d = at + 1;
        size_t dn = n - (size_t)(d - s);
        if (dn >= 2 && d[0] == '[' && d[dn - 1] == ']') {
            if (dn > 7 && strncmp(d + 1, "IPv6:", 5) == 0)
                return check_ipv6(d + 6, dn - 7);
            return check_ipv4(d + 1, dn - 2);
        }
        return check_hostname(d, dn, idn);
    }
}

static int check_uuid(const char *s, size_t n)
{
    if (n != 36)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (s[i] != '-')
                return 0;
        } else if (!isxdigit((unsigned char)s[i])) {
            return 0;
        }
    }
    return 1;
}

/* RFC 3986 characters: unreserved, reserved, or %HH (and, for IRIs, any
 * non-ASCII byte). `extra` lists the delimiters allowed in this part. */
static int uri_chars(const char *s, size_t n, const char *extra, int iri)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '%') {
            if (i + 2 >= n + 0 || !isxdigit((unsigned char)s[i + 1]) || !isxdigit((unsigned char)s[i + 2]))
                return 0;
            i += 2;
            continue;
        }
        if (isalnum(c) || strchr("-._~!$&'()*+,;=", c) || (c && strchr(extra, c)))
            continue;
        if (iri && c >= 0x80)
            continue;
        return 0;
    }
    return 1;
}

static int check_uri_ref(const char *s, size_t n, int absolute, int iri)
{
    size_t i = 0, scheme_end = 0;
    const char *hash, *q;
    size_t end;

    if (n && memchr(s, '\0', n))
        return 0;
    /* scheme */
    if (n && isalpha((unsigned char)s[0])) {
        size_t k = 1;
        while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '+' || s[k] == '-' || s[k] == '.'))
            k++;
        if (k < n && s[k] == ':')
            scheme_end = k + 1;
    }
    if (absolute && !scheme_end)
        return 0;
    i = scheme_end;
    hash = memchr(s + i, '#', n - i);
    end = hash ? (size_t)(hash - s) : n;
    if (hash && !uri_chars(hash + 1, n - end - 1, ":@/?", iri))
        return 0;
    q = memchr(s + i, '?', end - i);
    if (q && !uri_chars(q + 1, end - (size_t)(q - s) - 1, ":@/?", iri))
        return 0;
    if (q)
        end = (size_t)(q - s);
    if (end - i >= 2 && s[i] == '/' && s[i + 1] == '/') {
        size_t a = i + 2, ae = a, hs, he;
        while (ae < end && s[ae] != '/')
            ae++;
        hs = a;
        for (size_t k = a; k < ae; k++)
            if (s[k] == '@')
                hs = k + 1;
        if (hs > a && !uri_chars(s + a, hs - 1 - a, ":", iri))
            return 0;
        he = ae;
        if (hs < ae && s[hs] == '[') {
            const char *rb = memchr(s + hs, ']', ae - hs);
            if (!rb)
                return 0;
            if (s[hs + 1] == 'v' || s[hs + 1] == 'V') {
                /* IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ) */
                size_t k = hs + 2;
                while (k < (size_t)(rb - s) && isxdigit((unsigned char)s[k]))
                    k++;
                if (k == hs + 2 || s[k] != '.' || k + 1 >= (size_t)(rb - s) ||
                    !uri_chars(s + k + 1, (size_t)(rb - s) - k - 1, ":", 0))
                    return 0;
            } else if (!check_ipv6(s + hs + 1, (size_t)(rb - s) - hs - 1)) {
                return 0;
            }
            he = (size_t)(rb - s) + 1;
            if (he < ae && s[he] != ':')
                return 0;
        } else {
            for (size_t k = hs; k < ae; k++)
                if (s[k] == ':') { he = k; break; }
            if (!uri_chars(s + hs, he - hs, "", iri))
                return 0;
        }
        for (size_t k = he + 1; k < ae; k++)
            if (!isdigit((unsigned char)s[k]))
                return 0;
        i = ae;
    }
    /* path: in a relative reference the first segment cannot hold ':' */
    if (!scheme_end) {
        size_t k = i;
        while (k < end && s[k] != '/') {
            if (s[k] == ':')
                return 0;
            k++;
        }
    }
    return uri_chars(s + i, end - i, ":@/", iri);
}

static int check_json_pointer(const char *s, size_t n)
{
    if (n == 0)
        return 1;
    if (s[0] != '/')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '~' && (i + 1 >= n || (s[i + 1] != '0' && s[i + 1] != '1')))
            return 0;
    return 1;
}

static int check_rel_json_pointer(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && isdigit((unsigned char)s[i]))
        i++;
    if (i == 0 || (s[0] == '0' && i > 1))
        return 0;
    if (i == n)
        return 1;
    if (s[i] == '#')
        return i + 1 == n;
    return check_json_pointer(s + i, n - i);
}

/* ECMA-262 Unicode property names that PCRE2 spells differently. */
static const char *const gc_names[][2] = {
    { "Letter", "L" }, { "Cased_Letter", "L&" }, { "Uppercase_Letter", "Lu" },
    { "Lowercase_Letter", "Ll" }, { "Titlecase_Letter", "Lt" }, { "Modifier_Letter", "Lm" },
    { "Other_Letter", "Lo" }, { "Mark", "M" }, { "Combining_Mark", "M" },
    { "Nonspacing_Mark", "Mn" }, { "Spacing_Mark", "Mc" }, { "Enclosing_Mark", "Me" },
    { "Number", "N" }, { "Decimal_Number", "Nd" }, { "digit", "Nd" }, { "Letter_Number", "Nl" },
    { "Other_Number", "No" }, { "Punctuation", "P" }, { "punct", "P" },
    { "Connector_Punctuation", "Pc" }, { "Dash_Punctuation", "Pd" }, { "Open_Punctuation", "Ps" },
    { "Close_Punctuation", "Pe" }, { "Initial_Punctuation", "Pi" }, { "Final_Punctuation", "Pf" },
    { "Other_Punctuation", "Po" }, { "Symbol", "S" }, { "Math_Symbol", "Sm" },
    { "Currency_Symbol", "Sc" }, { "Modifier_Symbol", "Sk" }, { "Other_Symbol", "So" },
    { "Separator", "Z" }, { "Space_Separator", "Zs" }, { "Line_Separator", "Zl" },
    { "Paragraph_Separator", "Zp" }, { "Other", "C" }, { "Control", "Cc" }, { "cntrl", "Cc" },
    { "Format", "Cf" }, { "Surrogate", "Cs" }, { "Private_Use", "Co" }, { "Unassigned", "Cn" },
};

void *sd_regex_compile(const char *src, size_t len, int *errcode, size_t *erroff)
{
    sd_buf b = SD_BUF_INIT;
    PCRE2_SIZE off = 0;
    pcre2_code *re;

    /* ECMA-262 whitespace (\s) and line terminators (which `.` excludes) */
    static const char ws[] = "\\t\\n\\x0B\\f\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF";
    int in_class = 0;

    /* rewrite \p{Long_Name}, \p{gc=X}, \p{Script=X}; `.` and `\s` with
     * their ECMA-262 meaning; copy the rest */
    for (size_t i = 0; i < len; i++) {
        if (src[i] == '\\' && i + 1 < len && (src[i + 1] == 's' || src[i + 1] == 'S')) {
            if (in_class) {
                if (src[i + 1] == 's')
                    sd_buf_puts(&b, ws);
                else
                    sd_buf_puts(&b, "\\S");
            } else {
                sd_buf_puts(&b, src[i + 1] == 's' ? "[" : "[^");
                sd_buf_puts(&b, ws);
                sd_buf_putc(&b, ']');
            }
            i++;
            continue;
        }
        if (!in_class && src[i] == '.') {
            sd_buf_puts(&b, "[^\\n\\r\\u2028\\u2029]");
            continue;
        }
        if (!in_class && src[i] == '[') {
            in_class = 1;
            sd_buf_putc(&b, '[');
            if (i + 1 < len && src[i + 1] == '^')
                sd_buf_putc(&b, src[++i]);
            if (i + 1 < len && src[i + 1] == ']') {   /* [] and [^] */
                sd_buf_putc(&b, src[++i]);
                in_class = 0;
            }
            continue;
        }
        if (in_class && src[i] == ']')
            in_class = 0;
        if (src[i] == '\\' && i + 2 < len && (src[i + 1] == 'p' || src[i + 1] == 'P') && src[i + 2] == '{') {
            const char *name = src + i + 3, *end = memchr(name, '}', len - (size_t)(name - src));
            if (end) {
                size_t nl = (size_t)(end - name);
                const char *eq = memchr(name, '=', nl);
                if (eq) {
                    nl -= (size_t)(eq + 1 - name);
                    name = eq + 1;
                }
                sd_buf_putc(&b, '\\');
                sd_buf_putc(&b, src[i + 1]);
                sd_buf_putc(&b, '{');
                {
                    const char *mapped = NULL;
                    for (size_t k = 0; k < sizeof gc_names / sizeof *gc_names; k++)
                        if (strlen(gc_names[k][0]) == nl && !memcmp(gc_names[k][0], name, nl))
                            mapped = gc_names[k][1];
                    if (mapped)
                        sd_buf_puts(&b, mapped);
                    else
                        sd_buf_put(&b, name, nl);
                }
                sd_buf_putc(&b, '}');
                i = (size_t)(end - src);
                continue;
            }
        }
        if (src[i] == '\\' && i + 1 < len) {
            sd_buf_put(&b, src + i, 2);
            i++;
            continue;
        }
        sd_buf_putc(&b, src[i]);
    }
    if (sd_buf_failed(&b)) {
        *errcode = PCRE2_ERROR_NOMEMORY;
        *erroff = 0;
        sd_buf_release(&b);
        return NULL;
    }
    /* no PCRE2_UCP: \d \w \b stay ASCII, as in ECMA-262 */
    re = pcre2_compile((PCRE2_SPTR)b.ptr, b.len,
                       PCRE2_UTF | PCRE2_DOLLAR_ENDONLY | PCRE2_ALT_BSUX | PCRE2_ALLOW_EMPTY_CLASS,
                       errcode, &off, NULL);
    *erroff = off;
    sd_buf_release(&b);
    return re;
}

static int check_regex(const char *s, size_t n)
{
    int ec;
    size_t off;
    pcre2_code *re = sd_regex_compile(s, n, &ec, &off);
    if (!re)
        return 0;
    pcre2_code_free(re);
    /* ECMA-262 has no \a, \e, \z, \Z, \A escapes, no (?P<name>), (?#...)
     * or inline flag groups such as (?i) */
    for (size_t i = 0; i + 1 < n; i++) {
        if (s[i] == '\\') {
            if (strchr("aeAzZ", s[i + 1]))
                return 0;
            i++;
        } else if (s[i] == '(' && s[i + 1] == '?' && i + 2 < n &&
                   (isalpha((unsigned char)s[i + 2]) || s[i + 2] == '#')) {
            return 0;
        }
    }
    return 1;
}

/* RFC 6570 §2: literals and {op varspec,varspec...} expressions. */
static int check_uri_template(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c == '{') {
            i++;
            if (i < n && strchr("+#./;?&=,!@|", s[i]))
                i++;
            for (;;) {
                size_t start = i;
                /* varname = varchar *( ["."] varchar ) */
                while (i < n) {
                    if (isalnum((unsigned char)s[i]) || s[i] == '_') {
                        i++;
                    } else if (s[i] == '%' && i + 2 < n && isxdigit((unsigned char)s[i + 1]) &&
                               isxdigit((unsigned char)s[i + 2])) {
                        i += 3;
                    } else if (s[i] == '.' && i > start && i + 1 < n && s[i - 1] != '.' &&
                               (isalnum((unsigned char)s[i + 1]) || s[i + 1] == '_' || s[i + 1] == '%')) {
                        i++;
                    } else {
                        break;
                    }
                }
                if (i == start)
                    return 0;
                if (i < n && s[i] == ':') {
                    size_t d = ++i;
                    while (i < n && isdigit((unsigned char)s[i]))
                        i++;
                    if (i == d || i - d > 4 || s[d] == '0')
                        return 0;
                } else if (i < n && s[i] == '*') {
                    i++;
                }
                if (i < n && s[i] == ',') {
                    i++;
                    continue;
                }
                break;
            }
            if (i >= n || s[i] != '}')
                return 0;
            i++;
            continue;
        }
        if (c <= ' ' || c == 0x7f || strchr("\"<>\\^`|}", c))
            return 0;
        if (c == '%') {
            if (i + 2 >= n || !isxdigit((unsigned char)s[i + 1]) || !isxdigit((unsigned char)s[i + 2]))
                return 0;
            i += 3;
            continue;
        }
        i++;
    }
    return 1;
}

static int check_port(const char *s, size_t n)
{
    int v = 0;
    if (n == 0 || n > 5)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return 0;
        v = v * 10 + (s[i] - '0');
    }
    return v <= 65535 && !(s[0] == '0' && n > 1);
}

static int check_percent(const char *s, size_t n)
{
    char buf[32], *end;
    double v;
    if (n == 0 || n >= sizeof buf)
        return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (buf[n - 1] == '%')
        buf[--n] = '\0';
    if (n == 0 || !(isdigit((unsigned char)buf[0]) || buf[0] == '.'))
        return 0;
    v = strtod(buf, &end);
    return *end == '\0' && v >= 0 && v <= 100;
}

/* Go's time.ParseDuration: [-+]? ( decimal unit )+ | "0". */
static int check_go_duration(const char *s, size_t n)
{
    static const char *const units[] = { "ns", "us", "\xc2\xb5s", "\xce\xbcs", "ms", "s", "m", "h" };
    size_t i = 0;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        i++;
    if (n - i == 1 && s[i] == '0')
        return 1;
    if (i == n)
        return 0;
    while (i < n) {
        size_t start = i, best = 0;
        int dot = 0;
        while (i < n && (isdigit((unsigned char)s[i]) || (s[i] == '.' && !dot))) {
            dot |= s[i] == '.';
            i++;
        }
        if (i == start || (i - start == 1 && s[start] == '.'))
            return 0;
        for (size_t u = 0; u < sizeof units / sizeof *units; u++) {
            size_t ul = strlen(units[u]);
            if (ul > best && n - i >= ul && memcmp(s + i, units[u], ul) == 0)
                best = ul;
        }
        if (!best)
            return 0;
        i += best;
    }
    return 1;
}

int sd_format_check(int id, const char *s, size_t n)
{
    switch (id) {
    case F_DATE_TIME: return check_date_time(s, n);
    case F_DATE: return check_date(s, n);
    case F_TIME: return check_time(s, n);
    case F_DURATION: return check_duration(s, n);
    case F_EMAIL: return check_email(s, n, 0);
    case F_IDN_EMAIL: return check_email(s, n, 1);
    case F_HOSTNAME: return check_hostname(s, n, 0);
    case F_IDN_HOSTNAME: return check_hostname(s, n, 1);
    case F_HOSTNAME_RFC1123: return check_hostname_1123(s, n);
    case F_IPV4: return check_ipv4(s, n);
    case F_IPV6: return check_ipv6(s, n);
    case F_URI: return check_uri_ref(s, n, 1, 0);
    case F_URI_REF: return check_uri_ref(s, n, 0, 0);
    case F_IRI: return check_uri_ref(s, n, 1, 1);
    case F_IRI_REF: return check_uri_ref(s, n, 0, 1);
    case F_UUID: return check_uuid(s, n);
    case F_REGEX: return check_regex(s, n);
    case F_JSON_POINTER: return check_json_pointer(s, n);
    case F_REL_JSON_POINTER: return check_rel_json_pointer(s, n);
    case F_URI_TEMPLATE: return check_uri_template(s, n);
    case F_PORT: return check_port(s, n);
    case F_PERCENT: return check_percent(s, n);
    case F_GO_DURATION: return check_go_duration(s, n);
    default: return 1;
    }
}
