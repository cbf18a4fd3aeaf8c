"""PlayStrategy's English exports write the first mover at the bottom (point 3 of the issue
"The next exporters and the next attacks"): ``1. c3-d4`` is Black's 11-15 seen from Black's
side. Such a game is read on the board turned round -- Black first, as its move numbers and
its ``P1`` tag say -- and a game in the usual notation never is. Hand-written snippets in the
exporter's style; each expected move is worked out by hand from RULES.md 1.8 (1 = b8,
29 = a1; a square turned round is its image through the board's centre: c3 -> f6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdnkit.pdn import read_games
from pdnkit.validation import convert, validate
from pdnkit.validation.turn import turned_square

HEADER = ('[Event "Casual American/English game"]\n[Site "https://playstrategy.org/x1"]\n'
          '[P1 "Anna"]\n[P2 "Bert"]\n[Result "0-1"]\n[Variant "American/English"]\n\n')
#: c3-d4 is f6-e5 (11-15), b6-c5 is g3-f4 (24-19), d4xb6 is e5xg3 (15x24, taking f4 = 19),
#: a7xc5 is h2xf4 (28x19, taking g3 = 24): 11-15 24-19 15x24 28x19, Old Faithful (ACF 129)
PLAYSTRATEGY = HEADER + "1. c3-d4 b6-c5 2. d4xb6 a7xc5 0-1\n"


def test_the_first_mover_at_the_bottom_is_read_turned_round() -> None:
    (rep,) = validate(PLAYSTRATEGY)
    assert rep.variant == "english" and rep.replayed_plies == 4
    assert [(p.side, p.notation) for p in rep.plies] == [
        ("B", "11-15"), ("W", "24-19"), ("B", "15x24"), ("W", "28x19")]
    assert [p.written for p in rep.plies] == ["f6-e5", "g3-f4", "e5xg3", "h2xf4"]
    assert [p.captured for p in rep.plies][2:] == [(19,), (24,)]
    assert (rep.black, rep.white) == ("Anna", "Bert")  # P1 is the first mover: Black
    assert rep.finding_codes() == ["board-turned"]  # no move-number-mismatch
    f = rep.findings[0]
    assert (f.severity.value, f.ply, f.line, f.move) == ("info", 1, 8, "c3-d4")
    # 0-1: the second player (Bert, White) won, as PlayStrategy's P1/P2 order says
    assert (rep.result_raw, rep.result, rep.outcome) == ("0-1", "1-0", "white")
    numeric = next(validate(HEADER + "1. 11-15 24-19 2. 15x24 28x19 0-1\n"))
    assert rep.final_fen == numeric.final_fen and numeric.finding_codes() == []


def test_the_usual_notation_is_never_turned() -> None:
    usual = next(validate(HEADER + "1. f6-e5 g3-f4 2. e5xg3 h2xf4 0-1\n"))
    turned = next(validate(PLAYSTRATEGY))
    assert usual.finding_codes() == [] and usual.final_fen == turned.final_fen
    russian = next(validate('[GameType "25"]\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n'))
    assert russian.finding_codes() == [] and russian.plies[0].side == "W"
    # numeric squares have no bottom: a first move from White's side stays what it was
    white_first = next(validate('[GameType "21"]\n1. 22-18 11-15 *\n'))
    assert "board-turned" not in white_first.finding_codes()
    assert "move-number-mismatch" in white_first.finding_codes()


def test_a_first_move_illegal_either_way_is_not_turned() -> None:
    rep = next(validate(HEADER + "1. a1-c3 b6-c5 0-1\n"))
    assert "board-turned" not in rep.finding_codes() and rep.replayed_plies == 0
    assert "illegal-move" in rep.finding_codes()


def test_variations_are_turned_with_their_game() -> None:
    rep = next(validate(HEADER + "1. c3-d4 (1. e3-d4 f6-e5) b6-c5 2. d4xb6 a7xc5 0-1\n"))
    assert rep.finding_codes() == ["board-turned"]  # d6-e5 (10-15) then c3-d4 (21-17)


def test_a_lane_game_and_a_parsed_game_read_alike(tmp_path: Path) -> None:
    # the compiled lane reads the clean game, the Python reader the one with a comment
    p = tmp_path / "ps.pdn"
    p.write_text(PLAYSTRATEGY + "\n" + HEADER + "1. c3-d4 {book} b6-c5 2. d4xb6 a7xc5 0-1\n")
    a, b = validate(p)
    assert [x.notation for x in a.plies] == [x.notation for x in b.plies] == [
        "11-15", "24-19", "15x24", "28x19"]


def test_convert_writes_the_usual_notation(tmp_path: Path) -> None:
    src, out = tmp_path / "ps.pdn", tmp_path / "out.pdn"
    src.write_text(PLAYSTRATEGY)
    convert([src], out)
    (rec,) = read_games(out)
    assert [m.text for m in rec.moves] == ["11-15", "24-19", "15x24", "28x19"]
    assert next(validate(out)).finding_codes() == []


@pytest.mark.parametrize(("square", "size", "turned"), [
    ("c3", (8, 8), "f6"), ("a1", (8, 8), "h8"), ("h2", (8, 8), "a7"), ("a1", (10, 10), "j10"),
    ("b6", (10, 10), "i5"), ("c", (8, 8), "f"), ("32", (8, 8), "32")])
def test_a_square_turned_round(square: str, size: tuple[int, int], turned: str) -> None:
    assert turned_square(square, *size) == turned
    assert turned_square(turned, *size) == square
