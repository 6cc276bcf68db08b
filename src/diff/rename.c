/* SPDX-License-Identifier: Apache-2.0 */
/* rename.c - pair a removed key with an added one when it is the same
 * setting under a new name or a new place, on evidence only. In: the
 * flattened models with the keys present on both sides already paired.
 * Out: more pairs, each with the rule that made it, and for the candidates
 * without evidence a suggestion (`similar`) on the old key. docs/diff.md
 * "Renames" has the rules. Evidence:
 *   readme: the chart's notes say so (the "Upgrading" part of NEW's
 *      README.md, UPGRADING.md, RELEASE-NOTES.md, CHANGELOG.md): "`a`
 *      renamed as `b`", "`a` moved to `b`", "`a` -> `b`", "`a` is now `b`",
 *      "`a` and `b` ... to `c` and `d`, respectively" (two pairs in order);
 *   hint: `x-renamed-from: OLD.PATH` in NEW's schema, `# @schema
 *      renamedFrom: OLD.PATH` in NEW's values.yaml, or the OLD key's
 *      deprecation notice naming the new key ("use X", "renamed to X", ...);
 *   the same last segment, subtree shape and default, with the maps paired
 *      on evidence, or a key of two words or more that no other key of
 *      either side ends in (keep_evidenced).
 * Candidates come from looser rules, scored (score_pair, at least 400):
 *   description: the same non-empty description and the same default;
 *   key: the same key name (or its plural: `usePasswordFile` -> `usePasswordFiles`);
 *   suffix: the new key is the old one without its first camelCase words
 *      (`postgresqlUsername` -> `auth.username`);
 *   joined: the new key is the old key's map name joined to it
 *      (`replication.password` -> `auth.replicationPassword`);
 *   children: a map whose keys moved into one new map moved there too.
 * Both sides must have the same shape (a map with keys, or not), types in
 * common and the same CRD version. Parents are paired before children,
 * strict rounds before the loose one; each key is paired at most once. */
#include "diff_int.h"
#include "alloc.h"
#include "annot.h"
#include "atschema.h"
#include "file.h"
#include "node.h"
#include "ptr.h"
#include "sd.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* --- x-renamed-from ------------------------------------------------------ */

static void collect(sd_val *hints, const sd_node *n, sd_buf *ptr, int depth)
{
    size_t len = ptr->len;

    if (!n || depth > 256 || (n->kind != SD_MAP && n->kind != SD_SEQ))
        return;
    for (size_t i = 0; i < n->n; i++) {
        const sd_pair *p = &n->items[i];
        if (n->kind == SD_MAP) {
            if (!p->key || !p->key->str)
                continue;
            if (strcmp(p->key->str, "x-renamed-from") == 0 && p->value && p->value->kind == SD_STR) {
                sd_val_object_set_new(hints, ptr->len ? ptr->ptr : "#", sd_val_string(p->value->str));
                continue;
            }
            sd_ptr_push_uri(ptr, p->key->str, p->key->len);
        } else {
            char ix[32];
            int k = snprintf(ix, sizeof ix, "%zu", i);
            sd_ptr_push(ptr, ix, (size_t)k);
        }
        collect(hints, p->value, ptr, depth + 1);
        sd_buf_truncate(ptr, len);
    }
}

void sd_diff__hints(dside *s, const sd_source *src)
{
    if (!src || !(s->hints = sd_val_object()))
        return;
    for (size_t i = 0; i < sd_source_nschemas(src); i++) {
        const sd_source_schema *sc = sd_source_schema_at(src, i);
        sd_buf ptr = SD_BUF_INIT;
        if (!sc->root)
            continue;
        sd_buf_putc(&ptr, '#');
        collect(s->hints, sc->root, &ptr, 0);
        sd_buf_release(&ptr);
    }
}

/* --- words --------------------------------------------------------------- */

/* Append the lower-case words of `s` (split at non-alphanumerics and at
 * camelCase boundaries) to `words` as one string each. */
static void words_of(sd_val *words, const char *s)
{
    char w[128];
    size_t n = 0;

    for (const char *p = s;; p++) {
        int c = (unsigned char)*p;
        int boundary = !c || !isalnum(c) ||
                       (isupper(c) && p > s && islower((unsigned char)p[-1]));
        if (boundary && n) {
            w[n] = '\0';
            sd_val_array_append_new(words, sd_val_string(w));
            n = 0;
        }
        if (!c)
            break;
        if (isalnum(c) && n < sizeof w - 1)
            w[n++] = (char)tolower(c);
    }
}

