/* tmplrefs.c - the values paths a chart's templates use, and how: read,
 * handed on whole, or ranged over (see tmplrefs.h).
 *
 * In: Go template text (Helm's templates/). Out: sd_tmplrefs. A reader of
 * its own, not src/gotmpl: that engine refuses functions it does not run,
 * and Helm's templates call many (include, required, lookup...); here a
 * function is only a name, and what matters is which values path reaches
 * which name. Text outside {{ }} is skipped. */
#include "tmplrefs.h"
#include "buf.h"
#include "file.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_FILES  2000
#define MAX_BYTES  ((size_t)32 << 20)
#define MAX_REFS   65536
#define MAX_TOKS   512
#define MAX_SEG    24
#define MAX_FRAMES 64
#define MAX_VARS   128
#define MAX_WALK   8
#define MAX_NEST   32

/* ---- paths while scanning ------------------------------------------------------ */

typedef struct span { const char *p; size_t n; } span;

/* A values path: keys point into the text (or are "*"). */
typedef struct tpath {
    int    ok;     /* a values path (else: not one, or not known) */
    size_t n;
    span   seg[MAX_SEG];
} tpath;

static void push_seg(tpath *p, const char *s, size_t n)
{
    if (!p->ok)
        return;
    if (p->n == MAX_SEG) {
        p->ok = 0;   /* deeper than anything a chart writes: not followed */
        return;
    }
    p->seg[p->n++] = (span){ s, n };
}

static tpath values_root(void)
{
    tpath p;
    memset(&p, 0, sizeof p);
    p.ok = 1;
    return p;
}

static tpath none(void)
{
    tpath p;
    memset(&p, 0, sizeof p);
    return p;
}

typedef struct var { span name; tpath p; } var;

enum { F_IF, F_WITH, F_RANGE, F_DEFINE };
typedef struct frame { int kind; tpath outer; size_t vars; } frame;

enum { T_FIELD, T_VAR, T_IDENT, T_STR, T_LP, T_RP, T_PIPE, T_COMMA, T_DECL, T_ASSIGN, T_OTHER };
typedef struct tok { int t; const char *p; size_t n; } tok;

typedef struct scan {
    sd_tmplrefs *r;
    tpath  dot;
    frame  frames[MAX_FRAMES];
    size_t nframes;
    var    vars[MAX_VARS];
    size_t nvars;
    tok    toks[MAX_TOKS];
    size_t ntoks;
    int    hashing;   /* the pipeline ends in a checksum: nothing is handed on */
    sd_buf key;
} scan;

/* ---- the set of paths ------------------------------------------------------------ */

static uint32_t hash_key(const char *k, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)k[i]) * 16777619u;
    return h;
}

static int grow_index(sd_tmplrefs *r)
{
    size_t cap = r->cap ? r->cap * 2 : 256;
    uint32_t *slot = calloc(cap, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i < r->n; i++) {
        size_t h = hash_key(r->items[i].key, strlen(r->items[i].key)) & (cap - 1);
        while (slot[h])
            h = (h + 1) & (cap - 1);
        slot[h] = (uint32_t)i + 1;
    }
    free(r->slot);
    r->slot = slot;
    r->cap = cap;
    return 0;
}

