"""Search speed and database size: positions stored as square bitboards.

Replicates ``../shared/data/bench/intl_2000.pdn`` (2,000 random legal international games) to
``--games`` games (default 100,000: about 9.4 M positions) in one file, imports it
(single process, in a fresh process) and prints:

* the database size per game (KB), per table;
* warm timings (best of ``--repeat`` after one warm-up run, one open read-only connection) of
  ``pdnkit.search`` with a pattern, a mirrored pattern, an exact position (``fen``), material
  and a manoeuvre, and of ``pdnkit.stats.tree`` (from the start and after two moves);
* import speed against ``pdnkit.validate`` on ``--ratio-games`` games (each in a fresh process,
  alternated ``--ratio-repeat`` times, best of each).

    python benchmarks/search.py                    # 100,000 games (long: tens of minutes)
    python benchmarks/search.py --games 10000      # a quicker run
    python benchmarks/search.py --db keep.duckdb   # keep (or reuse) the database
    python benchmarks/search.py --generated --games 1000000 --jobs 2 --ratio-games 0
    python benchmarks/search.py --db keep.duckdb --only tree --only openings --ratio-games 0

``--tile-from SMALL.duckdb --tile 10`` makes ``--db`` of ten copies of that database's games
instead (game numbers shifted by its last number; the games, moves, positions and their
squares: what a pattern search reads; not the position index, so no ``--fen``): a 1 M-game
database in minutes from a 100,000-game one, the candidates of a pattern ten times as many
and spread alike (a pattern search's cost, not the data's variety).

``--generated`` writes distinct random games instead (``benchmarks/randomgames.py``, seeded by
``--seed``: the same arguments give the same games, in ``--jobs`` processes). Besides the warm
timings it then times ``stats openings`` warm, and ``pdnkit search --fen``, ``search
--pattern``, ``tree`` and ``stats openings`` each as a fresh process (best of ``--repeat``),
and prints the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SOURCE = (Path(os.environ.get("PDNKIT_SHARED_DATA", ROOT.parent / "shared" / "data"))
          / "bench" / "intl_2000.pdn")

CHILD = r"""
import json, sys, time
mode, path, db = sys.argv[1], sys.argv[2], sys.argv[3]
t = time.perf_counter()
if mode == "validate":
    from pdnkit.validation import validate
    n = sum(1 for _ in validate(path))
else:
    from pdnkit.store import import_files
    n = import_files([path], db=db).games
