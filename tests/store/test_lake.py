"""The Parquet lake: byte-range chunks, the manifest, Dask tasks, and the same rows as the
DuckDB store."""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from pathlib import Path

import pytest

from pdnkit.lake import (
    ChunkTask,
    find_cut,
    import_lake,
    is_lake,
    open_lake,
    plan_chunks,
    read_manifest,
    run_chunk,
)
from pdnkit.store import connect, import_files
from tests.shared import sample_games, shared_path

#: every table, in an order that makes rows comparable
ORDER = {
    "files": "file_id",
    "games": "game_id",
    "moves": "game_id, ply",
    "move_rows": "game_id, ply",
    "position_bits": "game_id, ply",
    "layouts": "layout",
    "file_paths": "file_id, path",
    "positions": "game_id, ply",
    "findings": "game_id, ply, code, line, col, message",
    "rule_events": "game_id, rule, start_ply",
}


def _rows(con, table: str) -> list[tuple]:
    cols = [r[0] for r in con.execute(f"DESCRIBE {table}").fetchall()
            if r[0] not in ("imported_at", "path", "first_seen")]
    return con.execute(f"SELECT {', '.join(cols)} FROM {table} "
                       f"ORDER BY {ORDER[table]}").fetchall()


def assert_same_tables(db: Path, lake: Path) -> None:
    a, b = connect(db), open_lake(lake)
    for table in ORDER:
        x, y = _rows(a, table), _rows(b, table)
        assert len(x) == len(y), table
        for i, (p, q) in enumerate(zip(x, y, strict=True)):
            assert p == q, (table, i)


def _games_text(n: int, seed: int, stray: bool = True) -> str:
    """``n`` short international games (legal moves from the engine), with comments, a
    set-up game, a syntax error and stray text between games: real files' mix."""
    from pdnkit.rules import Position, format_move, get_rules

    rules = get_rules("international")
    rng = random.Random(seed)
    out = []
    for g in range(n):
        pos = Position.initial(rules)
        moves = []
        for ply in range(rng.randint(0, 30)):
            legal = pos.legal_moves()
            if not legal:
                break
            m = rng.choice(legal)
            text = format_move(m, rules)
            if ply % 2 == 0:
                text = f"{ply // 2 + 1}. {text}"
            if rng.random() < 0.1:
                text += " {a comment\nover two lines}"
            moves.append(text)
            pos = pos.play(m)
        tags = f'[Event "e{g}"]\n[White "w{g % 7}"]\n[Black "b{g % 5}"]\n[GameType "20"]\n'
        body = " ".join(moves) + " *"
        if g % 17 == 5:
            body = "1. 32-28 )( 19-23 *"
        if stray and g % 23 == 7:
            out.append("stray words between games\n")
        out.append(tags + "\n" + body + "\n\n")
    return "".join(out)


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("lake-src")
    (d / "a.pdn").write_text(_games_text(120, 1), encoding="utf-8")
    (d / "b.pdn").write_bytes(_games_text(40, 2).replace("w1", "Жуков").encode("cp1251"))
    return d


def test_cut_points_tile_the_file(sample: Path) -> None:
    """Neighbouring tasks find the same cut between them, each cut starts a game, and the
    chunks' games together are exactly the file's games."""
    import fsspec

    from pdnkit.pdn import read_games

    path = sample / "a.pdn"
    data = path.read_bytes()
    fs = fsspec.filesystem("file")
    rng = random.Random(3)
    offsets = sorted({0, len(data), *(rng.randrange(len(data)) for _ in range(25))})
    cuts = [find_cut(fs, str(path), o, len(data), block=97) for o in offsets]
    assert cuts == sorted(cuts) and cuts[0] == 0 and cuts[-1] == len(data)
    for c in cuts[1:-1]:
        assert data[c:c + 1] == b"[" and data[c - 1:c] == b"\n"
    whole = [(g.raw, len(g.moves)) for g in read_games(path)]
    parts = []
    for s, e in zip(cuts, cuts[1:], strict=False):
        parts += [(g.raw, len(g.moves)) for g in read_games(data[s:e].decode())]
    assert [r for r in parts if r[0].strip()] == [r for r in whole if r[0].strip()]


def test_local_lake_equals_duckdb(sample: Path, tmp_path: Path) -> None:
    """Small chunks (many per file), a legacy encoding: the lake's views give exactly the
    DuckDB import's rows, game ids, indexes and line numbers included."""
    import_files([sample], db=tmp_path / "a.duckdb")
    s = import_lake([sample], tmp_path / "lake", engine="local", chunk_bytes=3000)
    assert s.games == 160 and s.imported == 2
    entries = read_manifest(tmp_path / "lake")
    assert len(entries[0].chunks) > 5
    assert_same_tables(tmp_path / "a.duckdb", tmp_path / "lake")
    assert is_lake(tmp_path / "lake") and not is_lake(tmp_path)


