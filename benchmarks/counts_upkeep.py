"""What keeping the opening counts costs (:mod:`pdnkit.store.opencounts`), three ways:

* ``import DB PDN``: a file of new games imported into a database (copy it first: the games
  are added), with the import's last step, the opening counts (``settle_counts``), timed
  apart: the import's CPU (user+sys of this process, DuckDB's threads included) and wall
  time, and the counts' share of both;
* ``make DB --games N``: a database for the next mode, fast: ``--base`` distinct random games
  (``randomgames.py``) imported, then their rows that the counts read (``games``,
  ``early_positions``, ``move_rows``; the raw text left out) repeated under new game
  numbers up to N games. Its other tables (positions, index) hold the base games only: a
  database for the counts, not for the searches;
* ``moved DB --moved M``: M canonical games drawn among the older ones made copies (as an
  import of better records of them does), the counts settled (the delta, ``'moved'``), the
  games made canonical again (settled: ``'moved'``), both under ``--memory-limit`` (the
  import's 96 MB by default), then every game counted again in parts (``rebuild_counts``)
  and in the one statement of before, side by side, under the limit and without one.
  Prints CPU and wall of each and the load average.

    python benchmarks/counts_upkeep.py make /tmp/c1m.duckdb --games 1000000
    python benchmarks/counts_upkeep.py moved /tmp/c1m.duckdb --moved 2000
    python benchmarks/randomgames.py 20000 new.pdn --seed 35
    cp big.duckdb /tmp/copy.duckdb
    python benchmarks/counts_upkeep.py import /tmp/copy.duckdb new.pdn
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    w, c = time.perf_counter(), _cpu()
    try:
        got = fn()
    except Exception as exc:  # DuckDB out of memory: said, not raised
        got = f"failed: {type(exc).__name__}: {str(exc).splitlines()[0][:90]}"
    return _cpu() - c, time.perf_counter() - w, got


def _load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def import_mode(args: argparse.Namespace) -> None:
    import duckdb

    import pdnkit.store.ingest as ingest
    from pdnkit.store import import_files

    con = duckdb.connect(str(args.db), read_only=True)
    before = con.execute("SELECT count(*) FROM games").fetchall()[0][0]
    con.close()
    spent: list[tuple[float, float, str]] = []
    real = ingest.settle_counts

    def timed(con: duckdb.DuckDBPyConnection) -> str:
        w, c = time.perf_counter(), _cpu()
        how = real(con)
        spent.append((_cpu() - c, time.perf_counter() - w, how))
        return how

    ingest.settle_counts = timed  # type: ignore[assignment]
    load0 = _load()
    w, c = time.perf_counter(), _cpu()
    summary = import_files([args.pdn], db=args.db, jobs=1)
    cpu, wall = _cpu() - c, time.perf_counter() - w
    ccpu, cwall, how = spent[0]
    print(f"database: {before:,} games; imported: {summary.games:,} games (jobs 1)")
    print(f"import: CPU {cpu:.1f} s, wall {wall:.1f} s")
    print(f"counts ({how}): CPU {ccpu:.2f} s ({100 * ccpu / cpu:.1f} % of the import's), "
          f"wall {cwall:.2f} s ({100 * cwall / wall:.1f} %)")
    print(f"load average: {load0} at the start, {_load()} at the end")


def make_mode(args: argparse.Namespace) -> None:
    import duckdb

    from pdnkit.store import import_files

    if args.db.exists():
        sys.exit(f"{args.db} exists: give a new file")
    with tempfile.TemporaryDirectory() as tmp:
        pdn = Path(tmp) / "base.pdn"
        subprocess.run([sys.executable, str(HERE / "randomgames.py"), str(args.base), str(pdn),
                        "--seed", str(args.seed)], check=True, capture_output=True)
        cpu, wall, _ = _timed(lambda: import_files([pdn], db=args.db, jobs=1))
        print(f"base: {args.base:,} games imported in {wall:.0f} s (CPU {cpu:.0f} s)")
    con = duckdb.connect(str(args.db))
    base = con.execute("SELECT max(game_id) FROM games").fetchall()[0][0]
    copies = -(-args.games // base) - 1
    step = f"(SELECT unnest(range(1, {copies + 1})) AS k)"
    cut = f"g.game_id + k * {base} <= {args.games}"
    cpu, wall, got = _timed(lambda: [con.execute(sql) for sql in (
        f"INSERT INTO games BY NAME SELECT g.* REPLACE (g.game_id + k * {base} AS game_id, "
        f"NULL AS raw_pdn) FROM games g CROSS JOIN {step} WHERE {cut} ORDER BY k, game_id",
        f"INSERT INTO early_positions SELECT g.* REPLACE (g.game_id + k * {base} AS game_id) "
        f"FROM early_positions g CROSS JOIN {step} WHERE {cut} ORDER BY k, game_id, ply",
        f"INSERT INTO move_rows SELECT g.* REPLACE (g.game_id + k * {base} AS game_id) "
        f"FROM move_rows g CROSS JOIN {step} WHERE {cut} ORDER BY k, game_id, ply",
        "CHECKPOINT")])
    n = con.execute("SELECT count(*) FROM games").fetchall()[0][0]
    print(f"repeated to {n:,} games in {wall:.0f} s (CPU {cpu:.0f} s); load {_load()}")
    if isinstance(got, str):
        sys.exit(got)


def moved_mode(args: argparse.Namespace) -> None:
    import duckdb

    from pdnkit.store.countdelta import seq_rows, tree_rows
    from pdnkit.store.opencounts import counts_ready, rebuild_counts, settle_counts

    con = duckdb.connect(str(args.db))
    n = con.execute("SELECT count(*) FROM games WHERE duplicate_of IS NULL").fetchall()[0][0]
    print(f"database: {n:,} canonical games; load {_load()}")
    cpu, wall, how = _timed(lambda: settle_counts(con))  # the counts of every game, first
    print(f"first settle ({how}): CPU {cpu:.2f} s, wall {wall:.2f} s")
    con.execute(f"SET memory_limit = '{args.memory_limit}'")
    ids = [g for (g,) in con.execute("SELECT game_id FROM games WHERE duplicate_of IS NULL "
                                     "AND game_id < (SELECT max(game_id) FROM games)"
                                     ).fetchall()]
    picked = sorted(random.Random(args.seed).sample(ids, args.moved))
    con.execute("CREATE TEMP TABLE picked AS SELECT unnest(?) AS game_id", [picked])
    rows: list[tuple[str, float, float, object]] = []

    def change(to: str) -> None:
        con.execute(f"UPDATE games SET duplicate_of = {to} WHERE game_id IN "
                    "(SELECT game_id FROM temp.picked)")

    change("game_id + 1")
    rows.append((f"{args.moved:,} older games become copies: settle", *_timed(
        lambda: settle_counts(con))))
    assert counts_ready(con)
    change("NULL")
    rows.append((f"the {args.moved:,} canonical again: settle", *_timed(
        lambda: settle_counts(con))))
    assert counts_ready(con)

    def one_statement() -> str:
        con.execute("BEGIN")
        try:
            con.execute("DELETE FROM tree_counts")
            con.execute("DELETE FROM opening_counts")
            con.execute(f"INSERT INTO tree_counts BY NAME {tree_rows('true')}")
            con.execute(f"INSERT INTO opening_counts BY NAME {seq_rows('true')}")
        finally:
            con.execute("ROLLBACK")
        return "done (rolled back)"
    for limit in (args.memory_limit, "none"):
        if limit == "none":
            con.execute("RESET memory_limit")
        rows.append((f"every game counted again, in parts (rebuild_counts), limit {limit}",
                     *_timed(lambda: rebuild_counts(con))))
        rows.append((f"every game counted again, one statement (before), limit {limit}",
                     *_timed(one_statement)))
    threads = con.execute("SELECT current_setting('threads')").fetchall()[0][0]
    print(f"memory_limit {args.memory_limit}; DuckDB threads {threads}")
    for name, cpu, wall, how in rows:
        print(f"{name}: CPU {cpu:.2f} s, wall {wall:.2f} s ({how})")
    print(f"load average at the end: {_load()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    imp = sub.add_parser("import", help="time the counts' share of an import")
    imp.add_argument("db", type=Path)
    imp.add_argument("pdn", type=Path)
    make = sub.add_parser("make", help="a large database for the counts, fast")
    make.add_argument("db", type=Path)
    make.add_argument("--games", type=int, default=1_000_000)
    make.add_argument("--base", type=int, default=5_000)
    make.add_argument("--seed", type=int, default=35)
    mov = sub.add_parser("moved", help="time the delta against the recount")
    mov.add_argument("db", type=Path)
    mov.add_argument("--moved", type=int, default=2_000)
    mov.add_argument("--memory-limit", default="96MB")
    mov.add_argument("--seed", type=int, default=35)
    args = ap.parse_args()
    {"import": import_mode, "make": make_mode, "moved": moved_mode}[args.mode](args)


if __name__ == "__main__":
    main()
