/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_regex.c - the pattern automaton (src/validate/ecma_dfa.c) against
 * PCRE2 (sd_regex_compile), which decided every match before it: part 0 is
 * a pattern, part 1 subjects, one a line. Whenever the automaton is made
 * and answers, its verdict must be PCRE2's; a difference aborts. */
#include "fuzz.h"
#include "ecma_re.h"
#include "validate.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_part parts[FUZZ_MAX_PARTS];
    size_t n, off;
    int ec;
    pcre2_code *re;
    pcre2_match_data *md;
    pcre2_match_context *mc;
    sd_ecma_dfa *d;

    if (size > 4096)
        return -1;
    n = fuzz_split(parts, data, size);
    /* PCRE2_UTF refuses a pattern that is not UTF-8, as the loaders would */
    if (!(re = sd_regex_compile(parts[0].p, parts[0].n, &ec, &off)))
        return 0;
    if (!(d = sd_ecma_dfa_compile(parts[0].p, parts[0].n))) {
        pcre2_code_free(re);
        return 0;
    }
    md = pcre2_match_data_create(1, NULL);
    mc = pcre2_match_context_create(NULL);
    pcre2_set_match_limit(mc, 100000);
    for (const char *s = n > 1 ? parts[1].p : "", *end = s + (n > 1 ? parts[1].n : 0);;) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
        int got = sd_ecma_dfa_match(d, s, len);
        if (got >= 0) {   /* an answer, so every byte is ASCII */
            int rc = pcre2_match(re, (PCRE2_SPTR)s, len, 0, 0, md, mc);
            if (rc >= 0 || rc == PCRE2_ERROR_NOMATCH) {
                if (got != (rc >= 0)) {
                    fprintf(stderr, "pattern '%.*s' on '%.*s': automaton %d, PCRE2 %d\n",
                            (int)parts[0].n, parts[0].p, (int)len, s, got, rc >= 0);
                    abort();
                }
            }
        }
        if (!nl)
            break;
        s = nl + 1;
    }
    pcre2_match_context_free(mc);
    pcre2_match_data_free(md);
    sd_ecma_dfa_free(d);
    pcre2_code_free(re);
    return 0;
}
