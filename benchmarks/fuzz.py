"""Fuzz the whole pipeline in bulk (issue 16, "Proof"): N seeded mutations of the shared real
files (``../shared/data/real``; generated games when absent) through read_games, validate
(jobs=1) and, every 8th case, import_files into a fresh DuckDB, each in a watchdog worker
(``tests/fuzzing.py``). Prints the number of cases run, the failures (an escaped exception,
a timeout, memory over 20 x input + 200 MB, a changed neighbouring game), the slowest case
(kind, size, seconds), the peak memory growth and the largest input tried.

Run::

    PYTHONPATH=. .venv/bin/python benchmarks/fuzz.py N [--seed S] [--scale X] [--timeout T]

``--scale`` multiplies the size of huge tokens, digit runs and nesting (1.0: 1-3 MB tokens).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fuzzing import (  # noqa: E402 - after the path set-up
    Outcome,
    Runner,
    case_ok,
    describe,
    generated_windows,
    make_cases,
    neighbours_changed,
    real_windows,
)

REAL = ROOT.parent / "shared" / "data" / "real"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, help="number of cases")
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--timeout", type=float, default=20.0)
    args = ap.parse_args()

    windows = real_windows(REAL) if REAL.is_dir() else []
    corpus = "shared real files" if windows else "generated games"
    windows += generated_windows()
    print(f"{len(windows)} windows of 7 games ({corpus}); {args.n} cases, seed {args.seed}, "
          f"scale {args.scale}, time bound {args.timeout:.0f} s", flush=True)
    runner = Runner(args.timeout)
    baseline: dict[str, Outcome] = {}
    run = failures = 0
    slowest: tuple[float, str, int] = (0.0, "", 0)
    peak: tuple[int, str, int] = (0, "", 0)
    largest: tuple[int, str] = (0, "")
    start = time.perf_counter()
    try:
        for case in make_cases(windows, args.n, seed=args.seed, scale=args.scale):
            if case.window.name not in baseline:
                baseline[case.window.name] = runner.run(case.window.data)
            out = runner.run(case.data, case.db)
            run += 1
            problem = case_ok(case, out) or neighbours_changed(
                case, baseline[case.window.name], out)
            if problem:
                failures += 1
                print(f"FAIL {describe(case)}: {problem.strip().splitlines()[-1]}", flush=True)
            size = len(case.data)
            if out.seconds > slowest[0]:
                slowest = (out.seconds, case.kind, size)
            if out.rss_growth > peak[0]:
                peak = (out.rss_growth, case.kind, size)
            if size > largest[0]:
                largest = (size, case.kind)
            if run % 100 == 0:
                print(f"... {run} cases, {failures} failures, "
                      f"{time.perf_counter() - start:.0f} s", flush=True)
    finally:
        runner.close()
    print(f"cases run: {run} ({failures} failures) in {time.perf_counter() - start:.0f} s")
    print(f"slowest case: {slowest[1]}, {slowest[2]:,} bytes, {slowest[0]:.2f} s")
    print(f"peak memory growth: {peak[0] / 2**20:.0f} MB ({peak[1]}, {peak[2]:,} bytes)")
    print(f"largest input: {largest[0]:,} bytes ({largest[1]})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
