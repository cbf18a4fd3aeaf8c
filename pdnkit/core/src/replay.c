/* The one-call replay: read a game's main line, resolve each written move to the one legal move
 * it stands for, play it, and write per ply the move, the position after it (PDN square
 * bitboards), its key, piece counts and flags. Stops at the first ply that is not exactly one
 * legal move as written, with the reason (the codes of pdnkit.findings), or where the text needs
 * the Python reader or matcher (R_HANDOVER): the Python replay takes over from that ply.
 *
 * The decisions mirror pdnkit.validation.game.MainLine._ply and pdnkit.validation.match /
 * pdnkit.rules.notation.match_move; pdnkit/core/pure.py is the same procedure over the
 * reference engine, and tests/core compares the two on every real game.
 */
#include <stdlib.h>
#include <string.h>

#include "replay.h"

typedef struct {
    int n;             /* squares written */
    int sq[MAXWRITTEN]; /* square indices, -1: not a square of the board */
    int sep0, nseps;   /* the first separator: 0 none, 1 '-', 2 x X :, 3 another dash */
} Written;

/* ------------------------------------------------------------------ buffers */

static int buf_grow(Replay *r, Buf *b, size_t n) {
    /* (a first block that holds a usual game's plies: a game of 100 plies grew each of its
     * buffers from 256 bytes in up to five reallocations, 25 a game in all) */
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + n)
        cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (!p) {
        r->err = 1;
        return -1;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

static inline void buf_put(Replay *r, Buf *b, const void *src, size_t n) {
    if (b->n + n > b->cap && (r->err || buf_grow(r, b, n) < 0))
        return;
    memcpy(b->p + b->n, src, n);
    b->n += n;
}

static void put_i32(Replay *r, Buf *b, long v) {
    int32_t x = v > INT32_MAX ? INT32_MAX : (int32_t)v;
    buf_put(r, b, &x, sizeof x);
}

void replay_init(Replay *r) {
    memset(r, 0, sizeof *r);
    r->stop_start = r->stop_end = r->result_start = r->result_end = -1;
}

void replay_free(Replay *r) {
    Buf *all[] = {&r->origin, &r->dest, &r->flags, &r->path_off, &r->path, &r->cap_off,
                  &r->cap, &r->capk, &r->bits, &r->bits_high, &r->keys, &r->counts,
                  &r->numbers, &r->spans, &r->kmoves};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        free(all[i]->p);
        all[i]->p = NULL;
        all[i]->n = all[i]->cap = 0;
    }
}

/* ------------------------------------------------------------------ characters */