static int shared_words(sd_val *a, sd_val *b)
{
    size_t i, j;
    sd_val *x, *y;
    int n = 0;
    sd_val_array_foreach(a, i, x) {
        sd_val_array_foreach(b, j, y)
            if (sd_val_equal(x, y)) {
                n++;
                break;
            }
    }
    return n;
}

static char *lower(const char *s)
{
    char *r = strdup(s ? s : "");
    for (char *p = r; p && *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return r;
}

/* The new key `nk` is `ok` without one or more leading camelCase words. */
static int camel_suffix(const char *ok, const char *nk)
{
    size_t lo = strlen(ok), ln = strlen(nk);
    if (!ln || ln >= lo)
        return 0;
    const char *tail = ok + lo - ln;
    if (!isupper((unsigned char)tail[0]) || !islower((unsigned char)tail[-1]))
        return 0;
    for (size_t i = 0; i < ln; i++)
        if (tolower((unsigned char)tail[i]) != tolower((unsigned char)nk[i]))
            return 0;
    return 1;
}

static char *norm_desc(const char *s)
{
    sd_buf b = SD_BUF_INIT;
    int space = 0;
    if (!s)
        return NULL;
    for (; *s; s++) {
        if (isspace((unsigned char)*s)) {
            space = 1;
            continue;
        }
        if (space && b.len)
            sd_buf_putc(&b, ' ');
        space = 0;
        sd_buf_putc(&b, (char)tolower((unsigned char)*s));
    }
    while (b.len && b.ptr[b.len - 1] == '.')
        b.ptr[--b.len] = '\0';
    if (!b.len) {
        sd_buf_release(&b);
        return NULL;
    }
    return sd_buf_detach(&b);
}

/* --- pairing ------------------------------------------------------------- */

typedef struct cand { int o, n, score; const char *rule; } cand;

static const char *key_of(const dentry *e)
{
    const char *k = sd_val_string_value(sd_val_object_get(e->n, "key"));
    return k ? k : "";
}

static int same_version(const dentry *a, const dentry *b)
{
    if (!a->version || !b->version)
        return a->version == b->version;
    return strcmp(a->version, b->version) == 0;
}

static int types_meet(const dentry *a, const dentry *b)
{
    sd_val *ta = sd_val_object_get(a->n, "type"), *tb = sd_val_object_get(b->n, "type");
    if (!sd_val_array_size(ta) || !sd_val_array_size(tb))
        return 1;
    return shared_words(ta, tb) > 0;
}

static int same_default(const dentry *a, const dentry *b)
{
    sd_val *x = sd_val_object_get(a->n, "default"), *y = sd_val_object_get(b->n, "default");
    return (!x && !y) || (x && y && sd_val_equal(x, y));
}

static int by_score(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->score != y->score)
        return y->score - x->score;
    if (x->o != y->o)
        return x->o - y->o;
    return x->n - y->n;
}

/* The target a deprecation text names: "use `auth.username` instead". */
static int notice_target(sd_buf *out, const char *text)
{
    static const char *const leads[] = { "use ", "renamed to ", "moved to ", "replaced by ",
                                         "in favor of ", "in favour of ", NULL };
    char *l = lower(text);
    int found = 0;
    if (!l)
        return 0;
    for (const char *const *p = leads; *p && !found; p++) {
        const char *at = strstr(l, *p);
        if (!at)
            continue;
        const char *s = text + (at - l) + strlen(*p);
        while (*s == '`' || *s == '\'' || *s == '"')
            s++;
        size_t n = 0;
        while (s[n] && (isalnum((unsigned char)s[n]) || strchr("._-[]*", s[n])))
            n++;
        while (n && s[n - 1] == '.')
            n--;
        if (n) {
            sd_buf_clear(out);
            sd_buf_put(out, s, n);
            found = 1;
        }
    }
    free(l);
    return found;
}

static void pair(dctx *c, int o, int n, const char *rule)
{
    c->old.e[o].match = n;
    c->new.e[n].match = o;
    c->new.e[n].rule = rule;
    c->old.e[o].rule = rule;
}

