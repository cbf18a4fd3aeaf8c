"""Perft through the replay core against the published tables of ``../shared/data/perft.json``.

Every variant the rules engine knows: the initial positions with their published counts
(dctl, OEIS, kish; ``drop_duplicates`` rows unless only ``keep_duplicates`` is published),
the specific positions, and the variants without a table of their own through the table of
the variant they move like (antidraughts and Breakthrough as international, giveaway as
Russian, Portuguese as Spanish, Frysk from its own start against the reference engine).
``pdnkit.core.perft`` is the core in use (compiled, or pure with ``PDNKIT_PURE=1``): the
depths shrink for the pure one, and the deep counts are ``slow``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pdnkit import core
from pdnkit.rules import Position, get_rules, list_variants, parse_fen
from pdnkit.rules import perft as reference_perft
from tests.shared import shared_path

COMPILED = core.core_in_use() == "compiled"


def _table() -> dict[str, Any]:
    with open(shared_path("perft.json"), encoding="utf-8") as fh:
        return json.load(fh)  # type: ignore[no-any-return]


#: (variant, edition) -> the perft.json rows it must give: (label prefix, row's duplicates
#: field, the core's convention); variants without a table of their own use the table of
#: the variant they move like
TABLES: dict[tuple[str, str | None], tuple[str, tuple[tuple[str, bool | str], ...]]] = {}
_BOTH: tuple[tuple[str, bool | str], ...] = (("drop_duplicates", False),
                                             ("keep_duplicates", "order"))
_DROP: tuple[tuple[str, bool | str], ...] = (("drop_duplicates", False),)
for _name, _label, _rows in [
    ("international", "international (GameType 20)", _BOTH),
    ("frisian", "frisian (GameType 40)", _BOTH),
    ("canadian", "canadian 12x12", _DROP),
    ("russian", "russian", _BOTH),
    ("brazilian", "brazilian", _BOTH),
    ("pool", "pool (American pool checkers", _BOTH),
    ("english", "english/american checkers", _BOTH),
    ("italian", "italian (GameType 22)", _BOTH),
    ("spanish", "spanish (GameType 24)", _BOTH),
    ("portuguese", "spanish (GameType 24)", _BOTH),  # FPD art. 3, 6: Spanish's game
    ("czech", "czech (GameType 29)", _BOTH),
    ("thai", "thai (GameType 31)", _BOTH),
    ("antidraughts", "international (GameType 20)", _DROP),  # perft.json: as international
    ("breakthrough", "international (GameType 20)", _DROP),  # until the first king
    ("giveaway", "russian", _DROP),  # Russian move rules (RULES.md 2.7)
    ("turkish", "turkish (GameType 30)", (("not documented", True),)),  # kish: every route
]:
    TABLES[(_name, None)] = (_label, _rows)
for _name, _edition in [("english", "wcdf"), ("brazilian", "lidraughts"),
                        ("italian", "fid-40"), ("turkish", "kish")]:
    TABLES[(_name, _edition)] = TABLES[(_name, None)]

#: depths: the fast test through the compiled core, through the pure one, the slow test
DEPTHS = {"international": (6, 4, 8), "frisian": (5, 4, 7), "canadian": (5, 3, 7),
          "antidraughts": (6, 4, 8), "breakthrough": (6, 4, 7), "turkish": (5, 4, 7)}
DEFAULT_DEPTHS = (7, 5, 9)


def _counts(label: str, duplicates: str) -> dict[int, int]:
    for entry in _table()["initial_positions"]:
        if entry["variant"].startswith(label) and entry["duplicates"].startswith(duplicates):
            return {int(k): int(v) for k, v in entry["counts_by_depth"].items()}
    pytest.skip(f"no {duplicates} perft row for {label!r}")


def _start(rules: Any) -> Position:
    if rules.name == "thai":  # dctl's Thai table starts from the 12-men English setup
        return Position.from_squares(rules, "B", white_men=range(21, 33), black_men=range(1, 13))
    return Position.initial(rules)


def _rules(name: str, edition: str | None) -> Any:
    return get_rules(name, edition=edition) if edition else get_rules(name)


CASES = [(name, edition, row, conv) for (name, edition), (_l, rows) in TABLES.items()
         for row, conv in rows]
IDS = [f"{n}-{e or 'default'}-{r.split()[0]}" for n, e, r, _c in CASES]


def test_every_variant_has_a_table() -> None:
    names = {(r.name, None if r.edition == get_rules(r.name).edition else r.edition)
             for r in list_variants()}
    assert names - set(TABLES) == {("frysk", None)}  # no published table: see below


@pytest.mark.parametrize(("name", "edition", "row", "conv"), CASES, ids=IDS)
def test_initial_positions(name: str, edition: str | None, row: str, conv: bool | str) -> None:
    counts = _counts(TABLES[(name, edition)][0], row)
    fast, pure_depth, _slow = DEPTHS.get(name, DEFAULT_DEPTHS)
    pos = _start(_rules(name, edition))
    for d in range(1, (fast if COMPILED else pure_depth) + 1):
        assert core.perft(pos, d, keep_duplicates=conv) == counts[d], f"{name} depth {d}"


@pytest.mark.slow
@pytest.mark.skipif(not COMPILED, reason="deep counts through the compiled core only")
@pytest.mark.parametrize(("name", "edition", "row", "conv"), CASES, ids=IDS)
def test_initial_positions_deep(name: str, edition: str | None, row: str,
                                conv: bool | str) -> None:
    counts = _counts(TABLES[(name, edition)][0], row)
    depth = DEPTHS.get(name, DEFAULT_DEPTHS)[2]
    pos = _start(_rules(name, edition))
    assert core.perft(pos, depth, keep_duplicates=conv) == counts[depth], f"{name} {depth}"


def test_the_three_duplicate_conventions() -> None:
    # FrontRows (dctl, keep_duplicates): every route (True) counts the landing squares of a
    # flying king before one next capture separately; dctl counts the pieces taken in order
    e = next(e for e in _table()["specific_positions"] if e["name"] == "FrontRows")
    pos = parse_fen(e["fen"], get_rules("international"))
    depth = 10 if COMPILED else 6
    order = core.perft(pos, depth, keep_duplicates="order")
    assert order == e["counts_by_depth"][str(depth)]
    if COMPILED:  # 3174155 < 3174159 < 3174162
        assert core.perft(pos, depth) < order < core.perft(pos, depth, keep_duplicates=True)
    assert core.perft(pos, depth, keep_duplicates=True) == reference_perft(
        pos, min(depth, 6), keep_duplicates=True) or depth > 6
    with pytest.raises(ValueError):
        core.perft(pos, 2, keep_duplicates="routes")


SPECIFIC = {"AllKings": (5, 3, 7), "AlmostPromotion": (6, 4, 7), "FrontRows": (9, 5, 11),
            "Position1": (11, 6, 13)}


@pytest.mark.parametrize("name", sorted(SPECIFIC))
def test_specific_positions(name: str) -> None:
    e = next(e for e in _table()["specific_positions"] if e["name"] == name)
    pos = parse_fen(e["fen"], get_rules(e["variant"]))
    keep = "order" if e["duplicates"] == "keep_duplicates" else False
    fast, pure_depth, _slow = SPECIFIC[name]
    for k, v in e["counts_by_depth"].items():
        if int(k) <= (fast if COMPILED else pure_depth):
            assert core.perft(pos, int(k), keep_duplicates=keep) == v, f"{name} depth {k}"


@pytest.mark.slow
@pytest.mark.skipif(not COMPILED, reason="deep counts through the compiled core only")
@pytest.mark.parametrize("name", sorted(SPECIFIC))
def test_specific_positions_deep(name: str) -> None:
    e = next(e for e in _table()["specific_positions"] if e["name"] == name)
    pos = parse_fen(e["fen"], get_rules(e["variant"]))
    depth = SPECIFIC[name][2]
    keep = "order" if e["duplicates"] == "keep_duplicates" else False
    assert core.perft(pos, depth, keep_duplicates=keep) == e["counts_by_depth"][str(depth)]


def test_frysk_against_the_reference_engine() -> None:
    # Frysk! (5 men each, Frisian rules) has no published table: the reference engine's counts
    pos = Position.initial(get_rules("frysk"))
    for d in range(1, (7 if COMPILED else 4) + 1):
        assert core.perft(pos, d) == reference_perft(pos, d), f"depth {d}"


def test_breakthrough_ends_with_the_first_king() -> None:
    won = parse_fen("B:WK3,31:B10,20", get_rules("breakthrough"))
    assert core.perft(won, 1) == 0 and core.perft(won, 3) == 0
    assert core.perft(parse_fen("B:WK3,31:B10,20", get_rules("international")), 1) > 0


def test_divide_and_depth_zero() -> None:
    pos = Position.initial(get_rules("russian"))
    div = core.perft(pos, 4, divide=True)
    assert isinstance(div, dict) and len(div) == 7 and sum(div.values()) == 1469
    assert core.perft(pos, 0) == 1 and core.perft(pos, 0, divide=True) == {}
    with pytest.raises(ValueError):
        core.perft(pos, -1)
