/* SPDX-License-Identifier: Apache-2.0 */
/* yaml_scalar.c - plain YAML scalars typed as go-yaml v2, yaml.v3 or the
 * YAML 1.2 core schema type them (yaml_scalar.h, docs/yaml-typing.md).
 *
 * go-yaml v2 and yaml.v3 read numbers alike (resolve.go: underscores
 * dropped, then Go's strconv.ParseInt / ParseUint with base 0, then the
 * YAML float pattern, then the 0b forms); they differ in their words
 * (v2 also takes y/yes/on/off/...) and in timestamps, which v3 recognises.
 * The 1.2 core schema is its own: decimal digits, 0o, 0x, and the float
 * pattern, nothing else. */
#include "yaml_scalar.h"

#include <math.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int eq_any(const char *s, size_t n, const char *const *words)
{
    for (; *words; words++)
        if ((*words)[0] == s[0] && strlen(*words) == n && memcmp(*words, s, n) == 0)
            return 1;
    return 0;
}

/* Go's strconv.ParseInt/ParseUint with base 0 on `s` (underscores removed).
 * Returns 1 for int64, 2 for a uint64 beyond int64 (in *u), 0 if not an int. */
static int parse_go_int(const char *s, long long *out, unsigned long long *u)
{
    int neg = 0, base = 10, any = 0;
    unsigned long long v = 0, lim;

    if (*s == '+' || *s == '-')
        neg = *s++ == '-';
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, s += 2;
    else if (s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) base = 8, s += 2;
    else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) base = 2, s += 2;
    else if (s[0] == '0' && s[1]) base = 8, s += 1;
    lim = (unsigned long long)-1;
    for (; *s; s++) {
        int d;
        if (*s >= '0' && *s <= '9') d = *s - '0';
        else if (*s >= 'a' && *s <= 'f') d = *s - 'a' + 10;
        else if (*s >= 'A' && *s <= 'F') d = *s - 'A' + 10;
        else return 0;
        if (d >= base)
            return 0;
        if (v > (lim - (unsigned)d) / (unsigned)base)
            return 0; /* overflows uint64: not an int (may still be a float) */
        v = v * (unsigned)base + (unsigned)d;
        any = 1;
    }
    if (!any)
        return 0;   /* a prefix alone ("0x", "0o", "0b") is not a number */
    if (neg) {
        if (v > (unsigned long long)LLONG_MAX + 1)
            return 0;
        *out = v == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN : -(long long)v;
        return 1;
    }
    if (v > (unsigned long long)LLONG_MAX) {
        *u = v;
        return 2;
    }
    *out = (long long)v;
    return 1;
}

/* ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ */
static int yaml_style_float(const char *s)
{
    if (*s == '+' || *s == '-')
        s++;
    if (*s == '.') {
        s++;
        if (!(*s >= '0' && *s <= '9'))
            return 0;
        while (*s >= '0' && *s <= '9') s++;
    } else {
        if (!(*s >= '0' && *s <= '9'))
            return 0;
        while (*s >= '0' && *s <= '9') s++;
        if (*s == '.') {
            s++;
            while (*s >= '0' && *s <= '9') s++;
        }
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (!(*s >= '0' && *s <= '9'))
            return 0;
        while (*s >= '0' && *s <= '9') s++;
    }
    return *s == '\0';
}

/* go-yaml v2 and yaml.v3 (resolve.go), which differ in their words and in
 * timestamps only. */
