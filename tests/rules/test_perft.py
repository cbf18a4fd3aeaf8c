"""Perft against the published tables in shared/data/perft.json (dctl, OEIS, shashki.com).

The counts are read from the JSON file at test time; the test skips when the file is absent.
Captures with the same origin, destination and captured set count once, so the
``drop_duplicates`` rows are used; where only a ``keep_duplicates`` row is published the test
runs ``perft(..., keep_duplicates=True)``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pdnkit.rules import Position, get_rules, perft
from tests.shared import shared_path


def _table() -> dict[str, Any]:
    with open(shared_path("perft.json"), encoding="utf-8") as fh:
        return json.load(fh)


# our variant name -> the start of the label used in perft.json
LABELS = {
    "international": "international (GameType 20)",
    "frisian": "frisian (GameType 40)",
    "canadian": "canadian 12x12",
    "russian": "russian",
    "brazilian": "brazilian",
    "pool": "pool (American pool checkers",
    "english": "english/american checkers",
    "italian": "italian (GameType 22)",
    "spanish": "spanish (GameType 24)",
    "czech": "czech (GameType 29)",
    "thai": "thai (GameType 31)",
}


def _counts(label: str, duplicates: str = "drop_duplicates") -> dict[int, int]:
    for entry in _table()["initial_positions"]:
        if entry["variant"].startswith(label) and entry["duplicates"] == duplicates:
            return {int(k): v for k, v in entry["counts_by_depth"].items()}
    pytest.skip(f"no {duplicates} perft row for {label!r}")


def _start(variant: str) -> Position:
    rules = get_rules(variant)
    if variant == "thai":
        # dctl's Thai table (identical to English up to depth 8) starts from the 12-men
        # English setup (two empty middle rows); our Thai initial position has 8 men each.
        return Position.from_squares(rules, "B", white_men=range(21, 33),
                                     black_men=range(1, 13))
    return Position.initial(rules)


DEFAULT_DEPTH = {"international": 6, "frisian": 6, "canadian": 6}


@pytest.mark.parametrize("variant", sorted(LABELS))
def test_initial_position_perft(variant: str) -> None:
    counts = _counts(LABELS[variant])
    pos = _start(variant)
    depth = DEFAULT_DEPTH.get(variant, 7)
    for d in range(1, depth + 1):
        assert perft(pos, d) == counts[d], f"{variant} depth {d}"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "depth"),
    [("russian", 8), ("brazilian", 8), ("pool", 8), ("international", 7), ("frisian", 7),
     ("english", 8), ("italian", 8), ("czech", 8), ("spanish", 8), ("canadian", 6)],
)
def test_initial_position_perft_deep(variant: str, depth: int) -> None:
    counts = _counts(LABELS[variant])
    assert perft(_start(variant), depth) == counts[depth]


def test_antidraughts_moves_like_international() -> None:
    # perft.json: "same as international" (no game ends before depth 8 from the start)
    counts = _counts("antidraughts", duplicates="same as international")
    pos = Position.initial(get_rules("antidraughts"))
    for d in range(1, 6):
        assert perft(pos, d) == counts[d]


def _turkish_counts() -> dict[int, int]:
    # kish's table (the only published one): its "duplicates" field says "not documented"
    return _counts("turkish (GameType 30)", duplicates="not documented (moves are XOR deltas; "
                   "captures in Turkish remove pieces immediately, duplicates unlikely at "
                   "shallow depth)")


@pytest.mark.parametrize("edition", ["default", "kish"])
def test_turkish_perft(edition: str) -> None:
    # the two editions differ only in promotion during a capture, which no line reaches
    # this shallow; every capture route counts (see the deep test below)
    counts = _turkish_counts()
    pos = Position.initial(get_rules("turkish", edition=edition))
    for d in range(1, 6):
        assert perft(pos, d, keep_duplicates=True) == counts[d], f"depth {d}"
        assert perft(pos, d) == counts[d], f"depth {d}"  # no duplicate routes yet


@pytest.mark.slow
def test_turkish_perft_deep() -> None:
    # kish counts every capture route (its moves are lists of steps): at depth 7 the table
    # has 10782382 leaves, 74 more than when routes to the same position count once
    counts = _turkish_counts()
    pos = Position.initial(get_rules("turkish", edition="kish"))
    assert perft(pos, 6, keep_duplicates=True) == counts[6]
    assert perft(pos, 7, keep_duplicates=True) == counts[7]
    assert perft(pos, 7) < counts[7]


def test_breakthrough_moves_like_international_until_a_king() -> None:
    # Breakthrough = FMJD move rules (RULES.md 2.5); from the start no man can be crowned
    # within 6 plies, so the tree is international's
    counts = _counts(LABELS["international"])
    pos = Position.initial(get_rules("breakthrough"))
    for d in range(1, 6):
        assert perft(pos, d) == counts[d]
    # once a king stands on the board the game is over: no move, perft 0
    from pdnkit.rules import parse_fen

    won = parse_fen("B:WK3,31:B10,20", get_rules("breakthrough"))
    assert won.legal_moves() == [] and perft(won, 1) == 0 and perft(won, 3) == 0
    same = parse_fen("B:WK3,31:B10,20", get_rules("international"))
    assert perft(same, 1) > 0


def test_portuguese_equals_spanish() -> None:
    # No published Portuguese table: it is the same game as Spanish with the board presented
    # the same way (FPD art. 3, 6), so the trees must be identical.
    sp = Position.initial(get_rules("spanish"))
    pt = Position.initial(get_rules("portuguese"))
    counts = _counts(LABELS["spanish"])
    for d in range(1, 7):
        assert perft(pt, d) == perft(sp, d) == counts[d]


def test_giveaway_moves_like_russian() -> None:
    # Russian giveaway = Russian move rules with the objective reversed (RULES.md 2.7).
    counts = _counts(LABELS["russian"])
    pos = Position.initial(get_rules("giveaway"))
    for d in range(1, 7):
        assert perft(pos, d) == counts[d]


def test_dctl_keep_and_drop_differ_where_published() -> None:
    # Frisian is the variant where duplicate captures appear early (depth 4): our count must be
    # the drop_duplicates one, not the keep_duplicates one.
    keep = _counts(LABELS["frisian"], "keep_duplicates")
    drop = _counts(LABELS["frisian"], "drop_duplicates")
    assert keep[4] != drop[4]
    assert perft(Position.initial(get_rules("frisian")), 4) == drop[4]


SPECIFIC_DEPTH = {"AllKings": 5, "AlmostPromotion": 5, "FrontRows": 7, "Position1": 9}


def _specific() -> list[dict[str, Any]]:
    return list(_table()["specific_positions"])


@pytest.mark.parametrize("name", sorted(SPECIFIC_DEPTH))
def test_specific_positions(name: str) -> None:
    from pdnkit.rules import parse_fen

    entries = [e for e in _specific() if e["name"] == name]
    assert entries, name
    e = entries[0]
    pos = parse_fen(e["fen"], get_rules(e["variant"]))
    keep = e["duplicates"] == "keep_duplicates"
    for k, v in e["counts_by_depth"].items():
        d = int(k)
        if d <= SPECIFIC_DEPTH[name]:
            assert perft(pos, d, keep_duplicates=keep) == v, f"{name} depth {d}"


@pytest.mark.slow
@pytest.mark.parametrize(("name", "depth"), [("AllKings", 6), ("AlmostPromotion", 6),
                                             ("FrontRows", 9), ("Position1", 11)])
def test_specific_positions_deep(name: str, depth: int) -> None:
    from pdnkit.rules import parse_fen

    e = next(e for e in _specific() if e["name"] == name)
    pos = parse_fen(e["fen"], get_rules(e["variant"]))
    keep = e["duplicates"] == "keep_duplicates"
    assert perft(pos, depth, keep_duplicates=keep) == e["counts_by_depth"][str(depth)]


def test_keep_duplicates_convention() -> None:
    # international initial position: the two conventions first differ at depth 8
    # (6483971 vs 6483961); use Frisian, where they differ at depth 4 (3880 vs 3874)
    pos = Position.initial(get_rules("frisian"))
    assert perft(pos, 4, keep_duplicates=True) == _counts(LABELS["frisian"], "keep_duplicates")[4]
    assert perft(pos, 4) == _counts(LABELS["frisian"])[4]


def test_every_specific_position_has_a_variant() -> None:
    for e in _specific():
        get_rules(e["variant"])


def test_divide_sums_to_perft() -> None:
    pos = Position.initial(get_rules("russian"))
    div = perft(pos, 4, divide=True)
    assert isinstance(div, dict)
    assert len(div) == 7
    assert sum(div.values()) == _counts("russian")[4]


def test_depth_zero_and_bad_depth() -> None:
    pos = Position.initial(get_rules("english"))
    assert perft(pos, 0) == 1
    with pytest.raises(ValueError):
        perft(pos, -1)
