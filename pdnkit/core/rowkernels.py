"""The import's row kernels: what the loader cuts from a clean game's text and a batch's runs in
one pass each, compiled (``src/rows.c``) where the extension is built and in use, else the same
in Python (``tests/rows/test_row_kernels.py`` holds them to each other).

* :func:`lane_notes`: the NAGs and comments after each annotated ply of a clean game whose
  text is ASCII (what :class:`pdnkit.validation.coreplies.LaneFields` reads: a comment
  ``{...}`` without braces inside, a NAG ``$n``, in the text between a move and the next).
* :func:`spans_text`: the written moves of a batch's runs as the buffers of an Arrow string
  column (int32 offsets and the bytes), gathered from spans of each game's text.
* :func:`index_pairs`: the position index's ``key << 32 | block`` pairs of a batch's square
  bitboards (:mod:`pdnkit.rows.indexpairs`); compiled only (``None`` otherwise: the loader
  then asks DuckDB), :func:`index_pairs_py` its reference.

Example:
    >>> from array import array
    >>> flags = bytes([64, 0])  # the first ply annotated (FLAG_ANNOTATED)
    >>> raw = "1. 32-28 {good} $1 19-23 *"
    >>> spans = array("i", [3, 8, 19, 24]).tobytes()
    >>> lane_notes(raw, spans, flags, 2, 2, 25)
    ([[1], None], ['good', None])
    >>> offsets, body = spans_text([(raw, array("i", [3, 19]).tobytes(),
    ...                              array("i", [8, 24]).tobytes())])
    >>> list(array("i", offsets)), body
    ([0, 5, 10], b'32-2819-23')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pdnkit.core import compiled
from pdnkit.core.api import FLAG_ANNOTATED

__all__ = ["COMPILED", "index_pairs", "index_pairs_py", "lane_notes", "lane_notes_py",
           "spans_text", "spans_text_py"]

_KERNELS: tuple[Any, Any] | None = compiled.row_kernels()
_NOTE = re.compile(r"\{([^{}]*)\}|\$(\d+)")

#: the compiled kernels are in use
COMPILED = _KERNELS is not None
_INDEX_KERNEL: Any = compiled.index_kernel()


def lane_notes(raw: str, spans: bytes, flags: bytes, n: int, plies: int,
               last_stop: int) -> tuple[list[list[int] | None], list[str | None]]:
    """The NAGs and the comment (joined by spaces) after each of plies ``0`` to ``n - 1``
    that ``flags`` marks annotated, ``None`` where there is none: ``raw`` is the game's
    ASCII text, ``spans`` the replay's int32 (start, end) of each of its ``plies`` moves,
    ``last_stop`` where the text after the last one ends (its result, or the text's end)."""
    if _KERNELS is not None:
        got: tuple[list[list[int] | None], list[str | None]] = _KERNELS[0](
            raw, spans, flags, n, plies, last_stop)
        return got
    return lane_notes_py(raw, spans, flags, n, plies, last_stop)


def lane_notes_py(raw: str, spans: bytes, flags: bytes, n: int, plies: int,
                  last_stop: int) -> tuple[list[list[int] | None], list[str | None]]:
    """:func:`lane_notes` in Python (the pure core's, and the reference of the compiled one).

    Example:
        >>> lane_notes_py("1. 32-28 {a} {b} *", bytes(4) + (8).to_bytes(4, "little"),
        ...               bytes([64]), 1, 1, 17)
        ([None], ['a b'])
    """
    at = memoryview(spans).cast("i")
    nags: list[list[int] | None] = [None] * n
    comments: list[str | None] = [None] * n
    for i in range(n):
        if not flags[i] & FLAG_ANNOTATED:
            continue
        stop = at[2 * i + 2] if i + 1 < plies else last_stop
        found: list[int] = []
        notes: list[str] = []
        for m in _NOTE.finditer(raw, at[2 * i + 1], stop):
            if m.group(2) is None:
                notes.append(m.group(1))
            else:
                found.append(int(m.group(2)))
        nags[i] = found or None
        comments[i] = " ".join(notes) if notes else None
    return nags, comments


def spans_text(parts: Sequence[tuple[str | bytes, bytes, bytes]]) -> tuple[bytes, bytes]:
    """``(offsets, body)``: the int32 offsets (one more than the spans) and the bytes of
    every span of ``parts`` in order, each part a game's ASCII text (str or bytes) with the
    int32 starts and ends of its spans."""
    if _KERNELS is not None:
        got: tuple[bytes, bytes] = _KERNELS[1](parts)
        return got
    return spans_text_py(parts)


def spans_text_py(parts: Sequence[tuple[str | bytes, bytes, bytes]]) -> tuple[bytes, bytes]:
    """:func:`spans_text` in Python, with numpy (the pure core's, and the reference of the
    compiled one).

    Example:
        >>> spans_text_py([(b"ab", (0).to_bytes(4, "little"), (1).to_bytes(4, "little"))])[1]
        b'a'
    """
    import numpy as np

    texts = [p[0].encode("ascii") if isinstance(p[0], str) else p[0] for p in parts]
    ns = np.fromiter((len(p[1]) // 4 for p in parts), np.int64, len(parts))
    sizes = np.fromiter(map(len, texts), np.int64, len(texts))
    base = np.repeat(np.cumsum(sizes) - sizes, ns)
    starts = np.frombuffer(b"".join([p[1] for p in parts]), np.int32) + base
    ends = np.frombuffer(b"".join([p[2] for p in parts]), np.int32) + base
    lens = ends - starts
    offsets = np.zeros(len(lens) + 1, np.int32)
    np.cumsum(lens, out=offsets[1:])
    data = np.frombuffer(b"".join(texts), np.uint8)
    gather = np.repeat(starts - offsets[:-1], lens) + np.arange(int(offsets[-1]))
    return offsets.tobytes(), data[gather].tobytes()


def index_pairs(wm: Any, wk: Any, bm: Any, bk: Any, black: Any, game: Any, ply: Any,
                game_offset: int, min_ply: int, key_mask: int,
                block_shift: int) -> bytes | None:
    """The uint64 pairs ``(key & key_mask) << 32 | (game + game_offset) >> block_shift`` of
    the positions past ``min_ply`` (``key``: the square bitboards' position key) of
    contiguous columns: square bitboards of squares 1-64 (uint64), Black to move (uint8),
    local game numbers (int64), plies (int32); ``None`` where the compiled kernel is not in
    use. The GIL is released while it runs.

    Example:
        >>> import numpy as np
        >>> u, one = np.array([3], np.uint64), np.array([0], np.uint64)
        >>> args = (u, one, u << np.uint64(10), one, np.array([1], np.uint8),
        ...         np.array([5], np.int64), np.array([9], np.int32), 2043, 4, 255, 10)
        >>> got = index_pairs(*args)
        >>> got is None or got == index_pairs_py(*args)
        True
    """
    if _INDEX_KERNEL is None:
        return None
    got: bytes = _INDEX_KERNEL(wm, wk, bm, bk, black, game, ply, int(game_offset),
                               int(min_ply), int(key_mask), int(block_shift))
    return got


def index_pairs_py(wm: Any, wk: Any, bm: Any, bk: Any, black: Any, game: Any, ply: Any,
                   game_offset: int, min_ply: int, key_mask: int, block_shift: int) -> bytes:
    """:func:`index_pairs` in Python, a position at a time (the reference of the compiled
    one; the loader asks DuckDB instead where the kernel is not in use).

    Example:
        >>> import numpy as np
        >>> z = np.array([0], np.uint64)
        >>> len(index_pairs_py(z, z, z, z, np.array([0], np.uint8), np.array([0], np.int64),
        ...                    np.array([1], np.int32), 0, 4, 255, 10))
        0
    """
    from array import array

    from pdnkit.rules.position import position_key

    out = array("Q")
    for i in range(len(ply)):
        if int(ply[i]) <= min_ply:
            continue
        w, x, y, z = int(wm[i]), int(wk[i]), int(bm[i]), int(bk[i])
        key = position_key(w | x, y | z, x | z, bool(black[i]))  # (bits_key's)
        out.append((key & key_mask) << 32 | ((int(game[i]) + game_offset) >> block_shift)
                   & 0xFFFFFFFF)
    return out.tobytes()
