/* SPDX-License-Identifier: Apache-2.0 */
/* places.c - which values paths a chart's templates hand whole to a
 * manifest place of a known Kubernetes type (see places.h).
 *
 * In: the template texts. The values side comes from helm/tmplrefs.c's
 * reading (sd_tmplrefs__scan_each: the dot through with/range, `$`,
 * variables, what each action writes out whole and what it hands an
 * include); the manifest side is read here, line by line: the YAML keys
 * and list items above each action by their indentation (lines made only
 * of actions do not count; block scalars are skipped), `---` and `kind:`
 * of each document, and the body of each `define`, whose places are
 * relative to where it is included. Out: sd_k8s_places, each values path
 * with its type, sorted by path; a path placed at two types is dropped.
 * Bounded: tmplrefs' bounds on files and bytes, at most MAX_EVENTS
 * actions kept and MAX_STEPS steps of include expansion. */
#include "alloc.h"
#include "places.h"
#include "places_int.h"
#include "buf.h"
#include "tmplrefs.h"

#include <stdlib.h>
#include <string.h>

#define MAX_STACK   64        /* YAML keys and items above a line, kept */
#define MAX_SEGS    32        /* keys of a values path */
#define MAX_LINE    1024      /* bytes of a line read for its key */
#define MAX_EVENTS  100000
#define MAX_STEPS   100000    /* + 8 per action kept: include expansion */
#define MAX_PATH    256       /* bytes of a manifest path kept (the table's are < 64) */
#define MAX_INCLUDE 8         /* includes within includes */
#define PARAM_KEY   "\x01"

/* A values path: keys below .Values, or below a named template's dot. */
typedef struct vref {
    int          param;  /* 1: below the named template's dot */
    int          root;   /* 1: the root context itself (`.` at the top, `$`) */
    int          ok;     /* 0: not known */
    const char **seg;
    size_t       nseg;
} vref;

/* What a named template's dot stands for where it is included. */
typedef struct binding {
    vref        arg;
    const char *const *pk;   /* (dict "k" v ...): keys */
    const vref *pv;          /* and values */
    size_t      np;
    const struct event *site;   /* where those values paths are written */
    const char *omit;        /* keys `omit` takes out at the include (event.omit) */
} binding;

/* An action that hands values whole (or includes a named template) at a
 * manifest path. */
typedef struct event {
    const char  *define;   /* inside this named template, else NULL */
    const char  *kind;     /* the document's kind (outside a define) */
    const char  *path;     /* the manifest keys, dotted, "[]" for list items */
    int          placed;   /* the path is a place (1) or not */
    const char  *file;
    int          line, col;
    const char  *include;  /* the named template included, or NULL */
    vref        *val;      /* written out whole */
    size_t       nval;
    binding      b;        /* (include) its argument */
    vref        *tested;   /* values whose kind (list or map) the action tests */
    size_t       ntested;
    const char  *omit;     /* keys `omit` takes out of the value, one per line */
} event;

/* A key or list item above the line read: `open` while nothing is below
 * it, `seq` when its items are written at its own indentation. */
typedef struct ent { int indent; const char *k; size_t kn; int item, open, seq; } ent;

typedef struct reader {
    sd_k8s_places *out;
    sd_tmplrefs    refs;
    event         *ev;
    size_t         nev, aev;
    sd_tmplact    *acts;   /* one text's actions */
    size_t         nacts, aacts;
    size_t         steps;
    const char   **tested; /* pointers of values a template tests for list or map */
    size_t         ntested, atested;
    int            oom;
} reader;

/* ---- values paths --------------------------------------------------------------- */

static vref vref_of(reader *rd, uint32_t id)
{
    vref v;
    const char *seg[MAX_SEGS];

    memset(&v, 0, sizeof v);
    if (id == SD_TMPL_ROOTCTX) {
        v.root = v.ok = 1;
        return v;
    }
    size_t d = sd_tmplrefs_path(&rd->refs, id, seg, MAX_SEGS);
    if (d > MAX_SEGS)
        return v;
    size_t from = 0;
    if (d && !strcmp(seg[0], PARAM_KEY))
        v.param = 1, from = 1;
    v.nseg = d - from;
    if (v.nseg && !(v.seg = sd_arena_alloc(&rd->out->arena, v.nseg * sizeof *v.seg))) {
        rd->oom = 1;
        return v;
    }
    for (size_t i = 0; i < v.nseg; i++)
        v.seg[i] = seg[from + i];   /* (the trie's strings outlive the reading: copied at the end) */
    v.ok = 1;
    return v;
}

