/* SPDX-License-Identifier: Apache-2.0 */
/* md_to_html.c - Markdown to HTML with cmark-gfm for descriptions: GFM
 * extensions on, raw HTML off, link destinations filtered by scheme and
 * images reduced to their alt text (see md_to_html.h); and the descriptions
 * that cmark would leave as plain text, written without it. */
#include "md_to_html.h"
#include "render_int.h"
#include "sd.h"

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>

/* cmark-gfm/registry.h is not installed as a public header. */
void cmark_release_plugins(void);

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int registered;

static void ensure_registered(void)
{
    if (!registered) {
        cmark_gfm_core_extensions_ensure_registered();
        registered = 1;
    }
}

int sd_markdown_url_ok(const char *url)
{
    const char *s = url;

    if (!url)
        return 1;
    /* A scheme is ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":" (RFC 3986
     * §3.1); anything before the first '/', '?' or '#' with a ':' in it is
     * treated as one, so "java\tscript:" or " javascript:" fail too. */
    for (; *s && *s != '/' && *s != '?' && *s != '#'; s++) {
        if ((unsigned char)*s <= 0x20 || *s == 0x7f)
            return 0;
        if (*s == ':') {
            size_t n = (size_t)(s - url);
            return (n == 4 && strncasecmp(url, "http", 4) == 0) ||
                   (n == 5 && strncasecmp(url, "https", 5) == 0) ||
                   (n == 6 && strncasecmp(url, "mailto", 6) == 0);
        }
    }
    return 1;
}

/* Replace each image, and each link with a bad destination, by its
 * children (the alt or link text), and raw HTML by text. Nodes are collected first: the tree must not change
 * under the iterator. */
static int sanitize(cmark_node *doc)
{
    cmark_iter *it = cmark_iter_new(doc);
    cmark_node **pending = NULL, **grown;
    size_t n = 0, alloc = 0;
    cmark_event_type ev;
    int err = 0;

    if (!it)
        return SD_ENOMEM;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *node = cmark_iter_get_node(it);
        cmark_node_type t = cmark_node_get_type(node);
        if (ev != CMARK_EVENT_ENTER)
            continue;
        if (t == CMARK_NODE_IMAGE || (t == CMARK_NODE_LINK && !sd_markdown_url_ok(cmark_node_get_url(node))) || t == CMARK_NODE_HTML_INLINE || t == CMARK_NODE_HTML_BLOCK) {
            if (n == alloc) {
                alloc = alloc ? alloc * 2 : 8;
                if (!(grown = realloc(pending, alloc * sizeof *pending))) {
                    err = SD_ENOMEM;
                    break;
                }
                pending = grown;
            }
            pending[n++] = node;
        }
    }
    cmark_iter_free(it);
    /* Innermost images last in document order; unlinking children of an
     * outer image first keeps the inner ones valid nodes. */
    for (size_t i = 0; !err && i < n; i++) {
        cmark_node *node = pending[i], *c, *text, *wrap = NULL;
        switch (cmark_node_get_type(node)) {
        case CMARK_NODE_IMAGE:
        case CMARK_NODE_LINK:   /* a link with a bad destination: its text stays */
            while ((c = cmark_node_first_child(node)))
                cmark_node_insert_before(node, c);
            cmark_node_free(node);
            break;
        default:
            /* Raw HTML is shown as the text it is (escaped on output), not
             * dropped: Kubernetes writes `<fieldName>` in prose. A block
             * becomes a paragraph of that text. */
            if (!(text = cmark_node_new(CMARK_NODE_TEXT))) {
                err = SD_ENOMEM;
                break;
            }
            if (cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK) {
                const char *lit = cmark_node_get_literal(node);
                size_t n = lit ? strlen(lit) : 0;
                char *copy = malloc(n + 1);
                if (!copy) {
                    cmark_node_free(text);
                    err = SD_ENOMEM;
                    break;
                }
                while (n && (lit[n - 1] == '\n' || lit[n - 1] == '\r'))
                    n--;
                memcpy(copy, lit ? lit : "", n);
                copy[n] = '\0';
                cmark_node_set_literal(text, copy);
                free(copy);
            } else {
                cmark_node_set_literal(text, cmark_node_get_literal(node));
            }
            if (cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK) {
                if (!(wrap = cmark_node_new(CMARK_NODE_PARAGRAPH))) {
                    cmark_node_free(text);
                    err = SD_ENOMEM;
                    break;
                }
                cmark_node_append_child(wrap, text);
                cmark_node_replace(node, wrap);
            } else {
                cmark_node_replace(node, text);
            }
            cmark_node_free(node);
        }
    }
    free(pending);
    return err;
}

