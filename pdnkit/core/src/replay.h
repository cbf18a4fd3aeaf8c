/* The one-call replay of a game's main line (replay.c). */
#ifndef PDNKIT_REPLAY_H
#define PDNKIT_REPLAY_H

#include "core.h"

/* stop codes (pdnkit/core/api.py CODES) */
enum { R_DONE = 0, R_ILLEGAL = 1, R_AMBIGUOUS = 2, R_NOT_MAX = 3, R_MISSED = 4,
       R_PRIORITY = 5, R_AFTER_END = 6, R_HANDOVER = 7 };

/* per-ply flag bits (pdnkit/core/api.py FLAG_*) */
enum { F_CAPTURE = 1, F_PROMOTES = 2, F_KING = 4, F_MISMATCH = 8, F_NUMBERED = 16,
       F_BLACK_DOTS = 32, F_ANNOTATED = 64, F_FULL_PATH = 128 };

/* A text in any of CPython's string layouts (1, 2 or 4 bytes a character). */
typedef struct {
    int kind;
    const void *data;
    long len;
} Text;

typedef struct {
    uint8_t *p;
    size_t n, cap;
} Buf;

typedef struct {
    Buf origin, dest, flags, path_off, path, cap_off, cap, capk, bits, bits_high, keys,
        counts, numbers, spans, kmoves;
    long plies;
    int code;
    const char *reason;
    long stop_start, stop_end, result_start, result_end;
    Pos final;
    int err;
} Replay;

void replay_init(Replay *r);
void replay_free(Replay *r);
/* text_mode: items[0] is movetext read from char offset `offset`; else every item is the
 * text of one move, from item `offset`. */
void replay_run(const Table *t, const Pos *start, const Text *items, long nitems,
                int text_mode, long offset, Replay *r);

#endif