/* `base` with seg[from..n) below it. */
static vref vref_join(reader *rd, vref base, const char **seg, size_t from, size_t n)
{
    vref v = base;
    if (!base.ok || from >= n)
        return v;
    v.nseg = base.nseg + n - from;
    if (v.nseg > MAX_SEGS || !(v.seg = sd_arena_alloc(&rd->out->arena, v.nseg * sizeof *v.seg))) {
        v.ok = 0;
        return v;
    }
    if (base.nseg)
        memcpy(v.seg, base.seg, base.nseg * sizeof *v.seg);
    memcpy(v.seg + base.nseg, seg + from, (n - from) * sizeof *v.seg);
    v.root = 0;
    return v;
}

/* `v` (written inside a named template) where the template's dot is `b`;
 * NULL `b`: at the top, where no path is below a dot. */
static vref vref_map(reader *rd, vref v, const binding *b)
{
    vref none;
    memset(&none, 0, sizeof none);
    if (!v.ok || (!v.param && !v.root))
        return v;
    if (!b)
        return v.root ? v : none;
    if (v.root)
        return none;   /* (`$` in a named template: the root, not a values path) */
    if (b->np && v.nseg) {
        for (size_t i = 0; i < b->np; i++)
            if (!strcmp(b->pk[i], v.seg[0]))
                return vref_map(rd, vref_join(rd, b->pv[i], v.seg, 1, v.nseg), NULL);
        return none;
    }
    if (!b->arg.ok)
        return none;
    if (b->arg.root) {
        /* the root context: .Values below it */
        if (v.nseg && !strcmp(v.seg[0], "Values")) {
            vref r = none;
            r.ok = 1;
            return vref_join(rd, r, v.seg, 1, v.nseg);
        }
        return none;
    }
    return vref_join(rd, b->arg, v.seg, 0, v.nseg);
}

/* ---- one text: its actions, then its lines ---------------------------------------- */

static int on_act(const sd_tmplact *a, void *payload)
{
    reader *rd = payload;
    if (sd_grow((void **)&rd->acts, &rd->aacts, rd->nacts + 1, sizeof *rd->acts) < 0)
        return rd->oom = 1, 1;
    rd->acts[rd->nacts++] = *a;
    return 0;
}

/* N of `nindent N` / `indent N` in the action's text, or -1. */
static int indent_arg(const char *t, size_t n)
{
    int found = -1;
    for (size_t i = 0; i + 6 < n; i++) {
        if (memcmp(t + i, "indent", 6) || (i && (t[i - 1] == '_' || (t[i - 1] >= 'a' && t[i - 1] <= 'z' &&
                                                                      !(t[i - 1] == 'n' && (i < 2 || !(t[i - 2] >= 'a' && t[i - 2] <= 'z')))))))
            continue;
        size_t j = i + 6;
        if (j >= n || (t[j] != ' ' && t[j] != '\t'))
            continue;
        while (j < n && (t[j] == ' ' || t[j] == '\t'))
            j++;
        int v = 0, digits = 0;
        while (j < n && t[j] >= '0' && t[j] <= '9' && v < 10000)
            v = v * 10 + (t[j++] - '0'), digits++;
        if (digits)
            found = v;
    }
    return found;
}

typedef struct yaml {
    ent   st[MAX_STACK];
    size_t n;
    const char *kind;
    int   block;   /* in a block scalar below the key at indent block_at */
    int   block_at;
} yaml;

static void pop_to(yaml *y, int indent, int keep_keys_at)
{
    while (y->n && (y->st[y->n - 1].indent > indent ||
                    (y->st[y->n - 1].indent == indent && !(keep_keys_at && !y->st[y->n - 1].item))))
        y->n--;
}

static void push(yaml *y, ent e)
{
    if (y->n < MAX_STACK)
        y->st[y->n++] = e;
}