/* path -> index of the unmatched entries of `s` */
static sd_val *path_index(const dside *s)
{
    sd_val *ix = sd_val_object();
    for (size_t i = 0; ix && i < s->n; i++)
        if (s->e[i].match < 0 && !sd_val_object_get(ix, s->e[i].path))
            sd_val_object_set_new(ix, s->e[i].path, sd_val_integer((sd_val_int)i));
    return ix;
}

static void append_to(sd_val *ix, const char *k, size_t i)
{
    sd_val *l = sd_val_object_get(ix, k);
    if (!l) {
        l = sd_val_array();
        sd_val_object_set_new(ix, k, l);
    }
    sd_val_array_append_new(l, sd_val_integer((sd_val_int)i));
}

/* --- the chart's notes ------------------------------------------------------ */


static void hint_pairs(dctx *c)
{
    sd_val *oldp = path_index(&c->old), *newp = path_index(&c->new);
    sd_buf t = SD_BUF_INIT;

    /* x-renamed-from in NEW */
    for (size_t i = 0; c->new.hints && i < c->new.n; i++) {
        dentry *e = &c->new.e[i];
        const char *ptr = sd_val_string_value(sd_val_object_get(e->n, "pointer"));
        sd_val *h = ptr ? sd_val_object_get(c->new.hints, ptr) : NULL;
        sd_val *o = h ? sd_val_object_get(oldp, sd_val_string_value(h)) : NULL;
        if (e->match < 0 && o && c->old.e[sd_val_integer_value(o)].match < 0)
            pair(c, (int)sd_val_integer_value(o), (int)i, "hint");
    }
    /* `@schema renamedFrom` in NEW's values.yaml */
    sd_val *ph = sd_diff__path_hints(c->new_dir);
    for (size_t i = 0; ph && i < c->new.n; i++) {
        dentry *e = &c->new.e[i];
        sd_val *h = sd_val_object_get(ph, e->path);
        sd_val *o = h ? sd_val_object_get(oldp, sd_val_string_value(h)) : NULL;
        if (e->match < 0 && o && c->old.e[sd_val_integer_value(o)].match < 0)
            pair(c, (int)sd_val_integer_value(o), (int)i, "hint");
    }
    sd_val_decref(ph);
    /* renames NEW's README states */
    sd_val *rh = sd_val_array(), *pr;
    size_t ri;
    sd_diff__readme_hints(rh, c->new_dir);
    sd_val_array_foreach(rh, ri, pr) {
        sd_val *o = sd_val_object_get(oldp, sd_val_string_value(sd_val_array_get(pr, 0)));
        sd_val *n = sd_val_object_get(newp, sd_val_string_value(sd_val_array_get(pr, 1)));
        if (o && n && c->old.e[sd_val_integer_value(o)].match < 0 && c->new.e[sd_val_integer_value(n)].match < 0)
            pair(c, (int)sd_val_integer_value(o), (int)sd_val_integer_value(n), "readme");
    }
    sd_val_decref(rh);
    /* "use X" in OLD's deprecation notices */
    for (size_t i = 0; i < c->old.n; i++) {
        dentry *e = &c->old.e[i];
        const char *d = sd_val_string_value(sd_val_object_get(e->n, "deprecation"));
        const char *desc = sd_val_string_value(sd_val_object_get(e->n, "description"));
        char *ld = NULL;
        if (e->match >= 0)
            continue;
        if (!d && desc && (ld = lower(desc)) && strstr(ld, "deprecated"))
            d = desc;
        free(ld);
        if (d && notice_target(&t, d)) {
            sd_val *n = sd_val_object_get(newp, t.ptr);
            if (n && c->new.e[sd_val_integer_value(n)].match < 0)
                pair(c, (int)i, (int)sd_val_integer_value(n), "hint");
        }
    }
    sd_buf_release(&t);
    sd_val_decref(oldp);
    sd_val_decref(newp);
}

/* The nearest ancestor of entry `i` that both sides have by id (-1: none). */
static int anchor(const dside *s, int i)
{
    for (int p = s->e[i].parent; p >= 0; p = s->e[p].parent)
        if (s->e[p].same)
            return p;
    return -1;
}

