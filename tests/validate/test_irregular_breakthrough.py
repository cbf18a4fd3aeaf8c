"""Results in a variant won by the first king (Breakthrough, RULES.md 2.5): the verdict comes
from ``Position.winner()``, not from the side to move having no move."""

from __future__ import annotations

import pytest

from tests.validate.helpers import codes, game, only, run


def test_first_king_wins_and_the_mismatch_names_the_king() -> None:
    moves = "1. 7-2"  # White crowns on 2: White has won
    assert "result-mismatch" not in codes(run(game("W:W7,31:B40,20", moves, gametype="96",
                                                   result="2-0")))
    f = only(run(game("W:W7,31:B40,20", moves, gametype="96", result="0-2")),
             "result-mismatch")
    assert "has a king" in f.message and "no legal move" not in f.message
    assert f.details["expected"] == "white"


@pytest.mark.parametrize("side", ["W", "B"])
def test_a_king_in_the_setup_wins_whoever_is_to_move(side: str) -> None:
    # White has a king in the set-up: White has won, with either side to move
    fen = f"{side}:WK3,31:B10,20"
    assert "result-mismatch" not in codes(run(game(fen, "", gametype="96", result="2-0")))
    assert only(run(game(fen, "", gametype="96", result="0-2")),
                "result-mismatch").details["expected"] == "white"


def test_blocked_side_still_loses_in_breakthrough() -> None:
    # Black to move, its only man on 36 is blocked by 41 and 47: Black has lost
    rep = run(game("B:W41,47:B36", "", gametype="96", result="2-0"))
    assert "result-mismatch" not in codes(rep)
    f = only(run(game("B:W41,47:B36", "", gametype="96", result="0-2")), "result-mismatch")
    assert "no legal move" in f.message