/* Record `use` of path `p`. */
static void record(scan *s, const tpath *p, unsigned use)
{
    sd_tmplrefs *r = s->r;
    sd_buf *key = &s->key;
    size_t h;

    if (!p->ok || r->oom)
        return;
    if (p->n == 0)
        use &= SD_TREF_READ;   /* `toYaml .Values` (a dump, a checksum) frees nothing */
    sd_buf_clear(key);
    for (size_t i = 0; i < p->n; i++) {
        if (i)
            sd_buf_putc(key, '\x1f');
        sd_buf_put(key, p->seg[i].p, p->seg[i].n);
    }
    if (sd_buf_failed(key) || ((r->n + 1) * 2 > r->cap && grow_index(r) < 0)) {
        r->oom = 1;
        return;
    }
    for (h = hash_key(key->ptr, key->len) & (r->cap - 1); r->slot[h]; h = (h + 1) & (r->cap - 1))
        if (!strcmp(r->items[r->slot[h] - 1].key, key->ptr)) {
            r->items[r->slot[h] - 1].use |= use;
            return;
        }
    if (r->n >= MAX_REFS)
        return;
    if (r->n == r->alloc) {
        size_t na = r->alloc ? r->alloc * 2 : 64;
        sd_tmplref *ni = realloc(r->items, na * sizeof *ni);
        if (!ni) {
            r->oom = 1;
            return;
        }
        r->items = ni;
        r->alloc = na;
    }
    sd_tmplref *e = &r->items[r->n];
    memset(e, 0, sizeof *e);
    e->nseg = p->n;
    e->use = use;
    int bad = !(e->seg = sd_arena_alloc(&r->arena, (p->n + 1) * sizeof *e->seg)) ||
              !(e->key = sd_arena_strndup(&r->arena, key->ptr, key->len));
    for (size_t i = 0; !bad && i < p->n; i++)
        bad = !(e->seg[i] = sd_arena_strndup(&r->arena, p->seg[i].p, p->seg[i].n));
    if (bad) {
        r->oom = 1;
        return;
    }
    r->slot[h] = (uint32_t)++r->n;
}

/* ---- tokens of one action ---------------------------------------------------- */

static int ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* A quoted string from `p` (at its quote) to `end`: the position after it. */
static const char *skip_string(const char *p, const char *end)
{
    char q = *p++;
    while (p < end && *p != q) {
        if (q != '`' && *p == '\\' && p + 1 < end)
            p++;
        p++;
    }
    return p < end ? p + 1 : end;
}

static void add_tok(scan *s, int t, const char *p, size_t n)
{
    if (s->ntoks < MAX_TOKS)
        s->toks[s->ntoks++] = (tok){ t, p, n };
}

/* Split the inside of one action into tokens. */
static void tokenize(scan *s, const char *p, const char *end)
{
    s->ntoks = 0;
    while (p < end) {
        const char *b = p;
        char c = *p;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            p++;
        } else if (c == '"' || c == '`' || c == '\'') {
            p = skip_string(p, end);
            if (c == '\'')
                add_tok(s, T_OTHER, b, (size_t)(p - b));
            else   /* the text between the quotes (escapes left as they are) */
                add_tok(s, T_STR, b + 1, p - b >= 2 ? (size_t)(p - b) - 2 : 0);
        } else if (c == '.' || c == '$') {
            p++;
            while (p < end && (ident_char(*p) || (*p == '.' && p + 1 < end && ident_char(p[1]))))
                p++;
            add_tok(s, c == '.' ? T_FIELD : T_VAR, b, (size_t)(p - b));
        } else if (ident_char(c) && !(c >= '0' && c <= '9')) {
            while (p < end && ident_char(*p))
                p++;
            add_tok(s, T_IDENT, b, (size_t)(p - b));
            /* a field chain on a call's result, `(...).a`, is not followed */
        } else if (c == '(' || c == ')' || c == '|' || c == ',') {
            p++;
            add_tok(s, c == '(' ? T_LP : c == ')' ? T_RP : c == '|' ? T_PIPE : T_COMMA, b, 1);
        } else if (c == ':' && p + 1 < end && p[1] == '=') {
            p += 2;
            add_tok(s, T_DECL, b, 2);
        } else if (c == '=') {
            p++;
            add_tok(s, T_ASSIGN, b, 1);
        } else {
            /* one byte at least: strchr() finds a NUL byte in its own set */
            do
                p++;
            while (p < end && *p && !strchr(" \t\n\r()|,\"`'", *p));
            add_tok(s, T_OTHER, b, (size_t)(p - b));
        }
    }
}

