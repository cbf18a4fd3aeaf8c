"""``write_fen`` through its group tables gives the same text as the square-set version, on
rulebook positions and on random placements of every variant."""

from __future__ import annotations

import random

import pytest

from pdnkit.rules import Position, get_rules, list_variants, parse_fen, write_fen
from pdnkit.rules.fen import _write_fen_sets


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
    rnd = random.Random(7)
    geo = rules.geometry  # type: ignore[attr-defined]
    crown = set(geo.promotion_squares(0)) | set(geo.promotion_squares(1))
    for _ in range(200):
        squares = list(range(1, geo.num_squares + 1))
        rnd.shuffle(squares)
        n = rnd.randint(0, len(squares))
        cuts = sorted(rnd.randint(0, n) for _ in range(3))
        wm, wk = squares[:cuts[0]], squares[cuts[0]:cuts[1]]
        bm, bk = squares[cuts[1]:cuts[2]], squares[cuts[2]:n]
        wm = [s for s in wm if s not in crown]
        bm = [s for s in bm if s not in crown]
        pos = Position.from_squares(rules, rnd.choice("WB"), wm, wk, bm, bk)  # type: ignore[arg-type]
        fen = write_fen(pos)
        assert fen == _write_fen_sets(pos)
        assert parse_fen(fen, rules) == pos  # type: ignore[arg-type]
