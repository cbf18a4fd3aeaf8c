/* Reading a variant's table from the blob packed by pdnkit/core/pack.py.
 *
 * The blob is a flat sequence of 32-bit integers (the order is documented in tables.py:
 * header, rule fields, precedence keys, promotion squares, engine bits, coordinates, the
 * search tables square by square). Every count, square and index is checked here, so a
 * malformed blob is refused with a reason instead of reaching the generator.
 */
#include <string.h>

#include "core.h"

#define BLOB_MAGIC 0x50444E4B
#define BLOB_VERSION 1

typedef struct {
    const int32_t *v;
    size_t n, i;
    int bad;
    const char *why;
} Reader;

static int32_t next(Reader *r, int32_t lo, int32_t hi, const char *what) {
    if (r->bad)
        return lo;
    if (r->i >= r->n) {
        r->bad = 1;
        r->why = "the table ends too early";
        return lo;
    }
    int32_t x = r->v[r->i++];
    if (x < lo || x > hi) {
        r->bad = 1;
        r->why = what;
        return lo;
    }
    return x;
}

static uint8_t square(Reader *r, const Table *t) {
    return (uint8_t)(next(r, 1, t->nsq, "a square is off the board") - 1);
}

static void read_jumps(Reader *r, const Table *t, uint8_t *count, uint8_t (*jumps)[2]) {
    *count = (uint8_t)next(r, 0, MAXDIR, "too many jumps from a square");
    for (int j = 0; j < *count; j++) {
        jumps[j][0] = square(r, t);
        jumps[j][1] = square(r, t);
    }
}

static void read_rays(Reader *r, const Table *t, uint8_t *count, uint8_t *lens,
                      uint8_t (*rays)[MAXRAY]) {
    *count = (uint8_t)next(r, 0, MAXDIR, "too many rays from a square");
    for (int j = 0; j < *count; j++) {
        lens[j] = (uint8_t)next(r, 0, MAXRAY, "a ray is too long");
        for (int k = 0; k < lens[j]; k++)
            rays[j][k] = square(r, t);
    }
}

static void read_header(Reader *r, Table *t) {
    next(r, BLOB_MAGIC, BLOB_MAGIC, "not a pdnkit core table");
    next(r, BLOB_VERSION, BLOB_VERSION, "a core table of another version");
    t->nsq = next(r, 1, MAXSQ, "the board has too many squares");
    t->width = next(r, 1, MAXSIDE, "the board is too wide");
    t->height = next(r, 1, MAXSIDE, "the board is too high");
    t->flying = next(r, 0, 1, "bad flag");
    t->lands_behind = next(r, 0, 1, "bad flag");
    t->immediate = next(r, 0, 1, "bad flag");
    t->promotion = next(r, 0, 2, "bad promotion rule");
    t->men_take_kings = next(r, 0, 1, "bad flag");
    t->king_limit = next(r, 0, 1000, "bad king-move limit");
    t->first_king_wins = next(r, 0, 1, "bad flag");
    t->directional = next(r, 0, 1, "bad flag");
    t->cap_sep_dash = next(r, 0, 1, "bad flag");
    t->nprec = next(r, 0, 8, "too many precedence keys");
    for (int i = 0; i < t->nprec; i++)
        t->prec[i] = (uint8_t)next(r, 1, 5, "unknown precedence key");
}

static void read_squares(Reader *r, Table *t) {
    for (int side = 0; side < 2; side++) {
        int n = next(r, 0, t->nsq, "too many promotion squares");
        for (int i = 0; i < n; i++)
            t->promo[side] |= BIT(square(r, t));
    }
    for (int s = 0; s < t->nsq; s++)
        t->ebit[s] = (uint8_t)next(r, 0, 127, "an engine bit is out of range");
    for (int s = 0; s < t->nsq; s++) {
        t->file_of[s] = (int8_t)next(r, 0, t->width - 1, "a file is off the board");
        t->rank_of[s] = (int8_t)next(r, 0, t->height - 1, "a rank is off the board");
        if (!r->bad) {
            if (t->coord_sq[t->file_of[s]][t->rank_of[s]]) {
                r->bad = 1;
                r->why = "two squares share coordinates";
            }
            t->coord_sq[t->file_of[s]][t->rank_of[s]] = (uint8_t)(s + 1);
        }
    }
}