static int tok_is(const tok *t, int type, const char *text)
{
    size_t n = strlen(text);
    return t->t == type && t->n == n && !memcmp(t->p, text, n);
}

/* ---- terms and pipelines --------------------------------------------------------- */

static const var *lookup(const scan *s, const char *p, size_t n)
{
    for (size_t i = s->nvars; i-- > 0;)
        if (s->vars[i].name.n == n && !memcmp(s->vars[i].name.p, p, n))
            return &s->vars[i];
    return NULL;
}

/* Append the keys of a field chain `.a.b` (from `p`, `n` bytes) to `out`. */
static void push_chain(tpath *out, const char *p, size_t n)
{
    const char *end = p + n;
    while (p < end && *p == '.') {
        const char *b = ++p;
        while (p < end && *p != '.')
            p++;
        if (p > b)
            push_seg(out, b, (size_t)(p - b));
    }
}

/* The values path a field or variable term names. `.Values...` and
 * `$.Values...` are the values wherever they are written (a named template
 * is called with the root context as its dot, as charts do). */
static tpath term_path(const scan *s, const tok *t)
{
    tpath p = none();
    const char *q = t->p, *end = t->p + t->n;

    if (t->t == T_FIELD) {
        if (t->n >= 7 && !memcmp(q, ".Values", 7) && (t->n == 7 || q[7] == '.')) {
            p = values_root();
            push_chain(&p, q + 7, t->n - 7);
        } else if (s->dot.ok) {
            p = s->dot;
            push_chain(&p, q, t->n);
        }
        return p;
    }
    /* $, $.Values.a, $name.a.b */
    const char *dot = memchr(q, '.', t->n);
    size_t nl = dot ? (size_t)(dot - q) : t->n;
    if (nl == 1) {
        if (dot && (size_t)(end - dot) >= 7 && !memcmp(dot, ".Values", 7) &&
            (dot + 7 == end || dot[7] == '.')) {
            p = values_root();
            push_chain(&p, dot + 7, (size_t)(end - dot - 7));
        }
        return p;
    }
    const var *v = lookup(s, q, nl);
    if (v && v->p.ok) {
        p = v->p;
        if (dot)
            push_chain(&p, dot, (size_t)(end - dot));
    }
    return p;
}

/* The end of the argument starting at toks[i]: a term, or a (...) group. */
static size_t arg_end(const scan *s, size_t i, size_t to)
{
    int depth = 0;
    if (s->toks[i].t != T_LP)
        return i + 1;
    for (size_t j = i; j < to; j++) {
        if (s->toks[j].t == T_LP)
            depth++;
        else if (s->toks[j].t == T_RP && --depth == 0)
            return j + 1;
    }
    return to;
}

static int is_whole_fn(const tok *t)
{
    static const char *const fns[] = {
        "toYaml", "toJson", "toPrettyJson", "toRawJson", "mustToJson", "mustToPrettyJson",
        "mustToRawJson", "toToml", "tpl", "include", NULL
    };
    for (const char *const *f = fns; *f; f++)
        if (tok_is(t, T_IDENT, *f))
            return 1;
    return 0;
}

static int is_hash_fn(const tok *t)
{
    return tok_is(t, T_IDENT, "sha256sum") || tok_is(t, T_IDENT, "sha1sum") ||
           tok_is(t, T_IDENT, "sha512sum") || tok_is(t, T_IDENT, "adler32sum");
}

static tpath pipeline(scan *s, size_t from, size_t to, int whole, int depth);

/* One argument: its path (recorded as read, and as handed on when `whole`). */
static tpath argument(scan *s, size_t i, size_t e, int whole, int depth)
{
    tpath p = none();
    if (s->toks[i].t == T_LP)
        p = pipeline(s, i + 1, e > i + 1 && s->toks[e - 1].t == T_RP ? e - 1 : e, whole, depth + 1);
    else if (s->toks[i].t == T_FIELD || s->toks[i].t == T_VAR)
        p = term_path(s, &s->toks[i]);
    else
        return p;
    record(s, &p, SD_TREF_READ | (whole ? SD_TREF_WHOLE : 0));
    return p;
}

