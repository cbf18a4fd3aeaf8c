/* The reader's compiled lane: cut the clean games out of a text and read their tags.
 *
 * A clean game is the narrow case the Python reader reads the same way every time: whole tag
 * lines `[Name "value"]` at the start of their line (a PDN identifier, a value without quotes,
 * backslashes or character references), blank lines, then movetext of move numbers, plain moves,
 * comments (without braces, brackets, quotes or backslashes inside) and NAGs after a move,
 * ending with a standard result alone on the rest of its line, and followed by blank lines and
 * a whole tag line (the next game) or the end of the input. For such a game the Python splitter
 * (pdnkit.pdn.split) cuts the same text, and the fast lane (pdnkit.pdn.fast.fast_record) reads
 * it with these tags and without a finding; anything else -- a junk line, a variation, a
 * strength mark, an escape line, a setup, a tag pair in another form -- is left to the Python
 * reader (SCAN_UNUSUAL). tests/pdn holds the lane to the Python reader on every real file and
 * the dialect matrix.
 */
#include <stdlib.h>
#include <string.h>

#include "scan.h"

static inline uint32_t ch(const Text *s, long i) {
    if ((unsigned long)i >= (unsigned long)s->len) /* (i < 0 too: one comparison) */
        return 0;
    switch (s->kind) {
    case 1:
        return ((const uint8_t *)s->data)[i];
    case 2:
        return ((const uint16_t *)s->data)[i];
    default:
        return ((const uint32_t *)s->data)[i];
    }
}

static int digit(uint32_t c) { return c >= '0' && c <= '9'; }
static int upper(uint32_t c) { return c >= 'A' && c <= 'Z'; }
static int lower(uint32_t c) { return c >= 'a' && c <= 'z'; }
static int blank(uint32_t c) { return c == ' ' || c == '\t'; }

void scan_free(ScanGame *g) {
    free(g->lines);
    g->lines = NULL;
    g->cap = 0;
}

static int add_line(ScanGame *g, long line) {
    if (g->nmoves == g->cap) {
        long cap = g->cap ? 2 * g->cap : 128;
        int32_t *p = realloc(g->lines, (size_t)cap * sizeof *p);
        if (!p) {
            g->err = 1;
            return -1;
        }
        g->lines = p;
        g->cap = cap;
    }
    g->lines[g->nmoves++] = line > INT32_MAX ? INT32_MAX : (int32_t)line;
    return 0;
}

/* The end of the blank run from i (spaces and tabs). */
static long skip_blank(const Text *s, long i) {
    while (i < s->len && blank(ch(s, i)))
        i++;
    return i;
}

/* A tag line of the clean form at the line start i: its end (after the '\n' or at the end of
 * the text) and the name and value spans; -1 when it is not one, -2 when the text ends in
 * the middle of it. */
static long clean_tag(const Text *s, long i, long span[4]) {
    if (ch(s, i) != '[')
        return -1;
    long j = i + 1;
    if (!upper(ch(s, j)))
        return j >= s->len ? -2 : -1;
    span[0] = j;
    while (j < s->len && (upper(ch(s, j)) || lower(ch(s, j)) || digit(ch(s, j)) || ch(s, j) == '_'))
        j++;
    span[1] = j;
    long k = skip_blank(s, j);
    if (ch(s, k) != '"') /* [Event"x"]: no space needed before the value */
        return k >= s->len ? -2 : -1;
    span[2] = ++k;
    for (;; k++) {
        if (k >= s->len)
            return -2;
        uint32_t c = ch(s, k);
        if (c == '"')
            break;
        if (c == '\\' || c == '\n' || c == '&' || c == '\r')
            return -1;
    }
    span[3] = k;
    k = skip_blank(s, k + 1);
    if (ch(s, k) != ']')
        return k >= s->len ? -2 : -1;
    k = skip_blank(s, k + 1);
    if (k >= s->len)
        return k;
    return ch(s, k) == '\n' ? k + 1 : -1;
}