/* Path segments (split at unquoted dots) `a` and `b` have in common,
 * compared without case. */
static int shared_segments(const char *a, const char *b)
{
    sd_val *sa = sd_val_array(), *sb = sd_val_array();
    const char *paths[2] = { a, b };
    sd_val *segs[2] = { sa, sb };
    int n;
    for (int k = 0; k < 2; k++) {
        sd_buf seg = SD_BUF_INIT;
        int q = 0;
        for (const char *p = paths[k];; p++) {
            if (!*p || (*p == '.' && !q)) {
                if (seg.len)
                    sd_val_array_append_new(segs[k], sd_val_stringn(seg.ptr, seg.len));
                sd_buf_clear(&seg);
                if (!*p)
                    break;
                continue;
            }
            if (*p == '"')
                q = !q;
            sd_buf_putc(&seg, (char)tolower((unsigned char)*p));
        }
        sd_buf_release(&seg);
    }
    n = shared_words(sa, sb);
    sd_val_decref(sa);
    sd_val_decref(sb);
    return n;
}

/* The camelCase words `ok` loses to become `nk` all appear in `nwords`
 * (`primaryAsStandBy` -> `primary.standby`: "primary" is in the path;
 * "as" is too short to count). */
static int dropped_words_in(const char *ok, const char *nk, sd_val *nwords)
{
    sd_val *w = sd_val_array(), *v;
    size_t i, lo = strlen(ok) - strlen(nk);
    char *head = strndup(ok, lo);
    int all = 1, any = 0;
    if (!head || !w) {
        free(head);
        sd_val_decref(w);
        return 0;
    }
    words_of(w, head);
    sd_val_array_foreach(w, i, v) {
        sd_val *one = sd_val_array();
        if (strlen(sd_val_string_value(v)) < 3) {
            sd_val_decref(one);
            continue;
        }
        sd_val_array_append(one, v);
        if (shared_words(one, nwords))
            any = 1;
        else
            all = 0;
        sd_val_decref(one);
    }
    free(head);
    sd_val_decref(w);
    return all && any;
}

/* The parent part of a path: "a.b.c" -> "a.b" (quoted keys respected). */
static char *parent_path(const char *p)
{
    size_t last = 0;
    int q = 0;
    for (size_t i = 0; p[i]; i++) {
        if (p[i] == '"')
            q = !q;
        else if ((p[i] == '.' || p[i] == '[') && !q)
            last = i;
    }
    return strndup(p, last);
}

typedef struct rctx {
    dctx   *c;
    sd_val *by_key, *by_desc;   /* unmatched NEW entries: lower-case key / description -> [index] */
    sd_val **nwords, **npwords; /* words of each NEW path / parent path (made on first use) */
    char  **odesc;              /* normalized descriptions of the OLD entries */
    char  **ndesc;
    cand   *cs;
    size_t  ncs, capcs;
    int     maxdepth;
    int     strict;             /* only pairs with support (see score_pair) */
} rctx;

static sd_val *words_cached(sd_val **slot, const char *s)
{
    if (!*slot && (*slot = sd_val_array()))
        words_of(*slot, s);
    return *slot;
}

/* `b` is `a` with a final "s" (usePasswordFile -> usePasswordFiles). */
static int plural_of(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    return la > 2 && lb == la + 1 && (b[la] == 's' || b[la] == 'S') && strncasecmp(a, b, la) == 0;
}

/* The new key is the old key's map name joined to it, camelCase, perhaps
 * with "name" or "s" after (`replication.password` ->
 * `auth.replicationPassword`, `replication.user` -> `auth.replicationUsername`). */
static int joined(const dctx *c, const dentry *o, const char *nk)
{
    const char *pk, *ok = key_of(o);
    size_t lp, lo, ln = strlen(nk);
    if (o->parent < 0)
        return 0;
    pk = key_of(&c->old.e[o->parent]);
    lp = strlen(pk);
    lo = strlen(ok);
    if (!lp || !lo || ln < lp + lo || strncasecmp(nk, pk, lp) != 0 || strncasecmp(nk + lp, ok, lo) != 0)
        return 0;
    return !strcasecmp(nk + lp + lo, "") || !strcasecmp(nk + lp + lo, "name") || !strcasecmp(nk + lp + lo, "s");
}

