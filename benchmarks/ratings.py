"""How fast ``pdnkit ratings`` rates a large collection.

A database of ``--games`` games among ``--players`` players over ``--years`` years is made
directly in SQL (random pairings, results and dates from a fixed seed, a tenth of the dates
partial, a twentieth of the results unknown), then ``pdnkit.stats.ratings`` rates it by Elo
and by Glicko-2 with monthly and yearly periods. Prints the time and games/s of each.

With ``--db PATH`` it measures the command instead, on that database (opened read-only), each
run in a fresh process: ``pdnkit ratings --history -f csv`` (the history written as it is
computed) and ``pdnkit ratings -f csv`` (the final list) to a file, their peak memory (the
child's ``ru_maxrss``), CPU time and wall time, and the time until the first three lines of
the history reach a pipe that then closes (``| head -3``). ``--pdnkit`` names the program
(another checkout's, to put a change's before and after side by side).

    .venv/bin/python benchmarks/ratings.py [--games 200000] [--players 2000] [--years 20]
    .venv/bin/python benchmarks/ratings.py --db /tmp/t1m-10.duckdb [--pdnkit PATH] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def make_db(path: Path, games: int, players: int, years: int, seed: int = 1) -> None:
    """The synthetic database at ``path``."""
    from pdnkit.store import connect

    con = connect(str(path))
    con.execute("INSERT INTO files VALUES (1, 'synthetic.pdn', 'x', 0, 'utf-8', ?, now())",
                [games])
    con.execute(f"""
        INSERT INTO games (game_id, file_id, game_index, variant, white, black, date,
                           date_raw, year, result, outcome, event)
        SELECT i, 1, i - 1, 'international', 'P' || w, 'P' || CASE WHEN b = w THEN (b + 1)
               % {players} ELSE b END,
               CASE WHEN i % 10 = 0 THEN NULL ELSE d END,
               CASE WHEN i % 10 = 0 THEN strftime(d, '%Y.%m.??') ELSE strftime(d, '%Y.%m.%d')
               END,
               year(d),
               CASE WHEN r < 0.35 THEN '1-0' WHEN r < 0.7 THEN '1/2-1/2' WHEN r < 0.95
                    THEN '0-1' ELSE '*' END,
               CASE WHEN r < 0.35 THEN 'white' WHEN r < 0.7 THEN 'draw' WHEN r < 0.95
                    THEN 'black' ELSE 'unknown' END,
               'Event ' || (i // 50)
        FROM (SELECT i, (hash(i, {seed}) % {players})::INT AS w,
                     (hash(i, {seed} + 1) % {players})::INT AS b,
                     (hash(i, {seed} + 2) % 1000000) / 1000000.0 AS r,
                     DATE '2000-01-01' + ((i::BIGINT * {years} * 365) // {games})::INT AS d
              FROM range(1, {games} + 1) t(i))""")
    con.close()


def run_command(argv: list[str], out: Path) -> tuple[float, float, int]:
    """``argv`` with its standard output to ``out``: wall s, CPU s (user + system), peak
    resident memory (KB) of that process alone."""
    t0 = time.perf_counter()
    with open(out, "wb") as fh:
        proc = subprocess.Popen(argv, stdout=fh, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode})")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def first_lines(argv: list[str], lines: int = 3) -> tuple[float, float]:
    """Seconds until ``lines`` lines of ``argv``'s standard output are read, and until the
    process ends once the pipe is then closed (as ``| head`` does)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    for _ in range(lines):
        proc.stdout.readline()
    took = time.perf_counter() - t0
    proc.stdout.close()
    proc.wait()
    return took, time.perf_counter() - t0


def measure_command(db: str, pdnkit: str, repeat: int) -> None:
    """The command's figures on ``db`` (see the module's text), median of ``repeat`` runs."""
    print("load average before: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print("| run | wall s | CPU s | peak MB |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, extra in (("--history -f csv", ["--history"]), ("final list -f csv", [])):
            runs = [run_command([pdnkit, "ratings", "--db", db, *extra, "-f", "csv"],
                                Path(tmp) / "out.csv") for _ in range(repeat)]
            wall, cpu, peak = (statistics.median(r[i] for r in runs) for i in range(3))
            print(f"| {name} | {wall:.1f} | {cpu:.1f} | {peak / 1024:,.0f} |")
    heads = [first_lines([pdnkit, "ratings", "--db", db, "--history", "-f", "csv"])
             for _ in range(repeat)]
    first, ended = (statistics.median(h[i] for h in heads) for i in range(2))
    print(rf"| --history -f csv \| head -3: first lines | {first:.1f} | | |")
    print(rf"| --history -f csv \| head -3: process ended | {ended:.1f} | | |")
    print("load average after: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--players", type=int, default=2_000)
    ap.add_argument("--years", type=int, default=20)
    ap.add_argument("--db", help="measure the command on this database instead")
    ap.add_argument("--pdnkit", default=str(Path(sys.executable).with_name("pdnkit")),
                    help="the program --db runs (default: this environment's)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if args.db:
        measure_command(args.db, args.pdnkit, args.repeat)
        return

    from pdnkit.stats import ratings

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "ratings.duckdb"
        t0 = time.perf_counter()
        make_db(db, args.games, args.players, args.years)
        print(f"made {args.games:,} games, {args.players:,} players, {args.years} years "
              f"in {time.perf_counter() - t0:.1f} s")
        print("| system | period | s | games rated/s | players |")
        print("|---|---|---|---|---|")
        for system in ("elo", "glicko2"):
            for period in ("month", "year"):
                t0 = time.perf_counter()
                rl = ratings(db, system=system, period=period)
                dt = time.perf_counter() - t0
                print(f"| {system} | {period} | {dt:.2f} | {rl.rated / dt:,.0f} | "
                      f"{len(rl.table):,} |")


if __name__ == "__main__":
    main()
