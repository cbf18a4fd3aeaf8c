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

``--steps``: this tree alone, each case in its own process, where the time goes: the imports
and the database's open, then the first search (a fresh process's) and the best of
``--repeat`` warm ones, each split into the candidate games (the summaries' test), the
positions read (the hits) and the hits' games, moves and FEN (CPU and wall), as plain
tables (the CLI's quick form: pandas not imported).

    python benchmarks/search_sides.py --db r1m.duckdb --steps --repeat 3
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


STEPS = r"""
import json, resource, sys, time
t0 = time.perf_counter()
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
import duckdb
import pdnkit.stats.searchrun as run
from pdnkit.stats.search import search_table
db, repeat, kw = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
con = duckdb.connect(db, read_only=True)
con.execute("SET enable_progress_bar = false")
start = {"wall": time.perf_counter() - t0, "cpu": cpu()}
spent = {}
def timed(name, f):
    def g(*a, **k):
        t, c = time.perf_counter(), cpu()
        try:
            return f(*a, **k)
        finally:
            w, u = spent.get(name, (0.0, 0.0))
            spent[name] = (w + time.perf_counter() - t, u + cpu() - c)
    return g
run._candidates = timed("candidates", run._candidates)
run._rows = timed("rows", run._rows)
def once():
    spent.clear()
    t, c = time.perf_counter(), cpu()
    n = len(search_table(con, **kw))
    out = {"total": (time.perf_counter() - t, cpu() - c), "hits": n}
    out.update(spent)
    cw, cc = spent.get("candidates", (0.0, 0.0))
    rw, rc = spent.get("rows", (0.0, 0.0))
    out["positions"] = (out["total"][0] - cw - rw, out["total"][1] - cc - rc)
    return out
first = once()
best = min((once() for _ in range(repeat)), key=lambda o: o["total"][1])
print(json.dumps({"start": start, "first": first, "warm": best}))
"""


def steps(db: Path, repeat: int, cases: list[tuple[str, dict[str, object]]]) -> None:
    """Where the time of each case goes in this tree (``--steps``)."""
    print(f"{'steps: CPU / wall s':34s} {'start':>11s} {'candidates':>11s} {'positions':>11s} "
          f"{'rows':>11s} {'total':>11s}")
    for name, kw in cases:
        out = json.loads(subprocess.run(
            [sys.executable, "-c", STEPS, str(db), str(repeat), json.dumps(kw)], cwd=ROOT,
            env=dict(os.environ, PYTHONPATH=str(ROOT)), check=True, capture_output=True,
            text=True).stdout.strip().splitlines()[-1])
        st = out["start"]
        for which in ("first", "warm"):
            o = out[which]
            cells = [f"{o[k][1]:.2f}/{o[k][0]:.2f}" if k in o else "-"
                     for k in ("candidates", "positions", "rows", "total")]
            head = f"{st['cpu']:.2f}/{st['wall']:.2f}" if which == "first" else ""
            print(f"  {name if which == 'first' else '':32s} {head:>11s} "
                  + " ".join(f"{c:>11s}" for c in cells) + f"  {which} ({o['hits']} rows)",
                  flush=True)


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
    ap.add_argument("--base", type=Path, help="the other source tree (not for --steps)")
    ap.add_argument("--base-db", type=Path, help="the database the other tree reads")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", action="append", default=[], help="cases whose name holds this")
    ap.add_argument("--no-fresh", action="store_true", help="warm timings only")
    ap.add_argument("--steps", action="store_true", help="this tree's steps, timed one by one")
    args = ap.parse_args()
    cases = [(n, kw) for n, kw in CASES if not args.only or any(o in n for o in args.only)]
    if args.steps:
        print(f"load average before: {os.getloadavg()}", flush=True)
        steps(args.db, args.repeat, cases)
        print(f"load average after: {os.getloadavg()}", flush=True)
        return
    if args.base is None:
        ap.error("--base is needed to compare two trees")
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
