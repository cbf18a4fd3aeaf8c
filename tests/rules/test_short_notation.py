"""Russian short notation (``cd4`` for c3-d4, ``c:e5`` / ``b:d4`` for captures): a written
move names the file of its origin and its destination, and resolves to the unique legal move
it can mean; several mean it is ambiguous. Hand-made positions and games."""

from __future__ import annotations

import pdnkit
from pdnkit.pdn import read_games
from pdnkit.rules import Position, get_rules, parse_fen
from pdnkit.rules.notation import (
    format_move,
    match_move,
    resolve_short_move,
    short_move_matches,
)

RU = get_rules("russian")


def _names(moves: list | None) -> list[str]:  # type: ignore[type-arg]
    assert moves is not None
    return sorted(format_move(m, RU) for m in moves)


def test_quiet_short_forms_in_the_initial_position() -> None:
    pos = Position.initial(RU)
    assert _names(short_move_matches(pos, "cd4")) == ["c3-d4"]
    assert _names(short_move_matches(pos, "cb4")) == ["c3-b4"]
    assert _names(short_move_matches(pos, "gh4")) == ["g3-h4"]
    assert _names(short_move_matches(pos, "c-d4")) == ["c3-d4"]
    assert short_move_matches(pos, "hg4") == []  # h2 cannot reach g4 (g3 is occupied)
    assert short_move_matches(pos, "dd4") == []  # no piece moves along its file
    assert short_move_matches(pos, "c3-d4") is None  # a full move is no short form
    assert short_move_matches(pos, "22-18") is None


def test_capture_short_forms_name_the_capturing_file() -> None:
    pos = parse_fen("W:Wc3,g3:Bd4,f4", RU)
    # c3 and g3 can both take and land on e5: c:e5 and g:e5 tell them apart
    assert _names(short_move_matches(pos, "c:e5")) == ["c3:e5"]
    assert _names(short_move_matches(pos, "gxe5")) == ["g3:e5"]
    assert _names(short_move_matches(pos, "ge5")) == ["g3:e5"]  # no separator: either kind
    assert short_move_matches(pos, "c-e5") == []  # '-' is a quiet move, and a capture is due
    pos = parse_fen("B:Wc3,e3:Ba5,c5", RU)
    assert _names(short_move_matches(pos, "a:c3")) == []  # a5 jumps nothing
    pos = parse_fen("B:Wc3:Ba5", RU)
    assert _names(short_move_matches(pos, "b:d4")) == []
    pos = parse_fen("B:Wc5:Bb6", RU)
    assert _names(short_move_matches(pos, "b:d4")) == ["b6:d4"]


def test_several_meanings_are_ambiguous() -> None:
    # a man on c3 and one on c7 (men capture backwards) can both take and land on e5
    pos = parse_fen("W:Wc3,c7:Bd4,d6", RU)
    assert _names(match_move(pos, "c:e5")) == ["c3:e5", "c7:e5"]
    assert resolve_short_move(pos, "c:e5") == "ambiguous short move c:e5: c3:e5, c7:e5"
    # two kings on the c-file reach d2
    pos = parse_fen("W:WKc1,Kc3:Bh8", RU)
    assert _names(match_move(pos, "cd2")) == ["c1-d2", "c3-d2"]
    assert len(match_move(pos, "c1-d2")) == 1
    assert resolve_short_move(pos, "cd2", ).startswith("ambiguous")  # type: ignore[union-attr]
    assert resolve_short_move(pos, "ab2") == "no legal move fits the short move ab2"


def test_the_reader_keeps_the_file_of_a_short_form() -> None:
    [rec] = list(read_games('[GameType "25"]\n\n1. cd4 b:d4 *\n'))
    assert [m.text for m in rec.moves] == ["cd4", "b:d4"]
    assert [tuple(m.squares) for m in rec.moves] == [("c", "d4"), ("b", "d4")]


GAME = """[Event "hand-made short-notation game"]
[GameType "25"]
[Result "*"]

1. cd4 fe5 2. d:f6 g:e5 3. gf4 e:g3 4. h:f4 ba5 5. b2-c3 *
"""


def test_a_game_in_short_notation_validates() -> None:
    [r] = list(pdnkit.validate(GAME))
    assert r.variant == "russian" and not r.findings
    assert r.replayed_plies == 9
    assert r.notation_map() == {1: "c3-d4", 2: "f6-e5", 3: "d4:f6", 4: "g7:e5", 5: "g3-f4",
                                6: "e5:g3", 7: "h2:f4", 8: "b6-a5", 9: "b2-c3"}


def test_an_ambiguous_or_impossible_short_move_is_a_finding() -> None:
    ambiguous = """[GameType "25"]
[FEN "W:WKc1,Kc3:Bh8"]
[Result "*"]

1. cd2 *
"""
    [r] = list(pdnkit.validate(ambiguous))
    [f] = r.errors()
    assert f.code == "ambiguous-move" and f.ply == 1 and "c1-d2, c3-d2" in f.message
    [r] = list(pdnkit.validate(GAME.replace("3. gf4", "3. hf4")))
    [f] = r.errors()
    assert f.code == "illegal-move" and f.ply == 5 and r.replayed_plies == 4
