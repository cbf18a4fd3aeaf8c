"""The rows of a compact report's plain run, cut from arrays: one :class:`RunChunk` per run,
made into Arrow columns a batch at a time (:func:`run_columns`), without a Python object per
ply where the compiled core replayed the run.

A run of the compiled core (:class:`pdnkit.validation.coreplies.CoreRun`) gives its moves as
the core's byte arrays: origin, destination and flags a byte a ply, path and captured squares
as bytes with int32 ends, the square bitboards after each ply as uint64s, and (for a game the
compiled lane read, whose text is ASCII) the written moves as spans of the game's text. A
chunk keeps those slices as they are; :func:`run_columns` joins the chunks of a batch and
cuts each column out with numpy: the canonical notation by index into a table of every short
form of the board (:func:`short_forms`, the rule of
:func:`pdnkit.validation.coreplies.core_notation`: ``origin``, ``-`` or the variant's capture
separator, ``destination``; the few plies the core flagged for their full path are given as
strings), the written moves by gathering their bytes, the engine bitboards through a lookup
table a byte at a time (:func:`engine_planes`). A run of the Python replay
(:class:`pdnkit.validation.report.PlainRun`) is put in the same shape from its moves.

Example:
    >>> from pdnkit.validation import validate
    >>> rep = next(validate('[GameType "20"] 1. 32-28 19-23 2. 28x19 14x23 *', compact=True))
    >>> from pdnkit.rows.bitboards import board_layout
    >>> chunk = run_chunk(rep.plain, board_layout(rep.plain.rules))
    >>> cols = run_columns([chunk])
    >>> cols["canonical"].to_pylist(), cols["captured"].to_pylist()[2]
    (['32-28', '19-23', '28x19', '14x23'], [23])
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any

from pdnkit.core import FLAG_CAPTURE, FLAG_FULL_PATH, FLAG_KING, FLAG_PROMOTES, move_number
from pdnkit.core.rowkernels import spans_text

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

    from pdnkit.rows.bitboards import BoardLayout
    from pdnkit.rules.variants import Rules

__all__ = ["PendingHash", "RunChunk", "engine_planes", "hash_runs", "run_chunk", "run_columns",
           "run_tables", "short_forms"]

#: flags byte -> 1 where the core flagged the ply's notation as its full path
_FULL = bytes(1 if b & FLAG_FULL_PATH else 0 for b in range(256))


class RunChunk:
    """The moves of one plain run as arrays (see the module doc). ``written`` is
    ``(ASCII text (str or bytes), int32 starts, int32 ends)`` or a list of str; ``canonical`` is
    ``(names, separator, {ply: full-path notation})`` (short forms from the arrays) or a
    list of str; ``nags``/``comment``/``line`` a list or ``None``/int32 bytes; ``bits`` the
    square bitboards (``wm, wk, bm, bk`` uint64s a ply) or ``(w, b, k)`` engine lists
    (``None``: a board of more than 64 engine bits, whose positions are written apart)."""

    __slots__ = ("n", "origin", "destination", "flags", "path_ends", "path", "cap_ends",
                 "captured", "written", "canonical", "nags", "comment", "line", "bits",
                 "engine")

    def __init__(self, n: int) -> None:
        self.n = n
        self.origin = self.destination = self.flags = b""
        self.path_ends = self.path = self.cap_ends = self.captured = b""
        self.written: tuple[str | bytes, bytes, bytes] | list[str] = []
        self.canonical: tuple[tuple[str, ...], str, dict[int, str]] | list[str] = []
        self.nags: list[list[int] | None] | None = None
        self.comment: list[str | None] | None = None
        self.line: bytes | list[int | None] = b""
        self.bits: bytes | tuple[list[int], list[int], list[int]] | None = None
        #: the engine bit of each square (``BoardLayout.engine_bits``)
        self.engine: tuple[int, ...] = ()

    def __getstate__(self) -> tuple[Any, ...]:
        return tuple(getattr(self, s) for s in self.__slots__)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        for s, v in zip(self.__slots__, state, strict=True):
            setattr(self, s, v)


def run_chunk(run: Any, layout: BoardLayout) -> RunChunk:
    """The :class:`RunChunk` of a plain run (a ``CoreRun`` of the compiled core, or a
    ``PlainRun``) on the board ``layout`` describes."""
    n = len(run)
    rep = getattr(run, "rep", None)
    chunk = RunChunk(n)
    narrow = max(layout.engine_bits) < 64
    if narrow:
        chunk.engine = layout.engine_bits
    if rep is not None:
        _core_moves(chunk, run, rep, n)
        if narrow:
            chunk.bits = rep.bits[:32 * n]
    else:
        _python_moves(chunk, run, n)
        if narrow:
            afters = run.afters
            w, b, k = zip(*(a.engine_bits for a in afters), strict=True) if afters else ((), (), ())
            chunk.bits = (list(w), list(b), list(k))
    return chunk


def _core_moves(chunk: RunChunk, run: Any, rep: Any, n: int) -> None:
    """A chunk's moves from the arrays of a compiled replay (plies ``0`` to ``n - 1``)."""
    po = memoryview(rep.path_offsets).cast("i")
    co = memoryview(rep.captured_offsets).cast("i")
    chunk.origin = rep.origin[:n]
    chunk.destination = rep.destination[:n]
    flags = chunk.flags = rep.flags[:n]
    chunk.path_ends = rep.path_offsets[4:4 * n + 4]
    chunk.path = rep.path[:po[n]]
    chunk.cap_ends = rep.captured_offsets[4:4 * n + 4]
    chunk.captured = rep.captured[:co[n]]
    rules: Rules = run.rules
    from pdnkit.rules.notation import square_names

    full: dict[int, str] = {}
    marks = flags.translate(_FULL)
    i = marks.find(1)
    if i >= 0:
        from pdnkit.validation.coreplies import core_notation

        while i >= 0:
            full[i] = core_notation(rules, rep, i)
            i = marks.find(1, i + 1)
    chunk.canonical = (square_names(rules), rules.capture_separator, full)
    text = getattr(run.fields, "text_columns", None)
    got = text(n) if text is not None else None
    if got is not None:
        chunk.written, chunk.nags, chunk.comment, chunk.line = got
        return
    written, nags, comments, lines = run.fields.columns(n)
    chunk.written = written
    chunk.nags = nags if any(nags) else None
    chunk.comment = comments if any(comments) else None
    chunk.line = lines


