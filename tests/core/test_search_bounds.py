"""A position whose capture search passes the compiled core's bounds (about a second of
search, 250,000 routes) raised a bare ``ValueError`` from the extension's ``legal_moves``
where the pure core answers: a Turkish man placed on its promotion row (``from_squares``)
among a lattice of black men, which promotes at once and captures on as a king. The
compiled core now answers as the pure one (it hands such a position to it), for
``legal_moves`` and ``perft``; its replay already handed over."""

from __future__ import annotations

import pytest

import pdnkit.core as core
from pdnkit.core import compiled, core_in_use, pure
from pdnkit.rules import Position, get_rules

needs_compiled = pytest.mark.skipif(core_in_use() != "compiled",
                                    reason="the compiled core is not built")

#: a white man on 61, Turkish White's promotion row (57-64), and 27 black men: the man's
#: capture goes on as a king's over 23 men, by more routes than the compiled search keeps
WHITE_MEN = (61,)
BLACK_MEN = (2, 5, 7, 9, 12, 14, 18, 21, 25, 27, 29, 30, 32, 34, 36, 37, 39, 40, 45, 48, 51,
             54, 55, 56, 58, 60, 62)


def _position() -> Position:
    return Position.from_squares(get_rules("turkish"), "W", white_men=WHITE_MEN,
                                 black_men=BLACK_MEN)


@needs_compiled
def test_the_extension_signals_its_bound_apart() -> None:
    """The extension's own error for a search past its bounds is ``SearchLimit`` (a
    ``ValueError``), which the wrappers tell from a malformed state."""
    from pdnkit.core import _core  # type: ignore[attr-defined]

    table = compiled._table(get_rules("turkish"))  # noqa: SLF001 - the extension's own table
    with pytest.raises(_core.SearchLimit, match="too large"):
        _core.legal_moves(table, tuple(core.state_of(_position())), 0)
    assert issubclass(_core.SearchLimit, ValueError)


@needs_compiled
def test_past_the_bound_the_compiled_core_hands_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the bound ``legal_moves`` and ``perft`` give the pure core's answer (the pure
    functions stand in here, to see them called)."""
    calls: list[str] = []
    monkeypatch.setattr(pure, "legal_moves",
                        lambda position, all_routes=False: calls.append("legal") or ["x"])
    monkeypatch.setattr(pure, "perft",
                        lambda position, depth, keep=False: calls.append("perft") or 42)
    pos = _position()
    assert core.legal_moves(pos) == ["x"]
    assert core.perft(pos, 2) == 42
    assert calls == ["legal", "perft"]
    start = Position.initial(get_rules("turkish"))  # within bounds: the extension answers
    assert len(core.legal_moves(start)) == 8 and core.perft(start, 3) == 708  # published
    assert calls == ["legal", "perft"]


@pytest.mark.slow
def test_a_turkish_man_on_its_promotion_row_gets_the_pure_cores_answer() -> None:
    """The position itself, both cores for real (the pure search takes seconds)."""
    want = pure.legal_moves(_position())
    got = core.legal_moves(_position())
    assert got == want and len(want) == 1
    move = want[0]
    assert move.origin == 61 and move.promotes and len(move.captured) == 23
    assert core.perft(_position(), 1) == pure.perft(_position(), 1) == 1
    assert core.replay(get_rules("turkish"), _position(), ["61x8"]).code in ("", "handover")


@pytest.mark.parametrize(("k", "base", "offset"), [
    (2**70, 1, 0), (0, 2**70, 0), (0, -(2**70), 0), (0, 1, 2**64), (2**63, 1, 0),
])
def test_misnumbered_beyond_64_bits_answers_as_the_definition(k: int, base: int,
                                                              offset: int) -> None:
    """Arguments beyond what the extension takes (it raises ``OverflowError`` reading
    them): ``pdnkit.core.misnumbered`` answers by its definition, in Python's integers."""
    rules = get_rules("international")
    rep = core.replay(rules, Position.initial(rules), "1. 32-28 18-23 2. 33-29 *")
    numbers = list(memoryview(rep.numbers).cast("i"))
    flags = rep.flags
    want = -1
    for i in range(3):
        j = k + i + offset
        if flags[i] & 16 and (numbers[i] != base + j // 2 or (flags[i] & 32 and not j % 2)):
            want = i
            break
    assert core.misnumbered(rep, 3, k, base, offset) == want
    assert core.misnumbered(rep, 3, 0, 1, 0) == -1  # the written numbers fit
