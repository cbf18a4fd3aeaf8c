"""Streaming output and a quick start, measured as a user runs the commands (whole processes).

On a database of ``--games`` random international games (``benchmarks/randomgames.py``,
imported once; ``--db`` keeps or reuses it), prints:

* ``pdnkit query "SELECT * FROM moves" | head -3``: seconds to the third line and to the
  program's end after the reader went away, against ``pdnkit query "SELECT 1"`` (the fixed
  cost of starting the program and opening the database);
* the whole ``moves`` table to CSV (``--out moves.csv``, and to standard output): seconds, the
  rows and bytes written, and the program's peak memory (``ru_maxrss`` of the process);
* ``pdnkit validate`` of a 10-game file against ``python3 -c pass``, best of ``--repeat``;
* the machine's load average before and after.

    python benchmarks/stream.py                      # 20,000 games
    python benchmarks/stream.py --games 2000 --db /tmp/g.duckdb
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PDNKIT = [sys.executable, "-m", "pdnkit"]


def _env() -> dict[str, str]:
    """The children's environment: bytecode cached, as an installed package runs (without
    it every start compiles pdnkit's sources again: about half of a short command's time)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _run(args: list[str], stdout: int | None = subprocess.DEVNULL) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system) and peak memory (KB) of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=stdout, stderr=subprocess.DEVNULL, env=_env())
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return (time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)


def head(args: list[str], lines: int = 3) -> tuple[float, float, float, int]:
    """``args | head -LINES``: seconds to the last line read, seconds to the program's end,
    its CPU seconds and its exit status."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env=_env())
    assert proc.stdout is not None
    for _ in range(lines):
        proc.stdout.readline()
    seen = time.perf_counter() - start
    proc.stdout.close()
    _, status, usage = os.wait4(proc.pid, 0)
    return (seen, time.perf_counter() - start, usage.ru_utime + usage.ru_stime,
            os.waitstatus_to_exitcode(status))


def make_db(games: int, db: Path) -> None:
    if db.exists():
        return
    pdn = db.with_suffix(".pdn")
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "randomgames.py"), str(games),
                    str(pdn)], check=True, env=_env())
    subprocess.run([*PDNKIT, "import", str(pdn), "--db", str(db), "--quiet"], env=_env(),
                   check=False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--db", type=Path, default=None)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--skip-csv", action="store_true", help="leave out the whole-table CSV")
    a = ap.parse_args()
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        db = a.db or Path(tmp) / "games.duckdb"
        make_db(a.games, db)
        moves = [*PDNKIT, "query", "SELECT * FROM moves", "--db", str(db)]
        one = [*PDNKIT, "query", "SELECT 1", "--db", str(db)]
        for label, args in (("text", moves), ("csv", [*moves, "--format", "csv"])):
            runs = [head(args) for _ in range(a.repeat)]
            best = min(runs)
            print(f"query moves ({label}) | head -3: third line {best[0]:.3f} s, end "
                  f"{best[1]:.3f} s, CPU {best[2]:.3f} s, exit {best[3]} (best of {a.repeat})")
        base = min(_run(one) for _ in range(a.repeat))
        print(f"query 'SELECT 1' (fixed cost): {base[0]:.3f} s, CPU {base[1]:.3f} s")
        if not a.skip_csv:
            out = Path(tmp) / "moves.csv"
            wall, cpu, peak = _run([*moves, "--out", str(out)])
            lines = sum(1 for _ in out.open("rb")) - 1
            print(f"moves -> CSV file: {lines:,} rows, {out.stat().st_size / 1e6:.1f} MB in "
                  f"{wall:.1f} s (CPU {cpu:.1f} s), peak memory {peak / 1024:.0f} MB")
            wall, cpu, peak = _run([*moves, "--format", "csv"])
            print(f"moves -> CSV on stdout: {wall:.1f} s (CPU {cpu:.1f} s), peak memory "
                  f"{peak / 1024:.0f} MB")
        small = Path(tmp) / "ten.pdn"
        with db.with_suffix(".pdn").open(encoding="utf-8") as f:
            text = f.read(200_000)
        games = text.split('[Event "')[1:11]
        small.write_text("".join('[Event "' + g for g in games), encoding="utf-8")
        validate = min(_run([*PDNKIT, "validate", str(small), "-q"])
                       for _ in range(a.repeat))
        validate_cpu = min(_run([*PDNKIT, "validate", str(small), "-q"])[1]
                           for _ in range(a.repeat))
        bare = min(_run([sys.executable, "-c", "pass"]) for _ in range(a.repeat))
        print(f"validate of 10 games: {validate[0]:.3f} s (CPU {validate_cpu:.3f} s); "
              f"python -c pass {bare[0]:.3f} s (CPU {bare[1]:.3f} s): "
              f"{validate[0] / bare[0]:.1f}x wall, "
              f"{validate_cpu / max(bare[1], 0.001):.1f}x CPU")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