def _python_moves(chunk: RunChunk, run: Any, n: int) -> None:
    """A chunk's moves from a Python replay's run (its moves and nodes)."""
    moves = run.moves[:n]
    chunk.origin = bytes(m.origin for m in moves)
    chunk.destination = bytes(m.destination for m in moves)
    chunk.flags = bytes((FLAG_CAPTURE if m.captured else 0) | (FLAG_PROMOTES if m.promotes
                        else 0) | (FLAG_KING if m.is_king else 0) for m in moves)
    paths = [tuple(m.path) for m in moves]
    caps = [tuple(m.captured) for m in moves]
    chunk.path = bytes(s for p in paths for s in p)
    chunk.path_ends = _ends(paths)
    chunk.captured = bytes(s for c in caps for s in c)
    chunk.cap_ends = _ends(caps)
    chunk.canonical = run.notations()
    nodes = run.nodes[:n]
    chunk.written = [nd.text for nd in nodes]
    nags = [nd.nags or None for nd in nodes]
    comments = [" ".join(nd.comments_after) if nd.comments_after else None for nd in nodes]
    chunk.nags = nags if any(nags) else None
    chunk.comment = comments if any(comments) else None
    chunk.line = [nd.line for nd in nodes]


def _ends(parts: list[tuple[int, ...]]) -> bytes:
    out = array("i")
    total = 0
    for p in parts:
        total += len(p)
        out.append(total)
    return out.tobytes()


#: (names, separator) -> every short form of the board as an Arrow string array
_FORMS: dict[tuple[tuple[str, ...], str], pa.Array] = {}


def short_forms(names: tuple[str, ...], sep: str) -> pa.Array:
    """Every short-form notation of a board whose square ``n`` is named ``names[n]``: entry
    ``(c * S + o) * S + d`` (``S = len(names)``) is the move from ``o`` to ``d``, a capture
    when ``c`` is 1 (``sep`` between the squares, else ``-``).

    Example:
        >>> forms = short_forms(("", "a1", "b2"), "x")
        >>> forms[(1 * 3 + 1) * 3 + 2].as_py(), forms[(0 * 3 + 2) * 3 + 1].as_py()
        ('a1xb2', 'b2-a1')
    """
    key = (names, sep)
    got = _FORMS.get(key)
    if got is None:
        import pyarrow as pa

        got = _FORMS[key] = pa.array(
            [f"{names[o]}{s}{names[d]}" for s in ("-", sep) for o in range(len(names))
             for d in range(len(names))], pa.string())
    return got


