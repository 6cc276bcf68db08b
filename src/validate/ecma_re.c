/* SPDX-License-Identifier: Apache-2.0 */
/* ecma_re.c - a `pattern` as ECMA-262 reads it with the `u` flag (see
 * ecma_re.h): a parser that accepts exactly what JavaScript's RegExp(src,
 * "u") accepts (ECMA-262 2023 §22.2.1, no Annex B; tests/js/ecma_re.test.mjs
 * compares it with node's on every corpus pattern and 20,000 random ones),
 * the places PCRE2 reads differently, and the syntax tree that ecma_risk.c
 * measures the backtracking risk on. */
#include "ecma_re.h"
#include "ecma_int.h"
#include "buf.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CP 4096       /* longer patterns are not analysed (risk: poly) */
#define MAX_DEPTH 200     /* group nesting */

/* ---- Unicode property names ECMA-262 knows (table 67-69; scripts of Unicode 15) -- */

static const char gc_values[] =
    " C Cased_Letter Cc Cf Close_Punctuation Cn Co Combining_Mark Connector_Punctuation Control Cs"
    " Currency_Symbol Dash_Punctuation Decimal_Number Enclosing_Mark Final_Punctuation Format"
    " Initial_Punctuation L LC Letter Letter_Number Line_Separator Ll Lm Lo Lowercase_Letter Lt Lu M"
    " Mark Math_Symbol Mc Me Mn Modifier_Letter Modifier_Symbol N Nd Nl No Nonspacing_Mark Number"
    " Open_Punctuation Other Other_Letter Other_Number Other_Punctuation Other_Symbol P"
    " Paragraph_Separator Pc Pd Pe Pf Pi Po Private_Use Ps Punctuation S Sc Separator Sk Sm So"
    " Space_Separator Spacing_Mark Surrogate Symbol Titlecase_Letter Unassigned Uppercase_Letter Z Zl"
    " Zp Zs cntrl digit punct ";

static const char binary_props[] =
    " ASCII ASCII_Hex_Digit AHex Alphabetic Alpha Any Assigned Bidi_Control Bidi_C Bidi_Mirrored"
    " Bidi_M Case_Ignorable CI Cased Changes_When_Casefolded CWCF Changes_When_Casemapped CWCM"
    " Changes_When_Lowercased CWL Changes_When_NFKC_Casefolded CWKCF Changes_When_Titlecased CWT"
    " Changes_When_Uppercased CWU Dash Default_Ignorable_Code_Point DI Deprecated Dep Diacritic Dia"
    " Emoji Emoji_Component EComp Emoji_Modifier EMod Emoji_Modifier_Base EBase Emoji_Presentation"
    " EPres Extended_Pictographic ExtPict Extender Ext Grapheme_Base Gr_Base Grapheme_Extend Gr_Ext"
    " Hex_Digit Hex IDS_Binary_Operator IDSB IDS_Trinary_Operator IDST ID_Continue IDC ID_Start IDS"
    " Ideographic Ideo Join_Control Join_C Logical_Order_Exception LOE Lowercase Lower Math"
    " Noncharacter_Code_Point NChar Pattern_Syntax Pat_Syn Pattern_White_Space Pat_WS Quotation_Mark"
    " QMark Radical Regional_Indicator RI Sentence_Terminal STerm Soft_Dotted SD Terminal_Punctuation"
    " Term Unified_Ideograph UIdeo Uppercase Upper Variation_Selector VS White_Space space"
    " XID_Continue XIDC XID_Start XIDS ";

