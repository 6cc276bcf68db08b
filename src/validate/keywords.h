/* SPDX-License-Identifier: Apache-2.0 */
/* keywords.h - the keyword table (keywords.def) as data: one sd_kw per JSON
 * Schema keyword schemadoc knows, for the stages that each read a column of
 * it (the validator's compiler and the rules export here, then the model, the
 * diff and the constraints in words). The JavaScript interpreter gets the same
 * rows as src/form/rules_kw.js (src/validate/keywords-js.sh). */
#ifndef SD_KEYWORDS_H
#define SD_KEYWORDS_H

#include <stddef.h>
#include <stdint.h>

/* SD_KW_<id>: a row's index in sd_kw_table (SD_KW_COUNT: how many). */
enum sd_kw_id {
#define KW(id, name, from, to, compile, field, record, need, vocab, model, diff, words, msgs) SD_KW_##id,
#include "keywords.def"
#undef KW
    SD_KW_COUNT
};

/* How the validator's compiler reads a keyword (the `compile` column). */
enum sd_kw_compile { SD_KC_NONE = 0, SD_KC_GENERIC, SD_KC_OWN, SD_KC_REF };
/* What a record holds of it, and how the rules carry that (`field`). */
enum sd_kw_field { SD_KF_NONE = 0, SD_KF_COUNT, SD_KF_NUM, SD_KF_REC, SD_KF_RECS, SD_KF_FLAG, SD_KF_OWN };
/* Where the model puts it (`model`). */
enum sd_kw_model { SD_KM_NONE = 0, SD_KM_CONSTRAINT, SD_KM_CONSTRAINT_BOOL };
/* The model's groups of constraints, in the model's order (`model`'s G). */
enum sd_kw_group { SD_KG_NUM = 0, SD_KG_STR, SD_KG_ARR, SD_KG_OBJ, SD_KG_COUNT };
/* How `diff` words a change of it (`diff`). */
enum sd_kw_diff { SD_KD_CHANGED = 0, SD_KD_LOWER, SD_KD_UPPER, SD_KD_TRUE_TIGHTENS, SD_KD_FALSE_TIGHTENS,
                  SD_KD_SKIP };
/* How a page words it (`words`). */
enum sd_kw_says { SD_KS_NONE = 0, SD_KS_BOUNDS, SD_KS_RANGE, SD_KS_NUMBER, SD_KS_CODE, SD_KS_TRUE,
                  SD_KS_OWN };

/* One keyword. Static data: every pointer is a string literal. */
typedef struct sd_kw {
    const char   *name;        /* as written in a schema */
    uint8_t       len;         /* strlen(name) */
    uint8_t       id;          /* enum sd_kw_id */
    uint16_t      from, to;    /* the drafts whose validator reads it */
    uint8_t       compile;     /* enum sd_kw_compile */
    uint8_t       field;       /* enum sd_kw_field */
    uint16_t      off, off_n;  /* where in a compiled record (vprog.h), for vcompile.c and rules.c */
    const char   *record;      /* the rules record's key for it, or NULL */
    uint8_t       need;        /* vprog.h N_* bit it sets, or 0 */
    uint8_t       vocab;       /* 1: in the validation vocabulary */
    uint8_t       model;       /* enum sd_kw_model */
    uint8_t       group;       /* enum sd_kw_group, when model is set */
    uint8_t       diff;        /* enum sd_kw_diff */
    uint8_t       words;       /* enum sd_kw_says */
    const char   *words_text;  /* RANGE: the noun; NUMBER, CODE, TRUE: the text */
    const char   *words_upper; /* RANGE: the upper bound's keyword */
    uint64_t      msgs;        /* bit SD_VMSG_<ID> (vmsg.h) for each message its errors carry */
} sd_kw;

/** The table, indexed by enum sd_kw_id, in keywords.def's order (static). */
extern const sd_kw sd_kw_table[SD_KW_COUNT];

/** The row of keyword `name` (`len` bytes, no NUL needed), or NULL when
 *  schemadoc knows no such keyword. Static; safe from any thread. */
const sd_kw *sd_kw_find(const char *name, size_t len);

/** The rows the model copies into `constraints`, in the model's order (the
 *  groups in enum sd_kw_group's order, the table's order within each); `*n`
 *  gets their count. Static; safe from any thread. */
const sd_kw *const *sd_kw_model_rows(size_t *n);

#endif
