/* Endgame databases: the colour symmetry (egdb.h).
 *
 * Turn the board half a turn and swap the colours: White's men become Black's, moving the
 * other way. Where the variant's tables are the same for both colours under that turn (its
 * promotion squares, the men's steps and jumps, the kings' jumps and rays, the directions of
 * the direction-aware search), a position and its turned one have the same value, so the
 * signature (wm, wk, bm, bk) with one side to move holds the values of (bm, bk, wm, wk) with
 * the other. eg_symmetry checks the tables (nothing is assumed of a variant); eg_mirror reads
 * a signature's codes off its mirror's instead of solving it.
 */
#include <string.h>

#include "egdb.h"

static inline int low(bb_t x) {
    uint64_t lo = (uint64_t)x;
    if (lo)
        return __builtin_ctzll(lo);
    return 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

static bb_t image(const uint8_t *g, bb_t x) {
    bb_t out = 0;
    for (; x; x &= x - 1)
        out |= BIT(g[low(x)]);
    return out;
}

static bb_t turn(const Egdb *e, bb_t x) { return image(e->rot, x); }

/* The same set of squares (a list of n) once mapped by g: b holds the mapped a, any order. */
static int same_set(const uint8_t *g, const uint8_t *a, const uint8_t *b, int n) {
    bb_t x = 0, y = 0;
    for (int i = 0; i < n; i++) {
        x |= BIT(g[a[i]]);
        y |= BIT(b[i]);
    }
    return x == y;
}

/* Each of the n pairs (or rays, as sequences of len) of a mapped by g is one of b's. */
static int same_pairs(const uint8_t *g, const uint8_t (*a)[2], const uint8_t (*b)[2], int n) {
    for (int i = 0; i < n; i++) {
        int found = 0;
        for (int j = 0; j < n && !found; j++)
            found = b[j][0] == g[a[i][0]] && b[j][1] == g[a[i][1]];
        if (!found)
            return 0;
    }
    return 1;
}

static int same_ray(const uint8_t *g, const uint8_t *a, int na, const uint8_t *b, int nb) {
    if (na != nb)
        return 0;
    for (int k = 0; k < na; k++)
        if (b[k] != g[a[k]])
            return 0;
    return 1;
}

static int same_rays(const uint8_t *g, int na, const uint8_t *la, const uint8_t (*a)[MAXRAY],
                     int nb, const uint8_t *lb, const uint8_t (*b)[MAXRAY]) {
    if (na != nb)
        return 0;
    for (int i = 0; i < na; i++) {
        int found = 0;
        for (int j = 0; j < nb && !found; j++)
            found = same_ray(g, a[i], la[i], b[j], lb[j]);
        if (!found)
            return 0;
    }
    return 1;
}

static int same_dirs(const Table *t, const uint8_t *a, int na, const uint8_t *b, int nb) {
    if (na != nb)
        return 0;
    for (int i = 0; i < na; i++) {
        int found = 0;
        for (int j = 0; j < nb && !found; j++)
            found = t->opposite[a[i]] == b[j];
        if (!found)
            return 0;
    }
    return 1;
}

/* The direction-aware search's tables: a ray of direction d from s, turned, is the ray of
 * the opposite direction from the turned square; the men's directions of one side are the
 * opposites of the other's, the kings' closed under opposites. */
static int directional_turns(const Egdb *e) {
    const Table *t = e->t;
    for (int d = 0; d < t->ndir; d++)
        if (t->opposite[d] < 0)
            return 0;
    for (int s = 0; s < t->nsq; s++)
        for (int d = 0; d < t->ndir; d++) {
            int r = e->rot[s], od = t->opposite[d];
            if (!same_ray(e->rot, t->dr[s][d], t->dr_len[s][d], t->dr[r][od], t->dr_len[r][od]))
                return 0;
        }
    return same_dirs(t, t->man_dirs[0], t->man_dirs_n[0], t->man_dirs[1], t->man_dirs_n[1]) &&
           same_dirs(t, t->king_dirs, t->king_dirs_n, t->king_dirs, t->king_dirs_n);
}

static int tables_turn(const Egdb *e) {
    const Table *t = e->t;
    if (turn(e, t->promo[0]) != t->promo[1] || turn(e, t->promo[1]) != t->promo[0] ||
        turn(e, e->man_ok[0]) != e->man_ok[1] || turn(e, e->man_ok[1]) != e->man_ok[0])
        return 0;
    for (int s = 0; s < t->nsq; s++) {
        int r = e->rot[s];
        for (int side = 0; side < 2; side++) {
            int other = 1 - side;
            if (t->ms_n[side][s] != t->ms_n[other][r] ||
                !same_set(e->rot, t->ms[side][s], t->ms[other][r], t->ms_n[side][s]))
                return 0;
            if (t->mj_n[side][s] != t->mj_n[other][r] ||
                !same_pairs(e->rot, t->mj[side][s], t->mj[other][r], t->mj_n[side][s]))
                return 0;
        }
        if (t->kj_n[s] != t->kj_n[r] || !same_pairs(e->rot, t->kj[s], t->kj[r], t->kj_n[s]))
            return 0;
        if (!same_rays(e->rot, t->kr_n[s], t->kr_len[s], t->kr[s], t->kr_n[r], t->kr_len[r],
                       t->kr[r]) ||
            !same_rays(e->rot, t->qr_n[s], t->qr_len[s], t->qr[s], t->qr_n[r], t->qr_len[r], t->qr[r]))
            return 0;
    }
    return !t->directional || directional_turns(e);
}

void eg_symmetry(Egdb *e) {
    const Table *t = e->t;
    e->symmetric = 0;
    for (int s = 0; s < t->nsq; s++) {
        int f = t->width - 1 - t->file_of[s], r = t->height - 1 - t->rank_of[s];
        if (f < 0 || r < 0 || !t->coord_sq[f][r])
            return;
        e->rot[s] = (uint8_t)(t->coord_sq[f][r] - 1);
    }
    e->symmetric = tables_turn(e);
}

/* ------------------------------------------------------------------ board symmetries
 *
 * A turn or a reflection of the board that keeps the colours (Turkish's left-right mirror;
 * on the dark squares of 8x8 and 10x10 boards, the diagonal reflections and the half-turn for
 * kings alone): where the variant's tables are the same under it -- the kings' rays and jumps
 * and the directions of the direction-aware search, and for a signature with men the men's
 * steps, jumps and promotion squares too -- a position and its image have the same value, and
 * the solver works on one position of each class (egdb.c). Checked here, never assumed.
 */

/* The board's transform ``which`` (bit 4: swap file and rank, then bit 1: mirror the
 * files, bit 2: the ranks) as a map of squares; 0 where it takes a square off the board. */
static int board_map(const Table *t, int which, uint8_t *g) {
    if ((which & 4) && t->width != t->height)
        return 0;
    for (int s = 0; s < t->nsq; s++) {
        int f = t->file_of[s], r = t->rank_of[s];
        if (which & 4) {
            int x = f;
            f = r;
            r = x;
        }
        if (which & 1)
            f = t->width - 1 - f;
        if (which & 2)
            r = t->height - 1 - r;
        if (f < 0 || r < 0 || f >= MAXSIDE || r >= MAXSIDE || !t->coord_sq[f][r])
            return 0;
        g[s] = (uint8_t)(t->coord_sq[f][r] - 1);
    }
    return 1;
}

/* The direction each direction becomes under g (the direction-aware search's rays). */
static int dir_map(const Table *t, const uint8_t *g, int8_t *dm) {
    for (int d = 0; d < t->ndir; d++) {
        dm[d] = -1;
        for (int d2 = 0; d2 < t->ndir && dm[d] < 0; d2++) {
            int ok = 1;
            for (int s = 0; s < t->nsq && ok; s++)
                ok = same_ray(g, t->dr[s][d], t->dr_len[s][d], t->dr[g[s]][d2],
                              t->dr_len[g[s]][d2]);
            if (ok)
                dm[d] = (int8_t)d2;
        }
        if (dm[d] < 0)
            return 0;
    }
    for (int d = 0; d < t->ndir; d++) {
        int o = t->opposite[d];
        if ((o < 0) != (t->opposite[dm[d]] < 0) || (o >= 0 && t->opposite[dm[d]] != dm[o]))
            return 0;
    }
    return 1;
}

static int same_dir_set(const int8_t *dm, const uint8_t *a, int na, const uint8_t *b, int nb) {
    unsigned x = 0, y = 0;
    for (int i = 0; i < na; i++)
        x |= 1u << dm[a[i]];
    for (int i = 0; i < nb; i++)
        y |= 1u << b[i];
    return na == nb && x == y;
}

static int preserves(const Egdb *e, const uint8_t *g, int men) {
    const Table *t = e->t;
    for (int s = 0; s < t->nsq; s++) {
        int r = g[s];
        if (t->kj_n[s] != t->kj_n[r] || !same_pairs(g, t->kj[s], t->kj[r], t->kj_n[s]) ||
            !same_rays(g, t->kr_n[s], t->kr_len[s], t->kr[s], t->kr_n[r], t->kr_len[r],
                       t->kr[r]) ||
            !same_rays(g, t->qr_n[s], t->qr_len[s], t->qr[s], t->qr_n[r], t->qr_len[r],
                       t->qr[r]))
            return 0;
        for (int side = 0; men && side < 2; side++)
            if (t->ms_n[side][s] != t->ms_n[side][r] ||
                !same_set(g, t->ms[side][s], t->ms[side][r], t->ms_n[side][s]) ||
                t->mj_n[side][s] != t->mj_n[side][r] ||
                !same_pairs(g, t->mj[side][s], t->mj[side][r], t->mj_n[side][s]))
                return 0;
    }
    for (int side = 0; men && side < 2; side++)
        if (image(g, t->promo[side]) != t->promo[side] ||
            image(g, e->man_ok[side]) != e->man_ok[side])
            return 0;
    if (!t->directional)
        return 1;
    int8_t dm[MAXDIR];
    if (!dir_map(t, g, dm) ||
        !same_dir_set(dm, t->king_dirs, t->king_dirs_n, t->king_dirs, t->king_dirs_n))
        return 0;
    for (int side = 0; men && side < 2; side++)
        if (!same_dir_set(dm, t->man_dirs[side], t->man_dirs_n[side], t->man_dirs[side],
                          t->man_dirs_n[side]))
            return 0;
    return 1;
}

void eg_board_symmetries(Egdb *e) {
    for (int k = 0; k < 2; k++) { /* 0: signatures with men, 1: kings alone */
        e->nsym[k] = 0;
        for (int which = 0; which < 8; which++) {
            uint8_t g[MAXSQ];
            if (board_map(e->t, which, g) && (!which || preserves(e, g, k == 0)))
                memcpy(e->sym[k][e->nsym[k]++], g, MAXSQ);
        }
    }
}

int eg_mirror(const Egdb *e, const int sig[4], uint16_t *out, EgStats *st) {
    memset(st, 0, sizeof *st);
    if (!e->symmetric)
        return -5;
    uint64_t half = eg_half(e, sig[0], sig[1], sig[2], sig[3]);
    for (uint64_t id = 0; id < 2 * half; id++) {
        int side = id >= half;
        Pos p;
        if (eg_decode(e, sig, side, side ? id - half : id, &p) < 0) {
            out[id] = 0;
            continue;
        }
        Pos q = p;
        q.w = turn(e, p.b);
        q.b = turn(e, p.w);
        q.k = turn(e, p.k);
        q.side = 1 - side;
        int code = eg_lookup(e, &q);
        if (code == EG_MISSING || code == EG_BAD)
            return -2;
        out[id] = (uint16_t)code;
        eg_count(st, out[id]);
    }
    return 0;
}
