/* pdnkit.core._core: the CPython face of the compiled core (see pdnkit/core/api.py).
 *
 *   table(blob: bytes) -> capsule                 a variant's table (tables.py packs the blob)
 *   replay(table, state, moves, offset) -> tuple  one game's main line (api.Replay reads it)
 *   perft(table, state, depth, duplicates) -> int   0 set, 1 every route, 2 capture order
 *   legal_moves(table, state, duplicates) -> list[tuple]
 *   has_capture(table, state) -> bool
 *   key(table, state) -> int                      Position.key() of the state
 *   bind(Replay, State)                           results as these named-tuple classes
 *   draw_run(spec, state, flags, counts, keys, bits, bits_high, i0, i1, ply0)
 *       -> (state, entry, events)                 the draw rules over a replay's plies
 *   misnumbered(flags, numbers, n, k, base, offset) -> int   the first ply whose written
 *       move number does not fit it (-1: none)
 *   clean_game(table, state, text, offset, n, numbering, spec, draws, layout, arrays=False)
 *       -> (state, has a move, draw events, FEN[, replay]) | None   a clean game's main
 *       line whole (with the replay's arrays where asked)
 *   scan_games(text, pos, line, final) -> (games, pos, line, status)
 *                                                 the clean games of a text (scan.c)
 *   lane_notes(...), spans_text(parts)         the import's row kernels (rows.c)
 *   tactics(table, state, depth, king_value, losing, node_limit)
 *       -> (score, depth, nodes, line)            the tactical search (tactics.c)
 *
 * A state is (black, wm, wk, bm, bk, king_moves): the side to move (0 White, 1 Black), the PDN
 * square bitboards (bit n-1 = square n) and the king-move counters ((square, n), (square, n))
 * or None. Bad arguments raise TypeError or ValueError; the work itself runs without the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"
#include "draw.h"
#include "replay.h"
#include "scan.h"
#include "tactics.h"

#define CAPSULE "pdnkit.core._core.Table"

static const char *CODE_NAMES[] = {NULL, "illegal-move", "ambiguous-move", "not-max-capture",
                                   "missed-capture", "capture-priority", "move-after-end",
                                   "handover"};

/* the named-tuple classes of pdnkit.core.api (bind): results are made as them directly */
static PyTypeObject *REPLAY_TYPE = NULL, *STATE_TYPE = NULL;

static PyObject *new_tuple(PyTypeObject *type, Py_ssize_t n) {
    return type ? type->tp_alloc(type, n) : PyTuple_New(n);
}

static int tuple_like(PyObject *obj) {
    if (!PyType_Check(obj))
        return 0;
    PyTypeObject *t = (PyTypeObject *)obj;
    return PyType_IsSubtype(t, &PyTuple_Type) && t->tp_basicsize == PyTuple_Type.tp_basicsize &&
           t->tp_itemsize == PyTuple_Type.tp_itemsize;
}

static PyObject *py_bind(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *replay_type, *state_type;
    if (!PyArg_ParseTuple(args, "OO", &replay_type, &state_type))
        return NULL;
    if (!tuple_like(replay_type) || !tuple_like(state_type)) {
        PyErr_SetString(PyExc_TypeError, "bind() takes two named-tuple classes");
        return NULL;
    }
    Py_INCREF(replay_type);
    Py_INCREF(state_type);
    Py_XDECREF(REPLAY_TYPE);
    Py_XDECREF(STATE_TYPE);
    REPLAY_TYPE = (PyTypeObject *)replay_type;
    STATE_TYPE = (PyTypeObject *)state_type;
    Py_RETURN_NONE;
}

static void free_table(PyObject *cap) {
    void *t = PyCapsule_GetPointer(cap, CAPSULE);
    PyMem_RawFree(t);
}

static PyObject *py_table(PyObject *self, PyObject *arg) {
    (void)self;
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    if (view.len % 4) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "a core table is a whole number of 32-bit integers");
        return NULL;
    }
    Table *t = PyMem_RawMalloc(sizeof(Table));
    if (!t) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    size_t n = (size_t)view.len / 4;
    int32_t *v = PyMem_RawMalloc(n ? n * 4 : 4);
    if (!v) {
        PyMem_RawFree(t);
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    memcpy(v, view.buf, n * 4);
    PyBuffer_Release(&view);
    const char *why = "bad table";
    int rc = table_from_blob(t, v, n, &why);
    PyMem_RawFree(v);
    if (rc < 0) {
        PyMem_RawFree(t);
        PyErr_Format(PyExc_ValueError, "bad core table: %s", why);
        return NULL;
    }
    PyObject *cap = PyCapsule_New(t, CAPSULE, free_table);
    if (!cap)
        PyMem_RawFree(t);
    return cap;
}

static const Table *get_table(PyObject *obj) {
    if (!PyCapsule_IsValid(obj, CAPSULE)) {
        PyErr_SetString(PyExc_TypeError, "expected a core table (pdnkit.core.pack)");
        return NULL;
    }
    return PyCapsule_GetPointer(obj, CAPSULE);
}

/* ------------------------------------------------------------------ states */

