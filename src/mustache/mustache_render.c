/* SPDX-License-Identifier: Apache-2.0 */
/* mustache_render.c - a compiled template (mustache_int.h) + a JSON view ->
 * text: the context stack, lookups with a small cache, escaping, partials,
 * parents and blocks (~inheritance) with their indentation, and the bounds
 * on nesting and expansions. */
#include "mustache_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------- */
/* Rendering                                                                  */

/* A parent tag being rendered: its arguments override blocks, the outermost
 * caller first (spec ~inheritance "Multi-level inheritance"). */
typedef struct ovr {
    const mnode *parent;
    const sd_mustache *tmpl;    /* where the parent tag (and its arguments) are */
    const struct ovr *outer;
} ovr;

/* A list item whose members are looked up by name FRAME_ASKS times is
 * indexed once by the names' hashes: an entry template asks about 35 names
 * of each entry, most of them missing. Smaller or larger objects keep
 * sd_val's own lookup (a scan of a few tags; its hash index). */
#define FRAME_ASKS 3
#define FRAME_MIN 8
#define FRAME_MAX 32
#define FRAME_SLOTS 64          /* a power of two, at least 2 * FRAME_MAX */

typedef struct rstate {
    sd_buf *out;
    sd_mustache_partials *partials;
    sd_mustache_escape_fn escape; /* the registry's {{x}} escaping; NULL: HTML */
    sd_diags *diags;
    const sd_mustache *tmpl;    /* the template being rendered, for diagnostics */
    sd_val **ctx;               /* the context stack, borrowed values */
    uint64_t *serial;           /* each frame's push, numbered: frames 0..i are
                                   the same while serial[i] is */
    uint64_t pushes;
    size_t nctx, capctx;
    sd_buf ind;                 /* indentation strings; the current one is ind[istart..] */
    size_t istart;
    int skip_bol;               /* the first line start was already indented */
    struct lcache {             /* recent key lookups: sibling tags ask again */
        const sd_val *obj;
        const mseg *seg;        /* the key, in whichever tag asked first */
        sd_val *val;
    } cache[256];
    struct ftab {               /* a frame asked often, indexed: by depth, mod 4 */
        uint64_t serial;        /* the frame's push; 0: none */
        int state;              /* lookups so far, up to FRAME_ASKS (then built);
                                   -1: not to be indexed */
        struct fslot { const char *k; uint32_t len, hash; sd_val *v; } slot[FRAME_SLOTS];
    } frames[4];
    struct ncache {             /* a name not on the top frame: what the frames
                                   below it gave, while they stay the same */
        const mname *nm;
        uint64_t below;         /* serial of the frame under the top */
        sd_val *val;
    } names[256];
    int depth;                  /* partials, parents and overrides being rendered */
    int nesting;                /* render_list() calls on the C stack */
    unsigned long expansions;   /* partials, parents and overrides rendered so far */
} rstate;

static int render_list(rstate *st, const mnode *n, const ovr *ov);

