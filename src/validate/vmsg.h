/* SPDX-License-Identifier: Apache-2.0 */
/* vmsg.h - the validator's message catalogue: every text a violation can
 * carry, written once. validate.c formats them (printf conventions: %s,
 * %zu, %lld, %lu, %d); rules.c copies the whole table into every rules
 * document (`"messages"`), and the JavaScript interpreter (src/form/rules.js)
 * formats the same strings from there, so the C and JS texts cannot drift.
 * Adding a message: define it here AND list it in SD_VMSG_LIST below (a
 * unit test fails when a define is missing from the list). */
#ifndef SD_VMSG_H
#define SD_VMSG_H

#define SD_MSG_FALSE_SCHEMA     "no value is allowed here (the schema is `false`)"
#define SD_MSG_TYPE             "found %s, expected %s"
#define SD_MSG_TYPE_VALUE       "found %s %s, expected %s"
#define SD_MSG_TYPE_OR          " or "
#define SD_MSG_TYPE_NOTHING     "nothing"
#define SD_MSG_ENUM             "value %s is not one of the allowed values: %s"
#define SD_MSG_ENUM_SEP         ", "
#define SD_MSG_ENUM_MORE        ", ... (%zu more)"
#define SD_MSG_CONST            "value %s is not the required value %s"
#define SD_MSG_MIN_LENGTH       "string is %zu characters long, shorter than the minimum of %lld"
#define SD_MSG_MAX_LENGTH       "string is %zu characters long, longer than the maximum of %lld"
#define SD_MSG_PATTERN          "value %s does not match pattern '%s'"
#define SD_MSG_PATTERN_LIMIT    "pattern '%s' gave up on this value after %lu backtracking steps (catastrophic backtracking); the value is treated as not matching"
#define SD_MSG_PATTERN_ERROR    "pattern '%s' could not be matched (PCRE2 error %d)"
#define SD_MSG_PATTERN_JS       "pattern '%s' is refused by this JavaScript engine (%s); the value is treated as not matching"
#define SD_MSG_FORMAT           "value %s is not a valid %s"
#define SD_MSG_NAMED            "value %s is not %s"
#define SD_MSG_FORMAT_WARN      "value %s is not a valid %s (%s only annotates `format`; --formats makes this an error)"
#define SD_MSG_MINIMUM          "%s is less than the minimum of %s"
#define SD_MSG_MAXIMUM          "%s is greater than the maximum of %s"
#define SD_MSG_EXCLUSIVE_MINIMUM "%s is not greater than the exclusive minimum of %s"
#define SD_MSG_EXCLUSIVE_MAXIMUM "%s is not less than the exclusive maximum of %s"
#define SD_MSG_MULTIPLE_OF      "%s is not a multiple of %s"
#define SD_MSG_MIN_PROPERTIES   "has %zu keys, fewer than the minimum of %lld"
#define SD_MSG_MAX_PROPERTIES   "has %zu keys, more than the maximum of %lld"
#define SD_MSG_REQUIRED         "missing required key `%s`"
#define SD_MSG_DEPENDENT        "missing key `%s`, required when `%s` is present"
#define SD_MSG_UNEXPECTED_TYPO  "unexpected key `%s`; did you mean `%s`?"
#define SD_MSG_UNEXPECTED_ALLOWED "unexpected key `%s`; allowed keys: %s"
#define SD_MSG_UNEXPECTED       "unexpected key `%s`"
#define SD_MSG_KEY_LIST_FIRST   "`%s`"
#define SD_MSG_KEY_LIST_NEXT    ", `%s`"
#define SD_MSG_UNEVALUATED      "unexpected key `%s` (no keyword of this schema accepts it)"
#define SD_MSG_UNIQUE           "item %zu repeats item %zu; items must be unique"
#define SD_MSG_MIN_ITEMS        "has %zu items, fewer than the minimum of %lld"
#define SD_MSG_MAX_ITEMS        "has %zu items, more than the maximum of %lld"
#define SD_MSG_CONTAINS         "no item matches the `contains` schema"
#define SD_MSG_MIN_CONTAINS     "%lld items match the `contains` schema, fewer than the minimum of %lld"
#define SD_MSG_MAX_CONTAINS     "%lld items match the `contains` schema, more than the maximum of %lld"
#define SD_MSG_CLOSEST          "value matches none of the %zu %s branches; closest is %s/%s/%zu, where %s: %s%s"
#define SD_MSG_CLOSEST_MORE     " (and more)"
#define SD_MSG_NO_BRANCH        "value matches none of the %zu %s branches"
#define SD_MSG_ONE_OF_MANY      "value matches more than one oneOf branch (%s/oneOf/%zu and %s/oneOf/%zu); exactly one must match"
#define SD_MSG_NOT              "value must not match the schema at %s/not"
#define SD_MSG_REF_LOOP         "%s loop without progress: the schema at %s is applied to the same value again through '%s' at %s"
#define SD_MSG_ALIAS_LOOP       "$ref loop without progress: the references starting at %s lead back to themselves"
#define SD_MSG_DEPTH            "validation nested deeper than %d schemas (at schema %s)"
#define SD_MSG_ROOT_KEY         "(root)"
#define SD_MSG_EMBEDDED_MISSING "missing key `%s` of an embedded Kubernetes object"
#define SD_MSG_EMBEDDED_API     "value %s of `apiVersion` is not VERSION or GROUP/VERSION"
#define SD_MSG_EMBEDDED_KIND    "value %s of `kind` is not a kind (a letter, then letters, digits or '-', 63 at most)"

/* X(NAME) for every message above, in this order: the export's table. */
#define SD_VMSG_LIST(X) \
    X(FALSE_SCHEMA) X(TYPE) X(TYPE_VALUE) X(TYPE_OR) X(TYPE_NOTHING) X(ENUM) X(ENUM_SEP) \
    X(ENUM_MORE) X(CONST) X(MIN_LENGTH) X(MAX_LENGTH) X(PATTERN) X(PATTERN_LIMIT) \
    X(PATTERN_ERROR) X(PATTERN_JS) X(FORMAT) X(NAMED) X(FORMAT_WARN) X(MINIMUM) X(MAXIMUM) X(EXCLUSIVE_MINIMUM) \
    X(EXCLUSIVE_MAXIMUM) X(MULTIPLE_OF) X(MIN_PROPERTIES) X(MAX_PROPERTIES) X(REQUIRED) \
    X(DEPENDENT) X(UNEXPECTED_TYPO) X(UNEXPECTED_ALLOWED) X(UNEXPECTED) X(KEY_LIST_FIRST) \
    X(KEY_LIST_NEXT) X(UNEVALUATED) X(UNIQUE) X(MIN_ITEMS) X(MAX_ITEMS) X(CONTAINS) \
    X(MIN_CONTAINS) X(MAX_CONTAINS) X(CLOSEST) X(CLOSEST_MORE) X(NO_BRANCH) X(ONE_OF_MANY) \
    X(NOT) X(REF_LOOP) X(ALIAS_LOOP) X(DEPTH) X(ROOT_KEY) \
    X(EMBEDDED_MISSING) X(EMBEDDED_API) X(EMBEDDED_KIND)

/* Message numbers, in catalogue order (SD_VMSG_COUNT: how many). */
enum sd_vmsg_id {
#define SD_VMSG_ENUM(id) SD_VMSG_##id,
    SD_VMSG_LIST(SD_VMSG_ENUM)
#undef SD_VMSG_ENUM
    SD_VMSG_COUNT
};

#endif