/* Is the line at i a whole tag pair the Python splitter reads as one (its _TAG_LINE) and that
 * no rule attaches to the game before (a [FILENAME] line, escape text)? 1 yes, 0 no, -1 the
 * text ends first. */
static int next_game_line(const Text *s, long i) {
    long j = skip_blank(s, i);
    if (ch(s, j) != '[')
        return j >= s->len ? -1 : 0;
    j = skip_blank(s, j + 1);
    uint32_t c = ch(s, j);
    if (!(upper(c) || lower(c) || c == '_'))
        return j >= s->len ? -1 : 0;
    long n0 = j;
    while (j < s->len && (upper(ch(s, j)) || lower(ch(s, j)) || digit(ch(s, j)) ||
                          ch(s, j) == '_' || ch(s, j) == '-'))
        j++;
    static const char filename[] = "filename";
    if (j - n0 == 8) {
        int same = 1;
        for (int k = 0; k < 8; k++)
            if ((ch(s, n0 + k) | 0x20) != (uint32_t)filename[k])
                same = 0;
        if (same)
            return 0;
    }
    long k = skip_blank(s, j);
    if (ch(s, k) != '"')
        return k >= s->len ? -1 : 0;
    for (k++;; k++) {
        if (k >= s->len)
            return -1;
        c = ch(s, k);
        if (c == '"')
            break;
        if (c == '\n' || c == '\\')
            return 0;
    }
    k = skip_blank(s, k + 1);
    if (ch(s, k) != ']')
        return k >= s->len ? -1 : 0;
    k = skip_blank(s, k + 1);
    return k >= s->len || ch(s, k) == '\n' ? 1 : 0;
}

/* A result token at i as the Python splitter reads one (its _SCAN "res": not followed by a
 * word character, '/', '-', '.', ':' or '*'): its length, else 0. *clean: it is a standard
 * result (what fast_record accepts) and only blanks follow it on its line. */
static long result_at(const Text *s, long i, int *clean) {
    static const char *forms[] = {"1/2-1/2", "0.5-0.5", "2-0", "0-2", "1-1", "0-0", "1-0",
                                  "0-1", "*"};
    static const long lens[] = {7, 7, 3, 3, 3, 3, 3, 3, 1};
    *clean = 0;
    uint32_t c0 = ch(s, i);
    if (c0 == 0xBD && ch(s, i + 1) == '-' && ch(s, i + 2) == 0xBD)
        return 3;
    if (c0 != '0' && c0 != '1' && c0 != '2' && c0 != '*')
        return 0; /* no result starts otherwise */
    /* a digit's form goes on with '-', '/' (only 1/2-1/2) or '.' (only 0.5-0.5): move
     * numbers and squares (a digit next) leave here */
    uint32_t c1 = ch(s, i + 1);
    if (c0 != '*' && c1 != '-' && c1 != '/' && !(c1 == '.' && c0 == '0'))
        return 0;
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        long n = lens[f], k = 0;
        while (k < n && ch(s, i + k) == (uint32_t)forms[f][k] && i + k < s->len)
            k++;
        if (k < n)
            continue;
        uint32_t c = ch(s, i + n);
        if (i + n < s->len && (c > 127 || digit(c) || upper(c) || lower(c) || c == '_' ||
                               c == '/' || c == '-' || c == '.' || c == ':' || c == '*'))
            continue; /* not a result to the splitter (a king's move 1-10, 0-1x...) */
        long e = skip_blank(s, i + n);
        *clean = f != 1 && (e >= s->len || ch(s, e) == '\n');
        return n;
    }
    return 0;
}

/* After a move or a NAG: blanks, a line end, a comment or the end. */
static int token_end(const Text *s, long i) {
    uint32_t c = ch(s, i);
    return i >= s->len || blank(c) || c == '\n' || c == '{';
}