static const char script_values[] =
    " Adlam Adlm Aghb Ahom Anatolian_Hieroglyphs Arab Arabic Armenian Armi Armn Avestan Avst Bali"
    " Balinese Bamu Bamum Bass Bassa_Vah Batak Batk Beng Bengali Bhaiksuki Bhks Bopo Bopomofo Brah"
    " Brahmi Brai Braille Bugi Buginese Buhd Buhid Cakm Canadian_Aboriginal Cans Cari Carian"
    " Caucasian_Albanian Chakma Cham Cher Cherokee Chorasmian Chrs Common Copt Coptic Cpmn Cprt"
    " Cuneiform Cypriot Cypro_Minoan Cyrillic Cyrl Deseret Deva Devanagari Diak Dives_Akuru Dogr"
    " Dogra Dsrt Dupl Duployan Egyp Egyptian_Hieroglyphs Elba Elbasan Elym Elymaic Ethi Ethiopic"
    " Geor Georgian Glag Glagolitic Gong Gonm Goth Gothic Gran Grantha Greek Grek Gujarati Gujr"
    " Gunjala_Gondi Gurmukhi Guru Han Hang Hangul Hani Hanifi_Rohingya Hano Hanunoo Hatr Hatran"
    " Hebr Hebrew Hira Hiragana Hluw Hmng Hmnp Hung Imperial_Aramaic Inherited"
    " Inscriptional_Pahlavi Inscriptional_Parthian Ital Java Javanese Kaithi Kali Kana Kannada"
    " Katakana Kawi Kayah_Li Khar Kharoshthi Khitan_Small_Script Khmer Khmr Khoj Khojki Khudawadi"
    " Kits Knda Kthi Lana Lao Laoo Latin Latn Lepc Lepcha Limb Limbu Lina Linb Linear_A Linear_B"
    " Lisu Lyci Lycian Lydi Lydian Mahajani Mahj Maka Makasar Malayalam Mand Mandaic Mani"
    " Manichaean Marc Marchen Masaram_Gondi Medefaidrin Medf Meetei_Mayek Mend Mende_Kikakui Merc"
    " Mero Meroitic_Cursive Meroitic_Hieroglyphs Miao Mlym Modi Mong Mongolian Mro Mroo Mtei Mult"
    " Multani Myanmar Mymr Nabataean Nag_Mundari Nagm Nand Nandinagari Narb Nbat New_Tai_Lue Newa"
    " Nko Nkoo Nshu Nushu Nyiakeng_Puachue_Hmong Ogam Ogham Ol_Chiki Olck Old_Hungarian Old_Italic"
    " Old_North_Arabian Old_Permic Old_Persian Old_Sogdian Old_South_Arabian Old_Turkic Old_Uyghur"
    " Oriya Orkh Orya Osage Osge Osma Osmanya Ougr Pahawh_Hmong Palm Palmyrene Pau_Cin_Hau Pauc"
    " Perm Phag Phags_Pa Phli Phlp Phnx Phoenician Plrd Prti Psalter_Pahlavi Qaac Qaai Rejang Rjng"
    " Rohg Runic Runr Samaritan Samr Sarb Saur Saurashtra Sgnw Sharada Shavian Shaw Shrd Sidd"
    " Siddham SignWriting Sind Sinh Sinhala Sogd Sogdian Sogo Sora Sora_Sompeng Soyo Soyombo Sund"
    " Sundanese Sylo Syloti_Nagri Syrc Syriac Tagalog Tagb Tagbanwa Tai_Le Tai_Tham Tai_Viet Takr"
    " Takri Tale Talu Tamil Taml Tang Tangsa Tangut Tavt Telu Telugu Tfng Tglg Thaa Thaana Thai"
    " Tibetan Tibt Tifinagh Tirh Tirhuta Tnsa Toto Ugar Ugaritic Unknown Vai Vaii Vith Vithkuqi"
    " Wancho Wara Warang_Citi Wcho Xpeo Xsux Yezi Yezidi Yi Yiii Zanabazar_Square Zanb Zinh Zyyy"
    " Zzzz ";

static int in_list(const char *list, const uint32_t *s, size_t n)
{
    char name[64];
    if (n == 0 || n >= sizeof name - 2)
        return 0;
    name[0] = ' ';
    for (size_t i = 0; i < n; i++) {
        if (s[i] > 0x7E || s[i] <= ' ')
            return 0;
        name[i + 1] = (char)s[i];
    }
    name[n + 1] = ' ';
    name[n + 2] = '\0';
    return strstr(list, name) != NULL;
}

/* ---- character sets ------------------------------------------------------------ */

static int set_add(rset *s, uint32_t lo, uint32_t hi)
{
    if (s->n + 2 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        uint32_t *r = realloc(s->r, cap * sizeof *r);
        if (!r)
            return -1;
        s->r = r;
        s->cap = cap;
    }
    s->r[s->n++] = lo;
    s->r[s->n++] = hi;
    return 0;
}

