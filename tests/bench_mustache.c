/* SPDX-License-Identifier: Apache-2.0 */
/* bench_mustache.c - Mustache render throughput on a schema-doc-like view.
 *
 *   make build/rel/bench_mustache && build/rel/bench_mustache [items=10000] [seconds=2]
 *
 * Builds a JSON view shaped like what render.c produces for a schema (a
 * list of property nodes with keys, types, descriptions that need escaping,
 * defaults, enums, flags), compiles the page template and its row partial
 * once, then renders the page repeatedly and prints output MB/s.
 * Not a test: the name does not start with test_, so `make check` skips it. */
#include "mustache.h"

#include "val.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char page[] =
"<!doctype html>\n"
"<html>\n"
"<head><title>{{title}} - {{generator.name}}</title></head>\n"
"<body>\n"
"  <h1>{{title}}</h1>\n"
"  {{#description}}\n"
"  <p class=\"lead\">{{description}}</p>\n"
"  {{/description}}\n"
"  <table class=\"props\">\n"
"    <thead><tr><th>Key</th><th>Type</th><th>Default</th><th>Description</th></tr></thead>\n"
"    <tbody>\n"
"      {{#properties}}\n"
"      {{>row}}\n"
"      {{/properties}}\n"
"    </tbody>\n"
"  </table>\n"
"  <footer>{{generator.name}} {{generator.version}}</footer>\n"
"</body>\n"
"</html>\n";

static const char row[] =
"<tr id=\"{{anchor}}\" class=\"depth-{{depth}}{{#deprecated}} deprecated{{/deprecated}}\">\n"
"  <td><a href=\"#{{anchor}}\"><code>{{path}}</code></a>{{#required}} <span class=\"req\">required</span>{{/required}}</td>\n"
"  <td>{{#types}}<code>{{.}}</code> {{/types}}{{^types}}any{{/types}}</td>\n"
"  <td>{{#default}}<code>{{default}}</code>{{/default}}{{^default}}&mdash;{{/default}}</td>\n"
"  <td>\n"
"    {{#title}}<strong>{{title}}</strong><br>{{/title}}\n"
"    {{{description_html}}}\n"
"    {{#enum.0}}<ul class=\"enum\">{{#enum}}<li><code>{{.}}</code></li>{{/enum}}</ul>{{/enum.0}}\n"
"    {{#constraints}}<small>{{name}}: {{value}}</small> {{/constraints}}\n"
"    <small>{{source.file}}:{{source.line}}</small>\n"
"  </td>\n"
"</tr>\n";

