"""``pdnkit show`` and its library: the board at ply K equals the engine's position, the
variant's numbering and orientation, --ply forms, findings and legal moves, the database path."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from pdnkit.board import GLYPHS, Board
from pdnkit.cli import app
from pdnkit.pdn import parse_game
from pdnkit.rules import Position, format_move, get_rules, parse_fen
from pdnkit.validation import replay
from pdnkit.viewer import game_model, show
from pdnkit.viewer.model import placement_of, resolve_ply

runner = CliRunner()

GAME = """[Event "show test"]
[White "Wit"]
[Black "Zwart"]
[GameType "20"]
[Result "*"]
1. 32-28 {centre} 19-23 $1 2. 28x19 14x23 3. 37-32 23-28 4. 33x22 17x28x37x26 5. 41-37 *
"""

BAD = '[GameType "20"]\n1. 32-28 19-23 2. 37-26 *\n'


def _render(renderable: object, width: int = 140) -> str:
    con = Console(file=StringIO(), width=width, color_system=None)
    con.print(renderable)
    return con.file.getvalue()


def _engine_positions(text: str) -> list[Position]:
    """The positions after each ply, by playing the canonical moves on the engine."""
    rep = replay(parse_game(text))
    rules = get_rules(rep.variant)
    pos = Position.initial(rules)
    out = [pos]
    for p in rep.plies:
        by_text = {format_move(m, rules): m for m in pos.legal_moves()}
        pos = pos.play(by_text[p.notation])
        out.append(pos)
    return out


def test_model_placement_equals_engine_position_at_every_ply():
    model = game_model(replay(parse_game(GAME)))
    for k, pos in enumerate(_engine_positions(GAME)):
        assert model.placement(k) == placement_of(pos), k


def test_board_draws_the_pieces_of_the_placement():
    rules = get_rules("international")
    pos = parse_fen("W:W28,K46:B5,K19,23", rules)
    text = _render(Board(rules, placement_of(pos)))
    assert text.count(GLYPHS["w"]) == 1 and text.count(GLYPHS["W"]) == 1
    assert text.count(GLYPHS["b"]) == 2 and text.count(GLYPHS["B"]) == 1


def _first_board_row_numbers(variant: str) -> list[str]:
    rules = get_rules(variant)
    lines = _render(Board(rules, None, numbers=True)).splitlines()
    return lines[0].split()


def test_numbering_international_english_italian():
    # international: 1..5 on the top row, square 1 on the second file (b10)
    assert _first_board_row_numbers("international") == ["1", "2", "3", "4", "5"]
    # italian is mirrored: square 1 in the top-left corner (a8), 4 at g8
    it = get_rules("italian")
    assert it.geometry.square_to_coords(1) == (0, 7)
    top = _render(Board(it, None, numbers=True)).splitlines()[0]
    en_top = _render(Board(get_rules("english"), None, numbers=True)).splitlines()[0]
    assert top.index("1") < en_top.index("1")   # italian 1 sits one file further left
    assert _first_board_row_numbers("italian") == ["1", "2", "3", "4"]


def test_resolve_ply_forms():
    model = game_model(replay(parse_game(BAD)))
    assert resolve_ply(model, "illegal-move") == 3
    assert resolve_ply(model, "end") == 3
    assert resolve_ply(model, "2") == 2
    assert resolve_ply(model, None) == 3          # the first error
    with pytest.raises(ValueError, match="no 'missed-capture'"):
        resolve_ply(model, "missed-capture")
    assert resolve_ply(model, 0) == 0 and resolve_ply(model, "start") == 0
    for bad in (4, 500, -1, "-3"):
        with pytest.raises(ValueError, match=r"there is no ply -?\d+: the game has 3 plies"):
            resolve_ply(model, bad)


def test_cli_show_refuses_a_ply_past_the_end(tmp_path: Path):
    f = tmp_path / "g.pdn"
    f.write_text(GAME, encoding="utf-8")
    res = runner.invoke(app, ["show", str(f), "--ply", "500", "--width", "140"])
    assert res.exit_code == 2
    assert "there is no ply 500: the game has 9 plies" in " ".join(res.output.split())


def test_show_lists_comment_nag_and_findings():
    text = _render(show(GAME, ply=1))
    assert "comment: centre" in text and "ply 1 of 9" in text
    assert "$1" in _render(show(GAME, ply=2))


def test_show_error_ply_lists_the_legal_moves():
    g = show(BAD)
    text = _render(g)
    legal = [format_move(m, g.model.rules) for m in
             parse_fen(g.model.findings[0].fen, g.model.rules).legal_moves()]
    assert legal == ["28x19"]
    assert "1 legal move here: 28x19" in text
    assert g.marks()[37] == "written" and g.marks()[26] == "written"


def test_cli_show_file(tmp_path: Path):
    f = tmp_path / "g.pdn"
    f.write_text(GAME + "\n" + BAD, encoding="utf-8")
    res = runner.invoke(app, ["show", str(f), "--game", "2", "--ply", "illegal-move",
                              "--width", "140"])
    assert res.exit_code == 0, res.output
    assert "28x19" in res.output and "illegal-move" in res.output
    res = runner.invoke(app, ["show", str(f), "--game", "3"])
    assert res.exit_code == 2 and "no game 3" in res.output


def test_cli_show_db(tmp_path: Path):
    import pdnkit

    f = tmp_path / "g.pdn"
    f.write_text(GAME + "\n" + BAD, encoding="utf-8")
    db = tmp_path / "g.duckdb"
    pdnkit.import_files([f], db=db)
    gid = int(pdnkit.query("SELECT game_id FROM games WHERE status = 'error'", db=db).iloc[0, 0])
    res = runner.invoke(app, ["show", "--db", str(db), "--game-id", str(gid), "--width", "140"])
    assert res.exit_code == 0, res.output
    assert "illegal-move" in res.output and f"game_id {gid}" in res.output
    res = runner.invoke(app, ["show", "--db", str(db), "--game-id", "999"])
    assert res.exit_code == 2


def test_bad_setup_shows_no_position_rather_than_the_initial_one():
    model = game_model(replay(parse_game('[GameType "20"]\n[FEN "W:W31-50,51:B1-20"]\n'
                                         "1. 32-28 19-23 *")))
    assert model.placement(0) is None and model.placement(2) is None
    assert GLYPHS["w"] not in _render(show('[GameType "20"]\n[FEN "W:W31-50,51:B1-20"]\n'
                                           "1. 32-28 19-23 *"))


def test_unknown_variant_has_no_board_but_lists_the_moves():
    text = _render(show('[GameType "77"]\n1. 32-28 19-23 *'))
    assert "no board: the variant is unknown" in text
    assert "1.  32-28  19-23" in text


HOSTILE = ('[Event "ev\x1b]0;pwned\x07 \u202eevil"]\n[White "[bold red]x[/bold red]"]\n'
           '[Black "b\x1b[2J\x1b[31mred"]\n[GameType "20"]\n'
           '1. 32-28 {\x1b[31mRED\x1b[0m\r over [link=https://x]y[/link]} 19-23 2. 37-26 *\n')


@pytest.mark.parametrize("ply", ["1", "3"])
def test_show_passes_no_control_text_or_markup_to_the_terminal(ply: str):
    text = _render(show(HOSTILE, ply=ply))
    for ch in "\x1b\x07\r\u202e":
        assert ch not in text, repr(ch)
    assert "[bold red]x[/bold red]" in text                 # markup printed as written
    assert "\\x1b[2J\\x1b[31mred" in text and "\\u202eevil" in text   # escapes shown
    if ply == "1":
        assert "\\x1b[31mRED\\x1b[0m" in text and "over [link=https://x]y[/link]" in text


def test_cli_show_escapes_control_text(tmp_path: Path):
    f = tmp_path / "h.pdn"
    f.write_text(HOSTILE, encoding="utf-8")
    res = runner.invoke(app, ["show", str(f), "--ply", "1", "--width", "160"])
    assert res.exit_code == 0, res.output
    assert not set("\x1b\x07\r\u202e") & set(res.output)
    assert "[bold red]x[/bold red]" in res.output


#: English: Black moves first and the first number of a result is the first mover's
ENGLISH = """[White "E Fuller"]
[Black "MF Tinsley"]
[Result "1-0"]
[GameType "21"]
[FEN "B:W13,19,25,29,30,31,32:B1,2,3,4,9,10,12"]

