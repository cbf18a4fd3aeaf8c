/* The import's row kernels (pdnkit/core/rows.py wraps them): what the loader cut from a compiled
 * replay's arrays a ply at a time in Python, in one pass each.
 *
 *   lane_notes(raw, spans, flags, n, plies, last_stop) -> (nags, comments)
 *       the NAGs and comments after each annotated ply of a clean game whose text is ASCII
 *       (pdnkit/validation/coreplies.py LaneFields: the pattern \{([^{}]*)\}|\$(\d+) over
 *       the text between a move and the next)
 *   spans_text(parts) -> (offsets, body)
 *       the written moves of a batch's runs as an Arrow string column's buffers: each part a
 *       (text, int32 starts, int32 ends) triple of one game, the spans' bytes gathered in order
 *   index_pairs(wm, wk, bm, bk, black, game, ply, game_offset, min_ply, key_mask, block_shift)
 *       the position index's (key, block) pairs of a batch's positions as uint64s
 *       ((key << 32) | block), one a position past min_ply: square bitboards of squares 1-64
 *       (uint64 buffers), Black to move (a byte each), local game numbers (int64, shifted by
 *       game_offset) and plies (int32); the key is position_key's (pdnkit/rules/position.py)
 *       low bits, the block the game number shifted right. The GIL is released meanwhile.
 *
 * Bad arguments raise TypeError or ValueError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#include "replay.h"

/* The bytes of an ASCII str or of a bytes object (borrowed), or NULL with an exception set. */
static const char *ascii_of(PyObject *o, Py_ssize_t *len) {
    if (PyBytes_Check(o)) {
        *len = PyBytes_GET_SIZE(o);
        return PyBytes_AS_STRING(o);
    }
    if (PyUnicode_Check(o) && PyUnicode_IS_ASCII(o)) {
        *len = PyUnicode_GET_LENGTH(o);
        return (const char *)PyUnicode_DATA(o);
    }
    PyErr_SetString(PyExc_TypeError, "a text must be bytes or an ASCII str");
    return NULL;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* The NAGs and comments of the text [a, b) into nags (a list) and the comments joined by
 * spaces (*comment: a new str, or NULL where there is none): 0, or -1 with an exception set. */
static int notes_of(const char *s, Py_ssize_t a, Py_ssize_t b, PyObject *nags,
                    PyObject **comment) {
    PyObject *parts = NULL;
    *comment = NULL;
    for (Py_ssize_t p = a; p < b;) {
        if (s[p] == '{') {
            Py_ssize_t q = p + 1;
            while (q < b && s[q] != '{' && s[q] != '}')
                q++;
            if (q < b && s[q] == '}') {
                PyObject *c = PyUnicode_DecodeASCII(s + p + 1, q - p - 1, NULL);
                if (!c || ((!parts && !(parts = PyList_New(0))) || PyList_Append(parts, c) < 0)) {
                    Py_XDECREF(c);
                    Py_XDECREF(parts);
                    return -1;
                }
                Py_DECREF(c);
                p = q + 1;
                continue;
            }
        } else if (s[p] == '$' && p + 1 < b && is_digit(s[p + 1])) {
            Py_ssize_t q = p + 1;
            while (q < b && is_digit(s[q]))
                q++;
            char buf[64];
            PyObject *v;
            if (q - p - 1 < (Py_ssize_t)sizeof buf) {
                memcpy(buf, s + p + 1, (size_t)(q - p - 1));
                buf[q - p - 1] = '\0';
                v = PyLong_FromString(buf, NULL, 10);
            } else {
                PyObject *txt = PyUnicode_DecodeASCII(s + p + 1, q - p - 1, NULL);
                v = txt ? PyLong_FromUnicodeObject(txt, 10) : NULL;
                Py_XDECREF(txt);
            }
            if (!v || PyList_Append(nags, v) < 0) {
                Py_XDECREF(v);
                Py_XDECREF(parts);
                return -1;
            }
            Py_DECREF(v);
            p = q;
            continue;
        }
        p++;
    }
    if (parts) {
        PyObject *sep = PyUnicode_FromString(" ");
        *comment = sep ? PyUnicode_Join(sep, parts) : NULL;
        Py_XDECREF(sep);
        Py_DECREF(parts);
        if (!*comment)
            return -1;
    }
    return 0;
}

static PyObject *py_lane_notes(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *raw;
    Py_buffer spans, flags;
    Py_ssize_t n, plies, last_stop;
    if (!PyArg_ParseTuple(args, "Oy*y*nnn", &raw, &spans, &flags, &n, &plies, &last_stop))
        return NULL;
    PyObject *nags = NULL, *comments = NULL, *out = NULL;
    Py_ssize_t len;
    const char *s = ascii_of(raw, &len);
    const int32_t *sp = spans.buf;
    const uint8_t *fl = flags.buf;
    if (!s)
        goto done;
    if (n < 0 || plies < n || spans.len < (Py_ssize_t)(8 * plies) || flags.len < n) {
        PyErr_SetString(PyExc_ValueError, "lane_notes: spans or flags shorter than the plies");
        goto done;
    }
    nags = PyList_New(n);
    comments = PyList_New(n);
    if (!nags || !comments)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_INCREF(Py_None);
        PyList_SET_ITEM(nags, i, Py_None);
        Py_INCREF(Py_None);
        PyList_SET_ITEM(comments, i, Py_None);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!(fl[i] & F_ANNOTATED))
            continue;
        Py_ssize_t a = sp[2 * i + 1], b = i + 1 < plies ? sp[2 * i + 2] : last_stop;
        if (a < 0)
            a = 0;
        if (b > len)
            b = len;
        PyObject *got = PyList_New(0), *comment = NULL;
        if (!got || (a < b && notes_of(s, a, b, got, &comment) < 0)) {
            Py_XDECREF(got);
            goto done;
        }
        if (PyList_GET_SIZE(got)) {
            PyList_SetItem(nags, i, got);
        } else {
            Py_DECREF(got);
        }
        if (comment)
            PyList_SetItem(comments, i, comment);
    }
    out = PyTuple_Pack(2, nags, comments);
