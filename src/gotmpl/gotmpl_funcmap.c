/* SPDX-License-Identifier: Apache-2.0 */
/* gotmpl_funcmap.c - every template function by name: the tables of
 * gotmpl_sprig.c, gotmpl_lists.c, gotmpl_codec.c, gotmpl_yaml.c,
 * gotmpl_regex.c and gotmpl_funcs.c searched in order, as helm-docs'
 * template.FuncMap has them. The parser (gotmpl_parse.c) asks; the tables'
 * functions call shared helpers, never this lookup, so no file of them
 * depends on another through it. */
#include "gotmpl_int.h"

#include <string.h>

const gfunc *sd_gotmpl__func(const char *name, size_t n)
{
    /* Sprig's functions shadow Go's builtins of the same name, as in a
     * template.FuncMap; then the codec and builtin tables. */
    const gfunc *tables[] = { sd_gotmpl__sprig_funcs, sd_gotmpl__lists_funcs, sd_gotmpl__codec_funcs,
                              sd_gotmpl__yaml_funcs, sd_gotmpl__regex_funcs, sd_gotmpl__builtin_funcs };
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
        for (const gfunc *f = tables[t]; f->name; f++)
            if (strlen(f->name) == n && memcmp(f->name, name, n) == 0)
                return f;
    return NULL;
}