static int cmp_range(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

static void set_norm(rset *s)
{
    size_t k = 0;
    if (s->n < 4)
        return;
    qsort(s->r, s->n / 2, 2 * sizeof *s->r, cmp_range);
    for (size_t i = 2; i < s->n; i += 2) {
        if (s->r[i] <= s->r[k + 1] + 1) {
            if (s->r[i + 1] > s->r[k + 1])
                s->r[k + 1] = s->r[i + 1];
        } else {
            k += 2;
            s->r[k] = s->r[i];
            s->r[k + 1] = s->r[i + 1];
        }
    }
    s->n = k + 2;
}

static int set_negate(rset *s)
{
    rset o = { NULL, 0, 0, 0 };
    uint32_t next = 0;
    set_norm(s);
    for (size_t i = 0; i < s->n; i += 2) {
        if (s->r[i] > next && set_add(&o, next, s->r[i] - 1) < 0)
            return -1;
        next = s->r[i + 1] + 1;
    }
    if (next <= SD_ECMA_UNIV && set_add(&o, next, SD_ECMA_UNIV) < 0)
        return -1;
    free(s->r);
    s->r = o.r;
    s->n = o.n;
    s->cap = o.cap;
    return 0;
}

/* \d \w \s and their complements (ASCII \d \w; ECMA-262 white space and line terminators) */
static int class_escape(rset *s, uint32_t c)
{
    static const uint32_t ws[] = { 9, 13, 32, 32, 0xA0, 0xA0, 0x1680, 0x1680, 0x2000, 0x200A,
                                   0x2028, 0x2029, 0x202F, 0x202F, 0x205F, 0x205F, 0x3000, 0x3000,
                                   0xFEFF, 0xFEFF };
    rset t = { NULL, 0, 0, 0 };
    int err = 0;
    switch (c | 32) {
    case 'd': err = set_add(&t, '0', '9'); break;
    case 'w': err = set_add(&t, '0', '9') | set_add(&t, 'A', 'Z') | set_add(&t, '_', '_') | set_add(&t, 'a', 'z'); break;
    default:
        for (size_t i = 0; i < sizeof ws / sizeof *ws && !err; i += 2)
            err = set_add(&t, ws[i], ws[i + 1]);
    }
    if (!err && c >= 'A' && c <= 'Z')
        err = set_negate(&t);
    for (size_t i = 0; i < t.n && !err; i += 2)
        err = set_add(s, t.r[i], t.r[i + 1]);
    free(t.r);
    return err;
}

static int fail(rp *p, const char *why)
{
    if (!p->err) {
        p->err = why;
        p->erroff = p->i;
    }
    return -1;
}

static int node(rp *p, int type)
{
    if (p->nn == p->an) {
        size_t an = p->an ? p->an * 2 : 64;
        rnode *r = realloc(p->nodes, an * sizeof *r);
        if (!r)
            return p->oom = 1, fail(p, "out of memory");
        p->nodes = r;
        p->an = an;
    }
    memset(&p->nodes[p->nn], 0, sizeof *p->nodes);
    p->nodes[p->nn].type = type;
    p->nodes[p->nn].kid = p->nodes[p->nn].next = p->nodes[p->nn].parent = -1;
    p->nodes[p->nn].set = p->nodes[p->nn].pos = -1;
    return (int)p->nn++;
}

static int new_set(rp *p)
{
    if (p->ns == p->as) {
        size_t as = p->as ? p->as * 2 : 32;
        rset *r = realloc(p->sets, as * sizeof *r);
        if (!r)
            return p->oom = 1, fail(p, "out of memory");
        p->sets = r;
        p->as = as;
    }
    memset(&p->sets[p->ns], 0, sizeof *p->sets);
    return (int)p->ns++;
}

static void append(rp *p, int list, int kid)
{
    int *at = &p->nodes[list].kid;
    while (*at >= 0)
        at = &p->nodes[*at].next;
    *at = kid;
    p->nodes[kid].parent = list;
}

static int peek(const rp *p, size_t k) { return p->i + k < p->n ? (int)p->s[p->i + k] : -1; }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}
static int syntax_char(int c) { return c >= 0 && strchr("^$\\.*+?()[]{}|", c) && c; }

/* Unicode properties of a code point, through PCRE2 (for group names). */
static int id_char(uint32_t c, int start)
{
    static pcre2_code *re[2];
    static pcre2_match_data *md;
    char b[4];
    size_t n;
    if (c < 0x80)
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '$' || c == '_' || (!start && c >= '0' && c <= '9');
    if (!start && (c == 0x200C || c == 0x200D))
        return 1;
    if (!re[start]) {
        int ec;
        PCRE2_SIZE off;
        const char *pat = start ? "^[\\p{L}\\p{Nl}]$" : "^[\\p{L}\\p{Nl}\\p{Mn}\\p{Mc}\\p{Nd}\\p{Pc}]$";
        if (!(re[start] = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, PCRE2_UTF, &ec, &off, NULL)))
            return 0;
    }
    if (!md && !(md = pcre2_match_data_create(1, NULL)))
        return 0;
    n = sd_utf8_encode(c, b);
    return pcre2_match(re[start], (PCRE2_SPTR)b, n, 0, 0, md, NULL) >= 0;
}