/* Score the pair (old i, new ni); 0 when it is no candidate. */
static int score_pair(rctx *r, size_t i, size_t ni, sd_val *opwords, int nkw, const char **rule)
{
    dctx *c = r->c;
    dentry *o = &c->old.e[i], *n = &c->new.e[ni];
    const char *ok = key_of(o), *nk = key_of(n);
    int score = 0, sd, oa, na;
    char *np;

    *rule = NULL;
    if (n->match >= 0 || n->has_props != o->has_props || !types_meet(o, n) || !same_version(o, n))
        return 0;
    sd = same_default(o, n);
    if (!r->ndesc[ni])
        r->ndesc[ni] = norm_desc(sd_val_string_value(sd_val_object_get(n->n, "description")));
    if (r->odesc[i] && r->ndesc[ni] && strcmp(r->odesc[i], r->ndesc[ni]) == 0 && sd) {
        score = 1000;
        *rule = "description";
    } else if (strcasecmp(ok, nk) == 0 || plural_of(ok, nk) || plural_of(nk, ok)) {
        score = nkw > 1 ? 350 : 250;   /* "enabled", "type": common words */
        *rule = "key";
    } else if (joined(c, o, nk)) {
        score = 500;   /* the map's name went into the key: specific */
        *rule = "joined";
    } else if (camel_suffix(ok, nk)) {
        score = 250;
        *rule = "suffix";
        if (dropped_words_in(ok, nk, words_cached(&r->nwords[ni], n->path)))
            score += 100;
    } else {
        return 0;
    }
    oa = anchor(&c->old, (int)i);
    na = anchor(&c->new, (int)ni);
    int parent_moved = o->parent >= 0 && n->parent >= 0 && c->old.e[o->parent].match == n->parent;
    int same_place = oa >= 0 && c->old.e[oa].match == na;
    /* strict rounds: a description match, or a key whose map moved there,
     * or a key of two words or more in the same place */
    if (r->strict && strcmp(*rule, "description") != 0 && !parent_moved && !(same_place && nkw > 1))
        return 0;
    if (parent_moved)
        score += 200;   /* its map moved there */
    else if (same_place)
        score += 200;   /* the same place among the maps both sides have */
    else if (o->parent >= 0 && c->old.e[o->parent].same && c->old.e[o->parent].parent >= 0)
        score -= 100;   /* its map is still there, and it went elsewhere */
    if (!(np = parent_path(n->path)))
        return 0;
    char *op = parent_path(o->path);
    if (op) {
        score += 30 * shared_segments(op, np);
        free(op);
    }
    if (!r->npwords[ni] && (r->npwords[ni] = sd_val_array()))
        words_of(r->npwords[ni], np);
    free(np);
    score += 10 * shared_words(opwords, r->npwords[ni]) + (sd ? 50 : 0);
    if (score < 400)
        return 0;
    return score - abs(o->depth - n->depth);   /* the closer depth wins a tie */
}

static int add_cand(rctx *r, cand x)
{
    if (sd_grow((void **)&r->cs, &r->capcs, r->ncs + 1, sizeof *r->cs) < 0)
        return SD_ENOMEM;
    r->cs[r->ncs++] = x;
    return 0;
}

