/* SPDX-License-Identifier: Apache-2.0 */
/* vtype.c - the checks of a value as a whole, whatever its kind: `type`
 * (with x-kubernetes-int-or-string and nullable), `enum` and `const`
 * (JSON Schema validation 2020-12 §6.1). A record and a tape value in, a
 * verdict out; the messages are made only on the failure path. */
#include "vwalk.h"
#include "buf.h"
#include "vmsg.h"

static int in_enum(const vs *s, const sd_tval *inst)
{
    const sd_tval *e = s->etape->v + 1;
    if (s->ehash) {
        uint64_t h = sd_vprog__hash(inst);
        for (size_t i = 0; i < s->etape->v->len; i++, e = sd_tval_next(e))
            if (s->ehash[i] == h && sd_vprog__equal(inst, e))
                return 1;
        return 0;
    }
    for (size_t i = 0; i < s->etape->v->len; i++, e = sd_tval_next(e))
        if (sd_vprog__equal(inst, e))
            return 1;
    return 0;
}

/* The messages of a failed type, enum or const (not on the way of a value
 * that passes: sd_vwalk__value() checks, these explain). */
SD_VWALK_COLD static void report_type(vctx *c, const vs *s, const sd_tval *inst, unsigned allowed)
{
    sd_buf b = SD_BUF_INIT;
    sd_vprog__type_names(&b, allowed);
    if (vk(inst) == SD_MAP || vk(inst) == SD_SEQ)
        sd_vwalk__err(c, s, s->types ? "type" : "x-kubernetes-int-or-string", inst, NULL, SD_MSG_TYPE, sd_kind_type_word(vk(inst)), b.ptr);
    else {
        sd_buf val = SD_BUF_INIT;
        sd_vprog__show(&val, c->t, inst);
        sd_vwalk__err(c, s, s->types ? "type" : "x-kubernetes-int-or-string", inst, NULL, SD_MSG_TYPE_VALUE,
                      sd_kind_type_word(vk(inst)), val.ptr, b.ptr);
        sd_buf_release(&val);
    }
    sd_buf_release(&b);
}

SD_VWALK_COLD static void report_enum(vctx *c, const vs *s, const sd_tval *inst)
{
    sd_buf b = SD_BUF_INIT, val = SD_BUF_INIT;
    const sd_tval *e = s->etape->v + 1;
    for (size_t i = 0; i < s->enum_->n && i < 12; i++, e = sd_tval_next(e)) {
        if (i) sd_buf_puts(&b, SD_MSG_ENUM_SEP);
        sd_vprog__show(&b, s->etape, e);
    }
    if (s->enum_->n > 12)
        sd_buf_printf(&b, SD_MSG_ENUM_MORE, (size_t)s->enum_->n - 12);
    sd_vprog__show(&val, c->t, inst);
    sd_vwalk__err(c, s, "enum", inst, NULL, SD_MSG_ENUM, val.ptr, b.ptr);
    sd_buf_release(&b);
    sd_buf_release(&val);
}

SD_VWALK_COLD static void report_const(vctx *c, const vs *s, const sd_tval *inst)
{
    sd_buf b = SD_BUF_INIT, val = SD_BUF_INIT;
    sd_vprog__show(&b, s->ctape, s->ctape->v);
    sd_vprog__show(&val, c->t, inst);
    sd_vwalk__err(c, s, "const", inst, NULL, SD_MSG_CONST, val.ptr, b.ptr);
    sd_buf_release(&b);
    sd_buf_release(&val);
}

int sd_vwalk__value(vctx *c, const vs *s, const sd_tval *inst)
{
    int ok = 1;
    if (s->need & N_TYPE) {
        unsigned it = inst_type(inst);
        unsigned allowed = s->types | (s->int_or_string ? T_INT | T_STR : 0) | (s->nullable ? T_NULL : 0);
        if (!(allowed & it) && !(it == T_INT && (allowed & T_NUM))) {
            ok = 0;
            if (!c->res) return 0;
            report_type(c, s, inst, allowed);
        }
    }
    if (s->enum_ && !(s->nullable && vk(inst) == SD_NULL) && !in_enum(s, inst)) {
        ok = 0;
        if (!c->res) return 0;
        report_enum(c, s, inst);
    }
    if (s->has_const && !sd_vprog__equal(inst, s->ctape->v)) {
        ok = 0;
        if (!c->res) return 0;
        report_const(c, s, inst);
    }
    return ok;
}
