/* SPDX-License-Identifier: Apache-2.0 */
/* check_k8s.c - the Kubernetes types as a layer of `validate` (issue 43,
 * docs/k8s.md): a chart's keys typed on evidence (k8s_evidence.c) are
 * checked against their type (k8s_check.c), like the typo lint, on top of
 * the chart's own schema where that schema leaves the key open. The
 * schema stays Helm's authority: where it says something of the key (its
 * properties, closed keys, an enum) the layer stays out, and a place the
 * validator or the lint has spoken of already gets no second finding.
 *
 * In: the source, a chart, the values validated (merged). Out: findings
 * appended to the result's sd_vresult. */
#include "check.h"
#include "k8s.h"
#include "alloc.h"
#include "ptr.h"
#include "emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sd_check_k8s {
    sd_k8s_types *types;
    sd_k8s_keys   keys;
    sd_k8s_places places;   /* the templates' places (sd_k8s_chart_places) */
    int           failed;
};

/* The node at JSON pointer `ptr` under `n` (maps only), or NULL. */
static const sd_node *at(const sd_node *n, const char *ptr)
{
    sd_buf tok = SD_BUF_INIT;
    while (n && *ptr == '/') {
        ptr = sd_ptr_next(&tok, ptr);
        n = sd_node_get(n, tok.ptr);
    }
    sd_buf_release(&tok);
    return n;
}

/* A local $ref of `root` followed ("#/$defs/x"), else `s`. */
static const sd_node *deref(const sd_node *root, const sd_node *s)
{
    const char *ref;
    for (int hops = 0; s && (ref = sd_node_str(sd_node_get(s, "$ref"))) && ref[0] == '#' && hops < 8; hops++)
        s = at(root, ref + 1);
    return s;
}

/* Does the chart's schema leave the key at `ptr` open: nothing said of it,
 * or an object whose keys it does not list (`type: object`, a $ref to a
 * Kubernetes definition, which the API document leaves open)? */
static int schema_open(const sd_k8s_types *t, const sd_node *root, const char *ptr)
{
    sd_buf tok = SD_BUF_INIT;
    const sd_node *s = root;
    int open = 1;

    while (s && *ptr == '/') {
        const char *ref = sd_node_str(sd_node_get(s, "$ref"));
        if (ref && sd_k8s_types_ref(t, ref))
            break;   /* a Kubernetes type: the layer's own */
        s = deref(root, s);
        ptr = sd_ptr_next(&tok, ptr);
        const sd_node *props = s ? sd_node_get(s, "properties") : NULL;
        const sd_node *next = props ? sd_node_get(props, tok.ptr) : NULL;
        if (!next && s) {
            const sd_node *addl = sd_node_get(s, "additionalProperties");
            next = addl && addl->kind == SD_MAP ? addl : NULL;
            if (!next && addl && addl->kind == SD_BOOL && !addl->num.b)
                open = 0;   /* closed: the schema refuses the key itself */
        }
        s = next;
    }
    sd_buf_release(&tok);
    if (!open || !s)
        return open;
    const char *ref = sd_node_str(sd_node_get(s, "$ref"));
    if (ref && sd_k8s_types_ref(t, ref))
        return 1;
    s = deref(root, s);
    if (!s || s->kind != SD_MAP)
        return 1;
    static const char *const closed[] = { "properties", "patternProperties", "enum", "const",
                                          "anyOf", "oneOf", "allOf", "$ref", "not" };
    for (size_t i = 0; i < sizeof closed / sizeof *closed; i++)
        if (sd_node_get(s, closed[i]))
            return 0;
    const sd_node *addl = sd_node_get(s, "additionalProperties");
    if (addl && !(addl->kind == SD_BOOL && addl->num.b))
        return 0;
    const sd_node *items = sd_node_get(s, "items");
    const char *iref = items ? sd_node_str(sd_node_get(items, "$ref")) : NULL;
    if (iref && sd_k8s_types_ref(t, iref))
        return 1;   /* a list of a Kubernetes type */
    items = deref(root, items);
    if (items && items->kind == SD_MAP && items->n)
        return 0;
    return 1;
}

/* "/a/b/0" -> "a.b[0]" (for a typed key: map keys only) */
static void dotted(sd_buf *out, const char *ptr)
{
    sd_buf tok = SD_BUF_INIT;
    while (*ptr == '/') {
        ptr = sd_ptr_next(&tok, ptr);
        sd_buf_printf(out, "%s%s", out->len ? "." : "", tok.ptr);
    }
    sd_buf_release(&tok);
}