/* `p` with the string arguments args[from..to) appended as keys (index,
 * get, dig); stops at the first argument that is not a string. */
static tpath with_keys(const scan *s, tpath p, const size_t *arg, size_t from, size_t to)
{
    for (size_t k = from; k < to && p.ok; k++) {
        const tok *t = &s->toks[arg[k]];
        if (t->t != T_STR)
            break;
        push_seg(&p, t->p, t->n);
    }
    return p;
}

/* One command of a pipeline: a function with arguments, or a term; `prev`
 * is the previous command's result (what the pipe hands on). */
static tpath command(scan *s, size_t from, size_t to, int whole, const tpath *prev, int depth)
{
    const tok *f = &s->toks[from];
    size_t arg[64], n = 0;
    tpath res[64];

    if (f->t != T_IDENT) {
        size_t e = arg_end(s, from, to);
        return argument(s, from, e, whole, depth);
    }
    int fw = whole || (is_whole_fn(f) && !s->hashing);
    if (fw && prev && prev->ok)
        record(s, prev, SD_TREF_READ | SD_TREF_WHOLE);
    for (size_t i = from + 1; i < to && n < 64;) {
        size_t e = arg_end(s, i, to);
        arg[n] = i;
        res[n++] = argument(s, i, e, fw, depth);
        i = e;
    }
    /* what the call gives back, when it is (a part of) a values path */
    if (tok_is(f, T_IDENT, "index") || tok_is(f, T_IDENT, "get"))
        return n ? with_keys(s, res[0], arg, 1, n) : none();
    if (tok_is(f, T_IDENT, "hasKey")) {
        tpath k = n ? with_keys(s, res[0], arg, 1, n) : none();
        record(s, &k, SD_TREF_READ);
        return none();
    }
    if (tok_is(f, T_IDENT, "dig")) {
        /* dig "a" "b" DEFAULT MAP */
        if (n < 3)
            return none();
        tpath p = res[n - 1];
        for (size_t k = 0; k + 2 < n && p.ok; k++) {
            if (s->toks[arg[k]].t != T_STR)
                return none();
            push_seg(&p, s->toks[arg[k]].p, s->toks[arg[k]].n);
        }
        record(s, &p, SD_TREF_READ);
        return p;
    }
    if (tok_is(f, T_IDENT, "default") || tok_is(f, T_IDENT, "required"))
        return prev && prev->ok ? *prev : n ? res[n - 1] : none();
    if (tok_is(f, T_IDENT, "coalesce") || tok_is(f, T_IDENT, "deepCopy") ||
        tok_is(f, T_IDENT, "mustDeepCopy") || tok_is(f, T_IDENT, "omit") || tok_is(f, T_IDENT, "pick") ||
        tok_is(f, T_IDENT, "merge") || tok_is(f, T_IDENT, "mergeOverwrite") ||
        tok_is(f, T_IDENT, "mustMerge") || tok_is(f, T_IDENT, "mustMergeOverwrite")) {
        for (size_t k = 0; k < n; k++)
            if (res[k].ok)
                return res[k];
        return prev && prev->ok ? *prev : none();
    }
    return none();
}

/* A pipeline toks[from..to): its commands in order; returns the last
 * one's path. */