static char *dotted(reader *rd, const ent *st, size_t n)
{
    sd_buf b = SD_BUF_INIT;
    char *s;
    for (size_t i = 0; i < n && b.len <= MAX_PATH; i++) {
        if (st[i].item)
            sd_buf_puts(&b, "[]");
        else
            sd_buf_printf(&b, "%s%.*s", b.len ? "." : "", (int)st[i].kn, st[i].k);
    }
    s = sd_buf_failed(&b) ? NULL : sd_arena_strndup(&rd->out->arena, b.ptr ? b.ptr : "", b.len);
    if (!s)
        rd->oom = 1;
    sd_buf_release(&b);
    return s;
}

/* One YAML line's text `v` (actions as \x01, `nv` bytes): its key or item. */
static void yaml_line(reader *rd, yaml *y, const char *v, size_t nv, int *key_line)
{
    size_t i = 0;
    int ind = 0;

    *key_line = 0;
    while (i < nv && (v[i] == ' ' || v[i] == '\x01'))
        ind += v[i++] == ' ';
    if (i == nv)
        return;
    if (y->block) {
        if (ind > y->block_at)
            return;
        y->block = 0;
    }
    if (v[i] == '#')
        return;
    if (ind == 0 && nv - i >= 3 && !memcmp(v + i, "---", 3)) {
        y->n = 0;
        y->kind = NULL;
        return;
    }
    while (i < nv && v[i] == '-' && (i + 1 == nv || v[i + 1] == ' ')) {
        pop_to(y, ind, 1);
        if (y->n) {
            y->st[y->n - 1].open = 0;
            if (y->st[y->n - 1].indent == ind && !y->st[y->n - 1].item)
                y->st[y->n - 1].seq = 1;
        }
        push(y, (ent){ ind, "[]", 2, 1, 0, 0 });
        i++;
        ind++;
        while (i < nv && v[i] == ' ')
            i++, ind++;
    }
    /* key: a plain or quoted word up to ": " or ":" at the end */
    size_t k0 = i, k1 = i;
    char q = (i < nv && (v[i] == '"' || v[i] == '\'')) ? v[i] : 0;
    if (q) {
        k0 = ++i;
        while (i < nv && v[i] != q)
            i++;
        k1 = i;
        if (i < nv)
            i++;
        if (i >= nv || v[i] != ':')
            return;
    } else {
        while (i < nv && !(v[i] == ':' && (i + 1 == nv || v[i + 1] == ' ')) && v[i] != '#')
            i++;
        if (i >= nv || v[i] != ':' || i == k0 || v[k0] == '{' || v[k0] == '[')
            return;
        k1 = i;
    }
    i++;   /* the colon */
    size_t r = i;
    while (r < nv && v[r] == ' ')
        r++;
    int open = r == nv || v[r] == '#';
    pop_to(y, ind, 0);
    if (y->n)
        y->st[y->n - 1].open = 0;   /* (it has a key below it now) */
    if (!y->n && k1 - k0 == 4 && !memcmp(v + k0, "kind", 4)) {
        size_t e = nv;
        while (e > r && (v[e - 1] == ' ' || v[e - 1] == '"' || v[e - 1] == '\''))
            e--;
        while (r < e && (v[r] == '"' || v[r] == '\''))
            r++;
        y->kind = memchr(v + r, '\x01', e - r) ? "?" : sd_arena_strndup(&rd->out->arena, v + r, e - r);
        if (!y->kind)
            rd->oom = 1;
    }
    const char *key = sd_arena_strndup(&rd->out->arena, v + k0, k1 - k0);
    if (!key) {
        rd->oom = 1;
        return;
    }
    push(y, (ent){ ind, key, k1 - k0, 0, open, 0 });
    if (r < nv && (v[r] == '|' || v[r] == '>')) {
        y->block = 1;
        y->block_at = ind;
    }
    *key_line = r < nv && v[r] == '\x01' ? 2 : 1;   /* 2: its value starts with an action */
}

static event *new_event(reader *rd)
{
    if (rd->nev >= MAX_EVENTS)
        return NULL;
    if (sd_grow((void **)&rd->ev, &rd->aev, rd->nev + 1, sizeof *rd->ev) < 0)
        return rd->oom = 1, NULL;
    event *e = &rd->ev[rd->nev++];
    memset(e, 0, sizeof *e);
    return e;
}