/* \uHHHH, \u{H...}, or a surrogate pair of \u escapes; p->i is after the 'u'. */
static int unicode_escape(rp *p, uint32_t *out)
{
    if (peek(p, 0) == '{') {
        uint32_t v = 0;
        size_t start;
        p->i++;
        start = p->i;
        while (hexval(peek(p, 0)) >= 0) {
            v = v * 16 + (uint32_t)hexval(peek(p, 0));
            if (v > SD_ECMA_UNIV)
                return fail(p, "code point escape beyond U+10FFFF");
            p->i++;
        }
        if (p->i == start || peek(p, 0) != '}')
            return fail(p, "invalid Unicode escape");
        p->i++;
        p->differs |= SD_RE_DIFF_U_BRACE;
        *out = v;
        return 0;
    }
    uint32_t v = 0;
    for (int k = 0; k < 4; k++) {
        int h = hexval(peek(p, 0));
        if (h < 0)
            return fail(p, "invalid Unicode escape");
        v = v * 16 + (uint32_t)h;
        p->i++;
    }
    if (v >= 0xD800 && v <= 0xDBFF && peek(p, 0) == '\\' && peek(p, 1) == 'u') {
        uint32_t lo = 0;
        int ok = 1;
        for (int k = 0; k < 4 && ok; k++) {
            int h = hexval(peek(p, 2 + (size_t)k));
            if (h < 0)
                ok = 0;
            else
                lo = lo * 16 + (uint32_t)h;
        }
        if (ok && lo >= 0xDC00 && lo <= 0xDFFF) {
            p->i += 6;
            v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
        }
    }
    *out = v;
    return 0;
}

/* \p{...} / \P{...}; p->i is after the 'p'. */
static int property(rp *p)
{
    size_t start, eq = 0;
    if (peek(p, 0) != '{')
        return fail(p, "invalid property name");
    start = ++p->i;
    while (p->i < p->n && p->s[p->i] != '}') {
        if (p->s[p->i] == '=' && !eq)
            eq = p->i;
        p->i++;
    }
    if (p->i >= p->n)
        return fail(p, "invalid property name");
    {
        const uint32_t *s = p->s + start;
        size_t n = p->i - start;
        int ok;
        if (eq) {
            size_t kn = eq - start;
            const uint32_t *v = p->s + eq + 1;
            size_t vn = n - kn - 1;
            if (in_list(" General_Category gc ", s, kn))
                ok = in_list(gc_values, v, vn);
            else if (in_list(" Script sc Script_Extensions scx ", s, kn))
                ok = in_list(script_values, v, vn);
            else
                ok = 0;
        } else {
            ok = in_list(gc_values, s, n) || in_list(binary_props, s, n);
        }
        if (!ok)
            return fail(p, "invalid property name");
    }
    p->i++;
    return 0;
}

/* A character escape (not a class escape); p->i is after the backslash.
 * `in_class`: \b is backspace, \- is allowed. */
static int char_escape(rp *p, uint32_t *out, int in_class)
{
    int c = peek(p, 0);
    p->i++;
    switch (c) {
    case 'f': *out = 12; return 0;
    case 'n': *out = 10; return 0;
    case 'r': *out = 13; return 0;
    case 't': *out = 9; return 0;
    case 'v': *out = 11; return 0;
    case 'c': {
        int l = peek(p, 0);
        if (!((l >= 'a' && l <= 'z') || (l >= 'A' && l <= 'Z')))
            return fail(p, "invalid control escape");
        p->i++;
        *out = (uint32_t)(l % 32);
        return 0;
    }
    case '0':
        if (is_digit(peek(p, 0)))
            return fail(p, "invalid decimal escape");
        *out = 0;
        return 0;
    case 'x': {
        int a = hexval(peek(p, 0)), b = hexval(peek(p, 1));
        if (a < 0 || b < 0)
            return fail(p, "invalid escape");
        p->i += 2;
        *out = (uint32_t)(a * 16 + b);
        return 0;
    }
    case 'u':
        return unicode_escape(p, out);
    default:
        if (syntax_char(c) || c == '/' || (in_class && c == '-')) {
            *out = (uint32_t)c;
            return 0;
        }
        if (in_class && c == 'b') {
            *out = 8;
            return 0;
        }
        p->i--;
        return fail(p, "invalid escape");
    }
}

