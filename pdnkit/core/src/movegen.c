/* The generic move generator: the same searches as pdnkit/rules/_movegen.py, in the same order.
 *
 * Every rule comes from the table: which jumps a man or a king has from each square, the rays
 * of flying kings, promotion squares, removal timing, what a man crowned during a capture does,
 * the capture precedence keys, the king-move limit, "the first king wins". The order in which
 * the searches visit jumps and rays is the reference engine's, so that of several routes of
 * one capture (same origin, destination and captured set) the same one is listed first.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* The bits of one word: the POPCNT instruction where the build targets it, else the
 * classic SWAR count inline (the builtin would call libgcc's __popcountdi2 for each word). */
static inline int pop64(uint64_t x) {
#if defined(__POPCNT__)
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

int popcount(bb_t x) {
    return pop64((uint64_t)x) + pop64((uint64_t)(x >> 64));
}

static inline int lowbit(bb_t x) {
    uint64_t lo = (uint64_t)x;
    if (lo)
        return __builtin_ctzll(lo);
    return 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

#define FOR_BITS(s, set) for (bb_t _x = (set); _x && ((s) = lowbit(_x), 1); _x &= _x - 1)

void gen_init(Gen *g, const Table *t) {
    memset(g, 0, sizeof *g);
    g->t = t;
    /* bounds for hostile positions (real games stay far below them): about a second of
     * search and 70 MB of routes; beyond them the search stops with an error */
    g->node_limit = 20000000L;
    g->max_moves = 250000;
}

void gen_free(Gen *g) {
    free(g->moves);
    g->moves = NULL;
    g->n = g->cap = 0;
}

static Move *new_move(Gen *g) {
    if (g->n >= g->cap) {
        if (g->n >= g->max_moves) {
            g->err = 2;
            return NULL;
        }
        int cap = g->cap ? g->cap * 2 : 256;
        Move *m = realloc(g->moves, (size_t)cap * sizeof(Move));
        if (!m) {
            g->err = 1;
            return NULL;
        }
        g->moves = m;
        g->cap = cap;
    }
    return &g->moves[g->n++];
}

static void add_quiet(Gen *g, int o, int d, int ek) {
    Move *m = new_move(g);
    if (!m)
        return;
    m->orig = (uint8_t)o;
    m->dest = (uint8_t)d;
    m->ncap = 0;
    m->ends_king = (uint8_t)ek;
    m->npath = 2;
    m->path[0] = (uint8_t)o;
    m->path[1] = (uint8_t)d;
    m->capmask = 0;
}

/* ------------------------------------------------------------------ fast queries */

static inline void sides(const Pos *p, bb_t *own, bb_t *opp) {
    *own = p->side ? p->b : p->w;
    *opp = p->side ? p->w : p->b;
}

/* x moved by `by` squares (toward higher squares when positive). */
static inline bb_t shifted(bb_t x, int by) {
    return by >= 0 ? x << by : x >> -by;
}

/* The men of `men` that have a first jump (a piece of `target` next to them, an empty square
 * behind it): the only ones a capture search can start from. `any`: stop at the first group
 * that has one (all has_capture needs). */
static bb_t jumping_men(const Table *t, const Pos *p, bb_t men, bb_t target, bb_t empty,
                        int any) {
    const int side = p->side;
    bb_t out = 0;
    int s;
    if (t->groups_ok[side]) {
        const int *over = t->jg_over[side], *land = t->jg_land[side];
        const bb_t *mask = t->jg_mask[side];
        const int down = t->jg_down[side], up = down + t->jg_up[side], n = t->jg_n[side];
        int g = 0;
        if (t->nsq <= 64) { /* (one word: every set here is within the board) */
            const uint64_t m = (uint64_t)men, x = (uint64_t)target, e = (uint64_t)empty;
            uint64_t o = 0;
            for (; g < down && !(any && o); g++)
                o |= m & (uint64_t)mask[g] & (x << -over[g]) & (e << -land[g]);
            for (; g < up && !(any && o); g++)
                o |= m & (uint64_t)mask[g] & (x >> over[g]) & (e >> land[g]);
            out = o;
        }
        /* (the groups by direction, table.c's sort_groups: one shift each way, no branch) */
        for (; g < down && !(any && out); g++) /* captured and landing square lower */
            out |= men & mask[g] & (target << -over[g]) & (empty << -land[g]);
        for (; g < up && !(any && out); g++) /* ... higher */
            out |= men & mask[g] & (target >> over[g]) & (empty >> land[g]);
        for (; g < n && !(any && out); g++)
            out |= men & mask[g] & shifted(target, -over[g]) & shifted(empty, -land[g]);
        return out;
    }
    FOR_BITS(s, men) {
        if (any && out)
            break;
        if (!(target & t->mj_near[side][s]))
            continue; /* no piece to take next to this man */
        for (int j = 0; j < t->mj_n[side][s]; j++)
            if (HAS(target, t->mj[side][s][j][0]) && HAS(empty, t->mj[side][s][j][1])) {
                out |= BIT(s);
                break;
            }
    }
    return out;
}

int has_capture(const Table *t, const Pos *p) {
    bb_t own, opp;
    int s;
    if (t->first_king_wins && p->k)
        return 0;
    sides(p, &own, &opp);
    bb_t empty = t->board & ~(own | opp);
    bb_t target = t->men_take_kings ? opp : opp & ~p->k;
    if (jumping_men(t, p, own & ~p->k, target, empty, 1))
        return 1;
    FOR_BITS(s, own & p->k) {
        if (t->flying) {
            for (int r = 0; r < t->kr_n[s]; r++) {
                const uint8_t *ray = t->kr[s][r];
                int n = t->kr_len[s][r], k = 0;
                while (k < n && HAS(empty, ray[k]))
                    k++;
                if (k < n - 1 && HAS(opp, ray[k]) && HAS(empty, ray[k + 1]))
                    return 1;
            }
        } else {
            for (int j = 0; j < t->kj_n[s]; j++)
                if (HAS(opp, t->kj[s][j][0]) && HAS(empty, t->kj[s][j][1]))
                    return 1;
        }
    }
    return 0;
}

/* The king of the side to move that the king-move limit stops (-1: none). */
static int limited_king(const Table *t, const Pos *p, bb_t own) {
    if (t->king_limit && (own & ~p->k) && p->csq[p->side] >= 0 &&
        p->cn[p->side] >= t->king_limit)
        return p->csq[p->side];
    return -1;
}

/* Is the quiet move o-d legal, captures aside? 0 no, 1 a man's step, 2 a man's step that
 * crowns, 3 a king's move (Engine.quiet_step). */
int quiet_step(const Table *t, const Pos *p, int o, int d) {
    bb_t own, opp;
    if (o < 0 || d < 0 || o >= t->nsq || d >= t->nsq)
        return 0;
    if (t->first_king_wins && p->k)
        return 0;
    sides(p, &own, &opp);
    if (!HAS(own, o))
        return 0;
    bb_t occ = own | opp;
    if (HAS(p->k, o)) {
        for (int r = 0; r < t->qr_n[o]; r++)
            for (int k = 0; k < t->qr_len[o][r]; k++) {
                int s = t->qr[o][r][k];
                if (HAS(occ, s))
                    break;
                if (s == d)
                    return limited_king(t, p, own) == o ? 0 : 3;
            }
        return 0;
    }
    for (int j = 0; j < t->ms_n[p->side][o]; j++)
        if (t->ms[p->side][o][j] == d)
            return HAS(occ, d) ? 0 : (HAS(t->promo[p->side], d) ? 2 : 1);
    return 0;
}

int count_quiet(const Table *t, const Pos *p) {
    bb_t own, opp;
    int s, n = 0;
    if (t->first_king_wins && p->k)
        return 0;
    sides(p, &own, &opp);
    bb_t empty = t->board & ~(own | opp);
    if (t->groups_ok[p->side]) { /* each group: the men that step the same way, at once */
        const int side = p->side;
        bb_t men = own & ~p->k;
        int g = 0;
        for (; g < t->qg_up[side]; g++) /* (sort_groups: toward higher squares first) */
            n += popcount(((men & t->qg_mask[side][g]) << t->qg_shift[side][g]) & empty);
        for (; g < t->qg_n[side]; g++)
            n += popcount(shifted(men & t->qg_mask[side][g], t->qg_shift[side][g]) & empty);
    } else FOR_BITS(s, own & ~p->k) {
        for (int j = 0; j < t->ms_n[p->side][s]; j++)
            n += HAS(empty, t->ms[p->side][s][j]);
    }
    int stopped = limited_king(t, p, own);
    FOR_BITS(s, own & p->k) {
        if (s == stopped)
            continue;
        for (int r = 0; r < t->qr_n[s]; r++)
            for (int k = 0; k < t->qr_len[s][r] && HAS(empty, t->qr[s][r][k]); k++)
                n++;
    }
    return n;
}

int gen_quiet(Gen *g, const Pos *p) {
    const Table *t = g->t;
    bb_t own, opp;
    int s, base = g->n;
    if (t->first_king_wins && p->k)
        return 0;
    sides(p, &own, &opp);
    bb_t empty = t->board & ~(own | opp);
    FOR_BITS(s, own & ~p->k) {
        for (int j = 0; j < t->ms_n[p->side][s]; j++) {
            int d = t->ms[p->side][s][j];
            if (HAS(empty, d))
                add_quiet(g, s, d, HAS(t->promo[p->side], d));
        }
    }
    int stopped = limited_king(t, p, own);
    FOR_BITS(s, own & p->k) {
        if (s == stopped)
            continue;
        for (int r = 0; r < t->qr_n[s]; r++)
            for (int k = 0; k < t->qr_len[s][r] && HAS(empty, t->qr[s][r][k]); k++)
                add_quiet(g, s, t->qr[s][r][k], 1);
    }
    return g->err ? -1 : g->n - base;
}

/* ------------------------------------------------------------------ capture search */

static void record(Gen *g, int dest, bb_t ncap, int ek, int prune) {
    if (prune && g->prune) { /* sequences that lose on the first precedence key are never kept */
        int v = g->by_value ? popcount(ncap & ~g->kings) * 100 + popcount(ncap & g->kings) * 199
                            : popcount(ncap);
        if (v < g->best)
            return;
        if (v > g->best) {
            g->best = v;
            g->n = g->base;
        }
    }
    Move *m = new_move(g);
    if (!m)
        return;
    m->orig = g->orig;
    m->dest = (uint8_t)dest;
    m->capmask = ncap;
    m->ends_king = (uint8_t)ek;
    m->ncap = (uint8_t)g->norder;
    memcpy(m->cap, g->order, (size_t)g->norder);
    m->npath = (uint8_t)g->npath;
    memcpy(m->path, g->path, (size_t)g->npath);
}

static int budget(Gen *g) {
    if (g->err)
        return 0;
    if (++g->nodes > g->node_limit) {
        g->err = 2;
        return 0;
    }
    return 1;
}

static int king_dfs(Gen *g, int i, bb_t captured, bb_t empty);

static int man_dfs(Gen *g, int i, bb_t captured, bb_t empty) {
    const Table *t = g->t;
    int extended = 0;
    if (!budget(g))
        return 1;
    for (int j = 0; j < t->mj_n[g->side][i]; j++) {
        int c = t->mj[g->side][i][j][0], l = t->mj[g->side][i][j][1];
        if (!HAS(g->men_target, c) || HAS(captured, c) || !HAS(empty, l))
            continue;
        extended = 1;
        bb_t ncap = captured | BIT(c);
        bb_t nempty = t->immediate ? empty | BIT(c) : empty;
        g->order[g->norder++] = (uint8_t)c;
        g->path[g->npath++] = (uint8_t)l;
        if (HAS(g->promo, l)) {
            int cont = 0;
            if (t->promotion == PROMO_KING)
                cont = king_dfs(g, l, ncap, nempty);
            else if (t->promotion == PROMO_PASS)
                cont = man_dfs(g, l, ncap, nempty);
            if (!cont)
                record(g, l, ncap, 1, 1);
        } else if (!man_dfs(g, l, ncap, nempty)) {
            record(g, l, ncap, 0, 1);
        }
        g->npath--;
        g->norder--;
    }
    return extended;
}

static int king_dfs(Gen *g, int i, bb_t captured, bb_t empty) {
    const Table *t = g->t;
    int extended = 0;
    if (!budget(g))
        return 1;
    if (!t->flying) {
        for (int j = 0; j < t->kj_n[i]; j++) {
            int c = t->kj[i][j][0], l = t->kj[i][j][1];
            if (!HAS(g->opp, c) || HAS(captured, c) || !HAS(empty, l))
                continue;
            bb_t ncap = captured | BIT(c);
            g->order[g->norder++] = (uint8_t)c;
            g->path[g->npath++] = (uint8_t)l;
            if (!king_dfs(g, l, ncap, t->immediate ? empty | BIT(c) : empty))
                record(g, l, ncap, 1, 1);
            g->npath--;
            g->norder--;
            extended = 1;
        }
        return extended;
    }
    for (int r = 0; r < t->kr_n[i]; r++) {
        const uint8_t *ray = t->kr[i][r];
        int n = t->kr_len[i][r], k = 0;
        while (k < n && HAS(empty, ray[k]))
            k++;
        if (k >= n - 1)
            continue;
        int c = ray[k];
        if (!HAS(g->opp, c) || HAS(captured, c))
            continue;
        k++;
        if (!HAS(empty, ray[k]))
            continue;
        bb_t ncap = captured | BIT(c);
        bb_t nempty = t->immediate ? empty | BIT(c) : empty;
        uint8_t ends[MAXRAY];
        int nends = 0, cont = 0;
        g->order[g->norder++] = (uint8_t)c;
        for (; k < n && HAS(nempty, ray[k]); k++) {
            g->path[g->npath++] = ray[k];
            if (king_dfs(g, ray[k], ncap, nempty))
                cont = 1;
            else
                ends[nends++] = ray[k];
            g->npath--;
            if (t->lands_behind)
                break;
        }
        if (!cont)
            for (int e = 0; e < nends; e++) {
                g->path[g->npath++] = ends[e];
                record(g, ends[e], ncap, 1, 1);
                g->npath--;
            }
        g->norder--;
        extended = 1;
    }
    return extended;
}

/* LinesEngine._directional_captures: a search that knows the direction of each jump. */
static int dir_dfs(Gen *g, int i, int king, bb_t captured, bb_t empty, int last) {
    const Table *t = g->t;
    int extended = 0;
    if (!budget(g))
        return 1;
    int banned = last >= 0 ? t->opposite[last] : -2;
    int fly = king && t->flying;
    bb_t target = king ? g->opp : g->men_target;
    int nd = king ? t->king_dirs_n : t->man_dirs_n[g->side];
    const uint8_t *dirs = king ? t->king_dirs : t->man_dirs[g->side];
    for (int x = 0; x < nd; x++) {
        int di = dirs[x];
        if (di == banned)
            continue;
        const uint8_t *ray = t->dr[i][di];
        int n = t->dr_len[i][di], k = 0;
        if (fly)
            while (k < n && HAS(empty, ray[k]))
                k++;
        if (k >= n - 1)
            continue;
        int c = ray[k];
        if (!HAS(target, c) || HAS(captured, c))
            continue;
        k++;
        if (!HAS(empty, ray[k]))
            continue;
        extended = 1;
        bb_t ncap = captured | BIT(c);
        bb_t nempty = t->immediate ? empty | BIT(c) : empty;
        uint8_t ends[MAXRAY], crowned_at[MAXRAY];
        int nends = 0, cont = 0;
        g->order[g->norder++] = (uint8_t)c;
        for (; k < n && HAS(nempty, ray[k]); k++) {
            int li = ray[k];
            g->path[g->npath++] = (uint8_t)li;
            int crowned = king || HAS(g->promo, li);
            if (!king && crowned && t->promotion == PROMO_STOP) {
                ends[nends] = (uint8_t)li;
                crowned_at[nends++] = 1;
            } else if (dir_dfs(g, li, king || (crowned && t->promotion == PROMO_KING), ncap,
                               nempty, di)) {
                cont = 1;
            } else {
                ends[nends] = (uint8_t)li;
                crowned_at[nends++] = (uint8_t)crowned;
            }
            g->npath--;
            if (!fly || t->lands_behind)
                break;
        }
        if (!cont)
            for (int e = 0; e < nends; e++) {
                g->path[g->npath++] = ends[e];
                record(g, ends[e], ncap, crowned_at[e], 0);
                g->npath--;
            }
        g->norder--;
    }
    return extended;
}

/* The king-index sequence comparison of first_king_earliest (Italian choice rule 4): the
 * positions of the captured kings in capture order; an earlier king wins, and of two
 * sequences where one continues the other, the longer one. */
static int king_order_cmp(const Move *a, const Move *b, bb_t kings) {
    int i = 0, j = 0;
    for (;;) {
        while (i < a->ncap && !HAS(kings, a->cap[i]))
            i++;
        while (j < b->ncap && !HAS(kings, b->cap[j]))
            j++;
        int ea = i >= a->ncap, eb = j >= b->ncap;
        if (ea || eb)
            return ea && eb ? 0 : (ea ? -1 : 1);
        if (i != j)
            return i < j ? 1 : -1;
        i++;
        j++;
    }
}

static long key_value(const Move *m, int key, bb_t kings) {
    switch (key) {
    case KEY_MAX_COUNT:
        return popcount(m->capmask);
    case KEY_MAX_VALUE:
        return popcount(m->capmask & ~kings) * 100L + popcount(m->capmask & kings) * 199L;
    case KEY_KING_CAPTURER:
        return HAS(kings, m->orig);
    default: /* KEY_MAX_KINGS */
        return popcount(m->capmask & kings);
    }
}

/* Engine._select: keep, key after key, the moves with the best value. */
static void select_best(Gen *g, int base, int nprec, bb_t kings) {
    for (int ki = 0; ki < nprec && g->n - base > 1; ki++) {
        int key = g->t->prec[ki], keep = base, best = base;
        if (key == KEY_FIRST_KING_EARLIEST) {
            for (int i = base + 1; i < g->n; i++)
                if (king_order_cmp(&g->moves[i], &g->moves[best], kings) > 0)
                    best = i;
            Move top = g->moves[best];
            for (int i = base; i < g->n; i++)
                if (king_order_cmp(&g->moves[i], &top, kings) == 0)
                    g->moves[keep++] = g->moves[i];
        } else {
            long top = key_value(&g->moves[base], key, kings);
            for (int i = base + 1; i < g->n; i++) {
                long v = key_value(&g->moves[i], key, kings);
                if (v > top)
                    top = v;
            }
            for (int i = base; i < g->n; i++)
                if (key_value(&g->moves[i], key, kings) == top) {
                    if (keep != i)
                        g->moves[keep] = g->moves[i];
                    keep++;
                }
        }
        g->n = keep;
    }
}

/* Two captures are one move (DUP_SET): the same origin, destination, captured set and
 * crowning; or (DUP_ORDER) also the same pieces taken in the same order. */
static int same_capture(const Move *a, const Move *b, int mode) {
    if (a->orig != b->orig || a->dest != b->dest || a->ends_king != b->ends_king ||
        a->capmask != b->capmask)
        return 0;
    return mode != DUP_ORDER || !memcmp(a->cap, b->cap, a->ncap);
}

static uint64_t move_hash(const Move *m) {
    uint64_t h = (uint64_t)m->capmask ^ ((uint64_t)(m->capmask >> 64) * 0x9E3779B97F4A7C15ULL);
    h ^= ((uint64_t)m->orig << 8 | m->dest) * 0xC2B2AE3D27D4EB4FULL ^ m->ends_king;
    h ^= h >> 29;
    return h * 0xBF58476D1CE4E5B9ULL;
}

/* Drop duplicates (see same_capture); the first route found stays. */
static void dedup(Gen *g, int base, int mode) {
    int n = g->n - base, keep = base;
    if (n <= 48) {
        for (int i = base; i < g->n; i++) {
            int dup = 0;
            for (int j = base; j < keep && !dup; j++)
                dup = same_capture(&g->moves[j], &g->moves[i], mode);
            if (!dup) {
                if (keep != i)
                    g->moves[keep] = g->moves[i];
                keep++;
            }
        }
        g->n = keep;
        return;
    }
    size_t size = 64;
    while (size < (size_t)n * 2)
        size *= 2;
    int *slots = malloc(size * sizeof(int));
    if (!slots) {
        g->err = 1;
        return;
    }
    memset(slots, 0xff, size * sizeof(int));
    for (int i = base; i < g->n; i++) {
        size_t h = (size_t)(move_hash(&g->moves[i]) & (size - 1));
        int dup = 0;
        while (slots[h] >= 0) {
            if (same_capture(&g->moves[slots[h]], &g->moves[i], mode)) {
                dup = 1;
                break;
            }
            h = (h + 1) & (size - 1);
        }
        if (!dup) {
            if (keep != i)
                g->moves[keep] = g->moves[i];
            slots[h] = keep++;
        }
    }
    free(slots);
    g->n = keep;
}

/* Every complete capture after the first nprec precedence keys, duplicates dropped as `dup`
 * says (DUP_SET, DUP_ORDER, or DUP_NONE: every route); appended to g->moves from g->n.
 * Returns their number, -1 on error. */
int gen_captures(Gen *g, const Pos *p, int nprec, int dup) {
    const Table *t = g->t;
    bb_t own, opp;
    int s;
    g->base = g->n;
    if (t->first_king_wins && p->k)
        return 0;
    sides(p, &own, &opp);
    bb_t empty0 = t->board & ~(own | opp);
    g->side = p->side;
    g->opp = opp;
    g->kings = p->k;
    g->men_target = t->men_take_kings ? opp : opp & ~p->k;
    g->promo = t->promo[p->side];
    int first = nprec ? t->prec[0] : 0;
    g->prune = first == KEY_MAX_COUNT || first == KEY_MAX_VALUE;
    g->by_value = first == KEY_MAX_VALUE;
    g->best = -1;
    g->nodes = 0;
    if (t->directional) {
        FOR_BITS(s, own) {
            g->orig = (uint8_t)s;
            g->path[0] = (uint8_t)s;
            g->npath = 1;
            g->norder = 0;
            dir_dfs(g, s, HAS(p->k, s), 0, empty0 | BIT(s), -1);
        }
    } else {
        FOR_BITS(s, own & p->k) {
            g->orig = (uint8_t)s;
            g->path[0] = (uint8_t)s;
            g->npath = 1;
            g->norder = 0;
            king_dfs(g, s, 0, empty0 | BIT(s));
        }
        FOR_BITS(s, jumping_men(t, p, own & ~p->k, g->men_target, empty0, 0)) {
            g->orig = (uint8_t)s;
            g->path[0] = (uint8_t)s;
            g->npath = 1;
            g->norder = 0;
            man_dfs(g, s, 0, empty0 | BIT(s));
        }
    }
    if (g->err)
        return -1;
    int base = g->base;
    if (g->n - base > 1 && nprec)
        select_best(g, base, nprec, p->k);
    if (dup != DUP_NONE)
        dedup(g, base, dup);
    return g->err ? -1 : g->n - base;
}

int gen_moves(Gen *g, const Pos *p, int dup) {
    if (has_capture(g->t, p))
        return gen_captures(g, p, g->t->nprec, dup);
    return gen_quiet(g, p);
}

void play_move(const Table *t, Pos *p, const Move *m) {
    bb_t own, opp;
    sides(p, &own, &opp);
    bb_t o = BIT(m->orig), d = BIT(m->dest), c = m->capmask;
    int was_king = HAS(p->k, m->orig);
    bb_t nown = (own ^ o) | d, nopp = opp & ~c, nk = p->k & ~(c | o);
    if (m->ends_king)
        nk |= d;
    if (t->king_limit) { /* Frisian art. 17 counters (position._next_counters) */
        int me = p->side, them = 1 - p->side;
        if (was_king && !c) {
            p->cn[me] = p->csq[me] == m->orig ? p->cn[me] + 1 : 1;
            p->csq[me] = m->dest;
        } else {
            p->csq[me] = -1;
            p->cn[me] = 0;
        }
        if (p->csq[them] >= 0 && HAS(c, p->csq[them])) {
            p->csq[them] = -1;
            p->cn[them] = 0;
        }
    }
    if (p->side) {
        p->b = nown;
        p->w = nopp;
    } else {
        p->w = nown;
        p->b = nopp;
    }
    p->k = nk;
    p->side ^= 1;
}

/* ------------------------------------------------------------------ keys and perft */

bb_t to_engine(const Table *t, bb_t x) {
    bb_t out = 0;
    for (int r = 0; r < t->nruns; r++) {
        bb_t mask = t->run_len[r] >= 128 ? ~(bb_t)0 : BIT(t->run_len[r]) - 1;
        out |= ((x >> t->run_sq[r]) & mask) << t->run_eb[r];
    }
    return out;
}

/* the constants of pdnkit.rules.position (KEY_WORDS, KEY_SIDE, KEY_FINAL) */
static const uint64_t KW[6][2] = {
    {0xA0761D6478BD642FULL, 0xE7037ED1A0B428DBULL}, {0x8EBC6AF09C88C6E3ULL, 0x589965CC75374CC3ULL},
    {0x1D8E4E27C47D124FULL, 0x9E3779B97F4A7C15ULL}, {0xC2B2AE3D27D4EB4FULL, 0x165667B19E3779F9ULL},
    {0xD6E8FEB86659FD93ULL, 0xFF51AFD7ED558CCDULL}, {0xC4CEB9FE1A85EC53ULL, 0xBF58476D1CE4E5B9ULL}};
static const uint64_t KSIDE = 0x94D049BB133111EBULL;
static const uint64_t KFINAL[2] = {0x2545F4914F6CDD1DULL, 0x9FB21C651E98DF25ULL};

static inline uint64_t mum(uint64_t v, const uint64_t sm[2]) {
    __extension__ unsigned __int128 p = (unsigned __int128)(v ^ sm[0]) * sm[1];
    return (uint64_t)(p >> 64) ^ (uint64_t)p;
}

int64_t position_key(bb_t w, bb_t b, bb_t k, int black) {
    uint64_t x = mum((uint64_t)w, KW[0]) ^ mum((uint64_t)b, KW[1]) ^ mum((uint64_t)k, KW[2]);
    if ((w | b) >> 64)
        x ^= mum((uint64_t)(w >> 64), KW[3]) ^ mum((uint64_t)(b >> 64), KW[4]) ^
             mum((uint64_t)(k >> 64), KW[5]);
    if (black)
        x ^= KSIDE;
    return (int64_t)mum(x, KFINAL);
}

static int perft_rec(Gen *g, const Pos *p, int depth, int dup, uint64_t *out) {
    const Table *t = g->t;
    int capture = has_capture(t, p);
    if (depth == 1 && !capture) {
        *out += (uint64_t)count_quiet(t, p);
        return 0;
    }
    int base = g->n;
    int cnt = capture ? gen_captures(g, p, t->nprec, dup) : gen_quiet(g, p);
    if (cnt < 0)
        return -1;
    if (depth == 1) {
        *out += (uint64_t)cnt;
    } else {
        for (int i = base; i < base + cnt; i++) {
            Pos c = *p;
            play_move(t, &c, &g->moves[i]);
            if (perft_rec(g, &c, depth - 1, dup, out) < 0)
                return -1;
        }
    }
    g->n = base;
    return 0;
}

/* Leaf count of the legal-move tree, duplicate captures counted as `dup` says. */
int perft(const Table *t, const Pos *p, int depth, int dup, uint64_t *out) {
    Gen g;
    gen_init(&g, t);
    *out = 0;
    int rc = 0;
    if (depth <= 0)
        *out = 1;
    else
        rc = perft_rec(&g, p, depth, dup, out);
    int err = g.err;
    gen_free(&g);
    return rc < 0 ? -(err ? err : 1) : 0;
}