/* One pass over the OLD entries, level by level (parents first). */
static int level_pass(rctx *r)
{
    dctx *c = r->c;
    size_t i, j;
    sd_val *l, *v;

    for (int depth = 0; depth <= r->maxdepth; depth++) {
        r->ncs = 0;
        for (i = 0; i < c->old.n; i++) {
            dentry *o = &c->old.e[i];
            const char *ok;
            sd_val *opwords, *lists, *kw;
            char *op, *lk;
            int nkw;
            if (o->match >= 0 || o->depth != depth || o->parent < 0)
                continue;
            ok = key_of(o);   /* after the test: every pass visits every entry */
            kw = sd_val_array();
            words_of(kw, ok);
            nkw = (int)sd_val_array_size(kw);
            sd_val_decref(kw);
            opwords = sd_val_array();
            if ((op = parent_path(o->path))) {
                words_of(opwords, op);
                free(op);
            }
            /* candidates: same key, a camelCase suffix of the key, same description */
            lists = sd_val_array();
            if ((lk = lower(ok)) && (l = sd_val_object_get(r->by_key, lk)))
                sd_val_array_append(lists, l);
            if (lk) {
                /* the plural, the singular, and the map's name joined to the key */
                static const char *const tails[] = { "s", "name", "", NULL };
                sd_buf alt = SD_BUF_INIT;
                size_t ll = strlen(lk);
                sd_buf_printf(&alt, "%ss", lk);
                if ((l = sd_val_object_get(r->by_key, alt.ptr ? alt.ptr : "")))
                    sd_val_array_append(lists, l);
                if (ll > 3 && lk[ll - 1] == 's') {
                    sd_buf_clear(&alt);
                    sd_buf_put(&alt, lk, ll - 1);
                    if ((l = sd_val_object_get(r->by_key, alt.ptr ? alt.ptr : "")))
                        sd_val_array_append(lists, l);
                }
                if (o->parent >= 0) {
                    char *pk = lower(key_of(&c->old.e[o->parent]));
                    for (const char *const *t = tails; pk && *t; t++) {
                        sd_buf_clear(&alt);
                        sd_buf_printf(&alt, "%s%s%s", pk, lk, *t);
                        if ((l = sd_val_object_get(r->by_key, alt.ptr ? alt.ptr : "")))
                            sd_val_array_append(lists, l);
                    }
                    free(pk);
                }
                sd_buf_release(&alt);
            }
            free(lk);
            for (const char *p = ok + 1; *p; p++)
                if (isupper((unsigned char)*p) && islower((unsigned char)p[-1])) {
                    char *s = lower(p);
                    if (s && (l = sd_val_object_get(r->by_key, s)))
                        sd_val_array_append(lists, l);
                    free(s);
                }
            if (r->odesc[i] && (l = sd_val_object_get(r->by_desc, r->odesc[i])))
                sd_val_array_append(lists, l);
            sd_val_array_foreach(lists, j, l) {
                size_t k;
                sd_val_array_foreach(l, k, v) {
                    const char *rule;
                    size_t ni = (size_t)sd_val_integer_value(v);
                    int score = score_pair(r, i, ni, opwords, nkw, &rule);
                    if (score && add_cand(r, (cand){ (int)i, (int)ni, score, rule }) < 0) {
                        sd_val_decref(lists);
                        sd_val_decref(opwords);
                        return SD_ENOMEM;
                    }
                }
            }
            sd_val_decref(lists);
            sd_val_decref(opwords);
        }
        if (r->ncs)
            qsort(r->cs, r->ncs, sizeof *r->cs, by_score);
        for (i = 0; i < r->ncs; i++)
            if (c->old.e[r->cs[i].o].match < 0 && c->new.e[r->cs[i].n].match < 0)
                pair(c, r->cs[i].o, r->cs[i].n, r->cs[i].rule);
    }
    return 0;
}

/* A map whose keys moved, at least half of them into one new map, moved
 * there too (rule "children"). Returns the number of pairs made. */
static int children_vote(dctx *c)
{
    int made = 0;
    int *nkids = calloc(c->old.n ? c->old.n : 1, sizeof *nkids);
    sd_val *votes = sd_val_object(), *v;
    const char *k;
    char key[64];

    if (!nkids || !votes) {
        free(nkids);
        sd_val_decref(votes);
        return 0;
    }
    for (size_t j = 0; j < c->old.n; j++) {
        dentry *e = &c->old.e[j];
        if (e->parent < 0)
            continue;
        nkids[e->parent]++;
        if (e->match >= 0 && !e->same && c->old.e[e->parent].match < 0 && c->new.e[e->match].parent >= 0) {
            snprintf(key, sizeof key, "%d:%d", e->parent, c->new.e[e->match].parent);
            sd_val_object_set_new(votes, key, sd_val_integer(sd_val_integer_value(sd_val_object_get(votes, key)) + 1));
        }
    }
    /* the most votes first */
    for (sd_val_int want = (sd_val_int)c->old.n; want >= 1; want--) {
        int any = 0;
        sd_val_object_foreach(votes, k, v) {
            int o, n;
            sd_val_int got = sd_val_integer_value(v);
            if (got > want)
                any = 1;
            if (got != want || sscanf(k, "%d:%d", &o, &n) != 2)
                continue;
            any = 1;
            if (c->old.e[o].match < 0 && c->new.e[n].match < 0 && c->old.e[o].parent >= 0 &&
                (got >= 2 || got * 2 >= nkids[o]) && c->new.e[n].has_props &&
                same_version(&c->old.e[o], &c->new.e[n])) {
                pair(c, o, n, "children");
                made++;
            }
        }
        if (!any && want > 64)
            want = 65;   /* skip quickly down to the counts that occur */
    }
    free(nkids);
    sd_val_decref(votes);
    return made;
}

