/* SPDX-License-Identifier: Apache-2.0 */
/* test_secret.c - the secret rule's C side (src/render/secret.c) on
 * tests/secret-keys.tsv, the labelled key paths the form's rule
 * (src/form/secret_rule.js) is checked on: prints precision and recall of
 * "secret" and of "name" as `figure:` lines, each must be 100%; and the
 * splitting of keys into words on the cases secret_rule.js's keyWords()
 * splits (camelCase runs, digits, separators). */
#include "harness.h"
#include "secret.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a path as tests/secret-keys.tsv writes it (form_path.js parsePath):
 * `a.b[0]["c.d"]` -> "a", "b", NULL, "c.d"; 0 when it does not parse */
static size_t parse_path(char *text, const char **segs, size_t max)
{
    size_t n = 0;
    char *p = text;
    while (*p && n < max) {
        if (*p == '.') {
            p++;
            continue;
        }
        if (*p == '[') {
            if (p[1] == '"') {
                char *s = p + 2, *o = s;
                p = s;
                while (*p && *p != '"') {
                    if (*p == '\\' && p[1])
                        p++;
                    *o++ = *p++;
                }
                if (*p != '"' || p[1] != ']')
                    return 0;
                *o = '\0';
                segs[n++] = s;
                p += 2;
            } else {
                char *e = strchr(p, ']');
                if (!e)
                    return 0;
                segs[n++] = NULL;
                p = e + 1;
            }
            continue;
        }
        segs[n++] = p;
        while (*p && *p != '.' && *p != '[')
            p++;
        if (*p == '.')
            *p++ = '\0';
        else if (*p == '[') {
            /* ends the key: keep the '[' for the next segment */
            memmove(p + 1, p, strlen(p) + 1);
            *p++ = '\0';
        }
    }
    return n;
}

static void test_labelled(void)
{
    FILE *f = fopen("tests/secret-keys.tsv", "r");
    char line[8192];
    int rows = 0, wrong = 0;
    int tp[3] = { 0 }, fp[3] = { 0 }, fn[3] = { 0 }, labelled[3] = { 0 };
    sd_secret_rule *r = sd_secret_rule_new();
    OK(f != NULL);
    OK(r != NULL);
    if (!f || !r) {
        if (f)
            fclose(f);
        sd_secret_rule_free(r);
        return;
    }
    while (fgets(line, sizeof line, f)) {
        char *col[5] = { 0 }, *p = line;
        const char *segs[64];
        size_t n;
        int want, got;
        line[strcspn(line, "\r\n")] = '\0';
        if (!*line || *line == '#')
            continue;
        for (int i = 0; i < 5 && p; i++) {
            col[i] = p;
            if ((p = strchr(p, '\t')))
                *p++ = '\0';
        }
        if (!col[2])
            continue;
        rows++;
        want = !strcmp(col[0], "secret") ? SD_SECRET_VALUE : !strcmp(col[0], "name") ? SD_SECRET_NAME : SD_SECRET_NONE;
        labelled[want]++;
        sd_secret_hints h = { NULL, NULL, 0, col[4] && *col[4] ? col[4] : NULL };
        char *plus = strchr(col[1], '+');
        if (plus) {
            *plus++ = '\0';
            h.write_only = !strcmp(plus, "writeOnly");
            h.format = !strcmp(plus, "password") ? "password" : NULL;
        }
        h.type = strcmp(col[1], "-") ? col[1] : NULL;
        char path[4096];
        snprintf(path, sizeof path, "%s", col[2]);
        n = parse_path(path, segs, 64);
        OK(n > 0);
        got = sd_secret_classify(r, segs, n, &h);
        for (int c = 1; c <= 2; c++) {
            if (got == c && want == c)
                tp[c]++;
            else if (got == c)
                fp[c]++;
            else if (want == c)
                fn[c]++;
        }
        if (got != want) {
            wrong++;
            fprintf(stderr, "test_secret: %s (%s): %d, labelled %s\n", col[2], col[3] ? col[3] : "", got, col[0]);
        }
    }
    fclose(f);
    sd_secret_rule_free(r);
    OK(rows >= 300);
    for (int c = 1; c <= 2; c++) {
        double prec = tp[c] + fp[c] ? 100.0 * tp[c] / (tp[c] + fp[c]) : 100.0;
        double rec = tp[c] + fn[c] ? 100.0 * tp[c] / (tp[c] + fn[c]) : 100.0;
        printf("figure: secret rule (C), %s: precision %.1f%%, recall %.1f%% (%d of %d labelled %s, %d paths)\n",
               c == 1 ? "secret" : "name", prec, rec, tp[c], labelled[c], c == 1 ? "secret" : "name", rows);
    }
    INT_EQ(wrong, 0);
}

/* keyWords() cases, through what the rule makes of them */
static void test_words(void)
{
    static const struct { const char *key, *parent; int want; } cases[] = {
        { "secretAccessKey", "", SD_SECRET_VALUE },
        { "AWS_SECRET_ACCESS_KEY", "", SD_SECRET_VALUE },
        { "JWTSecret", "", SD_SECRET_VALUE },          /* "JWT Secret": a run of capitals */
        { "TLSSecret", "", SD_SECRET_NAME },           /* "TLS Secret" */
        { "tls-secret-name", "", SD_SECRET_NAME },
        { "redis2Password", "", SD_SECRET_VALUE },
        { "passwordFile", "", SD_SECRET_NONE },
        { "alice", "passwords", SD_SECRET_VALUE },     /* an entry of a map of secrets */
        { "key", "secretKeyRef", SD_SECRET_NAME },
        { "replicaSetKey", "auth", SD_SECRET_VALUE },
        { "monkey", "", SD_SECRET_NONE },
        { "", "", SD_SECRET_NONE },
    };
    sd_secret_rule *r = sd_secret_rule_new();
    OK(r != NULL);
    for (size_t i = 0; r && i < sizeof cases / sizeof cases[0]; i++) {
        const char *segs[2] = { cases[i].parent, cases[i].key };
        int got = *cases[i].parent ? sd_secret_classify(r, segs, 2, NULL) : sd_secret_classify(r, segs + 1, 1, NULL);
        if (got != cases[i].want)
            fprintf(stderr, "test_secret: %s.%s: %d, expected %d\n", cases[i].parent, cases[i].key, got, cases[i].want);
        INT_EQ(got, cases[i].want);
    }
    /* a list index alone, hints that decide before the words */
    const char *idx[1] = { NULL };
    sd_secret_hints wo = { "string", NULL, 1, NULL }, num = { "integer", "password", 1, NULL };
    const char *pw[1] = { "password" };
    INT_EQ(sd_secret_classify(r, idx, 1, NULL), SD_SECRET_NONE);
    INT_EQ(sd_secret_classify(r, idx, 1, &wo), SD_SECRET_VALUE);
    INT_EQ(sd_secret_classify(r, pw, 1, &num), SD_SECRET_NONE);
    sd_secret_rule_free(r);
}

TEST_MAIN(test_labelled, test_words)