1. 3-8 13x6 2. 2x9 31-27 3. 8-11 27-24 4. 11-16 24-20 5. 16x23 32-28 6. 10-14
25-22 7. 9-13 22-18 8. 1-5 18x9 9. 5x14 28-24 10. 13-17 29-25 11. 17-21 24-19
12. 23-26 30x23 13. 21x30 20-16 14. 4-8 23-18 15. 14x23 19-15 16. 12x19 15-10
17. 23-27 10-7 18. 27-31 7-2 19. 8-11 2-6 20. 19-23 1-0
"""


def test_show_names_the_winner_of_an_english_game():
    g = show(ENGLISH, ply="end")
    assert g.model.report.outcome == "black"
    text = _render(g)
    assert text.splitlines()[0] == "E Fuller - MF Tinsley: 1-0 (Black won: MF Tinsley)"
    assert "result 1-0 (Black won: MF Tinsley)" in text
    drawn = _render(show('[GameType "20"]\n[Result "1-1"]\n1. 32-28 19-23 1-1', ply="end"))
    assert "result 1-1 (draw)" in drawn


def test_show_says_what_the_board_shows():
    assert "board: the position before ply 3, where the error is (37-26 is not played on it)" \
        in _render(show(BAD, ply=3))
    assert "board: the position after ply 2" in _render(show(BAD, ply=2))
    assert "board: the start position" in _render(show(BAD, ply=0))
    assert "board: the final position" in _render(show(GAME, ply="end"))