/* A numeric move (12-16, 28x19x10; '-' only between two squares): its end, -1: none. */
static long numeric(const Text *s, long i) {
    long j = i, squares = 0;
    int dash = 0;
    for (;;) {
        long d = j;
        while (d < s->len && digit(ch(s, d)))
            d++;
        if (d - j < 1 || d - j > 2)
            return -1;
        squares++;
        j = d;
        uint32_t c = ch(s, j);
        if (c == '-' || c == 'x' || c == ':') {
            dash |= c == '-';
            j++;
            continue;
        }
        break;
    }
    if (squares < 2 || (dash && squares > 2) || !token_end(s, j))
        return -1;
    return j;
}

/* An alphanumeric move (c3-d4, c3:e5:g7; '-' only between two squares): its end, -1. */
static long alpha(const Text *s, long i) {
    long j = i, squares = 0;
    int dash = 0;
    for (;;) {
        uint32_t c = ch(s, j);
        if (c < 'a' || c > 'l')
            return -1;
        j++;
        if (ch(s, j) == '1' && ch(s, j + 1) >= '0' && ch(s, j + 1) <= '2')
            j += 2;
        else if (ch(s, j) >= '1' && ch(s, j) <= '9')
            j++;
        else
            return -1;
        squares++;
        c = ch(s, j);
        if (c == '-' || c == 'x' || c == ':') {
            dash |= c == '-';
            j++;
            continue;
        }
        break;
    }
    if (squares < 2 || (dash && squares > 2) || !token_end(s, j))
        return -1;
    return j;
}

/* The movetext from the line start i to its result: SCAN_OK with the result in g. */
static int movetext(const Text *s, long i, long line, ScanGame *g, int final) {
    int numbered = 0;   /* a move number waits for its move */
    int attached = 0;   /* ... with only white space since (the move's token starts there) */
    long num_line = 0;
    long first = i;
    while (i - first <= SCAN_MAXGAME) {
        uint32_t c = ch(s, i);
        if (i >= s->len)
            return final ? SCAN_UNUSUAL : SCAN_MORE;
        if (blank(c)) {
            i++;
            continue;
        }
        if (c == '\n') {
            i++;
            line++;
            continue;
        }
        if (c == '{') {
            if (!g->nmoves)
                return SCAN_UNUSUAL;
            for (i++;; i++) {
                if (i >= s->len)
                    return final ? SCAN_UNUSUAL : SCAN_MORE;
                c = ch(s, i);
                if (c == '}')
                    break;
                if (c == '{' || c == '[' || c == ']' || c == '"' || c == '\\' || c == '\r')
                    return SCAN_UNUSUAL;
                if (c == '\n')
                    line++;
            }
            i++;
            attached = 0;
            continue;
        }
        if (c == '$') {
            long k = i + 1;
            while (k < s->len && digit(ch(s, k)))
                k++;
            if (!g->nmoves || numbered || k == i + 1 || k - i - 1 > 9 || !token_end(s, k))
                return SCAN_UNUSUAL;
            i = k;
            continue;
        }
        int clean = 0;
        long r = digit(c) || c == '*' || c == 0xBD ? result_at(s, i, &clean) : 0;
        if (r) {
            if (!clean || numbered || !g->nmoves)
                return SCAN_UNUSUAL;
            g->result = i;
            g->result_len = r;
            g->end = i + r;
            g->end_line = line;
            return SCAN_OK;
        }
        if (digit(c)) {
            long k = i;
            while (k < s->len && digit(ch(s, k)))
                k++;
            if (ch(s, k) == '.') {
                long dots = 0;
                while (ch(s, k + dots) == '.' && k + dots < s->len)
                    dots++;
                if (numbered || k - i > 9 || (dots != 1 && dots != 3))
                    return SCAN_UNUSUAL;
                numbered = attached = 1;
                num_line = line;
                i = k + dots;
                continue;
            }
        }
        long e = digit(c) ? numeric(s, i) : alpha(s, i);
        if (e < 0)
            return SCAN_UNUSUAL;
        if (add_line(g, numbered && attached ? num_line : line) < 0)
            return SCAN_UNUSUAL;
        numbered = attached = 0;
        i = e;
    }
    return SCAN_UNUSUAL;
}