static int get_board(PyObject *v, bb_t *out) {
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "a bitboard must be an int");
        return -1;
    }
    unsigned long long lo = PyLong_AsUnsignedLongLong(v);
    if (!(lo == (unsigned long long)-1 && PyErr_Occurred())) {
        *out = lo;
        return 0;
    }
    if (!PyErr_ExceptionMatches(PyExc_OverflowError))
        return -1;
    PyErr_Clear();
    PyObject *zero = PyLong_FromLong(0), *shift = PyLong_FromLong(64);
    PyObject *mask = PyLong_FromUnsignedLongLong(~0ULL);
    int rc = -1;
    if (zero && shift && mask) {
        int neg = PyObject_RichCompareBool(v, zero, Py_LT);
        if (neg == 1) {
            PyErr_SetString(PyExc_ValueError, "a bitboard cannot be negative");
        } else if (neg == 0) {
            PyObject *hi = PyNumber_Rshift(v, shift), *low = PyNumber_And(v, mask);
            if (hi && low) {
                unsigned long long h = PyLong_AsUnsignedLongLong(hi);
                unsigned long long l = PyLong_AsUnsignedLongLong(low);
                if (PyErr_Occurred()) {
                    PyErr_Clear();
                    PyErr_SetString(PyExc_ValueError, "a bitboard has bits beyond square 128");
                } else {
                    *out = ((bb_t)h << 64) | l;
                    rc = 0;
                }
            }
            Py_XDECREF(hi);
            Py_XDECREF(low);
        }
    }
    Py_XDECREF(zero);
    Py_XDECREF(shift);
    Py_XDECREF(mask);
    return rc;
}

static PyObject *board_obj(bb_t x) {
    uint64_t hi = (uint64_t)(x >> 64), lo = (uint64_t)x;
    if (!hi)
        return PyLong_FromUnsignedLongLong(lo);
    PyObject *h = PyLong_FromUnsignedLongLong(hi), *l = PyLong_FromUnsignedLongLong(lo);
    PyObject *s = PyLong_FromLong(64), *out = NULL;
    if (h && l && s) {
        PyObject *sh = PyNumber_Lshift(h, s);
        if (sh) {
            out = PyNumber_Or(sh, l);
            Py_DECREF(sh);
        }
    }
    Py_XDECREF(h);
    Py_XDECREF(l);
    Py_XDECREF(s);
    return out;
}

static int get_counter(PyObject *pair, const Table *t, int *sq, long *n) {
    PyObject *tup = PySequence_Tuple(pair);
    if (!tup)
        return -1;
    int rc = -1;
    if (PyTuple_GET_SIZE(tup) != 2) {
        PyErr_SetString(PyExc_ValueError, "a king-move counter is (square, count)");
    } else {
        long s = PyLong_AsLong(PyTuple_GET_ITEM(tup, 0));
        long c = s == -1 && PyErr_Occurred() ? -1 : PyLong_AsLong(PyTuple_GET_ITEM(tup, 1));
        if (!PyErr_Occurred()) {
            if (s < 0 || s > t->nsq || c < 0) {
                PyErr_SetString(PyExc_ValueError, "a king-move counter is off the board");
            } else {
                *sq = s && c ? (int)s - 1 : -1; /* Position.from_squares: square 0 or n 0 = none */
                *n = s ? c : 0;
                if (*sq < 0)
                    *n = s ? c : 0;
                rc = 0;
            }
        }
    }
    Py_DECREF(tup);
    return rc;
}

static int get_state(PyObject *obj, const Table *t, Pos *p) {
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 6) {
        PyErr_SetString(PyExc_TypeError,
                        "a state is a tuple (black, wm, wk, bm, bk, king_moves)");
        return -1;
    }
    long black = PyLong_AsLong(PyTuple_GET_ITEM(obj, 0));
    if (black == -1 && PyErr_Occurred())
        return -1;
    if (black != 0 && black != 1) {
        PyErr_SetString(PyExc_ValueError, "the side to move is 0 (White) or 1 (Black)");
        return -1;
    }
    bb_t bd[4];
    for (int i = 0; i < 4; i++)
        if (get_board(PyTuple_GET_ITEM(obj, i + 1), &bd[i]) < 0)
            return -1;
    bb_t all = 0;
    for (int i = 0; i < 4; i++) {
        if (bd[i] & ~t->board) {
            PyErr_SetString(PyExc_ValueError, "a bitboard has a piece off the board");
            return -1;
        }
        if (bd[i] & all) {
            PyErr_SetString(PyExc_ValueError, "two pieces stand on one square");
            return -1;
        }
        all |= bd[i];
    }
    memset(p, 0, sizeof *p);
    p->w = bd[0] | bd[1];
    p->b = bd[2] | bd[3];
    p->k = bd[1] | bd[3];
    p->side = (int)black;
    p->csq[0] = p->csq[1] = -1;
    PyObject *km = PyTuple_GET_ITEM(obj, 5);
    if (km != Py_None && t->king_limit) {
        PyObject *tup = PySequence_Tuple(km);
        if (!tup)
            return -1;
        int rc = PyTuple_GET_SIZE(tup) == 2 ? 0 : -1;
        if (rc < 0)
            PyErr_SetString(PyExc_ValueError, "king_moves is ((square, n), (square, n))");
        for (int side = 0; side < 2 && rc == 0; side++)
            rc = get_counter(PyTuple_GET_ITEM(tup, side), t, &p->csq[side], &p->cn[side]);
        Py_DECREF(tup);
        if (rc < 0)
            return -1;
    }
    return 0;
}

