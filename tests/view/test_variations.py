"""Variations in the board views: replayed from the position before the move they replace
(compared with the engine's own play of the moves), listed by ``show`` in brackets under the
move they replace, with where a variation could not be replayed."""

from __future__ import annotations

from io import StringIO

from rich.console import Console

from pdnkit.pdn import parse_game
from pdnkit.rules import Position, get_rules, match_move
from pdnkit.validation import replay
from pdnkit.viewer import game_model, show
from pdnkit.viewer.model import placement_of
from pdnkit.viewer.variations import line_text, variations

#: a variation of ply 1 with one nested in it, a variation of ply 4, and one that fails
VAR = """[White "Wit"]
[Black "Zwart"]
[GameType "20"]

1. 32-28 (1. 33-28 {centre} 18-22 (1... 17-22 2. 28x17 12x21) 2. 31-27 $1) 19-23
2. 28x19 14x23 (2... 13x24 3. 34-29) 3. 37-32 (3. 31-27 (3. 34-29 50x1)) *
"""


def _play(pos: Position, *moves: str) -> list[str]:
    """The placements after each move, played by the engine."""
    out = []
    for text in moves:
        (move,) = match_move(pos, text)
        pos = pos.play(move)
        out.append(placement_of(pos))
    return out


def _positions_before(text: str) -> list[Position]:
    rep = replay(parse_game(text))
    return [p.position_before for p in rep.plies]


def test_variations_are_replayed_from_the_position_before_the_move_they_replace():
    rep = replay(parse_game(VAR))
    found = variations(rep)
    assert [(v.at, v.parent, v.depth) for v in found] == [
        (1, None, 1), (4, None, 1), (5, None, 1), (2, 0, 2), (5, 2, 2)]
    start = Position.initial(get_rules("international"))
    assert [p.placement for p in found[0].plies] == _play(start, "33-28", "18-22", "31-27")
    after_33_28 = start.play(match_move(start, "33-28")[0])
    assert [p.placement for p in found[3].plies] == _play(after_33_28, "17-22", "28x17",
                                                          "12x21")
    before_4 = rep.plies[3].position_before
    assert [p.placement for p in found[1].plies] == _play(before_4, "13x24", "34-29")
    assert found[3].plies[1].captured == (22,) and found[3].plies[1].notation == "28x17"
    assert found[0].plies[0].comment == "centre" and found[0].plies[2].nags == [1]
    # numbering as in the game: 1... 17-22 2. 28x17 in a variation of Black's first move
    assert [(p.ply, p.number, p.side) for p in found[3].plies] == [(2, 1, "B"), (3, 2, "W"),
                                                                    (4, 2, "B")]
    # 3. 34-29 50x1: Black has no piece on 50; the variation stops there and says why
    bad = found[4]
    assert [p.replayed for p in bad.plies] == [True, False]
    assert bad.stopped == "50x1 is not a legal move there"
    assert game_model(rep).variations == found


def test_line_text_nests_variations_where_they_branch():
    found = variations(replay(parse_game(VAR)))
    assert line_text(found, 0, "W") == "(1. 33-28 18-22 (1... 17-22 2. 28x17 12x21) 2. 31-27)"
    assert line_text(found, 1, "W") == "(2... 13x24 3. 34-29)"
    assert line_text(found, 2, "W") == "(3. 31-27 (3. 34-29 50x1? " \
        "{not replayed: 50x1 is not a legal move there}))"


def test_a_variation_of_an_unreplayed_ply_is_listed_not_replayed():
    found = variations(replay(parse_game('[GameType "20"]\n1. 32-28 19-23 2. 37-26 '
                                         '(2. 28x19 14x23) *')))
    assert [(p.written, p.replayed) for p in found[0].plies] == [("28x19", False),
                                                                  ("14x23", False)]


def test_show_lists_the_variations_under_the_move_they_replace():
    con = Console(file=StringIO(), width=160, color_system=None)
    con.print(show(VAR, ply=2))
    lines = [line.rstrip() for line in con.file.getvalue().splitlines()]
    moves = [line[line.index("1.  32-28"):] if "1.  32-28" in line else line for line in lines]
    at = next(i for i, line in enumerate(moves) if line.startswith("1.  32-28  19-23"))
    assert lines[at + 1].rstrip().endswith("(1. 33-28 18-22 (1... 17-22 2. 28x17 12x21) "
                                           "2. 31-27)")
    assert lines[at + 2].rstrip().endswith("2.  28x19  14x23")
    assert lines[at + 3].rstrip().endswith("(2... 13x24 3. 34-29)")
    assert "50x1? {not replayed: 50x1 is not a legal move there}))" in con.file.getvalue()


def test_variations_nested_thousands_deep_need_no_recursion():
    n = 3000
    text = '[GameType "20"]\n1. 32-28 ' + "(1. 33-28 " * n + ")" * n + " 19-23 *"
    found = variations(replay(parse_game(text)))
    assert len(found) == n and found[-1].depth == n and all(v.plies[0].replayed for v in found)
    assert line_text(found, 0, "W").count("(") == n
    con = Console(file=StringIO(), width=120, color_system=None)
    con.print(show(text, ply=1))
    assert "1.  32-28  19-23" in con.file.getvalue()
