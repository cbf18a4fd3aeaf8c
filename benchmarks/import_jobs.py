"""Whether ``import --jobs 2`` pays on the compiled core: whole ``pdnkit import`` processes
into a new database, side by side, with the CPU time of this process and of its workers apart.

Usage::

    .venv/bin/python benchmarks/import_jobs.py                       # intl_2000 x 50 (100,000 games)
    .venv/bin/python benchmarks/import_jobs.py --games 20000 --repeat 2

Each round runs, alternating, ``pdnkit import FILE --db NEW --jobs 1``, ``--jobs 2`` (the cost
model deciding, as the user runs it) and ``--jobs 2`` with the workers forced (the decision
overridden, :data:`jobs.WRAPPED`: a busy machine then shows what the workers cost, not the
cost model's refusal). It prints, for the best wall of each, the wall time and the CPU
seconds of the importing process and of its workers, the load average over the runs, and
the speed-up projected on two idle cores from the CPU times of the forced run, the figure to
trust on a loaded machine: the forced run takes at least ``max(parent CPU, (parent +
workers CPU) / 2)`` there, ``--jobs 1`` between half its CPU and all of it (its DuckDB load
runs on a thread of its own beside the replay), so a range. The databases are compared (row counts of every table) so that a run that
went wrong is not timed.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from jobs import WRAPPED, whole  # noqa: E402 - the script beside
from validate import DEFAULT_FILE, replicated  # noqa: E402 - the script beside


def counts(db: Path) -> dict[str, int]:
    """Rows of every base table of ``db``."""
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        names = [r[0] for r in con.execute("select table_name from information_schema.tables "
                                           "where table_type = 'BASE TABLE'").fetchall()]
        return {t: int(con.execute(f"select count(*) from {t}").fetchall()[0][0])
                for t in names}
    finally:
        con.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", type=Path, default=DEFAULT_FILE)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    per_file = args.file.read_text(encoding="utf-8").count("[Event ")
    big = replicated(args.file, max(1, args.games // per_file))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {big.name}")
    work = Path(tempfile.mkdtemp(prefix="pdnkit-import-jobs-"))
    modes = {"--jobs 1": ("plain", "1"), "--jobs 2": ("plain", "2"),
             "--jobs 2 forced": ("forced", "2")}
    times: dict[str, tuple[float, float, float]] = {}
    rounds: list[dict[str, tuple[float, float, float]]] = []
    loads: list[float] = []
    tables: dict[str, dict[str, int]] = {}
    for r in range(args.repeat):
        got: dict[str, tuple[float, float, float]] = {}
        for name, (how, jobs) in modes.items():
            db = work / f"{how}-{jobs}-{r}.duckdb"
            loads.append(os.getloadavg()[0])
            got[name] = whole([sys.executable, "-c", WRAPPED, how, "import", str(big),
                               "--db", str(db), "--jobs", jobs, "--quiet"])
            loads.append(os.getloadavg()[0])
            tables[name] = counts(db)
            db.unlink()
            times[name] = min(times.get(name, got[name]), got[name])  # the best wall
        rounds.append(got)
        one = got["--jobs 1"]
        print(f"  round {r + 1}: " + ", ".join(
            f"{n} {w:.1f} s wall ({one[0] / w:.2f}x), CPU {p:.1f} + {c:.1f} s"
            for n, (w, p, c) in got.items()))
    if len({tuple(sorted(t.items())) for t in tables.values()}) != 1:
        raise SystemExit(f"the databases differ: {tables}")
    print(f"\nwhole processes, import of {tables['--jobs 1']['games']:,} games (best wall of "
          f"{args.repeat}; load average {min(loads):.1f}-{max(loads):.1f}):")
    one = times["--jobs 1"]
    for name, (wall, parent, workers) in times.items():
        cpu = parent + workers
        print(f"  {name:<16} wall {wall:7.2f} s ({one[0] / wall:.2f}x)   CPU {cpu:7.2f} s "
              f"({cpu / (one[1] + one[2]):.2f}x --jobs 1's): this process {parent:6.2f} s, "
              f"workers {workers:6.2f} s")
    forced = times["--jobs 2 forced"]
    serial = one[1] + one[2]
    print(f"  this process's CPU, --jobs 2 forced: {one[1] / forced[1]:.2f}x less than "
          f"--jobs 1's")
    bound = max(forced[1], sum(forced[1:]) / 2)
    print(f"  projected on 2 idle cores from CPU: --jobs 2 forced {serial / 2 / bound:.2f}x"
          f"-{serial / bound:.2f}x --jobs 1 (--jobs 1 loads on a thread of its own beside "
          f"the replay: on two idle cores it takes between half its CPU and all of it)")
    work.rmdir()


if __name__ == "__main__":
    main()
