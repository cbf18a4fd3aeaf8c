"""The opening columns through the database, on hand-made games whose openings and
novelties are known by construction: imported, then read back from ``games``, the findings
and the statistics.

English lines used (ACF numbers as CheckerBoard's list gives them):

* ACF 126 is 11-15 23-19 8-11; the Old Fourteenth is ACF 126 then 22-17 4-8;
* ACF 20 is 9-13 23-19 10-14, which 10-14 23-19 9-13 reaches by another move order.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from pdnkit.findings import CODES, explain
from pdnkit.rules import Position, get_rules, match_move
from pdnkit.stats import ballots, named_openings, novelties, openings, tree
from pdnkit.store import connect, import_files
from pdnkit.store.openingdb import fill_database


def game(moves: str, *, date: str | None = None, result: str = "*", tags: str = "",
         fen: str | None = None, white: str = "W", black: str = "B") -> str:
    head = f'[GameType "21"][White "{white}"][Black "{black}"][Result "{result}"]'
    if date:
        head += f'[Date "{date}"]'
    if fen:
        head += f'[SetUp "1"][FEN "{fen}"]'
    return f"{head}{tags}\n{moves} {result}\n\n"


def write(path: Path, *games: str) -> Path:
    path.write_text("".join(games), encoding="utf-8")
    return path


def rows(con: duckdb.DuckDBPyConnection, cols: str = "opening_code, opening_name, "
         "opening_ply") -> list[tuple]:
    return con.execute(f"SELECT {cols} FROM games ORDER BY game_id").fetchall()


def fen_after(moves: str) -> str:
    from pdnkit.rules import write_fen

    pos = Position.initial(get_rules("english"))
    for text in moves.split():
        pos = pos.play(match_move(pos, text)[0])
    return str(write_fen(pos))


def test_a_transposition_into_a_named_line_gets_the_name(tmp_path: Path) -> None:
    """The second game's first three moves are ballot 116 (11-15 22-17 8-11), not 126; by
    its fifth ply it stands in the Old Fourteenth's position all the same."""
    f = write(tmp_path / "a.pdn", game("1. 11-15 23-19 2. 8-11 22-17 3. 4-8"),
              game("1. 11-15 22-17 2. 8-11 23-19 3. 4-8 26-23"))
    db = tmp_path / "a.duckdb"
    import_files([f], db=db)
    con = connect(db)
    assert rows(con) == [("ACF 126", "Old Fourteenth", 5), ("ACF 116", "Old Fourteenth", 5)]
    assert rows(con, "opening_family, opening_mirrored") == [("acf-3move", False)] * 2


def test_a_ballot_reached_by_another_move_order_is_that_ballot(tmp_path: Path) -> None:
    f = write(tmp_path / "a.pdn", game("1. 9-13 23-19 2. 10-14 22-18"),
              game("1. 10-14 23-19 2. 9-13 22-18"))
    db = tmp_path / "a.duckdb"
    import_files([f], db=db)
    con = connect(db)
    assert [r[0] for r in rows(con)] == ["ACF 20", "ACF 20"]
    df = named_openings(con, variant="english")
    assert df.loc[0, "code"] == "ACF 20" and df.loc[0, "games"] == 2


def test_a_fen_start_that_equals_a_ballot_gets_the_ballot(tmp_path: Path) -> None:
    fen = fen_after("11-15 23-19 8-11")
    f = write(tmp_path / "a.pdn", game("1... 22-17 2. 4-8", fen=fen),
              game("1... 24-20", fen=fen))
    db = tmp_path / "a.duckdb"
    import_files([f], db=db)
    con = connect(db)
    assert rows(con) == [("ACF 126", "Old Fourteenth", 2), ("ACF 126", None, 0)]


def test_a_colour_swapped_record_is_read_mirrored_and_its_wins_swapped_back(
        tmp_path: Path) -> None:
    """PlayStrategy writes English games from the starting placement with White to move;
    22-18 10-14 25-22 there is 11-15 23-19 8-11 (ACF 126) seen from the other side. Its
    stored outcome names the recorded colours: the recorded Black (the men on 1-12, who
    moved second) won, which on the tables' board is a win of White (who moves second)."""
    swapped = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    f = write(tmp_path / "a.pdn", game("1. 22-18 10-14 2. 25-22", fen=swapped, result="1-0"),
              game("1. 11-15 23-19 2. 8-11", result="1-0"))
    db = tmp_path / "a.duckdb"
    import_files([f], db=db)
    con = connect(db)
    assert rows(con, "opening_code, opening_mirrored, outcome") == [
        ("ACF 126", True, "black"), ("ACF 126", False, "black")]
    row = named_openings(con, variant="english").iloc[0]
    assert (row["games"], row["black_wins"], row["white_wins"]) == (2, 1, 1)
    assert list(named_openings(con, variant="english").columns)[5:8] == [
        "black_wins", "draws", "white_wins"]