static tpath pipeline(scan *s, size_t from, size_t to, int whole, int depth)
{
    tpath prev = none();
    int outer_hashing = s->hashing;

    if (depth > MAX_NEST)
        return prev;
    for (size_t i = from; i < to; i++)
        if (is_hash_fn(&s->toks[i]))
            s->hashing = 1;
    for (size_t i = from; i < to;) {
        size_t e = i;
        int d = 0;
        while (e < to && !(d == 0 && s->toks[e].t == T_PIPE)) {
            if (s->toks[e].t == T_LP)
                d++;
            else if (s->toks[e].t == T_RP)
                d--;
            e++;
        }
        if (e > i)
            prev = command(s, i, e, whole, i > from ? &prev : NULL, depth);
        i = e + 1;
    }
    s->hashing = outer_hashing;
    return prev;
}

/* ---- actions ---------------------------------------------------------------------- */

static void bind(scan *s, const tok *name, const tpath *p, int assign)
{
    var *v = assign ? (var *)lookup(s, name->p, name->n) : NULL;
    if (v) {
        v->p = *p;
        return;
    }
    if (s->nvars < MAX_VARS)
        s->vars[s->nvars++] = (var){ { name->p, name->n }, *p };
}

/* A pipeline that may declare: `$x := P`, `$x = P`, `$k, $v := P` (range).
 * Returns P's path; `range` binds the element, not P. */
static tpath decl_pipeline(scan *s, size_t from, size_t to, int range)
{
    const tok *t = s->toks;
    size_t nv = 0, v[2];
    size_t i = from;
    int assign = 0;

    while (i < to && t[i].t == T_VAR && nv < 2) {
        v[nv++] = i++;
        if (i < to && t[i].t == T_COMMA)
            i++;
        else
            break;
    }
    if (nv && i < to && (t[i].t == T_DECL || t[i].t == T_ASSIGN)) {
        assign = t[i].t == T_ASSIGN;
        i++;
    } else {
        nv = 0;
        i = from;
    }
    tpath p = pipeline(s, i, to, 0, 0);
    if (range) {
        tpath el = p;
        if (p.ok)
            record(s, &p, SD_TREF_READ | SD_TREF_NAMES);
        push_seg(&el, "*", 1);
        if (nv == 2) {
            tpath k = none();
            bind(s, &t[v[0]], &k, assign);
            bind(s, &t[v[1]], &el, assign);
        } else if (nv == 1) {
            bind(s, &t[v[0]], &el, assign);
        }
        return el;
    }
    if (nv == 1)
        bind(s, &t[v[0]], &p, assign);
    return p;
}

static void push_frame(scan *s, int kind)
{
    if (s->nframes < MAX_FRAMES)
        s->frames[s->nframes] = (frame){ kind, s->dot, s->nvars };
    s->nframes++;   /* past the bound: counted, so `end`s still pair up */
}

static void pop_frame(scan *s)
{
    if (!s->nframes)
        return;
    if (--s->nframes < MAX_FRAMES) {
        s->dot = s->frames[s->nframes].outer;
        s->nvars = s->frames[s->nframes].vars;
    }
}

static frame *top(scan *s)
{
    return s->nframes && s->nframes <= MAX_FRAMES ? &s->frames[s->nframes - 1] : NULL;
}