static int set_of_char(rp *p, uint32_t c)
{
    int n = node(p, R_SET), s;
    if (n < 0 || (s = new_set(p)) < 0)
        return -1;
    p->nodes[n].set = s;
    if (set_add(&p->sets[s], c, c) < 0)
        return p->oom = 1, fail(p, "out of memory");
    return n;
}

/* [...]; p->i is after the '['. */
static int char_class(rp *p)
{
    int n = node(p, R_SET), si, neg = 0;
    if (n < 0 || (si = new_set(p)) < 0)
        return -1;
    p->nodes[n].set = si;
    if (peek(p, 0) == '^') {
        neg = 1;
        p->i++;
    }
    for (;;) {
        int c = peek(p, 0), lo_class = 0, hi_class = 0;
        uint32_t lo = 0, hi = 0;
        rset *s = &p->sets[si];
        if (c < 0)
            return fail(p, "unterminated character class");
        if (c == ']') {
            p->i++;
            break;
        }
        /* one class atom */
        if (c == '\\') {
            int e = peek(p, 1);
            p->i++;
            if (e == 'd' || e == 'D' || e == 'w' || e == 'W' || e == 's' || e == 'S') {
                p->i++;
                if (e == 'S')
                    p->differs |= SD_RE_DIFF_CLASS_S;
                if (class_escape(s, (uint32_t)e) < 0)
                    return p->oom = 1, fail(p, "out of memory");
                lo_class = 1;
            } else if (e == 'p' || e == 'P') {
                p->i++;
                if (property(p) < 0)
                    return -1;
                p->sets[si].univ = 1;
                lo_class = 1;
            } else if (char_escape(p, &lo, 1) < 0) {
                return -1;
            }
        } else {
            lo = (uint32_t)c;
            p->i++;
        }
        if (peek(p, 0) == '-' && peek(p, 1) != ']' && peek(p, 1) >= 0) {
            p->i++;
            c = peek(p, 0);
            if (c == '\\') {
                int e = peek(p, 1);
                p->i++;
                if (e == 'd' || e == 'D' || e == 'w' || e == 'W' || e == 's' || e == 'S' || e == 'p' || e == 'P') {
                    hi_class = 1;
                } else if (char_escape(p, &hi, 1) < 0) {
                    return -1;
                }
            } else {
                hi = (uint32_t)c;
                p->i++;
            }
            if (lo_class || hi_class)
                return fail(p, "invalid character class range");
            if (lo > hi)
                return fail(p, "range out of order in character class");
            if (set_add(&p->sets[si], lo, hi) < 0)
                return p->oom = 1, fail(p, "out of memory");
            continue;
        }
        if (!lo_class && set_add(&p->sets[si], lo, lo) < 0)
            return p->oom = 1, fail(p, "out of memory");
    }
    if (neg && !p->sets[si].univ && set_negate(&p->sets[si]) < 0)
        return p->oom = 1, fail(p, "out of memory");
    set_norm(&p->sets[si]);
    return n;
}

static int group_name(rp *p, size_t *start, size_t *len)
{
    /* p->i is after '<' */
    size_t s0 = p->i;
    int first = 1;
    for (;;) {
        int c = peek(p, 0);
        uint32_t cp;
        if (c == '>')
            break;
        if (c < 0)
            return fail(p, "invalid capture group name");
        if (c == '\\') {
            if (peek(p, 1) != 'u')
                return fail(p, "invalid capture group name");
            p->i += 2;
            if (unicode_escape(p, &cp) < 0)
                return -1;
        } else {
            cp = (uint32_t)c;
            p->i++;
        }
        if (!id_char(cp, first))
            return fail(p, "invalid capture group name");
        first = 0;
    }
    if (first)
        return fail(p, "invalid capture group name");
    *start = s0;
    *len = p->i - s0;
    p->i++;
    return 0;
}

static int same_name(const rp *p, size_t a, size_t an, size_t b, size_t bn)
{
    return an == bn && !memcmp(p->s + a, p->s + b, an * sizeof *p->s);
}

/* Count capturing groups and collect their names before parsing (a
 * back-reference may come before its group). */
static int prescan(rp *p)
{
    int in_class = 0;
    for (size_t i = 0; i < p->n; i++) {
        uint32_t c = p->s[i];
        if (c == '\\') {
            i++;
        } else if (in_class) {
            if (c == ']')
                in_class = 0;
        } else if (c == '[') {
            in_class = 1;
        } else if (c == '(') {
            if (i + 1 < p->n && p->s[i + 1] == '?') {
                if (i + 2 < p->n && p->s[i + 2] == '<' && i + 3 < p->n && p->s[i + 3] != '=' && p->s[i + 3] != '!') {
                    size_t start = i + 3, k = start;
                    while (k < p->n && p->s[k] != '>')
                        k++;
                    size_t (*nm)[2] = realloc(p->names, (p->nnames + 1) * sizeof *nm);
                    if (!nm)
                        return p->oom = 1, fail(p, "out of memory");
                    p->names = nm;
                    p->names[p->nnames][0] = start;
                    p->names[p->nnames][1] = k - start;
                    p->nnames++;
                    p->ngroups++;
                }
            } else {
                p->ngroups++;
            }
        }
    }
    return 0;
}