def test_a_deviation_from_an_earlier_dated_game_at_a_known_ply(tmp_path: Path) -> None:
    """File order is not the order of play: the 1960 game comes first in the file, the
    1950 game it deviates from (at ply 5, 9-13 for 4-8) second; an undated game of other
    players with the 1950 game's moves comes after both and has no novelty (with the same
    players it would be a copy of the 1950 game: tests/store/test_copies_import.py)."""
    f = write(tmp_path / "a.pdn",
              game("1. 11-15 23-19 2. 8-11 22-17 3. 9-13", date="1960.03.??"),
              game("1. 11-15 23-19 2. 8-11 22-17 3. 4-8", date="1950.01.02"),
              game("1. 11-15 23-19 2. 8-11 22-17 3. 4-8", white="Ann", black="Bob"))
    db = tmp_path / "a.duckdb"
    import_files([f], db=db)
    con = connect(db)
    assert rows(con, "game_id, novelty_ply, novelty_from") == [(1, 5, 2), (2, 0, None),
                                                               (3, None, 2)]
    df = novelties(con)
    assert list(df["game_id"]) == [2, 1, 3]  # the order of "earlier"
    first = df.iloc[1]
    assert (first["novelty_ply"], first["move_number"], first["novelty"],
            first["deviated_from"]) == (5, 3, "9-13", 2)
    assert str(first["from_date"])[:10] == "1950-01-02"


def test_an_older_game_imported_later_changes_the_later_games_novelties(
        tmp_path: Path) -> None:
    """A 1940 game that played 11-15 23-19 9-14 arrives in a second import: the 1950 game's
    novelty moves from its start to ply 3 (it deviates from the 1940 game), the 1960 game's
    stays at ply 5; the database then equals a full recomputation."""
    db = tmp_path / "a.duckdb"
    import_files([write(tmp_path / "a.pdn",
                        game("1. 11-15 23-19 2. 8-11 22-17 3. 9-13", date="1960.03.01"),
                        game("1. 11-15 23-19 2. 8-11 22-17 3. 4-8", date="1950.01.02"))],
                 db=db)
    import_files([write(tmp_path / "b.pdn", game("1. 11-15 23-19 2. 9-14", date="1940"))],
                 db=db)
    con = connect(db)
    got = rows(con, "game_id, novelty_ply, novelty_from")
    assert got == [(1, 5, 2), (2, 3, 3), (3, 0, None)]
    fill_database(con)
    assert rows(con, "game_id, novelty_ply, novelty_from") == got
    assert con.execute("SELECT count(*) FROM opening_pending").fetchall() == [(0,)]


