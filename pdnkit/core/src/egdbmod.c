/* The CPython face of the endgame databases (egdb.h), added to pdnkit.core._core:
 *
 *   egdb_new(table, losing_game) -> capsule          the index and solver of a variant
 *   egdb_men(eg, (wlo, whi), (blo, bhi))             the squares a man of each side may stand
 *                                                    on (before any egdb_add; eg_set_men)
 *   egdb_add(eg, sig, width, data)                   a built signature's codes (kept referenced)
 *   egdb_drop(eg, sig)                               forget one
 *   egdb_half(eg, sig) -> int                        positions per side to move (gaps included)
 *   egdb_solve(eg, sig) -> (codes, width, stats)     one signature solved (without the GIL)
 *   egdb_mirror(eg, sig) -> (codes, width, stats)    the same, read off (bm, bk, wm, wk)
 *   egdb_symmetric(eg) -> bool                       the colour symmetry holds (egdbsym.c)
 *   egdb_board_symmetries(eg, use) -> (men, kings)   the board symmetries solve uses, with
 *                                                    men and kings alone (use 0/1: off/on)
 *   egdb_probe(eg, records) -> bytes                 the code of each position (uint16 each)
 *   egdb_index(eg, records) -> bytes                 (signature code uint32, index uint64) each
 *   egdb_decode(eg, sig, side, idx) -> record|None   the position of a slot (None: a gap)
 *
 * A signature is a tuple (wm, wk, bm, bk). A record is 7 little-endian uint64: the side to
 * move (0 White, 1 Black), then the white, black and king bitboards (bit n-1 = PDN square n),
 * each as its low and high word. Codes are stored little-endian, one or two bytes each.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "egdb.h"

#define TABLE_CAPSULE "pdnkit.core._core.Table"
#define EGDB_CAPSULE "pdnkit.core._core.Egdb"
#define RECORD 56

typedef struct {
    Egdb e;
    PyObject *table;
    Py_buffer views[EG_NSIG];
} EgObj;

static void free_egdb(PyObject *cap) {
    EgObj *o = PyCapsule_GetPointer(cap, EGDB_CAPSULE);
    if (!o)
        return;
    for (int i = 0; i < EG_NSIG; i++)
        if (o->e.slots[i].data)
            PyBuffer_Release(&o->views[i]);
    Py_XDECREF(o->table);
    PyMem_RawFree(o);
}

static EgObj *get_egdb(PyObject *obj) {
    if (!PyCapsule_IsValid(obj, EGDB_CAPSULE)) {
        PyErr_SetString(PyExc_TypeError, "expected an endgame database set (egdb_new)");
        return NULL;
    }
    return PyCapsule_GetPointer(obj, EGDB_CAPSULE);
}

static PyObject *py_egdb_new(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *tab;
    int losing = 0;
    if (!PyArg_ParseTuple(args, "Op", &tab, &losing))
        return NULL;
    if (!PyCapsule_IsValid(tab, TABLE_CAPSULE)) {
        PyErr_SetString(PyExc_TypeError, "expected a core table (pdnkit.core.pack)");
        return NULL;
    }
    EgObj *o = PyMem_RawCalloc(1, sizeof(EgObj));
    if (!o)
        return PyErr_NoMemory();
    const char *why = "bad table";
    if (eg_init(&o->e, PyCapsule_GetPointer(tab, TABLE_CAPSULE), losing, &why) < 0) {
        PyMem_RawFree(o);
        PyErr_Format(PyExc_ValueError, "no endgame database for this variant: %s", why);
        return NULL;
    }
    Py_INCREF(tab);
    o->table = tab;
    PyObject *cap = PyCapsule_New(o, EGDB_CAPSULE, free_egdb);
    if (!cap) {
        Py_DECREF(tab);
        PyMem_RawFree(o);
    }
    return cap;
}

static int get_sig(PyObject *obj, int sig[4]) {
    if (!PyArg_ParseTuple(obj, "iiii", &sig[0], &sig[1], &sig[2], &sig[3]))
        return -1;
    int total = 0;
    for (int i = 0; i < 4; i++) {
        if (sig[i] < 0 || sig[i] > EG_MAXP) {
            PyErr_SetString(PyExc_ValueError, "a signature count is out of range");
            return -1;
        }
        total += sig[i];
    }
    if (total > EG_MAXP) {
        PyErr_Format(PyExc_ValueError, "a signature has at most %d pieces", EG_MAXP);
        return -1;
    }
    return 0;
}

static int code_of_sig(const int s[4]) { return eg_sig_code(s[0], s[1], s[2], s[3]); }

static PyObject *py_egdb_add(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cap, *sigobj, *data;
    int width, sig[4];
    if (!PyArg_ParseTuple(args, "OOiO", &cap, &sigobj, &width, &data))
        return NULL;
    EgObj *o = get_egdb(cap);
    if (!o || get_sig(sigobj, sig) < 0)
        return NULL;
    if (width != 1 && width != 2) {
        PyErr_SetString(PyExc_ValueError, "a code is 1 or 2 bytes wide");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    uint64_t half = eg_half(&o->e, sig[0], sig[1], sig[2], sig[3]);
    if ((uint64_t)view.len != 2 * half * (uint64_t)width) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "the data does not have the signature's size");
        return NULL;
    }
    int c = code_of_sig(sig);
    EgSlot *s = &o->e.slots[c];
    if (s->data)
        PyBuffer_Release(&o->views[c]);
    o->views[c] = view;
    s->data = view.buf;
    s->width = width;
    s->half = half;
    Py_RETURN_NONE;
}

static PyObject *py_egdb_drop(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cap, *sigobj;
    int sig[4];
    if (!PyArg_ParseTuple(args, "OO", &cap, &sigobj))
        return NULL;
    EgObj *o = get_egdb(cap);
    if (!o || get_sig(sigobj, sig) < 0)
        return NULL;
    int c = code_of_sig(sig);
    if (o->e.slots[c].data) {
        o->e.slots[c].data = NULL;
        PyBuffer_Release(&o->views[c]);
    }
    Py_RETURN_NONE;
}

static PyObject *py_egdb_half(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cap, *sigobj;
    int sig[4];
    if (!PyArg_ParseTuple(args, "OO", &cap, &sigobj))
        return NULL;
    EgObj *o = get_egdb(cap);
    if (!o || get_sig(sigobj, sig) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(eg_half(&o->e, sig[0], sig[1], sig[2], sig[3]));
}

/* The codes of a signature as (bytes, width, stats): one byte each where they fit. */
static PyObject *codes_result(uint16_t *codes, size_t m, const EgStats *st) {
    int width = 1;
    for (size_t i = 0; i < m && width == 1; i++)
        if (codes[i] > 255)
            width = 2;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(m * (size_t)width));
    if (!out)
        return NULL;
    uint8_t *dst = (uint8_t *)PyBytes_AS_STRING(out);
    for (size_t i = 0; i < m; i++) {
        if (width == 1) {
            dst[i] = (uint8_t)codes[i];
        } else {
            dst[2 * i] = (uint8_t)(codes[i] & 0xFF);
            dst[2 * i + 1] = (uint8_t)(codes[i] >> 8);
        }
    }
    return Py_BuildValue("(Ni(KKKKii))", out, width, (unsigned long long)st->positions,
                         (unsigned long long)st->wins, (unsigned long long)st->losses,
                         (unsigned long long)st->draws, st->max_plies, st->passes);
}

