/* The draw rules of a variant over the arrays of a replay: what
 * pdnkit.rules.draw.DrawTracker.push does ply by ply, without a position object per ply.
 *
 * The rules come as data (pdnkit/core/feed.py packs Rules.draw_rules and each material
 * condition's CountPattern); the tracker's state goes in and comes out as flat int64 blobs
 * (DrawTracker.export_state / import_state), so the Python tracker and this loop can take turns
 * within one game. tests/core holds the two to the same rule events on every real game.
 */
#include <stdlib.h>
#include <string.h>

#include "draw.h"

/* ------------------------------------------------------------------ the spec */

static int in_bounds(int64_t v, int64_t lo, int64_t hi) { return v >= lo && v <= hi; }

int draw_spec_from_blob(DrawSpec *s, const int64_t *v, size_t n, const char **why) {
    memset(s, 0, sizeof *s);
    *why = "a malformed draw spec";
    if (n < 4 || v[0] != DRAW_MAGIC || !in_bounds(v[1], 0, DRAW_MAXRULES))
        return -1;
    s->n = (int)v[1];
    s->road = ((bb_t)(uint64_t)v[3] << 64) | (uint64_t)v[2];
    if (n != 4 + (size_t)s->n * 19)
        return -1;
    const int64_t *p = v + 4;
    for (int i = 0; i < s->n; i++, p += 19) {
        DrawRule *r = &s->rules[i];
        if (!in_bounds(p[0], DR_REPETITION, DR_COUNTER) || !in_bounds(p[1], 1, INT32_MAX) ||
            !in_bounds(p[2], 0, 7) || !in_bounds(p[3], 0, 1) || !in_bounds(p[18], 0, 1))
            return -1;
        r->kind = (int)p[0];
        r->limit = (long)p[1];
        r->resets = (int)p[2];
        r->always = (int)p[3];
        for (int j = 0; j < 6; j++) {
            if (!in_bounds(p[4 + j], 0, 255) || !in_bounds(p[10 + j], 0, 255))
                return -1;
            r->side[j] = (int)p[4 + j];
            r->other[j] = (int)p[10 + j];
        }
        if (!in_bounds(p[16], 0, 255) || !in_bounds(p[17], 0, 255))
            return -1;
        r->total[0] = (int)p[16];
        r->total[1] = (int)p[17];
        r->road = (int)p[18];
    }
    return 0;
}

/* ------------------------------------------------------------------ conditions */

static int fits(int men, int kings, const int *b) {
    return men >= b[0] && men <= b[1] && kings >= b[2] && kings <= b[3] && men + kings >= b[4] &&
           men + kings <= b[5];
}

int draw_holds(const DrawSpec *s, const DrawRule *r, const uint8_t *cnt, const bb_t *sq) {
    if (r->always)
        return 1;
    int wm = cnt[0], wk = cnt[1], bm = cnt[2], bk = cnt[3], total = wm + wk + bm + bk;
    if (total < r->total[0] || total > r->total[1])
        return 0;
    int white_side = fits(wm, wk, r->side) && fits(bm, bk, r->other);
    int black_side = fits(bm, bk, r->side) && fits(wm, wk, r->other);
    if (!white_side && !black_side)
        return 0;
    if (!r->road)
        return 1;
    /* the lone side is the one with a single piece (with 1 against 3 the two differ) */
    int white_lone = wm + wk == 1;
    bb_t lone = white_lone ? sq[1] : sq[3];
    bb_t others = white_lone ? (sq[2] | sq[3]) : (sq[0] | sq[1]);
    return (lone & s->road) != 0 && (others & s->road) == 0;
}

/* ------------------------------------------------------------------ state */

static long new_event(DrawRun *r, int slot, int64_t start, int64_t deadline) {
    if (r->nevents == r->capevents) {
        long cap = r->capevents ? 2 * r->capevents : 16;
        DrawEvent *e = realloc(r->events, (size_t)cap * sizeof *e);
        if (!e) {
            r->err = 1;
            return -1;
        }
        r->events = e;
        r->capevents = cap;
    }
    DrawEvent *e = &r->events[r->nevents];
    e->slot = slot;
    e->start = start;
    e->deadline = deadline;
    e->reached = -1;
    e->end = -1;
    return r->nevents++;
}

static int rep_add(DrawRun *r, DrawSlot *s, int64_t key, int64_t count, int64_t first) {
    if (s->n == s->cap) {
        long cap = s->cap ? 2 * s->cap : 16;
        RepEntry *t = realloc(s->table, (size_t)cap * sizeof *t);
        if (!t) {
            r->err = 1;
            return -1;
        }
        s->table = t;
        s->cap = cap;
    }
    s->table[s->n].key = key;
    s->table[s->n].count = count;
    s->table[s->n].first = first;
    s->n++;
    return 0;
}

void draw_free(DrawRun *r) {
    for (int i = 0; i < DRAW_MAXRULES; i++) {
        free(r->slots[i].table);
        r->slots[i].table = NULL;
    }
    free(r->events);
    r->events = NULL;
}

