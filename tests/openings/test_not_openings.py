"""What is no opening: placeholder moves, games with no replayed ply and set-up positions
make no row of ``stats openings`` (by code, name, moves or position), of the ballot report,
and no bar of ``plot openings``; and the code(s) a name shows do not depend on the games'
order.

English games (hand-written): three ballots under the name Cross (11-15 23-18: ACF 121,
124 and 125, RULES/ACF list), a game recorded without its moves (``1. - - 2. - - ...``, as
the Russian archives write one), the 11-man ballot 1 as a listing writes it (its FEN, no
move), and an endgame set up by a FEN with moves.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdnkit.stats import ballots, openings
from pdnkit.store import connect, import_files

ELEVEN_MAN_1 = "B:W19,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,7,6,5,12,11,10,9"
CROSS = ["1. 11-15 23-18 2. 8-11 27-23", "1. 11-15 23-18 2. 12-16 18x11",
         "1. 11-15 23-18 2. 15-19 24x15"]
PLACEHOLDERS = "1. - - 2. - - 3. - - 4. - - 5. - -"


def _game(moves: str, *, result: str = "1/2-1/2", fen: str | None = None,
          white: str = "A", black: str = "B") -> str:
    tags = [f'[White "{white}"]', f'[Black "{black}"]', '[GameType "21"]',
            f'[Result "{result}"]']
    if fen:
        tags += ['[SetUp "1"]', f'[FEN "{fen}"]']
    return "\n".join(tags) + f"\n\n{moves} {result}\n\n"


def _db(tmp_path: Path, games: list[str], name: str = "g") -> Path:
    f = tmp_path / f"{name}.pdn"
    f.write_text("".join(games), encoding="utf-8")
    db = tmp_path / f"{name}.duckdb"
    import_files([f], db=db)
    return db


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    return _db(tmp_path, [*(_game(m) for m in CROSS), _game(PLACEHOLDERS),
                          _game("", fen=ELEVEN_MAN_1, result="*"),
                          _game("1. 22-18 *", fen="B:W22,K30:B11,K3", result="*")])


def test_the_games_are_what_the_snippets_say(db: Path) -> None:
    con = connect(db, read_only=True)
    rows = con.execute("SELECT opening_code, opening_name, plies, replayed_plies "
                       "FROM games ORDER BY game_id").fetchall()
    con.close()
    assert [r[0] for r in rows[:3]] == ["ACF 121", "ACF 124", "ACF 125"]
    assert {r[1] for r in rows[:3]} == {"Cross"}
    assert rows[3][2:] == (5, 0)              # placeholders: plies, none replayed
    assert rows[4][0] == "11-man 1" and rows[4][2] == 0  # classified, but no move
    assert rows[5][0] is None                 # an endgame: no table names it


def test_by_name_shows_every_code_of_the_name(db: Path) -> None:
    df = openings(db, by="name", variant="english")
    cross = df.set_index("name").loc["Cross"]
    assert (cross["code"], cross["family"], cross["games"]) == (
        "ACF 121, ACF 124, ACF 125", "acf-3move", 3)
    assert df["games"].sum() == 3


def test_no_row_for_what_is_no_opening(db: Path) -> None:
    by_code = openings(db, by="code", variant="english")
    assert sorted(by_code["code"]) == ["ACF 121", "ACF 124", "ACF 125"]
    assert "11-man 1" not in set(ballots(db, variant="english")["ballot"])
    for plies in (2, 4):
        moves = openings(db, by="moves", plies=plies, variant="english")
        assert not any("- -" in o or o.strip("- ") == "" for o in moves["opening"])
        assert moves["games"].sum() == 3
        assert openings(db, by="position", plies=plies, variant="english")["games"].sum() == 3


def test_no_bar_for_what_is_no_opening(tmp_path: Path) -> None:
    from pdnkit.plots import plot

    db = _db(tmp_path, [_game(PLACEHOLDERS), _game(PLACEHOLDERS), _game(CROSS[0])])
    fig = plot("openings", db, plies=2)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels and not any("- -" in t for t in labels)


def test_the_codes_of_a_name_do_not_depend_on_the_order(tmp_path: Path) -> None:
    """One game of each code: the most frequent code was a tie, decided by the order."""
    forward = _db(tmp_path, [_game(m) for m in CROSS], "forward")
    backward = _db(tmp_path, [_game(m) for m in reversed(CROSS)], "backward")
    for by in ("name", "code"):
        a = openings(forward, by=by, variant="english").drop(columns="view_where")
        b = openings(backward, by=by, variant="english").drop(columns="view_where")
        assert a.equals(b), by