def engine_planes(bits: np.ndarray, engine: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """The engine bitboards ``(w, b, k)`` of square bitboards ``bits`` (an ``(n, 4)`` uint64
    array: white men, white kings, black men, black kings; bit ``s - 1`` for square ``s``),
    whose square ``s`` is engine bit ``engine[s - 1]`` (all below 64).

    Example:
        >>> import numpy as np
        >>> w, b, k = engine_planes(np.array([[0b01, 0, 0b10, 0]], np.uint64), (0, 2))
        >>> int(w[0]), int(b[0]), int(k[0])
        (1, 4, 0)
    """
    import numpy as np

    lut = _lookup(engine)
    w = bits[:, 0] | bits[:, 1]
    b = bits[:, 2] | bits[:, 3]
    k = bits[:, 1] | bits[:, 3]
    out = []
    for plane in (w, b, k):
        octets = np.ascontiguousarray(plane).view(np.uint8).reshape(-1, 8)
        acc = np.zeros(len(plane), np.uint64)
        for j in range(lut.shape[0]):
            acc |= lut[j][octets[:, j]]
        out.append(acc)
    return tuple(out)


_LUTS: dict[tuple[int, ...], np.ndarray] = {}


def _lookup(engine: tuple[int, ...]) -> np.ndarray:
    """``lut[j][v]``: the engine bits of the squares ``8j + 1`` ... that byte ``j`` of a
    square bitboard (value ``v``) holds."""
    got = _LUTS.get(engine)
    if got is None:
        import numpy as np

        rows = (len(engine) + 7) // 8
        got = np.zeros((rows, 256), np.uint64)
        for j in range(rows):
            for v in range(256):
                acc = 0
                for bit in range(8):
                    s = 8 * j + bit
                    if v >> bit & 1 and s < len(engine):
                        acc |= 1 << engine[s]
                got[j][v] = acc
        _LUTS[engine] = got
    return got


def run_columns(chunks: list[RunChunk]) -> dict[str, Any]:
    """The ``run_moves`` columns (:attr:`pdnkit.rows.batch.ReportBatch.RUN_MOVE_COLS`) of
    the runs ``chunks`` hold, in order, as Arrow arrays; ``numeric``, each move in numeric
    notation; ``squares`` and ``bits``, the bitboards after each ply of the runs on
    boards of at most 64 bits (numpy uint64 arrays: see :func:`_bits`)."""
    import numpy as np
    import pyarrow as pa

    ns = np.fromiter((c.n for c in chunks), np.int64, len(chunks))
    total = int(ns.sum())
    i32 = pa.int32()
    out: dict[str, Any] = {
        "notation": _strings([c.written for c in chunks], ns),
        "canonical": _canonical(chunks, ns),
        "origin": np.frombuffer(b"".join([c.origin for c in chunks]), np.uint8).astype(np.int32),
        "destination": np.frombuffer(b"".join([c.destination for c in chunks]),
                                     np.uint8).astype(np.int32),
    }
    flags = np.frombuffer(b"".join([c.flags for c in chunks]), np.uint8)
    path = _lists([c.path_ends for c in chunks], [c.path for c in chunks], ns)
    lens = np.diff(np.asarray(path.offsets))
    # a path of two squares is origin and destination: stored as NULL
    out["path"] = pa.ListArray.from_arrays(path.offsets, path.values,
                                           mask=pa.array(lens <= 2))
    out["captured"] = _lists([c.cap_ends for c in chunks], [c.captured for c in chunks], ns)
    out["promotes"] = (flags & FLAG_PROMOTES) != 0
    out["king"] = (flags & FLAG_KING) != 0
    out["nags"] = _optional([c.nags for c in chunks], ns, pa.list_(i32))
    out["comment"] = _optional([c.comment for c in chunks], ns, pa.string())
    lines = [c.line for c in chunks]
    if all(type(x) is bytes for x in lines):
        out["line"] = np.frombuffer(b"".join(lines), np.int32)  # type: ignore[arg-type]
    else:
        out["line"] = pa.array([v for x in lines for v in _ints(x)], i32)
    out["numeric"] = _numeric(out["origin"], out["destination"], flags)
    out["squares"], out["bits"] = _bits(chunks)
    assert len(out["origin"]) == total
    return out


def run_tables(runs: dict[str, list[Any]], chunks: list[RunChunk], hashes: list[Any],
               schemas: dict[str, pa.Schema]) -> tuple[pa.Table, pa.Table, pa.Table]:
    """A batch's plain runs as Arrow (``runs``: a row per run, as
    :attr:`pdnkit.rows.batch.ReportBatch.runs` holds them; ``chunks`` their moves;
    ``hashes``: the batch's ``moves_hash`` column, whose :class:`PendingHash` entries are
    computed here): the moves as ``move_rows`` stores them (``run_moves``: game, ply,
    ``number_offset`` and ``black`` expanded from each run's row with numpy; a written move
    its numeric form spells, a canonical form equal to the written one, a two-square path
    given as NULL), the positions after them as engine bitboards (``position_bits``) or,
    where the compiled core replayed every run, as square bitboards (``run_squares``)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    cols = run_columns(chunks)
    squares, planes = cols.pop("squares"), cols.pop("bits")
    numeric = cols.pop("numeric")
    hash_runs(hashes, chunks, cols["canonical"])
    lens = np.asarray(runs["plies"], dtype=np.int64)
    total = int(lens.sum())
    gid = np.repeat(np.asarray(runs["game_id"], dtype=np.int64), lens)
    ply = np.arange(1, total + 1, dtype=np.int64) - np.repeat(np.cumsum(lens) - lens, lens)
    number = move_number(ply - 1, np.repeat(np.asarray(runs["base"], dtype=np.int64), lens),
                         np.repeat(np.asarray(runs["offset"], dtype=np.int64), lens))
    black = (np.repeat(np.asarray(runs["first"], dtype=np.int64), lens) + ply - 1) % 2 == 1
    # implied_move_number(ply, side) of schema.sql
    implied = (ply + 1) // 2 + ((~black) & (ply % 2 == 0))
    written, canonical = cols["notation"], cols["canonical"]
    cols["notation"] = pc.if_else(pc.fill_null(pc.equal(written, numeric), False),
                                  pa.scalar(None, pa.string()), written)
    cols["canonical"] = pc.if_else(pc.fill_null(pc.equal(canonical, written), False),
                                   pa.scalar(None, pa.string()), canonical)
    moves = {"game_id": gid, "ply": ply.astype(np.int32),
             "number_offset": (number - implied).astype(np.int32), "black": black, **cols}
    layout = np.repeat(np.asarray(runs["layout"], dtype=np.int16), lens)
    narrow = layout >= 0  # positions of boards of more than 64 bits were written in Python
    where = {"game_id": gid[narrow], "ply": ply[narrow].astype(np.int32),
             "layout": layout[narrow]}
    after = ~black[narrow]  # Black to move after the ply
    if squares:
        sq = pa.table({**where, "black": after, "wm": planes[0], "wk": planes[1],
                       "bm": planes[2], "bk": planes[3]}, schema=schemas["run_squares"])
        bits = schemas["position_bits"].empty_table()
    else:
        sq = schemas["run_squares"].empty_table()
        bits = pa.table({**where, "black": after.astype(np.int8), "w": planes[0],
                         "b": planes[1], "k": planes[2]}, schema=schemas["position_bits"])
    return pa.table(moves, schema=schemas["run_moves"]), bits, sq


def _numeric(origin: np.ndarray, destination: np.ndarray, flags: np.ndarray) -> pa.Array:
    """Each move in numeric notation (``numeric_move`` of ``schema.sql``: ``32-28``,
    ``28x19``), from the short forms of numbered squares."""
    import numpy as np
    import pyarrow as pa

    if not len(origin):
        return pa.array([], pa.string())
    size = int(max(origin.max(), destination.max())) + 1
    forms = short_forms(tuple(str(n) for n in range(size)), "x")
    cap = ((flags & FLAG_CAPTURE) != 0).astype(np.int64)
    return forms.take(pa.array((cap * size + origin) * size + destination))


def _ints(x: bytes | list[int | None]) -> list[int | None]:
    return list(memoryview(x).cast("i")) if type(x) is bytes else list(x)


def _offsets(ends: list[bytes], sizes: np.ndarray, ns: np.ndarray) -> np.ndarray:
    """The int32 offsets (``len + 1``) of the joined per-chunk ``ends`` (each chunk's ends
    relative to its own start; ``sizes``: each chunk's length of values)."""
    import numpy as np

    rel = np.frombuffer(b"".join(ends), np.int32)
    base = np.repeat(np.cumsum(sizes) - sizes, ns)
    return np.concatenate([np.zeros(1, np.int32), (rel + base).astype(np.int32)])


def _lists(ends: list[bytes], values: list[bytes], ns: np.ndarray) -> pa.ListArray:
    """A ``list<int32>`` array of squares from per-chunk ends and bytes of squares."""
    import numpy as np
    import pyarrow as pa

    sizes = np.fromiter(map(len, values), np.int64, len(values))
    offsets = _offsets(ends, sizes, ns)
    squares = np.frombuffer(b"".join(values), np.uint8).astype(np.int32)
    return pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), pa.array(squares))


