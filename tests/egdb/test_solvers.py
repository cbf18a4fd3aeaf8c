"""The compiled retrograde solver against the pure-Python reference, code for code, on every
variant the databases take; and both against a naive value iteration that knows no index.

The compiled solver takes quiet moves back from the positions decided last; the reference
walks the explicit graph of the rules engine's own legal moves; the naive solver iterates
over positions until nothing changes. All three must give the same value and the same number
of plies to the end of the game for every position.
"""

from __future__ import annotations

import pytest

from pdnkit.egdb.backend import PureBackend, codes_of
from pdnkit.egdb.files import EgdbError
from pdnkit.egdb.index import Signature, layout_of, signatures
from pdnkit.rules import get_rules

from .support import compiled, egdb_variants, naive_values, solve_all, table_value

VARIANTS = egdb_variants()
#: a signature of men and kings on both sides: captures both ways, promotion, men taken by
#: kings and kings by men
MIXED = Signature(1, 1, 1, 0)


def _compare(rules, sigs, *, whole: bool = True) -> None:
    """Both solvers on ``sigs``: ``whole``, each from its own solutions of everything the
    signatures lead to; else the reference solves only ``sigs``, reading the compiled
    solver's solutions of the rest (the step compared alone: the slow run compares all)."""
    fast = solve_all(compiled(rules), sigs)
    if whole:
        slow = solve_all(PureBackend(rules), sigs)
    else:
        ref = PureBackend(rules)
        slow = {}
        for sig, table in fast.items():
            slow[sig] = ref.solve(sig) if sig in sigs else table
            ref.add(sig, slow[sig])
    assert fast.keys() == slow.keys()
    for sig in fast:
        a, b = fast[sig], slow[sig]
        assert list(codes_of(a)) == list(codes_of(b)), (rules.name, sig)
        assert (a.positions, a.wins, a.losses, a.draws, a.longest) == (
            b.positions, b.wins, b.losses, b.draws, b.longest)
        assert a.positions == 2 * layout_of(rules).positions(sig)


def _id(rules) -> str:
    return f"{rules.name}-{rules.edition}"


#: 8x8 boards; 10x10 and 12x12 ones (the reference takes about a minute a three-piece
#: signature of 10x10)
SMALL = [r for r in VARIANTS if r.width == 8]
LARGE = [r for r in VARIANTS if r.width > 8]
#: the variants whose three-piece step runs in the default run: short and flying kings,
#: promotion passing, crowning or stopping in a capture, men that do not take kings,
#: immediate removal, a losing game (the slow run takes every variant; Turkish's 64 squares
#: make its three pieces ten times the others')
MIXED_DEFAULT = ("english", "russian", "italian", "thai", "giveaway")


@pytest.mark.parametrize("rules", [r for r in VARIANTS if r.width <= 10], ids=_id)
def test_two_pieces_compiled_equals_reference(rules) -> None:
    _compare(rules, signatures(2))


@pytest.mark.parametrize("rules", [r for r in VARIANTS if r.width > 10], ids=_id)
def test_two_pieces_largest_boards_compiled_equals_reference(rules) -> None:
    _compare(rules, [Signature(0, 1, 0, 1), Signature(1, 0, 1, 0)])


@pytest.mark.parametrize("rules", [r for r in SMALL if r.name in MIXED_DEFAULT
                                   and r is get_rules(r.name)], ids=_id)
def test_three_pieces_mixed_compiled_equals_reference(rules) -> None:
    _compare(rules, [MIXED], whole=False)


@pytest.mark.slow
@pytest.mark.parametrize("rules", SMALL, ids=_id)
def test_three_pieces_all_compiled_equals_reference(rules) -> None:
    _compare(rules, signatures(3))


@pytest.mark.slow
@pytest.mark.parametrize("rules", LARGE, ids=_id)
def test_three_pieces_large_boards_compiled_equals_reference(rules) -> None:
    # every three-piece signature of 10x10 is about 20 minutes of the reference (12x12
    # more): the signatures of men and kings of both sides, each step alone
    _compare(rules, [MIXED, Signature(0, 2, 0, 1), Signature(1, 0, 1, 1)], whole=False)


@pytest.mark.parametrize("name", [
    "english", "giveaway", "breakthrough",
    pytest.param("turkish", marks=pytest.mark.slow), pytest.param("thai", marks=pytest.mark.slow),
    pytest.param("international", marks=pytest.mark.slow)])
def test_two_pieces_compiled_equals_naive_value_iteration(name: str) -> None:
    rules = get_rules(name)
    tables = solve_all(compiled(rules), signatures(2))
    naive = naive_values(rules, signatures(2))
    assert len(naive) == 2 * sum(layout_of(rules).positions(s) for s in tables)
    wrong = [(p, v, table_value(tables, p)) for p, v in naive.items()
             if table_value(tables, p) != v]
    assert wrong == []


@pytest.mark.slow
@pytest.mark.parametrize("name", ["english", "international"])
def test_three_kings_compiled_equals_naive_value_iteration(name: str) -> None:
    rules = get_rules(name)
    sig = Signature(0, 2, 0, 1)
    tables = solve_all(compiled(rules), [sig])
    naive = naive_values(rules, [sig])
    assert [p for p, v in naive.items() if table_value(tables, p) != v] == []


def test_frisian_is_refused_with_the_reason() -> None:
    from pdnkit.egdb import build

    for name in ("frisian", "frysk"):
        with pytest.raises(EgdbError, match="king-move counters"):
            build(name, 2, directory="/nonexistent")