static PyObject *state_obj(const Table *t, const Pos *p) {
    PyObject *km;
    if (t->king_limit)
        km = Py_BuildValue("((il)(il))", p->csq[0] + 1, p->cn[0], p->csq[1] + 1, p->cn[1]);
    else {
        km = Py_None;
        Py_INCREF(km);
    }
    PyObject *b[4] = {board_obj(p->w & ~p->k), board_obj(p->w & p->k), board_obj(p->b & ~p->k),
                      board_obj(p->b & p->k)};
    PyObject *out = NULL;
    if (km && b[0] && b[1] && b[2] && b[3] && (out = new_tuple(STATE_TYPE, 6))) {
        PyObject *side = p->side ? Py_True : Py_False;
        Py_INCREF(side);
        PyTuple_SET_ITEM(out, 0, side);
        for (int i = 0; i < 4; i++) {
            PyTuple_SET_ITEM(out, i + 1, b[i]);
            b[i] = NULL;
        }
        PyTuple_SET_ITEM(out, 5, km);
        km = NULL;
    }
    for (int i = 0; i < 4; i++)
        Py_XDECREF(b[i]);
    Py_XDECREF(km);
    return out;
}

/* ------------------------------------------------------------------ replay */

static int text_of(PyObject *s, Text *out) {
    if (!PyUnicode_Check(s)) {
        PyErr_SetString(PyExc_TypeError, "moves must be a str or a sequence of str");
        return -1;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(s) < 0)
        return -1;
#endif
    out->kind = PyUnicode_KIND(s);
    out->data = PyUnicode_DATA(s);
    out->len = (long)PyUnicode_GET_LENGTH(s);
    return 0;
}

static PyObject *bytes_of(const Buf *b) {
    return PyBytes_FromStringAndSize((const char *)b->p, (Py_ssize_t)b->n);
}

static PyObject *replay_result(const Table *t, const Replay *r) {
    const Buf *arrays[] = {&r->origin, &r->dest, &r->flags, &r->path_off, &r->path,
                           &r->cap_off, &r->cap, &r->capk, &r->bits, &r->bits_high,
                           &r->keys, &r->counts, &r->numbers, &r->spans, &r->kmoves};
    enum { NA = sizeof arrays / sizeof arrays[0] };
    PyObject *out = new_tuple(REPLAY_TYPE, 8 + NA);
    if (!out)
        return NULL;
    PyObject *head[8] = {
        PyLong_FromLong(r->plies),
        r->code ? PyUnicode_FromString(CODE_NAMES[r->code]) : (Py_INCREF(Py_None), Py_None),
        r->reason ? PyUnicode_FromString(r->reason) : (Py_INCREF(Py_None), Py_None),
        PyLong_FromLong(r->stop_start), PyLong_FromLong(r->stop_end),
        PyLong_FromLong(r->result_start), PyLong_FromLong(r->result_end),
        state_obj(t, &r->final)};
    for (int i = 0; i < 8; i++) {
        if (!head[i]) {
            for (int j = i + 1; j < 8; j++)
                Py_XDECREF(head[j]);
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, head[i]);
    }
    for (int i = 0; i < NA; i++) {
        PyObject *b = bytes_of(arrays[i]);
        if (!b) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, 8 + i, b);
    }
    return out;
}

static PyObject *py_replay(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *tab, *state, *moves;
    Py_ssize_t offset = 0;
    if (!PyArg_ParseTuple(args, "OOO|n", &tab, &state, &moves, &offset))
        return NULL;
    const Table *t = get_table(tab);
    Pos start;
    if (!t || get_state(state, t, &start) < 0)
        return NULL;
    if (offset < 0) {
        PyErr_SetString(PyExc_ValueError, "offset cannot be negative");
        return NULL;
    }
    PyObject *keep = NULL;
    Text one, *items = &one;
    long nitems = 1;
    int text_mode = PyUnicode_Check(moves);
    if (text_mode) {
        if (text_of(moves, &one) < 0)
            return NULL;
        if (offset > one.len)
            offset = one.len;
    } else {
        keep = PySequence_Tuple(moves); /* a copy: the items stay alive without the GIL */
        if (!keep)
            return NULL;
        nitems = (long)PyTuple_GET_SIZE(keep);
        items = PyMem_RawMalloc((size_t)(nitems ? nitems : 1) * sizeof(Text));
        if (!items) {
            Py_DECREF(keep);
            return PyErr_NoMemory();
        }
        for (long i = 0; i < nitems; i++)
            if (text_of(PyTuple_GET_ITEM(keep, i), &items[i]) < 0) {
                PyMem_RawFree(items);
                Py_DECREF(keep);
                return NULL;
            }
        if (offset > nitems)
            offset = nitems;
    }
    Replay r;
    replay_init(&r);
    Py_BEGIN_ALLOW_THREADS
    replay_run(t, &start, items, nitems, text_mode, (long)offset, &r);
    Py_END_ALLOW_THREADS
    PyObject *out = r.err ? PyErr_NoMemory() : replay_result(t, &r);
    replay_free(&r);
    if (!text_mode) {
        PyMem_RawFree(items);
        Py_DECREF(keep);
    }
    return out;
}

/* ------------------------------------------------------------------ moves and perft */

