/* SPDX-License-Identifier: Apache-2.0 */
/* secret.h - the one secret rule on the C side (docs/form.md "Secrets"):
 * what a key path holds, a secret value, the name of a Secret (or of a key
 * inside one), or neither. The words and patterns are
 * src/render/secret_rule.def's rows, which the form's
 * src/form/secret_rule.js reads too (through the generated
 * src/form/secret_words.js); secret.c takes the same steps as that file.
 * The reference page marks and masks what this calls a secret value. */
#ifndef SD_SECRET_H
#define SD_SECRET_H

#include <stddef.h>

enum sd_secret_kind { SD_SECRET_NONE = 0, SD_SECRET_VALUE = 1, SD_SECRET_NAME = 2 };

/* The schema's hints for a path; each may be NULL / 0. `type` is the JSON
 * type ("string", "boolean", "array", "object"...), `description` the text. */
typedef struct sd_secret_hints {
    const char *type;
    const char *format;
    int         write_only;
    const char *description;
} sd_secret_hints;

typedef struct sd_secret_rule sd_secret_rule;

/** The rule with its description patterns compiled. Returns a new rule the
 *  caller frees with sd_secret_rule_free(), or NULL when memory ran out. */
sd_secret_rule *sd_secret_rule_new(void);
void sd_secret_rule_free(sd_secret_rule *r);

/** What the value at the `n` segments `segs` holds (enum sd_secret_kind):
 *  a segment is a key, or NULL for a list index. `h` may be NULL. */
int sd_secret_classify(const sd_secret_rule *r, const char *const *segs, size_t n, const sd_secret_hints *h);

#endif