static sd_yaml_scalar read_go(const char *s, size_t len, int v3)
{
    static const char *const nulls[] = { "", "~", "null", "Null", "NULL", NULL };
    static const char *const trues_v2[] = { "y", "Y", "yes", "Yes", "YES", "true", "True",
                                            "TRUE", "on", "On", "ON", NULL };
    static const char *const falses_v2[] = { "n", "N", "no", "No", "NO", "false", "False",
                                             "FALSE", "off", "Off", "OFF", NULL };
    static const char *const trues_v3[] = { "true", "True", "TRUE", NULL };
    static const char *const falses_v3[] = { "false", "False", "FALSE", NULL };
    static const char *const infs[] = { ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", NULL };
    static const char *const ninfs[] = { "-.inf", "-.Inf", "-.INF", NULL };
    static const char *const nans[] = { ".nan", ".NaN", ".NAN", NULL };
    sd_yaml_scalar r = { SD_YAML_STR, 0, 0, 0, 0 };
    char tmp[128], *t;
    size_t i;
    int k;

    if (len == 0) { r.type = SD_YAML_NULL; return r; }
    /* fast exit for the common case: words that cannot be null, bool or number */
    if (len > 5 || !strchr("~nNyYtTfFoO.+-0123456789", s[0])) {
        if (!((s[0] >= '0' && s[0] <= '9') || s[0] == '+' || s[0] == '-' || s[0] == '.'))
            return r;
    }
    if (eq_any(s, len, nulls)) { r.type = SD_YAML_NULL; return r; }
    if (eq_any(s, len, v3 ? trues_v3 : trues_v2)) { r.type = SD_YAML_BOOL; r.b = 1; return r; }
    if (eq_any(s, len, v3 ? falses_v3 : falses_v2)) { r.type = SD_YAML_BOOL; return r; }
    if (eq_any(s, len, infs)) { r.type = SD_YAML_FLOAT; r.f = INFINITY; return r; }
    if (eq_any(s, len, ninfs)) { r.type = SD_YAML_FLOAT; r.f = -INFINITY; return r; }
    if (eq_any(s, len, nans)) { r.type = SD_YAML_FLOAT; r.f = NAN; return r; }
    /* go-yaml only tries numbers for text starting with a digit, sign or dot */
    if (len >= sizeof tmp || memchr(s, '\0', len))
        return r;
    if (!((s[0] >= '0' && s[0] <= '9') || s[0] == '+' || s[0] == '-' || s[0] == '.'))
        return r;
    for (i = 0, t = tmp; i < len; i++)
        if (s[i] != '_')
            *t++ = s[i];
    *t = '\0';
    if ((k = parse_go_int(tmp, &r.i, &r.u)) != 0) {
        r.type = k == 1 ? SD_YAML_INT : SD_YAML_UINT;
        return r;
    }
    if (yaml_style_float(tmp)) {
        r.type = SD_YAML_FLOAT;
        r.f = strtod(tmp, NULL);
        return r;
    }
    /* the binary forms go-yaml checks last */
    if ((tmp[0] == '0' && tmp[1] == 'b') || (tmp[0] == '-' && tmp[1] == '0' && tmp[2] == 'b')) {
        if (parse_go_int(tmp, &r.i, &r.u) == 1) {
            r.type = SD_YAML_INT;
            return r;
        }
    }
    /* yaml.v3 decodes a date (2001-12-14, 2001-12-14T21:59:43.10Z) as a
     * timestamp; its text is the value schemadoc keeps */
    if (v3 && len >= 10 && s[4] == '-' && s[7] == '-' && s[0] >= '0' && s[0] <= '9')
        r.type = SD_YAML_TIMESTAMP;
    return r;
}

/* The YAML 1.2 core schema (the npm yaml package readme-generator uses):
 * the text up to a NUL, if any, as readme-generator's strings end there. */
static sd_yaml_scalar read_core12(const char *s)
{
    static const char *const nulls[] = { "", "~", "null", "Null", "NULL", NULL };
    static const char *const trues[] = { "true", "True", "TRUE", NULL };
    static const char *const falses[] = { "false", "False", "FALSE", NULL };
    sd_yaml_scalar r = { SD_YAML_STR, 0, 0, 0, 0 };
    size_t n = strlen(s);

    if (eq_any(s, n, nulls)) { r.type = SD_YAML_NULL; return r; }
    if (eq_any(s, n, trues)) { r.type = SD_YAML_BOOL; r.b = 1; return r; }
    if (eq_any(s, n, falses)) { r.type = SD_YAML_BOOL; return r; }
    const char *d = s + (*s == '+' || *s == '-');
    if (*d >= '0' && *d <= '9' && !d[strspn(d, "0123456789")]) {
        /* an integer, as a JavaScript number: exact below 2^53 */
        r.type = SD_YAML_FLOAT;
        r.f = strtod(s, NULL);
        if (fabs(r.f) < 9007199254740992.0) {
            r.type = SD_YAML_INT;
            r.i = strtoll(s, NULL, 10);
        }
        return r;
    }
    if (s[0] == '0' && s[1] == 'o' && s[2] && strspn(s + 2, "01234567") == strlen(s + 2)) {
        r.type = SD_YAML_INT;
        r.i = strtoll(s + 2, NULL, 8);
        return r;
    }
    if (s[0] == '0' && s[1] == 'x' && s[2] && strspn(s + 2, "0123456789abcdefABCDEF") == strlen(s + 2)) {
        r.type = SD_YAML_INT;
        r.i = strtoll(s + 2, NULL, 16);
        return r;
    }
    r.type = SD_YAML_FLOAT;
    if (!strcmp(s, ".inf") || !strcmp(s, ".Inf") || !strcmp(s, ".INF") || !strcmp(s, "+.inf")) { r.f = INFINITY; return r; }
    if (!strcmp(s, "-.inf") || !strcmp(s, "-.Inf") || !strcmp(s, "-.INF")) { r.f = -INFINITY; return r; }
    if (!strcmp(s, ".nan") || !strcmp(s, ".NaN") || !strcmp(s, ".NAN")) { r.f = NAN; return r; }
    if (yaml_style_float(s)) {
        r.f = strtod(s, NULL);
        return r;
    }
    r.type = SD_YAML_STR;
    return r;
}

sd_yaml_scalar sd_yaml_scalar_read(const char *s, size_t len, enum sd_yaml_rules rules)
{
    if (rules == SD_YAML_CORE12) {
        /* the 1.2 reader wants a string: copy the text when it is not one */
        char small[128], *c = len < sizeof small ? small : malloc(len + 1);
        sd_yaml_scalar r = { SD_YAML_STR, 0, 0, 0, 0 };
        if (!c)
            return r;
        memcpy(c, s, len);
        c[len] = '\0';
        r = read_core12(c);
        if (c != small)
            free(c);
        return r;
    }
    return read_go(s, len, rules == SD_YAML_GO_V3);
}
