/* The draw rules over a replay's arrays (draw.c). */
#ifndef PDNKIT_DRAW_H
#define PDNKIT_DRAW_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"

#define DRAW_MAGIC 0x44524157 /* "DRAW" */
#define DRAW_MAXRULES 16

enum { DR_REPETITION = 0, DR_COUNTER = 1 };
/* the move classes a rule's resets name (pdnkit.rules.draw.RESET_EVENTS) */
enum { EV_CAPTURE = 1, EV_MAN_MOVE = 2, EV_PROMOTION = 4 };

typedef struct {
    int kind;
    long limit;
    int resets;
    int always;            /* no material condition ("any") */
    int side[6], other[6]; /* men, kings, pieces bounds of one side and the other */
    int total[2];
    int road;              /* the lone king stands alone on the main road */
} DrawRule;

typedef struct {
    int n;
    bb_t road;
    DrawRule rules[DRAW_MAXRULES];
} DrawSpec;

/* An activation: start, deadline, reached, end plies (-1: none) and its rule's slot. */
typedef struct {
    int slot;
    int64_t start, deadline, reached, end;
} DrawEvent;

typedef struct {
    int64_t key, count, first;
} RepEntry;

typedef struct {
    long open;             /* index into the run's events, -1: none */
    int64_t running, count, start;
    RepEntry *table;
    long n, cap;
} DrawSlot;

typedef struct {
    const DrawSpec *spec;
    DrawSlot slots[DRAW_MAXRULES];
    DrawEvent *events;     /* events[0 .. nslots-1]: the ones open when the run began */
    long nevents, capevents;
    int err;               /* 1: out of memory */
} DrawRun;

/* The per-ply arrays of a replay (pdnkit/core/api.py). */
typedef struct {
    const uint8_t *flags, *counts;
    const int64_t *keys;
    const uint64_t *bits, *bits_high; /* bits_high NULL: a board of at most 64 squares */
} DrawArrays;

/* spec from its int64 blob (pdnkit/core/feed.py); 0, or -1 with *why */
int draw_spec_from_blob(DrawSpec *s, const int64_t *v, size_t n, const char **why);
/* the state blob (pdnkit.rules.draw.DrawTracker.export_state) into r; 0, or -1 with *why */
int draw_load(DrawRun *r, const DrawSpec *s, const int64_t *v, size_t n, const char **why);
void draw_free(DrawRun *r);
/* plies i0 .. i1-1 of the arrays, game plies ply0 + 1 on */
void draw_plies(DrawRun *r, const DrawArrays *a, long i0, long i1, long ply0);
/* whether a rule's material condition holds for counts (wm, wk, bm, bk) and square
 * bitboards (wm, wk, bm, bk) */
int draw_holds(const DrawSpec *s, const DrawRule *rule, const uint8_t *cnt, const bb_t *sq);

#endif