done:
    Py_XDECREF(nags);
    Py_XDECREF(comments);
    PyBuffer_Release(&spans);
    PyBuffer_Release(&flags);
    return out;
}

static PyObject *py_spans_text(PyObject *self, PyObject *arg) {
    (void)self;
    PyObject *parts = PySequence_Fast(arg, "spans_text: parts must be a sequence");
    if (!parts)
        return NULL;
    const Py_ssize_t np = PySequence_Fast_GET_SIZE(parts);
    PyObject **items = PySequence_Fast_ITEMS(parts);
    PyObject *offsets = NULL, *body = NULL, *out = NULL;
    Py_ssize_t rows = 0, size = 0;
    for (int pass = 0; pass < 2; pass++) {
        int32_t *off = pass ? (int32_t *)(void *)PyBytes_AS_STRING(offsets) : NULL;
        char *dst = pass ? PyBytes_AS_STRING(body) : NULL;
        Py_ssize_t row = 0, at = 0;
        if (pass)
            off[0] = 0;
        for (Py_ssize_t j = 0; j < np; j++) {
            PyObject *t = items[j];
            if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3 ||
                !PyBytes_Check(PyTuple_GET_ITEM(t, 1)) || !PyBytes_Check(PyTuple_GET_ITEM(t, 2))) {
                PyErr_SetString(PyExc_TypeError,
                                "spans_text: each part is (text, int32 starts, int32 ends)");
                goto done;
            }
            Py_ssize_t len;
            const char *s = ascii_of(PyTuple_GET_ITEM(t, 0), &len);
            if (!s)
                goto done;
            PyObject *so = PyTuple_GET_ITEM(t, 1), *eo = PyTuple_GET_ITEM(t, 2);
            const Py_ssize_t k = PyBytes_GET_SIZE(so) / 4;
            if (PyBytes_GET_SIZE(so) % 4 || PyBytes_GET_SIZE(eo) != PyBytes_GET_SIZE(so)) {
                PyErr_SetString(PyExc_ValueError, "spans_text: starts and ends differ in size");
                goto done;
            }
            const char *sb = PyBytes_AS_STRING(so), *eb = PyBytes_AS_STRING(eo);
            for (Py_ssize_t i = 0; i < k; i++) {
                int32_t a, b;
                memcpy(&a, sb + 4 * i, 4);
                memcpy(&b, eb + 4 * i, 4);
                if (a < 0 || b < a || b > len) {
                    PyErr_SetString(PyExc_ValueError, "spans_text: a span outside its text");
                    goto done;
                }
                if (pass)
                    memcpy(dst + at, s + a, (size_t)(b - a));
                at += b - a;
                if (at > INT32_MAX) {
                    PyErr_SetString(PyExc_OverflowError, "spans_text: over 2 GB of text");
                    goto done;
                }
                row++;
                if (pass)
                    off[row] = (int32_t)at;
            }
        }
        if (!pass) {
            rows = row;
            size = at;
            offsets = PyBytes_FromStringAndSize(NULL, 4 * (rows + 1));
            body = PyBytes_FromStringAndSize(NULL, size);
            if (!offsets || !body)
                goto done;
        }
    }
    out = PyTuple_Pack(2, offsets, body);
