/* SPDX-License-Identifier: Apache-2.0 */
/* secret.c - the secret rule (secret.h): a key path and its schema's hints
 * -> secret value, name of a Secret, or neither. The rows of
 * secret_rule.def are the words and patterns; the steps below are
 * src/form/secret_rule.js's, in its order (the schema's hints, the key's
 * words, the description last), so that the reference page and the form
 * mask the same fields (tests/unit/test_secret.c runs tests/secret-keys.tsv
 * through both). */
#include "secret.h"
#include "validate.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* the rows: word sets and key parts as static strings, patterns by index */
#define SR_WORDS(name, words) static const char name[] = " " words " ";
#define SR_PARTS(name, parts) static const char name[] = parts;
#define SR_RE(name, pattern)
#include "secret_rule.def"
#undef SR_WORDS
#undef SR_PARTS
#undef SR_RE

enum {
#define SR_WORDS(name, words)
#define SR_PARTS(name, parts)
#define SR_RE(name, pattern) RE_##name,
#include "secret_rule.def"
#undef SR_WORDS
#undef SR_PARTS
#undef SR_RE
    RE_COUNT
};

static const char *const re_src[RE_COUNT] = {
#define SR_WORDS(name, words)
#define SR_PARTS(name, parts)
#define SR_RE(name, pattern) pattern,
#include "secret_rule.def"
#undef SR_WORDS
#undef SR_PARTS
#undef SR_RE
};

struct sd_secret_rule {
    pcre2_code       *re[RE_COUNT];
    pcre2_match_data *md;
};

sd_secret_rule *sd_secret_rule_new(void)
{
    sd_secret_rule *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    for (int i = 0; i < RE_COUNT; i++) {
        /* the form reads each with RegExp's "i" flag */
        size_t n = strlen(re_src[i]);
        char *s = malloc(n + 5);
        int ec = 0;
        size_t off = 0;
        if (!s) {
            sd_secret_rule_free(r);
            return NULL;
        }
        memcpy(s, "(?i)", 4);
        memcpy(s + 4, re_src[i], n + 1);
        r->re[i] = sd_regex_compile(s, n + 4, &ec, &off);
        free(s);
        if (!r->re[i]) {
            sd_secret_rule_free(r);
            return NULL;
        }
    }
    if (!(r->md = pcre2_match_data_create(1, NULL))) {
        sd_secret_rule_free(r);
        return NULL;
    }
    return r;
}

void sd_secret_rule_free(sd_secret_rule *r)
{
    if (!r)
        return;
    for (int i = 0; i < RE_COUNT; i++)
        pcre2_code_free(r->re[i]);
    pcre2_match_data_free(r->md);
    free(r);
}

static int re_test(const sd_secret_rule *r, int which, const char *s)
{
    return pcre2_match(r->re[which], (PCRE2_SPTR)s, strlen(s), 0, 0, r->md, NULL) >= 0;
}

/* --- a key's words ------------------------------------------------------- */

/* The words of a key, as secret_rule.js keyWords() splits them: camelCase
 * ("aB", and "ABc" before its last capital), and anything but ASCII letters
 * and digits; lower case. `text` holds them NUL-separated, `w[i]` points in. */
typedef struct words {
    char   *text;
    char  **w;
    size_t  n;
} words;