/* egdb_solve (mirror 0) or egdb_mirror (mirror 1) of one signature. */
static PyObject *solve_or_mirror(PyObject *args, int mirror) {
    PyObject *cap, *sigobj;
    int sig[4];
    if (!PyArg_ParseTuple(args, "OO", &cap, &sigobj))
        return NULL;
    EgObj *o = get_egdb(cap);
    if (!o || get_sig(sigobj, sig) < 0)
        return NULL;
    uint64_t half = eg_half(&o->e, sig[0], sig[1], sig[2], sig[3]);
    if (2 * half >= 0x80000000ULL) {
        PyErr_SetString(PyExc_ValueError, "the signature has too many positions");
        return NULL;
    }
    size_t m = (size_t)(2 * half);
    uint16_t *codes = PyMem_RawMalloc(m ? m * 2 : 2);
    if (!codes)
        return PyErr_NoMemory();
    EgStats st;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mirror ? eg_mirror(&o->e, sig, codes, &st) : eg_solve(&o->e, sig, codes, &st);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        PyMem_RawFree(codes);
        if (rc == -1)
            return PyErr_NoMemory();
        PyErr_SetString(PyExc_ValueError,
                        rc == -2   ? "a database the signature leads to is not loaded"
                        : rc == -3 ? "the signature is too large to solve"
                        : rc == -5 ? "the variant's tables are not the same for both colours"
                                   : "the capture search failed");
        return NULL;
    }
    PyObject *out = codes_result(codes, m, &st);
    PyMem_RawFree(codes);
    return out;
}