def _strings(parts: list[Any], ns: np.ndarray) -> pa.Array:
    """A string array of per-chunk ``(text, starts, ends)`` spans or lists of str: the
    spans' bytes gathered in one pass (:func:`pdnkit.core.rowkernels.spans_text`)."""
    import pyarrow as pa

    if not all(type(p) is tuple for p in parts):
        parts = [p if type(p) is tuple else _spans(p) for p in parts]
    offsets, body = spans_text(parts)
    return pa.StringArray.from_buffers(int(ns.sum()), pa.py_buffer(offsets),
                                       pa.py_buffer(body))


def _spans(strs: list[str]) -> tuple[bytes, bytes, bytes]:
    """A list of str as ``(utf-8 text, starts, ends)``."""
    encoded = [s.encode() for s in strs]
    ends = array("i")
    total = 0
    for e in encoded:
        total += len(e)
        ends.append(total)
    starts = array("i", [0, *ends[:-1]]) if ends else array("i")
    return b"".join(encoded), starts.tobytes(), ends.tobytes()


def _canonical(chunks: list[RunChunk], ns: np.ndarray) -> pa.Array:
    """The canonical notations of the runs: short forms by index into
    :func:`short_forms` of each board (one vectorized index over the batch: each chunk's
    table base and board size repeated over its plies), the rest (full paths, a Python
    run's) as given."""
    import numpy as np
    import pyarrow as pa

    tables: dict[tuple[tuple[str, ...], str], int] = {}
    dictionary: list[pa.Array] = []
    size = 0
    extra: list[str] = []
    bases = np.zeros(len(chunks), np.int64)
    sizes = np.zeros(len(chunks), np.int64)
    given: list[tuple[int, int, int]] = []  # (first row, first extra, plies) of Python runs
    full_rows: list[int] = []  # rows whose notation is the extra after the given ones
    full_texts: list[str] = []
    at = 0
    for j, c in enumerate(chunks):
        canon = c.canonical
        if isinstance(canon, list):
            given.append((at, len(extra), c.n))
            extra.extend(canon)
        else:
            names, sep, full = canon
            key = (names, sep)
            base = tables.get(key)
            if base is None:
                forms = short_forms(names, sep)
                base = tables[key] = size
                dictionary.append(forms)
                size += len(forms)
            bases[j] = base
            sizes[j] = len(names)
            for i, text in full.items():
                full_rows.append(at + i)
                full_texts.append(text)
        at += c.n
    s = np.repeat(sizes, ns)
    o = np.frombuffer(b"".join([c.origin for c in chunks]), np.uint8).astype(np.int64)
    d = np.frombuffer(b"".join([c.destination for c in chunks]), np.uint8).astype(np.int64)
    cap = (np.frombuffer(b"".join([c.flags for c in chunks]), np.uint8) & FLAG_CAPTURE) != 0
    idx = np.repeat(bases, ns) + (cap * s + o) * s + d
    extra_base = size
    for row, first, n in given:
        idx[row:row + n] = np.arange(extra_base + first, extra_base + first + n)
    if full_rows:
        idx[np.asarray(full_rows, np.int64)] = np.arange(
            extra_base + len(extra), extra_base + len(extra) + len(full_rows))
        extra.extend(full_texts)
    dictionary.append(pa.array(extra, pa.string()))
    return pa.concat_arrays(dictionary).take(pa.array(idx))


