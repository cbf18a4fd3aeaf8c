"""Import speed: `pdnkit.import_files` against `pdnkit.validate` on the same input.

Replicates ``../shared/data/bench/intl_2000.pdn`` (2,000 random legal international games) to
``--games`` games (default 100,000) in one file, then measures, each in a fresh process:

* ``validate``: iterate ``pdnkit.validate(FILE)`` (the reference speed),
* ``import``: ``pdnkit.import_files(FILE)`` into a new database, single process,
* ``import --jobs 2``: the same with two worker processes,

and prints games/s, the import/validate ratio (target >= 0.7), the peak memory of the process
tree (target < 500 MB) and the database size. Memory is sampled every ``--sample-every``
seconds (default 1) as RSS, PSS and USS summed over the process and its workers: summed RSS
counts the pages forked workers share with the parent once per process, PSS divides shared
pages among the processes sharing them (the real footprint), USS counts only pages a process
holds alone. Sampling PSS walks the page tables of the measured processes (and holds their
memory-map lock meanwhile), which slows a process that allocates from two threads: sampled
every 0.2 s, a single-process import of 100,000 games took 182 s against 148 s unsampled.
Once a second costs it little; ``--sample-every 0`` turns sampling off (peak RSS then comes
from the kernel's own count for the main process, ``ru_maxrss``, workers not included).

    python benchmarks/import.py                 # 100,000 games (long: tens of minutes)
    python benchmarks/import.py --games 10000   # a quicker run

``--side-by-side`` measures instead what a user runs, whole processes of the command line
alternating on the same file: ``pdnkit validate FILE`` and ``pdnkit import FILE --db NEW``
(one process each, ``--rounds`` pairs), and prints the median wall and CPU times and the
import/validate ratio (target >= 0.8); ``--hog`` keeps the other core busy meanwhile (a
``python -c "while 1: pass"`` started and stopped by the script):

    python benchmarks/import.py --side-by-side --games 2000 --rounds 5
    python benchmarks/import.py --side-by-side --games 20000 --rounds 3 --hog

``--parts`` splits an import's work in this process, one stage after the other on one
thread (CPU seconds, the collector off as during an import): the replay as ``validate`` runs
it, the compact replay the import runs, the rows (``ReportBatch.add``), their Arrow tables
(``to_arrow``), DuckDB's insert and commit of them into a new database file with the
import's settings (the index's pairs gathered on the way, as the writer does), the position
index's step after the rows (``index_games``), and at the end the groups of copies (each replicated game is a group)
and the openings' novelties; each as microseconds a game and
as a share of the validation. What DuckDB alone takes is a floor no import that stores
these tables goes under, whatever builds their rows; the last line stores the same Arrow
tables plainly (tables of their own columns, no computed column or constraint), DuckDB's
own cost of these rows:

    python benchmarks/import.py --parts --games 20000

``--layouts`` stores the moves and positions of the same games three ways, DuckDB's insert
and commit alone (CPU time) and the file's size a game, to say what a leaner stored layout
would save: one row a ply (today's ``run_moves`` and ``run_squares``), one row a game with
each column a list, and the positions as one blob a game (four 64-bit words a ply) beside
today's moves:

    python benchmarks/import.py --layouts --games 2000

``--floor`` asks how low DuckDB's own cost of the import's rows can go, beside ``validate``'s
light replay of the same games (CPU, this process): the plain storage of every Arrow table
of the import (as ``--parts``' last line) with DuckDB's compression chosen as usual, with the
costliest methods disabled, and with compression off altogether (``force_compression``); then
the moves and positions one column at a time (a table of ``game_id``, ``ply`` and that column:
what each column adds). The import's whole budget at 0.6x of validate's speed is validate's
time divided by 0.6; the line says whether storing alone fits in it:

    python benchmarks/import.py --floor --games 20000

``--compare-with TREE`` runs ``pdnkit import`` of this tree and of another checkout (an
earlier commit, say: ``git archive COMMIT | tar -x -C TREE`` and this tree's compiled core
copied into ``TREE/pdnkit/core``) on the same file, whole processes alternating, ``--rounds``
pairs, and prints the medians and what this tree adds:

    python benchmarks/import.py --compare-with /tmp/before --games 100000 --rounds 2
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path(os.environ.get("PDNKIT_SHARED_DATA", ROOT.parent / "shared" / "data")) / "bench" / "intl_2000.pdn"

CHILD = r"""
import json, sys, time
mode, path, db, jobs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
t = time.perf_counter()
if mode == "validate":
    from pdnkit.validation import validate
    n = 0
    for _ in validate(path, jobs=jobs):
        n += 1