static PyObject *squares_tuple(const uint8_t *sq, int n, const uint8_t *filter, bb_t set) {
    PyObject *out = PyList_New(0);
    if (!out)
        return NULL;
    for (int i = 0; i < n; i++) {
        if (filter && !HAS(set, filter[i]))
            continue;
        PyObject *v = PyLong_FromLong(sq[i] + 1);
        if (!v || PyList_Append(out, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(v);
    }
    PyObject *tup = PyList_AsTuple(out);
    Py_DECREF(out);
    return tup;
}

static PyObject *move_obj(const Move *m, bb_t kings) {
    int is_king = HAS(kings, m->orig);
    PyObject *path = squares_tuple(m->path, m->npath, NULL, 0);
    PyObject *cap = squares_tuple(m->cap, m->ncap, NULL, 0);
    PyObject *capk = squares_tuple(m->cap, m->ncap, m->cap, kings);
    PyObject *out = NULL;
    if (path && cap && capk)
        out = Py_BuildValue("(iiOOOOO)", m->orig + 1, m->dest + 1, path, cap, capk,
                            m->ends_king && !is_king ? Py_True : Py_False,
                            is_king ? Py_True : Py_False);
    Py_XDECREF(path);
    Py_XDECREF(cap);
    Py_XDECREF(capk);
    return out;
}

/* raised where a capture search passes the generator's bounds (set by PyInit__core) */
static PyObject *SearchLimit = NULL;

static PyObject *gen_error(int err) {
    if (err == 1)
        return PyErr_NoMemory();
    PyErr_SetString(SearchLimit ? SearchLimit : PyExc_ValueError,
                    "the capture search is too large for the core");
    return NULL;
}

static PyObject *py_legal_moves(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *tab, *state;
    int dup = DUP_SET;
    if (!PyArg_ParseTuple(args, "OO|i", &tab, &state, &dup))
        return NULL;
    if (dup < DUP_SET || dup > DUP_ORDER) {
        PyErr_SetString(PyExc_ValueError, "duplicates is 0 (set), 1 (every route) or 2 (order)");
        return NULL;
    }
    const Table *t = get_table(tab);
    Pos p;
    if (!t || get_state(state, t, &p) < 0)
        return NULL;
    Gen g;
    gen_init(&g, t);
    int n;
    Py_BEGIN_ALLOW_THREADS
    n = gen_moves(&g, &p, dup);
    Py_END_ALLOW_THREADS
    if (n < 0) {
        int err = g.err;
        gen_free(&g);
        return gen_error(err);
    }
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) {
        PyObject *m = move_obj(&g.moves[i], p.k);
        if (!m) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, m);
    }
    gen_free(&g);
    return out;
}

static PyObject *py_perft(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *tab, *state;
    int depth, dup = DUP_SET;
    if (!PyArg_ParseTuple(args, "OOi|i", &tab, &state, &depth, &dup))
        return NULL;
    if (dup < DUP_SET || dup > DUP_ORDER) {
        PyErr_SetString(PyExc_ValueError, "duplicates is 0 (set), 1 (every route) or 2 (order)");
        return NULL;
    }
    const Table *t = get_table(tab);
    Pos p;
    if (!t || get_state(state, t, &p) < 0)
        return NULL;
    if (depth < 0 || depth > 64) {
        PyErr_SetString(PyExc_ValueError, "depth must be between 0 and 64");
        return NULL;
    }
    uint64_t n = 0;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = perft(t, &p, depth, dup, &n);
    Py_END_ALLOW_THREADS
    if (rc < 0)
        return gen_error(-rc);
    return PyLong_FromUnsignedLongLong(n);
}

static PyObject *py_has_capture(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *tab, *state;
    if (!PyArg_ParseTuple(args, "OO", &tab, &state))
        return NULL;
    const Table *t = get_table(tab);
    Pos p;
    if (!t || get_state(state, t, &p) < 0)
        return NULL;
    return PyBool_FromLong(has_capture(t, &p));
}

static PyObject *py_key(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *tab, *state;
    if (!PyArg_ParseTuple(args, "OO", &tab, &state))
        return NULL;
    const Table *t = get_table(tab);
    Pos p;
    if (!t || get_state(state, t, &p) < 0)
        return NULL;
    return PyLong_FromLongLong(position_key(to_engine(t, p.w), to_engine(t, p.b),
                                            to_engine(t, p.k), p.side));
}

/* ------------------------------------------------------------------ draw rules */

typedef struct {
    Py_buffer b[7];
    int n;
} Views;

static void release(Views *v) {
    for (int i = 0; i < v->n; i++)
        PyBuffer_Release(&v->b[i]);
    v->n = 0;
}

static int view(Views *v, PyObject *obj) {
    if (PyObject_GetBuffer(obj, &v->b[v->n], PyBUF_SIMPLE) < 0)
        return -1;
    v->n++;
    return 0;
}

static PyObject *int64_bytes(const int64_t *p, size_t n) {
    return PyBytes_FromStringAndSize((const char *)p, (Py_ssize_t)(n * sizeof(int64_t)));
}

/* the state after the run (DrawTracker.import_state reads it), with each open event named:
 * 0 none, 1 the one open when the run began, 2 + j the j-th event made by the run */