print(json.dumps({"games": n, "seconds": time.perf_counter() - t}))
"""


def replicate(source: Path, games: int, out: Path) -> int:
    """Write ``games`` games by repeating the source file's games (each copy's events
    renamed, so the copies are distinct games); returns the count."""
    text = source.read_text(encoding="utf-8").strip() + "\n\n"
    blocks = ["[Event " + b if i else b for i, b in enumerate(text.split("\n\n[Event "))]
    n = 0
    with open(out, "w", encoding="utf-8") as f:
        copy = 0
        while n < games:
            for b in blocks:
                if n >= games:
                    break
                f.write(b.replace('[Event "', f'[Event "c{copy} ', 1).strip() + "\n\n")
                n += 1
            copy += 1
    return n


#: the tables a tiled database copies (each with ``game_id``)
TILED = ("games", "move_rows", "position_bits", "game_squares", "game_stretches")


def tile(source: Path, db: Path, copies: int) -> int:
    """Write ``db``: ``source`` with its games (:data:`TILED`) repeated ``copies`` times,
    game numbers shifted by its last one; returns the games."""
    import shutil

    import duckdb

    shutil.copyfile(source, db)
    con = duckdb.connect(str(db))
    con.execute("SET preserve_insertion_order = true")
    have = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    n = int(con.execute("SELECT max(game_id) FROM games").fetchall()[0][0])
    for k in range(1, copies):
        for table in (t for t in TILED if t in have):
            shift = f"game_id + {k * n} AS game_id"
            if table == "games":
                shift += f", duplicate_of + {k * n} AS duplicate_of"
            con.execute(f"INSERT INTO {table} SELECT * REPLACE ({shift}) FROM {table} "
                        f"WHERE game_id <= {n}")  # (in the table's order: game order)
    con.execute("CHECKPOINT")
    got = int(con.execute("SELECT count(*) FROM games").fetchall()[0][0])
    con.close()
    return got


def run_child(mode: str, path: Path, db: Path) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", CHILD, mode, str(path), str(db)], env=env,
                         check=True, capture_output=True, text=True).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def cpu_seconds() -> float:
    """User + system CPU seconds of this process (DuckDB's threads included)."""
    import resource

    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def best_of(fn: Callable[[], Any], repeat: int) -> tuple[float, Any, float]:
    """Best wall-clock seconds of ``repeat`` calls after one warm-up call, its result, and
    the least CPU seconds of a call."""
    result = fn()
    best = cpu = float("inf")
    for _ in range(repeat):
        t, c = time.perf_counter(), cpu_seconds()
        result = fn()
        best = min(best, time.perf_counter() - t)
        cpu = min(cpu, cpu_seconds() - c)
    return best, result, cpu


def without_index(fn: Callable[[], Any]) -> Callable[[], Any]:
    """``fn`` run with the position index left out (every position read: the scan the
    index replaces), to compare side by side."""
    import pdnkit.stats.explorer as explorer
    import pdnkit.stats.search as searching

    def run() -> Any:
        saved = searching.position_source, explorer.position_source
        searching.position_source = explorer.position_source = lambda con, positions: None
        try:
            return fn()
        finally:
            searching.position_source, explorer.position_source = saved
    return run


def without_squares(fn: Callable[[], Any]) -> Callable[[], Any]:
    """``fn`` run with the squares of each game (``game_squares``) and the kings' column
    first left out (every position read: the scan they replace), to compare side by
    side."""
    import pdnkit.stats.search as searching

    def run() -> Any:
        saved = searching.NARROW_SHARE, searching.KINGS_FIRST
        searching.NARROW_SHARE, searching.KINGS_FIRST = -1.0, False
        try:
            return fn()
        finally:
            searching.NARROW_SHARE, searching.KINGS_FIRST = saved
    return run


def without_counts(fn: Callable[[], Any]) -> Callable[[], Any]:
    """``fn`` run with the opening counts kept at import left out (``tree`` and ``stats
    openings`` scan the games' first plies, as before the counts), to compare side by side."""
    import pdnkit.stats.keptbook as keptbook

    def run() -> Any:
        saved = keptbook.counts_ready
        keptbook.counts_ready = lambda con: False
        try:
            return fn()
        finally:
            keptbook.counts_ready = saved
    return run


def sizes(db: Path) -> dict[str, float]:
    """MB per table (its storage blocks, a zstd segment's extra blocks included) and of
    the file."""
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    block = con.execute("SELECT block_size FROM pragma_database_size()").fetchall()[0][0]
    out = {"file": db.stat().st_size / 1e6}
    for (t,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall():
        n = con.execute(  # a zstd segment spills into additional blocks
            f"SELECT count(DISTINCT b) FROM (SELECT block_id AS b FROM pragma_storage_info('{t}') "
            f"WHERE block_id >= 0 UNION ALL SELECT unnest(additional_block_ids) "
            f"FROM pragma_storage_info('{t}'))").fetchall()[0][0]
        out[t] = n * block / 1e6
    con.close()
    return out


def fresh(db: Path, repeat: int, fen: str, only: list[str]) -> list[tuple[str, float]]:
    """Best wall seconds of whole ``pdnkit`` processes (bytecode cached, as installed)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cases = [("search --fen", ["search", "--fen", fen]),
             ("search --pattern", ["search", "--pattern", "W28,K33:B19:E23"]),
             ("tree", ["tree", "--variant", "international"]),
             ("stats openings", ["stats", "openings"])]
    out = []
    for name, args in cases:
        if only and not any(o in name for o in only):
            continue
        best, cpu = float("inf"), float("inf")
        for _ in range(repeat + 1):
            t = time.perf_counter()
            proc = subprocess.Popen([sys.executable, "-m", "pdnkit", *args, "--db", str(db)],
                                    env=env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            _, _, usage = os.wait4(proc.pid, 0)
            best = min(best, time.perf_counter() - t)
            cpu = min(cpu, usage.ru_utime + usage.ru_stime)
        print(f"  fresh process: pdnkit {name:26s} {best * 1000:8.0f} ms (CPU {cpu * 1000:.0f} ms)",
              flush=True)
        out.append((name, best))
    return out


def timings(db: Path, repeat: int, only: list[str]) -> list[tuple[str, float, int]]:
    import duckdb

    import pdnkit
    from pdnkit.stats import openings, tree

    con = duckdb.connect(str(db), read_only=True)
    con.execute("SET enable_progress_bar = false")
    # a position from the middle of the first game, and its first two moves
    fen = con.execute("SELECT fen FROM positions WHERE game_id = 1 AND ply = 20").fetchall()[0][0]
    two = " ".join(m for (m,) in con.execute(
        "SELECT canonical FROM moves WHERE game_id = 1 AND ply <= 2 ORDER BY ply").fetchall())
    cases: list[tuple[str, Callable[[], Any]]] = [
        ('search --pattern "W28,K33:B19:E23"',
         lambda: pdnkit.search(con, pattern="W28,K33:B19:E23")),
        ('search --pattern "W28,K33:B19:E23", scan',
         without_squares(lambda: pdnkit.search(con, pattern="W28,K33:B19:E23"))),
        ('search --pattern "WK1:BK50"', lambda: pdnkit.search(con, pattern="WK1:BK50")),
        ('search --pattern "WK1:BK50", scan',
         without_squares(lambda: pdnkit.search(con, pattern="WK1:BK50"))),
        ('search --pattern "W22-23,27-28:B17-19"',
         lambda: pdnkit.search(con, pattern="W22-23,27-28:B17-19")),
        ('search --pattern "W22-23,27-28:B17-19", scan',
         without_squares(lambda: pdnkit.search(con, pattern="W22-23,27-28:B17-19"))),
        ('search --pattern "W28:B19:E23" --first',
         lambda: pdnkit.search(con, pattern="W28:B19:E23", first=True)),
        ('search --pattern "W28,K33:B19:E23" --mirror',
         lambda: pdnkit.search(con, pattern="W28,K33:B19:E23", mirror=True)),
        ('search --pattern "W28,K33:B19:E23" --mirror, scan',
         without_squares(lambda: pdnkit.search(con, pattern="W28,K33:B19:E23", mirror=True))),
        ("search --fen (ply 20 of game 1)", lambda: pdnkit.search(con, fen=fen)),
        ("search --fen, index left out (scan)",
         without_index(lambda: pdnkit.search(con, fen=fen))),
        ('search --material "2K v 1K" --first',
         lambda: pdnkit.search(con, material="2K v 1K", first=True)),
        ('search --manoeuvre "bK??x??" --captures 2',
         lambda: pdnkit.search(con, manoeuvre="bK??x??", captures=2)),
        ("tree (initial position)", lambda: tree(con)),
        ("tree (initial position), counts left out", without_counts(lambda: tree(con))),
        ("tree (initial position), index left out (scan)",
         without_counts(without_index(lambda: tree(con)))),
        (f'tree --moves "{two}"', lambda: tree(con, moves=two)),
        (f'tree --moves "{two}", counts left out', without_counts(lambda: tree(con, moves=two))),
        ("tree --fen (ply 20 of game 1)", lambda: tree(con, fen=fen)),
        ("tree --fen, index left out (scan)", without_index(lambda: tree(con, fen=fen))),
        ("stats openings", lambda: openings(con)),
        ("stats openings, counts left out", without_counts(lambda: openings(con))),
    ]
    out = []
    for name, fn in cases:
        if only and not any(o in name for o in only):
            continue
        sec, df, cpu = best_of(fn, repeat)
        out.append((name, sec, len(df)))
        print(f"  {name:48s} {sec * 1000:8.0f} ms (CPU {cpu * 1000:6.0f} ms) {len(df):>8} rows",
              flush=True)
    con.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3, help="timing runs (best of)")
    ap.add_argument("--ratio-games", type=int, default=20_000,
                    help="games for the import/validate ratio (0: skip)")
    ap.add_argument("--ratio-repeat", type=int, default=2)
    ap.add_argument("--db", type=Path, help="keep the database here (reused if present)")
    ap.add_argument("--generated", action="store_true",
                    help="distinct random games (benchmarks/randomgames.py) instead of copies")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--jobs", type=int, default=1, help="processes writing random games")
    ap.add_argument("--tile-from", type=Path, help="make --db of copies of this database")
    ap.add_argument("--tile", type=int, default=10, help="copies (--tile-from)")
    ap.add_argument("--only", action="append", default=[],
                    help="time only the cases whose name holds this text (repeatable)")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()}", flush=True)
    if not SOURCE.exists() and not args.generated:
        sys.exit(f"missing {SOURCE}")
    work = Path(tempfile.mkdtemp(prefix="pdnkit-search-"))
    db = args.db or work / "search.duckdb"
    result: dict[str, Any] = {"games": args.games}
    if args.tile_from and not db.exists():
        n = tile(args.tile_from, db, args.tile)
        result["games"] = args.games = n
        print(f"{n} games: {args.tile} copies of {args.tile_from}", flush=True)
    if not db.exists():
        pdn = work / "games.pdn"
        if args.generated:
            sys.path.insert(0, str(ROOT / "benchmarks"))
            from randomgames import write_games

            n = write_games(args.games, pdn, seed=args.seed, jobs=args.jobs)
        else:
            n = replicate(SOURCE, args.games, pdn)
        print(f"{n} games, {pdn.stat().st_size / 1e6:.1f} MB of PDN; importing ...", flush=True)
        r = run_child("import", pdn, db)
        result["import"] = r
        print(f"import: {r['games'] / r['seconds']:.0f} games/s ({r['seconds']:.0f} s)",
              flush=True)
        pdn.unlink()
    s = sizes(db)
    games = args.games
    print(f"database: {s['file']:.1f} MB, {s['file'] * 1000 / games:.2f} KB/game; by table "
          "(MB): " + ", ".join(f"{k} {v:.1f}" for k, v in s.items() if k != "file"),
          flush=True)
    result["sizes_mb"] = s
    print(f"warm timings (best of {args.repeat}):", flush=True)
    result["timings"] = timings(db, args.repeat, args.only)
    if args.generated:
        import duckdb

        con = duckdb.connect(str(db), read_only=True)
        fen = con.execute("SELECT fen FROM positions WHERE game_id = 1 AND ply = 20"
                          ).fetchall()[0][0]
        con.close()
        result["fresh"] = fresh(db, args.repeat, fen, args.only)
    if args.ratio_games:
        pdn = work / "ratio.pdn"
        replicate(SOURCE, args.ratio_games, pdn)
        best: dict[str, float] = {}
        for i in range(args.ratio_repeat):
            for mode in ("validate", "import"):
                rdb = work / f"ratio{i}.duckdb"
                r = run_child(mode, pdn, rdb)
                rate = r["games"] / r["seconds"]
                best[mode] = max(best.get(mode, 0.0), rate)
                print(f"  round {i + 1} {mode:8s} {rate:6.0f} games/s", flush=True)
                rdb.unlink(missing_ok=True)
        ratio = best["import"] / best["validate"]
        print(f"import/validate on {args.ratio_games} games (best of {args.ratio_repeat}): "
              f"{best['import']:.0f} / {best['validate']:.0f} games/s = {ratio:.2f}", flush=True)
        result["ratio"] = {"validate": best["validate"], "import": best["import"],
                           "ratio": ratio}
    print(f"load average after: {os.getloadavg()}", flush=True)
    print(json.dumps(result, default=str))


if __name__ == "__main__":
    main()
