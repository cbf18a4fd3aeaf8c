"""What each settle step of an import costs: a file of games imported into a database (copy
it first: the games are added), with every step of the import's end timed apart (the groups
of copies, the openings' re-classification, the games whose novelty the new ones change,
the novelties, the position index, the opening counts) and the steps of each file's
transaction (the index's and the squares' rows). Prints CPU (user+sys of this process,
DuckDB's threads included) and wall time of each step and of the whole import, and the
load average.

    python benchmarks/randomgames.py 2000 new.pdn --seed 35
    cp big.duckdb /tmp/copy.duckdb
    python benchmarks/settle_steps.py /tmp/copy.duckdb new.pdn
"""

from __future__ import annotations

import argparse
import functools
import os
import resource
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


SPENT: dict[str, list[float]] = {}


def _timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        w, c = time.perf_counter(), _cpu()
        try:
            return fn(*args, **kwargs)
        finally:
            got = SPENT.setdefault(name, [0.0, 0.0, 0])
            got[0] += _cpu() - c
            got[1] += time.perf_counter() - w
            got[2] += 1
    return run


def _wrap(module: Any, attr: str, name: str) -> None:
    setattr(module, attr, _timed(name, getattr(module, attr)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("db", type=Path)
    ap.add_argument("pdn", type=Path, nargs="+")
    args = ap.parse_args()

    import duckdb

    import pdnkit.store.copies as copies
    import pdnkit.store.ingest as ingest
    import pdnkit.store.openingdb as openingdb
    from pdnkit.store import import_files

    for mod, attr, name in [
            (copies, "compute_groups", "copies: compute_groups"),
            (copies, "group_rows", "copies: group_rows"),
            (copies, "_mark_novelties", "copies: mark novelties"),
            (copies, "settle_copies", "copies (settle_copies)"),
            (openingdb, "affected_by_new", "openings: affected_by_new"),
            (openingdb, "classify_games", "openings: classify_games"),
            (openingdb, "refresh_novelties", "openings: refresh_novelties"),
            (ingest, "settle_import", "openings+novelties (settle_import)"),
            (ingest, "settle_index", "index (settle_index)"),
            (ingest, "settle_counts", "counts (settle_counts)"),
            (ingest, "index_games", "per file: index_games"),
            (ingest, "add_games", "per file: squares add_games"),
            (ingest, "_settle", "the settle steps (_settle)")]:
        _wrap(mod, attr, name)
    con = duckdb.connect(str(args.db), read_only=True)
    before = con.execute("SELECT count(*) FROM games").fetchall()[0][0]
    con.close()
    load0 = os.getloadavg()
    w, c = time.perf_counter(), _cpu()
    summary = import_files(args.pdn, db=args.db, jobs=1)
    cpu, wall = _cpu() - c, time.perf_counter() - w
    print(f"database: {before:,} games; imported: {summary.games:,} games (jobs 1)")
    print(f"import: CPU {cpu:.2f} s, wall {wall:.2f} s")
    for name, (scpu, swall, n) in SPENT.items():
        print(f"  {name:<40} CPU {scpu:7.2f} s  wall {swall:7.2f} s  ({n} call(s))")
    print(f"load average: {load0[0]:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