/* One action's tokens. */
static void action(scan *s)
{
    const tok *t = s->toks;
    size_t n = s->ntoks;

    if (!n)
        return;
    if (tok_is(&t[0], T_IDENT, "end")) {
        pop_frame(s);
    } else if (tok_is(&t[0], T_IDENT, "else")) {
        frame *f = top(s);
        if (f)
            s->dot = f->outer;
        if (n > 1 && tok_is(&t[1], T_IDENT, "with")) {
            tpath p = decl_pipeline(s, 2, n, 0);
            s->dot = p;
        } else if (n > 1 && tok_is(&t[1], T_IDENT, "if")) {
            decl_pipeline(s, 2, n, 0);
        }
    } else if (tok_is(&t[0], T_IDENT, "if")) {
        push_frame(s, F_IF);
        decl_pipeline(s, 1, n, 0);
    } else if (tok_is(&t[0], T_IDENT, "with")) {
        push_frame(s, F_WITH);
        tpath p = decl_pipeline(s, 1, n, 0);
        s->dot = p;
    } else if (tok_is(&t[0], T_IDENT, "range")) {
        push_frame(s, F_RANGE);
        tpath el = decl_pipeline(s, 1, n, 1);
        s->dot = el;
    } else if (tok_is(&t[0], T_IDENT, "define")) {
        push_frame(s, F_DEFINE);
        s->dot = none();   /* whatever the caller passes */
    } else if (tok_is(&t[0], T_IDENT, "block")) {
        tpath p = n > 2 ? pipeline(s, 2, n, 1, 0) : none();
        push_frame(s, F_DEFINE);
        s->dot = p;
    } else if (tok_is(&t[0], T_IDENT, "template")) {
        if (n > 2)
            pipeline(s, 2, n, 1, 0);   /* a named template gets the value whole */
    } else if (tok_is(&t[0], T_IDENT, "break") || tok_is(&t[0], T_IDENT, "continue")) {
        return;
    } else {
        decl_pipeline(s, 0, n, 0);
    }
}

static void mark_read_below(sd_tmplrefs *r);

/* One text's actions, in order. */
static int scan_text(sd_tmplrefs *r, const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    scan *s = calloc(1, sizeof *s);

    if (!s)
        return r->oom = 1, SD_ENOMEM;
    s->r = r;
    sd_buf_init(&s->key, 0);
    s->dot = none();   /* the root context: only .Values leads into the values */
    while (p < end && !r->oom) {
        const char *open = p;
        while (open + 1 < end && !(open[0] == '{' && open[1] == '{'))
            open++;
        if (open + 1 >= end)
            break;
        const char *a = open + 2;
        if (a + 1 < end && a[0] == '-' && (a[1] == ' ' || a[1] == '\t' || a[1] == '\n' || a[1] == '\r'))
            a++;
        while (a < end && (*a == ' ' || *a == '\t' || *a == '\n' || *a == '\r'))
            a++;
        if (a + 1 < end && a[0] == '/' && a[1] == '*') {
            const char *c = a + 2;
            while (c + 1 < end && !(c[0] == '*' && c[1] == '/'))
                c++;
            const char *close = c;
            while (close + 1 < end && !(close[0] == '}' && close[1] == '}'))
                close++;
            p = close + 2;
            continue;
        }
        /* the action ends at the first }} outside a string */
        const char *e = a;
        while (e + 1 < end && !(e[0] == '}' && e[1] == '}')) {
            if (*e == '"' || *e == '`' || *e == '\'')
                e = skip_string(e, end);
            else
                e++;
        }
        const char *stop = e;
        if (stop > a && stop[-1] == '-' && stop - 1 > a &&
            (stop[-2] == ' ' || stop[-2] == '\t' || stop[-2] == '\n' || stop[-2] == '\r'))
            stop--;
        tokenize(s, a, stop);
        action(s);
        p = e + 2;
    }
    sd_buf_release(&s->key);
    free(s);
    return r->oom ? SD_ENOMEM : 0;
}

/* ---- a chart's templates/ -------------------------------------------------------- */

