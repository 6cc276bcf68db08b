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

#include <jansson.h>
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

static json_t *make_view(int items)
{
    static const char *const types[] = { "string", "integer", "boolean", "object", "array", "number" };
    json_t *view = json_object(), *props = json_array();
    int i;

    json_object_set_new(view, "title", json_string("values.yaml <podinfo> & friends"));
    json_object_set_new(view, "description",
                        json_string("Configuration for the \"podinfo\" chart: every key, its type, "
                                    "default & constraints."));
    json_object_set_new(view, "generator",
                        json_pack("{s:s, s:s}", "name", "schemadoc", "version", "0.1.0"));
    for (i = 0; i < items; i++) {
        char path[128], anchor[128], desc[512], title[128];
        json_t *p = json_object(), *ty = json_array(), *en = json_array(), *cons = json_array();
        int t = i % 6;

        snprintf(path, sizeof path, "section%d.group%d.key%d", i / 100, (i / 10) % 10, i);
        snprintf(anchor, sizeof anchor, "section%d-group%d-key%d", i / 100, (i / 10) % 10, i);
        snprintf(title, sizeof title, "Key number %d", i);
        snprintf(desc, sizeof desc,
                 "<p>Sets <code>%s</code> for the deployment. Values &lt; 0 disable it; "
                 "see the <a href=\"https://example.com/docs#%s\">docs</a> for details "
                 "and the upgrade notes.</p>", path, anchor);
        json_object_set_new(p, "path", json_string(path));
        json_object_set_new(p, "anchor", json_string(anchor));
        json_object_set_new(p, "depth", json_integer(3));
        json_object_set_new(p, "required", json_boolean(i % 3 == 0));
        json_object_set_new(p, "deprecated", json_boolean(i % 50 == 0));
        json_array_append_new(ty, json_string(types[t]));
        if (i % 7 == 0)
            json_array_append_new(ty, json_string("null"));
        json_object_set_new(p, "types", ty);
        if (t == 0) {
            json_object_set_new(p, "default", json_string("nginx:1.25 <stable> & \"quoted\""));
            json_array_append_new(en, json_string("Always"));
            json_array_append_new(en, json_string("IfNotPresent"));
            json_array_append_new(en, json_string("Never"));
        } else if (t == 1) {
            json_object_set_new(p, "default", json_integer(i));
            json_array_append_new(cons, json_pack("{s:s, s:i}", "name", "minimum", "value", 0));
            json_array_append_new(cons, json_pack("{s:s, s:i}", "name", "maximum", "value", 65535));
        } else if (t == 5) {
            json_object_set_new(p, "default", json_real(0.25 * i));
        } else if (t == 2) {
            json_object_set_new(p, "default", json_false());
        }
        json_object_set_new(p, "enum", en);
        json_object_set_new(p, "constraints", cons);
        if (i % 4)
            json_object_set_new(p, "title", json_string(title));
        json_object_set_new(p, "description_html", json_string(desc));
        json_object_set_new(p, "source", json_pack("{s:s, s:i}", "file", "values.yaml", "line", 10 + i * 3));
        json_array_append_new(props, p);
    }
    json_object_set_new(view, "properties", props);
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
    json_t *view = make_view(items);
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
    json_decref(view);
    sd_diags_release(&diags);
    return 0;
}
