/* Endgame databases: the index of a material signature and the retrograde solver.
 *
 * A signature is (wm, wk, bm, bk): White's men and kings, Black's men and kings. Its positions
 * are indexed per side to move (a "half" each, White to move first): the white men on the
 * squares a white man may stand on (every square but White's promotion squares and those no
 * white man reaches from the start, eg_set_men), then the
 * black men on Black's, then the white kings on the squares the men left free, then the black
 * kings on the squares left after them; each set of squares by the combinatorial number
 * system, in square order. Slots where a white and a black man share a square are gaps
 * (decode says so). pdnkit/egdb/index.py is the same index in Python.
 *
 * A value is one code, for the side to move: 0 a draw (or a gap), else 1 + 2 * plies + win,
 * where plies is the length of the game to its end with best play (the winner as fast, the
 * loser as slow as possible). The variant comes only from the core's Table and two flags.
 */
#ifndef PDNKIT_EGDB_H
#define PDNKIT_EGDB_H

#include "core.h"

#define EG_MAXP 8                              /* pieces of a signature, at most */
#define EG_NSIG ((EG_MAXP + 1) * (EG_MAXP + 1) * (EG_MAXP + 1) * (EG_MAXP + 1))
#define EG_MAXREV 16                           /* squares a man can step to one square from */
#define EG_MISSING 0xFFFF                      /* probe: no database holds the position */
#define EG_BAD 0xFFFE                          /* probe: not a position of the index */

typedef struct {
    const uint8_t *data;                       /* 2 halves of half entries, width bytes each */
    int width;
    uint64_t half;
} EgSlot;

typedef struct {
    const Table *t;
    int nsq;
    int losing_game;                           /* no legal move wins (Rules.losing_game) */
    bb_t man_ok[2];                            /* squares a man of each side may stand on */
    uint8_t man_rank[2][MAXSQ];                /* a square's rank among them (255: none) */
    uint8_t man_sq[2][MAXSQ];                  /* the square of a rank */
    int nman[2];
    uint64_t binom[MAXSQ + 1][EG_MAXP + 1];
    /* quiet moves backwards: a king on d came from o with the squares between empty;
     * a man of each side on d stepped from rm_o */
    int rk_n[MAXSQ];
    uint8_t rk_o[MAXSQ][MAXSQ];
    bb_t rk_between[MAXSQ][MAXSQ];
    int rm_n[2][MAXSQ];
    uint8_t rm_o[2][MAXSQ][EG_MAXREV];
    /* the colour symmetry (egdbsym.c): the tables are the same for both colours under a
     * half-turn of the board, rot[s] the square it takes s to */
    int symmetric;
    uint8_t rot[MAXSQ];
    /* the board symmetries that keep the colours (egdbsym.c), the identity first: [0] for
     * signatures with men, [1] for kings alone; use_sym 0 solves every position */
    int nsym[2];
    uint8_t sym[2][8][MAXSQ];
    int use_sym;
    EgSlot slots[EG_NSIG];
} Egdb;

typedef struct {
    uint64_t positions;                        /* slots of both halves that are positions */
    uint64_t wins, losses, draws;
    int max_plies;
    int passes;
} EgStats;

int eg_init(Egdb *e, const Table *t, int losing_game, const char **why);
/* the squares a man of each side may stand on (eg_init: every square but its promotion
 * squares; the index leaves out the squares no man can reach from the start, such as
 * Turkish men's own back rank): before any database is added */
void eg_set_men(Egdb *e, const bb_t men[2]);
int eg_sig_code(int wm, int wk, int bm, int bk);
uint64_t eg_half(const Egdb *e, int wm, int wk, int bm, int bk);
/* the signature code and index of a position (-1: a man on its promotion row, or too many
 * pieces); the half is p->side */
int eg_index(const Egdb *e, const Pos *p, int *sig, uint64_t *idx);
/* the position at index idx of a half (-1: a gap) */
int eg_decode(const Egdb *e, const int sig[4], int side, uint64_t idx, Pos *p);
/* the code of a position in the databases added (EG_MISSING, EG_BAD) */
int eg_lookup(const Egdb *e, const Pos *p);
/* solve one signature into out (2 * half codes); every signature a capture or a promotion
 * leads to must have been added. 0 done, -1 out of memory, -2 a database missing, -3 the
 * signature is too large, -4 the capture search failed. */
int eg_solve(const Egdb *e, const int sig[4], uint16_t *out, EgStats *st);
/* count one code into the stats */
void eg_count(EgStats *st, uint16_t code);

/* egdbsym.c: check the colour symmetry of the tables (sets symmetric and rot); a
 * signature's codes from those of its mirror (bm, bk, wm, wk), which must have been added:
 * 0 done, -2 the mirror is missing, -5 the variant is not symmetric */
void eg_symmetry(Egdb *e);
void eg_board_symmetries(Egdb *e);
int eg_mirror(const Egdb *e, const int sig[4], uint16_t *out, EgStats *st);

#endif
