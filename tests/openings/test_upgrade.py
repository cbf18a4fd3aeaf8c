"""An older database gains the opening columns through the store's upgrade: the fill step
the registry names (``pdnkit.store.openingdb:fill_upgrade``, :mod:`pdnkit.store.upgrades`) runs on
the upgrade's copy and gives the columns a fresh import gives, novelties and the
opening-tag finding included; a write command upgrades such a database on its own, and the
version-4 database of the store's upgrade tests comes out classified like a fresh import."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import duckdb
import pytest

from pdnkit.store import DatabaseError, connect, import_files, upgrades
from pdnkit.store.openingdb import fill_database
from pdnkit.store.upgrades import FILL_STEPS, needs_upgrade, upgrade
from tests.openings.test_database import game, write
from tests.store.legacy import record_as, version_4_database

#: the columns and tables the openings added to schema version 5
OPENING_COLUMNS = ("opening_code", "opening_name", "opening_ply", "opening_family",
                   "opening_mirrored", "novelty_ply", "novelty_from")
LABELS = "game_id, " + ", ".join(OPENING_COLUMNS)
FILL = "games.opening_* from the positions"


def _games(tmp_path: Path) -> list[Path]:
    """Games whose openings and novelties are known by construction (see test_database)."""
    a = write(tmp_path / "a.pdn",
              game("1. 11-15 23-19 2. 8-11 22-17 3. 9-13", date="1960.03.01"),
              game("1. 11-15 23-19 2. 8-11 22-17 3. 4-8", date="1950.01.02",
                   tags='\n[Opening "Dyke"]'),
              game("1. 10-14 23-19 2. 9-13 22-18"))
    b = write(tmp_path / "b.pdn", game("1. 11-15 22-17 2. 8-11 23-19 3. 4-8 26-23"))
    return [a, b]


def _without_openings(db: Path) -> None:
    """Make ``db`` a database as schema version 5 was before the openings: no opening
    columns, tables or findings."""
    con = duckdb.connect(str(db))
    for col in OPENING_COLUMNS:
        con.execute(f"ALTER TABLE games DROP COLUMN {col}")
    con.execute("DROP TABLE opening_tables")
    con.execute("DROP TABLE opening_pending")
    con.execute("DELETE FROM findings WHERE code = 'opening-tag-mismatch'")
    record_as(con, "5")
    con.close()


def _labels(db: Path) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(f"SELECT {LABELS} FROM games ORDER BY game_id").fetchall()
    finally:
        con.close()


def test_the_openings_fill_step_is_registered_by_name() -> None:
    step = next(s for s in FILL_STEPS if s.what == FILL)
    assert step.table == "games" and "opening_code" in step.columns
    from pdnkit.store.openingdb import fill_upgrade

    assert step.function() is fill_upgrade


def test_an_upgrade_fills_the_opening_columns_as_an_import_does(tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    import_files(_games(tmp_path), db=db)
    fresh = _labels(db)
    mismatch = "SELECT game_id, severity, line FROM findings WHERE code = 'opening-tag-mismatch'"
    found = duckdb.connect(str(db), read_only=True).execute(mismatch).fetchall()
    assert [r[:2] for r in found] == [(2, "info")]  # the Dyke tag on an Old Fourteenth
    assert [r[1:4] for r in fresh[:2]] == [("ACF 126", "Laird and Lady", 5),
                                           ("ACF 126", "Old Fourteenth", 5)]
    assert [r[6:] for r in fresh[:2]] == [(5, 2), (0, None)]
    _without_openings(db)
    assert needs_upgrade(db) == 5
    result = upgrade(db, notice=None)
    assert result.upgraded and FILL in result.fills
    assert _labels(db) == fresh
    assert not upgrade(db, notice=None).upgraded  # once
    # the upgrade keeps every old row and adds the tag findings an import writes
    con = connect(db)
    assert con.execute(mismatch).fetchall() == found
    assert con.execute("SELECT count(*) FROM opening_pending").fetchall() == [(0,)]
    assert fill_database(con).findings == 1  # again: replaced, not doubled
    assert con.execute(mismatch).fetchall() == found
    con.close()
    assert _labels(db) == fresh


def test_an_upgraded_database_has_the_findings_of_a_fresh_import(tmp_path: Path) -> None:
    db, fresh = tmp_path / "g.duckdb", tmp_path / "fresh.duckdb"
    import_files(_games(tmp_path), db=db)
    import_files(_games(tmp_path), db=fresh)
    _without_openings(db)
    assert upgrade(db, notice=None).upgraded
    rows = "SELECT game_id, code, severity, line, ply, message FROM findings ORDER BY ALL"
    got = [duckdb.connect(str(p), read_only=True).execute(rows).fetchall() for p in (db, fresh)]
    assert got[0] == got[1] and any(r[1] == "opening-tag-mismatch" for r in got[0])


def test_an_upgrade_stops_when_a_fill_loses_a_row(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A fill may add findings, never remove one: the check after the fills counts them."""
    db = tmp_path / "g.duckdb"
    bad = write(tmp_path / "bad.pdn", game("1. 11-15 23-19 2. 8-11 22-17 3. 1-5"))
    import_files([*_games(tmp_path), bad], db=db)  # an illegal move: a finding kept
    _without_openings(db)
    before = duckdb.connect(str(db), read_only=True)
    kept = before.execute("SELECT count(*) FROM findings").fetchall()
    before.close()
    assert kept[0][0] > 0
    step = next(s for s in FILL_STEPS if s.what == FILL)

    def losing(con: duckdb.DuckDBPyConnection) -> None:
        step.function()(con)
        con.execute("DELETE FROM findings WHERE code <> 'opening-tag-mismatch'")

    monkeypatch.setattr(upgrades, "FILL_STEPS",
                        [dataclasses.replace(s, fill=losing) if s is step else s
                         for s in FILL_STEPS])
    with pytest.raises(DatabaseError, match="findings"):
        upgrade(db, notice=None)
    after = duckdb.connect(str(db), read_only=True)
    assert after.execute("SELECT count(*) FROM findings").fetchall() == kept  # as it was
    after.close()


