/* SPDX-License-Identifier: Apache-2.0 */
/* vnamed.h - the named formats: a format whose meaning has a name people
 * know, the pattern a made schema writes for it (src/k8s/k8s_schema.c:
 * `pattern` asserts in every draft, `format` only annotates in 2019-09 and
 * later), and its wording. A value that fails such a `format`, or a
 * `pattern` equal to one of these, is worded "value "2 cores" is not a
 * Kubernetes quantity such as 500m, 2 or 1Gi" instead of quoting the
 * regex. The one table: vstring.c reads it (sd_vnamed_words), rules.c
 * copies it into every rules document ("named"), and the form's
 * interpreter (src/form/rules.js) words the same messages from there.
 * The patterns are quantity.c's grammars as ECMA-262 patterns
 * (tests/unit/test_k8s.c checks them against the C checks). */
#ifndef SD_VNAMED_H
#define SD_VNAMED_H

#define SD_RE_QUANTITY "^[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[KMGTPE]i|[numkMGTPE]|[eE][+-]?[0-9]+)?$"
#define SD_RE_INT_OR_STRING "^(?:[0-9]+%|(?=[a-z0-9-]{1,15}$)(?=[0-9-]*[a-z])[a-z0-9]+(?:-[a-z0-9]+)*)$"

/* X(format name, pattern or NULL, words) */
#define SD_VNAMED_LIST(X) \
    X("quantity", SD_RE_QUANTITY, "a Kubernetes quantity such as 500m, 2 or 1Gi") \
    X("int-or-string", SD_RE_INT_OR_STRING, \
      "an integer, a port name or a percentage such as 8080, http or 25%")

/** The words of a named format ("a Kubernetes quantity such as 500m,
 *  `2`, `1Gi`") when `format` (may be NULL) is one, or when `pattern` (may
 *  be NULL) is the pattern written for one; else NULL. Static (format.c). */
const char *sd_vnamed_words(const char *format, const char *pattern);

#endif