static inline int scan_text(const Text *s, long pos, long line, int final, ScanGame *g,
                            long *next, long *next_line);

/* A text of one byte a character (the usual case: ASCII and Latin-1 files) through a copy
 * of the scanner with every helper inlined into it and the character width a constant, so
 * that each character is read without the width's switch; any other width the same code
 * reads through the switch. */
__attribute__((flatten)) static int scan_narrow(const Text *s, long pos, long line, int final,
                                                ScanGame *g, long *next, long *next_line) {
    const Text narrow = {1, s->data, s->len};
    return scan_text(&narrow, pos, line, final, g, next, next_line);
}

int scan_game(const Text *s, long pos, long line, int final, ScanGame *g, long *next,
              long *next_line) {
    if (s->kind == 1)
        return scan_narrow(s, pos, line, final, g, next, next_line);
    return scan_text(s, pos, line, final, g, next, next_line);
}

static inline int scan_text(const Text *s, long pos, long line, int final, ScanGame *g,
                            long *next, long *next_line) {
    long i = pos;
    g->nmoves = 0;
    g->ntags = 0;
    g->err = 0;
    for (;;) { /* blank lines before the game */
        long j = skip_blank(s, i);
        if (j >= s->len)
            return final ? SCAN_END : SCAN_MORE;
        if (ch(s, j) != '\n')
            break;
        i = j + 1;
        line++;
    }
    g->start = i;
    g->line = line;
    for (;;) { /* the header: whole tag lines */
        long span[4];
        long e = clean_tag(s, i, span);
        if (e == -2)
            return final ? SCAN_UNUSUAL : SCAN_MORE;
        if (e == -1)
            break;
        if (g->ntags == SCAN_MAXTAGS)
            return SCAN_UNUSUAL;
        memcpy(g->tag[g->ntags++], span, sizeof span);
        i = e;
        line++;
        if (e >= s->len)
            return final ? SCAN_UNUSUAL : SCAN_MORE;
    }
    if (!g->ntags)
        return SCAN_UNUSUAL;
    for (;;) { /* blank lines before the movetext */
        long j = skip_blank(s, i);
        if (j >= s->len)
            return final ? SCAN_UNUSUAL : SCAN_MORE;
        if (ch(s, j) != '\n')
            break;
        i = j + 1;
        line++;
    }
    uint32_t c = ch(s, i);
    if (!(digit(c) || (c >= 'a' && c <= 'l')))
        return SCAN_UNUSUAL; /* the movetext starts with a number or a move, at its line start */
    g->body = i;
    int rc = movetext(s, i, line, g, final);
    if (g->err)
        return SCAN_UNUSUAL;
    if (rc != SCAN_OK)
        return rc;
    if (g->end - g->start > SCAN_MAXGAME)
        return SCAN_UNUSUAL;
    /* after the result: the rest of its line, blank lines, then the next game or the end */
    long k = skip_blank(s, g->end);
    line = g->end_line;
    if (k < s->len)
        k++; /* the result's line end (result_at checked it) */
    line++;
    for (;;) {
        long j = skip_blank(s, k);
        if (j >= s->len) {
            if (!final)
                return SCAN_MORE;
            *next = s->len;
            *next_line = line;
            return SCAN_OK;
        }
        if (ch(s, j) != '\n')
            break;
        k = j + 1;
        line++;
    }
    int ok = next_game_line(s, k);
    if (ok < 0)
        return final ? SCAN_UNUSUAL : SCAN_MORE;
    if (!ok)
        return SCAN_UNUSUAL;
    *next = k;
    *next_line = line;
    return SCAN_OK;
}
