"""``write_fen`` through its group tables gives the same text as the square-set version, on
rulebook positions and on random placements of every variant."""

from __future__ import annotations

import pytest

from pdnkit.rules import Position, get_rules, list_variants, parse_fen, write_fen
from pdnkit.rules.fen import _write_fen_sets
from tests.placements import random_positions


def test_initial_positions_match_the_rulebooks() -> None:
    # FMJD art. 1: black men on 1-20, white men on 31-50, white moves first
    assert write_fen(Position.initial(get_rules("international"))) == (
        "W:W" + ",".join(str(n) for n in range(31, 51))
        + ":B" + ",".join(str(n) for n in range(1, 21)))
    # English (WCDF): black on 1-12 moves first, white on 21-32
    assert write_fen(Position.initial(get_rules("english"))) == (
        "B:W" + ",".join(str(n) for n in range(21, 33))
        + ":B" + ",".join(str(n) for n in range(1, 13)))


def test_kings_and_coordinates_in_board_order() -> None:
    assert write_fen(parse_fen("B:WK10,15,18:B12,16,20", get_rules("english"))) == (
        "B:WK10,15,18:B12,16,20")
    # Russian: coordinates sorted by file, then rank
    fen = write_fen(parse_fen("W:Wc3,Ka1,e1:Bh8,Kb8", get_rules("russian")))
    assert fen == "W:WKa1,c3,e1:BKb8,h8"
    assert write_fen(parse_fen("W:W:B", get_rules("international"))) == "W:W:B"


@pytest.mark.parametrize("rules", list_variants(), ids=lambda r: f"{r.name}-{r.edition}")
def test_random_positions_match_the_square_set_writer(rules: object) -> None:
    for pos in random_positions(rules, 200, seed=7):
        fen = write_fen(pos)
        assert fen == _write_fen_sets(pos)
        assert parse_fen(fen, rules) == pos  # type: ignore[arg-type]
