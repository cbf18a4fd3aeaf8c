"""The index counts the positions the published tables count.

Schaeffer et al., "Checkers Is Solved", Science 317 (2007), table 1 (OEIS A055213): the
positions of checkers with 1 to 5 pieces on the board, the side to move not counted, men never
on their promotion row: 120, 6,972, 261,224, 7,092,774, 148,688,232. Kings only: one king
against one, 32 x 31 = 992; two against one, C(32, 2) x 30 = 14,880.
"""

from __future__ import annotations

import random

import pytest

from pdnkit.core.retro import record
from pdnkit.egdb import build, info
from pdnkit.egdb.backend import CompiledBackend, backend_for
from pdnkit.egdb.index import Layout, Signature, build_order, leads_to, signatures
from pdnkit.rules import get_rules, list_variants

PUBLISHED = {1: 120, 2: 6_972, 3: 261_224, 4: 7_092_774, 5: 148_688_232}


@pytest.mark.parametrize("pieces", sorted(PUBLISHED))
def test_positions_per_piece_count_are_the_published_ones(pieces: int) -> None:
    lay = Layout(get_rules("english"))
    assert sum(lay.positions(s) for s in signatures(pieces)) == PUBLISHED[pieces]


def test_kings_only_counts() -> None:
    lay = Layout(get_rules("english"))
    assert lay.positions(Signature(0, 1, 0, 1)) == 992
    assert lay.positions(Signature(0, 2, 0, 1)) == 14_880
    assert lay.positions(Signature(0, 1, 0, 2)) == 14_880


def test_every_slot_of_small_signatures_is_a_position_or_a_counted_gap() -> None:
    """Decoding every slot finds exactly the positions counted, each once, and no placement
    twice (the index is a bijection between positions and non-gap slots)."""
    lay = Layout(get_rules("english"))
    for sig in [*signatures(1), *signatures(2), Signature(1, 0, 2, 0), Signature(1, 1, 1, 0)]:
        seen = set()
        for idx in range(lay.half(sig)):
            placed = lay.decode(sig, idx)
            if placed is None:
                continue
            key = tuple(tuple(x) for x in placed)
            assert key not in seen
            seen.add(key)
            assert lay.index(*placed) == (sig, idx)
        assert len(seen) == lay.positions(sig)


def test_info_reports_the_published_counts_of_what_is_built(tmp_path) -> None:
    build("english", 3, directory=tmp_path)
    rows = info(tmp_path)
    assert [(r["variant"], r["pieces"], r["positions"], r["complete"]) for r in rows] == [
        ("english", 1, 120, True), ("english", 2, 6_972, True), ("english", 3, 261_224, True)]
    assert [r["signatures"] for r in rows] == [4, 10, 20]


@pytest.mark.slow
def test_info_reports_the_published_count_of_four_pieces(tmp_path) -> None:
    rep = build("english", 4, directory=tmp_path)
    assert rep.positions == {n: PUBLISHED[n] for n in (1, 2, 3, 4)}
    assert [r["positions"] for r in info(tmp_path)] == [PUBLISHED[n] for n in (1, 2, 3, 4)]


def test_build_order_puts_every_signature_after_those_it_leads_to() -> None:
    order = build_order(5)
    place = {s: i for i, s in enumerate(order)}
    assert len(order) == len(place) == sum(len(signatures(n)) for n in range(1, 6))
    for sig in order:
        assert all(place[s] < place[sig] for s in leads_to(sig) if s != sig)


@pytest.mark.parametrize("rules", [r for r in list_variants(editions=False)
                                   if not r.king_move_limit], ids=lambda r: r.name)
def test_compiled_index_is_the_python_index(rules) -> None:
    backend = backend_for(rules)
    if not isinstance(backend, CompiledBackend):
        pytest.skip("the compiled core is not in use")
    retro = backend.retro
    lay = Layout(rules)
    rng = random.Random(rules.name)
    for sig in build_order(4):
        half = lay.half(sig)
        assert retro.half(sig) == half
        for _ in range(12):
            idx = rng.randrange(half)
            placed = lay.decode(sig, idx)
            side = rng.randrange(2)
            got = retro.decode(sig, side, idx)
            if placed is None:
                assert got is None
                continue
            wm, wk, bm, bk = (sum(1 << (n - 1) for n in x) for x in placed)
            assert got == (side, wm | wk, bm | bk, wk | bk)
            (_, found), = retro.index(record(side, wm | wk, bm | bk, wk | bk))
            assert found == idx


def test_a_man_on_its_promotion_row_is_outside_the_index() -> None:
    rules = get_rules("english")
    lay = Layout(rules)
    assert lay.index([3], [], [], [10]) is None  # White crowns on 1-4
    assert lay.index([], [], [30], [10]) is None  # Black on 29-32
    assert lay.index([], [], [], [3, 30]) is not None  # kings stand anywhere
