/* SPDX-License-Identifier: Apache-2.0 */
/* vstring.c - the string keywords of the validator's walk (vwalk.h):
 * minLength and maxLength in code points, `pattern`, `format` (asserted,
 * or a warning where the draft only annotates; format.c checks), and the
 * pattern matcher that patternProperties shares: PCRE2 (ECMA-262 patterns
 * compiled by format.c), then, once a pattern is used often, its automaton
 * (ecma_dfa.c) or PCRE2's JIT. A record and a tape string in, a verdict
 * out (JSON Schema validation 2020-12 §6.3, §7). */
#include "vwalk.h"
#include "buf.h"
#include "vmsg.h"
#include "vnamed.h"

static size_t utf8_count(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

#define JIT_AFTER 32
#define POLY_NATIVE 512   /* src/form/rules_walk.js: longer strings meet poly patterns bounded */

int sd_vwalk__match(vctx *c, const vre *cr, const sd_tval *str, const vs *s, const char *kw)
{
    vre *r = (vre *)cr;     /* its counter and lazily made automaton */
    pcre2_code *re = r->code;
    const char *src = r->src;
    if (r->uses <= JIT_AFTER && ++r->uses == JIT_AFTER) {
        /* a pattern used often enough gets its automaton (which costs
         * about as much as 100 short matches to make) and, where that does
         * not serve every string, PCRE2's JIT. Where the browser runs
         * RegExp, C runs the automaton; where the browser bounds its
         * matcher (docs/rules.md, "Bounds"), PCRE2 keeps its match limit,
         * and both give up alike. */
        if ((r->dfa = sd_ecma_dfa_compile(r->src, r->len))) {
            int risk = sd_ecma_dfa_risk(r->dfa);
            r->dfa_max = risk == SD_RE_LINEAR ? (size_t)-1 : POLY_NATIVE;
            if (risk == SD_RE_EXP) {
                sd_ecma_dfa_free(r->dfa);
                r->dfa = NULL;
            }
        }
        if ((!r->dfa || r->dfa_max != (size_t)-1) && c->v->jit)
            pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);  /* on failure the interpreter goes on */
    }
    if (r->dfa && str->len <= r->dfa_max) {
        int m = sd_ecma_dfa_match(r->dfa, str->u.s, str->len);
        if (m >= 0)
            return m;
    }
    /* the loaders checked UTF-8 already: skip PCRE2's per-match scan; the
     * JIT entry point skips the rest of pcre2_match's argument checks */
    int rc = c->v->jit && r->uses >= JIT_AFTER ? pcre2_jit_match(re, (PCRE2_SPTR)str->u.s, str->len, 0, 0, c->v->md, c->v->mctx)
                       : pcre2_match(re, (PCRE2_SPTR)str->u.s, str->len, 0, PCRE2_NO_UTF_CHECK, c->v->md, c->v->mctx);
    if (rc == PCRE2_ERROR_JIT_BADOPTION)  /* this pattern was not JIT-compiled */
        rc = pcre2_match(re, (PCRE2_SPTR)str->u.s, str->len, 0, PCRE2_NO_UTF_CHECK, c->v->md, c->v->mctx);
    if (rc >= 0)
        return 1;
    if (rc == PCRE2_ERROR_NOMATCH)
        return 0;
    if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
        rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT) {
        sd_vwalk__err(c, s, kw, str, NULL, SD_MSG_PATTERN_LIMIT,
                      src, c->v->opts.regex_match_limit ? c->v->opts.regex_match_limit : DEFAULT_MATCH_LIMIT);
        return -1;
    }
    sd_vwalk__err(c, s, kw, str, NULL, SD_MSG_PATTERN_ERROR, src, rc);
    return -1;
}

int sd_vwalk__string(vctx *c, const vs *s, const sd_tval *inst)
{
    int ok = 1;
    /* n bytes of UTF-8 hold n/4 to n code points: count them only when
     * those bounds do not settle both limits */
    if ((s->minl >= 0 && (inst->len + 3) / 4 < (size_t)s->minl) ||
        (s->maxl >= 0 && inst->len > (size_t)s->maxl)) {
        size_t len = utf8_count(inst->u.s, inst->len);
        if (s->minl >= 0 && len < (size_t)s->minl) {
            ok = 0; if (!c->res) return 0;
            sd_vwalk__err(c, s, "minLength", inst, NULL, SD_MSG_MIN_LENGTH, len, s->minl);
        }
        if (s->maxl >= 0 && len > (size_t)s->maxl) {
            ok = 0; if (!c->res) return 0;
            sd_vwalk__err(c, s, "maxLength", inst, NULL, SD_MSG_MAX_LENGTH, len, s->maxl);
        }
    }
    if (s->pattern.code) {
        int m = sd_vwalk__match(c, &s->pattern, inst, s, "pattern");
        if (m == 0) {
            ok = 0; if (!c->res) return 0;
            const char *nm = sd_vnamed_words(NULL, s->pattern.src);   /* vnamed.h */
            sd_buf b = SD_BUF_INIT;
            sd_vprog__show(&b, c->t, inst);
            sd_vwalk__err(c, s, "pattern", inst, NULL, nm ? SD_MSG_NAMED : SD_MSG_PATTERN, b.ptr,
                          nm ? nm : s->pattern.src);
            sd_buf_release(&b);
        } else if (m < 0) {
            ok = 0; if (!c->res) return 0;
        }
    }
    if (s->format >= 0 && s->assert_format && !sd_format_check(s->format, inst->u.s, inst->len)) {
        ok = 0; if (!c->res) return 0;
        const char *nm = sd_vnamed_words(sd_format_name(s->format), NULL);
        sd_buf b = SD_BUF_INIT;
        sd_vprog__show(&b, c->t, inst);
        sd_vwalk__err(c, s, "format", inst, NULL, nm ? SD_MSG_NAMED : SD_MSG_FORMAT, b.ptr,
                      nm ? nm : sd_format_name(s->format));
        sd_buf_release(&b);
    } else if (s->format >= 0 && s->warn_format && c->res &&
               !sd_format_check(s->format, inst->u.s, inst->len)) {
        sd_buf b = SD_BUF_INIT;
        sd_vprog__show(&b, c->t, inst);
        sd_vwalk__warn(c, s, "format", inst, SD_MSG_FORMAT_WARN,
                       b.ptr, sd_format_name(s->format), sd_draft_name(s->draft));
        sd_buf_release(&b);
    }
    return ok;
}
