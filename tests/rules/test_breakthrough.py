"""Breakthrough (lidraughts GameType 96, RULES.md 2.5): international rules in which the first
side to make a king wins. The win is rules data (``wins_on_promotion``); the engine reports
the position decided, and the validator's result check uses that."""

from __future__ import annotations

import pdnkit
from pdnkit.rules import Color, Position, get_rules, parse_fen
from tests.shared import shared_path

BT = get_rules("breakthrough")


def test_record() -> None:
    assert get_rules(96) is BT and get_rules("96") is BT
    assert BT.wins_on_promotion and not get_rules("international").wins_on_promotion
    assert BT.capture_precedence == ("max_count",) and BT.draw_rules == ()
    assert BT.describe()["wins_on_promotion"] is True


def test_a_king_ends_the_game() -> None:
    pos = parse_fen("W:W7,31:B20,40", BT)
    assert not pos.is_terminal() and pos.winner() is None
    [crown] = [m for m in pos.legal_moves() if m.destination == 1]
    after = pos.play(crown)
    # Black has men that could move, but the game is over: no side has a move
    assert after.is_terminal() and after.legal_moves() == [] and not after.has_capture()
    assert after.winner() is Color.WHITE
    assert after.quiet_move(20, 24) is None and after._play_quiet(20, 24) is None
    assert after.capture_move(20, 29) is None
    # under international rules the same position goes on
    intl = parse_fen("B:WK1,31:B20,40", get_rules("international"))
    assert intl.legal_moves() and intl.winner() is None


def test_a_king_by_capture_wins_too() -> None:
    pos = parse_fen("W:W12,40:B8,45", BT)
    [m] = pos.legal_moves()  # 12x3 takes 8 and is crowned
    assert m.promotes
    assert pos.play(m).winner() is Color.WHITE


def test_the_side_with_a_king_in_a_setup_has_won() -> None:
    assert parse_fen("W:W31:BK46,20", BT).winner() is Color.BLACK
    assert Position.initial(BT).winner() is None


GAME = """[Event "hand-made breakthrough game"]
[GameType "96"]
[FEN "W:W7,31:B20,40"]
[Result "{result}"]

1. 7-1 {more} {result}
"""


def test_validator_checks_the_result_against_the_first_king() -> None:
    [ok] = list(pdnkit.validate(GAME.format(result="2-0", more="")))
    assert ok.variant == "breakthrough" and not ok.errors() and ok.outcome == "white"
    [bad] = list(pdnkit.validate(GAME.format(result="0-2", more="")))
    assert [f.code for f in bad.errors()] == ["result-mismatch"]
    [late] = list(pdnkit.validate(GAME.format(result="2-0", more="20-24")))
    assert "move-after-end" in late.finding_codes()


def test_real_breakthrough_games_validate_clean() -> None:
    path = shared_path("real", "breakthrough")
    reports = list(pdnkit.validate(path))
    assert len(reports) >= 20
    decided = 0
    for r in reports:
        assert r.variant == "breakthrough", r.index
        assert not r.errors(), (r.index, [str(f) for f in r.errors()])
        assert r.replayed_plies == len(r.plies)
        won = r.final_position.winner()
        if won is not None:  # the game ended with a king: the result names its side
            decided += 1
            assert r.outcome == ("white" if won is Color.WHITE else "black"), r.index
    assert decided >= 5
    # the result check has teeth: the first game won by a king, scored the other way
    text = next(p for p in sorted(path.rglob("*.pdn"))).read_text(encoding="utf-8")
    games = ["[Event" + g for g in text.split("[Event")[1:]]
    first = next(r for r in reports if r.final_position.winner() is not None)
    game = games[first.index]
    swapped = game.replace('"2-0"', '"X"').replace('"0-2"', '"2-0"').replace('"X"', '"0-2"')
    swapped = swapped.replace(" 2-0\n", " X\n").replace(" 0-2\n", " 2-0\n").replace(" X\n",
                                                                                    " 0-2\n")
    [r] = list(pdnkit.validate(swapped))
    assert "result-mismatch" in r.finding_codes()
