"""Databases and lakes written before schema version 3 (``moves`` a table, the position key
stored in ``position_bits``) or 4 (``HUGEINT`` bitboards) open with every row as it was: the
moves move to the compact ``move_rows`` behind the ``moves`` view, the stored key gives way
to the derived one, the bitboards split into ``UBIGINT`` squares 1-64 and ``*_high``
columns of squares 65 and up."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from pdnkit.lake import import_lake, read_manifest
from pdnkit.samples import sample_dir
from pdnkit.store import connect, import_files
from pdnkit.store.db import SCHEMA_VERSION, UpgradeNeededError, schema_sql
from pdnkit.store.lakeview import open_lake
from pdnkit.store.upgrades import upgrade
from tests.store.legacy import record_as
from tests.store.safety_helpers import cli

#: the positions view of schema version 2 (the key read from the table)
V2_POSITIONS = """
CREATE VIEW positions AS
SELECT p.game_id, p.ply,
       CASE WHEN p.black THEN 'B' ELSE 'W' END || ':W' || fen_field(l.fen_order, l.names, p.wm, p.wk)
           || ':B' || fen_field(l.fen_order, l.names, p.bm, p.bk) AS fen,
       p.position_key,
       CASE WHEN p.black THEN 'B' ELSE 'W' END AS side,
       bit_count(p.wm)::INTEGER AS white_men, bit_count(p.wk)::INTEGER AS white_kings,
       bit_count(p.bm)::INTEGER AS black_men, bit_count(p.bk)::INTEGER AS black_kings,
       p.wm, p.wk, p.bm, p.bk, p.black, p.layout