static int disjunction(rp *p);

static int quantifier(rp *p, int atom, int quantifiable)
{
    int c = peek(p, 0), min, max;
    if (c == '*') { min = 0; max = -1; p->i++; }
    else if (c == '+') { min = 1; max = -1; p->i++; }
    else if (c == '?') { min = 0; max = 1; p->i++; }
    else if (c == '{') {
        size_t save = p->i;
        long a = 0, b = -1;
        int digits = 0;
        p->i++;
        while (is_digit(peek(p, 0))) {
            if (a < 100000000) a = a * 10 + (peek(p, 0) - '0');
            p->i++;
            digits++;
        }
        if (!digits) {
            p->i = save;
            return fail(p, "incomplete quantifier");
        }
        if (peek(p, 0) == ',') {
            p->i++;
            if (is_digit(peek(p, 0))) {
                b = 0;
                while (is_digit(peek(p, 0))) {
                    if (b < 100000000) b = b * 10 + (peek(p, 0) - '0');
                    p->i++;
                }
            }
        } else {
            b = a;
        }
        if (peek(p, 0) != '}') {
            p->i = save;
            return fail(p, "incomplete quantifier");
        }
        p->i++;
        if (b >= 0 && a > b)
            return fail(p, "numbers out of order in {} quantifier");
        min = (int)a;
        max = (int)b;
    } else {
        return atom;
    }
    if (!quantifiable)
        return fail(p, "nothing to repeat");
    if (peek(p, 0) == '?')
        p->i++;
    int r = node(p, R_REPEAT);
    if (r < 0)
        return -1;
    p->nodes[r].min = min;
    p->nodes[r].max = max;
    p->nodes[r].kid = atom;
    p->nodes[atom].parent = r;
    c = peek(p, 0);
    if (c == '*' || c == '+' || c == '?' || c == '{')
        return fail(p, "nothing to repeat");
    return r;
}

/* One term: an assertion or an atom with its quantifier. Returns the node.
 * (One switch over the term's first character, one case per production of
 * ECMA-262's Term and Atom: splitting it would scatter the grammar.) */
