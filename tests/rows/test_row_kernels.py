"""The import's row kernels of the compiled core (``src/rows.c``) answer as their Python
statements (:mod:`pdnkit.core.rowkernels`) on seeded texts full of comments, NAGs, broken and
nested braces, huge NAG numbers and empty comments, and on spans of many games; they refuse
spans outside their text and text that is not ASCII."""

from __future__ import annotations

import random
from array import array

import pytest

from pdnkit.core import rowkernels
from pdnkit.core.api import FLAG_ANNOTATED
from pdnkit.core.rowkernels import lane_notes, lane_notes_py, spans_text, spans_text_py

pytestmark = pytest.mark.skipif(not rowkernels.COMPILED,
                                reason="the compiled core's row kernels are not built")

_NOISE = ["{good}", "{}", "{a {b} c}", "{open", "close}", "$1", "$0", "$12", "$",
          "$99999999999999999999999999", "!", "?!", "{x}{y}", "${z}", " ", "{ spaced  }",
          "$3$4", "{{}}", "}{", "$7}"]


def _game(rng: random.Random) -> tuple[str, bytes, bytes, int, int, int]:
    """A made-up movetext with its move spans: (text, spans, flags, n, plies, last stop)."""
    text = ""
    spans = array("i")
    flags = bytearray()
    plies = rng.randint(0, 30)
    for i in range(plies):
        if i % 2 == 0:
            text += f"{i // 2 + 1}. "
        move = f"{rng.randint(1, 50)}-{rng.randint(1, 50)}"
        spans.extend([len(text), len(text) + len(move)])
        text += move + " "
        notes = "".join(rng.choice(_NOISE) + rng.choice(["", " "])
                        for _ in range(rng.choice([0, 0, 1, 2, 4])))
        text += notes
        flags.append(FLAG_ANNOTATED if notes or rng.random() < 0.1 else 0)
    last = len(text)
    text += rng.choice(["*", "1-0 {after the result}", ""])
    n = rng.randint(0, plies)
    return text, spans.tobytes(), bytes(flags), n, plies, rng.choice([last, len(text)])


def test_lane_notes_is_its_python_statement() -> None:
    rng = random.Random(35)
    annotated = 0
    for _ in range(3000):
        text, spans, flags, n, plies, last = _game(rng)
        got = lane_notes(text, spans, flags, n, plies, last)
        assert got == lane_notes_py(text, spans, flags, n, plies, last), text
        annotated += sum(x is not None for x in got[0] + got[1])
    assert annotated > 1000


def test_lane_notes_by_hand() -> None:
    text = "1. 32-28 {a {b} c} $2 {} 19-23 $99999999999999999999 {end} *"
    spans = array("i", [3, 8, 25, 30]).tobytes()
    nags, comments = lane_notes(text, spans, bytes([FLAG_ANNOTATED] * 2), 2, 2, 60)
    assert nags == [[2], [99999999999999999999]]
    assert comments == ["b ", "end"]  # (the first brace is not a comment: another opens)


def test_spans_text_is_its_python_statement() -> None:
    rng = random.Random(36)
    for _ in range(300):
        parts = []
        for _ in range(rng.randint(0, 6)):
            text = "".join(rng.choice("0123456789-x: {}") for _ in range(rng.randint(0, 80)))
            k = rng.randint(0, 10) if text else 0
            starts, ends = array("i"), array("i")
            for _ in range(k):
                a = rng.randint(0, len(text))
                starts.append(a)
                ends.append(rng.randint(a, len(text)))
            parts.append((text if rng.random() < 0.5 else text.encode(), starts.tobytes(),
                          ends.tobytes()))
        assert spans_text(parts) == spans_text_py(parts)


def test_spans_text_refuses_bad_parts() -> None:
    one = array("i", [0]).tobytes()
    with pytest.raises(ValueError, match="outside"):
        spans_text([("ab", one, array("i", [3]).tobytes())])
    with pytest.raises(ValueError, match="size"):
        spans_text([("ab", one, b"")])
    with pytest.raises(TypeError):
        spans_text([("é", one, one)])
    with pytest.raises(TypeError):
        spans_text([("ab", one)])
    with pytest.raises(ValueError, match="shorter"):
        lane_notes("1. 32-28 *", b"", bytes([FLAG_ANNOTATED]), 1, 1, 9)


def _bitboards(rng: random.Random, n: int) -> list[tuple[int, int, int, int, int, int, int]]:
    """Seeded rows (wm, wk, bm, bk, black, local game, ply): sparse and dense words, the top
    square, empty boards."""
    def word() -> int:
        kind = rng.random()
        if kind < 0.1:
            return 0
        if kind < 0.2:
            return 1 << 63 | rng.getrandbits(3)
        if kind < 0.6:
            acc = 0
            for _ in range(rng.randint(1, 20)):
                acc |= 1 << rng.randrange(64)
            return acc
        return rng.getrandbits(64)
    return [(word(), word(), word(), word(), rng.randint(0, 1), rng.randrange(5000),
             rng.randint(0, 12)) for _ in range(n)]


def _columns(rows: list[tuple[int, ...]]) -> list[object]:
    import numpy as np

    cols = list(zip(*rows, strict=True))
    return [*(np.fromiter(c, np.uint64, len(c)) for c in cols[:4]), np.array(cols[4], np.uint8),
            np.array(cols[5], np.int64), np.array(cols[6], np.int32)]


@pytest.mark.parametrize(("offset", "min_ply", "mask", "shift"),
                         [(1, 4, (1 << 24) - 1, 10), (2 ** 40, 0, (1 << 32) - 1, 1),
                          (7, 11, 255, 0)])
def test_index_pairs_is_its_python_statement(offset: int, min_ply: int, mask: int,
                                             shift: int) -> None:
    rows = _bitboards(random.Random(35 + shift), 4000)
    args = (*_columns(rows), offset, min_ply, mask, shift)
    got = rowkernels.index_pairs(*args)
    assert got is not None
    assert got == rowkernels.index_pairs_py(*args)
    assert len(got) == 8 * sum(r[6] > min_ply for r in rows) > 0


def test_index_pairs_keys_are_the_schema_macro() -> None:
    """The kernel's keys against the database's own ``position_key_of`` (the macro the
    index's statements use), not only against the Python key."""
    import numpy as np

    duckdb = pytest.importorskip("duckdb")
    from pdnkit.store.db import schema_sql

    rows = _bitboards(random.Random(36), 2000)
    con = duckdb.connect()
    con.execute(schema_sql())
    want = [((con.execute("SELECT (position_key_of(?::HUGEINT, ?::HUGEINT, ?::HUGEINT, "
                          "?::HUGEINT, ?) & 16777215)", [*r[:4], bool(r[4])]).fetchall()[0][0])
             << 32) | ((r[5] + 3) >> 10) for r in rows[:300] if r[6] > 4]
    got = np.frombuffer(rowkernels.index_pairs(*_columns(rows[:300]), 3, 4, (1 << 24) - 1, 10)
                        or b"", np.uint64)
    assert [int(x) for x in got] == want


def test_index_pairs_refuses_columns_of_other_lengths() -> None:
    cols = _columns(_bitboards(random.Random(37), 10))
    cols[6] = cols[6][:5]  # type: ignore[index]
    with pytest.raises(ValueError, match="lengths"):
        rowkernels.index_pairs(*cols, 0, 4, 255, 10)