static int spoken_of(const sd_vresult *r, const char *path)
{
    for (size_t i = 0; i < r->count; i++)
        if (!strcmp(r->items[i].path, path))
            return 1;
    for (size_t i = 0; i < r->nwarnings; i++)
        if (!strcmp(r->warnings[i].path, path))
            return 1;
    return 0;
}

/* Move `from`'s findings to `to`, but for places `to` has spoken of. */
static int move(sd_vresult *to, sd_vresult *from)
{
    for (int w = 0; w < 2; w++) {
        sd_verror *src = w ? from->warnings : from->items;
        size_t n = w ? from->nwarnings : from->count;
        for (size_t i = 0; i < n; i++) {
            sd_verror **arr = w ? &to->warnings : &to->items;
            size_t *cnt = w ? &to->nwarnings : &to->count, *alloc = w ? &to->awarnings : &to->alloc;
            if (spoken_of(to, src[i].path))
                continue;
            if (sd_grow((void **)arr, alloc, *cnt + 1, sizeof **arr) < 0)
                return SD_ENOMEM;
            (*arr)[(*cnt)++] = src[i];
            memset(&src[i], 0, sizeof src[i]);   /* the strings are `to`'s now */
            if (!w)
                to->total++;
        }
    }
    return 0;
}

/* Whether the finding at instance pointer `path` is of what the API server
 * never sees: a key the templates `omit` before writing the value (`omit`:
 * one per line), or a string with template text (`{{`), which the
 * templates render (tpl, Bitnami's common.tplvalues.render) first. `n` is
 * the value at pointer `here`. */
static int unwritten(const sd_node *n, const char *here, const char *path, const char *omit)
{
    size_t hl = strlen(here);
    if (strncmp(path, here, hl) || (path[hl] != '/' && path[hl]))
        return 0;
    const char *rest = path + hl;
    sd_buf tok = SD_BUF_INIT;
    int first = 1, r = 0;
    while (n && *rest == '/' && !r) {
        rest = sd_ptr_next(&tok, rest);
        if (first && omit && tok.ptr) {
            for (const char *o = omit; *o && !r;) {
                const char *e = strchr(o, '\n');
                size_t on = e ? (size_t)(e - o) : strlen(o);
                r = on == tok.len && !memcmp(o, tok.ptr, on);
                o += on + (e != NULL);
            }
        }
        first = 0;
        if (n->kind == SD_MAP)
            n = sd_node_get(n, tok.ptr ? tok.ptr : "");
        else if (n->kind == SD_SEQ) {
            char *end;
            unsigned long ix = strtoul(tok.ptr ? tok.ptr : "", &end, 10);
            n = end != tok.ptr && !*end && ix < n->n ? n->items[ix].value : NULL;
        } else
            n = NULL;
    }
    sd_buf_release(&tok);
    /* a value with template text anywhere in it is rendered first */
    return r || (n && n->kind == SD_STR && n->str && strstr(n->str, "{{"));
}

static void drop_unwritten(sd_vresult *r, const sd_node *n, const char *here, const char *omit)
{
    for (int w = 0; w < 2; w++) {
        sd_verror *v = w ? r->warnings : r->items;
        size_t *cnt = w ? &r->nwarnings : &r->count, k = 0;
        for (size_t i = 0; i < *cnt; i++) {
            if (v[i].path && unwritten(n, here, v[i].path, omit)) {
                free(v[i].path);
                free(v[i].key);
                free(v[i].message);
                free(v[i].schema_path);
                if (!w && r->total)
                    r->total--;
                continue;
            }
            v[k++] = v[i];
        }
        *cnt = k;
    }
}

/* Check the value at `rest` below `n` (whose pointer is `here`) against
 * key `k`'s type. A "*" segment (a place inside the templates' `range`:
 * places.h) stands for every key of a map or item of a list there. */