static int term(rp *p)
{
    int c = peek(p, 0), n;
    switch (c) {
    case '^': case '$':
        p->i++;
        if ((n = node(p, R_ASSERT)) < 0)
            return -1;
        p->nodes[n].group = c;
        return quantifier(p, n, 0);
    case '(': {
        int kind = R_GROUP, behind = 0, num = 0;
        p->i++;
        if (peek(p, 0) == '?') {
            int d = peek(p, 1);
            if (d == ':') { kind = R_CAT; p->i += 2; }
            else if (d == '=' || d == '!') { kind = R_LOOK; p->i += 2; }
            else if (d == '<' && (peek(p, 2) == '=' || peek(p, 2) == '!')) { kind = R_LOOK; behind = 1; p->i += 3; }
            else if (d == '<') {
                size_t st, len;
                p->i += 2;
                if (group_name(p, &st, &len) < 0)
                    return -1;
                /* a second group of the same name */
                int seen = 0;
                for (size_t k = 0; k < p->nnames; k++)
                    if (same_name(p, st, len, p->names[k][0], p->names[k][1]) && ++seen > 1)
                        return fail(p, "duplicate capture group name");
                num = ++p->opened;
            } else {
                return fail(p, "invalid group");
            }
        } else {
            num = ++p->opened;
        }
        if (++p->depth > MAX_DEPTH)
            return fail(p, "groups nested too deeply to analyse");
        int body = disjunction(p);
        p->depth--;
        if (body < 0)
            return -1;
        if (peek(p, 0) != ')')
            return fail(p, "unterminated group");
        p->i++;
        if ((n = node(p, kind == R_CAT ? R_GROUP : kind)) < 0)
            return -1;
        p->nodes[n].kid = body;
        p->nodes[body].parent = n;
        p->nodes[n].group = num;
        p->nodes[n].order = (int)p->nn;
        (void)behind;
        return quantifier(p, n, kind != R_LOOK);
    }
    case '.': {
        int s;
        p->i++;
        if ((n = node(p, R_SET)) < 0 || (s = new_set(p)) < 0)
            return -1;
        p->nodes[n].set = s;
        if (set_add(&p->sets[s], '\n', '\n') < 0 || set_add(&p->sets[s], '\r', '\r') < 0 ||
            set_add(&p->sets[s], 0x2028, 0x2029) < 0 || set_negate(&p->sets[s]) < 0)
            return p->oom = 1, fail(p, "out of memory");
        return quantifier(p, n, 1);
    }
    case '[':
        p->i++;
        if ((n = char_class(p)) < 0)
            return -1;
        return quantifier(p, n, 1);
    case '\\': {
        int e = peek(p, 1);
        uint32_t cp;
        if (e < 0) {
            p->i++;
            return fail(p, "\\ at end of pattern");
        }
        if (e == 'b' || e == 'B') {
            p->i += 2;
            if ((n = node(p, R_ASSERT)) < 0)
                return -1;
            p->nodes[n].group = e;
            return quantifier(p, n, 0);
        }
        if (e == 'd' || e == 'D' || e == 'w' || e == 'W' || e == 's' || e == 'S' || e == 'p' || e == 'P') {
            int s;
            p->i += 2;
            if ((n = node(p, R_SET)) < 0 || (s = new_set(p)) < 0)
                return -1;
            p->nodes[n].set = s;
            if (e == 'p' || e == 'P') {
                if (property(p) < 0)
                    return -1;
                p->sets[s].univ = 1;
            } else if (class_escape(&p->sets[s], (uint32_t)e) < 0) {
                return p->oom = 1, fail(p, "out of memory");
            }
            set_norm(&p->sets[s]);
            return quantifier(p, n, 1);
        }
        if (e >= '1' && e <= '9') {
            long num = 0;
            p->i++;
            while (is_digit(peek(p, 0))) {
                if (num < 1000000) num = num * 10 + (peek(p, 0) - '0');
                p->i++;
            }
            if (num > p->ngroups)
                return fail(p, "invalid escape (a back-reference to a group that does not exist)");
            if ((n = node(p, R_BACKREF)) < 0)
                return -1;
            p->nodes[n].group = (int)num;
            p->nodes[n].order = (int)p->nn;
            return quantifier(p, n, 1);
        }
        if (e == 'k') {
            size_t st, len;
            int found = 0;
            p->i += 2;
            if (peek(p, 0) != '<')
                return fail(p, "invalid named reference");
            p->i++;
            if (group_name(p, &st, &len) < 0)
                return fail(p, "invalid named reference");
            for (size_t k = 0; k < p->nnames && !found; k++)
                if (same_name(p, st, len, p->names[k][0], p->names[k][1]))
                    found = 1;
            if (!found)
                return fail(p, "invalid named capture referenced");
            if ((n = node(p, R_BACKREF)) < 0)
                return -1;
            p->nodes[n].group = 0;
            p->nodes[n].order = (int)p->nn;
            return quantifier(p, n, 1);
        }
        p->i++;
        if (char_escape(p, &cp, 0) < 0)
            return -1;
        if ((n = set_of_char(p, cp)) < 0)
            return -1;
        return quantifier(p, n, 1);
    }
    case '*': case '+': case '?':
        return fail(p, "nothing to repeat");
    case '{': case '}': case ']':
        return fail(p, "nothing to repeat, or a lone quantifier bracket");
    default:
        p->i++;
        if ((n = set_of_char(p, (uint32_t)c)) < 0)
            return -1;
        return quantifier(p, n, 1);
    }
}

static int alternative(rp *p)
{
    int cat = node(p, R_CAT);
    if (cat < 0)
        return -1;
    while (p->i < p->n && peek(p, 0) != '|' && peek(p, 0) != ')') {
        int t = term(p);
        if (t < 0)
            return -1;
        append(p, cat, t);
    }
    return cat;
}

static int disjunction(rp *p)
{
    int alt = node(p, R_ALT), a;
    if (alt < 0)
        return -1;
    if ((a = alternative(p)) < 0)
        return -1;
    append(p, alt, a);
    while (peek(p, 0) == '|') {
        p->i++;
        if ((a = alternative(p)) < 0)
            return -1;
        append(p, alt, a);
    }
    return alt;
}

/* ---- back-references PCRE2 reads differently --------------------------------------- */

/* 1 when group `g` may not have matched when back-reference `b` runs:
 * it closes after `b`, or sits in an optional part (a quantifier that
 * allows zero, an alternation) that does not also hold `b`. */
