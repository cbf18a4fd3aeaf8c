"""What the upkeep of copies adds to an import: ``pdnkit import`` of the same file as whole
processes, alternating, once as it is and once with the copies' upkeep left out (the marks
of the games loaded, the groups computed again at the end and their count: the functions of
:mod:`pdnkit.store.copies` the import calls, replaced by no-ops in that child process only).
Prints wall and CPU seconds of each run (CPU: user and system of the child and its threads,
DuckDB's included), the medians, what the upkeep adds, and the load average before and
after (a busy machine makes wall times say little; CPU times less so).

The input is ``benchmarks/import.py``'s: ``../shared/data/bench/intl_2000.pdn`` replicated
to ``--games`` games in one file, so every game there is one of a group of copies (2,000
groups of 50 records at 100,000 games: the most work the upkeep has). ``--distinct`` gives
each replica other players instead (the same main lines by other players: groups of
"same moves, other games", never copies), the upkeep's work on a collection without copies.

    python benchmarks/copies_upkeep.py --games 100000 --rounds 2
    python benchmarks/copies_upkeep.py --games 20000 --rounds 3 --distinct
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: the child: ``pdnkit import FILE --db DB --quiet``, with or without the copies' upkeep
CHILD = r"""
import sys
mode, path, db = sys.argv[1:4]
if mode == "without":
    from pdnkit.store import copies
    copies.mark_loaded = lambda *a, **k: None
    copies.mark_removed = lambda *a, **k: None
    copies.settle_copies = lambda *a, **k: None
    copies.copy_counts = lambda *a, **k: (0, 0)
from pdnkit.launch import main
sys.argv = ["pdnkit", "import", path, "--db", db, "--quiet"]
main()
"""


def _replicate(games: int, out: Path, distinct: bool) -> int:
    spec = importlib.util.spec_from_file_location("bench_import", ROOT / "benchmarks" / "import.py")
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    n = int(bench.replicate(bench.SOURCE, games, out))
    if distinct:  # each replica's players their own: the same moves, other games
        text = out.read_text(encoding="utf-8")
        count = iter(range(10**9))
        text = re.sub(r'\[(White|Black) "([^"]*)"\]',
                      lambda m: f'[{m.group(1)} "{m.group(2)} {next(count) // 2}"]', text)
        out.write_text(text, encoding="utf-8")
    return n


def _timed(mode: str, pdn: Path, db: Path) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", CHILD, mode, str(pdn), str(db)], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)},
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(f"import ({mode}) failed with status {proc.returncode}: {proc.stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=2, help="pairs of runs")
    ap.add_argument("--distinct", action="store_true",
                    help="other players for each replica: no copies, the same moves")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} on "
          f"{os.cpu_count()} cores", flush=True)
    with tempfile.TemporaryDirectory(prefix="pdnkit-copies-") as tmp:
        pdn = Path(tmp) / "games.pdn"
        n = _replicate(args.games, pdn, args.distinct)
        print(f"input: {n} games ({'other players for each replica' if args.distinct else 'each game 1 of a group of copies'})",
              flush=True)
        got: dict[str, list[tuple[float, float]]] = {"with": [], "without": []}
        for rnd in range(1, args.rounds + 1):
            for mode in (("with", "without") if rnd % 2 else ("without", "with")):
                db = Path(tmp) / f"{mode}-{rnd}.duckdb"
                wall, cpu = _timed(mode, pdn, db)
                db.unlink(missing_ok=True)
                got[mode].append((wall, cpu))
                print(f"round {rnd} {mode:7} the upkeep: {wall:7.2f} s wall, {cpu:7.2f} s CPU, "
                      f"{n / wall:6.0f} games/s", flush=True)
    med = {m: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
           for m, v in got.items()}
    (ww, wc), (ow, oc) = med["with"], med["without"]
    print(f"\nmedian with the upkeep {ww:.2f} s wall ({wc:.2f} s CPU), without {ow:.2f} s wall "
          f"({oc:.2f} s CPU): the upkeep adds {100 * (ww / ow - 1):+.1f}% wall, "
          f"{100 * (wc / oc - 1):+.1f}% CPU (target <= 10%)")
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")


if __name__ == "__main__":
    main()
