/* The reader's compiled lane (scan.c): clean games cut out of a text, their tags read. */
#ifndef PDNKIT_SCAN_H
#define PDNKIT_SCAN_H

#include "replay.h"

#define SCAN_MAXTAGS 64
#define SCAN_MAXGAME 1000000 /* characters: longer games go to the Python reader */

enum { SCAN_OK = 0, SCAN_UNUSUAL = 1, SCAN_MORE = 2, SCAN_END = 3 };

typedef struct {
    long start, end;       /* the game's text: its first tag line .. the end of its result */
    long line, end_line;   /* 1-based lines of both */
    long body;             /* where the movetext starts (a line start) */
    long result, result_len;
    int ntags;
    long tag[SCAN_MAXTAGS][4]; /* name start, name end, value start, value end */
    long nmoves;
    int32_t *lines;        /* per move: the line its token starts on (nmoves of them) */
    long cap;
    int err;               /* out of memory */
} ScanGame;

void scan_free(ScanGame *g);

/* Scan one game from the line start `pos` (line `line`): SCAN_OK with *g filled and *next
 * the line start after it (its blank lines included when the next game is confirmed),
 * SCAN_UNUSUAL (the Python reader reads it), SCAN_MORE (the text ends before it is known),
 * SCAN_END (only blank lines are left). `final`: the text is the end of the input. */
int scan_game(const Text *s, long pos, long line, int final, ScanGame *g, long *next,
              long *next_line);

#endif
