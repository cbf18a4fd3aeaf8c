"""Copies kept current by the import: one record stands for each group whatever the order
the files come in, files replaced and removed, an upgraded database, a lake, and every
statistic counting each game once (``--all-copies`` every record)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdnkit.store import connect, duplicates, export, import_files, rule_copies
from pdnkit.store.session import LakeIsReadOnlyError
from tests.copies_kit import EVENT, by_location, statistics, tournament, tournament_copies


@pytest.fixture()
def files(tmp_path: Path) -> tuple[Path, Path]:
    return tournament(tmp_path / "a"), tournament_copies(tmp_path / "b")


def test_copies_imported_before_or_after_their_originals(files: tuple[Path, Path],
                                                         tmp_path: Path) -> None:
    """Every copy is grouped with its original, the original stands for the group, and the
    statistics equal those of the originals alone, whichever file came first."""
    originals, copies = files
    alone = tmp_path / "alone.duckdb"
    import_files([originals], db=alone)
    expected = statistics(alone, EVENT)
    for order in ([originals, copies], [copies, originals]):
        db = tmp_path / f"{order[0].stem}-first.duckdb"
        for f in order:  # two imports: the second regroups what the first stored
            import_files([f], db=db)
        got = by_location(db)
        for i in range(1, 7):
            assert got[f"originals.pdn#{i}"] == (None, None)
            assert got[f"copies.pdn#{i}"][0] == f"originals.pdn#{i}", (order, i)
        assert got["copies.pdn#2"][1] == "prefix"
        assert got["copies.pdn#3"][1] == "annotated"
        assert {got[f"copies.pdn#{i}"][1] for i in (1, 4, 5, 6)} == {"tags"}
        assert statistics(db, EVENT) == expected, order


def test_all_copies_counts_every_record(files: tuple[Path, Path], tmp_path: Path) -> None:
    from pdnkit.stats import GameFilter, players

    db = tmp_path / "both.duckdb"
    import_files(list(files), db=db)
    once = players(db).set_index("player")["games"].to_dict()
    every = players(db, filter=GameFilter(all_copies=True)).set_index("player")["games"]
    assert sum(once.values()) == 12 and sum(every.to_dict().values()) == 24
    out = tmp_path / "out.pdn"
    assert export(out, db=db) == 6 and export(out, db=db, all_copies=True) == 12


def test_a_better_record_takes_over_and_a_removed_one_gives_back(files: tuple[Path, Path],
                                                                 tmp_path: Path) -> None:
    """A truncated copy imported alone stands for its game; the complete record, imported
    later, takes its place; when the complete record's file is replaced by one without
    the game, the truncated copy stands for it again."""
    originals, copies = files
    db = tmp_path / "g.duckdb"
    import_files([copies], db=db)
    assert by_location(db)["copies.pdn#2"] == (None, None)
    import_files([originals], db=db)
    assert by_location(db)["copies.pdn#2"] == ("originals.pdn#2", "prefix")
    text = originals.read_text(encoding="utf-8")
    originals.write_text(text[:text.index("[Event", 10)], encoding="utf-8")  # game 1 only
    import_files([originals], db=db)  # the same path, other bytes: the file is replaced
    got = by_location(db)
    assert got["copies.pdn#2"] == (None, None) and got["copies.pdn#1"][0] == "originals.pdn#1"


def test_a_copy_imported_first_does_not_steal_the_novelty(files: tuple[Path, Path],
                                                          tmp_path: Path) -> None:
    """Novelties are computed among the games counted once: a copy has none, and its
    original's novelty is the one the original alone would have."""
    originals, copies = files
    alone, both = tmp_path / "alone.duckdb", tmp_path / "both.duckdb"
    import_files([originals], db=alone)
    import_files([copies], db=both)
    import_files([originals], db=both)
    sql = ("SELECT g.novelty_ply, g.duplicate_of IS NULL FROM games g JOIN files f "
           "USING (file_id) WHERE f.path LIKE '%{}' ORDER BY g.game_index")
    a = connect(alone, read_only=True).execute(sql.format("originals.pdn")).fetchall()
    b = connect(both, read_only=True).execute(sql.format("originals.pdn")).fetchall()
    c = connect(both, read_only=True).execute(sql.format("copies.pdn")).fetchall()
    assert a == b and all(ok for _, ok in b)
    assert c == [(None, False)] * 6