static int is_lower_digit(int c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
static int is_upper(int c) { return c >= 'A' && c <= 'Z'; }
static int is_alnum(int c) { return is_lower_digit(c) || is_upper(c); }

static int split_words(words *out, const char *key)
{
    size_t len = key ? strlen(key) : 0, i, run = 0;
    char *brk = calloc(len + 1, 1);   /* brk[i]: a word starts at i */
    memset(out, 0, sizeof *out);
    if (!brk || !(out->text = malloc(2 * len + 1)) || !(out->w = malloc((len + 1) * sizeof *out->w))) {
        free(brk);
        free(out->text);
        out->text = NULL;
        return -1;
    }
    for (i = 1; i < len; i++)
        if (is_lower_digit((unsigned char)key[i - 1]) && is_upper((unsigned char)key[i]))
            brk[i] = 1;
    /* a run of two or more capitals before a lower-case letter: its last
     * capital starts the next word ("HTTPServer"); a break made above ends
     * the run */
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)key[i];
        if (is_upper(c) && !(brk[i] && run)) {
            run++;
        } else if (c >= 'a' && c <= 'z' && run >= 2) {
            brk[i - 1] = 1;
            run = 0;
        } else {
            run = is_upper(c) ? 1 : 0;
        }
    }
    char *t = out->text;
    int in = 0;
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)key[i];
        if (!is_alnum(c)) {
            if (in)
                *t++ = '\0';
            in = 0;
            continue;
        }
        if (in && brk[i]) {
            *t++ = '\0';
            in = 0;
        }
        if (!in)
            out->w[out->n++] = t;
        in = 1;
        *t++ = (char)tolower(c);
    }
    *t = '\0';
    free(brk);
    return 0;
}

static void words_release(words *w)
{
    free(w->text);
    free(w->w);
}

/* `word` is in the set `set` (" a b c ") */
static int has(const char *set, const char *word)
{
    size_t n = strlen(word);
    if (!n)
        return 0;
    for (const char *p = set; (p = strstr(p, word)) != NULL; p++)
        if (p[-1] == ' ' && p[n] == ' ')
            return 1;
    return 0;
}

static int any_in(const char *set, const words *w, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (has(set, w->w[i]))
            return 1;
    return 0;
}

static int contains(const words *w, const char *word)
{
    for (size_t i = 0; i < w->n; i++)
        if (!strcmp(w->w[i], word))
            return 1;
    return 0;
}

/* one of the space-separated `parts` occurs in `s`, any case */
static int has_part(const char *parts, const char *s)
{
    const char *p = parts;
    size_t n = strlen(s);
    while (*p) {
        const char *e = strchr(p, ' ');
        size_t k = e ? (size_t)(e - p) : strlen(p);
        int c0 = tolower((unsigned char)*p);   /* the parts are lower case */
        for (size_t i = 0; k && i + k <= n; i++)
            if (tolower((unsigned char)s[i]) == c0 && !strncasecmp(s + i, p, k))
                return 1;
        p += k;
        while (*p == ' ')
            p++;
    }
    return 0;
}

static const char *last_word(const words *w) { return w->n ? w->w[w->n - 1] : ""; }

/* What `key` (its parent's key `parent`) holds by its words alone
 * (secret_rule.js byWords). */
static int by_words(const words *w, const words *pw)
{
    if (!w->n)
        return SD_SECRET_NONE;
    const char *last = last_word(w);
    size_t nb = w->n - 1;                    /* the words before the last */
    const char *b1 = nb ? w->w[nb - 1] : "";
    int has_secret = contains(w, "secret") || contains(w, "secrets");
    if (contains(w, "existing") &&
        (has_secret || !strcmp(last, "key") || !strcmp(last, "keys") || (w->n >= 2 && has(VALUE, w->w[w->n - 2]))))
        return SD_SECRET_NAME;
    if (has_secret && has(SECRET_NAME_LAST, last))
        return SD_SECRET_NAME;
    if ((!strcmp(last, "key") || !strcmp(last, "keys")) && any_in(CRYPT_PARENT, pw, 0, pw->n))
        return SD_SECRET_VALUE;
    if (!strcmp(last, "key")) {
        if (!nb) {
            if ((pw->n == 1 && !strcmp(pw->w[0], "secret")) || any_in(REF_PARENT, pw, 0, pw->n))
                return SD_SECRET_NAME;
            return any_in(CERT_PARENT, pw, 0, pw->n) ? SD_SECRET_VALUE : SD_SECRET_NONE;
        }
        if (!strcmp(b1, "secret") && nb >= 2)
            return has(KEY_NAMED, w->w[nb - 2]) ? SD_SECRET_NAME : SD_SECRET_VALUE;
        if (has(KEY_NAMED, b1))
            return SD_SECRET_NAME;
        {
            /* the words joined: "replicasetkey" */
            size_t total = 0;
            for (size_t i = 0; i < w->n; i++)
                total += strlen(w->w[i]);
            char *j = malloc(total + 1);
            int whole = 0;
            if (j) {
                j[0] = '\0';
                for (size_t i = 0; i < w->n; i++)
                    strcat(j, w->w[i]);
                whole = has(WHOLE_SECRET, j);
                free(j);
            }
            if (whole)
                return SD_SECRET_VALUE;
        }
        if (any_in(KEY_OF, w, 0, nb))
            return !strcmp(b1, "access") && nb == 1 ? SD_SECRET_NONE : SD_SECRET_VALUE;
        if (any_in(AUTH_PARENT, pw, 0, pw->n))
            return SD_SECRET_VALUE;
        return SD_SECRET_NONE;
    }
    if (!strcmp(last, "keys")) {
        if (!strcmp(b1, "secret"))
            return SD_SECRET_NAME;
        return any_in(KEYS_OF, w, 0, nb) ? SD_SECRET_VALUE : SD_SECRET_NONE;
    }
    if (!strcmp(last, "secret"))
        return nb && has(SECRET_OBJ, b1) ? SD_SECRET_NAME : SD_SECRET_VALUE;
    if (!strcmp(last, "secrets"))
        return SD_SECRET_NAME;
    if (has(VALUE, last))
        return SD_SECRET_VALUE;
    return SD_SECRET_NONE;
}