static void read_directional(Reader *r, Table *t) {
    t->ndir = next(r, 0, MAXDIR, "too many directions");
    if (t->directional && t->ndir == 0 && !r->bad) {
        r->bad = 1;
        r->why = "a direction-aware search without directions";
    }
    for (int d = 0; d < t->ndir; d++)
        t->opposite[d] = (int8_t)next(r, -2, t->ndir - 1, "bad opposite direction");
    if (t->ndir) {
        for (int s = 0; s < t->nsq; s++)
            for (int d = 0; d < t->ndir; d++) {
                t->dr_len[s][d] = (uint8_t)next(r, 0, MAXRAY, "a ray is too long");
                for (int k = 0; k < t->dr_len[s][d]; k++)
                    t->dr[s][d][k] = square(r, t);
            }
    }
    for (int side = 0; side < 2; side++) {
        t->man_dirs_n[side] = next(r, 0, MAXDIR, "too many directions");
        for (int i = 0; i < t->man_dirs_n[side]; i++)
            t->man_dirs[side][i] = (uint8_t)next(r, 0, t->ndir ? t->ndir - 1 : 0,
                                                 "bad direction");
    }
    t->king_dirs_n = next(r, 0, MAXDIR, "too many directions");
    for (int i = 0; i < t->king_dirs_n; i++)
        t->king_dirs[i] = (uint8_t)next(r, 0, t->ndir ? t->ndir - 1 : 0, "bad direction");
}

static void make_near(Table *t) {
    for (int side = 0; side < 2; side++)
        for (int s = 0; s < t->nsq; s++)
            for (int j = 0; j < t->mj_n[side][s]; j++)
                t->mj_near[side][s] |= BIT(t->mj[side][s][j][0]);
}

/* The group of the shifts (a, b) in the lists of one side (add it when new); -1: full. */
static int group_of(int *n, int *sa, int *sb, int a, int b) {
    for (int g = 0; g < *n; g++)
        if (sa[g] == a && (sb == NULL || sb[g] == b))
            return g;
    if (*n == MAXGROUP)
        return -1;
    sa[*n] = a;
    if (sb != NULL)
        sb[*n] = b;
    return (*n)++;
}

/* The rank of a group's shifts for sort_groups: 0 toward lower squares (both), 1 toward
 * higher (both), 2 otherwise. */
static int direction(int a, int b) {
    return a < 0 && b < 0 ? 0 : a > 0 && b > 0 ? 1 : 2;
}

/* Order each side's groups by the direction of their shifts (stable) and count them
 * (Table.qg_up, jg_down, jg_up): the loops over the groups OR or add up what each finds,
 * so their order changes no answer. */
static void sort_groups(Table *t) {
    for (int side = 0; side < 2; side++) {
        int n = 0, shift[MAXGROUP];
        bb_t mask[MAXGROUP];
        for (int rank = 0; rank < 2; rank++) /* up (1) first, then the rest */
            for (int g = 0; g < t->qg_n[side]; g++)
                if ((t->qg_shift[side][g] > 0) == (rank == 0)) {
                    shift[n] = t->qg_shift[side][g];
                    mask[n++] = t->qg_mask[side][g];
                }
        t->qg_up[side] = 0;
        for (int g = 0; g < n; g++) {
            t->qg_shift[side][g] = shift[g];
            t->qg_mask[side][g] = mask[g];
            t->qg_up[side] += shift[g] > 0;
        }
        int over[MAXGROUP], land[MAXGROUP], count[3] = {0, 0, 0};
        n = 0;
        for (int rank = 0; rank < 3; rank++)
            for (int g = 0; g < t->jg_n[side]; g++)
                if (direction(t->jg_over[side][g], t->jg_land[side][g]) == rank) {
                    over[n] = t->jg_over[side][g];
                    land[n] = t->jg_land[side][g];
                    mask[n++] = t->jg_mask[side][g];
                    count[rank]++;
                }
        for (int g = 0; g < n; g++) {
            t->jg_over[side][g] = over[g];
            t->jg_land[side][g] = land[g];
            t->jg_mask[side][g] = mask[g];
        }
        t->jg_down[side] = count[0];
        t->jg_up[side] = count[1];
    }
}

