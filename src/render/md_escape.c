/* SPDX-License-Identifier: Apache-2.0 */
/* md_escape.c - chart text made inert in Markdown: table cells, plain text,
 * key paths, code spans, and descriptions defanged so that no line of a
 * chart's text starts an HTML block and nothing live (script-like tags,
 * event handlers, script URLs) survives (docs/themes.md). In: a chart's
 * strings. Out: Markdown appended to an sd_buf. */
#include "render_int.h"
#include "sd.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* --- Markdown cells ----------------------------------------------------------- */

/* Table cell text: pipes escaped, line breaks as <br>, so a cell never
 * breaks the table. */
void sd_render__md_cell(sd_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '|')
            sd_buf_puts(b, "\\|");
        else if (s[i] == '\r')
            ;
        else if (s[i] == '\n')
            sd_buf_puts(b, "<br>");
        else
            sd_buf_putc(b, s[i]);
    }
}

/* --- Markdown from the chart, defanged ---------------------------------------- */

static int ieq_prefix(const char *s, size_t n, const char *word)
{
    size_t k = strlen(word);
    if (n < k)
        return 0;
    for (size_t i = 0; i < k; i++)
        if ((s[i] | 0x20) != word[i])
            return 0;
    return 1;
}

/* A URL (up to `n` bytes) that a browser would run or embed: its scheme,
 * read as the browser does (controls and white space dropped), is
 * javascript:, vbscript: or data:, or it hides the scheme in an entity. */
static int bad_url(const char *s, size_t n)
{
    char u[16];
    size_t k = 0;
    for (size_t i = 0; i < n && k < sizeof u - 1; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c <= ' ' || c == '<' || (!k && (c == '"' || c == '\'')))
            continue;
        if (c == '&' || c == '%' || c == '\\')
            return 1;   /* an entity, escape or percent code before the scheme ends */
        if (c == ':' || c == ')' || c == '>' || c == '"' || c == '\'')
            break;
        u[k++] = (char)(c | 0x20);
    }
    u[k] = '\0';
    return !strcmp(u, "javascript") || !strcmp(u, "vbscript") || !strcmp(u, "data");
}

/* Raw HTML tags that are live whatever their attributes (GitHub's tagfilter
 * and then some). */
static int bad_tag(const char *name, size_t n)
{
    static const char *const tags[] = { "script", "style", "iframe", "frame", "frameset", "object",
        "embed", "applet", "svg", "math", "base", "meta", "link", "form", "input", "button",
        "textarea", "select", "noscript", "noembed", "noframes", "template", "xmp", "plaintext",
        "title", "img", "video", "audio", "source", "picture", "portal", NULL };
    for (size_t i = 0; tags[i]; i++)
        if (strlen(tags[i]) == n && ieq_prefix(name, n, tags[i]))
            return 1;
    return 0;
}

/* Whether s[i] (a '<') opens a tag, a comment, a declaration or a
 * processing instruction: what may start a CommonMark HTML block (spec
 * 4.6, kinds 1-7) or be a raw tag (6.6), whatever the tag's name. */