static int rerror(rstate *st, int code, const mnode *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int rerror(rstate *st, int code, const mnode *n, const char *fmt, ...)
{
    sd_buf msg = SD_BUF_INIT;
    sd_loc loc = { st->tmpl->name, n->line, n->col };
    va_list ap;

    va_start(ap, fmt);
    sd_buf_vprintf(&msg, fmt, ap);
    va_end(ap);
    sd_diag_error(st->diags, code, loc, "%s", msg.ptr);
    sd_buf_release(&msg);
    return code;
}

/* sd_val_object_getn() hashes the key on every call; rendering a list of
 * look-alike objects asks for the same few keys of each object several
 * times, so remember recent answers. The data does not change during a
 * render, and the cache dies with it. */
static inline sd_val *object_get(rstate *st, sd_val *obj, const mseg *sg)
{
    uintptr_t h = ((uintptr_t)obj >> 4) * 31u + sg->hash;
    struct lcache *c = &st->cache[(h ^ (h >> 8)) & 255];

    if (c->obj != obj || (c->seg != sg && (c->seg->hash != sg->hash || c->seg->len != sg->len ||
                                           memcmp(c->seg->s, sg->s, sg->len) != 0))) {
        c->obj = obj;
        c->seg = sg;
        c->val = sd_val_object_getn(obj, sg->s, sg->len);
    }
    return c->val;
}

static sd_val *child_of(rstate *st, sd_val *v, const mseg *sg)
{
    if (sd_val_is_object(v))
        return object_get(st, v, sg);
    if (sd_val_is_array(v) && sg->idx >= 0)
        return sd_val_array_get(v, (size_t)sg->idx);
    return NULL;
}

/* `sg` in the top frame `obj`: through the frame's index once it is asked
 * often enough (struct ftab), else object_get(). */
static sd_val *top_get(rstate *st, sd_val *obj, const mseg *sg)
{
    struct ftab *f = &st->frames[st->nctx & 3];
    uint64_t serial = st->serial[st->nctx - 1];
    uint32_t j;

    if (f->serial != serial) {
        f->serial = serial;
        f->state = 0;
    }
    if (f->state < FRAME_ASKS) {
        size_t n = sd_val_object_size(obj), i;
        if (f->state < 0 || ++f->state < FRAME_ASKS)
            return object_get(st, obj, sg);
        if (n < FRAME_MIN || n > FRAME_MAX) {
            f->state = -1;
            return object_get(st, obj, sg);
        }
        memset(f->slot, 0, sizeof f->slot);
        for (i = 0; i < n; i++) {
            const char *k = sd_val__key_at(obj, i);
            size_t len = sd_val__key_len_at(obj, i);
            uint32_t h = sd_mustache__hash(k, len);
            for (j = h & (FRAME_SLOTS - 1); f->slot[j].k; j = (j + 1) & (FRAME_SLOTS - 1))
                ;
            f->slot[j] = (struct fslot){ k, (uint32_t)len, h, sd_val__value_at(obj, i) };
        }
    }
    for (j = sg->hash & (FRAME_SLOTS - 1); f->slot[j].k; j = (j + 1) & (FRAME_SLOTS - 1))
        if (f->slot[j].hash == sg->hash && f->slot[j].len == sg->len && memcmp(f->slot[j].k, sg->s, sg->len) == 0)
            return f->slot[j].v;
    return NULL;
}

/* Spec interpolation.json "Dotted Names": the first part is looked up down
 * the context stack, the rest only inside what the first part found. */
static sd_val *lookup(rstate *st, const mname *nm)
{
    sd_val *v = NULL;
    size_t i;
    int k;

    if (nm->nseg == 0 || st->nctx == 0)
        return st->nctx ? st->ctx[st->nctx - 1] : NULL;
    i = st->nctx - 1;
    if (sd_val_is_object(st->ctx[i]))
        v = top_get(st, st->ctx[i], &nm->seg[0]);
    if (!v && i > 0) {
        /* a list's items are new tops over the same frames: most names
         * missing from an item are answered (or missed) below it alike */
        struct ncache *e = &st->names[((uintptr_t)nm >> 4 ^ (uintptr_t)nm >> 12) & 255];
        if (e->nm == nm && e->below == st->serial[i - 1]) {
            v = e->val;
        } else {
            while (i-- > 0) {
                sd_val *c = st->ctx[i];
                if (sd_val_is_object(c) && (v = object_get(st, c, &nm->seg[0])))
                    break;
            }
            e->nm = nm;
            e->below = st->serial[st->nctx - 2];
            e->val = v;
        }
    }
    for (k = 1; v && k < nm->nseg; k++)
        v = child_of(st, v, &nm->seg[k]);
    return v;
}

static int falsey(const sd_val *v)
{
    return !v || sd_val_is_false(v) || sd_val_is_null(v) ||
           (sd_val_is_array(v) && sd_val_array_size(v) == 0);
}

static int push_ctx(rstate *st, sd_val *v)
{
    if (st->nctx == st->capctx) {
        size_t n = st->capctx ? st->capctx * 2 : 32;
        sd_val **p = realloc(st->ctx, n * sizeof *p);
        uint64_t *q;
        if (!p)
            return SD_ENOMEM;
        st->ctx = p;
        if (!(q = realloc(st->serial, n * sizeof *q)))
            return SD_ENOMEM;
        st->serial = q;
        st->capctx = n;
    }
    st->serial[st->nctx] = ++st->pushes;
    st->ctx[st->nctx++] = v;
    return 0;
}

/* The spec's escaping set: & < > " (interpolation.json "HTML Escaping"). */
static const unsigned char html_special[256] = { ['&'] = 1, ['<'] = 1, ['>'] = 1, ['"'] = 1 };

/* a byte of `w` is one of & < > " */
static inline uint64_t html_special_in(uint64_t w)
{
#define ZERO_BYTE(x) (((x) - 0x0101010101010101ull) & ~(x) & 0x8080808080808080ull)
    return ZERO_BYTE(w ^ 0x2626262626262626ull) | ZERO_BYTE(w ^ 0x3C3C3C3C3C3C3C3Cull) |
           ZERO_BYTE(w ^ 0x3E3E3E3E3E3E3E3Eull) | ZERO_BYTE(w ^ 0x2222222222222222ull);
#undef ZERO_BYTE
}

static void put_html(sd_buf *b, const char *s, size_t n)
{
    size_t i = 0, start = 0;
    for (;;) {
        for (uint64_t w; i + 8 <= n; i += 8) {   /* eight plain bytes a step */
            memcpy(&w, s + i, 8);
            if (html_special_in(w))
                break;
        }
        while (i < n && !html_special[(unsigned char)s[i]])
            i++;
        sd_buf_put(b, s + start, i - start);
        if (i == n)
            return;
        switch (s[i]) {
        case '&': sd_buf_put(b, "&amp;", 5); break;
        case '<': sd_buf_put(b, "&lt;", 4); break;
        case '>': sd_buf_put(b, "&gt;", 4); break;
        default: sd_buf_put(b, "&quot;", 6); break;
        }
        start = ++i;
    }
}

/* Decimal digits of an integer, without printf. Returns the length. */
static size_t format_int(char *buf, sd_val_int v)
{
    char tmp[24];
    size_t n = 0, len = 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        buf[len++] = '-';
    while (n)
        buf[len++] = tmp[--n];
    buf[len] = '\0';
    return len;
}

/* Shortest text that reads back as the same double: 1.21 stays "1.21",
 * 2.0 is "2" (spec interpolation.json "Basic Decimal Interpolation"). */
static int format_real(char *buf, size_t size, double d)
{
    int prec, n = 0;
    for (prec = 15; prec <= 17; prec++) {
        n = snprintf(buf, size, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    return n;
}

static int put_value(rstate *st, sd_val *v, int escape)
{
    char num[64];
    const char *s = NULL;
    size_t n = 0;

    switch (sd_val_typeof(v)) {
    case SD_VAL_STRING:
        s = sd_val_string_value(v);
        n = sd_val_string_length(v);
        break;
    case SD_VAL_INTEGER:
        n = format_int(num, sd_val_integer_value(v));
        s = num;
        break;
    case SD_VAL_REAL:
        n = (size_t)format_real(num, sizeof num, sd_val_real_value(v));
        s = num;
        break;
    case SD_VAL_TRUE:
        s = "true", n = 4;
        break;
    case SD_VAL_FALSE:
        s = "false", n = 5;
        break;
    case SD_VAL_NULL:
        return 0;
    case SD_VAL_OBJECT:
    case SD_VAL_ARRAY: {
        /* compact JSON, in the object's own key order */
        char *js = sd_val_dumps(v, SD_VAL_COMPACT | SD_VAL_ENCODE_ANY);
        if (!js)
            return SD_ENOMEM;
        if (escape && st->escape)
            st->escape(st->out, js, strlen(js));
        else if (escape)
            put_html(st->out, js, strlen(js));
        else
            sd_buf_puts(st->out, js);
        free(js);
        return 0;
    }
    }
    if (escape && st->escape)
        st->escape(st->out, s, n);
    else if (escape)
        put_html(st->out, s, n);
    else
        sd_buf_put(st->out, s, n);
    return 0;
}

/* Make the current indentation the current one plus `extra` (with `reset`,
 * just `extra`). The current indentation is always the tail of st->ind,
 * ind[istart..len), so pushing appends and popping truncates. */
static void indent_push(rstate *st, int reset, const char *extra, size_t n, size_t saved[2])
{
    saved[0] = st->istart;
    saved[1] = st->ind.len;
    if (reset)
        st->istart = st->ind.len;
    sd_buf_put(&st->ind, extra, n);
}

static void indent_pop(rstate *st, const size_t saved[2])
{
    st->istart = saved[0];
    sd_buf_truncate(&st->ind, saved[1]);
}

static void put_indent(rstate *st)
{
    if (st->ind.len > st->istart)
        sd_buf_put(st->out, st->ind.ptr + st->istart, st->ind.len - st->istart);
}

/* Find the template a partial or parent tag names. *t is NULL when there
 * is none (and that is not an error). */
static int resolve_partial(rstate *st, const mnode *n, const sd_mustache **t)
{
    const char *name = n->name.str;
    sd_loc loc = { st->tmpl->name, n->line, n->col };
    int err;

    *t = NULL;
    if (n->dynamic) {
        /* spec ~dynamic-names: resolve once, like an interpolation */
        sd_val *v = lookup(st, &n->name);
        if (!sd_val_is_string(v))
            return 0;
        name = sd_val_string_value(v);
    }
    if (!st->partials)
        return 0;                   /* no registry: every partial is unknown */
    if ((err = sd_mustache_partials_get(t, st->partials, name, loc, st->diags)) < 0)
        return err;
    return 0;
}

static int render_partial(rstate *st, const mnode *n, const ovr *ov)
{
    const sd_mustache *t, *saved_t = st->tmpl;
    size_t saved[2];
    ovr frame = { n, st->tmpl, ov };
    int err;

    if ((err = resolve_partial(st, n, &t)) < 0 || !t)
        return err;
    if (st->depth >= SD_MUSTACHE_MAX_DEPTH)
        return rerror(st, SD_ELIMIT, n, "partials nested deeper than %d (is '%s' recursive?)",
                      SD_MUSTACHE_MAX_DEPTH, sd_mustache_name(t));
    /* partials that each include another twice are exponential without
     * being deep or producing output */
    if (++st->expansions > SD_MUSTACHE_MAX_EXPANSIONS)
        return rerror(st, SD_ELIMIT, n, "more than %lu partial expansions in one rendering",
                      (unsigned long)SD_MUSTACHE_MAX_EXPANSIONS);
    /* spec partials.json "Standalone Indentation": a standalone tag's
     * whitespace indents every line; an inline partial is not indented */
    indent_push(st, !n->standalone, n->ws, n->standalone ? n->ws_len : 0, saved);
    st->depth++;
    st->tmpl = t;
    st->skip_bol = 0;
    err = render_list(st, t->root, n->type == N_PARENT ? &frame : ov);
    st->tmpl = saved_t;
    st->depth--;
    indent_pop(st, saved);
    return err;
}

static const mnode *find_override(const ovr *ov, const char *name, const sd_mustache **where)
{
    const mnode *found = NULL, *a;
    for (; ov; ov = ov->outer)
        for (a = ov->parent->child; a; a = a->next)
            if (a->type == N_BLOCK && strcmp(a->name.str, name) == 0) {
                found = a;          /* keep looking: outer callers win */
                *where = ov->tmpl;
                break;
            }
    return found;
}

static int render_block(rstate *st, const mnode *n, const ovr *ov)
{
    const sd_mustache *where = NULL, *saved_t = st->tmpl;
    const mnode *arg = n->is_arg ? NULL : find_override(ov, n->name.str, &where);
    size_t saved[2];
    int err;

    if (n->is_arg)
        return 0;                   /* arguments only render where a parent uses them */
    if (!arg)
        return render_list(st, n->child, ov);
    if (st->depth >= SD_MUSTACHE_MAX_DEPTH)
        return rerror(st, SD_ELIMIT, n, "blocks nested deeper than %d (does block '%s' include itself?)",
                      SD_MUSTACHE_MAX_DEPTH, n->name.str);
    if (++st->expansions > SD_MUSTACHE_MAX_EXPANSIONS)
        return rerror(st, SD_ELIMIT, n, "more than %lu partial expansions in one rendering",
                      (unsigned long)SD_MUSTACHE_MAX_EXPANSIONS);
    indent_push(st, 0, n->ws, n->ws_len, saved);
    if (n->standalone) {
        if (!arg->standalone)
            put_indent(st);         /* the argument starts mid-line */
        st->skip_bol = 0;
    } else {
        st->skip_bol = 1;           /* the first line is already started */
    }
    st->depth++;
    st->tmpl = where;
    err = render_list(st, arg->child, ov);
    st->tmpl = saved_t;
    st->depth--;
    st->skip_bol = 0;
    indent_pop(st, saved);
    return err;
}

static int render_nodes(rstate *st, const mnode *n, const ovr *ov);

/* Sections inside partials inside sections...: bound the C stack whatever
 * the mix (each level of each kind is bounded too, but their product is big). */
static int render_list(rstate *st, const mnode *n, const ovr *ov)
{
    int err;
    if (!n)
        return 0;
    if (st->nesting >= SD_MUSTACHE_MAX_STACK)
        return rerror(st, SD_ELIMIT, n, "sections and partials nested deeper than %d",
                      SD_MUSTACHE_MAX_STACK);
    st->nesting++;
    err = render_nodes(st, n, ov);
    st->nesting--;
    return err;
}

static int render_nodes(rstate *st, const mnode *n, const ovr *ov)
{
    sd_val *v;
    int err;

    for (; n; n = n->next) {
        switch (n->type) {
        case N_TEXT:
            if (n->bol) {
                if (st->skip_bol)
                    st->skip_bol = 0;
                else if (st->ind.len > st->istart)
                    put_indent(st);
            } else if (n->len) {
                st->skip_bol = 0;
            }
            sd_buf_put(st->out, n->text, n->len);
            break;
        case N_VAR:
            st->skip_bol = 0;
            if ((v = lookup(st, &n->name)) && (err = put_value(st, v, n->escape)) < 0)
                return err;
            break;
        case N_SECTION:
            v = lookup(st, &n->name);
            if (falsey(v))
                break;
            if (sd_val_is_array(v)) {
                size_t i, size = sd_val_array_size(v);
                for (i = 0; i < size; i++) {
                    if ((err = push_ctx(st, sd_val_array_get(v, i))) < 0)
                        return err;
                    err = render_list(st, n->child, ov);
                    st->nctx--;
                    if (err < 0)
                        return err;
                    if (sd_buf_failed(st->out))
                        break;
                }
            } else {
                if ((err = push_ctx(st, v)) < 0)
                    return err;
                err = render_list(st, n->child, ov);
                st->nctx--;
                if (err < 0)
                    return err;
            }
            break;
        case N_INVERTED:
            if (falsey(lookup(st, &n->name)) && (err = render_list(st, n->child, ov)) < 0)
                return err;
            break;
        case N_PARTIAL:
        case N_PARENT:
            if ((err = render_partial(st, n, ov)) < 0)
                return err;
            break;
        case N_BLOCK:
            if ((err = render_block(st, n, ov)) < 0)
                return err;
            break;
        }
        if (sd_buf_failed(st->out))
            return sd_buf_error(st->out);
    }
    return 0;
}

int sd_mustache_render(sd_buf *out, const sd_mustache *t, sd_val *data,
                       sd_mustache_partials *partials, sd_diags *diags)
{
    rstate st;
    int err;

    memset(&st, 0, sizeof st);
    st.out = out;
    st.partials = partials;
    st.escape = sd_mustache_partials_escape(partials);
    st.diags = diags;
    st.tmpl = t;
    sd_buf_init(&st.ind, 0);
    if ((err = push_ctx(&st, data)) == 0)
        err = render_list(&st, t->root, NULL);
    if (err == 0 && sd_buf_failed(&st.ind))
        err = SD_ENOMEM;
    if (err == SD_ELIMIT && sd_buf_failed(out)) {
        sd_loc loc = { t->name, 0, 0 };
        sd_diag_error(diags, err, loc, "output larger than %zu bytes", out->cap);
    } else if (err == SD_ENOMEM) {
        sd_loc loc = { t->name, 0, 0 };
        sd_diag_error(diags, err, loc, "out of memory");
    }
    free(st.ctx);
    free(st.serial);
    sd_buf_release(&st.ind);
    return err;
}