static PyObject *draw_result(const DrawRun *r) {
    const DrawSpec *s = r->spec;
    size_t n = 0;
    for (int i = 0; i < s->n; i++)
        n += 4 + (s->rules[i].kind == DR_COUNTER ? 3 : 1 + 3 * (size_t)r->slots[i].n);
    long made = r->nevents - s->n;
    int64_t *st = PyMem_RawMalloc((n ? n : 1) * sizeof *st);
    int64_t *entry = PyMem_RawMalloc((size_t)(s->n ? 3 * s->n : 1) * sizeof *entry);
    int64_t *ev = PyMem_RawMalloc((size_t)(made ? 5 * made : 1) * sizeof *ev);
    PyObject *out = NULL;
    if (!st || !entry || !ev) {
        PyErr_NoMemory();
        goto done;
    }
    size_t at = 0;
    for (int i = 0; i < s->n; i++) {
        const DrawSlot *d = &r->slots[i];
        const DrawEvent *e = &r->events[i];
        st[at++] = d->open < 0 ? 0 : d->open < s->n ? 1 : 2 + (d->open - s->n);
        const DrawEvent *o = d->open >= 0 ? &r->events[d->open] : NULL;
        st[at++] = o ? o->start : -1;
        st[at++] = o ? o->deadline : -1;
        st[at++] = o ? o->reached : -1;
        if (s->rules[i].kind == DR_COUNTER) {
            st[at++] = d->running;
            st[at++] = d->count;
            st[at++] = d->start;
        } else {
            st[at++] = d->n;
            for (long j = 0; j < d->n; j++) {
                st[at++] = d->table[j].key;
                st[at++] = d->table[j].count;
                st[at++] = d->table[j].first;
            }
        }
        entry[3 * i] = e->deadline;
        entry[3 * i + 1] = e->reached;
        entry[3 * i + 2] = e->end;
    }
    for (long j = 0; j < made; j++) {
        const DrawEvent *e = &r->events[s->n + j];
        ev[5 * j] = e->slot;
        ev[5 * j + 1] = e->start;
        ev[5 * j + 2] = e->deadline;
        ev[5 * j + 3] = e->reached;
        ev[5 * j + 4] = e->end;
    }
    out = Py_BuildValue("(NNN)", int64_bytes(st, n), int64_bytes(entry, 3 * (size_t)s->n),
                        int64_bytes(ev, 5 * (size_t)made));
done:
    PyMem_RawFree(st);
    PyMem_RawFree(entry);
    PyMem_RawFree(ev);
    return out;
}

static PyObject *py_draw_run(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *spec_o, *state_o, *flags_o, *counts_o, *keys_o, *bits_o, *high_o;
    Py_ssize_t i0, i1, ply0;
    if (!PyArg_ParseTuple(args, "OOOOOOOnnn", &spec_o, &state_o, &flags_o, &counts_o, &keys_o,
                          &bits_o, &high_o, &i0, &i1, &ply0))
        return NULL;
    Views v = {.n = 0};
    PyObject *objs[7] = {spec_o, state_o, flags_o, counts_o, keys_o, bits_o, high_o};
    for (int i = 0; i < 7; i++)
        if (view(&v, objs[i]) < 0) {
            release(&v);
            return NULL;
        }
    Py_buffer *spec = &v.b[0], *state = &v.b[1], *flags = &v.b[2], *counts = &v.b[3],
              *keys = &v.b[4], *bits = &v.b[5], *high = &v.b[6];
    const char *why = NULL;
    if (spec->len % 8 || state->len % 8)
        why = "a draw spec or state is a whole number of 64-bit integers";
    else if (i0 < 0 || i1 < i0 || ply0 < 0 || flags->len < i1 || counts->len < 4 * i1 ||
             keys->len < 8 * i1 || bits->len < 32 * i1 || (high->len && high->len < 32 * i1))
        why = "the plies are not in the arrays";
    DrawSpec sp;
    DrawRun run;
    memset(&run, 0, sizeof run);
    if (!why && draw_spec_from_blob(&sp, spec->buf, (size_t)spec->len / 8, &why) == 0 &&
        draw_load(&run, &sp, state->buf, (size_t)state->len / 8, &why) == 0) {
        DrawArrays a = {flags->buf, counts->buf, keys->buf, bits->buf,
                        high->len ? high->buf : NULL};
        draw_plies(&run, &a, (long)i0, (long)i1, (long)ply0);
        why = run.err ? "out of memory" : NULL;
    }
    PyObject *out = why ? NULL : draw_result(&run);
    draw_free(&run);
    release(&v);
    if (why) {
        if (!strcmp(why, "out of memory"))
            return PyErr_NoMemory();
        PyErr_SetString(PyExc_ValueError, why);
    }
    return out;
}

/* ------------------------------------------------------------------ the reader's lane */

static PyObject *sub(PyObject *text, long a, long b) {
    return PyUnicode_Substring(text, (Py_ssize_t)a, (Py_ssize_t)b);
}

/* (start, end, line, end_line, body, result, tags, lines, nmoves) of a clean game */
static PyObject *game_obj(PyObject *text, const ScanGame *g) {
    PyObject *tags = PyList_New(g->ntags);
    if (!tags)
        return NULL;
    for (int i = 0; i < g->ntags; i++) {
        const long *t = g->tag[i];
        PyObject *pair = Py_BuildValue("(NN)", sub(text, t[0], t[1]), sub(text, t[2], t[3]));
        if (!pair) {
            Py_DECREF(tags);
            return NULL;
        }
        PyList_SET_ITEM(tags, i, pair);
    }
    PyObject *lines = PyBytes_FromStringAndSize((const char *)g->lines,
                                                (Py_ssize_t)(g->nmoves * (long)sizeof(int32_t)));
    return Py_BuildValue("(lllllNNNl)", g->start, g->end, g->line, g->end_line, g->body,
                         sub(text, g->result, g->result + g->result_len), tags, lines,
                         g->nmoves);
}