/* `w` occurs in t[0..n). */
static int has(const char *t, size_t n, const char *w)
{
    size_t wn = strlen(w);
    for (size_t i = 0; i + wn <= n; i++)
        if (t[i] == w[0] && !memcmp(t + i, w, wn))
            return 1;
    return 0;
}


/* The keys of `omit VALUE "k1" "k2" ...` in an action's text (Bitnami's
 * probes: `(omit .Values.livenessProbe "enabled")`), one per line in the
 * places' arena; NULL when the action has no omit. The value is what the
 * template writes less those keys: they are the chart's switches, not
 * fields of the Kubernetes type. */
static const char *omit_keys(reader *rd, const char *t, size_t n)
{
    sd_buf b = SD_BUF_INIT;
    const char *r = NULL;
    for (size_t i = 0; i + 5 < n; i++) {
        if (memcmp(t + i, "omit", 4) || (t[i + 4] != ' ' && t[i + 4] != '\t') ||
            (i && t[i - 1] != '(' && t[i - 1] != ' ' && t[i - 1] != '|' && t[i - 1] != '{'))
            continue;
        size_t j = i + 4, depth = 0;
        while (j < n && (t[j] == ' ' || t[j] == '\t'))
            j++;
        /* the value: a word or a parenthesised expression */
        while (j < n && (depth || (t[j] != ' ' && t[j] != '\t' && t[j] != ')'))) {
            depth += t[j] == '(';
            depth -= depth && t[j] == ')';
            j++;
        }
        for (;;) {
            while (j < n && (t[j] == ' ' || t[j] == '\t'))
                j++;
            if (j >= n || t[j] != '"')
                break;
            size_t k = ++j;
            while (k < n && t[k] != '"' && t[k] != '\\')
                k++;
            if (k >= n || t[k] != '"')
                break;
            sd_buf_put(&b, t + j, k - j);
            sd_buf_putc(&b, '\n');
            j = k + 1;
        }
    }
    if (b.len) {
        r = sd_buf_failed(&b) ? NULL : sd_arena_strndup(&rd->out->arena, b.ptr, b.len);
        if (!r)
            rd->oom = 1;
    }
    sd_buf_release(&b);
    return r;
}

/* The action `a`, at column `col` (0-based, actions not counted) of a line
 * whose text before it is only blanks and actions (`alone`) or is a key
 * whose value it starts (`keyval`). */