/* --- evidence ----------------------------------------------------------------- */

/* The keys of a map node, sorted and joined by "\n" (NULL for a leaf). */
static char *child_keys(const dentry *e)
{
    sd_val *props = sd_val_object_get(e->n, "properties"), *p;
    size_t i, n = sd_val_array_size(props);
    const char **ks;
    sd_buf b = SD_BUF_INIT;

    if (!n || !(ks = calloc(n, sizeof *ks)))
        return NULL;
    sd_val_array_foreach(props, i, p) {
        const char *k = sd_val_string_value(sd_val_object_get(p, "key"));
        ks[i] = k ? k : "";
    }
    for (i = 1; i < n; i++)   /* insertion sort: maps are small */
        for (size_t j = i; j > 0 && strcmp(ks[j - 1], ks[j]) > 0; j--) {
            const char *t = ks[j];
            ks[j] = ks[j - 1];
            ks[j - 1] = t;
        }
    for (i = 0; i < n; i++)
        sd_buf_printf(&b, "%s\n", ks[i]);
    free(ks);
    return sd_buf_detach(&b);
}

static int same_shape(const dentry *o, const dentry *n)
{
    char *a, *b;
    int r;
    sd_val *ta = sd_val_object_get(o->n, "type"), *tb = sd_val_object_get(n->n, "type");
    if (o->has_props != n->has_props || (ta && tb && !sd_val_equal(ta, tb)))
        return 0;
    if (!o->has_props)
        return 1;
    a = child_keys(o);
    b = child_keys(n);
    r = a && b && strcmp(a, b) == 0;
    free(a);
    free(b);
    return r;
}

/* How many entries of `s` end in `key`. */
static int count_key(const dside *s, const char *key)
{
    int n = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->e[i].parent >= 0 && strcasecmp(key_of(&s->e[i]), key) == 0)
            n++;
    return n;
}

/* Is the pair (o, n) a rename on evidence: the chart says so (its notes,
 * x-renamed-from, `@schema renamedFrom`, a deprecation notice naming the new
 * key), or both keys have the same last segment, the same subtree shape and
 * the same default, and either their maps are a rename on evidence or the
 * key says more than one word ("enabled", "port": common words), left no
 * map that is still there, and no other key of either side ends in it. */
static int evidenced(const dctx *c, const dentry *o, const dentry *n, const char *ev_old)
{
    const char *ok = key_of(o);
    if (n->rule && (!strcmp(n->rule, "hint") || !strcmp(n->rule, "readme")))
        return 1;
    if (strcasecmp(ok, key_of(n)) != 0 || !same_shape(o, n) || !same_default(o, n) || !same_version(o, n))
        return 0;
    if (o->parent >= 0 && n->parent >= 0 && c->old.e[o->parent].match == n->parent &&
        (c->old.e[o->parent].same || ev_old[o->parent]))
        return 1;
    /* its map is still there and it left it (`service.clusterIP` ->
     * `metrics.service.clusterIP`: another service's) */
    if (o->parent >= 0 && c->old.e[o->parent].same && c->old.e[o->parent].parent >= 0)
        return 0;
    sd_val *w = sd_val_array();
    words_of(w, ok);
    int nw = (int)sd_val_array_size(w);
    sd_val_decref(w);
    return nw > 1 && count_key(&c->old, ok) == 1 && count_key(&c->new, ok) == 1;
}

/* Keep the pairs made on evidence; each other one becomes a suggestion:
 * OLD's entry stays removed, with `similar` naming the new key. Parents
 * come before their children in `old`, so a map's verdict is known first. */