def _optional(parts: list[list[Any] | None], ns: np.ndarray, kind: pa.DataType) -> pa.Array:
    """A column that is mostly NULL (NAGs, comments): per-chunk lists or ``None``."""
    import pyarrow as pa

    if all(p is None for p in parts):
        return pa.nulls(int(ns.sum()), kind)
    values: list[Any] = []
    for p, n in zip(parts, ns.tolist(), strict=True):
        values.extend([None] * n if p is None else p)
    return pa.array(values, kind)


def _bits(chunks: list[RunChunk]) -> tuple[bool, list[np.ndarray]]:
    """The positions after each ply of the runs on boards of at most 64 bits: ``(True,
    [wm, wk, bm, bk])``, the square bitboards, when the compiled core replayed every one
    of them, else ``(False, [w, b, k])``, the engine bitboards (those of the core cut by
    :func:`engine_planes`)."""
    import numpy as np

    narrow = [c for c in chunks if c.bits is not None]
    if all(type(c.bits) is bytes for c in narrow):
        q = np.frombuffer(b"".join([c.bits for c in narrow]),  # type: ignore[misc]
                          "<u8").reshape(-1, 4)
        return True, [q[:, 0], q[:, 1], q[:, 2], q[:, 3]]
    planes: list[list[np.ndarray]] = [[], [], []]
    for c in narrow:
        if type(c.bits) is bytes:
            got = engine_planes(np.frombuffer(c.bits, "<u8").reshape(-1, 4), c.engine)
        else:
            got = tuple(np.asarray(x, np.uint64) for x in c.bits)  # type: ignore[union-attr]
        for j in range(3):
            planes[j].append(got[j])
    return False, [np.concatenate(p) for p in planes]


