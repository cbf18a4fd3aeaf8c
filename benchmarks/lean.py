"""The validator's CPU a game, this tree against an earlier commit, side by side in one run.

Usage::

    .venv/bin/python benchmarks/lean.py                          # against main, 20,000 games
    .venv/bin/python benchmarks/lean.py --base 0b69586 --games 100000 --repeat 5
    .venv/bin/python benchmarks/lean.py --whole --games 100000   # and whole processes

For each tree (this one, and ``--base`` taken out of git with its own compiled core, as
``benchmarks/speed.py`` builds it) a fresh process measures, in CPU time (user + system, so a
loaded machine inflates both trees alike; the runs alternate, best of ``--repeat``):

* *serial*: ``pdnkit.validate(light=True)`` of intl_2000 repeated to ``--games`` games, as
  ``pdnkit validate --jobs 1`` runs it (microseconds a game; games a second);
* *worker* and *parent*: ``benchmarks/jobs.py``'s split of ``--jobs 2``: a part read,
  replayed and pickled as a worker does it, and taken back here; from them the projected
  speed-up of two workers on two idle cores, ``serial / max(parent, (worker + parent) / 2)``.

``--whole`` also times ``pdnkit validate --jobs 1`` and ``--jobs 2`` of the same file as
whole processes of each tree: wall and CPU seconds of the process tree and the wall ratio
(a busy machine shows the cost model declining the workers, not their speed). The load
average is printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from speed import base_tree  # noqa: E402 - the scripts beside this one
from validate import DEFAULT_FILE, bench_env, replicated  # noqa: E402

#: run in a fresh process of a tree: benchmarks/jobs.py's split, as JSON
PROBE = ("import json, sys; sys.path.insert(0, sys.argv[1]); import jobs; "
         "from pathlib import Path; print(json.dumps(jobs.in_process(Path(sys.argv[2]))))")


def probe(tree: Path, path: Path) -> dict[str, float]:
    """benchmarks/jobs.py's CPU split of ``path`` in a fresh process of ``tree``."""
    env = {**bench_env(), "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-c", PROBE, str(HERE), str(path)], env=env,
                         cwd=str(tree), capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(out.stderr[-2000:])
    got: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return got


def whole(tree: Path, path: Path, jobs: int) -> tuple[float, float]:
    """Wall and CPU seconds of ``pdnkit validate PATH --jobs N`` run from ``tree``."""
    import resource

    def cpu() -> float:
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        return ru.ru_utime + ru.ru_stime

    env = {**bench_env(), "PYTHONPATH": str(tree)}
    cmd = [sys.executable, "-c", "import sys; from pdnkit.launch import main; "
           "sys.argv[0] = 'pdnkit'; sys.exit(main())", "validate", str(path), "--jobs",
           str(jobs), "--format", "jsonl", "--output", os.devnull]
    c, t = cpu(), time.perf_counter()
    res = subprocess.run(cmd, env=env, cwd=str(tree), capture_output=True)
    if res.returncode not in (0, 1):
        raise SystemExit(res.stderr.decode()[-2000:])
    return time.perf_counter() - t, cpu() - c


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="main", help="the earlier commit (default: main)")
    ap.add_argument("--file", type=Path, default=DEFAULT_FILE)
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--whole", action="store_true", help="time whole processes too")
    args = ap.parse_args()
    per_file = args.file.read_text(encoding="utf-8").count("[Event ")
    big = replicated(args.file, max(1, args.games // per_file))
    trees = {"base": base_tree(args.base), "this": ROOT}
    load0 = os.getloadavg()[0]
    best: dict[str, dict[str, float]] = {name: {} for name in trees}
    for _ in range(args.repeat):
        for name, tree in trees.items():
            for k, v in probe(tree, big).items():
                best[name][k] = min(best[name].get(k, v), v)
    print(f"{big.name}: {int(best['this']['games']):,} games; base {args.base}; "
          f"CPU us a game, best of {args.repeat}")
    print(f"{'':6}{'serial':>9}{'games/s':>9}{'worker':>9}{'parent':>9}{'bytes':>7}"
          f"{'--jobs 2 projected':>20}")
    for name, b in best.items():
        s, w, p = b["serial"], b["worker"], b["parent"]
        print(f"{name:6}{s * 1e6:9.1f}{1 / s:9,.0f}{w * 1e6:9.1f}{p * 1e6:9.1f}"
              f"{b['bytes']:7.0f}{s / max(p, (w + p) / 2):19.2f}x")
    b, t = best["base"], best["this"]
    print(f"this/base: serial {t['serial'] / b['serial']:.2f}, worker "
          f"{t['worker'] / b['worker']:.2f}, parent {t['parent'] / b['parent']:.2f}")
    if args.whole:
        print("\nwhole processes, pdnkit validate --format jsonl (wall s / CPU s):")
        for name, tree in trees.items():
            runs = {j: min((whole(tree, big, j) for _ in range(args.repeat)),
                           key=lambda r: r[0]) for j in (1, 2)}
            (w1, c1), (w2, c2) = runs[1], runs[2]
            print(f"  {name:6}--jobs 1 {w1:6.2f} / {c1:6.2f}   --jobs 2 {w2:6.2f} / {c2:6.2f}"
                  f"   wall ratio {w1 / w2:.2f}x")
    print(f"load average before {load0:.2f}, after {os.getloadavg()[0]:.2f} "
          f"({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
