/* SPDX-License-Identifier: Apache-2.0 */
/* quantity.c - the Kubernetes formats `quantity` and `int-or-string`, as
 * the API server parses them (issue 43).
 *
 * quantity: k8s.io/apimachinery/pkg/api/resource.ParseQuantity:
 *   <quantity> ::= <sign>? <number> <suffix>
 *   <number>   ::= <digits> | <digits>.<digits> | <digits>. | .<digits>
 *   <suffix>   ::= "" | Ki | Mi | Gi | Ti | Pi | Ei          (binary SI)
 *                | n | u | m | k | M | G | T | P | E       (decimal SI)
 *                | (e | E) <sign>? <digits>                (decimal exponent)
 * so "500m", "1Gi", "1e3", "0.5" and ".5" parse, and "2 cores", "1K",
 * "1GB", "half" and "" do not. (Numbers too big or too precise are capped
 * or rounded, not refused.)
 *
 * int-or-string (intstr.IntOrString) as a string: what the fields of that
 * type accept in a string, an IANA service name (a port's name: 15 at
 * most, lowercase letters, digits and '-', a letter among them, no '-' at
 * either end or twice in a row; core validation's IsValidPortName) or a
 * percentage (`maxUnavailable: "25%"`). "http-port" and "25%" pass; "80"
 * written as a string does not (the API server refuses a port name
 * without a letter). An integer is not a string and is not checked here.
 *
 * In: bytes. Out: 1 valid, 0 not. */
#include "validate.h"

#include <string.h>

static int is_digit(char c) { return c >= '0' && c <= '9'; }

int sd_format__quantity(const char *s, size_t n)
{
    static const char *const suffixes[] = {
        "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "n", "u", "m", "k", "M", "G", "T", "P", "E"
    };
    size_t i = 0, nd = 0;

    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    while (i < n && is_digit(s[i]))
        i++, nd++;
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && is_digit(s[i]))
            i++, nd++;
    }
    if (!nd)
        return 0;
    if (i == n)
        return 1;
    for (size_t k = 0; k < sizeof suffixes / sizeof *suffixes; k++)
        if (n - i == strlen(suffixes[k]) && !memcmp(s + i, suffixes[k], n - i))
            return 1;
    if (s[i] != 'e' && s[i] != 'E')
        return 0;
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    if (i == n)
        return 0;
    for (; i < n; i++)
        if (!is_digit(s[i]))
            return 0;
    return 1;
}

static int port_name(const char *s, size_t n)
{
    int letter = 0;
    if (n == 0 || n > 15 || s[0] == '-' || s[n - 1] == '-')
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c >= 'a' && c <= 'z')
            letter = 1;
        else if (c == '-') {
            if (s[i + 1] == '-')
                return 0;
        } else if (!is_digit(c))
            return 0;
    }
    return letter;
}

static int percentage(const char *s, size_t n)
{
    if (n < 2 || s[n - 1] != '%')
        return 0;
    for (size_t i = 0; i + 1 < n; i++)
        if (!is_digit(s[i]))
            return 0;
    return 1;
}

int sd_format__int_or_string(const char *s, size_t n)
{
    return port_name(s, n) || percentage(s, n);
}