static inline uint32_t tch(const Text *s, long i) {
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

static int is_ws(uint32_t c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int is_digit(uint32_t c) { return c >= '0' && c <= '9'; }

static int num_sep(uint32_t c) { /* NUMMOVE's separators */
    if (c == '-')
        return 1;
    if (c == 'x' || c == 'X' || c == ':')
        return 2;
    if ((c >= 0x2010 && c <= 0x2014) || c == 0x2212)
        return 3;
    return 0;
}

static int alpha_sep(uint32_t c) { /* ALPHAMOVE's separators */
    if (c == '-')
        return 1;
    if (c == 'x' || c == 'X' || c == ':')
        return 2;
    return c == 0x2013 ? 3 : 0;
}

/* A rank 1-12 as ALPHAMOVE reads it (1[0-2] before [1-9]): its length, 0 for none. */
static int rank_at(const Text *s, long i, int *rank) {
    uint32_t c = tch(s, i), d = tch(s, i + 1);
    if (c == '1' && d >= '0' && d <= '2' && i + 1 < s->len) {
        *rank = 10 + (int)(d - '0');
        return 2;
    }
    if (c >= '1' && c <= '9' && i < s->len) {
        *rank = (int)(c - '0');
        return 1;
    }
    return 0;
}

static int add_square(Written *w, int idx) {
    if (w->n >= MAXWRITTEN)
        return -1;
    w->sq[w->n++] = idx;
    return 0;
}

static int numeric_square(const Table *t, long v) {
    return v >= 1 && v <= t->nsq ? (int)v - 1 : -1;
}

static int alpha_square(const Table *t, uint32_t letter, int rank) {
    int f = (int)(letter - 'a'), r = rank - 1;
    if (f < 0 || f >= t->width || r < 0 || r >= t->height || f >= MAXSIDE || r >= MAXSIDE)
        return -1;
    return (int)t->coord_sq[f][r] - 1;
}

static void add_sep(Written *w, int code) {
    if (w->nseps++ == 0)
        w->sep0 = code;
}

/* NUMMOVE without its number: 32-28, 28x19x10, 1 - 7, 3228. Returns the end, -1: not one. */
static long numeric_move(const Table *t, const Text *s, long i, Written *w) {
    long j = i;
    while (j < s->len && is_digit(tch(s, j)))
        j++;
    long nd = j - i;
    if (nd == 4) {
        uint32_t c = tch(s, j);
        if (j < s->len && (is_digit(c) || c == '.' || c == '/' || c == '-' || c == 'x' ||
                           c == 'X' || c == ':'))
            return -1;
        long a = (tch(s, i) - '0') * 10 + (tch(s, i + 1) - '0');
        long b = (tch(s, i + 2) - '0') * 10 + (tch(s, i + 3) - '0');
        add_square(w, numeric_square(t, a));
        add_square(w, numeric_square(t, b));
        add_sep(w, 0);
        return j;
    }
    if (nd < 1 || nd > 2)
        return -1;
    long v = nd == 1 ? (long)(tch(s, i) - '0') : (long)((tch(s, i) - '0') * 10 + tch(s, i + 1) - '0');
    add_square(w, numeric_square(t, v));
    for (;;) {
        long k = j;
        while (tch(s, k) == ' ' || tch(s, k) == '\t')
            k++;
        int code = k < s->len ? num_sep(tch(s, k)) : 0;
        if (!code)
            break;
        k++;
        while (tch(s, k) == ' ' || tch(s, k) == '\t')
            k++;
        long e = k;
        while (e < s->len && is_digit(tch(s, e)))
            e++;
        if (e - k < 1 || e - k > 2)
            return -1;
        v = e - k == 1 ? (long)(tch(s, k) - '0') : (long)((tch(s, k) - '0') * 10 + tch(s, k + 1) - '0');
        if (add_square(w, numeric_square(t, v)) < 0)
            return -1;
        add_sep(w, code);
        j = e;
    }
    uint32_t c = tch(s, j);
    if (w->n < 2 || (j < s->len && (c == '.' || c == '/' || c == '*')))
        return -1;
    return j;
}

/* ALPHAMOVE without its number: c3-d4, c3:e5:c7, a3b4 (no short forms: those go to Python). */
static long alpha_move(const Table *t, const Text *s, long i, Written *w) {
    int rank;
    int len = rank_at(s, i + 1, &rank);
    if (!len)
        return -1;
    add_square(w, alpha_square(t, tch(s, i), rank));
    long j = i + 1 + len;
    for (;;) {
        long k = j;
        int code = k < s->len ? alpha_sep(tch(s, k)) : 0;
        if (code)
            k++;
        uint32_t c = tch(s, k);
        if (k >= s->len || c < 'a' || c > 'l') {
            if (code)
                return -1;
            break;
        }
        len = rank_at(s, k + 1, &rank);
        if (!len)
            return -1;
        if (add_square(w, alpha_square(t, c, rank)) < 0)
            return -1;
        add_sep(w, code);
        j = k + 1 + len;
    }
    uint32_t c = tch(s, j);
    if (w->n < 2 || (j < s->len && (is_digit(c) || c == '*')))
        return -1;
    return j;
}

static long parse_move(const Table *t, const Text *s, long i, Written *w) {
    uint32_t c = tch(s, i);
    w->n = w->nseps = 0;
    w->sep0 = 0;
    if (i >= s->len)
        return -1;
    if (is_digit(c)) {
        long e = numeric_move(t, s, i, w);
        return e >= 0 && (e >= s->len || !is_digit(tch(s, e))) ? e : -1;
    }
    if (c >= 'a' && c <= 'l')
        return alpha_move(t, s, i, w);
    return -1;
}

/* RESULT: its length at i, 0 for none, -1 when a character after it is not ASCII. */
static long match_result(const Text *s, long i) {
    static const char *forms[] = {"2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "0.5-0.5"};
    static const long lens[] = {3, 3, 3, 3, 3, 3, 7, 7};
    uint32_t c0 = tch(s, i);
    if (c0 == '*')
        return 1;
    if (c0 != '0' && c0 != '1' && c0 != '2' && c0 != 0xBD)
        return 0; /* no result starts otherwise */
    /* the second character of a digit's form: '-' (the three-character ones), '/' (only
     * 1/2-1/2) or '.' (only 0.5-0.5); move numbers and squares (a digit) leave here */
    uint32_t c1 = tch(s, i + 1);
    if (c0 != 0xBD && c1 != '-' && c1 != '/' && !(c1 == '.' && c0 == '0'))
        return 0;
    long len = 0;
    for (size_t f = 0; f < sizeof forms / sizeof forms[0] && !len; f++) {
        long n = lens[f], k = 0;
        while (k < n && tch(s, i + k) == (uint32_t)forms[f][k] && i + k < s->len)
            k++;
        if (k == n)
            len = n;
    }
    if (!len && tch(s, i) == 0xBD && tch(s, i + 1) == '-' && tch(s, i + 2) == 0xBD)
        len = 3;
    if (!len)
        return 0;
    if (i + len >= s->len)
        return len;
    uint32_t c = tch(s, i + len);
    if (c > 127)
        return -1;
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
        c == '_' || c == '/' || c == '-' || c == '.' || c == ':')
        return 0;
    return len;
}

/* ------------------------------------------------------------------ matching */

static void direction(const Table *t, int a, int b, int *df, int *dr) {
    int f = t->file_of[b] - t->file_of[a], r = t->rank_of[b] - t->rank_of[a];
    *df = (f > 0) - (f < 0);
    *dr = (r > 0) - (r < 0);
}

/* the playing square right behind `c` along (df, dr) (notation._behind) */
static int behind(const Table *t, int c, int df, int dr) {
    int f = t->file_of[c] + df, r = t->rank_of[c] + dr;
    for (; f >= 0 && r >= 0 && f < t->width && r < t->height; f += df, r += dr)
        if (t->coord_sq[f][r])
            return t->coord_sq[f][r] - 1;
    return c;
}

static int memcmp_written(const uint8_t *a, const int *b, int n) {
    for (int i = 0; i < n; i++)
        if (a[i] != b[i])
            return 1;
    return 0;
}

/* Does the written middle equal the move's landing squares or its canonical path (turning
 * squares, or the square right behind a piece taken going straight on)? */
static int path_matches(const Table *t, const Move *m, const Written *w) {
    int mid = w->n - 2;
    if (m->npath - 2 == mid && !memcmp_written(m->path + 1, w->sq + 1, mid))
        return 1;
    if (m->ncap <= 1 || m->npath != m->ncap + 1 || m->ncap - 1 != mid)
        return 0;
    for (int i = 0; i < mid; i++) {
        int a, b, c, d;
        direction(t, m->path[i], m->path[i + 1], &a, &b);
        direction(t, m->path[i + 1], m->path[i + 2], &c, &d);
        int sq = (a != c || b != d) ? m->path[i + 1] : behind(t, m->cap[i], a, b);
        if (sq != w->sq[i + 1])
            return 0;
    }
    return 1;
}

static int same_ends(const Gen *g, int o, int d, int *first) {
    int n = 0;
    for (int i = 0; i < g->n; i++)
        if (g->moves[i].orig == o && g->moves[i].dest == d) {
            if (!n)
                *first = i;
            n++;
        }
    return n;
}

/* notation.match_move without a middle: one capture joining the squares, or of several the
 * only single jump (a flying king's "f8:b4" is also the full path of a single jump). Returns
 * the number of readings; *pick is the move when there is one. */
static int match_two(const Gen *g, int o, int d, int *pick, int *taken) {
    int first = -1, n = same_ends(g, o, d, &first);
    *taken = 0;
    if (!n)
        return 0;
    if (n == 1) {
        *pick = first;
        *taken = g->moves[first].ncap;
        return 1;
    }
    int singles = 0, single = -1;
    for (int i = 0; i < g->n; i++) {
        const Move *m = &g->moves[i];
        if (m->orig == o && m->dest == d) {
            if (m->ncap > *taken)
                *taken = m->ncap;
            if (m->ncap == 1) {
                singles++;
                single = i;
            }
        }
    }
    if (singles == 1) {
        *pick = single;
        *taken = 1;
        return 1;
    }
    return n;
}

/* Why a two-square capture matched nothing (match.match_move): a quiet move while a capture was
 * compulsory, a capture the choice rule excludes (fewer pieces than required, or another key),
 * or an illegal move. g holds the legal captures. */
static int classify(const Table *t, Gen *g, const Pos *p, int o, int d, const char **why) {
    if (quiet_step(t, p, o, d)) {
        *why = "a quiet move while a capture is compulsory";
        return R_MISSED;
    }
    *why = "no legal capture joins the squares";
    if (!t->nprec)
        return R_ILLEGAL;
    int need = 0, pick = -1, taken = 0;
    for (int i = 0; i < g->n; i++)
        if (g->moves[i].ncap > need)
            need = g->moves[i].ncap;
    g->n = 0;
    if (gen_captures(g, p, 0, DUP_SET) < 0) {
        *why = "the capture search is too large";
        return R_HANDOVER;
    }
    if (!match_two(g, o, d, &pick, &taken))
        return R_ILLEGAL;
    *why = need > taken ? "fewer pieces taken than the rules require"
                        : "a capture the precedence rules exclude";
    return need > taken ? R_NOT_MAX : R_PRIORITY;
}

/* The move a written move stands for: R_DONE with *out and flags, or why not. */
static int resolve(const Table *t, Gen *g, const Pos *p, const Written *w, Move *out, int *fl,
                   const char **why) {
    for (int i = 0; i < w->n; i++)
        if (w->sq[i] < 0) {
            *why = "a square is not on the board";
            return R_ILLEGAL;
        }
    int o = w->sq[0], d = w->sq[w->n - 1];
    int capture = has_capture(t, p);
    g->n = 0;
    g->err = 0;
    if (!capture) {
        int kind = w->n == 2 ? quiet_step(t, p, o, d) : 0;
        if (kind) {
            memset(out, 0, offsetof(Move, path));
            out->orig = (uint8_t)o;
            out->dest = (uint8_t)d;
            out->ends_king = kind != 1;
            out->npath = 2;
            out->path[0] = (uint8_t)o;
            out->path[1] = (uint8_t)d;
            out->capmask = 0;
            if (w->sep0 == 2)
                *fl |= F_MISMATCH;
            return R_DONE;
        }
        *why = "the side to move has no legal move";
        if (!count_quiet(t, p))
            return R_AFTER_END;
        *why = "no legal move joins the squares";
        return R_ILLEGAL;
    }
    if (gen_captures(g, p, t->nprec, DUP_SET) <= 0) {
        *why = "the capture search is too large";
        return R_HANDOVER;
    }
    int pick = -1, taken = 0, first = -1;
    int ends = same_ends(g, o, d, &first);
    if (w->n == 2) {
        int n = match_two(g, o, d, &pick, &taken);
        if (n > 1) {
            *why = "several legal captures join the squares";
            return R_AMBIGUOUS;
        }
        if (!n)
            return classify(t, g, p, o, d, why);
        if (w->nseps == 1 && w->sep0 == 1 && !t->cap_sep_dash)
            *fl |= F_MISMATCH;
    } else {
        int n = 0;
        for (int i = 0; i < g->n; i++)
            if (g->moves[i].orig == o && g->moves[i].dest == d &&
                path_matches(t, &g->moves[i], w)) {
                n++;
                pick = i;
            }
        if (n > 1) {
            *why = "the written path matches several legal captures";
            return R_AMBIGUOUS;
        }
        if (!n) {
            *why = "the written path needs the full matcher";
            return R_HANDOVER;
        }
    }
    if (ends > 1)
        *fl |= F_FULL_PATH;
    *out = g->moves[pick];
    return R_DONE;
}

/* ------------------------------------------------------------------ output */

/* The position after a move in the engine's own bit layout (what position keys mix), kept up
 * to date move by move instead of converting the whole boards at every ply. */
typedef struct {
    bb_t w, b, k;
} Engine;

static void engine_play(const Table *t, Engine *e, const Pos *before, const Move *m) {
    bb_t o = BIT(t->ebit[m->orig]), d = BIT(t->ebit[m->dest]), c = 0;
    for (int i = 0; i < m->ncap; i++)
        c |= BIT(t->ebit[m->cap[i]]);
    bb_t *own = before->side ? &e->b : &e->w, *opp = before->side ? &e->w : &e->b;
    *own = (*own & ~o) | d;
    *opp &= ~c;
    e->k = (e->k & ~(c | o)) | (m->ends_king ? d : 0);
}

static void emit(const Table *t, Replay *r, const Pos *before, const Pos *after, const Move *m,
                 int fl, long number, long start, long end, uint8_t cnt[4], const Engine *e) {
    uint8_t sq[2 * MAXSQ + 1], v;
    int was_king = HAS(before->k, m->orig);
    fl |= (m->ncap ? F_CAPTURE : 0) | (was_king ? F_KING : 0) |
          (m->ends_king && !was_king ? F_PROMOTES : 0);
    v = (uint8_t)(m->orig + 1);
    buf_put(r, &r->origin, &v, 1);
    v = (uint8_t)(m->dest + 1);
    buf_put(r, &r->dest, &v, 1);
    v = (uint8_t)fl;
    buf_put(r, &r->flags, &v, 1);
    for (int i = 0; i < m->npath; i++)
        sq[i] = (uint8_t)(m->path[i] + 1);
    buf_put(r, &r->path, sq, m->npath);
    if (m->ncap) { /* the counts change by what was taken (and a crowning) */
        for (int i = 0; i < m->ncap; i++) {
            int king = HAS(before->k, m->cap[i]);
            sq[i] = (uint8_t)(m->cap[i] + 1);
            sq[MAXSQ + i] = (uint8_t)king;
            cnt[2 * after->side + king]--;
        }
        buf_put(r, &r->cap, sq, m->ncap);
        buf_put(r, &r->capk, sq + MAXSQ, m->ncap);
    }
    if (fl & F_PROMOTES) {
        cnt[2 * before->side]--;
        cnt[2 * before->side + 1]++;
    }
    put_i32(r, &r->path_off, (long)r->path.n);
    put_i32(r, &r->cap_off, (long)r->cap.n);
    bb_t boards[4] = {after->w & ~after->k, after->w & after->k, after->b & ~after->k,
                      after->b & after->k};
    uint64_t words[4];
    for (int i = 0; i < 4; i++)
        words[i] = (uint64_t)boards[i];
    buf_put(r, &r->bits, words, sizeof words);
    if (t->nsq > 64) {
        for (int i = 0; i < 4; i++)
            words[i] = (uint64_t)(boards[i] >> 64);
        buf_put(r, &r->bits_high, words, sizeof words);
    }
    buf_put(r, &r->counts, cnt, 4);
    int64_t key = position_key(e->w, e->b, e->k, after->side);
    buf_put(r, &r->keys, &key, sizeof key);
    int32_t tail[3] = {number > INT32_MAX ? INT32_MAX : (int32_t)number,
                       start > INT32_MAX ? INT32_MAX : (int32_t)start,
                       end > INT32_MAX ? INT32_MAX : (int32_t)end};
    buf_put(r, &r->numbers, tail, 4);
    buf_put(r, &r->spans, tail + 1, 8);
    if (t->king_limit) {
        int32_t km[4];
        for (int side = 0; side < 2; side++) {
            km[2 * side] = after->csq[side] + 1;
            km[2 * side + 1] = after->cn[side] > INT32_MAX ? INT32_MAX : (int32_t)after->cn[side];
        }
        buf_put(r, &r->kmoves, km, sizeof km);
    }
    r->plies++;
}

static void annotate(Replay *r) {
    if (r->flags.n)
        r->flags.p[r->flags.n - 1] |= F_ANNOTATED;
}

/* ------------------------------------------------------------------ the loop */

typedef struct {
    const Text *s;
    long i;
    long number;
    int dots;
} Cursor;

enum { T_MOVE, T_END, T_RESULT, T_OTHER };

/* The next token of movetext: a move (its span in *start, *end), the end, a result, or
 * something only the Python reader reads (T_OTHER, *why says what). Comments, NAGs, move
 * strength marks, line comments, escape lines and move numbers are read on the way. */
static int next_token(const Table *t, Replay *r, Cursor *c, Written *w, long *start, long *end,
                      const char **why) {
    const Text *s = c->s;
    for (;;) {
        while (c->i < s->len && is_ws(tch(s, c->i)))
            c->i++;
        long i = c->i;
        *start = i;
        *end = i + 1;
        if (i >= s->len)
            return T_END;
        uint32_t ch = tch(s, i);
        if (ch == '{') {
            long k = i + 1;
            while (k < s->len && tch(s, k) != '}' && tch(s, k) != '{')
                k++;
            if (k >= s->len || tch(s, k) == '{') {
                *why = "a nested or unterminated comment";
                return T_OTHER;
            }
            c->i = k + 1;
            annotate(r);
            continue;
        }
        if (ch == '$') {
            long k = i + 1;
            while (k < s->len && is_digit(tch(s, k)))
                k++;
            if (k == i + 1 || k - i - 1 > 9) {
                *why = "a '$' without a NAG number";
                return T_OTHER;
            }
            c->i = k;
            annotate(r);
            continue;
        }
        if (ch == ';' || (ch == '%' && (i == 0 || tch(s, i - 1) == '\n'))) {
            while (c->i < s->len && tch(s, c->i) != '\n')
                c->i++;
            if (ch == ';')
                annotate(r);
            continue;
        }
        if (ch == '!' || ch == '?' || ch == '(') {
            long k = ch == '(' ? i + 1 : i;
            while (k < s->len && (tch(s, k) == '!' || tch(s, k) == '?'))
                k++;
            if (ch == '(' && (k == i + 1 || tch(s, k) != ')')) {
                *why = "a variation";
                return T_OTHER;
            }
            c->i = ch == '(' ? k + 1 : k;
            annotate(r);
            continue;
        }
        long res = match_result(s, i);
        if (res < 0) {
            *why = "a result followed by a character the core does not read";
            return T_OTHER;
        }
        if (res > 0) {
            *end = i + res;
            c->i = i + res;
            return T_RESULT;
        }
        if (is_digit(ch)) {
            long k = i;
            while (k < s->len && is_digit(tch(s, k)))
                k++;
            if (tch(s, k) == '.' && k < s->len) {
                long dots = 0;
                while (k + dots < s->len && tch(s, k + dots) == '.')
                    dots++;
                if (k - i > 9 || dots > 3) {
                    *why = "a move number the core does not read";
                    return T_OTHER;
                }
                long num = 0;
                for (long x = i; x < k; x++)
                    num = num * 10 + (long)(tch(s, x) - '0');
                c->number = num;
                c->dots = (int)dots;
                c->i = k + dots;
                continue;
            }
        }
        long e = parse_move(t, s, i, w);
        if (e < 0) {
            *why = "text that is not a plain move";
            return T_OTHER;
        }
        *end = e;
        c->i = e;
        return T_MOVE;
    }
}

/* One item of a move list: the whole text (spaces around it aside) must be one move. */
static int item_token(const Table *t, const Text *s, Written *w, const char **why) {
    long i = 0, n = s->len;
    while (i < n && is_ws(tch(s, i)))
        i++;
    while (n > i && is_ws(tch(s, n - 1)))
        n--;
    Text part = *s;
    part.len = n;
    long e = parse_move(t, &part, i, w);
    if (e != n) {
        *why = "text that is not a plain move";
        return T_OTHER;
    }
    return T_MOVE;
}

static void stop(Replay *r, int code, const char *why, long start, long end) {
    r->code = code;
    r->reason = why;
    r->stop_start = start;
    r->stop_end = end;
}

static inline void replay_items(const Table *t, const Pos *start, const Text *items,
                                long nitems, int text_mode, long offset, Replay *r);

/* Movetext of one byte a character (the usual case) through a copy of the replay with this
 * file's helpers inlined into it and the width a constant, so that each character is read
 * without the width's switch (scan.c's scan_narrow does the same). */
__attribute__((flatten)) static void replay_narrow(const Table *t, const Pos *start,
                                                   const Text *text, long offset, Replay *r) {
    const Text narrow = {1, text->data, text->len};
    replay_items(t, start, &narrow, 1, 1, offset, r);
}

void replay_run(const Table *t, const Pos *start, const Text *items, long nitems,
                int text_mode, long offset, Replay *r) {
    if (text_mode && items->kind == 1)
        replay_narrow(t, start, items, offset, r);
    else
        replay_items(t, start, items, nitems, text_mode, offset, r);
}

static inline void replay_items(const Table *t, const Pos *start, const Text *items,
                                long nitems, int text_mode, long offset, Replay *r) {
    Gen g;
    gen_init(&g, t);
    Pos p = *start;
    Cursor c = {items, offset, 0, 0};
    long item = offset;
    put_i32(r, &r->path_off, 0);
    put_i32(r, &r->cap_off, 0);
    uint8_t cnt[4] = {(uint8_t)popcount(p.w & ~p.k), (uint8_t)popcount(p.w & p.k),
                      (uint8_t)popcount(p.b & ~p.k), (uint8_t)popcount(p.b & p.k)};
    Engine e = {to_engine(t, p.w), to_engine(t, p.b), to_engine(t, p.k)};
    for (;;) {
        Written w;
        const char *why = NULL;
        long s0, s1;
        int tok;
        if (text_mode) {
            c.number = 0;
            c.dots = 0;
            tok = next_token(t, r, &c, &w, &s0, &s1, &why);
        } else if (item >= nitems) {
            tok = T_END;
            s0 = s1 = item;
        } else {
            s0 = item;
            s1 = item + 1;
            tok = item_token(t, &items[item], &w, &why);
        }
        if (tok == T_END) {
            stop(r, R_DONE, NULL, s0, s0);
            break;
        }
        if (tok == T_RESULT) {
            r->result_start = s0;
            r->result_end = s1;
            stop(r, R_DONE, NULL, s1, s1);
            break;
        }
        if (tok == T_OTHER) {
            stop(r, R_HANDOVER, why, s0, s1);
            break;
        }
        Move m;
        int fl = 0;
        int code = resolve(t, &g, &p, &w, &m, &fl, &why);
        if (code != R_DONE) {
            stop(r, code, why, s0, s1);
            break;
        }
        Pos before = p;
        play_move(t, &p, &m);
        engine_play(t, &e, &before, &m);
        if (c.dots)
            fl |= F_NUMBERED | (c.dots >= 2 ? F_BLACK_DOTS : 0);
        emit(t, r, &before, &p, &m, fl, c.number, s0, s1, cnt, &e);
        if (r->err)
            break;
        item++;
    }
    r->final = p;
    if (g.err == 1)
        r->err = 1;
    gen_free(&g);
}
