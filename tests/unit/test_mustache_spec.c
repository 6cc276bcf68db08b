/* SPDX-License-Identifier: Apache-2.0 */
/* test_mustache_spec.c - run the official Mustache spec files against
 * src/mustache.c, straight from the corpus (not a copy):
 * $CORPUS/mustache-spec/specs/NAME.json (CORPUS defaults to ../shared/corpus).
 * Each spec test is one check; prints "FILE: N/M passed" per file.
 * ~lambdas.json is skipped: lambdas need code in the data, and ours is JSON. */
#include "harness.h"
#include "mustache.h"

#include <dirent.h>
#include "val.h"
#include <stdlib.h>

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Run one spec test; 1 if it passed. Prints why when it did not. */
static int run_one(const char *file, sd_val *test)
{
    const char *name = sd_val_string_value(sd_val_object_get(test, "name"));
    sd_val *tmpl = sd_val_object_get(test, "template");
    sd_val *expected = sd_val_object_get(test, "expected");
    sd_val *partials = sd_val_object_get(test, "partials");
    sd_val *data = sd_val_object_get(test, "data");
    sd_diags diags = SD_DIAGS_INIT;
    sd_mustache_partials *reg = NULL;
    sd_mustache *t = NULL;
    sd_buf out = SD_BUF_INIT;
    int ok = 0;

    if (!sd_val_is_string(tmpl) || !sd_val_is_string(expected)) {
        fprintf(stderr, "%s: %s: malformed test\n", file, name ? name : "?");
        return 0;
    }
    if (sd_mustache_partials_new(&reg, 0) < 0)
        goto done;
    if (sd_val_is_object(partials)) {
        const char *key;
        sd_val *v;
        sd_val_object_foreach(partials, key, v) {
            if (sd_mustache_partials_add(reg, key, sd_val_string_value(v),
                                         sd_val_string_length(v), &diags) < 0)
                goto done;
        }
    }
    if (sd_mustache_compile(&t, "template", sd_val_string_value(tmpl),
                            sd_val_string_length(tmpl), &diags) < 0)
        goto done;
    if (sd_mustache_render(&out, t, data, reg, &diags) < 0)
        goto done;
    ok = out.len == sd_val_string_length(expected) &&
         memcmp(out.ptr, sd_val_string_value(expected), out.len) == 0;
done:
    if (!ok) {
        char *e = sd_val_dumps(expected, SD_VAL_ENCODE_ANY);
        sd_val *got = sd_val_stringn(out.ptr, out.len);
        char *g = sd_val_dumps(got, SD_VAL_ENCODE_ANY);
        fprintf(stderr, "%s: %s: FAILED\n  template: ", file, name ? name : "?");
        {
            char *t = sd_val_dumps(tmpl, SD_VAL_ENCODE_ANY);
            fputs(t ? t : "?", stderr);
            free(t);
        }
        fprintf(stderr, "\n  expected: %s\n  got:      %s\n", e ? e : "?", g ? g : "?");
        for (size_t i = 0; i < diags.count; i++) {
            char *line = sd_diag_format(&diags.items[i]);
            fprintf(stderr, "  %s\n", line ? line : "?");
            free(line);
        }
        free(e);
        free(g);
        sd_val_decref(got);
    }
    sd_buf_release(&out);
    sd_mustache_free(t);
    sd_mustache_partials_free(reg);
    sd_diags_release(&diags);
    return ok;
}

static void spec_dir(char *dir, size_t size)
{
    const char *corpus = getenv("CORPUS");
    snprintf(dir, size, "%s/mustache-spec/specs", corpus && *corpus ? corpus : "../shared/corpus");
}

/* Without the corpus the program says SKIPPED (tests/run.sh fails that
 * under CI=true); with it, the runner must not pass by finding nothing. */
static int have_specs;

static void test_spec_dir_present(void)
{
    char dir[4096];
    DIR *d;
    if (!(have_specs = t_corpus("mustache-spec") != NULL))
        return;
    spec_dir(dir, sizeof dir);
    d = opendir(dir);
    if (!d)
        fprintf(stderr, "cannot open %s (set CORPUS)\n", dir);
    OK(d != NULL);
    if (d)
        closedir(d);
}

static void test_spec_files(void)
{
    char dir[4096], path[8192];
    char *names[64];
    size_t n = 0, i;
    struct dirent *de;
    DIR *d;

    spec_dir(dir, sizeof dir);
    if (!have_specs || !(d = opendir(dir)))
        return;
    while ((de = readdir(d)) && n < 64) {
        size_t len = strlen(de->d_name);
        if (len > 5 && strcmp(de->d_name + len - 5, ".json") == 0 &&
            strcmp(de->d_name, "~lambdas.json") != 0)
            names[n++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    OK(n >= 8);   /* comments, delimiters, interpolation, inverted, partials,
                     sections, ~dynamic-names, ~inheritance */
    for (i = 0; i < n; i++) {
        sd_val_error jerr;
        sd_val *spec, *tests;
        size_t k, pass = 0, total;

        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (!(spec = sd_val_load_file(path, 0, &jerr))) {
            fprintf(stderr, "%s:%d: %s\n", path, jerr.line, jerr.text);
            OK(!"spec file parses");
            free(names[i]);
            continue;
        }
        tests = sd_val_object_get(spec, "tests");
        total = sd_val_array_size(tests);
        for (k = 0; k < total; k++) {
            int ok = run_one(names[i], sd_val_array_get(tests, k));
            pass += (size_t)ok;
            if (ok)
                t_passed++;
            else
                t_failed++;
        }
        printf("%s: %zu/%zu passed\n", names[i], pass, total);
        sd_val_decref(spec);
        free(names[i]);
    }
}

TEST_MAIN(test_spec_dir_present, test_spec_files)
