/* The built-in tactical search: what `pdnkit analyse --engine builtin` runs.
 *
 * A full-width negamax with alpha-beta pruning on the generic move generator (movegen.c), so
 * every variant the table describes is searched by its own rules and nothing here knows a
 * variant's name. The score is exact material: 100 a man, `king_value` a king (the caller
 * says what a king is worth), the side to move's balance; a side without a legal move has lost
 * (won where `losing`: the giveaway variants, whose material counts the other way). The search
 * goes `depth` plies full width and then on, capture by capture, while the side to move has a
 * capture (captures are compulsory: a position with one pending is not quiet, and its
 * material is not yet what it will be). So a shot (a sacrifice that wins material) is seen to
 * its end, and so is a move that drops material.
 *
 * The moves of a node are searched in one fixed order (origin, destination, captured
 * squares, crowning), and of moves of equal value the first stays best: the score, the best
 * move and the line are those of plain minimax in that order (pdnkit/core/lookahead.py holds that
 * reference in Python and the tests compare them). Depths are searched one after the other
 * (1, 2, ... depth) so that a node limit leaves the last depth completed, never a half search.
 */
#include <stdlib.h>
#include <string.h>

#include "tactics.h"

#define INF (2 * TAC_WIN)

typedef struct {
    const Table *t;
    Gen g;
    int king_value, losing;
    long nodes, limit;
    int stopped; /* the node limit was reached */
    int err;
    int pvlen[TAC_MAXPLY];
    Step (*pv)[TAC_MAXPLY];
} Search;

static int material(const Search *s, const Pos *p) {
    bb_t own = p->side ? p->b : p->w, opp = p->side ? p->w : p->b;
    int v = (popcount(own & ~p->k) - popcount(opp & ~p->k)) * 100 +
            (popcount(own & p->k) - popcount(opp & p->k)) * s->king_value;
    return s->losing ? -v : v;
}

static int cmp_capmask(bb_t a, bb_t b) {
    /* the captured squares as one number (bit n-1 for square n), compared as Python does */
    return a < b ? -1 : (a > b ? 1 : 0);
}

static int cmp_move(const void *x, const void *y) {
    const Move *a = x, *b = y;
    if (a->orig != b->orig)
        return a->orig < b->orig ? -1 : 1;
    if (a->dest != b->dest)
        return a->dest < b->dest ? -1 : 1;
    int c = cmp_capmask(a->capmask, b->capmask);
    if (c)
        return c;
    return (int)a->ends_king - (int)b->ends_king;
}

static void keep_line(Search *s, int ply, const Move *m) {
    Step *row = s->pv[ply];
    row[0].orig = m->orig;
    row[0].dest = m->dest;
    row[0].ends_king = m->ends_king;
    row[0].capmask = m->capmask;
    int n = ply + 1 < TAC_MAXPLY ? s->pvlen[ply + 1] : 0;
    if (n > TAC_MAXPLY - 1 - ply)
        n = TAC_MAXPLY - 1 - ply;
    memcpy(&row[1], s->pv[ply + 1], (size_t)n * sizeof(Step));
    s->pvlen[ply] = n + 1;
}

static int negamax(Search *s, const Pos *p, int depth, int ply, int alpha, int beta) {
    const Table *t = s->t;
    s->pvlen[ply] = 0;
    if (s->err || s->stopped)
        return 0;
    if (++s->nodes > s->limit) {
        s->stopped = 1;
        return 0;
    }
    int capture = has_capture(t, p);
    if ((depth <= 0 && !capture) || ply >= TAC_MAXPLY - 1)
        return material(s, p);
    Gen *g = &s->g;
    int base = g->n;
    int n = capture ? gen_captures(g, p, t->nprec, DUP_SET) : gen_quiet(g, p);
    if (n < 0) {
        s->err = g->err ? g->err : 1;
        g->n = base;
        return 0;
    }
    if (n == 0) { /* no legal move: the side to move has lost (won in a losing variant) */
        g->n = base;
        return s->losing ? TAC_WIN - ply : -(TAC_WIN - ply);
    }
    qsort(&g->moves[base], (size_t)n, sizeof(Move), cmp_move);
    int best = -INF;
    for (int i = base; i < base + n; i++) {
        Pos c = *p;
        play_move(t, &c, &g->moves[i]);
        int v = -negamax(s, &c, depth > 0 ? depth - 1 : 0, ply + 1, -beta, -alpha);
        if (s->err || s->stopped)
            break;
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                keep_line(s, ply, &g->moves[i]); /* moves[] may have moved: read it again */
                if (alpha >= beta)
                    break;
            }
        }
    }
    g->n = base;
    return best;
}

int tactics(const Table *t, const Pos *p, int depth, int king_value, int losing,
            long node_limit, TacResult *out) {
    memset(out, 0, sizeof *out);
    if (depth < 1)
        depth = 1;
    if (depth > TAC_MAXDEPTH)
        depth = TAC_MAXDEPTH;
    Search s;
    memset(&s, 0, sizeof s);
    s.t = t;
    s.king_value = king_value;
    s.losing = losing;
    s.limit = node_limit > 0 ? node_limit : 1;
    s.pv = malloc(sizeof(Step[TAC_MAXPLY]) * TAC_MAXPLY);
    if (!s.pv) {
        out->err = 1;
        return -1;
    }
    gen_init(&s.g, t);
    out->score = material(&s, p);
    for (int d = 1; d <= depth; d++) {
        int v = negamax(&s, p, d, 0, -INF, INF);
        if (s.err || s.stopped)
            break;
        out->score = v;
        out->depth = d;
        out->npv = s.pvlen[0];
        memcpy(out->pv, s.pv[0], (size_t)out->npv * sizeof(Step));
    }
    out->nodes = s.nodes;
    out->err = s.err;
    gen_free(&s.g);
    free(s.pv);
    return s.err ? -1 : 0;
}
