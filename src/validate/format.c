/* SPDX-License-Identifier: Apache-2.0 */
/* format.c - the `format` keyword's checks: string in, yes or no out.
 *
 * JSON Schema validation 2020-12 §7.3 names the formats and their RFCs:
 * date-time/date/time/duration (RFC 3339 and its appendix A), email
 * (RFC 5321 mailbox), hostname (RFC 1123), ipv4/ipv6 (RFC 2673 dotted
 * quad, RFC 4291), uri/uri-reference (RFC 3986), iri/iri-reference
 * (RFC 3987, checked as RFC 3986 that also allows non-ASCII), uuid
 * (RFC 4122), regex (ECMA-262 with the u flag, ecma_re.c), json-pointer
 * (RFC 6901), relative-json-pointer, uri-template (RFC 6570 braces), plus
 * ytt's port (0-65535), percent (0-100, optional %) and Go durations
 * ("1h30m", time.ParseDuration) as `go-duration`, and Kubernetes'
 * `quantity` and `int-or-string` (quantity.c). Unknown formats pass. */
#include "validate.h"
#include "ptr.h"
#include "buf.h"
#include "ecma_re.h"
#include "vnamed.h"

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
    F_PERCENT, F_GO_DURATION, F_QUANTITY, F_INT_OR_STRING, F_HOSTNAME_RFC1123, F_COUNT
};

static const char *const names[F_COUNT] = {
    "date-time", "date", "time", "duration", "email", "idn-email", "hostname",
    "idn-hostname", "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference",
    "uuid", "regex", "json-pointer", "relative-json-pointer", "uri-template", "port",
    "percent", "go-duration", "quantity", "int-or-string", "hostname"
};

int sd_format_id_for(const char *name, int draft)
{
    int id = sd_format_id(name);
    /* drafts 4 and 6 cite RFC 1123 alone: "a--b" is a fine host name
     * there; draft 7 added the IDNA A-label rules */
    return id == F_HOSTNAME && (draft == 4 || draft == 6) ? F_HOSTNAME_RFC1123 : id;
}

int sd_format_id(const char *name)
{
    for (int i = 0; i < F_HOSTNAME_RFC1123; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

const char *sd_vnamed_words(const char *format, const char *pattern)
{
    static const struct { const char *name, *re, *words; } named[] = {
#define SD_VNAMED_ROW(name, re, words) { name, re, words },
        SD_VNAMED_LIST(SD_VNAMED_ROW)
#undef SD_VNAMED_ROW
    };
    for (size_t i = 0; i < sizeof named / sizeof *named; i++)
        if ((format && !strcmp(format, named[i].name)) || (pattern && named[i].re && !strcmp(pattern, named[i].re)))
            return named[i].words;
    return NULL;
}

const char *sd_format_name(int id)
{
    return id >= 0 && id < F_COUNT ? names[id] : "?";
}

const char *sd_format_check_name(int id)
{
    return id == F_HOSTNAME_RFC1123 ? "hostname-rfc1123" : sd_format_name(id);
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
        return sd_format__hostname(d, dn, idn);
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
    return sd_ptr_valid(s + i, n - i);
}

/* A backreference by number (\1 .. \9...) outside a character class. */
static int numbered_backref(const char *p, size_t n)
{
    int in_class = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\\' && i + 1 < n) {
            if (!in_class && p[i + 1] >= '1' && p[i + 1] <= '9')
                return 1;
            i++;
        } else if (p[i] == '[') {
            in_class = 1;
        } else if (p[i] == ']') {
            in_class = 0;
        }
    }
    return 0;
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
    /* no PCRE2_UCP: \d \w \b stay ASCII, as in ECMA-262. A match is
     * only asked yes or no: groups need not capture unless a numbered
     * backreference counts them (named groups capture regardless). */
    re = pcre2_compile((PCRE2_SPTR)b.ptr, b.len,
                       PCRE2_UTF | PCRE2_DOLLAR_ENDONLY | PCRE2_ALT_BSUX | PCRE2_ALLOW_EMPTY_CLASS |
                           (numbered_backref(b.ptr, b.len) ? 0 : PCRE2_NO_AUTO_CAPTURE),
                       errcode, &off, NULL);
    *erroff = off;
    sd_buf_release(&b);
    return re;
}

/* JSON Schema's `regex` is ECMA-262's grammar (validation 2020-12 §7.3.8):
 * what JavaScript's RegExp accepts with the `u` flag (ecma_re.c). */
static int check_regex(const char *s, size_t n)
{
    return sd_ecma_re_valid(s, n);
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
    case F_HOSTNAME: return sd_format__hostname(s, n, 0);
    case F_IDN_HOSTNAME: return sd_format__hostname(s, n, 1);
    case F_HOSTNAME_RFC1123: return sd_format__hostname_1123(s, n);
    case F_IPV4: return check_ipv4(s, n);
    case F_IPV6: return check_ipv6(s, n);
    case F_URI: return check_uri_ref(s, n, 1, 0);
    case F_URI_REF: return check_uri_ref(s, n, 0, 0);
    case F_IRI: return check_uri_ref(s, n, 1, 1);
    case F_IRI_REF: return check_uri_ref(s, n, 0, 1);
    case F_UUID: return check_uuid(s, n);
    case F_REGEX: return check_regex(s, n);
    case F_JSON_POINTER: return sd_ptr_valid(s, n);
    case F_REL_JSON_POINTER: return check_rel_json_pointer(s, n);
    case F_URI_TEMPLATE: return check_uri_template(s, n);
    case F_PORT: return check_port(s, n);
    case F_PERCENT: return check_percent(s, n);
    case F_GO_DURATION: return check_go_duration(s, n);
    case F_QUANTITY: return sd_format__quantity(s, n);
    case F_INT_OR_STRING: return sd_format__int_or_string(s, n);
    default: return 1;
    }
}
