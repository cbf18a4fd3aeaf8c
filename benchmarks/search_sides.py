"""Pattern searches of two source trees side by side on one database: CPU and wall.

For each case, warm (one process per tree: one open read-only connection, a warm-up run,
then the best of ``--repeat``) and as a fresh ``pdnkit search`` process (best of
``--repeat``), the trees alternated so both see the same load; prints CPU seconds (user +
system, DuckDB's threads included), wall seconds, the ratio of the CPU of this tree to the
other's, and the load average before and after.

    python benchmarks/search_sides.py --db r1m.duckdb --base ../main
    python benchmarks/search_sides.py --db r1m.duckdb --base ../main --only limit --repeat 5
    python benchmarks/search_sides.py --db r1m-10.duckdb --base-db r1m-9.duckdb --base ../main

``--base-db``: the other tree reads this database instead (the same games in the schema that
tree writes, when a schema step lies between them: ``pdnkit upgrade`` of a copy).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CASES: list[tuple[str, dict[str, object]]] = [
    ("W28,K33:B19:E23", {"pattern": "W28,K33:B19:E23"}),
    ("WK1:BK50", {"pattern": "WK1:BK50"}),
    ("W22-23,27-28:B17-19", {"pattern": "W22-23,27-28:B17-19"}),
    ("W28,K33:B19:E23 --mirror", {"pattern": "W28,K33:B19:E23", "mirror": True}),
    ("W28:B19:E23 --limit 20", {"pattern": "W28:B19:E23", "limit": 20}),
    ("W28:B19:E23 --first --limit 50", {"pattern": "W28:B19:E23", "first": True,
                                        "limit": 50}),
]

WARM = r"""
import json, resource, sys, time
import duckdb
import pdnkit
db, repeat, cases = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
con = duckdb.connect(db, read_only=True)
con.execute("SET enable_progress_bar = false")
out = []
for kw in cases:
    rows = len(pdnkit.search(con, **kw))
    wall = c = float("inf")
    for _ in range(repeat):
        t, t0 = time.perf_counter(), cpu()
        pdnkit.search(con, **kw)
        wall, c = min(wall, time.perf_counter() - t), min(c, cpu() - t0)
    out.append({"wall": wall, "cpu": c, "rows": rows})
print(json.dumps(out))
"""


def warm(tree: Path, db: Path, repeat: int, cases: list[dict[str, object]]
         ) -> list[dict[str, float]]:
    env = dict(os.environ, PYTHONPATH=str(tree))  # (run in the tree: it comes first)
    out = subprocess.run([sys.executable, "-c", WARM, str(db), str(repeat), json.dumps(cases)],
                         env=env, cwd=tree, check=True, capture_output=True, text=True).stdout
    return list(json.loads(out.strip().splitlines()[-1]))


def args_of(kw: dict[str, object]) -> list[str]:
    out = []
    for k, v in kw.items():
        out += [f"--{k}"] if v is True else [f"--{k}", str(v)]
    return out


def fresh(tree: Path, db: Path, kw: dict[str, object]) -> tuple[float, float]:
    """Wall and CPU seconds of one whole ``pdnkit search`` process (output to a pipe)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    t = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "pdnkit", "search", *args_of(kw), "--db",
                             str(db), "-f", "csv"], env=env, cwd=tree, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if status:
        sys.exit(f"pdnkit search {args_of(kw)} failed under {tree}")
    return time.perf_counter() - t, usage.ru_utime + usage.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", type=Path, required=True, help="a database to read (read-only)")
    ap.add_argument("--base", type=Path, required=True, help="the other source tree")
    ap.add_argument("--base-db", type=Path, help="the database the other tree reads")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", action="append", default=[], help="cases whose name holds this")
    ap.add_argument("--no-fresh", action="store_true", help="warm timings only")
    args = ap.parse_args()
    cases = [(n, kw) for n, kw in CASES if not args.only or any(o in n for o in args.only)]
    trees = {"this": ROOT, "base": args.base.resolve()}
    dbs = {"this": args.db, "base": args.base_db or args.db}
    print(f"load average before: {os.getloadavg()}", flush=True)
    got = {side: warm(tree, dbs[side], args.repeat, [kw for _, kw in cases])
           for side, tree in trees.items()}
    head = f"warm (best of {args.repeat})"
    print(f"{head:34s} {'base CPU':>9s} {'this CPU':>9s} "
          f"{'ratio':>6s} {'base wall':>10s} {'this wall':>10s}  rows")
    for i, (name, _) in enumerate(cases):
        b, t = got["base"][i], got["this"][i]
        print(f"  {name:32s} {b['cpu']:8.3f}s {t['cpu']:8.3f}s {t['cpu'] / b['cpu']:6.2f} "
              f"{b['wall']:9.3f}s {t['wall']:9.3f}s  {t['rows']}/{b['rows']}", flush=True)
    if not args.no_fresh:
        print(f"fresh process (best of {args.repeat}):")
        for name, kw in cases:
            best = {side: (float("inf"), float("inf")) for side in trees}
            for _ in range(args.repeat):
                for side, tree in trees.items():
                    w, c = fresh(tree, dbs[side], kw)
                    best[side] = (min(best[side][0], w), min(best[side][1], c))
            (bw, bc), (tw, tc) = best["base"], best["this"]
            print(f"  {name:32s} {bc:8.3f}s {tc:8.3f}s {tc / bc:6.2f} {bw:9.3f}s {tw:9.3f}s",
                  flush=True)
    print(f"load average after: {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