int sd_secret_classify(const sd_secret_rule *r, const char *const *segs, size_t n, const sd_secret_hints *h)
{
    static const sd_secret_hints none = { NULL, NULL, 0, NULL };
    const char *t, *key, *parent, *d;
    size_t i, j;
    int c = SD_SECRET_NONE;
    words w, pw;

    if (!h)
        h = &none;
    t = h->type;
    if (t && (!strcmp(t, "boolean") || !strcmp(t, "integer") || !strcmp(t, "number")))
        return SD_SECRET_NONE;
    if (h->write_only || (h->format && !strcmp(h->format, "password")))
        return SD_SECRET_VALUE;
    /* the last key (list indexes skipped) and its parent's key */
    for (i = n; i > 0 && !segs[i - 1]; i--)
        ;
    if (!i)
        return SD_SECRET_NONE;
    i--;
    for (j = i; j > 0 && !segs[j - 1]; j--)
        ;
    key = segs[i];
    parent = j ? segs[j - 1] : "";
    if (split_words(&w, key) < 0)
        return SD_SECRET_NONE;
    if (split_words(&pw, parent) < 0) {
        words_release(&w);
        return SD_SECRET_NONE;
    }
    if (has_part(QUICK_KEY, key) || has_part(QUICK_PARENT, parent))
        c = by_words(&w, &pw);
    d = h->description ? h->description : "";
    if (c == SD_SECRET_VALUE && *d && !strcmp(last_word(&w), "secret") && re_test(r, RE_NAMES_SECRET, d))
        c = SD_SECRET_NAME;
    /* an entry of a map, or an item of a list, of secret values */
    if (c == SD_SECRET_NONE && i >= 1 && has_part(QUICK_PARENT, parent) && has(MANY, last_word(&pw)))
        c = SD_SECRET_VALUE;
    /* the description last, and never for a key about a secret */
    if (c == SD_SECRET_NONE && *d && !has(ABOUT, last_word(&w)) && re_test(r, RE_SAYS_SECRET, d) &&
        !re_test(r, RE_SAYS_ABOUT, d))
        c = SD_SECRET_VALUE;
    /* a map is no secret value, and names a Secret only as a reference */
    if (t && !strcmp(t, "object") && i == n - 1) {
        const char *l = last_word(&w);
        c = c == SD_SECRET_NAME && (contains(&w, "existing") || !strcmp(l, "ref") || !strcmp(l, "refs") || !strcmp(l, "keys"))
            ? SD_SECRET_NAME : SD_SECRET_NONE;
    }
    words_release(&w);
    words_release(&pw);
    return c;
}
