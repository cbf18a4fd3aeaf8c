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
the wall time projected on two idle cores from CPU times, the figure to trust on a loaded
machine. For that each run also reports (:data:`PHASES`, hooked into the import) the CPU of
its two phases: while the rows stream in (the *load phase*; of it, the CPU of the DuckDB
writer thread) and after the last file's rows are in (the *tail*: the index, the squares,
the settling, on the DuckDB threads ``--jobs`` grants). On two idle cores:

* the load phase takes ``max(this process's CPU - writer, writer)`` without workers (the
  replay and the load overlap on two threads), ``max(this process's CPU, (this process's +
  workers' CPU) / 2)`` with them (three processes' work on two cores);
* the tail takes between its CPU over its threads and all of it (the copies' grouping is
  Python, one thread), so a range.

The databases are compared (row counts of every table) so that a run that went wrong is not
timed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from jobs import WRAPPED  # noqa: E402 - the script beside
from validate import DEFAULT_FILE, bench_env, replicated  # noqa: E402 - the script beside

#: run before :data:`jobs.WRAPPED`: the CPU of the import's phases, printed at exit as
#: ``JOBS-PHASES writer-thread-CPU CPU-when-the-rows-were-in`` (process CPU, seconds)
PHASES = ("import atexit, resource, sys, time\n"
          "import pdnkit.store.ingest as _i, pdnkit.store.steps as _s\n"
          "_got = {'writer': 0.0, 'loaded': 0.0}\n"
          "def _pcpu():\n"
          "    r = resource.getrusage(resource.RUSAGE_SELF)\n"
          "    return r.ru_utime + r.ru_stime\n"
          "_load, _reached = _i.load_batch, _s.reached\n"
          "def _timed_load(*a, **k):\n"
          "    t = time.thread_time()\n"
          "    try:\n"
          "        return _load(*a, **k)\n"
          "    finally:\n"
          "        _got['writer'] += time.thread_time() - t\n"
          "def _step(name):\n"
          "    if name == 'import.rows-loaded':\n"
          "        _got['loaded'] = _pcpu()\n"
          "    _reached(name)\n"
          "_i.load_batch, _s.reached = _timed_load, _step\n"
          "atexit.register(lambda: sys.stderr.write("
          "f\"\\nJOBS-PHASES {_got['writer']} {_got['loaded']}\\n\"))\n")


@dataclass
class Run:
    """One whole import: wall seconds, CPU seconds of this process and of its workers, of
    the DuckDB writer thread, and of this process when the rows were in (the tail after)."""

    wall: float
    parent: float
    workers: float
    writer: float
    loaded: float

    @property
    def tail(self) -> float:
        """CPU seconds of the steps after the rows were in."""
        return self.parent - self.loaded

    def projected(self, threads: int) -> tuple[float, float]:
        """Wall seconds on two idle cores (see the module's doc): at best, at worst."""
        if self.workers:
            load = max(self.loaded, (self.loaded + self.workers) / 2)
        else:
            load = max(self.loaded - self.writer, self.writer)
        return load + self.tail / threads, load + self.tail


def whole(cmd: list[str]) -> Run:
    """One run of ``cmd`` (arguments of :data:`jobs.WRAPPED`), timed."""
    t = time.perf_counter()
    res = subprocess.run([sys.executable, "-c", PHASES + WRAPPED, *cmd], capture_output=True,
                         env=bench_env(), cwd=tempfile.gettempdir())
    wall = time.perf_counter() - t
    if res.returncode not in (0, 1):
        raise SystemExit(res.stderr.decode()[-2000:])
    lines = res.stderr.decode().splitlines()
    cpu = [ln for ln in lines if ln.startswith("JOBS-CPU ")][-1].split()[1:]
    phases = [ln for ln in lines if ln.startswith("JOBS-PHASES ")][-1].split()[1:]
    return Run(wall, float(cpu[0]), float(cpu[1]), float(phases[0]), float(phases[1]))


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
    best: dict[str, Run] = {}
    loads: list[float] = []
    tables: dict[str, dict[str, int]] = {}
    for r in range(args.repeat):
        got: dict[str, Run] = {}
        for name, (how, jobs) in modes.items():
            db = work / f"{how}-{jobs}-{r}.duckdb"
            loads.append(os.getloadavg()[0])
            got[name] = whole([how, "import", str(big), "--db", str(db), "--jobs", jobs,
                               "--quiet"])
            loads.append(os.getloadavg()[0])
            tables[name] = counts(db)
            db.unlink()
            if name not in best or got[name].wall < best[name].wall:
                best[name] = got[name]  # the best wall
        one = got["--jobs 1"]
        print(f"  round {r + 1}: " + ", ".join(
            f"{n} {g.wall:.1f} s wall ({one.wall / g.wall:.2f}x), CPU {g.parent:.1f} + "
            f"{g.workers:.1f} s" for n, g in got.items()))
        lo, hi = got["--jobs 2 forced"].projected(2)
        base = one.projected(1)[0]
        print(f"    projected on 2 idle cores (this round): --jobs 1 {base:.1f} s, --jobs 2 "
              f"forced {lo:.1f}-{hi:.1f} s ({base / hi:.2f}x-{base / lo:.2f}x)")
    if len({tuple(sorted(t.items())) for t in tables.values()}) != 1:
        raise SystemExit(f"the databases differ: {tables}")
    print(f"\nwhole processes, import of {tables['--jobs 1']['games']:,} games (best wall of "
          f"{args.repeat}; load average {min(loads):.1f}-{max(loads):.1f}):")
    one = best["--jobs 1"]
    serial = one.parent
    for name, g in best.items():
        cpu = g.parent + g.workers
        print(f"  {name:<16} wall {g.wall:7.2f} s ({one.wall / g.wall:.2f}x)   CPU {cpu:7.2f} s "
              f"({cpu / serial:.2f}x --jobs 1's): this process {g.parent:6.2f} s "
              f"(writer {g.writer:5.2f}, tail {g.tail:5.2f}), workers {g.workers:6.2f} s")
    forced = best["--jobs 2 forced"]
    print(f"  this process's CPU, --jobs 2 forced: {one.parent / forced.parent:.2f}x less than "
          f"--jobs 1's")
    print("  projected wall on 2 idle cores from the phases' CPU (best-worst):")
    base = one.projected(1)
    for name, g in best.items():
        lo, hi = g.projected(1 if name == "--jobs 1" else 2)
        print(f"    {name:<16} {lo:7.2f}-{hi:7.2f} s, {base[0] / hi:.2f}x-{base[0] / lo:.2f}x "
              f"--jobs 1's {base[0]:.2f} s")
    work.rmdir()


if __name__ == "__main__":
    main()