static PyObject *py_scan_games(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *text;
    Py_ssize_t pos, line;
    int final;
    if (!PyArg_ParseTuple(args, "Unnp", &text, &pos, &line, &final))
        return NULL;
    Text s;
    if (text_of(text, &s) < 0)
        return NULL;
    if (pos < 0 || pos > s.len || line < 1) {
        PyErr_SetString(PyExc_ValueError, "scan_games: pos is not in the text");
        return NULL;
    }
    PyObject *games = PyList_New(0);
    if (!games)
        return NULL;
    ScanGame g;
    memset(&g, 0, sizeof g);
    long at = (long)pos, ln = (long)line;
    int status;
    for (;;) {
        long next = at, next_line = ln;
        status = scan_game(&s, at, ln, final, &g, &next, &next_line);
        if (g.err) {
            scan_free(&g);
            Py_DECREF(games);
            return PyErr_NoMemory();
        }
        if (status != SCAN_OK)
            break;
        PyObject *obj = game_obj(text, &g);
        if (!obj || PyList_Append(games, obj) < 0) {
            Py_XDECREF(obj);
            scan_free(&g);
            Py_DECREF(games);
            return NULL;
        }
        Py_DECREF(obj);
        at = next;
        ln = next_line;
        if (at >= s.len) {
            status = SCAN_END;
            break;
        }
    }
    scan_free(&g);
    return Py_BuildValue("(Nlli)", games, at, ln, status);
}

/* The first of plies 0 .. n-1 (main-line plies k on) whose written move number is not
 * base + (k + i + offset) / 2, or is written N... on the first mover's ply
 * (pdnkit.validation.game.MainLine._ply's check); -1 when every one fits. The arithmetic
 * cannot overflow whatever the arguments (k, i and offset are at least 0 and below 2^63):
 * (k + i + offset) / 2 is summed from the halves in 64 unsigned bits, and the written number
 * is compared with base + that half as the difference num - base, which is exact in 64
 * unsigned bits once num >= base (num < base: base + a half >= 0 cannot equal num). */
static long first_misnumbered(const uint8_t *f, const int32_t *num, Py_ssize_t n, Py_ssize_t k,
                              Py_ssize_t base, Py_ssize_t offset) {
    const uint64_t uk = (uint64_t)k, uoff = (uint64_t)offset, base64 = (uint64_t)(int64_t)base;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!(f[i] & F_NUMBERED))
            continue;
        const uint64_t ui = (uint64_t)i;
        const uint64_t odd = (uk & 1) + (ui & 1) + (uoff & 1);
        const uint64_t half = (uk >> 1) + (ui >> 1) + (uoff >> 1) + (odd >> 1);
        const int j_even = !(odd & 1);
        int fits;
        if ((int64_t)num[i] < (int64_t)base)
            fits = 0;
        else
            fits = (uint64_t)(int64_t)num[i] - base64 == half;
        if (!fits || ((f[i] & F_BLACK_DOTS) && j_even))
            return (long)i;
    }
    return -1;
}

static PyObject *py_misnumbered(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer fl, nb;
    Py_ssize_t n, k, base, offset;
    if (!PyArg_ParseTuple(args, "y*y*nnnn", &fl, &nb, &n, &k, &base, &offset))
        return NULL;
    if (n < 0 || fl.len < n || nb.len < 4 * n || k < 0 || offset < 0) {
        PyBuffer_Release(&fl);
        PyBuffer_Release(&nb);
        PyErr_SetString(PyExc_ValueError, "misnumbered: the plies are not in the arrays");
        return NULL;
    }
    long out = first_misnumbered(fl.buf, nb.buf, n, k, base, offset);
    PyBuffer_Release(&fl);
    PyBuffer_Release(&nb);
    return PyLong_FromLong(out);
}

/* ------------------------------------------------------------------ a clean game in one call */

/* The FEN of a position from its square bitboards: layout lists every square in FEN order
 * as (square index, name length, name bytes); "B:W..,K..:B.." as pdnkit.rules.fen's
 * write_fen_bits writes it. NULL with an exception set for a malformed layout. */
static PyObject *fen_text(const Pos *p, const uint8_t *layout, Py_ssize_t len) {
    char buf[MAXSQ * 8 + 16];
    size_t at = 0;
    buf[at++] = p->side ? 'B' : 'W';
    for (int side = 0; side < 2; side++) {
        const bb_t own = side ? p->b : p->w;
        buf[at++] = ':';
        buf[at++] = side ? 'B' : 'W';
        int first = 1;
        for (Py_ssize_t i = 0; i < len;) {
            if (i + 2 > len || i + 2 + layout[i + 1] > len || layout[i + 1] > 5 ||
                layout[i] >= MAXSQ) {
                PyErr_SetString(PyExc_ValueError, "clean_game: a malformed FEN layout");
                return NULL;
            }
            const int sq = layout[i], nl = layout[i + 1];
            if (own & BIT(sq)) {
                if (!first)
                    buf[at++] = ',';
                first = 0;
                if (p->k & BIT(sq))
                    buf[at++] = 'K';
                memcpy(buf + at, layout + i + 2, (size_t)nl);
                at += (size_t)nl;
            }
            i += 2 + nl;
        }
    }
    return PyUnicode_FromStringAndSize(buf, (Py_ssize_t)at);
}

