/* SPDX-License-Identifier: Apache-2.0 */
/* test_yaml_scalar.c - the three ways a plain YAML scalar is typed
 * (util/yaml_scalar.c, docs/yaml-typing.md): go-yaml v2 (Helm), yaml.v3
 * (helm-docs) and the YAML 1.2 core schema (readme-generator), row by row. */
#include "harness.h"
#include "yaml_scalar.h"

#include <math.h>
#include <string.h>

enum { S = SD_YAML_STR, Z = SD_YAML_NULL, B = SD_YAML_BOOL, I = SD_YAML_INT, U = SD_YAML_UINT,
       F = SD_YAML_FLOAT, T = SD_YAML_TIMESTAMP };

/* One text, its type under each rule set, and the number it reads as
 * (the same under every rule set that makes it a number). */
static const struct { const char *text; int v2, v3, core; double num; } rows[] = {
    { "", Z, Z, Z, 0 }, { "~", Z, Z, Z, 0 }, { "null", Z, Z, Z, 0 }, { "NULL", Z, Z, Z, 0 },
    { "nULL", S, S, S, 0 },
    { "true", B, B, B, 1 }, { "False", B, B, B, 0 }, { "TRUE", B, B, B, 1 },
    { "yes", B, S, S, 1 }, { "No", B, S, S, 0 }, { "on", B, S, S, 1 }, { "OFF", B, S, S, 0 },
    { "y", B, S, S, 1 }, { "N", B, S, S, 0 }, { "yEs", S, S, S, 0 },
    { "42", I, I, I, 42 }, { "-17", I, I, I, -17 }, { "+5", I, I, I, 5 }, { "0", I, I, I, 0 },
    { "1_000", I, I, S, 1000 }, { "0x1F", I, I, I, 31 }, { "0X1f", I, I, S, 31 },
    { "0o17", I, I, I, 15 }, { "0b101", I, I, S, 5 }, { "-0b11", I, I, S, -3 },
    { "0o", S, S, S, 0 }, { "0x", S, S, S, 0 }, { "0b", S, S, S, 0 }, { "-0o", S, S, S, 0 },
    { "09", F, F, I, 9 },
    { "9223372036854775807", I, I, F, 9223372036854775807.0 },
    { "18446744073709551615", U, U, F, 18446744073709551615.0 },
    { "99999999999999999999", F, F, F, 1e20 },
    { "1.5", F, F, F, 1.5 }, { ".5", F, F, F, .5 }, { "-.5", F, F, F, -.5 }, { "1.", F, F, F, 1 },
    { "1e3", F, F, F, 1000 }, { "6.02E+23", F, F, F, 6.02e23 }, { "1_0.5", F, F, S, 10.5 },
    { ".inf", F, F, F, INFINITY }, { "+.inf", F, F, F, INFINITY }, { "+.Inf", F, F, S, INFINITY },
    { "-.INF", F, F, F, -INFINITY },
    { "1.2.3", S, S, S, 0 }, { "e3", S, S, S, 0 }, { "12:30", S, S, S, 0 }, { "-", S, S, S, 0 },
    { "2001-12-14", S, T, S, 0 }, { "2001-12-14T21:59:43.10Z", S, T, S, 0 },
};

static double number(const sd_yaml_scalar *v)
{
    switch (v->type) {
    case SD_YAML_BOOL: return v->b;
    case SD_YAML_INT: return (double)v->i;
    case SD_YAML_UINT: return (double)v->u;
    default: return v->f;
    }
}

static void test_rules_side_by_side(void)
{
    static const enum sd_yaml_rules rules[] = { SD_YAML_GO_V2, SD_YAML_GO_V3, SD_YAML_CORE12 };
    static const char *const names[] = { "go-yaml v2", "yaml.v3", "YAML 1.2 core" };
    size_t wrong = 0;
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        int want[3] = { rows[i].v2, rows[i].v3, rows[i].core };
        for (int r = 0; r < 3; r++) {
            sd_yaml_scalar v = sd_yaml_scalar_read(rows[i].text, strlen(rows[i].text), rules[r]);
            int t = (int)v.type, num = t == B || t == I || t == U || t == F;
            if ((int)v.type != want[r] || (num && number(&v) != rows[i].num)) {
                fprintf(stderr, "'%s' under %s: type %d (want %d), %g\n", rows[i].text, names[r],
                        (int)v.type, want[r], num ? number(&v) : 0.0);
                wrong++;
            }
        }
    }
    OK(wrong == 0);   /* one property: the table */
}

static void test_nan_and_bounds(void)
{
    sd_yaml_scalar v = sd_yaml_scalar_read(".NaN", 4, SD_YAML_GO_V2);
    OK(v.type == SD_YAML_FLOAT && isnan(v.f));
    /* 017: octal for Go's readers, decimal for the 1.2 core schema */
    OK(sd_yaml_scalar_read("017", 3, SD_YAML_GO_V2).i == 15 && sd_yaml_scalar_read("017", 3, SD_YAML_GO_V3).i == 15);
    v = sd_yaml_scalar_read("017", 3, SD_YAML_CORE12);
    OK(v.type == SD_YAML_INT && v.i == 17);
    /* the text need not end in a NUL; a NUL inside makes a string (go) */
    v = sd_yaml_scalar_read("12345", 2, SD_YAML_GO_V3);
    OK(v.type == SD_YAML_INT && v.i == 12);
    v = sd_yaml_scalar_read("12\0" "3", 4, SD_YAML_GO_V2);
    OK(v.type == SD_YAML_STR);
    /* 128 bytes and more are never numbers for go-yaml's readers here, but
     * are for the 1.2 reader */
    char big[200];
    memset(big, '1', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    OK(sd_yaml_scalar_read(big, 199, SD_YAML_GO_V2).type == SD_YAML_STR);
    OK(sd_yaml_scalar_read(big, 199, SD_YAML_CORE12).type == SD_YAML_FLOAT);
}

TEST_MAIN(test_rules_side_by_side, test_nan_and_bounds)