static void place_action(reader *rd, const yaml *y, const char *define, const char *file,
                         const char *text, const sd_tmplact *a, int col, int alone, int keyval)
{
    event *e;
    size_t n = y->n;

    int place = (a->nwhole || a->name) && a->kind != SD_TACT_DEFINE && !y->block && (alone || keyval);
    int test = a->ntested && (has(text + a->start, a->end - a->start, "slice") ||
                              has(text + a->start, a->end - a->start, "map") ||
                              has(text + a->start, a->end - a->start, "interface"));
    if ((!place && !test) || !(e = new_event(rd)))
        return;
    e->define = define;
    e->kind = y->kind;
    e->file = file;
    e->line = a->line;
    e->col = a->col;
    if (test && (e->tested = sd_arena_alloc(&rd->out->arena, a->ntested * sizeof *e->tested))) {
        for (size_t i = 0; i < a->ntested; i++)
            e->tested[i] = vref_of(rd, a->tested[i]);
        e->ntested = a->ntested;
    }
    if (!place)
        return;
    if (!keyval) {
        int t = indent_arg(text + a->start, a->end - a->start);
        if (t < 0)
            t = col;
        /* the keys and items at or right of the action's indentation are
         * done, but for a key whose list is written at its own one */
        while (n && y->st[n - 1].indent >= t) {
            const ent *k = &y->st[n - 1];
            if (k->indent == t && !k->item && (k->open || k->seq))
                break;
            n--;
        }
    }
    /* (a value spliced into a map or list that has keys or items of its
     * own is still of the place's type: a part of the map, more items) */
    e->placed = keyval || n || define != NULL || a->name;   /* (an include may write a document) */
    e->path = dotted(rd, y->st, n);
    e->omit = omit_keys(rd, text + a->start, a->end - a->start);
    if (e->path && strlen(e->path) > MAX_PATH)
        e->placed = 0;   /* no place of the table is that deep */
    if (a->name && a->kind != SD_TACT_DEFINE) {
        e->include = sd_arena_strndup(&rd->out->arena, a->name, a->name_n);
        e->b.arg = a->narg ? vref_of(rd, a->arg[0]) : (vref){ 0, 0, 0, NULL, 0 };
        if (a->npair) {
            const char **pk = sd_arena_alloc(&rd->out->arena, a->npair * sizeof *pk);
            vref *pv = sd_arena_alloc(&rd->out->arena, a->npair * sizeof *pv);
            if (!pk || !pv)
                { rd->oom = 1; return; }
            for (size_t i = 0; i < a->npair; i++) {
                pk[i] = sd_arena_strndup(&rd->out->arena, a->pair[i].k, a->pair[i].kn);
                pv[i] = vref_of(rd, a->pair[i].node);
                if (!pk[i])
                    { rd->oom = 1; return; }
            }
            e->b.pk = pk;
            e->b.pv = pv;
            e->b.np = a->npair;
        }
        if (!e->include)
            rd->oom = 1;
    }
    if (a->nwhole) {
        if (!(e->val = sd_arena_alloc(&rd->out->arena, a->nwhole * sizeof *e->val)))
            { rd->oom = 1; return; }
        for (size_t i = 0; i < a->nwhole; i++)
            e->val[i] = vref_of(rd, a->whole[i]);
        e->nval = a->nwhole;
    }
}

/* The end of a template comment starting at t[i] ("{{" and "/" "*", with
 * or without a trim marker, to "*" "/" and "}}"), or 0 when none starts
 * there; an unclosed one runs to the end of the text, as the lexer takes it. */
static size_t comment_end(const char *t, size_t n, size_t i)
{
    size_t j = i + 2;
    if (i + 4 > n || t[i] != '{' || t[i + 1] != '{')
        return 0;
    if (j + 1 < n && t[j] == '-' && t[j + 1] == ' ')
        j += 2;
    if (j + 1 >= n || t[j] != '/' || t[j + 1] != '*')
        return 0;
    for (j += 2; j + 1 < n; j++) {
        if (t[j] != '*' || t[j + 1] != '/')
            continue;
        size_t k = j + 2;
        if (k + 1 < n && t[k] == ' ' && t[k + 1] == '-')
            k += 2;
        if (k + 1 < n && t[k] == '}' && t[k + 1] == '}')
            return k + 2;
    }
    return n;
}