/* The made events of a draw run as int64 quintuples (slot, start, deadline, reached, end):
 * the third item of draw_run's result. */
static PyObject *made_events(const DrawRun *r) {
    const long made = r->nevents - r->spec->n;
    int64_t *ev = PyMem_RawMalloc((size_t)(made ? 5 * made : 1) * sizeof *ev);
    if (!ev)
        return PyErr_NoMemory();
    for (long j = 0; j < made; j++) {
        const DrawEvent *e = &r->events[r->spec->n + j];
        ev[5 * j] = e->slot;
        ev[5 * j + 1] = e->start;
        ev[5 * j + 2] = e->deadline;
        ev[5 * j + 3] = e->reached;
        ev[5 * j + 4] = e->end;
    }
    PyObject *out = int64_bytes(ev, 5 * (size_t)made);
    PyMem_RawFree(ev);
    return out;
}

/* The draw rules over plies 0 .. n-1 of a replay from the start's state blob: the made
 * events (bytes), or NULL with an exception set. */
static PyObject *clean_draws(const Replay *r, long n, const Py_buffer *spec,
                             const Py_buffer *state) {
    const char *why = NULL;
    if (spec->len % 8 || state->len % 8) {
        PyErr_SetString(PyExc_ValueError,
                        "a draw spec or state is a whole number of 64-bit integers");
        return NULL;
    }
    DrawSpec sp;
    DrawRun run;
    memset(&run, 0, sizeof run);
    PyObject *out = NULL;
    if (draw_spec_from_blob(&sp, spec->buf, (size_t)spec->len / 8, &why) == 0 &&
        draw_load(&run, &sp, state->buf, (size_t)state->len / 8, &why) == 0) {
        DrawArrays a = {r->flags.p, r->counts.p, (const int64_t *)(void *)r->keys.p,
                        (const uint64_t *)(void *)r->bits.p,
                        r->bits_high.n ? (const uint64_t *)(void *)r->bits_high.p : NULL};
        draw_plies(&run, &a, 0, n, 0);
        if (run.err)
            PyErr_NoMemory();
        else
            out = made_events(&run);
    } else {
        PyErr_SetString(PyExc_ValueError, why ? why : "a malformed draw spec");
    }
    draw_free(&run);
    return out;
}

/* clean_game(table, state, text, offset, n, numbering, spec, draws, layout): the main line
 * of a clean game (pdnkit/validation/clean.py) in one call: the replay of the movetext from
 * character `offset`, whether its `n` plies are all taken as written (separators, move
 * numbers from 1 with the numbering offset), the draw loop from the start's state blob
 * (spec None: the variant has no draw rules), whether the side to move then has a move and
 * the final FEN. None where the game is not clean, else (final state, has a move (None:
 * the search went past its bounds), the made draw events or None, FEN); with `arrays` true
 * the replay's result (as replay makes it) comes fifth: a compact report's run in the same
 * call. */
