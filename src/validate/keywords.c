/* SPDX-License-Identifier: Apache-2.0 */
/* keywords.c - keywords.def -> sd_kw_table, and the two ways the stages look
 * rows up: by name (a hash index, for every key of every schema the validator
 * compiles) and in the model's order (the rows the model copies into a node's
 * constraints). Both are built once per process, under pthread_once. */
#include "keywords.h"
#include "vmsg.h"
#include "vprog.h"

#include <pthread.h>
#include <stddef.h>
#include <string.h>

/* The columns of keywords.def, as sd_kw fields. Each column's values are
 * pasted to the column's prefix, so that `0` means "none" in every column. */
#define C_0        SD_KC_NONE
#define C_GENERIC  SD_KC_GENERIC
#define C_OWN      SD_KC_OWN
#define C_REF      SD_KC_REF
#define F_0             SD_KF_NONE, 0, 0
#define F_OWN           SD_KF_OWN, 0, 0
#define F_COUNT(f)      SD_KF_COUNT, offsetof(vs, f), 0
#define F_NUM(f)        SD_KF_NUM, offsetof(vs, f), 0
#define F_REC(f)        SD_KF_REC, offsetof(vs, f), 0
#define F_RECS(f, n)    SD_KF_RECS, offsetof(vs, f), offsetof(vs, n)
#define F_FLAG(f)       SD_KF_FLAG, offsetof(vs, f), 0
#define N_0        0
#define V_0        0
#define V_VALIDATION 1
#define M_0                     SD_KM_NONE, 0
#define M_CONSTRAINT(g)         SD_KM_CONSTRAINT, SD_KG_##g
#define M_CONSTRAINT_BOOL(g)    SD_KM_CONSTRAINT_BOOL, SD_KG_##g
#define D_0              SD_KD_CHANGED
#define D_LOWER          SD_KD_LOWER
#define D_UPPER          SD_KD_UPPER
#define D_TRUE_TIGHTENS  SD_KD_TRUE_TIGHTENS
#define D_FALSE_TIGHTENS SD_KD_FALSE_TIGHTENS
#define D_SKIP           SD_KD_SKIP
#define W_0              SD_KS_NONE, NULL, NULL
#define W_BOUNDS         SD_KS_BOUNDS, NULL, NULL
#define W_RANGE(noun, upper) SD_KS_RANGE, noun, upper
#define W_NUMBER(text)   SD_KS_NUMBER, text, NULL
#define W_CODE(text)     SD_KS_CODE, text, NULL
#define W_TRUE(text)     SD_KS_TRUE, text, NULL
#define W_OWN            SD_KS_OWN, NULL, NULL
#define MSG(id)          (UINT64_C(1) << SD_VMSG_##id)

_Static_assert(SD_VMSG_COUNT <= 64, "sd_kw.msgs holds a bit per message");
_Static_assert(SD_KW_COUNT < 256, "sd_kw.id is a byte, and so are the index's slots");

const sd_kw sd_kw_table[SD_KW_COUNT] = {
#define KW(id, name, from, to, compile, field, record, need, vocab, model, diff, words, msgs) \
    { name, sizeof name - 1, SD_KW_##id, from, to, C_##compile, F_##field, record, N_##need, V_##vocab, \
      M_##model, D_##diff, W_##words, msgs },
#include "keywords.def"
#undef KW
};

/* ---- the indexes ------------------------------------------------------------ */

#define SLOTS 128   /* a power of two, over twice the rows: 1.3 probes a keyword */

static uint8_t by_name[SLOTS];            /* row + 1, 0: empty */
static const sd_kw *model_rows[SD_KW_COUNT];
static size_t nmodel;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Length, first, middle and last byte: keywords differ there. */
static unsigned slot_of(const char *s, size_t n)
{
    return (unsigned)(n * 31 + (unsigned char)s[0] * 7 + (unsigned char)s[n - 1] * 3 +
                      (unsigned char)s[n / 2]) & (SLOTS - 1);
}

static void build(void)
{
    for (size_t i = 0; i < SD_KW_COUNT; i++) {
        unsigned j = slot_of(sd_kw_table[i].name, sd_kw_table[i].len);
        while (by_name[j])
            j = (j + 1) & (SLOTS - 1);
        by_name[j] = (uint8_t)(i + 1);
    }
    for (int g = 0; g < SD_KG_COUNT; g++)
        for (size_t i = 0; i < SD_KW_COUNT; i++)
            if (sd_kw_table[i].model && sd_kw_table[i].group == g)
                model_rows[nmodel++] = &sd_kw_table[i];
}

const sd_kw *sd_kw_find(const char *name, size_t len)
{
    unsigned j;
    if (!len || len > 255)
        return NULL;
    pthread_once(&once, build);
    for (j = slot_of(name, len); by_name[j]; j = (j + 1) & (SLOTS - 1)) {
        const sd_kw *k = &sd_kw_table[by_name[j] - 1];
        if (k->len == len && memcmp(k->name, name, len) == 0)
            return k;
    }
    return NULL;
}

const sd_kw *const *sd_kw_model_rows(size_t *n)
{
    pthread_once(&once, build);
    *n = nmodel;
    return model_rows;
}
