/* SPDX-License-Identifier: Apache-2.0 */
/* jsnum.c - a double written as JavaScript writes it (see jsnum.h): the
 * shortest digits that read back as the value (found by trying precisions
 * with printf's %e), then ECMA-262's choice of plain or exponent notation. */
#include "jsnum.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sd_jsnum_put(sd_buf *b, double d)
{
    char tmp[40], digits[24];
    int k = 0, e = 0, n;
    if (d != d) {
        sd_buf_puts(b, "null");
        return;
    }
    if (isinf(d)) {
        sd_buf_puts(b, d < 0 ? "-1e999" : "1e999");  /* JSON.parse reads these as infinities */
        return;
    }
    if (d == 0) {
        sd_buf_putc(b, '0');
        return;
    }
    if (d < 0) {
        sd_buf_putc(b, '-');
        d = -d;
    }
    for (int prec = 0; prec <= 16; prec++) {
        snprintf(tmp, sizeof tmp, "%.*e", prec, d);
        if (strtod(tmp, NULL) == d)
            break;
    }
    /* tmp: D[.DDD]e[+-]XX */
    for (const char *p = tmp; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9')
            digits[k++] = *p;
    e = atoi(strchr(tmp, 'e') + 1);
    while (k > 1 && digits[k - 1] == '0')
        k--;
    digits[k] = '\0';
    n = e + 1;    /* d = 0.DIGITS x 10^n */
    if (k <= n && n <= 21) {
        sd_buf_puts(b, digits);
        for (int i = k; i < n; i++)
            sd_buf_putc(b, '0');
    } else if (0 < n && n <= 21) {
        sd_buf_put(b, digits, (size_t)n);
        sd_buf_putc(b, '.');
        sd_buf_puts(b, digits + n);
    } else if (-6 < n && n <= 0) {
        sd_buf_puts(b, "0.");
        for (int i = 0; i < -n; i++)
            sd_buf_putc(b, '0');
        sd_buf_puts(b, digits);
    } else {
        sd_buf_putc(b, digits[0]);
        if (k > 1) {
            sd_buf_putc(b, '.');
            sd_buf_puts(b, digits + 1);
        }
        sd_buf_printf(b, "e%c%d", n - 1 < 0 ? '-' : '+', n - 1 < 0 ? 1 - n : n - 1);
    }
}