static PyObject *py_egdb_solve(PyObject *self, PyObject *args) {
    (void)self;
    return solve_or_mirror(args, 0);
}

static PyObject *py_egdb_mirror(PyObject *self, PyObject *args) {
    (void)self;
    return solve_or_mirror(args, 1);
}

static PyObject *py_egdb_men(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cap;
    unsigned long long wlo, whi, blo, bhi;
    if (!PyArg_ParseTuple(args, "O(KK)(KK)", &cap, &wlo, &whi, &blo, &bhi))
        return NULL;
    EgObj *o = get_egdb(cap);
    if (!o)
        return NULL;
    for (int i = 0; i < EG_NSIG; i++)
        if (o->e.slots[i].data) {
            PyErr_SetString(PyExc_ValueError, "egdb_men: databases are added already");
            return NULL;
        }
    bb_t men[2] = {((bb_t)whi << 64) | wlo, ((bb_t)bhi << 64) | blo};
    eg_set_men(&o->e, men);
    Py_RETURN_NONE;
}

static PyObject *py_egdb_symmetric(PyObject *self, PyObject *cap) {
    (void)self;
    EgObj *o = get_egdb(cap);
    if (!o)
        return NULL;
    return PyBool_FromLong(o->e.symmetric);
}

static PyObject *py_egdb_board_symmetries(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cap;
    int use = -1;
    if (!PyArg_ParseTuple(args, "O|i", &cap, &use))
        return NULL;
    EgObj *o = get_egdb(cap);
    if (!o)
        return NULL;
    if (use >= 0)
        o->e.use_sym = use ? 1 : 0;
    return Py_BuildValue("(ii)", o->e.use_sym ? o->e.nsym[0] : 1,
                         o->e.use_sym ? o->e.nsym[1] : 1);
}

static uint64_t word(const uint8_t *p) {
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--)
        x = (x << 8) | p[i];
    return x;
}

static void put_word(uint8_t *p, uint64_t x) {
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(x >> (8 * i));
}

/* A record into a position; -1 when it is not one (a side, a square off the board, a
 * square held twice, a king that is no piece). */
static int read_record(const Egdb *e, const uint8_t *r, Pos *p) {
    uint64_t side = word(r);
    bb_t w = ((bb_t)word(r + 16) << 64) | word(r + 8);
    bb_t b = ((bb_t)word(r + 32) << 64) | word(r + 24);
    bb_t k = ((bb_t)word(r + 48) << 64) | word(r + 40);
    if (side > 1 || ((w | b) & ~e->t->board) || (w & b) || (k & ~(w | b)))
        return -1;
    memset(p, 0, sizeof *p);
    p->w = w;
    p->b = b;
    p->k = k;
    p->side = (int)side;
    p->csq[0] = p->csq[1] = -1;
    return 0;
}

static int get_records(PyObject *obj, Py_buffer *view) {
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0)
        return -1;
    if (view->len % RECORD) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "records are 56 bytes each");
        return -1;
    }
    return 0;
}

static PyObject *py_egdb_probe(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cap, *recs;
    if (!PyArg_ParseTuple(args, "OO", &cap, &recs))
        return NULL;
    EgObj *o = get_egdb(cap);
    Py_buffer view;
    if (!o || get_records(recs, &view) < 0)
        return NULL;
    Py_ssize_t n = view.len / RECORD;
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * 2);
    if (!out) {
        PyBuffer_Release(&view);
        return NULL;
    }
    uint8_t *dst = (uint8_t *)PyBytes_AS_STRING(out);
    const uint8_t *src = view.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        Pos p;
        int code = read_record(&o->e, src + i * RECORD, &p) < 0 ? EG_BAD : eg_lookup(&o->e, &p);
        dst[2 * i] = (uint8_t)(code & 0xFF);
        dst[2 * i + 1] = (uint8_t)(code >> 8);
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    return out;
}