def test_a_lake_answers_as_the_database(files: tuple[Path, Path], tmp_path: Path) -> None:
    from pdnkit.lake import import_lake

    db, lake = tmp_path / "g.duckdb", tmp_path / "g.lake"
    import_files(list(files), db=db)
    import_lake(list(files), lake, engine="local")
    assert by_location(lake) == by_location(db)
    assert statistics(lake, EVENT) == statistics(db, EVENT)
    assert list((lake / "_copies").glob("groups-*.parquet"))  # kept for its readers
    cols = ["relation", "games", "canonical", "locations", "kinds"]
    assert duplicates(lake)[cols].to_json() == duplicates(db)[cols].to_json()
    with pytest.raises(LakeIsReadOnlyError):
        rule_copies(lake, "originals.pdn#1", "copies.pdn#1", "different")


def test_an_older_database_gets_its_groups_on_upgrade(files: tuple[Path, Path],
                                                      tmp_path: Path) -> None:
    """A database made before the columns existed (dropped here, and recorded as older)
    is upgraded with the groups an import gives."""
    from pdnkit.store import upgrade

    db = tmp_path / "g.duckdb"
    import_files(list(files), db=db)
    expected = by_location(db)
    con = connect(db)
    con.execute("ALTER TABLE games DROP COLUMN duplicate_kind")
    con.execute("ALTER TABLE games DROP COLUMN duplicate_of")
    con.execute("DROP TABLE copy_pending")
    con.execute("DROP TABLE copy_rulings")
    con.execute("DELETE FROM pdnkit_meta")
    con.close()
    upgrade(db)
    assert by_location(db) == expected


def test_a_probable_copy_goes_with_its_partner(tmp_path: Path) -> None:
    """The probable-copy finding of a record leaves when the other record's file is
    replaced by one without it."""
    from tests.copies_kit import random_line, record, write

    tags = {"event": "Cup", "date": "2001.05.02", "round": "3", "white": "Ann Lee",
            "black": "Bob Stone"}
    a = write(tmp_path / "a.pdn", record(random_line(1, 40), **tags))
    b = write(tmp_path / "b.pdn", record(random_line(2, 40), **tags))
    db = tmp_path / "g.duckdb"
    import_files([a, b], db=db)
    sql = "SELECT count(*) FROM findings WHERE code = 'probable-copy'"
    assert connect(db, read_only=True).execute(sql).fetchall() == [(2,)]
    write(b, record(random_line(2, 40), **{**tags, "round": "4"}))
    import_files([b], db=db)  # edited: its old game is removed
    assert connect(db, read_only=True).execute(sql).fetchall() == [(0,)]


@pytest.mark.parametrize("date", ["03.07.20", "2001.05.02", "2001.05.??", "1999/00"])
def test_probable_copies_stored_equal_those_of_the_whole(tmp_path: Path, date: str) -> None:
    """The probable copies an import keeps (its records examined with their own file's, and
    later with the partners found by year) are those of the whole collection examined at
    once, whether the two records came in one file or in two: a date without a certain
    year (``03.07.20``) pairs in neither."""
    from pdnkit.store.copies import compute_groups
    from tests.copies_kit import random_line, record, write

    tags = {"event": "Cup", "date": date, "round": "3", "white": "Ann Lee",
            "black": "Bob Stone"}
    one, two = record(random_line(1, 40), **tags), record(random_line(2, 40), **tags)
    together = write(tmp_path / "one.pdn", one + "\n" + two)
    apart = [write(tmp_path / "a.pdn", one), write(tmp_path / "b.pdn", two)]
    for name, batches in (("together", [[together]]), ("apart", [[p] for p in apart])):
        db = tmp_path / f"{name}.duckdb"
        for batch in batches:
            import_files(batch, db=db)
        con = connect(db, read_only=True)
        stored = con.execute("SELECT count(*) FROM findings "
                             "WHERE code = 'probable-copy'").fetchall()[0][0]
        whole = compute_groups(con).probable
        assert stored == 2 * len(whole), (name, date)
        assert len(whole) == (0 if date == "03.07.20" else 1), (name, date)
