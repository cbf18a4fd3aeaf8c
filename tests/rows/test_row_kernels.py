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