static sd_val *make_view(int items)
{
    static const char *const types[] = { "string", "integer", "boolean", "object", "array", "number" };
    sd_val *view = sd_val_object(), *props = sd_val_array();
    int i;

    sd_val_object_set_new(view, "title", sd_val_string("values.yaml <podinfo> & friends"));
    sd_val_object_set_new(view, "description",
                        sd_val_string("Configuration for the \"podinfo\" chart: every key, its type, "
                                    "default & constraints."));
    sd_val_object_set_new(view, "generator",
                        sd_val_objectv(2, "name", sd_val_string("schemadoc"), "version", sd_val_string("0.1.0")));
    for (i = 0; i < items; i++) {
        char path[128], anchor[128], desc[512], title[128];
        sd_val *p = sd_val_object(), *ty = sd_val_array(), *en = sd_val_array(), *cons = sd_val_array();
        int t = i % 6;

        snprintf(path, sizeof path, "section%d.group%d.key%d", i / 100, (i / 10) % 10, i);
        snprintf(anchor, sizeof anchor, "section%d-group%d-key%d", i / 100, (i / 10) % 10, i);
        snprintf(title, sizeof title, "Key number %d", i);
        snprintf(desc, sizeof desc,
                 "<p>Sets <code>%s</code> for the deployment. Values &lt; 0 disable it; "
                 "see the <a href=\"https://example.com/docs#%s\">docs</a> for details "
                 "and the upgrade notes.</p>", path, anchor);
        sd_val_object_set_new(p, "path", sd_val_string(path));
        sd_val_object_set_new(p, "anchor", sd_val_string(anchor));
        sd_val_object_set_new(p, "depth", sd_val_integer(3));
        sd_val_object_set_new(p, "required", sd_val_boolean(i % 3 == 0));
        sd_val_object_set_new(p, "deprecated", sd_val_boolean(i % 50 == 0));
        sd_val_array_append_new(ty, sd_val_string(types[t]));
        if (i % 7 == 0)
            sd_val_array_append_new(ty, sd_val_string("null"));
        sd_val_object_set_new(p, "types", ty);
        if (t == 0) {
            sd_val_object_set_new(p, "default", sd_val_string("nginx:1.25 <stable> & \"quoted\""));
            sd_val_array_append_new(en, sd_val_string("Always"));
            sd_val_array_append_new(en, sd_val_string("IfNotPresent"));
            sd_val_array_append_new(en, sd_val_string("Never"));
        } else if (t == 1) {
            sd_val_object_set_new(p, "default", sd_val_integer(i));
            sd_val_array_append_new(cons, sd_val_objectv(2, "name", sd_val_string("minimum"), "value", sd_val_integer(0)));
            sd_val_array_append_new(cons, sd_val_objectv(2, "name", sd_val_string("maximum"), "value", sd_val_integer(65535)));
        } else if (t == 5) {
            sd_val_object_set_new(p, "default", sd_val_real(0.25 * i));
        } else if (t == 2) {
            sd_val_object_set_new(p, "default", sd_val_false());
        }
        sd_val_object_set_new(p, "enum", en);
        sd_val_object_set_new(p, "constraints", cons);
        if (i % 4)
            sd_val_object_set_new(p, "title", sd_val_string(title));
        sd_val_object_set_new(p, "description_html", sd_val_string(desc));
        sd_val_object_set_new(p, "source", sd_val_objectv(2, "file", sd_val_string("values.yaml"), "line", sd_val_integer(10 + i * 3)));
        sd_val_array_append_new(props, p);
    }
    sd_val_object_set_new(view, "properties", props);
    return view;
}

static double now(clockid_t clk)
{
    struct timespec ts;
    clock_gettime(clk, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    int items = argc > 1 ? atoi(argv[1]) : 10000;
    double secs = argc > 2 ? atof(argv[2]) : 2.0;
    sd_diags diags = SD_DIAGS_INIT;
    sd_mustache_partials *reg = NULL;
    sd_mustache *t = NULL;
    sd_buf out = SD_BUF_INIT;
    sd_val *view = make_view(items);
    double t0, t1, c0, best = 1e9, total = 0, cpu = 0;
    size_t bytes = 0;
    int runs = 0;

    if (sd_mustache_partials_new(&reg, SD_MUSTACHE_STRICT) < 0 ||
        sd_mustache_partials_add(reg, "row", row, strlen(row), &diags) < 0 ||
        sd_mustache_compile(&t, "page.mustache", page, strlen(page), &diags) < 0) {
        sd_diags_print(&diags, stderr, 0);
        return 2;
    }
    do {
        sd_buf_clear(&out);
        t0 = now(CLOCK_MONOTONIC);
        c0 = now(CLOCK_PROCESS_CPUTIME_ID);
        if (sd_mustache_render(&out, t, view, reg, &diags) < 0) {
            sd_diags_print(&diags, stderr, 0);
            return 2;
        }
        cpu += now(CLOCK_PROCESS_CPUTIME_ID) - c0;
        t1 = now(CLOCK_MONOTONIC);
        bytes = out.len;
        total += t1 - t0;
        if (t1 - t0 < best)
            best = t1 - t0;
        runs++;
    } while (total < secs);

    printf("mustache render: %d items, %zu bytes per page, %d runs\n", items, bytes, runs);
    /* the machine is shared: CPU time is the steadier figure, wall time is
     * what a user waits for */
    printf("figure: mustache render %.0f MB/s of output per CPU second "
           "(wall: best run %.0f MB/s in %.2f ms, mean %.0f MB/s)\n",
           (double)bytes * runs / cpu / 1e6, (double)bytes / best / 1e6, best * 1e3,
           (double)bytes * runs / total / 1e6);
    sd_buf_release(&out);
    sd_mustache_free(t);
    sd_mustache_partials_free(reg);
    sd_val_decref(view);
    sd_diags_release(&diags);
    return 0;
}