FROM position_bits p LEFT JOIN layouts l ON l.layout = p.layout"""


def _rows(con: duckdb.DuckDBPyConnection, table: str) -> list[tuple[object, ...]]:
    return con.execute(f"SELECT * FROM {table} ORDER BY game_id, ply").fetchall()


def _hugeint_bits(con: duckdb.DuckDBPyConnection) -> None:
    """``position_bits`` as versions 2 and 3 stored it: each bitboard whole in one
    ``HUGEINT`` column, no ``*_high`` columns."""
    con.execute("DROP VIEW positions")
    con.execute("CREATE TABLE bits_v3 AS SELECT game_id, ply, layout, black, "
                + ", ".join(f"full_bits({c}, {c}_high) AS {c}" for c in ("wm", "wk", "bm", "bk"))
                + " FROM position_bits")
    con.execute("DROP TABLE position_bits")
    con.execute("ALTER TABLE bits_v3 RENAME TO position_bits")
    assert dict(con.execute("SELECT column_name, data_type FROM information_schema.columns "
                            "WHERE table_name = 'position_bits'").fetchall())["wm"] == "HUGEINT"


def _downgrade(db: Path) -> None:
    """Rewrite a current database as schema version 2 wrote it: a ``moves`` table with every
    column, ``position_bits`` with ``HUGEINT`` bitboards and a stored key (a stand-in value,
    so the test sees it go), the version-2 ``positions`` view and ``pdnkit_meta`` record."""
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE moves_v2 AS SELECT * FROM moves")
    con.execute("DROP VIEW moves")
    con.execute("DROP TABLE move_rows")
    con.execute("ALTER TABLE moves_v2 RENAME TO moves")
    _hugeint_bits(con)
    con.execute("ALTER TABLE position_bits ADD COLUMN position_key BIGINT")
    con.execute("UPDATE position_bits SET position_key = ply * 7919")
    con.execute(V2_POSITIONS)
    record_as(con, "2")
    con.close()


def _inputs(db: Path) -> list[Path]:
    """What the ``current`` database was imported from."""
    return [sample_dir(), db.parent / "canadian.pdn"]


@pytest.fixture(scope="module")
def current(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, list]]:
    """The bundled samples (every variant, unreplayed moves) and ten 12x12 Canadian games
    imported, and the rows of its ``moves`` and ``positions`` views."""
    from pdnkit.pdn import write_games
    from pdnkit.samples.samples import variant_collection

    folder = tmp_path_factory.mktemp("upgrade")
    db = folder / "now.duckdb"
    write_games(variant_collection("canadian", 10), folder / "canadian.pdn")
    import_files(_inputs(db), db=db)
    con = duckdb.connect(str(db), read_only=True)
    rows = {t: _rows(con, t) for t in ("moves", "positions")}
    con.close()
    assert len(rows["moves"]) > 5_000 and len(rows["positions"]) > 5_000
    return db, rows


def test_a_version_2_database_is_upgraded_without_loss(current, tmp_path: Path) -> None:
    db, rows = current
    old = tmp_path / "v2.duckdb"
    old.write_bytes(db.read_bytes())
    _downgrade(old)
    con = duckdb.connect(str(old), read_only=True)
    assert _rows(con, "moves") == rows["moves"]  # the version-2 table holds the same rows
    assert {r[3] for r in _rows(con, "positions")} != {r[3] for r in rows["positions"]}
    con.close()
    with pytest.raises(UpgradeNeededError):
        connect(old, read_only=True)  # a read command never rewrites it
    assert upgrade(old, notice=None).from_version == 2
    con = connect(old, read_only=True)
    assert _rows(con, "moves") == rows["moves"]
    assert _rows(con, "positions") == rows["positions"]
    kinds = dict(con.execute("SELECT table_name, table_type FROM information_schema.tables"
                             ).fetchall())
    assert kinds["moves"] == "VIEW" and kinds["move_rows"] == "BASE TABLE"
    assert "position_key" not in {c for (c,) in con.execute(
        "SELECT column_name FROM information_schema.columns "
        "WHERE table_name = 'position_bits'").fetchall()}
    assert con.execute("SELECT value FROM pdnkit_meta WHERE key = 'schema_version'"
                       ).fetchall() == [(str(SCHEMA_VERSION),)]
    assert _bit_types(con) == ["UBIGINT"] * 8
    con.close()
    code, out, err = cli("stats", "results", "--db", old)
    assert code == 0, err
    # and it takes new files like a new database
    more = tmp_path / "more.pdn"
    more.write_text('[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n', encoding="utf-8")
    assert import_files([more], db=old).games == 1
    con = connect(old, read_only=True)
    assert con.execute("SELECT count(*) FROM moves").fetchall()[0][0] == len(rows["moves"]) + 4
    con.close()


def _bit_types(con: duckdb.DuckDBPyConnection) -> list[str]:
    return [t for (t,) in con.execute(
        "SELECT data_type FROM information_schema.columns WHERE table_name = 'position_bits' "
        "AND (column_name LIKE 'w_' OR column_name LIKE 'b_' OR column_name LIKE '%_high') "
        "ORDER BY ordinal_position").fetchall()]


def test_a_version_3_database_gets_split_bitboards(current, tmp_path: Path) -> None:
    """``HUGEINT`` bitboards (12x12 positions among them, squares 65-72 above bit 63) become
    squares 1-64 and ``*_high`` columns; every position, search and tree reads the same."""
    db, rows = current
    old = tmp_path / "v3.duckdb"
    old.write_bytes(db.read_bytes())
    con = duckdb.connect(str(old))
    assert con.execute("SELECT count(*) FROM position_bits WHERE wm_high > 0 OR bm_high > 0"
                       ).fetchall()[0][0] > 0  # the 12x12 games use squares 65-72
    _hugeint_bits(con)
    con.execute(V2_POSITIONS.replace("p.position_key",
                                     "position_key_of(p.wm, p.wk, p.bm, p.bk, p.black)"))
    record_as(con, "3")
    con.close()
    con = connect(old)
    assert _bit_types(con) == ["UBIGINT"] * 8
    assert _rows(con, "positions") == rows["positions"]
    assert _rows(con, "position_bits") == _rows(connect(db, read_only=True), "position_bits")
    con.close()


def test_a_lake_written_before_version_3_reads_the_same(current, tmp_path: Path) -> None:
    """A lake whose chunks hold ``moves`` parts with every column (as lakes were written
    before ``move_rows``) gives the same rows as one written now."""
    db, rows = current
    lake = tmp_path / "lake"
    import_lake(_inputs(db), lake, engine="local", chunk_bytes=20_000)
    con = open_lake(lake, schema=schema_sql())
    assert _rows(con, "moves") == rows["moves"]
    stored = connect(db, read_only=True)  # the parts keep each bitboard whole
    assert _rows(con, "position_bits") == _rows(stored, "position_bits")
    stored.close()
    con.close()
    _make_legacy(lake)
    assert not list((lake / "move_rows").glob("*.parquet"))
    assert all("moves" in c["parts"] for e in read_manifest(lake) for c in e.chunks
               if c["parts"])
    con = open_lake(lake, schema=schema_sql())
    assert _rows(con, "moves") == rows["moves"]
    assert _rows(con, "positions") == rows["positions"]
    con.close()


def _make_legacy(lake: Path) -> None:
    """Rewrite a lake as lakes were written before schema version 3: each chunk's
    ``move_rows`` part becomes a ``moves`` part with every column of the view."""
    conv = duckdb.connect()
    conv.execute(schema_sql())
    for name in sorted((lake / "_manifest").glob("*.json")):
        entry = json.loads(name.read_text(encoding="utf-8"))
        for chunk in entry["chunks"]:
            part = chunk["parts"].pop("move_rows", None)
            if part is None:
                continue
            part = str(lake / part)  # the manifest names its parts relative to the lake
            conv.execute("DROP TABLE IF EXISTS move_rows")
            conv.execute(f"CREATE TABLE move_rows AS SELECT * FROM read_parquet('{part}')")
            legacy = part.replace("/move_rows/", "/moves/")
            Path(legacy).parent.mkdir(exist_ok=True)
            conv.execute(f"COPY (SELECT m.*, (SELECT any_value(chunk) FROM move_rows) AS chunk "
                         f"FROM moves m) TO '{legacy}' (FORMAT parquet)")
            Path(part).unlink()
            chunk["parts"]["moves"] = legacy
            if "move_rows" in chunk.get("rows", {}):
                chunk["rows"]["moves"] = chunk["rows"].pop("move_rows")
        if "move_rows" in entry.get("rows", {}):
            entry["rows"]["moves"] = entry["rows"].pop("move_rows")
        name.write_text(json.dumps(entry), encoding="utf-8")
    conv.close()


def test_compacting_a_lake_written_before_version_3_keeps_its_moves(current,
                                                                     tmp_path: Path) -> None:
    """``lake compact`` on a lake whose chunks hold ``moves`` parts merges them into
    ``move_rows`` parts (converted as the views read them), never drops them; ``lake info``
    counts them as ``move_rows``."""
    from pdnkit.lake import compact, lake_summary

    db, rows = current
    lake = tmp_path / "lake"
    import_lake(_inputs(db), lake, engine="local", chunk_bytes=20_000)
    want = lake_summary(lake)["rows"]
    _make_legacy(lake)
    assert lake_summary(lake)["rows"] == want
    legacy = {p for e in read_manifest(lake) for c in e.chunks for p in c["parts"].values()
              if "/moves/" in p}
    assert compact(lake) > 0
    left = {p for e in read_manifest(lake) for c in e.chunks for p in c["parts"].values()}
    assert legacy - left  # chunks were merged: some old parts are gone
    con = open_lake(lake, schema=schema_sql())
    assert _rows(con, "moves") == rows["moves"]
    assert _rows(con, "positions") == rows["positions"]
    con.close()
    assert list((lake / "move_rows").glob("merged-*.parquet"))
    assert lake_summary(lake)["rows"] == want