else:
    from pdnkit.store import import_files
    n = import_files([path], db=db, jobs=jobs).games
import resource
print(json.dumps({"games": n, "seconds": time.perf_counter() - t,
                  "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


#: spins while its parent lives (a benchmark killed from outside leaves no hog behind)
HOG = "import os\nparent = os.getppid()\nwhile os.getppid() == parent:\n    pass\n"

def replicate(source: Path, games: int, out: Path) -> int:
    """Write ``games`` games by repeating the source file's games; returns the count."""
    text = source.read_text(encoding="utf-8").strip() + "\n\n"
    per_copy = text.count("[Event ")
    copies, rest = divmod(games, per_copy)
    with open(out, "w", encoding="utf-8") as f:
        for _ in range(copies):
            f.write(text)
        if rest:
            blocks = text.split("\n\n[Event ")
            head = "\n\n[Event ".join(blocks[:rest])
            f.write(head.strip() + "\n\n")
    return copies * per_copy + rest


def _tree_memory(pid: int) -> tuple[int, int, int]:
    """(RSS, PSS, USS) summed over a process and its children. Summed RSS counts the pages
    forked workers share with their parent once per process; PSS shares them out (the
    honest total of the tree), USS is what each process holds alone."""
    import psutil

    try:
        p = psutil.Process(pid)
        procs = [p, *p.children(recursive=True)]
    except psutil.Error:
        return 0, 0, 0
    rss = pss = uss = 0
    for q in procs:
        with contextlib.suppress(psutil.Error):
            m = q.memory_full_info()
            rss += m.rss
            pss += getattr(m, "pss", m.uss)
            uss += m.uss
    return rss, pss, uss


def run(mode: str, path: Path, db: Path, jobs: int, every: float = 1.0) -> dict[str, float]:
    """Run one measurement in a fresh process; sample the process tree's memory."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen([sys.executable, "-c", CHILD, mode, str(path), str(db), str(jobs)],
                            stdout=subprocess.PIPE, text=True, cwd=ROOT)
    peak = [0, 0, 0]

    def sample() -> None:
        while proc.poll() is None:
            peak[:] = [max(a, b) for a, b in zip(peak, _tree_memory(proc.pid), strict=True)]
            time.sleep(every)

    th = None
    if every > 0:
        try:
            import psutil  # noqa: F401

            th = threading.Thread(target=sample, daemon=True)
            th.start()
        except ImportError:
            th = None
    out, _ = proc.communicate()
    if th is not None:
        th.join()
    if proc.returncode != 0:
        raise SystemExit(f"{mode} failed with status {proc.returncode}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = json.loads(out.strip().splitlines()[-1])
    # CPU time of the whole tree (workers are reaped by the child, so they count too): the
    # figure that does not depend on how many cores other programs leave free
    result["cpu_s"] = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    if not any(peak):  # not sampled: the kernel's peak RSS of the main process (KiB)
        peak[0] = result["maxrss_kb"] * 1024
    result["peak_mb"], result["pss_mb"], result["uss_mb"] = (x / 2**20 for x in peak)
    return result


def _timed(cmd: list[str], cwd: Path = ROOT,
           env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one whole process (``cmd``, output discarded)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          cwd=cwd, env=env)
    wall = time.perf_counter() - t
    if proc.returncode not in (0, 1):  # (validate exits 1 when a game has an error)
        raise SystemExit(f"{cmd[1]} failed with status {proc.returncode}: {proc.stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def side_by_side(pdn: Path, tmpdir: Path, games: int, rounds: int, hog: bool) -> None:
    """``pdnkit validate`` against ``pdnkit import`` as whole processes, alternating."""
    import statistics

    exe = str(Path(sys.executable).with_name("pdnkit"))
    hogger = subprocess.Popen([sys.executable, "-c", HOG]) if hog else None
    try:
        got: dict[str, list[tuple[float, float]]] = {"validate": [], "import": []}
        for rnd in range(1, rounds + 1):
            order = ("validate", "import") if rnd % 2 else ("import", "validate")
            for mode in order:
                db = tmpdir / f"side-{rnd}.duckdb"
                cmd = ([exe, "validate", str(pdn)] if mode == "validate"
                       else [exe, "import", str(pdn), "--db", str(db)])
                wall, cpu = _timed(cmd)
                size = db.stat().st_size if db.exists() else 0
                db.unlink(missing_ok=True)
                got[mode].append((wall, cpu))
                print(f"round {rnd} {mode:8}: {wall:6.2f} s wall, {cpu:6.2f} s CPU, "
                      f"{games / wall:7.0f} games/s"
                      + (f", db {size / games / 1024:.2f} KB/game" if size else ""),
                      flush=True)
    finally:
        if hogger is not None:
            hogger.kill()
            hogger.wait()
    med = {m: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
           for m, v in got.items()}
    ratios = [v[0] / i[0] for v, i in zip(got["validate"], got["import"], strict=True)]
    print(f"\nmedian validate {med['validate'][0]:.2f} s wall ({med['validate'][1]:.2f} s "
          f"CPU), import {med['import'][0]:.2f} s wall ({med['import'][1]:.2f} s CPU)"
          + (" with the other core busy" if hog else ""))
    print(f"import / validate (speed, wall): {med['validate'][0] / med['import'][0]:.2f}x "
          f"(median of the pairs {statistics.median(ratios):.2f}x; CPU "
          f"{med['validate'][1] / med['import'][1]:.2f}x; target >= 0.80)")


def compare_with(pdn: Path, tmpdir: Path, games: int, rounds: int, other: Path) -> None:
    """``pdnkit import`` of this tree against the same command of another checkout
    (``other``: a source tree with its core built, such as ``git archive`` of an earlier
    commit with this tree's compiled core copied in), as whole processes, alternating."""
    import statistics

    trees = {"this": ROOT, "other": other.resolve()}
    got: dict[str, list[tuple[float, float]]] = {"this": [], "other": []}
    for rnd in range(1, rounds + 1):
        for name in (("this", "other") if rnd % 2 else ("other", "this")):
            db = tmpdir / f"compare-{name}-{rnd}.duckdb"
            env = {**os.environ, "PYTHONPATH": str(trees[name])}
            wall, cpu = _timed([sys.executable, "-m", "pdnkit", "import", str(pdn), "--db",
                                str(db), "--quiet"], cwd=trees[name], env=env)
            db.unlink(missing_ok=True)
            got[name].append((wall, cpu))
            load = os.getloadavg()[0]
            print(f"round {rnd} {name:5} ({trees[name]}): {wall:6.2f} s wall, {cpu:6.2f} s "
                  f"CPU, {games / wall:7.0f} games/s, load average {load:.1f}", flush=True)
    med = {m: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
           for m, v in got.items()}
    print(f"\nmedian this {med['this'][0]:.2f} s wall ({med['this'][1]:.2f} s CPU), other "
          f"{med['other'][0]:.2f} s wall ({med['other'][1]:.2f} s CPU): this takes "
          f"{100 * (med['this'][0] / med['other'][0] - 1):+.1f}% wall, "
          f"{100 * (med['this'][1] / med['other'][1] - 1):+.1f}% CPU")


def parts(pdn: Path, tmpdir: Path, games: int) -> None:
    """The import's stages one after the other in this process (see the module doc)."""
    import gc

    sys.path.insert(0, str(ROOT))
    import duckdb

    from pdnkit.rows.batch import BATCH_GAMES, ReportBatch
    from pdnkit.rows.load import load_batch
    from pdnkit.store import copies
    from pdnkit.store.db import ensure_schema
    from pdnkit.store.ingest import IMPORT_SETTINGS
    from pdnkit.store.openingdb import mark_loaded, settle_import
    from pdnkit.store.posindex import IndexPairs, index_games
    from pdnkit.validation import validate

    def cpu(fn: Any) -> tuple[float, Any]:
        t = time.process_time()
        out = fn()
        return time.process_time() - t, out

    warm = ReportBatch()  # warm: tables, books, numpy, pyarrow (and pandas) imported
    for rep in validate(str(SOURCE), compact=True):
        warm.add(rep)
    memory = duckdb.connect()
    ensure_schema(memory)
    load_batch(memory, warm.to_arrow(), 1, 1, warm.layouts)
    memory.close()
    gc.collect()
    gc.freeze()
    gc.disable()
    times: dict[str, float] = {}
    times["validate (light)"], _ = cpu(lambda: sum(1 for _ in validate(str(pdn), light=True)))
    # the compact replay as the import runs it: each report handed on as it comes (a list of
    # every report, kept whole, cost 0.10-0.15 of validate more: memory that grows); the
    # reports the stages below need are then collected untimed
    times["compact replay"], _ = cpu(lambda: sum(1 for _ in validate(str(pdn), compact=True)))
    reports = list(validate(str(pdn), compact=True))

    def rows() -> list[ReportBatch]:
        out = []
        for i in range(0, len(reports), BATCH_GAMES):
            batch = ReportBatch()
            for rep in reports[i:i + BATCH_GAMES]:
                batch.add(rep)
            out.append(batch)
        return out

    times["rows (add)"], batches = cpu(rows)

    def interleaved() -> None:
        batch = ReportBatch()
        for rep in validate(str(pdn), compact=True):
            batch.add(rep)
            if batch.full():
                batch = ReportBatch()

    # as the import runs them, each report's rows built as it comes (the tag scan it shares
    # with the validator is still at hand): reported apart, not in the total below
    times["replay + rows, as import"], _ = cpu(interleaved)
    times["Arrow (to_arrow)"], arrow = cpu(lambda: [b.to_arrow() for b in batches])
    db = tmpdir / "parts.duckdb"
    con = duckdb.connect(str(db))
    ensure_schema(con)
    for name, value in IMPORT_SETTINGS.items():
        con.execute(f"SET {name} = '{value}'")

    pairs = IndexPairs(con)  # the index's pairs gathered as the writer loads, as import does

    def load() -> None:
        con.execute("BEGIN TRANSACTION")
        offset = 1
        for b, tables in zip(batches, arrow, strict=True):
            load_batch(con, tables, 1, offset, b.layouts, pairs)
            offset += b.games_count
        times["index (after the rows)"], _ = cpu(lambda: index_games(con, 1, offset, pairs))
        con.execute("INSERT INTO files (file_id, path, sha256, size, games, imported_at) "
                    "VALUES (1, 'x', 'x', 0, ?, now())", [offset - 1])
        mark_loaded(con, 1, offset)
        copies.mark_loaded(con, 1, offset)
        con.execute("COMMIT")

    times["DuckDB insert + commit"], _ = cpu(load)
    times["DuckDB insert + commit"] -= times["index (after the rows)"]
    times["copies (settle)"], _ = cpu(lambda: copies.settle_copies(con))
    times["novelties (settle)"], _ = cpu(lambda: settle_import(con))
    con.close()
    times["DuckDB floor (plain)"], _ = cpu(lambda: plain_floor(arrow, tmpdir / "floor.duckdb"))
    gc.enable()
    gc.unfreeze()
    base = times["validate (light)"]
    print(f"\n{games} games, one thread, CPU seconds (us a game; share of validate):")
    for label, sec in times.items():
        print(f"  {label:<24}{sec:7.2f} s  {sec / games * 1e6:7.1f} us  {sec / base:5.2f}")
    extra = sum(v for k, v in times.items()
                if k not in ("validate (light)", "compact replay", "DuckDB floor (plain)",
                             "replay + rows, as import"))
    total = times["compact replay"] + extra
    floor = times["DuckDB floor (plain)"]
    print(f"  import on one core: about {total:.2f} s = {base / total:.2f}x validate; DuckDB "
          f"alone is {times['DuckDB insert + commit'] / base:.2f} of validate's time (storing "
          f"the same Arrow tables plainly: {floor / base:.2f}), so no import that replays "
          f"and stores these rows on one core passes {base / (base + floor):.2f}x")


def import_tables(pdn: Path) -> list[dict[str, Any]]:
    """The Arrow tables an import stores for ``pdn``, a batch of ``BATCH_GAMES`` games
    each."""
    sys.path.insert(0, str(ROOT))
    from pdnkit.rows.batch import BATCH_GAMES, ReportBatch
    from pdnkit.validation import validate

    reports = list(validate(str(pdn), compact=True))
    arrow = []
    for i in range(0, len(reports), BATCH_GAMES):
        batch = ReportBatch()
        for rep in reports[i:i + BATCH_GAMES]:
            batch.add(rep)
        arrow.append(batch.to_arrow())
    return arrow


def layouts(pdn: Path, tmpdir: Path, games: int) -> None:
    """DuckDB's cost of storing the moves and positions of ``pdn`` one row a ply, one row a
    game with list columns, and with the positions as one blob a game."""
    import gc

    import duckdb
    import numpy as np
    import pyarrow as pa

    sys.path.insert(0, str(ROOT))
    from pdnkit.store.ingest import IMPORT_SETTINGS

    arrow = import_tables(pdn)

    def cuts(t: Any) -> tuple[Any, Any]:
        gid = t.column("game_id").to_numpy()
        starts = np.flatnonzero(np.r_[True, gid[1:] != gid[:-1]])
        return gid, starts

    def lists(t: Any, keep: list[str]) -> Any:
        gid, starts = cuts(t)
        offsets = pa.array(np.r_[starts, len(gid)].astype(np.int32))
        cols = {"game_id": pa.array(gid[starts])}
        for c in keep:
            cols[c] = pa.ListArray.from_arrays(offsets, t.column(c).combine_chunks())
        return pa.table(cols)

    def blob(t: Any) -> Any:
        gid, starts = cuts(t)
        words = np.stack([t.column(c).to_numpy().astype(np.uint64)
                          for c in ("wm", "wk", "bm", "bk")], 1)
        ends = np.r_[starts[1:], len(gid)]
        return pa.table({"game_id": pa.array(gid[starts]),
                         "bits": pa.array([words[a:b].tobytes() for a, b in
                                           zip(starts, ends, strict=True)], pa.binary())})

    move_cols = ["notation", "canonical", "origin", "destination", "path", "captured",
                 "promotes", "king", "nags", "comment", "line"]
    shapes = {
        "one row a ply (today)": lambda t: {"sq": t["run_squares"], "mv": t["run_moves"]},
        "one row a game, lists": lambda t: {"sq": lists(t["run_squares"],
                                                        ["wm", "wk", "bm", "bk"]),
                                            "mv": lists(t["run_moves"], move_cols)},
        "positions as a blob a game": lambda t: {"sq": blob(t["run_squares"]),
                                                 "mv": t["run_moves"]},
    }
    print(f"\n{games} games: the moves and positions stored (DuckDB insert and commit, CPU; "
          "best of 3)")
    gc.disable()
    for name, shape in shapes.items():
        tables = [shape(t) for t in arrow]
        best, size = float("inf"), 0
        for _ in range(3):
            db = tmpdir / "layout.duckdb"
            db.unlink(missing_ok=True)
            con = duckdb.connect(str(db))
            for key, value in IMPORT_SETTINGS.items():
                con.execute(f"SET {key} = '{value}'")
            con.execute("BEGIN TRANSACTION")
            t0 = time.process_time()
            for i, batch in enumerate(tables):
                for tname, table in batch.items():
                    rel = con.from_arrow(table)
                    if i == 0:
                        rel.create(tname)
                    else:
                        rel.insert_into(tname)
            con.execute("COMMIT")
            best = min(best, time.process_time() - t0)
            con.execute("CHECKPOINT")
            con.close()
            size = db.stat().st_size
        print(f"  {name:<28}{best / games * 1e6:7.1f} us a game  "
              f"{size / games / 1024:5.2f} KB a game")
    gc.enable()


def floor(pdn: Path, tmpdir: Path, games: int) -> None:
    """DuckDB's cost of storing the import's rows, under three compression settings and one
    column at a time, beside the light validation (see the module's text)."""
    import gc

    sys.path.insert(0, str(ROOT))
    from pdnkit.validation import validate

    arrow = import_tables(pdn)
    gc.collect()
    gc.disable()
    base = min(_cpu(lambda: sum(1 for _ in validate(str(pdn), light=True))) for _ in range(2))
    budget = base / 0.6
    print(f"\n{games} games, CPU: validate (light) {base:.2f} s ({base / games * 1e6:.1f} us a "
          f"game); an import at 0.6x of its speed has {budget:.2f} s in all")
    settings = {"compression as usual": (),
                "no fsst, zstd, alp, chimp, patas": (
                    "SET disabled_compression_methods = 'fsst,zstd,alp,alprd,chimp,patas'",),
                "compression off": ("SET force_compression = 'uncompressed'",)}
    db = tmpdir / "floor.duckdb"
    for label, extra in settings.items():
        sec = float("inf")
        for _ in range(2):
            db.unlink(missing_ok=True)
            sec = min(sec, _cpu(functools.partial(plain_floor, arrow, db, extra)))
        size = db.stat().st_size
        print(f"  plain storage, {label:<34}{sec:6.2f} s {sec / games * 1e6:7.1f} us a game "
              f"{size / games / 1024:6.2f} KB a game  {sec / budget:5.2f} of the budget")
    for table in ("run_moves", "run_squares"):
        names = arrow[0][table].schema.names
        keys = ["game_id", "ply"]
        alone = _column_cost(arrow, table, keys, tmpdir)
        print(f"  {table}: game_id and ply {alone / games * 1e6:5.1f} us a game; each column "
              "adds (us a game):")
        for name in names:
            if name not in keys:
                more = _column_cost(arrow, table, [*keys, name], tmpdir) - alone
                print(f"    {name:<16}{more / games * 1e6:6.1f}")
    gc.enable()


def _cpu(fn: Any) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def _column_cost(arrow: list[dict[str, Any]], table: str, cols: list[str],
                 tmpdir: Path) -> float:
    """CPU seconds of storing ``cols`` of every batch's ``table`` plainly (best of 2)."""
    db = tmpdir / "column.duckdb"
    tables = [{table: t[table].select(cols)} for t in arrow]
    best = float("inf")
    for _ in range(2):
        db.unlink(missing_ok=True)
        best = min(best, _cpu(lambda: plain_floor(tables, db)))
    return best


def plain_floor(arrow: list[dict[str, Any]], db: Path, settings: tuple[str, ...] = ()) -> None:
    """The same Arrow tables appended as they are to tables of their own columns (no
    constraint, no computed column, no view), one transaction, with the import's settings:
    what DuckDB itself takes to store these rows, whoever builds them."""
    import duckdb

    from pdnkit.store.ingest import IMPORT_SETTINGS

    con = duckdb.connect(str(db))
    for name, value in IMPORT_SETTINGS.items():
        con.execute(f"SET {name} = '{value}'")
    for statement in settings:
        con.execute(statement)
    con.execute("BEGIN TRANSACTION")
    made: set[str] = set()
    for tables in arrow:
        for name, table in tables.items():
            if not table.num_rows:
                continue
            rel = con.from_arrow(table)
            if name in made:
                rel.insert_into(f"plain_{name}")
            else:
                rel.create(f"plain_{name}")
                made.add(name)
    con.execute("COMMIT")
    con.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--jobs", type=int, default=2, help="workers for the parallel runs")
    ap.add_argument("--repeat", type=int, default=1,
                    help="rounds of every run (best kept; each round's own ratio shown)")
    ap.add_argument("--sample-every", type=float, default=1.0,
                    help="seconds between memory samples (0: no sampling)")
    ap.add_argument("--skip-validate-jobs", action="store_true",
                    help="do not measure validate --jobs (saves time)")
    ap.add_argument("--side-by-side", action="store_true",
                    help="pdnkit validate against pdnkit import, whole processes")
    ap.add_argument("--rounds", type=int, default=5, help="pairs for --side-by-side")
    ap.add_argument("--hog", action="store_true",
                    help="keep the other core busy during --side-by-side")
    ap.add_argument("--compare-with", type=Path, default=None, metavar="TREE",
                    help="pdnkit import of this tree against another checkout's, alternating")
    ap.add_argument("--parts", action="store_true",
                    help="the import's stages one after the other in this process")
    ap.add_argument("--floor", action="store_true",
                    help="DuckDB's own cost of the rows: compression settings, each column")
    ap.add_argument("--layouts", action="store_true",
                    help="DuckDB's cost of the moves and positions stored three ways")
    args = ap.parse_args()
    if not SOURCE.exists():
        raise SystemExit(f"benchmark input missing: {SOURCE}")
    with tempfile.TemporaryDirectory(prefix="pdnkit-bench-") as tmp:
        tmpdir = Path(tmp)
        pdn = tmpdir / f"intl_{args.games}.pdn"
        n = replicate(SOURCE, args.games, pdn)
        print(f"input: {n} games, {pdn.stat().st_size / 2**20:.1f} MB (from {SOURCE.name})")
        if args.compare_with is not None:
            compare_with(pdn, tmpdir, n, args.rounds, args.compare_with)
            return
        if args.side_by_side:
            side_by_side(pdn, tmpdir, n, args.rounds, args.hog)
            return
        if args.parts:
            parts(pdn, tmpdir, n)
            return
        if args.layouts:
            layouts(pdn, tmpdir, n)
            return
        if args.floor:
            floor(pdn, tmpdir, n)
            return
        rows = []
        runs = [("validate", 1), ("import", 1), ("import", args.jobs)]
        if not args.skip_validate_jobs:
            runs.insert(1, ("validate", args.jobs))
        for rnd in range(1, args.repeat + 1):
            for mode, jobs in runs:
                db = tmpdir / f"{mode}-{jobs}-{rnd}.duckdb"
                r = run(mode, pdn, db, jobs, args.sample_every)
                r["mode"], r["jobs"], r["round"] = mode, jobs, rnd
                r["db_mb"] = db.stat().st_size / 2**20 if db.exists() else 0.0
                db.unlink(missing_ok=True)
                rows.append(r)
                print(f"round {rnd} {mode:8} jobs={jobs}: {r['games'] / r['seconds']:8.0f} "
                      f"games/s  {r['seconds']:7.1f} s  peak RSS {r['peak_mb']:5.0f} MB  "
                      f"PSS {r['pss_mb']:5.0f} MB  USS {r['uss_mb']:5.0f} MB  "
                      f"CPU {r['cpu_s'] / r['games'] * 1e3:.2f} ms/game"
                      + (f"  db {r['db_mb']:.1f} MB" if mode == "import" else ""), flush=True)
        # best of the rounds for each run (the machine's speed drifts between runs); the
        # ratio of each round's own pair says how much
        best = {}
        for r in rows:
            k = (r["mode"], r["jobs"])
            if k not in best or r["seconds"] < best[k]["seconds"]:
                best[k] = r
        print()
        if args.repeat > 1:
            for rnd in range(1, args.repeat + 1):
                v = next(r for r in rows if r["round"] == rnd and r["mode"] == "validate"
                         and r["jobs"] == 1)
                i = next(r for r in rows if r["round"] == rnd and r["mode"] == "import"
                         and r["jobs"] == 1)
                print(f"round {rnd}: import jobs=1 / validate jobs=1 "
                      f"{v['seconds'] / i['seconds']:.2f}x")
        for (mode, jobs), r in best.items():
            if mode != "import":
                continue
            bases = {id(b): b for b in (best[("validate", 1)],
                                        best.get(("validate", jobs), best[("validate", 1)]))}
            for base in sorted(bases.values(), key=lambda b: b["jobs"]):
                ratio = base["seconds"] / r["seconds"]
                print(f"best: import jobs={jobs} / validate jobs={base['jobs']}: {ratio:.2f}x "
                      f"(target >= 0.70), peak PSS {r['pss_mb']:.0f} MB, RSS "
                      f"{r['peak_mb']:.0f} MB (target < 500)")


if __name__ == "__main__":
    main()