static PyObject *py_egdb_index(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cap, *recs;
    if (!PyArg_ParseTuple(args, "OO", &cap, &recs))
        return NULL;
    EgObj *o = get_egdb(cap);
    Py_buffer view;
    if (!o || get_records(recs, &view) < 0)
        return NULL;
    Py_ssize_t n = view.len / RECORD;
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * 12);
    if (!out) {
        PyBuffer_Release(&view);
        return NULL;
    }
    uint8_t *dst = (uint8_t *)PyBytes_AS_STRING(out);
    for (Py_ssize_t i = 0; i < n; i++) {
        Pos p;
        int sig = -1;
        uint64_t idx = 0;
        if (read_record(&o->e, (const uint8_t *)view.buf + i * RECORD, &p) < 0 ||
            eg_index(&o->e, &p, &sig, &idx) < 0)
            sig = -1;
        for (int j = 0; j < 4; j++)
            dst[12 * i + j] = (uint8_t)((uint32_t)sig >> (8 * j));
        put_word(dst + 12 * i + 4, idx);
    }
    PyBuffer_Release(&view);
    return out;
}

static PyObject *py_egdb_decode(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cap, *sigobj;
    int sig[4], side;
    unsigned long long idx;
    if (!PyArg_ParseTuple(args, "OOiK", &cap, &sigobj, &side, &idx))
        return NULL;
    EgObj *o = get_egdb(cap);
    if (!o || get_sig(sigobj, sig) < 0)
        return NULL;
    if ((side != 0 && side != 1) || idx >= eg_half(&o->e, sig[0], sig[1], sig[2], sig[3])) {
        PyErr_SetString(PyExc_ValueError, "no such slot");
        return NULL;
    }
    Pos p;
    if (eg_decode(&o->e, sig, side, idx, &p) < 0)
        Py_RETURN_NONE;
    uint8_t r[RECORD];
    put_word(r, (uint64_t)p.side);
    put_word(r + 8, (uint64_t)p.w);
    put_word(r + 16, (uint64_t)(p.w >> 64));
    put_word(r + 24, (uint64_t)p.b);
    put_word(r + 32, (uint64_t)(p.b >> 64));
    put_word(r + 40, (uint64_t)p.k);
    put_word(r + 48, (uint64_t)(p.k >> 64));
    return PyBytes_FromStringAndSize((const char *)r, RECORD);
}

PyMethodDef EGDB_METHODS[] = {
    {"egdb_new", py_egdb_new, METH_VARARGS, "egdb_new(table, losing_game) -> an egdb set"},
    {"egdb_men", py_egdb_men, METH_VARARGS,
     "egdb_men(eg, (wlo, whi), (blo, bhi)): the squares a man of each side may stand on"},
    {"egdb_add", py_egdb_add, METH_VARARGS, "egdb_add(eg, sig, width, data)"},
    {"egdb_drop", py_egdb_drop, METH_VARARGS, "egdb_drop(eg, sig)"},
    {"egdb_half", py_egdb_half, METH_VARARGS, "egdb_half(eg, sig) -> slots per side to move"},
    {"egdb_solve", py_egdb_solve, METH_VARARGS, "egdb_solve(eg, sig) -> (codes, width, stats)"},
    {"egdb_mirror", py_egdb_mirror, METH_VARARGS,
     "egdb_mirror(eg, sig) -> (codes, width, stats) from the mirror signature's codes"},
    {"egdb_board_symmetries", py_egdb_board_symmetries, METH_VARARGS,
     "egdb_board_symmetries(eg, use=-1) -> (with men, kings alone): the board symmetries "
     "egdb_solve uses (use 0 or 1 turns them off or on)"},
    {"egdb_symmetric", py_egdb_symmetric, METH_O,
     "egdb_symmetric(eg) -> the tables are the same for both colours under a half-turn"},
    {"egdb_probe", py_egdb_probe, METH_VARARGS, "egdb_probe(eg, records) -> uint16 codes"},
    {"egdb_index", py_egdb_index, METH_VARARGS, "egdb_index(eg, records) -> (sig, index) each"},
    {"egdb_decode", py_egdb_decode, METH_VARARGS, "egdb_decode(eg, sig, side, idx) -> record"},
    {NULL, NULL, 0, NULL}};