static void walk_dir(sd_tmplrefs *r, const char *root, sd_buf *path, size_t *bytes, int depth)
{
    DIR *d;
    struct dirent *e;
    size_t mark = path->len;

    if (depth > MAX_WALK || !(d = opendir(path->ptr)))
        return;
    while ((e = readdir(d)) && r->files < MAX_FILES && *bytes < MAX_BYTES && !r->oom) {
        struct stat st;
        if (e->d_name[0] == '.')
            continue;
        sd_buf_truncate(path, mark);
        sd_buf_printf(path, "/%s", e->d_name);
        if (sd_buf_failed(path)) {
            r->oom = 1;
            break;
        }
        /* lstat: a symbolic link is not followed, in or out of the chart */
        if (lstat(path->ptr, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            walk_dir(r, root, path, bytes, depth + 1);
        } else if (S_ISREG(st.st_mode)) {
            char *text = NULL;
            size_t len = 0;
            sd_diags quiet = SD_DIAGS_INIT;
            r->has_templates = 1;
            if (sd_file_read_in(&text, &len, root, path->ptr, MAX_BYTES - *bytes, "template", &quiet) == 0) {
                *bytes += len;
                r->files++;
                scan_text(r, text, len);
            }
            free(text);
            sd_diags_release(&quiet);
        }
    }
    closedir(d);
    sd_buf_truncate(path, mark);
}

/* Whether `a` (a path of n keys) starts `b`, "*" matching any key. */
static int starts(const char *const *a, size_t na, const char *const *b, size_t nb)
{
    if (na > nb)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (strcmp(a[i], "*") && strcmp(b[i], "*") && strcmp(a[i], b[i]))
            return 0;
    return 1;
}

/* A path handed on whole but also read key by key below is no free-form
 * map: the keys read are settings (`include "image" (dict "imageRoot"
 * .Values.image)` beside `.Values.image.pullPolicy`). */
static void mark_read_below(sd_tmplrefs *r)
{
    for (size_t i = 0; i < r->n; i++) {
        sd_tmplref *w = &r->items[i];
        if (!(w->use & SD_TREF_WHOLE))
            continue;
        w->read_below = 0;
        for (size_t j = 0; j < r->n && !w->read_below; j++) {
            const sd_tmplref *x = &r->items[j];
            if (x->nseg > w->nseg && (x->use & SD_TREF_READ) && !(x->use & SD_TREF_WHOLE) &&
                starts(w->seg, w->nseg, x->seg, x->nseg))
                w->read_below = 1;
        }
    }
}

int sd_tmplrefs_scan(sd_tmplrefs *r, const char *text, size_t len)
{
    if (scan_text(r, text, len) == 0)
        mark_read_below(r);
    return r->oom ? SD_ENOMEM : 0;
}

int sd_tmplrefs_scan_dir(sd_tmplrefs *r, const char *chart_dir)
{
    sd_buf path = SD_BUF_INIT;
    size_t bytes = 0;

    sd_buf_printf(&path, "%s/templates", chart_dir);
    if (sd_buf_failed(&path))
        return r->oom = 1, SD_ENOMEM;
    walk_dir(r, chart_dir, &path, &bytes, 0);
    sd_buf_release(&path);
    if (!r->oom)
        mark_read_below(r);
    return r->oom ? SD_ENOMEM : 0;
}

/* Whether the template path `t` and the values path `v` agree on their
 * first `n` keys ("*" in `t` matches any key; a NULL in `v`, a list index,
 * only "*"). */
static int agree(const char *const *t, const char *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(t[i], "*"))
            continue;
        if (!v[i] || strcmp(t[i], v[i]))
            return 0;
    }
    return 1;
}

unsigned sd_tmplrefs_use(const sd_tmplrefs *r, const char *const *seg, size_t nseg)
{
    unsigned use = 0;
    for (size_t i = 0; r && i < r->n; i++) {
        const sd_tmplref *x = &r->items[i];
        if ((x->use & SD_TREF_WHOLE) && !x->read_below && x->nseg && x->nseg <= nseg &&
            agree(x->seg, seg, x->nseg))
            use |= SD_TREF_WHOLE;
        if ((x->use & SD_TREF_NAMES) && x->nseg == nseg && agree(x->seg, seg, nseg))
            use |= SD_TREF_NAMES;
        if ((x->use & SD_TREF_READ) && x->nseg >= nseg && agree(x->seg, seg, nseg))
            use |= SD_TREF_READ;
    }
    return use;
}

void sd_tmplrefs_release(sd_tmplrefs *r)
{
    free(r->items);
    free(r->slot);
    sd_arena_release(&r->arena);
    memset(r, 0, sizeof *r);
}
