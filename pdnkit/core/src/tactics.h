/* The built-in tactical search (tactics.c). */
#ifndef PDNKIT_TACTICS_H
#define PDNKIT_TACTICS_H

#include "core.h"

#define TAC_MAXPLY 160   /* plies of one line, capture extension included */
#define TAC_MAXDEPTH 40  /* the nominal depth a caller may ask for */
#define TAC_WIN 1000000  /* a won position at the root; WIN - ply: won in ply plies */

/* One move of a line as the search keeps it: enough to find it again among the legal moves
 * (duplicate routes of one capture are one move: DUP_SET). */
typedef struct {
    uint8_t orig, dest, ends_king;
    bb_t capmask;
} Step;

typedef struct {
    int score;    /* hundredths of a man, the side to move's view; +-(WIN - n): decided */
    int depth;    /* the deepest full-width depth completed */
    long nodes;   /* positions visited */
    int err;      /* 0; 1 out of memory; 2 a capture too large for the generator */
    int npv;
    Step pv[TAC_MAXPLY];
} TacResult;

/* Search `p` to `depth` plies (1..TAC_MAXDEPTH) full width, then on while the side to move
 * has a capture; material is men * 100 + kings * king_value, negated where `losing` (the
 * side with fewer pieces stands better). Iterative: where `node_limit` stops a depth, the
 * result is the last depth completed (depth 0: not even the first). Returns 0, or -1 with
 * out->err set. */
int tactics(const Table *t, const Pos *p, int depth, int king_value, int losing,
            long node_limit, TacResult *out);

#endif