static int opens_markup(const char *s, size_t n, size_t i)
{
    if (i + 1 >= n)
        return 0;
    unsigned char c = (unsigned char)s[i + 1];
    if (c == '/' && i + 2 < n)
        c = (unsigned char)s[i + 2];
    else if (c == '!' || c == '?')
        return 1;
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The length of the container marks (block quote '>', list markers '-',
 * '*', '+', "1." and "1)" each followed by a blank, and the blanks) at
 * s[i], the start of a line: what comes after them starts a block too. */
static size_t line_marks(const char *s, size_t n, size_t i)
{
    size_t j = i;
    for (;;) {
        while (j < n && (s[j] == ' ' || s[j] == '\t'))
            j++;
        if (j < n && s[j] == '>') {
            j++;
            continue;
        }
        if (j + 1 < n && (s[j] == '-' || s[j] == '*' || s[j] == '+') && (s[j + 1] == ' ' || s[j + 1] == '\t')) {
            j += 2;
            continue;
        }
        size_t d = j;
        while (d < n && d - j < 9 && s[d] >= '0' && s[d] <= '9')
            d++;
        if (d > j && d + 1 < n && (s[d] == '.' || s[d] == ')') && (s[d + 1] == ' ' || s[d + 1] == '\t')) {
            j = d + 2;
            continue;
        }
        return j - i;
    }
}

/* A fence of the chart's text (CommonMark 4.5) at s[i], a line's start:
 * its length (its character in *c), or 0. An opening fence is taken only
 * where every reader takes it (0-3 spaces, no tab, no backtick in the info
 * of a backtick fence), a closing one wherever one may be (`close`: any
 * blanks, the rest of the line not read): a line taken for code here is
 * code there too. */
static size_t fence_at(const char *s, size_t n, size_t i, int close, char *c)
{
    size_t j = i, k;
    while (j < n && (s[j] == ' ' || (close && s[j] == '\t')) && (close || j - i < 3))
        j++;
    if (j >= n || (s[j] != '`' && s[j] != '~') || (!close && j < n && s[j] == '\t'))
        return 0;
    for (k = j; k < n && s[k] == s[j]; k++)
        ;
    if (k - j < 3)
        return 0;
    if (!close && s[j] == '`')
        for (size_t e = k; e < n && s[e] != '\n'; e++)
            if (s[e] == '`')
                return 0;
    *c = s[j];
    return k - j;
}

/* The open tags of the chart's text left live (`<b>` in a sentence), by
 * name, so that a closing tag is left live only when it closes one of
 * them: the close of a tag escaped as text (`\<div>...</div>` at a line's
 * start) is text too, and the line reads as written on every reader,
 * GitHub's sanitised page included. */
typedef struct live_tag {
    const char *name;
    size_t      len;
    unsigned    count;
} live_tag;

typedef struct live_tags {
    live_tag v[16];
    size_t   n;
} live_tags;

static void live_open(live_tags *t, const char *name, size_t len)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->v[i].len == len && !strncasecmp(name, t->v[i].name, len)) {
            t->v[i].count++;
            return;
        }
    if (t->n < sizeof t->v / sizeof *t->v)
        t->v[t->n++] = (live_tag){ name, len, 1 };
}

/* Whether a closing tag `name` closes a live open tag (which it uses up). */
static int live_close(live_tags *t, const char *name, size_t len)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->v[i].len == len && !strncasecmp(name, t->v[i].name, len) && t->v[i].count) {
            t->v[i].count--;
            return 1;
        }
    return 0;
}

/* `fences`: the text keeps its lines (not a table cell, where every line
 * is inline and no fence is code) */