static int maybe_unset(const rp *p, int g, int b)
{
    const rnode *nd = p->nodes;
    if (nd[g].order > nd[b].order)
        return 1;
    for (int a = nd[g].parent; a >= 0; a = nd[a].parent) {
        int holds_b = 0;
        for (int x = b; x >= 0 && !holds_b; x = nd[x].parent)
            holds_b = x == a;
        if (holds_b)   /* an alternation holding both has them in different branches */
            return nd[a].type == R_ALT && nd[a].kid >= 0 && nd[nd[a].kid].next >= 0;
        if (nd[a].type == R_REPEAT && nd[a].min == 0)
            return 1;
        if (nd[a].type == R_ALT && nd[a].kid >= 0 && nd[nd[a].kid].next >= 0)
            return 1;
    }
    return 0;
}

static void check_backrefs(rp *p)
{
    for (size_t b = 0; b < p->nn; b++) {
        if (p->nodes[b].type != R_BACKREF)
            continue;
        if (p->nodes[b].group == 0) {       /* \k<name>: be careful */
            p->differs |= SD_RE_DIFF_BACKREF;
            continue;
        }
        for (size_t g = 0; g < p->nn; g++)
            if (p->nodes[g].type == R_GROUP && p->nodes[g].group == p->nodes[b].group &&
                maybe_unset(p, (int)g, (int)b))
                p->differs |= SD_RE_DIFF_BACKREF;
    }
}

/* Every alternative of the pattern starts with ^. */
static int anchored(const rp *p, int root)
{
    for (int c = p->nodes[root].kid; c >= 0; c = p->nodes[c].next) {
        int t = p->nodes[c].kid;
        if (t < 0 || p->nodes[t].type != R_ASSERT || p->nodes[t].group != '^')
            return 0;
    }
    return 1;
}

int sd_ecma__parse(rp *p, const char *src, size_t len)
{
    uint32_t *cps;
    size_t n = 0;
    int root = -1;

    memset(p, 0, sizeof *p);
    /* UTF-8 -> code points (the loaders checked the encoding) */
    if (!(cps = malloc((len + 1) * sizeof *cps))) {
        p->err = "out of memory";
        p->oom = 1;
        return -1;
    }
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)src[i];
        size_t k = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        uint32_t cp = k == 1 ? c : k == 2 ? c & 0x1Fu : k == 3 ? c & 0x0Fu : c & 0x07u;
        if (i + k > len)
            k = len - i;
        for (size_t j = 1; j < k; j++)
            cp = cp << 6 | ((unsigned char)src[i + j] & 0x3Fu);
        cps[n++] = cp;
        i += k;
    }
    p->s = cps;
    p->n = n;
    if (prescan(p) == 0 && (root = disjunction(p)) >= 0) {
        if (p->i < p->n)
            fail(p, p->s[p->i] == ')' ? "unmatched ')'" : "unexpected character");
    }
    return p->err ? -1 : root;
}

void sd_ecma__release(rp *p)
{
    for (size_t i = 0; i < p->ns; i++)
        free(p->sets[i].r);
    free(p->sets);
    free(p->nodes);
    free(p->names);
    free((uint32_t *)p->s);
    memset(p, 0, sizeof *p);
}

static int check(sd_ecma_re *out, const char *src, size_t len, int analyse)
{
    rp p;
    int root;

    memset(out, 0, sizeof *out);
    root = sd_ecma__parse(&p, src, len);
    if (p.err) {
        out->ok = 0;
        out->error = p.err;
        out->offset = p.erroff;
    } else if (!analyse) {
        out->ok = 1;
    } else {
        out->ok = 1;
        check_backrefs(&p);
        out->differs = p.differs;
        if (p.n > MAX_CP) {
            out->risk = SD_RE_POLY;
        } else {
            out->risk = sd_ecma__risk(&p, root, anchored(&p, root));
            /* each lookaround body on its own */
            for (size_t i = 0; i < p.nn && out->risk < SD_RE_EXP; i++)
                if (p.nodes[i].type == R_LOOK) {
                    int r = sd_ecma__risk(&p, p.nodes[i].kid, 1);
                    if (r > out->risk)
                        out->risk = r;
                }
        }
    }
    sd_ecma__release(&p);
    return out->ok;
}

int sd_ecma_re_check(sd_ecma_re *out, const char *src, size_t len)
{
    return check(out, src, len, 1);
}

int sd_ecma_re_valid(const char *src, size_t len)
{
    sd_ecma_re r;
    return check(&r, src, len, 0);
}