done:
    Py_XDECREF(offsets);
    Py_XDECREF(body);
    Py_DECREF(parts);
    return out;
}

/* position_key (movegen.c) of square bitboards of squares 1-64 (as an unsigned word): the
 * white pieces, the black pieces and the kings, as the engine's words are keyed */
static inline uint64_t square_key(uint64_t wm, uint64_t wk, uint64_t bm, uint64_t bk, int black) {
    return (uint64_t)position_key((bb_t)(wm | wk), (bb_t)(bm | bk), (bb_t)(wk | bk), black);
}

static PyObject *py_index_pairs(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer wm, wk, bm, bk, black, game, ply;
    long long offset, min_ply;
    unsigned long long mask;
    int shift;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*LLKi", &wm, &wk, &bm, &bk, &black, &game, &ply,
                          &offset, &min_ply, &mask, &shift))
        return NULL;
    PyObject *out = NULL;
    const Py_ssize_t n = black.len;
    if (wm.len != 8 * n || wk.len != 8 * n || bm.len != 8 * n || bk.len != 8 * n ||
        game.len != 8 * n || ply.len != 4 * n) {
        PyErr_SetString(PyExc_ValueError, "index_pairs: columns of different lengths");
        goto done;
    }
    if (shift < 0 || shift > 63 || mask > 0xFFFFFFFFULL) {
        PyErr_SetString(PyExc_ValueError, "index_pairs: block shift 0-63, key mask of 32 bits");
        goto done;
    }
    Py_ssize_t kept = 0;
    const int32_t *pl = ply.buf;
    for (Py_ssize_t i = 0; i < n; i++)
        kept += pl[i] > min_ply;
    out = PyBytes_FromStringAndSize(NULL, 8 * kept);
    if (!out)
        goto done;
    uint64_t *dst = (uint64_t *)(void *)PyBytes_AS_STRING(out);
    const uint64_t *a = wm.buf, *b = wk.buf, *c = bm.buf, *d = bk.buf;
    const uint8_t *side = black.buf;
    const int64_t *g = game.buf;
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t at = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (pl[i] <= min_ply)
            continue;
        const uint64_t key = square_key(a[i], b[i], c[i], d[i], side[i] != 0) & mask;
        const uint64_t block = (uint64_t)(g[i] + offset) >> shift;
        dst[at++] = key << 32 | (block & 0xFFFFFFFFULL);
    }
    Py_END_ALLOW_THREADS
done:
    PyBuffer_Release(&wm);
    PyBuffer_Release(&wk);
    PyBuffer_Release(&bm);
    PyBuffer_Release(&bk);
    PyBuffer_Release(&black);
    PyBuffer_Release(&game);
    PyBuffer_Release(&ply);
    return out;
}

PyMethodDef ROWS_METHODS[] = {
    {"lane_notes", py_lane_notes, METH_VARARGS,
     "lane_notes(raw, spans, flags, n, plies, last_stop) -> (nags, comments)"},
    {"spans_text", py_spans_text, METH_O, "spans_text(parts) -> (int32 offsets, body)"},
    {"index_pairs", py_index_pairs, METH_VARARGS,
     "index_pairs(wm, wk, bm, bk, black, game, ply, game_offset, min_ply, key_mask, "
     "block_shift) -> uint64 (key << 32 | block) pairs"},
    {NULL, NULL, 0, NULL}};