static int check_at(sd_check_k8s *st, const sd_k8s_key *k, const sd_node *n, const sd_node *schema,
                    sd_buf *here, const char *rest, sd_vresult *res, int depth)
{
    int err = 0;
    if (!n || depth > 64)
        return 0;
    if (*rest != '/') {
        sd_vresult mine = SD_VRESULT_INIT;
        sd_buf dk = SD_BUF_INIT;
        sd_k8s_key at_key = *k;
        if (n->kind == SD_NULL || (schema && !schema_open(st->types, schema, here->ptr ? here->ptr : "")))
            return 0;
        at_key.ptr = here->ptr ? here->ptr : "";
        dotted(&dk, at_key.ptr);
        if ((err = sd_k8s_check(st->types, &at_key, n, dk.ptr, &mine)) >= 0) {
            drop_unwritten(&mine, n, at_key.ptr, k->omit);
            err = move(res, &mine);
        }
        sd_vresult_release(&mine);
        sd_buf_release(&dk);
        return err;
    }
    sd_buf tok = SD_BUF_INIT;
    const char *next = sd_ptr_next(&tok, rest);
    size_t mark = here->len;
    if (tok.ptr && strcmp(tok.ptr, "*") == 0 && (n->kind == SD_MAP || n->kind == SD_SEQ)) {
        for (size_t i = 0; i < n->n && err >= 0; i++) {
            char ix[24];
            if (n->kind == SD_MAP)
                sd_ptr_push(here, n->items[i].key->str, n->items[i].key->len);
            else
                sd_ptr_push(here, ix, (size_t)snprintf(ix, sizeof ix, "%zu", i));
            err = check_at(st, k, n->items[i].value, schema, here, next, res, depth + 1);
            sd_buf_truncate(here, mark);
        }
    } else if (tok.ptr && n->kind == SD_MAP) {
        sd_ptr_push(here, tok.ptr, tok.len);
        err = check_at(st, k, sd_node_get(n, tok.ptr), schema, here, next, res, depth + 1);
        sd_buf_truncate(here, mark);
    }
    sd_buf_release(&tok);
    return err;
}

/* The chart's types and typed keys into *state (a new one). */
static int open_state(sd_check_k8s **state, const sd_chart *chart, const sd_node *own)
{
    sd_check_k8s *st;
    int err;
    if (!(st = *state = calloc(1, sizeof *st))) {
        sd_alloc_note_failure();
        return SD_ENOMEM;
    }
    st->keys = (sd_k8s_keys)SD_K8S_KEYS_INIT;
    sd_k8s_chart in = { chart->values, own, &st->places };
    if ((err = sd_k8s_chart_places(&st->places, chart->dir)) < 0 || (err = sd_k8s_types_open(&st->types)) < 0 ||
        (err = sd_k8s_keys_scan(&st->keys, st->types, &in)) < 0)
        st->failed = 1;
    return err < 0 ? err : 0;
}

int sd_check__k8s(sd_check_k8s **state, sd_source *src, const sd_chart *chart, const sd_node *schema,
                  const sd_node *values, sd_vresult *res)
{
    sd_check_k8s *st = *state;
    /* a schema made from values.yaml is no evidence: its $refs are the
     * annotations', read as such */
    const sd_node *own = chart && chart->schema && !(chart == sd_source_chart(src) && sd_source_schema_generated(src))
                       ? sd_doc_root(chart->schema) : NULL;
    int err = 0;

    if (!chart || !values || sd_source_options(src)->k8s_types_off)
        return 0;
    if (!st && (err = open_state(state, chart, own)) < 0)
        return err;
    if ((st = *state)->failed)
        return 0;
    for (size_t i = 0; i < st->keys.n && err >= 0; i++) {
        sd_buf at_ptr = SD_BUF_INIT;
        err = check_at(st, &st->keys.v[i], values, schema, &at_ptr, st->keys.v[i].ptr, res, 0);
        if (err >= 0 && sd_buf_failed(&at_ptr))
            err = SD_ENOMEM;
        sd_buf_release(&at_ptr);
    }
    return err < 0 ? err : 0;
}

void sd_check__k8s_free(sd_check_k8s *st)
{
    if (!st)
        return;
    sd_k8s_keys_release(&st->keys);
    sd_k8s_chart_places_release(&st->places);
    sd_k8s_types_free(st->types);
    free(st);
}

/* The full names of definition `full` (node `n`; NULL: a node inside one)
 * and of every definition it reaches through `$ref`, each once, appended
 * to *names (borrowed strings), for the rules document. Returns 0 or
 * SD_ENOMEM. */