def test_an_import_into_an_older_database_upgrades_it_first(tmp_path: Path) -> None:
    """The write command upgrades (the fill classifies the stored games), then imports: the
    1940 game it brings changes the 1950 game's novelty as in a database that had the
    columns all along."""
    db = tmp_path / "g.duckdb"
    files = _games(tmp_path)
    import_files(files, db=db)
    _without_openings(db)
    older = write(tmp_path / "c.pdn", game("1. 11-15 23-19 2. 9-14", date="1940"))
    import_files([older], db=db)
    fresh = tmp_path / "fresh.duckdb"
    import_files([*files, older], db=fresh)
    assert _labels(db) == _labels(fresh)
    assert _labels(db)[1][6:] == (3, 5)  # the 1950 game now deviates from the 1940 one


def test_a_version_4_database_comes_out_classified_like_a_fresh_import(
        tmp_path: Path) -> None:
    old, how = version_4_database(tmp_path / "old")
    result = upgrade(old, notice=None)
    assert result.upgraded and (FILL in result.fills) == (how == "93d8a07"), (how, result)
    fresh = tmp_path / "fresh.duckdb"
    from pdnkit.samples import sample_dir

    import_files([sample_dir()], db=fresh)
    cols = ", ".join("g." + c for c in OPENING_COLUMNS[:5])
    sql = (f"SELECT f.sha256, g.game_index, g.moves_hash, {cols}, g.novelty_ply "
           "FROM games g JOIN files f USING (file_id)")
    got = [{r[:3]: r[3:] for r in duckdb.connect(str(p), read_only=True).execute(sql).fetchall()}
           for p in (old, fresh)]
    both = set(got[0]) & set(got[1])  # (the old reader split one sample file otherwise)
    assert len(both) > 0.9 * len(got[1])
    # novelties depend on every game: compared where the two hold the same games
    assert {k: got[0][k][:5] for k in both} == {k: got[1][k][:5] for k in both}
    assert sum(got[0][k][0] is not None for k in both) > 100  # games with a code
