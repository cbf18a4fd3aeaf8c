"""What keeping the opening counts costs an import: a file of new games imported into a
database (copy it first: the games are added), with the import's last step, the opening
counts (:func:`pdnkit.store.opencounts.settle_counts`), timed apart. Prints the import's CPU
(user+sys of this process, DuckDB's threads included) and wall time, the counts' share of
both, and the load average.

    python benchmarks/randomgames.py 20000 new.pdn --seed 35
    cp big.duckdb /tmp/copy.duckdb
    python benchmarks/counts_upkeep.py /tmp/copy.duckdb new.pdn
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("db", type=Path)
    ap.add_argument("pdn", type=Path)
    args = ap.parse_args()

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
    load0 = os.getloadavg()[0]
    w, c = time.perf_counter(), _cpu()
    summary = import_files([args.pdn], db=args.db, jobs=1)
    cpu, wall = _cpu() - c, time.perf_counter() - w
    ccpu, cwall, how = spent[0]
    print(f"database: {before:,} games; imported: {summary.games:,} games (jobs 1)")
    print(f"import: CPU {cpu:.1f} s, wall {wall:.1f} s")
    print(f"counts ({how}): CPU {ccpu:.2f} s ({100 * ccpu / cpu:.1f} % of the import's), "
          f"wall {cwall:.2f} s ({100 * cwall / wall:.1f} %)")
    print(f"load average: {load0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
