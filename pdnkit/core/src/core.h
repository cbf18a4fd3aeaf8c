/* The compiled replay core of pdnkit: shared types.
 *
 * A variant reaches the core as data only: the table (struct Table) is filled from the blob
 * that pdnkit/core/pack.py packs from a Rules record and the rules engine's own search
 * tables (pdnkit.rules.lookups). Squares are indexed 0..nsq-1 (PDN square n is index n-1), and
 * a bitboard holds bit n-1 for square n: the position_bits layout the database stores. No
 * code here knows a variant's name.
 */
#ifndef PDNKIT_CORE_H
#define PDNKIT_CORE_H

#include <stddef.h>
#include <stdint.h>

#if !defined(__SIZEOF_INT128__)
#error "pdnkit's compiled core needs a compiler with unsigned __int128 (gcc or clang)"
#endif

__extension__ typedef unsigned __int128 bb_t;

#define MAXSQ 128   /* squares of a board (two 64-bit words) */
#define MAXDIR 8    /* directions per square */
#define MAXRAY 32   /* squares along one ray */
#define MAXSIDE 16  /* files or ranks of a board (coordinates) */
#define MAXWRITTEN 64 /* squares written in one move */
#define MAXGROUP 16   /* shift groups of the men's steps or jumps (one side) */

#define BIT(i) (((bb_t)1) << (i))
#define HAS(b, i) ((int)(((b) >> (i)) & 1))

enum { PROMO_PASS = 0, PROMO_KING = 1, PROMO_STOP = 2 };
/* which captures count as one move: the same captured set (the engine's move list), every
 * route, or the same pieces in the same order (dctl's "keep_duplicates" perft tables) */
enum { DUP_SET = 0, DUP_NONE = 1, DUP_ORDER = 2 };
enum { KEY_MAX_COUNT = 1, KEY_MAX_VALUE = 2, KEY_KING_CAPTURER = 3, KEY_MAX_KINGS = 4,
       KEY_FIRST_KING_EARLIEST = 5 };

typedef struct {
    int nsq, width, height;
    bb_t board;
    bb_t promo[2];                 /* by side: 0 White, 1 Black */
    int flying, lands_behind, immediate, promotion, men_take_kings, king_limit;
    int first_king_wins, directional, cap_sep_dash;
    int nprec;
    uint8_t prec[8];
    uint8_t ebit[MAXSQ];           /* engine bit of each square (position keys) */
    int nruns;                     /* runs of consecutive engine bits: square bit -> engine bit */
    uint8_t run_sq[MAXSQ], run_eb[MAXSQ], run_len[MAXSQ];
    int8_t file_of[MAXSQ], rank_of[MAXSQ];
    uint8_t coord_sq[MAXSIDE][MAXSIDE]; /* (file, rank) -> square index + 1; 0: none */
    /* short jumps: (captured, landing), in search order */
    uint8_t mj_n[2][MAXSQ];
    uint8_t mj[2][MAXSQ][MAXDIR][2];
    bb_t mj_near[2][MAXSQ];        /* the squares a man's jumps take from (has_capture) */
    uint8_t kj_n[MAXSQ];
    uint8_t kj[MAXSQ][MAXDIR][2];
    /* the kings' capture rays and quiet rays */
    uint8_t kr_n[MAXSQ];
    uint8_t kr_len[MAXSQ][MAXDIR];
    uint8_t kr[MAXSQ][MAXDIR][MAXRAY];
    uint8_t qr_n[MAXSQ];
    uint8_t qr_len[MAXSQ][MAXDIR];
    uint8_t qr[MAXSQ][MAXDIR][MAXRAY];
    /* a man's quiet steps */
    uint8_t ms_n[2][MAXSQ];
    uint8_t ms[2][MAXSQ][MAXDIR];
    /* the direction-aware search (no 180-degree turn between jumps) */
    int ndir;
    int8_t opposite[MAXDIR];       /* -2: none */
    uint8_t dr_len[MAXSQ][MAXDIR];
    uint8_t dr[MAXSQ][MAXDIR][MAXRAY];
    int man_dirs_n[2];
    uint8_t man_dirs[2][MAXDIR];
    int king_dirs_n;
    uint8_t king_dirs[MAXDIR];
    /* the men's steps and jumps grouped by their shifts (worked out from ms and mj when the
     * table is read): a group moves every man of its origin mask by the same number of
     * squares, so a count or a test takes one shift a group instead of a loop over the
     * men. groups_ok[side] 0: more groups than MAXGROUP, the loops are used. */
    int groups_ok[2];
    int qg_n[2];
    int qg_shift[2][MAXGROUP];
    bb_t qg_mask[2][MAXGROUP];
    int jg_n[2];
    int jg_over[2][MAXGROUP], jg_land[2][MAXGROUP];
    bb_t jg_mask[2][MAXGROUP];
    /* the groups ordered by the direction of their shifts (table.c's sort_groups), so that
     * each loop shifts one way without a branch on the sign: the steps toward higher
     * squares first (qg_up of them), the jumps toward lower squares first (jg_down: captured
     * and landing square both lower), then toward higher (jg_up); any other after them */
    int qg_up[2], jg_down[2], jg_up[2];
} Table;

/* A position: white, black and king bitboards, the side to move (0 White, 1 Black) and the
 * king-move counters of Rules.king_move_limit (csq -1: none). */
typedef struct {
    bb_t w, b, k;
    int side;
    int csq[2];
    long cn[2];
} Pos;

/* One complete move: origin, destination, path (origin first, one landing per capture),
 * captured squares in capture order. */
typedef struct {
    uint8_t orig, dest, ncap, ends_king, npath;
    uint8_t path[MAXSQ + 1];
    uint8_t cap[MAXSQ];
    bb_t capmask;
} Move;

/* The move list and the state of one capture search. */
typedef struct {
    const Table *t;
    Move *moves;
    int n, cap;
    int err;                       /* 1: out of memory, 2: search limit reached */
    long nodes, node_limit;
    int max_moves;
    /* search state */
    int side, prune, by_value, best, base;
    bb_t opp, kings, men_target, promo;
    uint8_t orig;
    uint8_t path[MAXSQ + 1];
    int npath;
    uint8_t order[MAXSQ];
    int norder;
} Gen;

/* table.c */
int table_from_blob(Table *t, const int32_t *v, size_t n, const char **why);

/* movegen.c */
void gen_init(Gen *g, const Table *t);
void gen_free(Gen *g);
int has_capture(const Table *t, const Pos *p);
int quiet_step(const Table *t, const Pos *p, int o, int d);
int count_quiet(const Table *t, const Pos *p);
int gen_quiet(Gen *g, const Pos *p);
int gen_captures(Gen *g, const Pos *p, int nprec, int dup);
int gen_moves(Gen *g, const Pos *p, int dup);
void play_move(const Table *t, Pos *p, const Move *m);
int popcount(bb_t x);
bb_t to_engine(const Table *t, bb_t x);
int64_t position_key(bb_t w, bb_t b, bb_t k, int black);
int perft(const Table *t, const Pos *p, int depth, int dup, uint64_t *out);

#endif