/* Group the men's quiet steps by their shift (destination - origin) and their jumps by the
 * shifts to the captured and the landing square, side by side (Table.qg_*, Table.jg_*). */
static void make_groups(Table *t) {
    for (int side = 0; side < 2; side++) {
        int ok = 1;
        t->qg_n[side] = t->jg_n[side] = 0;
        for (int s = 0; s < t->nsq && ok; s++) {
            for (int j = 0; j < t->ms_n[side][s] && ok; j++) {
                int g = group_of(&t->qg_n[side], t->qg_shift[side], NULL,
                                 t->ms[side][s][j] - s, 0);
                if (g < 0)
                    ok = 0;
                else
                    t->qg_mask[side][g] |= BIT(s);
            }
            for (int j = 0; j < t->mj_n[side][s] && ok; j++) {
                int g = group_of(&t->jg_n[side], t->jg_over[side], t->jg_land[side],
                                 t->mj[side][s][j][0] - s, t->mj[side][s][j][1] - s);
                if (g < 0)
                    ok = 0;
                else
                    t->jg_mask[side][g] |= BIT(s);
            }
        }
        t->groups_ok[side] = ok;
    }
    sort_groups(t);
}

static void make_runs(Table *t) {
    t->nruns = 0;
    for (int s = 0; s < t->nsq; s++) {
        int k = t->nruns - 1;
        if (k >= 0 && t->run_sq[k] + t->run_len[k] == s && t->run_eb[k] + t->run_len[k] == t->ebit[s]) {
            t->run_len[k]++;
        } else {
            t->run_sq[t->nruns] = (uint8_t)s;
            t->run_eb[t->nruns] = t->ebit[s];
            t->run_len[t->nruns] = 1;
            t->nruns++;
        }
    }
}

int table_from_blob(Table *t, const int32_t *v, size_t n, const char **why) {
    Reader r = {v, n, 0, 0, NULL};
    memset(t, 0, sizeof *t);
    read_header(&r, t);
    if (!r.bad)
        t->board = t->nsq == MAXSQ ? ~(bb_t)0 : BIT(t->nsq) - 1;
    read_squares(&r, t);
    for (int side = 0; side < 2; side++)
        for (int s = 0; s < t->nsq && !r.bad; s++)
            read_jumps(&r, t, &t->mj_n[side][s], t->mj[side][s]);
    for (int s = 0; s < t->nsq && !r.bad; s++)
        read_jumps(&r, t, &t->kj_n[s], t->kj[s]);
    for (int s = 0; s < t->nsq && !r.bad; s++)
        read_rays(&r, t, &t->kr_n[s], t->kr_len[s], t->kr[s]);
    for (int s = 0; s < t->nsq && !r.bad; s++)
        read_rays(&r, t, &t->qr_n[s], t->qr_len[s], t->qr[s]);
    for (int side = 0; side < 2; side++)
        for (int s = 0; s < t->nsq && !r.bad; s++) {
            t->ms_n[side][s] = (uint8_t)next(&r, 0, MAXDIR, "too many steps from a square");
            for (int j = 0; j < t->ms_n[side][s]; j++)
                t->ms[side][s][j] = square(&r, t);
        }
    if (!r.bad)
        read_directional(&r, t);
    next(&r, BLOB_MAGIC, BLOB_MAGIC, "the table does not end where it should");
    if (!r.bad && r.i != r.n) {
        r.bad = 1;
        r.why = "the table has data after its end";
    }
    if (r.bad) {
        *why = r.why;
        return -1;
    }
    make_runs(t);
    make_near(t);
    make_groups(t);
    return 0;
}