int sd_markdown_to_html(sd_buf *out, const char *md, size_t len)
{
    static const char *const exts[] = { "table", "autolink", "strikethrough", NULL };
    cmark_parser *p;
    cmark_node *doc;
    char *html;
    int err = 0;

    ensure_registered();
    if (!(p = cmark_parser_new(CMARK_OPT_DEFAULT)))
        return SD_ENOMEM;
    for (const char *const *e = exts; *e; e++) {
        cmark_syntax_extension *x = cmark_find_syntax_extension(*e);
        if (x)
            cmark_parser_attach_syntax_extension(p, x);
    }
    cmark_parser_feed(p, md, len);
    if (!(doc = cmark_parser_finish(p))) {
        cmark_parser_free(p);
        return SD_ENOMEM;
    }
    if ((err = sanitize(doc)) == 0) {
        html = cmark_render_html(doc, CMARK_OPT_DEFAULT, cmark_parser_get_syntax_extensions(p));
        if (html) {
            sd_buf_puts(out, html);
            free(html);
        } else {
            err = SD_ENOMEM;
        }
    }
    cmark_node_free(doc);
    cmark_parser_free(p);
    return err;
}

/* --- descriptions: one line of plain text without cmark ---------------------- */

/* Bytes of one-line text that cmark may read as more than text: 1 always,
 * 2 in some company, 3 a code span's backtick (sd_render__plain_text()). */
static const unsigned char md_byte[256] = {
    [0x01] = 1, [0x02] = 1, [0x03] = 1, [0x04] = 1, [0x05] = 1, [0x06] = 1, [0x07] = 1,
    [0x08] = 1, [0x09] = 1, [0x0a] = 1, [0x0b] = 1, [0x0c] = 1, [0x0d] = 1, [0x0e] = 1,
    [0x0f] = 1, [0x10] = 1, [0x11] = 1, [0x12] = 1, [0x13] = 1, [0x14] = 1, [0x15] = 1,
    [0x16] = 1, [0x17] = 1, [0x18] = 1, [0x19] = 1, [0x1a] = 1, [0x1b] = 1, [0x1c] = 1,
    [0x1d] = 1, [0x1e] = 1, [0x1f] = 1, [0x7f] = 1, [0] = 1,
    ['\\'] = 1, ['*'] = 1, ['_'] = 1, ['<'] = 1, ['>'] = 1, ['&'] = 1, ['#'] = 1,
    ['|'] = 1, ['!'] = 1, ['~'] = 1, ['@'] = 1, ['='] = 1,
    [']'] = 2, [':'] = 2, ['w'] = 2, ['W'] = 2, ['`'] = 3,
};

/* Plain one-line text renders as <p>escaped</p> without cmark: the common
 * case on large schemas (Kubernetes), and byte-identical to cmark's output
 * (test_render compares the two on generated lines). Brackets are text
 * unless "](" makes an inline link (one line starting with a letter holds
 * no link definition, so "[HPA]" stays as written); a colon is text unless
 * "://" makes an autolink, as "www." does. A pair of single backticks around
 * text that neither starts nor ends with a space is a code span, whose
 * bytes are all text (but '<', which may open an HTML tag, and '\\'). */
int sd_render__plain_text(const char *s, size_t n)
{
    int code = 0;
    if (!n || !isalpha((unsigned char)s[0]) || s[n - 1] == ' ')
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (!md_byte[ch])
            continue;
        if (ch == '`') {
            if ((i + 1 < n && s[i + 1] == '`') || s[i - 1] == '`')
                return 0;   /* a longer run of backticks */
            if (code ? s[i - 1] == ' ' : i + 1 == n || s[i + 1] == ' ')
                return 0;   /* cmark would strip the space, or no content */
            code = !code;
            continue;
        }
        if (ch < 0x20 || ch == 0x7f || ch == '<' || ch == '\\')
            return 0;
        if (ch == ':' ? i + 2 < n && s[i + 1] == '/' && s[i + 2] == '/'
            : (ch == 'w' || ch == 'W') && i + 3 < n && strncasecmp(s + i, "www.", 4) == 0)
            return 0;   /* an autolink, even in a code span */
        if (code)
            continue;
        if (md_byte[ch] == 1 || (ch == ']' && i + 1 < n && s[i + 1] == '('))
            return 0;
    }
    return !code;   /* an unclosed backtick is cmark's to read */
}

void sd_render__description_html(sd_buf *b, const char *s, size_t n)
{
    if (sd_render__plain_text(s, n)) {
        int code = 0;
        sd_buf_puts(b, "<p>");
        for (size_t i = 0; i < n; i++) {
            switch (s[i]) {
            case '"': sd_buf_puts(b, "&quot;"); break;
            case '&': sd_buf_puts(b, "&amp;"); break;   /* in a code span only */
            case '>': sd_buf_puts(b, "&gt;"); break;    /* in a code span only */
            case '`': sd_buf_puts(b, code ? "</code>" : "<code>"); code = !code; break;
            default: sd_buf_putc(b, s[i]);
            }
        }
        sd_buf_puts(b, "</p>\n");
        return;
    }
    if (sd_markdown_to_html(b, s, n) < 0)
        b->failed = SD_ENOMEM;
}