static PyObject *py_clean_game(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *tab, *state, *moves, *spec_o;
    Py_ssize_t offset, n, numoff;
    Py_buffer draws, layout;
    int arrays = 0;
    if (!PyArg_ParseTuple(args, "OOUnnnOy*y*|p", &tab, &state, &moves, &offset, &n, &numoff,
                          &spec_o, &draws, &layout, &arrays))
        return NULL;
    PyObject *out = NULL, *events = NULL, *final = NULL, *fen = NULL, *has = NULL;
    PyObject *rep = NULL;
    Py_buffer spec = {.buf = NULL};
    Replay r;
    replay_init(&r);
    const Table *t = get_table(tab);
    Pos start;
    Text one;
    if (!t || get_state(state, t, &start) < 0 || text_of(moves, &one) < 0)
        goto done;
    if (offset < 0 || n < 0 || numoff < 0) {
        PyErr_SetString(PyExc_ValueError, "clean_game: a negative offset or count");
        goto done;
    }
    if (spec_o != Py_None && PyObject_GetBuffer(spec_o, &spec, PyBUF_SIMPLE) < 0) {
        spec.buf = NULL;
        goto done;
    }
    if (offset > one.len)
        offset = one.len;
    Py_BEGIN_ALLOW_THREADS
    replay_run(t, &start, &one, 1, 1, (long)offset, &r);
    Py_END_ALLOW_THREADS
    if (r.err) {
        PyErr_NoMemory();
        goto done;
    }
    if (r.plies != n) {
        out = Py_None;
        Py_INCREF(out);
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (r.flags.p[i] & F_MISMATCH) {
            out = Py_None;
            Py_INCREF(out);
            goto done;
        }
    if (n && first_misnumbered(r.flags.p, (const int32_t *)(void *)r.numbers.p, n, 0, 1,
                               numoff) >= 0) {
        out = Py_None;
        Py_INCREF(out);
        goto done;
    }
    if (spec.buf && n) {
        events = clean_draws(&r, (long)n, &spec, &draws);
        if (!events)
            goto done;
    } else {
        events = Py_None;
        Py_INCREF(events);
    }
    const Pos *end = n ? &r.final : &start;
    uint64_t count = 0;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = perft(t, end, 1, DUP_SET, &count);
    Py_END_ALLOW_THREADS
    has = rc < 0 ? Py_None : count ? Py_True : Py_False;
    Py_INCREF(has);
    final = state_obj(t, end);
    fen = final ? fen_text(end, layout.buf, layout.len) : NULL;
    if (final && fen && arrays)
        rep = replay_result(t, &r);
    if (final && fen && (!arrays || rep))
        out = arrays ? PyTuple_Pack(5, final, has, events, fen, rep)
                     : PyTuple_Pack(4, final, has, events, fen);
done:
    Py_XDECREF(rep);
    Py_XDECREF(events);
    Py_XDECREF(final);
    Py_XDECREF(fen);
    Py_XDECREF(has);
    if (spec.buf)
        PyBuffer_Release(&spec);
    PyBuffer_Release(&draws);
    PyBuffer_Release(&layout);
    replay_free(&r);
    return out;
}

/* ------------------------------------------------------------------ the tactical search */

static PyObject *py_tactics(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *tab, *state;
    int depth, king_value, losing;
    long long limit;
    if (!PyArg_ParseTuple(args, "OOiiiL", &tab, &state, &depth, &king_value, &losing, &limit))
        return NULL;
    if (depth < 1 || depth > TAC_MAXDEPTH || king_value < 0 || king_value > 10000 ||
        limit < 1) {
        PyErr_SetString(PyExc_ValueError, "depth 1-40, king value 0-10000, node limit >= 1");
        return NULL;
    }
    const Table *t = get_table(tab);
    Pos p;
    if (!t || get_state(state, t, &p) < 0)
        return NULL;
    TacResult *r = PyMem_RawMalloc(sizeof *r);
    if (!r)
        return PyErr_NoMemory();
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = tactics(t, &p, depth, king_value, losing != 0, (long)limit, r);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        int err = r->err;
        PyMem_RawFree(r);
        return gen_error(err);
    }
    /* the line as move tuples: each step found again among the legal moves where it stands */
    PyObject *line = PyList_New(0);
    Gen g;
    gen_init(&g, t);
    for (int i = 0; line && i < r->npv; i++) {
        g.n = 0;
        int n = gen_moves(&g, &p, DUP_SET);
        const Move *m = NULL;
        for (int j = 0; j < n && !m; j++)
            if (g.moves[j].orig == r->pv[i].orig && g.moves[j].dest == r->pv[i].dest &&
                g.moves[j].capmask == r->pv[i].capmask &&
                g.moves[j].ends_king == r->pv[i].ends_king)
                m = &g.moves[j];
        if (!m)
            break;
        PyObject *mo = move_obj(m, p.k);
        if (!mo || PyList_Append(line, mo) < 0) {
            Py_XDECREF(mo);
            Py_CLEAR(line);
            break;
        }
        Py_DECREF(mo);
        play_move(t, &p, m);
    }
    gen_free(&g);
    PyObject *out = line ? Py_BuildValue("(iilN)", r->score, r->depth, r->nodes, line) : NULL;
    PyMem_RawFree(r);
    return out;
}

static PyMethodDef METHODS[] = {
    {"clean_game", py_clean_game, METH_VARARGS,
     "clean_game(table, state, text, offset, n, numbering, spec, draws, layout, arrays=False)"
     " -> tuple|None"},
    {"misnumbered", py_misnumbered, METH_VARARGS,
     "misnumbered(flags, numbers, n, k, base, offset) -> the first misnumbered ply or -1"},
    {"scan_games", py_scan_games, METH_VARARGS,
     "scan_games(text, pos, line, final) -> (games, pos, line, status)"},
    {"draw_run", py_draw_run, METH_VARARGS,
     "draw_run(spec, state, flags, counts, keys, bits, bits_high, i0, i1, ply0) -> "
     "(state, entry, events)"},
    {"table", py_table, METH_O, "table(blob) -> a variant's core table"},
    {"replay", py_replay, METH_VARARGS, "replay(table, state, moves, offset=0) -> tuple"},
    {"perft", py_perft, METH_VARARGS, "perft(table, state, depth, duplicates=0) -> int"},
    {"legal_moves", py_legal_moves, METH_VARARGS,
     "legal_moves(table, state, duplicates=0) -> list of move tuples"},
    {"has_capture", py_has_capture, METH_VARARGS, "has_capture(table, state) -> bool"},
    {"bind", py_bind, METH_VARARGS, "bind(Replay, State): make results as these named tuples"},
    {"key", py_key, METH_VARARGS, "key(table, state) -> the position key"},
    {"tactics", py_tactics, METH_VARARGS,
     "tactics(table, state, depth, king_value, losing, node_limit) -> (score, depth, nodes, "
     "line)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_core",
                                    "pdnkit's compiled replay core (see pdnkit.core).", -1,
                                    METHODS, NULL, NULL, NULL, NULL};

extern PyMethodDef EGDB_METHODS[]; /* egdbmod.c: the endgame databases */
extern PyMethodDef ROWS_METHODS[]; /* rows.c: the import's row kernels */

PyMODINIT_FUNC PyInit__core(void) {
    PyObject *m = PyModule_Create(&MODULE);
    if (!m)
        return NULL;
    if (PyModule_AddFunctions(m, EGDB_METHODS) < 0 ||
        PyModule_AddFunctions(m, ROWS_METHODS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    SearchLimit = PyErr_NewExceptionWithDoc(
        "pdnkit.core._core.SearchLimit",
        "The capture search of a position went past the core's bounds (a hostile position);"
        " the pure core answers it.",
        PyExc_ValueError, NULL);
    if (!SearchLimit || PyModule_AddObjectRef(m, "SearchLimit", SearchLimit) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