def test_reimport_is_a_no_op_and_replace_reloads(sample: Path, tmp_path: Path) -> None:
    lake = tmp_path / "lake"
    import_lake([sample], lake, engine="local")
    again = import_lake([sample], lake, engine="local")
    assert again.skipped == 2 and again.games == 0
    assert open_lake(lake).execute("SELECT count(*) FROM games").fetchall()[0][0] == 160
    redo = import_lake([sample / "a.pdn"], lake, engine="local", replace=True)
    assert redo.games == 120
    con = open_lake(lake)
    assert con.execute("SELECT count(*), count(DISTINCT game_id) FROM games"
                       ).fetchall()[0] == (160, 160)


def test_parts_without_a_manifest_entry_stay_invisible(sample: Path, tmp_path: Path) -> None:
    """A source whose tasks ran but whose import died before its manifest entry shows
    nothing; the next import writes it in full."""
    lake = tmp_path / "lake"
    import_lake([], lake, engine="local")
    path = sample / "a.pdn"
    for t in plan_chunks(str(lake), str(path), path.stat().st_size, 1, "utf-8", 5000):
        run_chunk(t)
    assert list((lake / "games").glob("*.parquet"))
    assert open_lake(lake).execute("SELECT count(*) FROM games").fetchall()[0][0] == 0
    import_lake([path], lake, engine="local", chunk_bytes=5000)
    assert open_lake(lake).execute("SELECT count(*) FROM games").fetchall()[0][0] == 120


def test_read_commands_run_on_a_lake(sample: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pdnkit.cli import app

    lake = tmp_path / "lake"
    import_lake([sample], lake, engine="local", chunk_bytes=4000)
    runner = CliRunner()
    for args in (["query", "SELECT count(*) AS n FROM games", "--format", "csv"],
                 ["stats", "players"], ["stats", "findings"], ["duplicates"],
                 ["tree", "--variant", "international"],
                 ["export", "--out", str(tmp_path / "out.pdn"), "--all-copies"]):
        res = runner.invoke(app, [*args, "--db", str(lake)])
        assert res.exit_code == 0, (args, res.output)
    assert runner.invoke(app, ["query", "SELECT count(*) AS n FROM games", "--format", "csv",
                               "--db", str(lake)]).output.split() == ["n", "160"]
    assert (tmp_path / "out.pdn").read_text(encoding="utf-8").count("[Event ") == 160
    res = runner.invoke(app, ["lake", "info", str(lake)])
    assert res.exit_code == 0 and "160 games" in res.output


def test_chunk_task_reads_only_its_range(sample: Path, tmp_path: Path) -> None:
    """A task given the second half of a file reports games of that half only."""
    path = sample / "a.pdn"
    size = path.stat().st_size
    t = ChunkTask(str(tmp_path / "lake"), str(path), 1, 1, size // 2, size, size, "utf-8")
    r = run_chunk(t)
    assert r.start >= size // 2 and r.end == size and 0 < r.games < 120


# --------------------------------------------------------------------------------------------
# on a real Dask cluster

dask_distributed = pytest.importorskip("dask.distributed", reason="the dask extra is not installed")


@pytest.mark.slow
def test_dask_lake_equals_duckdb_on_real_files(tmp_path: Path) -> None:
    """The shared real files and a seeded 700 of intl_2000's games (a file of four chunks)
    through a 2-worker LocalCluster: every table equal to the DuckDB import's."""
    real = shared_path("real")
    bench = sample_games(shared_path("bench", "intl_2000.pdn"), tmp_path / "intl_700.pdn", 700)
    import_files([real, bench], db=tmp_path / "a.duckdb")
    s = import_lake([real, bench], tmp_path / "lake", engine="dask", workers=2,
                    chunk_bytes=200_000)
    assert s.failed == 0
    pids = {c["worker_pid"] for e in read_manifest(tmp_path / "lake") for c in e.chunks}
    assert len(pids) == 2  # both workers did some of the work
    assert_same_tables(tmp_path / "a.duckdb", tmp_path / "lake")


@pytest.mark.slow
def test_killed_worker_leaves_a_complete_lake(sample: Path, tmp_path: Path) -> None:
    """A worker process killed while it runs tasks: its tasks run again elsewhere, the lake
    is complete and equal to the DuckDB import, and importing again adds nothing."""
    from dask.distributed import Client, LocalCluster

    from pdnkit.lake import DaskEngine

    src = tmp_path / "src"
    src.mkdir()
    # no stray text between games here: text before a chunk's first game stays with the
    # chunk before it (documented in pdnkit.lake.importer), which small chunks would meet
    (src / "big.pdn").write_text(_games_text(600, 9, stray=False), encoding="utf-8")
    import_files([src], db=tmp_path / "a.duckdb")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        victims = list(client.run(os.getpid).values())
        engine = DaskEngine(cluster.scheduler_address)
        killed: list[int] = []

        def kill_one() -> None:
            time.sleep(1.5)
            os.kill(victims[0], signal.SIGKILL)
            killed.append(victims[0])

        killer = threading.Thread(target=kill_one)
        killer.start()
        try:
            s = import_lake([src], tmp_path / "lake", engine=engine, chunk_bytes=4000)
        finally:
            killer.join()
            engine.close()
        assert killed and s.games == 600
        assert_same_tables(tmp_path / "a.duckdb", tmp_path / "lake")
        again = import_lake([src], tmp_path / "lake", engine="local")
        assert again.skipped == 1 and again.games == 0
