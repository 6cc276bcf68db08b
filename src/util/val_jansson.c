/* SPDX-License-Identifier: Apache-2.0 */
/* val_jansson.c - JSON text to sd_val (val.h): jansson parses, and its
 * values are copied (the form's rules, a template's data file, tests). */
#include "val.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

_Static_assert(SD_VAL_DECODE_ANY == JSON_DECODE_ANY && SD_VAL_DECODE_INT_AS_REAL == JSON_DECODE_INT_AS_REAL &&
               SD_VAL_ALLOW_NUL == JSON_ALLOW_NUL, "decoding flags are jansson's");

static sd_val *from_jansson(const json_t *j)
{
    sd_val *v = NULL;
    size_t i;

    if (!j)
        return NULL;
    switch (json_typeof(j)) {
    case JSON_NULL: return sd_val_null();
    case JSON_TRUE: return sd_val_true();
    case JSON_FALSE: return sd_val_false();
    case JSON_INTEGER: return sd_val_integer(json_integer_value(j));
    case JSON_REAL: return sd_val_real(json_real_value(j));
    case JSON_STRING: return sd_val_stringn_nocheck(json_string_value(j), json_string_length(j));
    case JSON_ARRAY:
        if (!(v = sd_val_array()))
            return NULL;
        for (i = 0; i < json_array_size(j); i++)
            if (sd_val_array_append_new(v, from_jansson(json_array_get(j, i))) < 0)
                goto fail;
        return v;
    case JSON_OBJECT: {
        void *it;
        if (!(v = sd_val_object()))
            return NULL;
        for (it = json_object_iter((json_t *)j); it; it = json_object_iter_next((json_t *)j, it))
            if (sd_val_object_setn_new_nocheck(v, json_object_iter_key(it), json_object_iter_key_len(it),
                                               from_jansson(json_object_iter_value(it))) < 0)
                goto fail;
        return v;
    }
    }
fail:
    sd_val_decref(v);
    return NULL;
}

/* The tree for jansson's result `j` (NULL: `je` says why), or NULL with
 * `err` filled in. */
static sd_val *converted(json_t *j, const json_error_t *je, sd_val_error *err)
{
    sd_val *v;

    if (!j) {
        if (err) {
            err->line = je->line;
            err->column = je->column;
            snprintf(err->text, sizeof err->text, "%s", je->text);
        }
        return NULL;
    }
    v = from_jansson(j);
    json_decref(j);
    if (!v && err) {
        err->line = err->column = 0;
        snprintf(err->text, sizeof err->text, "out of memory");
    }
    return v;
}

sd_val *sd_val_loadb(const char *s, size_t n, size_t flags, sd_val_error *err)
{
    json_error_t je;
    json_t *j = json_loadb(s, n, flags, &je);
    return converted(j, &je, err);
}

sd_val *sd_val_loads(const char *s, size_t flags, sd_val_error *err)
{
    return sd_val_loadb(s, strlen(s), flags, err);
}

sd_val *sd_val_load_file(const char *path, size_t flags, sd_val_error *err)
{
    json_error_t je;
    json_t *j = json_load_file(path, flags, &je);
    return converted(j, &je, err);
}