/* The lines of one text, with its actions rd->acts. */
static void read_lines(reader *rd, const char *file, const char *text, size_t len)
{
    yaml *y = calloc(2, sizeof *y), *top = y, *def = y + 1;
    char *v = malloc(MAX_LINE);
    size_t ai = 0, i = 0;
    int depth = 0, def_depth = -1;
    const char *define = NULL;
    size_t line_acts[16];

    if (!y || !v) {
        rd->oom = 1;
        goto done;
    }
    while (i < len && !rd->oom) {
        size_t nv = 0, na = 0;
        int col = 0, cols[16], alone[16], item[16], seen_text = 0, dashes = 1;
        /* the line, each action as \x01 (an action may run over lines) */
        while (i < len && text[i] != '\n') {
            if (ai < rd->nacts && rd->acts[ai].start == i) {
                if (na < 16) {
                    line_acts[na] = ai;
                    cols[na] = col;
                    alone[na] = !seen_text;
                    item[na] = seen_text && dashes;   /* `- {{ toYaml . }}`: the item */
                    dashes = 0;
                    na++;
                }
                if (nv < MAX_LINE)
                    v[nv++] = '\x01';
                i = rd->acts[ai].end > i ? rd->acts[ai].end : i + 1;
                ai++;
                continue;
            }
            size_t ce = comment_end(text, len, i);
            if (ce) {
                /* a template comment (the lexer reports none): no text */
                if (nv < MAX_LINE)
                    v[nv++] = '\x01';
                i = ce;
                continue;
            }
            if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r')
                seen_text = 1;
            if (text[i] != ' ' && text[i] != '\t' && text[i] != '-')
                dashes = 0;
            if (nv < MAX_LINE)
                v[nv++] = text[i];
            col++;
            i++;
        }
        i++;
        while (ai < rd->nacts && rd->acts[ai].start < i)
            ai++;   /* (an action the lexer placed oddly: never looped on) */
        while (nv && (v[nv - 1] == '\r' || v[nv - 1] == ' '))
            nv--;
        int kl = 0, first_after = 0;
        if (seen_text)
            yaml_line(rd, y, v, nv, &kl);
        for (size_t k = 0; k < na; k++) {
            const sd_tmplact *a = &rd->acts[line_acts[k]];
            /* the key's value starts with this action: the first one after the text */
            int keyval = (kl == 2 || item[k]) && !alone[k] && !first_after++;
            place_action(rd, y, define, file, text, a, cols[k], alone[k], keyval);
            if (a->kind == SD_TACT_OPEN) {
                depth++;
            } else if (a->kind == SD_TACT_DEFINE) {
                depth++;
                if (!define) {
                    define = a->name ? sd_arena_strndup(&rd->out->arena, a->name, a->name_n) : "";
                    def_depth = depth;
                    memset(def, 0, sizeof *def);
                    y = def;
                }
            } else if (a->kind == SD_TACT_END) {
                if (define && depth == def_depth) {
                    define = NULL;
                    y = top;
                }
                if (depth)
                    depth--;
            }
        }
    }
done:
    free(v);
    free(top);
}

static int read_text(reader *rd, const char *name, const char *text, size_t len)
{
    const char *file = sd_arena_strdup(&rd->out->arena, name ? name : "");
    rd->nacts = 0;
    if (!file || sd_tmplrefs__scan_each(&rd->refs, text, len, on_act, rd) != 0 || rd->oom)
        return rd->oom = 1, SD_ENOMEM;
    read_lines(rd, file, text, len);
    return rd->oom ? SD_ENOMEM : 0;
}

static int read_file_cb(const char *rel, const char *text, size_t len, void *payload)
{
    return read_text(payload, rel, text, len);
}

/* ---- the places: include expansion, types, conflicts ------------------------------ */

/* `v` as a JSON pointer, in the places' arena (NULL: out of memory). */
static const char *pointer(reader *rd, const vref *v)
{
    sd_buf b = SD_BUF_INIT;
    const char *r;
    for (size_t i = 0; i < v->nseg; i++) {
        sd_buf_putc(&b, '/');
        for (const char *c = v->seg[i]; *c; c++)
            if (*c == '~')
                sd_buf_puts(&b, "~0");
            else if (*c == '/')
                sd_buf_puts(&b, "~1");
            else
                sd_buf_putc(&b, *c);
    }
    r = sd_buf_failed(&b) ? NULL : sd_arena_strndup(&rd->out->arena, b.ptr ? b.ptr : "", b.len);
    sd_buf_release(&b);
    if (!r)
        rd->oom = 1;
    return r;
}

static int add_place(reader *rd, const char *kind, const char *path, const vref *v, const event *at,
                     const char *omit)
{
    const char *type;
    int list;
    sd_k8s_places *o = rd->out;
    sd_buf b = SD_BUF_INIT;

    if (!v->ok || v->param || v->root || !v->nseg || !sd_k8s__place_type(kind, path, &type, &list))
        return 0;
    if (o->n >= MAX_EVENTS)
        return 0;
    if (sd_grow((void **)&o->v, &o->cap, o->n + 1, sizeof *o->v) < 0)
        return rd->oom = 1, -1;
    sd_k8s_place *p = &o->v[o->n];
    p->ptr = pointer(rd, v);
    sd_buf_printf(&b, "%s %s", kind, path);
    p->where = sd_buf_failed(&b) ? NULL : sd_arena_strndup(&o->arena, b.ptr, b.len);
    sd_buf_release(&b);
    p->type = type;
    p->list = list;
    p->file = at->file;
    p->line = at->line;
    p->col = at->col;
    p->omit = omit;
    if (!p->ptr || !p->where)
        return rd->oom = 1, -1;
    o->n++;
    return 0;
}