static int keep_evidenced(dctx *c)
{
    char *ev = calloc(c->old.n ? c->old.n : 1, 1);
    int *weak = calloc(c->old.n ? c->old.n : 1, sizeof *weak);
    if (!ev || !weak) {
        free(ev);
        free(weak);
        return SD_ENOMEM;
    }
    for (size_t i = 0; i < c->old.n; i++) {
        dentry *o = &c->old.e[i];
        weak[i] = -1;
        if (o->match < 0 || o->same)
            continue;
        if (evidenced(c, o, &c->new.e[o->match], ev))
            ev[i] = 1;
        else
            weak[i] = o->match;
    }
    for (size_t i = 0; i < c->old.n; i++)
        if (weak[i] >= 0) {
            dentry *o = &c->old.e[i], *n = &c->new.e[weak[i]];
            c->new.e[weak[i]].match = -1;
            c->new.e[weak[i]].rule = NULL;
            o->match = -1;
            o->rule = NULL;
            /* the same one-word key (`enabled`) is suggested only where
             * its map is, or one of the same name: `zookeeper.enabled` is
             * nothing like `brokerRackAwareness.enabled` */
            sd_val *w = sd_val_array();
            words_of(w, key_of(o));
            int common = sd_val_array_size(w) <= 1 && strcasecmp(key_of(o), key_of(n)) == 0;
            sd_val_decref(w);
            if (!common || (o->parent >= 0 && n->parent >= 0 &&
                            (weak[o->parent] == n->parent || c->old.e[o->parent].match == n->parent ||
                             strcasecmp(key_of(&c->old.e[o->parent]), key_of(&c->new.e[n->parent])) == 0)))
                o->similar = weak[i];
        }
    free(ev);
    free(weak);
    return 0;
}

int sd_diff__renames(dctx *c)
{
    rctx r;
    size_t i;
    int err = 0;

    memset(&r, 0, sizeof r);
    r.c = c;
    hint_pairs(c);
    r.by_key = sd_val_object();
    r.by_desc = sd_val_object();
    r.nwords = calloc(c->new.n ? c->new.n : 1, sizeof *r.nwords);
    r.npwords = calloc(c->new.n ? c->new.n : 1, sizeof *r.npwords);
    r.ndesc = calloc(c->new.n ? c->new.n : 1, sizeof *r.ndesc);
    r.odesc = calloc(c->old.n ? c->old.n : 1, sizeof *r.odesc);
    if (!r.by_key || !r.by_desc || !r.nwords || !r.npwords || !r.ndesc || !r.odesc) {
        err = SD_ENOMEM;
        goto done;
    }
    /* the unmatched NEW entries by key name and by description */
    for (i = 0; i < c->new.n; i++) {
        dentry *e = &c->new.e[i];
        char *k;
        if (e->match >= 0 || e->parent < 0)
            continue;
        if ((k = lower(key_of(e)))) {
            append_to(r.by_key, k, i);
            free(k);
        }
        if ((r.ndesc[i] = norm_desc(sd_val_string_value(sd_val_object_get(e->n, "description")))))
            append_to(r.by_desc, r.ndesc[i], i);
    }
    for (i = 0; i < c->old.n; i++) {
        if (c->old.e[i].match >= 0)
            continue;
        if (c->old.e[i].depth > r.maxdepth)
            r.maxdepth = c->old.e[i].depth;
        r.odesc[i] = norm_desc(sd_val_string_value(sd_val_object_get(c->old.e[i].n, "description")));
    }
    /* strict rounds first, each followed by the children's vote (the next
     * round sees the maps their keys moved to), then one round with every
     * candidate scoring 400 or more */
    for (int round = 0; round < 3 && !err; round++) {
        r.strict = round < 2;
        err = level_pass(&r);
        if (!err && r.strict)
            children_vote(c);
    }
    if (!err)
        err = keep_evidenced(c);
done:
    for (i = 0; r.nwords && i < c->new.n; i++) {
        sd_val_decref(r.nwords[i]);
        sd_val_decref(r.npwords[i]);
        free(r.ndesc[i]);
    }
    for (i = 0; r.odesc && i < c->old.n; i++)
        free(r.odesc[i]);
    free(r.nwords);
    free(r.npwords);
    free(r.ndesc);
    free(r.odesc);
    free(r.cs);
    sd_val_decref(r.by_key);
    sd_val_decref(r.by_desc);
    return err;
}
