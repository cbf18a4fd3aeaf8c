"""Whether ``--jobs 2`` pays, measured in CPU time: what one game costs one process, what it
costs a worker and what it still costs the process that takes the worker's part back.

Usage::

    .venv/bin/python benchmarks/jobs.py                      # intl_2000 x 10 (20,000 games)
    .venv/bin/python benchmarks/jobs.py --games 100000 --repeat 3 --whole

In one process, on one core (CPU time, so a loaded machine inflates all three alike):

* *serial*: ``pdnkit.validate(path, light=True)`` as ``pdnkit validate --jobs 1`` runs it;
* *worker*: every part of the file (:func:`pdnkit.validation.jobs.file_parts`) read and
  replayed as a worker reads it (:func:`pdnkit.validation.parts.span_work`, with the
  worker's garbage-collector settings, :func:`pdnkit.validation.parts.worker_start`) and
  pickled, as the pool sends it back;
* *parent*: the pickled parts loaded and put in file order
  (:class:`pdnkit.validation.parts.FileOrder`), as this process takes them back.

From these it prints the projected speed-up on ``N`` idle cores, ``serial / max(parent,
(worker + parent) / N)``, and the parent's share of the serial cost (the cost model's
``PARENT_SHARE``). ``--whole`` also times whole processes, ``pdnkit validate --jobs 1`` and
``--jobs 2`` as the user runs them (the cost model deciding) and ``--jobs 2`` with workers
forced (the decision overridden): wall and CPU of the process tree, with the load average.
"""

from __future__ import annotations

import argparse
import gc
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from validate import DEFAULT_FILE, bench_env, replicated  # noqa: E402 - the script beside

#: the command line with the workers' decision forced to yes (a busy machine then shows
#: what the workers cost, not the cost model's refusal)
FORCED = ("import sys; import pdnkit.validation.costs as c; "
          "c.workers_pay = lambda *a, **k: True; "
          "c.Probe.busy = lambda self, a, b: None; c.Probe.slower = lambda self, g, s: False; "
          "from pdnkit.launch import main; sys.argv[0] = 'pdnkit'; sys.exit(main())")


def in_process(path: Path) -> dict[str, float]:
    """CPU seconds a game: serial, worker, parent (see the module doc)."""
    from pdnkit.validation import validate
    from pdnkit.validation.collect import Reports
    from pdnkit.validation.jobs import file_parts
    from pdnkit.validation.parts import FileOrder, WorkContext, span_work

    try:
        from pdnkit.validation.parts import worker_start
    except ImportError:  # an earlier tree (benchmarks/lean.py): its workers' own settings
        worker_start = None
    from pdnkit.validation.pipeline import file_guess_of
    from pdnkit.validation.runoptions import RunOptions

    sum(1 for _ in validate(path, light=True))  # warm: tables, caches, the parser
    t = time.process_time()
    games = sum(1 for _ in validate(path, light=True))
    serial = time.process_time() - t
    opts = RunOptions(light=True)
    spans = file_parts(path, opts)
    if spans is None:
        raise SystemExit(f"{path} is not cut into parts (the pure core, or not plain UTF-8)")
    ctx = WorkContext(str(path), "utf-8", opts, file_guess_of(path, opts), Reports)
    gc_was = gc.get_threshold()
    if worker_start is not None:
        worker_start()  # (as the pool's initializer sets a worker up: undone below)
    try:
        t = time.process_time()
        blobs = [pickle.dumps(span_work(s, ctx)) for s in spans]
        worker = time.process_time() - t
    finally:
        gc.unfreeze()
        gc.set_threshold(*gc_was)
    t = time.process_time()
    order = FileOrder(str(path), Reports)
    back = sum(len(rows) for b in blobs for rows in order.take(pickle.loads(b)))
    parent = time.process_time() - t
    assert back == games, (back, games)
    return {"games": games, "serial": serial / games, "worker": worker / games,
            "parent": parent / games, "bytes": sum(map(len, blobs)) / games}


def whole(cmd: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (the process tree) of one command."""
    import resource

    def cpu() -> float:
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        return ru.ru_utime + ru.ru_stime

    c, t = cpu(), time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, env=bench_env(), cwd=tempfile.gettempdir())
    if res.returncode not in (0, 1):
        raise SystemExit(res.stderr.decode()[-2000:])
    return time.perf_counter() - t, cpu() - c


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", type=Path, default=DEFAULT_FILE)
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--whole", action="store_true", help="time whole processes too")
    args = ap.parse_args()
    text = args.file.read_text(encoding="utf-8")
    per_file = text.count("[Event ")
    big = replicated(args.file, max(1, args.games // per_file))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {big.name}")
    best: dict[str, float] = {}
    for _ in range(args.repeat):
        got = in_process(big)
        for k, v in got.items():
            best[k] = min(best.get(k, v), v)
    s, w, p = best["serial"], best["worker"], best["parent"]
    print(f"\nin process, CPU us a game (best of {args.repeat}, {int(best['games']):,} games):")
    print(f"  serial {s * 1e6:8.1f}   worker {w * 1e6:8.1f} ({w / s:.2f}x serial)   "
          f"parent {p * 1e6:8.1f} ({p / s:.2f} of serial: PARENT_SHARE)   "
          f"{best['bytes']:.0f} bytes a game cross")
    for cores in (2, 4):
        print(f"  projected --jobs {cores} on {cores} idle cores: "
              f"{s / max(p, (w + p) / cores):.2f}x --jobs 1")
    if not args.whole:
        return
    out = Path(tempfile.mkdtemp(prefix="pdnkit-jobs-")) / "out.jsonl"
    base = ["validate", str(big), "--format", "jsonl", "--out", str(out), "--quiet"]
    cmds = {"--jobs 1": [sys.executable, "-m", "pdnkit", *base, "--jobs", "1"],
            "--jobs 2": [sys.executable, "-m", "pdnkit", *base, "--jobs", "2"],
            "--jobs 2 forced": [sys.executable, "-c", FORCED, *base, "--jobs", "2"]}
    times: dict[str, tuple[float, float]] = {}
    for _ in range(args.repeat):
        for name, cmd in cmds.items():
            wall, cpu = whole(cmd)
            w0, c0 = times.get(name, (wall, cpu))
            times[name] = (min(w0, wall), min(c0, cpu))
    print(f"\nwhole processes, validate (best of {args.repeat}; load average "
          f"{os.getloadavg()[0]:.1f}):")
    one = times["--jobs 1"]
    for name, (wall, cpu) in times.items():
        print(f"  {name:<16} wall {wall:6.2f} s ({one[0] / wall:.2f}x)   CPU {cpu:6.2f} s "
              f"({cpu / one[1]:.2f}x --jobs 1's)")
    out.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