static int by_define(const void *a, const void *b)
{
    const event *x = a, *y = b;
    if (!x->define || !y->define)
        return !y->define - !x->define;   /* (the top first) */
    return strcmp(x->define, y->define);
}

static char *join_path(reader *rd, const char *a, const char *b)
{
    sd_buf s = SD_BUF_INIT;
    char *r;
    sd_buf_printf(&s, "%s%s%s", a, *a && *b && b[0] != '[' ? "." : "", b);
    r = sd_buf_failed(&s) ? NULL : sd_arena_strndup(&rd->out->arena, s.ptr, s.len);
    sd_buf_release(&s);
    if (!r)
        rd->oom = 1;
    return r;
}

/* The events of the define `name`: [*from, *to) of rd->ev (sorted). */
static void define_range(const reader *rd, const char *name, size_t *from, size_t *to)
{
    size_t lo = 0, hi = rd->nev;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *d = rd->ev[mid].define;
        if (!d || strcmp(d, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *from = lo;
    while (lo < rd->nev && rd->ev[lo].define && !strcmp(rd->ev[lo].define, name))
        lo++;
    *to = lo;
}

/* The event `e` (of a define included at `prefix` of a `kind` document
 * with the dot `b`; at the top: prefix "", b NULL). */
static void resolve_event(reader *rd, const event *e, const char *kind, const char *prefix,
                          const binding *b, int depth)
{
    if (rd->oom || ++rd->steps > MAX_STEPS + 8 * rd->nev)
        return;
    for (size_t i = 0; i < e->ntested; i++) {
        /* a value tested for a list or a map may be either: no one type */
        vref v = vref_map(rd, e->tested[i], b);
        const char *ptr = v.ok && !v.param && !v.root && v.nseg ? pointer(rd, &v) : NULL;
        if (ptr && rd->ntested < MAX_EVENTS) {
            if (sd_grow((void **)&rd->tested, &rd->atested, rd->ntested + 1, sizeof *rd->tested) < 0) {
                rd->oom = 1;
                return;
            }
            rd->tested[rd->ntested++] = ptr;
        }
    }
    if (!e->placed)
        return;
    if (strlen(prefix) + strlen(e->path) > MAX_PATH)
        return;
    const char *path = *prefix ? join_path(rd, prefix, e->path) : e->path;
    if (!path)
        return;
    if (e->define && e->kind)
        kind = e->kind;   /* a named template that writes its own document */
    for (size_t i = 0; i < e->nval; i++) {
        vref v = vref_map(rd, e->val[i], b);
        /* the place is told where the values path is written: here, or
         * (a path below the named template's dot) where it is included */
        add_place(rd, kind, path, &v, e->val[i].param && b && b->site ? b->site : e,
                  e->omit ? e->omit : e->val[i].param && b ? b->omit : NULL);
    }
    if (e->include && depth < MAX_INCLUDE) {
        binding nb;
        vref *pv = NULL;
        size_t from, to;
        memset(&nb, 0, sizeof nb);
        nb.arg = vref_map(rd, e->b.arg, b);
        nb.site = e->b.arg.param && b ? b->site : e;
        nb.omit = e->omit ? e->omit : b ? b->omit : NULL;
        if (e->b.np && (pv = sd_arena_alloc(&rd->out->arena, e->b.np * sizeof *pv))) {
            for (size_t i = 0; i < e->b.np; i++) {
                pv[i] = vref_map(rd, e->b.pv[i], b);
                if (e->b.pv[i].param && b)
                    nb.site = b->site;
            }
            nb.pk = e->b.pk;
            nb.pv = pv;
            nb.np = e->b.np;
        }
        define_range(rd, e->include, &from, &to);
        for (size_t k = from; k < to; k++)
            resolve_event(rd, &rd->ev[k], kind, path, &nb, depth + 1);
    }
}

static int by_ptr(const void *a, const void *b)
{
    const sd_k8s_place *x = a, *y = b;
    int c = strcmp(x->ptr, y->ptr);
    return c ? c : (x->line != y->line ? x->line - y->line : x->col - y->col);
}

static int by_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sort by path; drop a path placed at two types, or whose kind the
 * templates test (both counted). */
static void settle(reader *rd)
{
    sd_k8s_places *o = rd->out;
    size_t w = 0;
    if (o->n)
        qsort(o->v, o->n, sizeof *o->v, by_ptr);
    if (rd->ntested)
        qsort(rd->tested, rd->ntested, sizeof *rd->tested, by_str);
    for (size_t i = 0; i < o->n;) {
        size_t j = i + 1;
        int same = 1;
        while (j < o->n && !strcmp(o->v[j].ptr, o->v[i].ptr)) {
            if (strcmp(o->v[j].type, o->v[i].type) || o->v[j].list != o->v[i].list)
                same = 0;
            j++;
        }
        if (rd->ntested && bsearch(&o->v[i].ptr, rd->tested, rd->ntested, sizeof *rd->tested, by_str))
            o->either++;
        else if (same)
            o->v[w++] = o->v[i];
        else
            o->conflicts++;
        i = j;
    }
    o->n = w;
}

static int finish(reader *rd)
{
    if (!rd->oom && rd->nev) {
        qsort(rd->ev, rd->nev, sizeof *rd->ev, by_define);
        for (size_t i = 0; i < rd->nev && !rd->oom; i++)
            if (!rd->ev[i].define)
                resolve_event(rd, &rd->ev[i], rd->ev[i].kind ? rd->ev[i].kind : "", "", NULL, 0);
    }
    free(rd->ev);
    free(rd->acts);
    if (!rd->oom)
        settle(rd);
    free(rd->tested);
    sd_tmplrefs_release(&rd->refs);   /* (the places' strings are copies in the arena) */
    return rd->oom ? SD_ENOMEM : 0;
}

int sd_k8s_places_scan_texts(sd_k8s_places *out, const char *const *names,
                             const char *const *texts, const size_t *lens, size_t n)
{
    reader rd;
    memset(&rd, 0, sizeof rd);
    rd.out = out;
    rd.refs = (sd_tmplrefs)SD_TMPLREFS_INIT;
    for (size_t i = 0; i < n && !rd.oom; i++)
        read_text(&rd, names ? names[i] : "", texts[i], lens[i]);
    return finish(&rd);
}

int sd_k8s_places_scan_dir(sd_k8s_places *out, const char *chart_dir)
{
    reader rd;
    int has = 0;
    memset(&rd, 0, sizeof rd);
    rd.out = out;
    rd.refs = (sd_tmplrefs)SD_TMPLREFS_INIT;
    if (sd_tmplrefs__each_file(chart_dir, &has, read_file_cb, &rd) == SD_ENOMEM)
        rd.oom = 1;
    return finish(&rd);
}

static int seg_match(const char *pat, size_t pn, const char *s, size_t sn)
{
    return (pn == 1 && pat[0] == '*') || (pn == sn && !memcmp(pat, s, sn));
}

/* `pat` (a place's pointer, "*" for any segment) matches `ptr`. */
static int ptr_match(const char *pat, const char *ptr)
{
    while (*pat == '/' && *ptr == '/') {
        const char *pe = strchr(pat + 1, '/'), *se = strchr(ptr + 1, '/');
        size_t pn = pe ? (size_t)(pe - pat - 1) : strlen(pat + 1);
        size_t sn = se ? (size_t)(se - ptr - 1) : strlen(ptr + 1);
        if (!seg_match(pat + 1, pn, ptr + 1, sn))
            return 0;
        pat += pn + 1;
        ptr += sn + 1;
    }
    return !*pat && !*ptr;
}

const sd_k8s_place *sd_k8s_places_find(const sd_k8s_places *p, const char *ptr)
{
    size_t lo = 0, hi;
    if (!p || !ptr || !p->n)
        return NULL;
    hi = p->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(p->v[mid].ptr, ptr);
        if (!c)
            return &p->v[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = 0; i < p->n; i++)
        if (strstr(p->v[i].ptr, "/*") && ptr_match(p->v[i].ptr, ptr))
            return &p->v[i];
    return NULL;
}

void sd_k8s_places_release(sd_k8s_places *p)
{
    free(p->v);
    sd_arena_release(&p->arena);
    memset(p, 0, sizeof *p);
}