def test_replacing_a_file_updates_the_games_that_deviated_from_it(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    a = write(tmp_path / "a.pdn", game("1. 11-15 23-19 2. 8-11 22-17 3. 4-8", date="1950"))
    import_files([a], db=db)
    import_files([write(tmp_path / "b.pdn",
                        game("1. 11-15 23-19 2. 8-11 22-17 3. 9-13", date="1960"))], db=db)
    con = connect(db)
    assert rows(con, "novelty_ply, novelty_from") == [(0, None), (5, 1)]
    con.close()
    write(a, game("1. 9-13 22-18", date="1950"))  # edited: the 1950 game is another now
    import_files([a], db=db)
    con = connect(db)
    got = con.execute("SELECT year, novelty_ply, novelty_from FROM games ORDER BY year"
                      ).fetchall()
    assert got == [(1950, 0, None), (1960, 1, 3)]  # 11-15: the new 1950 game did not play it
    fill_database(con)
    assert con.execute("SELECT year, novelty_ply, novelty_from FROM games ORDER BY year"
                       ).fetchall() == got


def test_an_opening_tag_that_disagrees_is_an_info_finding(tmp_path: Path) -> None:
    f = write(tmp_path / "a.pdn",
              game("1. 11-15 23-19 2. 8-11 22-17 3. 4-8", tags='\n[Opening "Dyke"]'),
              game("1. 11-15 22-17 2. 15-19", tags='\n[Opening "Dyke"]'))
    db = tmp_path / "a.duckdb"
    import_files([f], db=db)
    con = connect(db)
    found = con.execute("SELECT game_id, severity, line, message FROM findings WHERE code = "
                        "'opening-tag-mismatch'").fetchall()
    assert len(found) == 1
    gid, severity, line, message = found[0]
    assert (gid, severity, line) == (1, "info", 2)
    assert "Dyke" in message and "11-15 22-17 15-19" in message and "ACF 126" in message
    assert rows(con, "opening") == [("Dyke",), ("Dyke",)]  # the tag is kept as written
    assert CODES["opening-tag-mismatch"].severity.value == "info"
    assert "transpositions count" in explain("opening-tag-mismatch")


def test_fill_database_restores_what_the_import_wrote(tmp_path: Path) -> None:
    """An older database (its opening columns empty) filled from its stored positions gets
    what an import writes: the Python classification of the replay and the SQL one of the
    stored rows agree, the tag findings too."""
    swapped = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    f = write(tmp_path / "a.pdn",
              game("1. 11-15 22-17 2. 8-11 23-19 3. 4-8", date="1999"),
              game("1. 22-18 10-14 2. 25-22", fen=swapped, tags='\n[Opening "Bristol"]'),
              game("1... 22-17 2. 4-8", fen=fen_after("11-15 23-19 8-11")),
              game("1. 9-13 22-18 2. 10-14"))
    db = tmp_path / "a.duckdb"
    import_files([f], db=db)
    con = connect(db)
    cols = ("opening_code, opening_name, opening_ply, opening_family, opening_mirrored, "
            "novelty_ply, novelty_from")
    want = rows(con, cols)
    notes = con.execute("SELECT game_id, message, line FROM findings WHERE code = "
                        "'opening-tag-mismatch'").fetchall()
    assert len(notes) == 1
    con.execute("UPDATE games SET opening_code = NULL, opening_name = NULL, opening_ply = "
                "NULL, opening_family = NULL, opening_mirrored = NULL, novelty_ply = NULL, "
                "novelty_from = NULL")
    con.execute("DELETE FROM findings WHERE code = 'opening-tag-mismatch'")
    summary = fill_database(con)
    assert (summary.games, summary.classified, summary.findings) == (4, 4, 1)
    assert rows(con, cols) == want
    assert con.execute("SELECT game_id, message, line FROM findings WHERE code = "
                       "'opening-tag-mismatch'").fetchall() == notes


def test_ballots_and_the_tree_speak_the_tables_names(tmp_path: Path) -> None:
    f = write(tmp_path / "a.pdn",
              game("1. 11-15 23-19 2. 8-11 22-17", result="1-0"),
              game("1. 11-15 23-19 2. 8-11 22-17", result="1/2-1/2"),
              game("1. 9-13 23-19 2. 10-14", result="1/2-1/2"))
    db = tmp_path / "a.duckdb"
    import_files([f], db=db)
    b = ballots(db, variant="english")
    assert list(b["ballot"]) == ["ACF 20", "ACF 126"]  # in the order of the ACF list
    assert list(b["decisive"]) == [0, 1] and list(b["deck"]) == ["crossboard", "crossboard"]
    assert list(b.columns)[6:9] == ["black_wins", "draws", "white_wins"]
    t = tree(db, moves="11-15 23-19")
    assert t.loc[t["move"] == "8-11", "opening"].tolist() == ["ACF 126"]
    named = openings(db, by="name", variant="english")  # the deepest names: a first move
    assert named[["name", "code", "games"]].values.tolist() == [
        ["Old Faithful", "ACF 126", 2], ["Edinburgh", "ACF 20", 1]]
    assert openings(db, by="code", variant="english")["code"].tolist() == ["ACF 126",
                                                                            "ACF 20"]


@pytest.mark.parametrize("jobs", [1, 2])
def test_workers_write_the_same_opening_columns(tmp_path: Path, jobs: int) -> None:
    text = "".join(game("1. 11-15 23-19 2. 8-11 22-17 3. 4-8", date=f"{1900 + k}")
                   for k in range(300))
    f = write(tmp_path / "a.pdn", text)
    db = tmp_path / f"{jobs}.duckdb"
    import_files([f], db=db, jobs=jobs)
    con = connect(db)
    assert con.execute("SELECT count(*), count(DISTINCT opening_name), min(novelty_ply), "
                       "count(novelty_ply) FROM games").fetchall() == [(300, 1, 0, 1)]