static int closure(const sd_k8s_types *t, const char *full, const sd_node *n, const char ***names,
                   size_t *nn, size_t *cap, int depth)
{
    int err = 0;
    if (!n || depth > 64)
        return 0;
    if (full) {
        for (size_t i = 0; i < *nn; i++)
            if (!strcmp((*names)[i], full))
                return 0;
        if (sd_grow((void **)names, cap, *nn + 1, sizeof **names) < 0)
            return SD_ENOMEM;
        (*names)[(*nn)++] = full;
    }
    for (uint32_t i = 0; (n->kind == SD_MAP || n->kind == SD_SEQ) && i < n->n && !err; i++) {
        const sd_pair *p = &n->items[i];
        const char *to;
        if (p->key && !strcmp(p->key->str, "$ref") && p->value->kind == SD_STR &&
            (to = sd_k8s_types_ref(t, p->value->str)))
            err = closure(t, to, sd_k8s_types_def(t, to, strlen(to), NULL), names, nn, cap, depth + 1);
        else
            err = closure(t, NULL, p->value, names, nn, cap, depth + 1);
    }
    return err;
}

int sd_check__k8s_rules(sd_buf *out, sd_source *src)
{
    const sd_chart *chart = sd_source_chart(src);
    sd_check_k8s *st = NULL;
    const sd_node *own;
    const char **names = NULL;
    size_t nn = 0, cap = 0, nkeys = 0;
    int err;

    if (sd_source_kind(src) != SD_SOURCE_CHART || !chart || !chart->schema || sd_source_options(src)->k8s_types_off)
        return 0;
    /* a made schema is no evidence (as in sd_check__k8s): every typed key
     * is the layer's; when the form bundled the types into it (k8s_bundle),
     * it checks each value itself, and the layer only adds what validate
     * adds there, an unknown field's warning */
    const int made = sd_source_schema_generated(src);
    const int warn_only = made && sd_source_options(src)->k8s_bundle;
    own = made ? NULL : sd_doc_root(chart->schema);
    /* the chart's typed keys as validate finds them */
    if ((err = open_state(&st, chart, own)) < 0 || st->failed) {
        sd_check__k8s_free(st);
        return err;
    }
    for (size_t i = 0; i < st->keys.n && !err; i++) {
        const sd_k8s_key *k = &st->keys.v[i];
        if (own && !schema_open(st->types, own, k->ptr))
            continue;
        sd_buf_puts(out, nkeys++ ? ",\n  " : ",\n \"k8s\": {\"release\": \"" SD_K8S_RELEASE "\", \"keys\": [\n  ");
        sd_buf_puts(out, "{\"ptr\": ");
        sd_emit_json_string(out, k->ptr, strlen(k->ptr));
        sd_buf_puts(out, ", \"type\": ");
        sd_emit_json_string(out, k->type, strlen(k->type));
        sd_buf_printf(out, ", \"list\": %s, %s\"why\": ", k->list ? "true" : "false",
                      warn_only ? "\"warnOnly\": true, " : "");
        sd_emit_json_string(out, k->why, strlen(k->why));
        sd_buf_puts(out, ", \"omit\": [");
        for (const char *o = k->omit; o && *o;) {
            const char *e = strchr(o, '\n');
            size_t on = e ? (size_t)(e - o) : strlen(o);
            if (o != k->omit)
                sd_buf_puts(out, ", ");
            sd_emit_json_string(out, o, on);
            o += on + (e != NULL);
        }
        sd_buf_puts(out, "]}");
        err = closure(st->types, k->type, sd_k8s_types_def(st->types, k->type, strlen(k->type), NULL), &names,
                      &nn, &cap, 0);
    }
    if (nkeys) {
        /* each definition the keys need, with its label for the messages */
        sd_buf_puts(out, "],\n \"definitions\": {");
        for (size_t i = 0; i < nn; i++) {
            sd_buf_puts(out, i ? ",\n  " : "\n  ");
            sd_emit_json_string(out, names[i], strlen(names[i]));
            sd_buf_puts(out, ": {\"label\": \"");
            sd_k8s_type_label(out, names[i]);
            sd_buf_puts(out, "\", \"schema\": ");
            sd_emit_json(out, NULL, sd_k8s_types_def(st->types, names[i], strlen(names[i]), NULL), 0, 0);
            sd_buf_puts(out, "}");
        }
        sd_buf_puts(out, "}}");
    }
    free(names);
    sd_check__k8s_free(st);
    if (err < 0)
        sd_alloc_note_failure();
    return err < 0 ? err : sd_buf_failed(out) ? sd_buf_error(out) : 0;
}