static void defang(sd_buf *b, const char *s, size_t n, int fences)
{
    size_t bol = 0;   /* where markup at the start of the current line would be */
    size_t fence = 0; /* the length of the chart's open code fence, or 0 */
    char fc = 0;
    live_tags tags = { .n = 0 };
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || s[i - 1] == '\n') {
            /* a line inside a code fence of the chart's is code (the first
             * line is not taken for a fence: it may follow other text) */
            char c = 0;
            size_t f = i > 0 && fences ? fence_at(s, n, i, fence > 0, &c) : 0;
            int code = fence > 0 || f > 0;
            if (fence && f >= fence && c == fc)
                fence = 0;
            else if (!fence && f) {
                fence = f;
                fc = c;
            }
            bol = (size_t)-1;
            if (!code) {
                /* no line of the chart's text starts an HTML block (inside
                 * one, backslash escapes are literal and every tag is live):
                 * a '<' that opens a tag there is escaped, whatever the tag */
                size_t k = line_marks(s, n, i);
                sd_buf_put(b, s + i, k);
                i += k;
                bol = i;
                if (i >= n)
                    break;
                /* where the chart's fences are not code (the text is read
                 * as one inline run), a fence at a line's start is text:
                 * where the lines are kept, it would make code of the
                 * escaped lines after it */
                char c2;
                if (!fences && fence_at(s, n, i, 0, &c2))
                    sd_buf_putc(b, '\\');
            }
        }
        if (s[i] == '<' && i == bol && opens_markup(s, n, i)) {
            sd_buf_puts(b, "\\<");
            continue;
        }
        if (s[i] == '`') {   /* a code span is inert: copied as it is */
            size_t run = 0, j;
            while (i + run < n && s[i + run] == '`')
                run++;
            for (j = i + run; j < n; j++) {
                size_t r = 0;
                if (s[j] == '\n') {   /* kept to its line: blocks are read before code spans */
                    j = n;
                    break;
                }
                while (j + r < n && s[j + r] == '`')
                    r++;
                if (r == run)
                    break;
                j += r;
            }
            if (j >= n && !fences) {
                /* no closing run on its line: in a table cell the lines are
                 * joined, and a run left as it is would pair with one of a
                 * later line and make code of what lies between (where the
                 * escapes read as backslashes): escaped, it is text */
                for (size_t r = 0; r < run; r++)
                    sd_buf_puts(b, "\\`");
                i += run - 1;
                continue;
            }
            size_t stop = j < n ? j + run : i + run;
            sd_buf_put(b, s + i, stop - i);
            i = stop - 1;
            continue;
        }
        if (s[i] == '<') {
            size_t j = i + 1, name, end;
            if (j < n && s[j] == '/')
                j++;
            name = j;
            while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '-' || s[j] == '+' || s[j] == '.'))
                j++;
            end = j;
            while (end < n && s[end] != '>' && s[end] != '<')
                end++;
            int live = i + 1 < n && (s[i + 1] == '!' || s[i + 1] == '?');   /* <!-- <![CDATA[ <? */
            int closing = i + 1 < n && s[i + 1] == '/';
            if (live)
                ;
            else if (closing && j > name)                   /* </x>: text unless it closes a live <x> */
                live = !live_close(&tags, s + name, j - name);
            else if (j > name && j < n && s[j] == ':')          /* an autolink <scheme:...> */
                live = bad_url(s + name, end - name);
            else if (j > name && bad_tag(s + name, j - name))
                live = 1;
            else if (j > name)                              /* attributes: handlers, URLs */
                for (size_t k = j; k < end && !live; k++) {
                    if ((s[k] | 0x20) == 'o' && k + 1 < end && (s[k + 1] | 0x20) == 'n' &&
                        (s[k - 1] == ' ' || s[k - 1] == '\t' || s[k - 1] == '\n' || s[k - 1] == '/' ||
                         s[k - 1] == '"' || s[k - 1] == '\'')) {
                        size_t a = k + 2;
                        while (a < end && isalpha((unsigned char)s[a]))
                            a++;
                        while (a < end && (s[a] == ' ' || s[a] == '\t'))
                            a++;
                        live = a > k + 2 && a < end && s[a] == '=';
                    }
                    if (s[k] == '=' )
                        live = bad_url(s + k + 1, end - k - 1);
                }
            if (live) {
                sd_buf_puts(b, "\\<");
                continue;
            }
            if (!closing && j > name)
                live_open(&tags, s + name, j - name);
        } else if (s[i] == '!' && i + 1 < n && s[i + 1] == '[') {
            sd_buf_puts(b, "\\!");   /* an image loads from anywhere: a link instead */
            continue;
        } else if (s[i] == ']' && i + 1 < n && (s[i + 1] == '(' || s[i + 1] == ':')) {
            size_t j = i + 2;
            while (j < n && (s[j] == ' ' || s[j] == '\t'))
                j++;
            if (bad_url(s + j, n - j)) {   /* [x](javascript:...) and [x]: javascript:... */
                sd_buf_puts(b, "]\\");
                continue;
            }
        }
        sd_buf_putc(b, s[i]);
    }
}

void sd_render__md_defang(sd_buf *b, const char *s, size_t n)
{
    defang(b, s, n, 1);
}

void sd_render__md_defang_cell(sd_buf *b, const char *s, size_t n)
{
    defang(b, s, n, 0);
}

/* Plain text (not Markdown) in Markdown: punctuation that could start
 * markup or raw HTML is backslash-escaped (CommonMark §2.4), and the cell
 * rules apply. */
void sd_render__md_text(sd_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (strchr("\\`*_[]<>&!#", s[i]) && s[i])
            sd_buf_putc(b, '\\');
        sd_render__md_cell(b, s + i, 1);
    }
}

/* A key path cell: as helm-docs writes it, but '<' and '>' escaped so a key
 * can never open raw HTML. */
void sd_render__md_key(sd_buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '<' || *s == '>')
            sd_buf_putc(b, '\\');
        sd_render__md_cell(b, s, 1);
    }
}

