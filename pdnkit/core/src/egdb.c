/* Endgame databases: the index of a material signature and the retrograde solver (egdb.h).
 *
 * The solver works one signature at a time, both sides to move together. A first pass runs
 * the move generator on every position: a position without a legal move is decided (ply 0);
 * a capture or a promotion leaves the signature, and the value it leads to is read from the
 * databases of the smaller or more crowned signatures, which were built before; the quiet
 * moves that stay inside are counted. Then, ply by ply, the positions decided at the last ply
 * are walked backwards (quiet moves taken back, checked against the generator: the earlier
 * position must have that move and no capture): a predecessor of a loss is a win one ply
 * longer; a predecessor of a win loses when its last move to be decided was. The moves that
 * leave the signature are events at the ply their value gives. Positions never decided are
 * draws. Winning as fast and losing as slowly as possible falls out of the order: the first
 * decided loss among a position's children is its shortest win, and a loss is decided when its
 * longest-lasting child is.
 */
#include <stdlib.h>
#include <string.h>

#include "egdb.h"

#define NOLOSE 0x8000 /* rem: the position can no longer lose (a child is a draw or a loss) */
#define GAP 0xFFFF    /* val: a slot that is not a position */
#define MAXPLIES 32000

static inline int low(bb_t x) {
    uint64_t lo = (uint64_t)x;
    if (lo)
        return __builtin_ctzll(lo);
    return 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

#define EACH(s, set) for (bb_t _y = (set); _y && ((s) = low(_y), 1); _y &= _y - 1)

/* The bits of a sparse set (a few pieces): faster than popcount without a POPCNT build. */
static inline int few(bb_t x) {
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

static inline uint16_t code_of(int plies, int win) { return (uint16_t)(1 + 2 * plies + win); }

int eg_sig_code(int wm, int wk, int bm, int bk) {
    return ((wm * (EG_MAXP + 1) + wk) * (EG_MAXP + 1) + bm) * (EG_MAXP + 1) + bk;
}

static int reverse_tables(Egdb *e, const char **why) {
    const Table *t = e->t;
    for (int o = 0; o < t->nsq; o++)
        for (int r = 0; r < t->qr_n[o]; r++) {
            bb_t between = 0;
            for (int k = 0; k < t->qr_len[o][r]; k++) {
                int d = t->qr[o][r][k];
                if (e->rk_n[d] >= MAXSQ) {
                    *why = "too many king moves end on one square";
                    return -1;
                }
                e->rk_o[d][e->rk_n[d]] = (uint8_t)o;
                e->rk_between[d][e->rk_n[d]++] = between;
                between |= BIT(d);
            }
        }
    for (int side = 0; side < 2; side++)
        for (int o = 0; o < t->nsq; o++)
            for (int j = 0; j < t->ms_n[side][o]; j++) {
                int d = t->ms[side][o][j];
                if (e->rm_n[side][d] >= EG_MAXREV) {
                    *why = "too many men's steps end on one square";
                    return -1;
                }
                e->rm_o[side][d][e->rm_n[side][d]++] = (uint8_t)o;
            }
    return 0;
}

int eg_init(Egdb *e, const Table *t, int losing_game, const char **why) {
    memset(e, 0, sizeof *e);
    if (t->king_limit) {
        *why = "the variant's king-move counters are part of a position and the index has no "
               "place for them";
        return -1;
    }
    e->t = t;
    e->nsq = t->nsq;
    e->losing_game = losing_game ? 1 : 0;
    for (int n = 0; n <= MAXSQ; n++) {
        e->binom[n][0] = 1;
        for (int k = 1; k <= EG_MAXP; k++)
            e->binom[n][k] = n ? e->binom[n - 1][k - 1] + e->binom[n - 1][k] : 0;
    }
    if (reverse_tables(e, why) < 0)
        return -1;
    e->use_sym = 1;
    bb_t all[2] = {t->board, t->board};
    eg_set_men(e, all);
    return 0;
}

void eg_set_men(Egdb *e, const bb_t men[2]) {
    const Table *t = e->t;
    for (int side = 0; side < 2; side++) {
        e->man_ok[side] = men[side] & t->board & ~t->promo[side];
        e->nman[side] = 0;
        for (int s = 0; s < MAXSQ; s++)
            e->man_rank[side][s] = 255;
        int s;
        EACH(s, e->man_ok[side]) {
            e->man_sq[side][e->nman[side]] = (uint8_t)s;
            e->man_rank[side][s] = (uint8_t)e->nman[side]++;
        }
    }
    eg_symmetry(e); /* both check that the symmetries keep man_ok too */
    eg_board_symmetries(e);
}

uint64_t eg_half(const Egdb *e, int wm, int wk, int bm, int bk) {
    if (wm < 0 || wk < 0 || bm < 0 || bk < 0 || wm + wk + bm + bk > EG_MAXP)
        return 0;
    int f = e->nsq - wm - bm;
    if (f < wk + bk)
        return 0;
    return e->binom[e->nman[0]][wm] * e->binom[e->nman[1]][bm] * e->binom[f][wk] *
           e->binom[f - wk][bk];
}

/* One pass over the pieces in square order (the solver calls it for every move it takes
 * back): a king's rank is its square less the men below it (a black king's, less the white
 * kings too), so counting what was passed gives each rank. W is the word of the squares:
 * 64 bits where the board fits in them (8x8, 10x10), else the core's two words. */
#define INDEX_PASS(W, ctz)                                                                    \
    uint64_t iw = 0, ib = 0, ikw = 0, ikb = 0;                                                \
    int c0 = 0, c1 = 0, c2 = 0, c3 = 0, men = 0, taken = 0;                                   \
    W all = (W)(p->w | p->b), pb = (W)p->b, pk = (W)p->k;                                     \
    while (all) {                                                                             \
        int s = ctz(all);                                                                     \
        all &= all - 1;                                                                       \
        if (c0 + c1 + c2 + c3 >= EG_MAXP)                                                     \
            return -1;                                                                        \
        int black = (int)((pb >> s) & 1);                                                     \
        if ((pk >> s) & 1) {                                                                  \
            if (black) {                                                                      \
                ikb += e->binom[s - taken][++c3];                                             \
            } else {                                                                          \
                ikw += e->binom[s - men][++c1];                                               \
                taken++;                                                                      \
            }                                                                                 \
            continue;                                                                         \
        }                                                                                     \
        int r = e->man_rank[black][s];                                                        \
        if (r == 255)                                                                         \
            return -1;                                                                        \
        if (black)                                                                            \
            ib += e->binom[r][++c2];                                                          \
        else                                                                                  \
            iw += e->binom[r][++c0];                                                          \
        men++;                                                                                \
        taken++;                                                                              \
    }                                                                                         \
    int f = e->nsq - c0 - c2;                                                                 \
    *idx = ((iw * e->binom[e->nman[1]][c2] + ib) * e->binom[f][c1] + ikw) *                   \
               e->binom[f - c1][c3] +                                                         \
           ikb;                                                                               \
    *sig = eg_sig_code(c0, c1, c2, c3);                                                       \
    return 0;

static inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }

static int index_small(const Egdb *e, const Pos *p, int *sig, uint64_t *idx) {
    INDEX_PASS(uint64_t, ctz64)
}

static int index_wide(const Egdb *e, const Pos *p, int *sig, uint64_t *idx) {
    INDEX_PASS(bb_t, low)
}

int eg_index(const Egdb *e, const Pos *p, int *sig, uint64_t *idx) {
    if (e->nsq <= 64)
        return index_small(e, p, sig, idx);
    return index_wide(e, p, sig, idx);
}

/* The largest c below top with C(c, i) <= x (binomials grow with c). */
static inline int largest(const Egdb *e, uint64_t x, int i, int top) {
    int lo = i - 1, hi = top; /* C(i - 1, i) = 0 <= x; find the last c in [lo, hi] */
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (e->binom[mid][i] <= x)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The k ranks (among n) of combinatorial rank x, highest first. */
static void unrank(const Egdb *e, uint64_t x, int k, int n, int *ranks) {
    int c = n - 1;
    for (int i = k; i >= 1; i--) {
        c = i == 1 ? (int)x : largest(e, x, i, c); /* C(c, 1) = c */
        x -= e->binom[c][i];
        ranks[k - i] = c--;
    }
}

static bb_t men_of(const Egdb *e, int side, uint64_t x, int k) {
    int r[EG_MAXP];
    bb_t out = 0;
    unrank(e, x, k, e->nman[side], r);
    for (int i = 0; i < k; i++)
        out |= BIT(e->man_sq[side][r[i]]);
    return out;
}

/* The k squares of rank x among the squares not in taken (a few pieces). */
static bb_t kings_of(const Egdb *e, uint64_t x, int k, bb_t taken) {
    int r[EG_MAXP];
    bb_t out = 0;
    unrank(e, x, k, e->nsq - few(taken), r);
    for (int i = k - 1; i >= 0; i--) { /* lowest rank first: step over the squares taken */
        int sq = r[i];
        for (bb_t y = taken; y && low(y) <= sq; y &= y - 1)
            sq++;
        out |= BIT(sq);
    }
    return out;
}

/* What the last decode found for the squares of the men and the white kings: the first
 * pass walks the slots in order, where only the black kings change from one to the next. */
typedef struct {
    int valid, gap;
    uint64_t head;
    bb_t wmen, bmen, wkings;
} Decoded;

static int decode(const Egdb *e, const int sig[4], int side, uint64_t idx, Pos *p, Decoded *c) {
    int wm = sig[0], wk = sig[1], bm = sig[2], bk = sig[3];
    int f = e->nsq - wm - bm;
    uint64_t nbk = e->binom[f - wk][bk], nwk = e->binom[f][wk], nbm = e->binom[e->nman[1]][bm];
    if (!nbk || !nwk || !nbm)
        return -1;
    uint64_t ikb = idx % nbk, head = idx / nbk;
    if (!c->valid || c->head != head) {
        uint64_t ikw = head % nwk, rest = head / nwk;
        uint64_t ib = rest % nbm, iw = rest / nbm;
        c->valid = 1;
        c->head = head;
        c->wmen = men_of(e, 0, iw, wm);
        c->bmen = men_of(e, 1, ib, bm);
        c->gap = (c->wmen & c->bmen) != 0;
        if (!c->gap)
            c->wkings = kings_of(e, ikw, wk, c->wmen | c->bmen);
    }
    if (c->gap)
        return -1;
    bb_t bkings = kings_of(e, ikb, bk, c->wmen | c->bmen | c->wkings);
    p->w = c->wmen | c->wkings;
    p->b = c->bmen | bkings;
    p->k = c->wkings | bkings;
    p->side = side;
    p->csq[0] = p->csq[1] = -1;
    p->cn[0] = p->cn[1] = 0;
    return 0;
}

int eg_decode(const Egdb *e, const int sig[4], int side, uint64_t idx, Pos *p) {
    Decoded c = {0, 0, 0, 0, 0, 0};
    return decode(e, sig, side, idx, p, &c);
}

int eg_lookup(const Egdb *e, const Pos *p) {
    int sig;
    uint64_t idx;
    if (eg_index(e, p, &sig, &idx) < 0)
        return EG_BAD;
    const EgSlot *s = &e->slots[sig];
    if (!s->data)
        return EG_MISSING;
    uint64_t at = (uint64_t)p->side * s->half + idx;
    if (s->width == 1)
        return s->data[at];
    return s->data[2 * at] | (s->data[2 * at + 1] << 8);
}

/* ------------------------------------------------------------------ the solver */

typedef struct {
    const Egdb *e;
    const int *sig;
    uint64_t half, m;
    uint16_t *val, *rem, *wt, *dt;
    uint32_t *cur, *next, *ev;
    uint8_t *capt;                             /* bit id: the position has a capture */
    uint64_t ncur, nnext;
    uint64_t *ev_start;
    int last_event;
    int lone;                                  /* one side has no piece: nothing to take back */
    int ng;                                    /* symmetries used (identity first) */
    int swap;                                  /* half of them swap the colours: side 1 holds
                                                * no class's representative */
    uint8_t g[2 * 8][MAXSQ];                   /* each symmetry's map of the squares */
    uint8_t gswap[2 * 8];                      /* it swaps the colours and the side to move */
    int small;                                 /* the board fits in 64 bits */
} Work;

/* The image of a position by symmetry i (the colours and the side to move swapped by the
 * colour symmetries), from its pieces' squares, colours and kinds. */
static void image_of(const Work *w, int i, const uint8_t *sq, const uint8_t *black,
                     const uint8_t *king, int n, int side, Pos *out) {
    const uint8_t *g = w->g[i];
    int sw = w->gswap[i];
    if (w->small) { /* the board fits in 64 bits */
        uint64_t sw64[2] = {0, 0}, k64 = 0;
        for (int j = 0; j < n; j++) {
            uint64_t t = 1ULL << g[sq[j]];
            sw64[black[j] ^ sw] |= t;
            k64 |= king[j] ? t : 0;
        }
        out->w = sw64[0];
        out->b = sw64[1];
        out->k = k64;
        out->side = side ^ sw;
        return;
    }
    bb_t iw = 0, ib = 0, ik = 0;
    for (int j = 0; j < n; j++) {
        bb_t t = BIT(g[sq[j]]);
        if (black[j] ^ sw)
            ib |= t;
        else
            iw |= t;
        if (king[j])
            ik |= t;
    }
    out->w = iw;
    out->b = ib;
    out->k = ik;
    out->side = side ^ sw;
}

/* The class of a position under the symmetries (egdbsym.c): its representative, the image
 * with the smallest (side to move, white, black, kings), into rep, and how many of the
 * symmetries leave it as it is (stab). Returns whether p is its class's representative. The
 * solver decides the representatives only; a move into a class counts with a weight
 * (child_decided). With the colour swap, every representative has White to move. */
static int represent(const Work *w, const Pos *p, Pos *rep, int *stab) {
    *rep = *p;
    int same = 1, own = 1, n = 0, s;
    uint8_t sq[EG_MAXP], black[EG_MAXP], king[EG_MAXP];
    EACH(s, p->w | p->b) {
        sq[n] = (uint8_t)s;
        black[n] = (uint8_t)HAS(p->b, s);
        king[n++] = (uint8_t)HAS(p->k, s);
    }
    for (int i = 1; i < w->ng; i++) {
        Pos im;
        image_of(w, i, sq, black, king, n, p->side, &im);
        if (im.side == p->side && im.w == p->w && im.b == p->b && im.k == p->k) {
            same++;
            continue;
        }
        if (im.side < rep->side ||
            (im.side == rep->side &&
             (im.w < rep->w ||
              (im.w == rep->w && (im.b < rep->b || (im.b == rep->b && im.k < rep->k)))))) {
            rep->w = im.w;
            rep->b = im.b;
            rep->k = im.k;
            rep->side = im.side;
            own = 0;
        }
    }
    *stab = same;
    return own;
}

/* The slot of a position of the signature being solved. */
static uint64_t slot_of(const Work *w, const Pos *p) {
    int sig;
    uint64_t idx;
    eg_index(w->e, p, &sig, &idx);
    return (uint64_t)p->side * w->half + idx;
}

/* The value of a position without a legal move: the side to move loses (wins in a losing
 * game); in a variant won by the first king, the side that just moved has won if it has one. */
static uint16_t terminal_code(const Egdb *e, const Pos *p) {
    if (e->t->first_king_wins && p->k) {
        bb_t mover = p->side ? p->w : p->b;
        return code_of(0, (mover & p->k) ? 0 : 1);
    }
    return code_of(0, e->losing_game);
}

static int is_internal(const Move *m, const Pos *p) {
    return !m->ncap && !(m->ends_king && !HAS(p->k, m->orig));
}

/* The first pass over one position (see the top of the file). */
static int first_look(Work *w, Gen *g, uint64_t id, Decoded *dc) {
    const Egdb *e = w->e;
    int side = id >= w->half;
    Pos p;
    if (side && w->swap)
        return 0; /* every class has its representative with White to move */
    if (decode(e, w->sig, side, side ? id - w->half : id, &p, dc) < 0) {
        w->val[id] = GAP;
        return 0;
    }
    int stab;
    Pos rep;
    if (w->ng > 1 && !represent(w, &p, &rep, &stab))
        return 0; /* another of its class is solved: its value is written to this one when
                   * it is decided (images), else read at the end (class_value) */
    g->n = 0;
    int n = gen_moves(g, &p, DUP_SET);
    if (n < 0)
        return -4;
    if (n && g->moves[0].ncap)
        w->capt[id >> 3] |= (uint8_t)(1u << (id & 7));
    if (n == 0) {
        w->val[id] = terminal_code(e, &p);
        if (!w->lone)
            w->cur[w->ncur++] = (uint32_t)id;
        return 0;
    }
    int inside = 0, nolose = 0, exit_win = 0, win_at = 0, dec_at = 0;
    for (int i = 0; i < n; i++) {
        const Move *m = &g->moves[i];
        int internal = is_internal(m, &p);
        if (internal && !w->lone) {
            inside++;
            continue;
        }
        Pos c = p;
        play_move(e->t, &c, m);
        /* with one side bare, a move inside leaves it to move without a move: its value is
         * the end of the game's, an event like a move leaving the signature */
        int code = internal ? terminal_code(e, &c) : eg_lookup(e, &c);
        if (code == EG_MISSING || code == EG_BAD)
            return -2;
        if (code == 0) {
            nolose = 1;
            continue;
        }
        int d = (code - 1) >> 1;
        if ((code - 1) & 1) {
            exit_win = 1;
            if (d + 1 > dec_at)
                dec_at = d + 1;
        } else {
            nolose = 1;
            if (!win_at || d + 1 < win_at)
                win_at = d + 1;
        }
    }
    /* the moves to decide, in units of 1/ng (child_decided) */
    int units = (inside + exit_win) * w->ng;
    if (units >= NOLOSE)
        return -3;
    w->rem[id] = (uint16_t)(units | (nolose ? NOLOSE : 0));
    w->wt[id] = (uint16_t)win_at;
    w->dt[id] = (uint16_t)(exit_win ? dec_at : 0);
    return 0;
}

/* The moves leaving the signature as events by ply: ev holds, for each ply t from
 * ev_start[t] to ev_start[t + 1], ids with the top bit set for "a child decided as a win"
 * and clear for "a child decided as a loss". */
static int bucket_events(Work *w) {
    int top = 0;
    for (uint64_t id = 0; id < w->m; id++) {
        if (w->wt[id] > top)
            top = w->wt[id];
        if (w->dt[id] > top)
            top = w->dt[id];
    }
    w->last_event = top;
    w->ev_start = calloc((size_t)top + 2, sizeof(uint64_t));
    if (!w->ev_start)
        return -1;
    for (uint64_t id = 0; id < w->m; id++) {
        if (w->wt[id])
            w->ev_start[w->wt[id] + 1]++;
        if (w->dt[id])
            w->ev_start[w->dt[id] + 1]++;
    }
    for (int t = 1; t <= top + 1; t++)
        w->ev_start[t] += w->ev_start[t - 1];
    uint64_t total = w->ev_start[top + 1];
    w->ev = malloc((size_t)(total ? total : 1) * sizeof(uint32_t));
    uint64_t *fill = calloc((size_t)top + 2, sizeof(uint64_t));
    if (!w->ev || !fill) {
        free(fill);
        return -1;
    }
    for (uint64_t id = 0; id < w->m; id++) {
        if (w->wt[id])
            w->ev[w->ev_start[w->wt[id]] + fill[w->wt[id]]++] = (uint32_t)id;
        if (w->dt[id])
            w->ev[w->ev_start[w->dt[id]] + fill[w->dt[id]]++] = (uint32_t)id | 0x80000000u;
    }
    free(fill);
    return 0;
}

/* A child of position id was decided at ply t - 1: as a loss (the position wins at t) or
 * as a win (one move fewer to decide; when none is left and nothing saves it, it loses).
 * rem counts ng units a move; under the board symmetries a move taken back from a class's
 * lowest position q stands for units = (symmetries fixing the predecessor) * (positions of
 * q's class) of them: summed over the moves into q, the moves from the predecessor's class
 * into q's class, each once (orbit and stabiliser counting). */
static void child_decided(Work *w, uint64_t id, int child_won, int t, int units) {
    if (w->val[id])
        return;
    if (!child_won) {
        w->val[id] = code_of(t, 1);
        w->next[w->nnext++] = (uint32_t)id;
        return;
    }
    uint16_t r = (uint16_t)(w->rem[id] - units);
    w->rem[id] = r;
    if (r == 0) {
        w->val[id] = code_of(t, 0);
        w->next[w->nnext++] = (uint32_t)id;
    }
}

/* Write a decided position's code to the other positions of its class (so that a move
 * taken back into them is seen decided without finding the class's position). */
static void images(Work *w, const Pos *q, uint16_t code) {
    int n = 0, s;
    uint8_t sq[EG_MAXP], black[EG_MAXP], king[EG_MAXP];
    EACH(s, q->w | q->b) {
        sq[n] = (uint8_t)s;
        black[n] = (uint8_t)HAS(q->b, s);
        king[n++] = (uint8_t)HAS(q->k, s);
    }
    for (int i = 1; i < w->ng; i++) {
        Pos p = *q;
        image_of(w, i, sq, black, king, n, q->side, &p);
        w->val[slot_of(w, &p)] = code;
    }
}

/* The positions a move is taken back to, in batches: the solver's time goes to waiting for
 * their values (random places of arrays far larger than the caches), so a batch asks for
 * them all first (prefetch) and reads them after. Values only go from undecided to decided,
 * and each is read again just before it is used, so the batch decides as one at a time. */
#define BATCH 48

typedef struct {
    Pos p;
    uint64_t pid;
    int units;
} Cand;

static inline void ask(const Work *w, uint64_t pid) {
    __builtin_prefetch(&w->val[pid]);
}

/* The predecessors in c (their own slots asked for): those undecided, to their class's
 * representative (with the units their move stands for), which must have no capture (the
 * first pass marked those), and no king in a variant the first king wins. */
static void settle(Work *w, Cand *c, int n, int child_won, int t, int qclass) {
    const Table *tb = w->e->t;
    Pos rep;
    int k = 0;
    for (int i = 0; i < n; i++) {
        uint64_t pid = c[i].pid;
        if (w->val[pid])
            continue; /* decided already (or an image of a position decided) */
        int pstab = 1;
        if (w->ng > 1 && !represent(w, &c[i].p, &rep, &pstab)) {
            pid = slot_of(w, &rep);
            ask(w, pid);
        }
        __builtin_prefetch(&w->rem[pid]);
        __builtin_prefetch(&w->capt[pid >> 3]);
        c[k] = c[i];
        c[k].pid = pid;
        c[k++].units = pstab * qclass;
    }
    for (int i = 0; i < k; i++) {
        uint64_t pid = c[i].pid;
        if (w->val[pid] || (tb->first_king_wins && c[i].p.k) ||
            (w->capt[pid >> 3] >> (pid & 7) & 1))
            continue;
        child_decided(w, pid, child_won, t, c[i].units);
    }
}

/* Take back the quiet moves that led to position id (decided at ply t - 1). */
static void take_back(Work *w, uint64_t id, int t) {
    const Egdb *e = w->e;
    int qside = id >= w->half;
    Pos q;
    if (eg_decode(e, w->sig, qside, qside ? id - w->half : id, &q) < 0)
        return;
    int child_won = (w->val[id] - 1) & 1;
    int mover = 1 - qside, qstab = 1;
    Pos rep;
    if (w->ng > 1)
        represent(w, &q, &rep, &qstab);
    int qclass = w->ng / qstab;
    if (w->ng > 1)
        images(w, &q, w->val[id]);
    bb_t own = mover ? q.b : q.w, occ = q.w | q.b;
    Cand c[BATCH];
    int nc = 0, d;
    EACH(d, own) {
        int king = HAS(q.k, d);
        int n = king ? e->rk_n[d] : e->rm_n[mover][d];
        for (int j = 0; j < n; j++) {
            int o = king ? e->rk_o[d][j] : e->rm_o[mover][d][j];
            if (HAS(occ, o))
                continue;
            if (king ? (e->rk_between[d][j] & occ) != 0 : !HAS(e->man_ok[mover], o))
                continue;
            /* the move o-d is one of p's quiet moves by the tables (the squares between
             * empty); a man came from a square it may stand on: p is indexed */
            Pos *p = &c[nc].p;
            *p = q;
            bb_t swap = BIT(o) | BIT(d);
            if (mover)
                p->b ^= swap;
            else
                p->w ^= swap;
            if (king)
                p->k ^= swap;
            p->side = mover;
            c[nc].pid = slot_of(w, p);
            ask(w, c[nc++].pid);
            if (nc == BATCH) {
                settle(w, c, nc, child_won, t, qclass);
                nc = 0;
            }
        }
    }
    settle(w, c, nc, child_won, t, qclass);
}

/* The value of a position not solved itself: its class's lowest position's (GAP: a gap). */
static uint16_t class_value(const Work *w, uint64_t id) {
    int side = id >= w->half, stab;
    Pos p, rep;
    if (eg_decode(w->e, w->sig, side, side ? id - w->half : id, &p) < 0)
        return GAP;
    represent(w, &p, &rep, &stab);
    return w->val[slot_of(w, &rep)];
}

static void work_free(Work *w) {
    free(w->val);
    free(w->rem);
    free(w->wt);
    free(w->dt);
    free(w->cur);
    free(w->next);
    free(w->ev);
    free(w->ev_start);
    free(w->capt);
}

static int propagate(Work *w, EgStats *st) {
    for (int t = 1;; t++) {
        if (t > MAXPLIES)
            return -3;
        w->nnext = 0;
        for (uint64_t i = 0; i < w->ncur; i++)
            take_back(w, w->cur[i], t);
        if (t <= w->last_event)
            for (uint64_t i = w->ev_start[t]; i < w->ev_start[t + 1]; i++) {
                uint32_t x = w->ev[i];
                child_decided(w, x & 0x7FFFFFFFu, (x >> 31) != 0, t, w->ng);
            }
        st->passes = t;
        if (!w->nnext && t >= w->last_event)
            return 0;
        uint32_t *tmp = w->cur;
        w->cur = w->next;
        w->next = tmp;
        w->ncur = w->nnext;
    }
}

/* The symmetries a signature's solve uses: the board's that keep the colours (the identity
 * first), and where the signature is its own colour-swapped one (K+M v K+M, 2K v 2K) and the
 * tables are the same for both colours, each of them after the colour swap (the half-turn
 * with the colours and the side to move swapped, egdbsym.c) too. The half-turn commutes with
 * every turn and reflection of the board, so they are a group twice the size. */
static void symmetries_of(Work *w, const Egdb *e, const int sig[4], int kings_only) {
    int nb = e->use_sym ? e->nsym[kings_only] : 1;
    for (int i = 0; i < nb; i++) {
        if (e->use_sym)
            memcpy(w->g[i], e->sym[kings_only][i], MAXSQ);
        else
            for (int s = 0; s < MAXSQ; s++)
                w->g[i][s] = (uint8_t)s;
        w->gswap[i] = 0;
    }
    w->ng = nb;
    w->swap = e->use_sym && e->symmetric && sig[0] == sig[2] && sig[1] == sig[3];
    if (!w->swap)
        return;
    for (int i = 0; i < nb; i++) {
        for (int s = 0; s < e->nsq; s++)
            w->g[nb + i][s] = w->g[i][e->rot[s]];
        w->gswap[nb + i] = 1;
    }
    w->ng = 2 * nb;
}

int eg_solve(const Egdb *e, const int sig[4], uint16_t *out, EgStats *st) {
    Work w;
    memset(&w, 0, sizeof w);
    memset(st, 0, sizeof *st);
    w.e = e;
    w.sig = sig;
    int kings_only = !sig[0] && !sig[2];
    w.lone = !(sig[0] + sig[1]) || !(sig[2] + sig[3]);
    symmetries_of(&w, e, sig, kings_only);
    w.small = e->nsq <= 64;
    w.half = eg_half(e, sig[0], sig[1], sig[2], sig[3]);
    w.m = 2 * w.half;
    if (w.m >= 0x80000000ULL)
        return -3;
    size_t m = (size_t)(w.m ? w.m : 1);
    w.val = calloc(m, 2);
    w.rem = calloc(m, 2);
    w.wt = calloc(m, 2);
    w.dt = calloc(m, 2);
    w.cur = malloc(m * 4);
    w.next = malloc(m * 4);
    w.capt = calloc(m / 8 + 1, 1);
    int rc = 0;
    if (!w.val || !w.rem || !w.wt || !w.dt || !w.cur || !w.next || !w.capt)
        rc = -1;
    Gen g;
    gen_init(&g, e->t);
    Decoded dc = {0, 0, 0, 0, 0, 0};
    for (uint64_t id = 0; id < w.m && !rc; id++)
        rc = first_look(&w, &g, id, &dc);
    gen_free(&g);
    if (!rc)
        rc = bucket_events(&w);
    if (!rc)
        rc = propagate(&w, st);
    if (!rc)
        for (uint64_t id = 0; id < w.m; id++) {
            uint16_t v = w.val[id];
            if (!v && w.ng > 1)
                v = class_value(&w, id); /* a draw, or a position of a class never taken
                                          * back into (its own is written by images) */
            out[id] = v == GAP ? 0 : v;
            if (v != GAP)
                eg_count(st, v);
        }
    work_free(&w);
    return rc;
}

void eg_count(EgStats *st, uint16_t v) {
    st->positions++;
    if (!v) {
        st->draws++;
        return;
    }
    int d = (v - 1) >> 1;
    if ((v - 1) & 1)
        st->wins++;
    else
        st->losses++;
    if (d > st->max_plies)
        st->max_plies = d;
}
