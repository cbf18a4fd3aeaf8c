"""The position index (``position_index``, :mod:`pdnkit.store.posindex`): it names every
stored position's block of games after an import, a file replaced and an upgrade from
schema 6, and a search or tree through it gives exactly what the scan of every position
gives (the index disabled).

The blocks are made 2 games wide here (``BLOCK_SHIFT = 1``) so that the samples' games spread
over many blocks and a lookup really leaves most of them out.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pandas as pd
import pytest

import pdnkit.stats.explorer as explorer
import pdnkit.stats.search as searching
import pdnkit.store.posindex as posindex
from pdnkit.samples import sample_dir
from pdnkit.stats import tree
from pdnkit.stats.search import search
from pdnkit.store import import_files
from tests.store.legacy import record_as

GAME = """[Event "{event}"]
[White "Ann"]
[Black "Bob"]
[Result "*"]
[GameType "20"]

1. {first} 19-23 2. 31-27 14-19 *

"""


@pytest.fixture(autouse=True)
def narrow_blocks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(posindex, "BLOCK_SHIFT", 1)
    yield


def _missing(con: duckdb.DuckDBPyConnection) -> int:
    """Stored positions whose (key, block) pair the index lacks."""
    return int(con.execute(f"""
        SELECT count(*) FROM (SELECT DISTINCT {posindex.KEY_SQL} AS key,
                                     (game_id >> {posindex.BLOCK_SHIFT})::UINTEGER AS game_block
                              FROM position_bits
        WHERE ply > {posindex.EARLY_PLIES}) x
        ANTI JOIN position_index USING (key, game_block)""").fetchall()[0][0]) + int(con.execute(
        f"SELECT count(*) FROM (SELECT * FROM position_bits WHERE ply <= {posindex.EARLY_PLIES} "
        "EXCEPT ALL SELECT * FROM early_positions)").fetchall()[0][0])


def _without_index(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(searching, "position_source", lambda con, positions: None)
    monkeypatch.setattr(explorer, "position_source", lambda con, positions: None)


def _fens(con: duckdb.DuckDBPyConnection, count: int, seed: int = 35) -> list[tuple[int, int, str]]:
    rows = con.execute("SELECT game_id, ply, fen FROM positions ORDER BY game_id, ply").fetchall()
    return random.Random(seed).sample(rows, min(count, len(rows)))


@pytest.fixture(scope="module")
def samples_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    mp = pytest.MonkeyPatch()
    mp.setattr(posindex, "BLOCK_SHIFT", 1)
    try:
        db = tmp_path_factory.mktemp("posindex") / "samples.duckdb"
        import_files([sample_dir()], db=db)
    finally:
        mp.undo()
    return db


def test_index_names_every_position_of_the_samples(samples_db: Path) -> None:
    con = duckdb.connect(str(samples_db), read_only=True)
    assert posindex.index_ready(con)
    assert con.execute("SELECT count(*) FROM position_index").fetchall()[0][0] > 0
    assert _missing(con) == 0
    blocks = con.execute(f"SELECT count(DISTINCT game_id >> {posindex.BLOCK_SHIFT}) "
                         "FROM position_bits").fetchall()[0][0]
    assert blocks > 20  # the lookups below really choose among blocks


def test_python_key_is_the_sql_key(samples_db: Path) -> None:
    con = duckdb.connect(str(samples_db), read_only=True)
    rows = con.execute("SELECT v.black, v.wm, v.wk, v.bm, v.bk, x.key FROM positions v JOIN "
                       f"(SELECT game_id, ply, {posindex.KEY_SQL} AS key FROM position_bits) x "
                       "USING (game_id, ply)").fetchall()
    assert rows
    assert all(posindex.index_key(bool(b), int(wm), int(wk), int(bm), int(bk)) == k
               for b, wm, wk, bm, bk, k in rows)


def test_fen_search_and_tree_equal_the_scan(samples_db: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    con = duckdb.connect(str(samples_db), read_only=True)
    picked = _fens(con, 25)
    fast = {}
    for game, ply, fen in picked:
        got = search(con, fen=fen, side="any", mirror=True)
        assert ((got["game_id"] == game) & (got["ply"] == ply)).any(), (game, ply, fen)
        fast[fen] = (got, tree(con, fen=fen))
    narrowed = [posindex.index_blocks(con, searching._fen_positions(con, f, None, "any", True))
                for _, _, f in picked[:5]]
    assert all(b is not None and len(b) < 10 for b in narrowed), narrowed
    starts = [tree(con), *(tree(con, variant=v) for v in ("english", "russian")),
              tree(con, moves="32-28 19-23", variant="international")]
    assert all(len(b) for b in starts)
    _without_index(monkeypatch)
    for fen, (got, book) in fast.items():
        pd.testing.assert_frame_equal(got, search(con, fen=fen, side="any", mirror=True))
        pd.testing.assert_frame_equal(book, tree(con, fen=fen))
    scans = [tree(con), *(tree(con, variant=v) for v in ("english", "russian")),
             tree(con, moves="32-28 19-23", variant="international")]
    for book, scan in zip(starts, scans, strict=True):
        pd.testing.assert_frame_equal(book, scan)


def test_a_replaced_file_and_later_imports(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(posindex, "SORT_SLACK_ROWS", 0)  # sort again past a quarter
    db = tmp_path / "g.duckdb"
    f = tmp_path / "a.pdn"
    f.write_text("".join(GAME.format(event=f"e{i}", first="32-28") for i in range(6)),
                 encoding="utf-8")
    import_files([f], db=db)
    con = duckdb.connect(str(db), read_only=True)
    fen = con.execute("SELECT fen FROM positions WHERE game_id = 1 AND ply = 1").fetchall()[0][0]
    assert len(search(con, fen=fen)) == 6
    con.close()
    # the same path with other games: replaced (the old games and their positions go)
    f.write_text("".join(GAME.format(event=f"e{i}", first="33-28") for i in range(5)),
                 encoding="utf-8")
    import_files([f], db=db)
    for i in range(4):  # files one by one: appended pairs, then a sort of the whole index
        g = tmp_path / f"b{i}.pdn"
        g.write_text("".join(GAME.format(event=f"b{i}-{j}", first=("32-28", "34-29")[j % 2])
                             for j in range(3)), encoding="utf-8")
        import_files([g], db=db)
    con = duckdb.connect(str(db), read_only=True)
    assert _missing(con) == 0
    sorted_rows = con.execute("SELECT value FROM pdnkit_meta WHERE key = "
                              "'position_index_sorted'").fetchall()[0][0]
    total = con.execute("SELECT count(*) FROM position_index").fetchall()[0][0]
    assert 0 < total - int(sorted_rows) <= total // 4 or int(sorted_rows) == total
    first = search(con, fen=fen)
    assert sorted(first["game_id"]) == sorted(
        g for (g,) in con.execute("SELECT DISTINCT m.game_id FROM moves m JOIN games USING "
                                  "(game_id) WHERE m.ply = 1 AND m.canonical = '32-28'"
                                  ).fetchall())
    assert len(first) == 8  # two of b0..b3 each; the replaced file's six are gone
    books = {x: (search(con, fen=x), tree(con, fen=x)) for _, _, x in _fens(con, 8)}
    _without_index(monkeypatch)
    assert len(search(con, fen=fen)) == 8
    for x, (got, book) in books.items():
        pd.testing.assert_frame_equal(got, search(con, fen=x))
        pd.testing.assert_frame_equal(book, tree(con, fen=x))


def test_upgrade_from_schema_6_makes_the_index(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from pdnkit.store import upgrade

    db = tmp_path / "six.duckdb"
    import_files([sample_dir()], db=db)
    con = duckdb.connect(str(db))
    con.execute("DROP TABLE position_index")
    con.execute("DROP TABLE early_positions")
    con.execute("DELETE FROM pdnkit_meta WHERE key = 'position_index_sorted'")
    record_as(con, "6")
    con.close()
    result = upgrade(db, notice=None)
    assert result.upgraded and result.from_version == 6
    assert any("position_index" in s for s in result.fills)
    con = duckdb.connect(str(db), read_only=True)
    assert posindex.index_ready(con) and _missing(con) == 0
    fens = [x for _, _, x in _fens(con, 6, seed=6)]
    found = [search(con, fen=x, side="any") for x in fens]
    assert all(len(df) for df in found)
    _without_index(monkeypatch)
    for x, df in zip(fens, found, strict=True):
        pd.testing.assert_frame_equal(df, search(con, fen=x, side="any"))


def test_a_lake_like_connection_reads_every_position() -> None:
    """Where ``position_bits`` is a view (a lake's parts), the index is not used."""
    from pdnkit.store.db import connect

    con = connect(":memory:")
    con.execute("DROP TABLE position_bits")
    con.execute("CREATE VIEW position_bits AS SELECT 1::BIGINT AS game_id")
    assert not posindex.index_ready(con)
    assert posindex.index_blocks(con, [(False, 1, 0, 2, 0)]) is None


class _FailingAt:
    """A connection whose statements starting with ``prefix`` raise a DuckDB I/O error (a
    disk that fills midway)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, prefix: str) -> None:
        self.con, self.prefix = con, prefix

    def execute(self, sql: str, *args: object) -> duckdb.DuckDBPyConnection:
        if sql.startswith(self.prefix):
            raise duckdb.IOException("Could not write file: No space left on device")
        return self.con.execute(sql, *args)


def _index_rows(con: duckdb.DuckDBPyConnection) -> tuple[object, ...]:
    return tuple(con.execute(
        "SELECT (SELECT count(*) FROM position_index), (SELECT count(*) FROM early_positions), "
        "(SELECT value FROM pdnkit_meta WHERE key = 'position_index_sorted')").fetchall()[0])


def _search_equals_scan(con: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch,
                        fens: list[str]) -> None:
    found = [search(con, fen=x, side="any") for x in fens]
    assert all(len(df) for df in found)
    with monkeypatch.context() as m:
        _without_index(m)
        for x, df in zip(fens, found, strict=True):
            pd.testing.assert_frame_equal(df, search(con, fen=x, side="any"))


@pytest.mark.parametrize("prefix", ["INSERT INTO position_index", "INSERT INTO pdnkit_meta",
                                    "COMMIT"])
def test_a_rebuild_that_fails_midway_leaves_the_index_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, prefix: str) -> None:
    """The rebuild is one transaction: a failure after its DELETEs leaves the old index,
    still ready, and a search through it finds what the scan finds."""
    from typing import cast

    db = tmp_path / "g.duckdb"
    import_files([sample_dir()], db=db)
    con = duckdb.connect(str(db))
    before = _index_rows(con)
    fens = [x for _, _, x in _fens(con, 6, seed=9)]
    with pytest.raises(duckdb.IOException, match="No space left"):
        posindex.rebuild_index(cast(duckdb.DuckDBPyConnection, _FailingAt(con, prefix)))
    assert _index_rows(con) == before and posindex.index_ready(con) and _missing(con) == 0
    _search_equals_scan(con, monkeypatch, fens)
    posindex.rebuild_index(con)  # the connection is usable: the next rebuild succeeds
    assert posindex.index_ready(con) and _missing(con) == 0


def test_a_rebuild_killed_midway_leaves_the_index_whole(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """``SIGKILL`` between the rebuild's statements (``PDNKIT_KILL_AT=index.rebuild``): the
    database reopened has its old index, ready and whole."""
    import os
    import signal
    import subprocess
    import sys

    db = tmp_path / "g.duckdb"
    import_files([sample_dir()], db=db)
    con = duckdb.connect(str(db))
    before = _index_rows(con)
    fens = [x for _, _, x in _fens(con, 6, seed=10)]
    con.close()
    script = ("import sys; from pdnkit.store.db import connect; "
              "from pdnkit.store.posindex import rebuild_index; rebuild_index(connect(sys.argv[1]))")
    r = subprocess.run([sys.executable, "-c", script, str(db)], capture_output=True, text=True,
                       env={**os.environ, "PDNKIT_KILL_AT": "index.rebuild"}, timeout=300)
    assert r.returncode == -signal.SIGKILL, r.stderr
    con = duckdb.connect(str(db))
    assert _index_rows(con) == before and posindex.index_ready(con) and _missing(con) == 0
    _search_equals_scan(con, monkeypatch, fens)


@pytest.mark.parametrize("in_memory", [posindex.PAIRS_IN_MEMORY, 50])
def test_pairs_gathered_while_loading_are_the_pairs_read_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, in_memory: int) -> None:
    """The index of a file as the import now makes it (each batch's pairs taken from its
    tables as it is loaded: the compiled kernel, SQL over the batch for engine bitboards
    and boards past 64 squares) equals the index made by reading every stored position back
    (the statement the import ran before), row for row: generated games of every variant,
    batches of three games, so that blocks of two games cross batches; the pairs sorted in
    memory, and (``in_memory`` 50) most of them in a temporary table sorted by DuckDB."""
    import random as rnd

    import pdnkit.rows.batch as rows
    from pdnkit.rules import list_variants
    from tests.validate.gengames import random_game

    monkeypatch.setattr(rows, "BATCH_GAMES", 3)
    monkeypatch.setattr(posindex, "PAIRS_IN_MEMORY", in_memory)
    rng = rnd.Random(35)
    texts = []
    for r in sorted({r.name: r for r in list_variants()}.values(), key=lambda r: r.name):
        texts += [random_game(r.name, r.gametype, rng) for _ in range(4)]
    f = tmp_path / "every.pdn"
    f.write_text("\n".join(texts), encoding="utf-8")
    db = tmp_path / "e.duckdb"
    import_files([f], db=db)
    con = duckdb.connect(str(db), read_only=True)
    got = con.execute("SELECT key, game_block FROM position_index").fetchall()
    want = con.execute(f"SELECT DISTINCT {posindex.KEY_SQL} AS key, (game_id >> "
                       f"{posindex.BLOCK_SHIFT})::UINTEGER AS game_block FROM position_bits "
                       f"WHERE ply > {posindex.EARLY_PLIES} ORDER BY key, game_block").fetchall()
    assert len(got) > 1000
    assert got == want
    assert con.execute("SELECT count(*) FROM position_bits WHERE wm_high IS NOT NULL"
                       ).fetchall()[0][0] > 0  # a board past 64 squares was loaded
    assert _missing(con) == 0