class PendingHash:
    """A game's ``moves_hash`` (:func:`pdnkit.rows.batch.moves_hash`) whose leading plies
    are a run: computed by :func:`hash_runs` once the batch's canonical notations are an
    Arrow array, from their bytes (``rest``: the notations of the plies after the run)."""

    __slots__ = ("variant", "start_fen", "chunk", "rest")

    def __init__(self, variant: str | None, start_fen: str | None, chunk: RunChunk,
                 rest: list[str]) -> None:
        self.variant = variant
        self.start_fen = start_fen
        self.chunk = chunk
        self.rest = rest

    def __getstate__(self) -> tuple[Any, ...]:
        return (self.variant, self.start_fen, self.chunk, self.rest)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.variant, self.start_fen, self.chunk, self.rest = state


def hash_runs(hashes: list[Any], chunks: list[RunChunk], canonical: pa.Array) -> None:
    """Replace every :class:`PendingHash` of ``hashes`` (a batch's ``moves_hash`` column) by
    its hash: the same as :func:`pdnkit.rows.batch.moves_hash` of the run's canonical
    notations (``canonical``, the runs of ``chunks`` in order) and the plies after it.

    Example:
        >>> from pdnkit.rows.batch import moves_hash
        >>> from pdnkit.validation import validate
        >>> from pdnkit.rows.bitboards import board_layout
        >>> rep = next(validate('[GameType "20"] 1. 32-28 19-23 *', compact=True))
        >>> chunk = run_chunk(rep.plain, board_layout(rep.plain.rules))
        >>> hashes = [PendingHash("international", None, chunk, ["28x19"])]
        >>> hash_runs(hashes, [chunk], run_columns([chunk])["canonical"])
        >>> hashes[0] == moves_hash("international", None, ["32-28", "19-23", "28x19"])
        True
    """
    import hashlib

    import numpy as np

    pending = [i for i, h in enumerate(hashes) if type(h) is PendingHash]
    if not pending:
        return
    at: dict[int, tuple[int, int]] = {}
    row = 0
    for c in chunks:
        at[id(c)] = (row, row + c.n)
        row += c.n
    if isinstance(canonical, (list, tuple)):  # pragma: no cover - an array is given
        raise TypeError("canonical must be an Arrow string array")
    n = len(canonical)
    offsets = np.frombuffer(canonical.buffers()[1], np.int32)[canonical.offset:
                                                              canonical.offset + n + 1]
    data = np.frombuffer(canonical.buffers()[2], np.uint8)
    first = int(offsets[0])
    lens = np.diff(offsets)
    size = int(offsets[-1]) - first
    spaced = np.full(size + n, ord(" "), np.uint8)  # every notation followed by a space
    spaced[np.arange(size) + np.repeat(np.arange(n), lens)] = data[first:first + size]
    joined = spaced.tobytes()
    for i in pending:
        h = hashes[i]
        a, b = at[id(h.chunk)]
        digest = hashlib.blake2b(digest_size=16)
        digest.update(f"{h.variant or ''}\n{h.start_fen or ''}\n".encode())
        start = int(offsets[a]) - first + a
        stop = int(offsets[b]) - first + b - 1
        digest.update(joined[start:stop])
        if h.rest:
            digest.update((" " + " ".join(h.rest)).encode())
        hashes[i] = digest.hexdigest()
