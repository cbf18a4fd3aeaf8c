"""The tree's book view on hand-made games: +/=/- and score from the side to move, and
transposition counts known by construction.

* game 1 (1-0): ``1. 31-26 20-25 2. 32-27`` -> position P3;
* game 2 (0-1): ``1. 32-27 20-25 2. 31-26`` -> the same P3 by another road;
* game 3 (0-1): ``1. 31-26 20-25 2. 33-28``;
* game 4 (1/2-1/2): ``1. 31-26 19-24``.

From the position after ``31-26`` (Black to move) games 1, 3 (20-25) and 4 (19-24) go on:
20-25 scores, for Black, one win (game 3) and one loss (game 1). From the position after
``31-26 20-25`` (White to move), 32-27 is game 1's move; game 2 reached the position after it
by another road: one transposition.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdnkit.stats import tree

GAMES = [("1-0", "1. 31-26 20-25 2. 32-27"), ("0-1", "1. 32-27 20-25 2. 31-26"),
         ("0-1", "1. 31-26 20-25 2. 33-28"), ("1/2-1/2", "1. 31-26 19-24")]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    from pdnkit.store import import_files

    d = tmp_path_factory.mktemp("book")
    f = d / "g.pdn"
    f.write_text("\n".join(f'[GameType "20"]\n[Result "{r}"]\n\n{m} {r}\n' for r, m in GAMES),
                 encoding="utf-8")
    path = d / "b.duckdb"
    assert import_files([f], db=path).status_counts.get("ok") == len(GAMES)
    return str(path)


def test_scores_from_the_side_to_move(db: str) -> None:
    df = tree(db, moves="31-26").set_index("move")
    assert list(df.index) == ["20-25", "19-24"]
    row = df.loc["20-25"]
    assert (row.side, row.games, row.wins, row.draws, row.losses, row.score) == (
        "B", 2, 1, 0, 1, 50.0)
    assert (row.white_wins, row.black_wins) == (1, 1)
    row = df.loc["19-24"]
    assert (row.side, row.wins, row.draws, row.losses, row.score) == ("B", 0, 1, 0, 50.0)


def test_transpositions_are_counted(db: str) -> None:
    df = tree(db, moves="31-26 20-25").set_index("move")
    assert df.loc["32-27"].transpositions == 1
    assert df.loc["33-28"].transpositions == 0
    row = df.loc["33-28"]
    assert (row.side, row.wins, row.losses, row.score) == ("W", 0, 1, 0.0)
    start = tree(db).set_index("move")
    assert start.loc["31-26"].games == 3 and start.loc["31-26"].wins == 1
    assert start.loc["32-27"].transpositions == 0


def test_cli_book(db: str, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pdnkit.cli import app

    r = CliRunner().invoke(app, ["tree", "--db", db, "--moves", "31-26 20-25", "--book",
                                 "-f", "csv"])
    assert r.exit_code == 0, r.output
    lines = r.output.strip().splitlines()
    assert lines[0] == "variant,move,games,side,+,=,-,score,transpositions,fen_after,opening"
    assert lines[1].startswith("international,32-27,1,W,1,0,0,100.0,1,")


def test_a_move_that_stood_irregularly_has_its_position_and_transpositions(
        tmp_path: Path) -> None:
    """From ``W:W28:B1,22`` White must take (28x17) but plays 28-23, which stands (FMJD:
    an irregularity not claimed stands): the engine does not list the position after it,
    so it is read from the game; a second game reaches that position by 29-23 from
    ``W:W29:B1,22``: one transposition."""
    from pdnkit.store import import_files

    f = tmp_path / "irr.pdn"
    f.write_text('[GameType "20"]\n[FEN "W:W28:B1,22"]\n\n1. 28-23 *\n\n'
                 '[GameType "20"]\n[FEN "W:W29:B1,22"]\n\n1. 29-23 *\n', encoding="utf-8")
    db = tmp_path / "irr.duckdb"
    import_files([f], db=db)
    df = tree(str(db), fen="W:W28:B1,22")
    assert list(df.move) == ["28-23"]
    row = df.iloc[0]
    assert (row.games, row.transpositions, row.fen_after) == (1, 1, "B:W23:B1,22")
    other = tree(str(db), fen="W:W29:B1,22").iloc[0]
    assert (other.move, other.transpositions, other.fen_after) == ("29-23", 1, "B:W23:B1,22")