int draw_load(DrawRun *r, const DrawSpec *s, const int64_t *v, size_t n, const char **why) {
    memset(r, 0, sizeof *r);
    r->spec = s;
    *why = "a malformed draw state";
    size_t at = 0;
    /* the events open when the run begins take the first slots of the event list */
    for (int i = 0; i < s->n; i++)
        if (new_event(r, i, -1, -1) < 0) {
            *why = "out of memory";
            return -1;
        }
    for (int i = 0; i < s->n; i++) {
        DrawSlot *d = &r->slots[i];
        /* open: 0 none, else the slot's open event (an import may name it 2 + j) */
        if (at + 4 > n || v[at] < 0)
            return -1;
        DrawEvent *e = &r->events[i];
        d->open = v[at] ? i : -1;
        e->start = v[at + 1];
        e->deadline = v[at + 2];
        e->reached = v[at + 3];
        at += 4;
        if (s->rules[i].kind == DR_COUNTER) {
            if (at + 3 > n || !in_bounds(v[at], 0, 1))
                return -1;
            d->running = v[at];
            d->count = v[at + 1];
            d->start = v[at + 2];
            at += 3;
            continue;
        }
        if (at + 1 > n || v[at] < 0 || (size_t)v[at] > (n - at - 1) / 3)
            return -1;
        long m = (long)v[at++];
        for (long j = 0; j < m; j++, at += 3)
            if (rep_add(r, d, v[at], v[at + 1], v[at + 2]) < 0) {
                *why = "out of memory";
                return -1;
            }
    }
    return at == n ? 0 : -1;
}

/* ------------------------------------------------------------------ the loop */

static void close_open(DrawRun *r, DrawSlot *d, int64_t ply) {
    if (d->open >= 0) {
        r->events[d->open].end = ply;
        d->open = -1;
    }
}

static void repetition(DrawRun *r, int slot, int reset, int64_t key, int64_t ply) {
    const DrawRule *rule = &r->spec->rules[slot];
    DrawSlot *d = &r->slots[slot];
    if (reset) {
        close_open(r, d, ply);
        d->n = 0;
        rep_add(r, d, key, 1, ply);
        return;
    }
    RepEntry *hit = NULL;
    for (long j = 0; j < d->n; j++)
        if (d->table[j].key == key) {
            hit = &d->table[j];
            break;
        }
    if (!hit) {
        rep_add(r, d, key, 1, ply);
        return;
    }
    hit->count++;
    if (d->open < 0) {
        d->open = new_event(r, slot, hit->first, -1);
        if (d->open < 0)
            return;
    }
    DrawEvent *e = &r->events[d->open];
    if (hit->count >= rule->limit && e->reached < 0) {
        e->reached = ply;
        e->deadline = ply;
    }
}

static void counter(DrawRun *r, int slot, int reset, int holds, int64_t ply) {
    const DrawRule *rule = &r->spec->rules[slot];
    DrawSlot *d = &r->slots[slot];
    if (!holds) {
        if (d->running) {
            close_open(r, d, ply);
            d->running = 0;
        }
        return;
    }
    if (!d->running || reset) {
        close_open(r, d, ply);
        d->running = 1;
        d->count = 0;
        d->start = ply;
        return;
    }
    d->count++;
    if (d->open < 0) {
        int64_t left = rule->limit - d->count;
        d->open = new_event(r, slot, d->start, ply + (left > 0 ? left : 0));
        if (d->open < 0)
            return;
    }
    DrawEvent *e = &r->events[d->open];
    if (d->count == rule->limit && e->reached < 0)
        e->reached = ply;
}

void draw_plies(DrawRun *r, const DrawArrays *a, long i0, long i1, long ply0) {
    const DrawSpec *s = r->spec;
    for (long i = i0; i < i1 && !r->err; i++) {
        uint8_t fl = a->flags[i];
        int happened = ((fl & 1) ? EV_CAPTURE : 0) | ((fl & 4) ? 0 : EV_MAN_MOVE) |
                       ((fl & 2) ? EV_PROMOTION : 0); /* pdnkit.rules.draw.move_events */
        int64_t ply = ply0 + (i - i0) + 1;
        const uint8_t *cnt = a->counts + 4 * i;
        bb_t sq[4];
        for (int j = 0; j < 4; j++)
            sq[j] = (bb_t)a->bits[4 * i + j] |
                    (a->bits_high ? (bb_t)a->bits_high[4 * i + j] << 64 : 0);
        for (int k = 0; k < s->n; k++) {
            const DrawRule *rule = &s->rules[k];
            int reset = (happened & rule->resets) != 0;
            if (rule->kind == DR_REPETITION)
                repetition(r, k, reset, a->keys[i], ply);
            else
                counter(r, k, reset, draw_holds(s, rule, cnt, sq), ply);
        }
    }
}
