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
