/* SPDX-License-Identifier: Apache-2.0 */
/* chart.h - a Helm chart directory: Chart.yaml, values.yaml, the values
 * schema (values.schema.json, or values.schema.yaml as seed 001 allows) and
 * the subcharts unpacked under charts/NAME/. */
#ifndef SD_CHART_H
#define SD_CHART_H

#include "node.h"

typedef struct sd_chart sd_chart;
struct sd_chart {
    char     *dir;          /* as given, without a trailing slash */
    char     *alias;        /* the key a subchart's values live under, or NULL */
    sd_doc   *chart_yaml;   /* Chart.yaml (required) */
    sd_doc   *values;       /* values.yaml, or NULL when absent */
    sd_doc   *schema;       /* values.schema.json or .yaml, or NULL */
    int       schema_is_yaml;
    sd_chart **subcharts;   /* charts/NAME/ directories that hold a Chart.yaml */
    size_t    nsubcharts;
};

/** Load the chart in `dir` (and its unpacked subcharts, to `depth` levels).
 *  On success *out is a new chart freed with sd_chart_free(). Fails with
 *  SD_ENOTFOUND when `dir` has no Chart.yaml, or the first load error.
 *  Every file is read with sd_doc_load_in() against `dir`: a file, a
 *  templates/ or ci/ folder or a subchart that leads out of the chart
 *  through a symbolic link fails with SD_EDENIED before a byte is read. */
int sd_chart_load(sd_chart **out, const char *dir, sd_diags *diags);
void sd_chart_free(sd_chart *c);

/** Without reading a byte: whether the files and folders schemadoc reads
 *  in the chart `dir` (Chart.yaml, values.yaml, values.schema.*,
 *  .schema.yaml, templates/, ci/ and its files, each charts/NAME) stay inside it,
 *  symbolic links followed. Returns 0, or SD_EDENIED with an error at the
 *  first that leads out (for a command that reads only some of them, as
 *  `schema` does, to refuse such a chart as every other command does). */
int sd_chart_check_links(const char *dir, sd_diags *diags);

/** 1 if `path` is a directory with a Chart.yaml. */
int sd_chart_is_dir(const char *path);

/** Chart.yaml's `name` (borrowed), or NULL. */
const char *sd_chart_name(const sd_chart *c);

#endif
