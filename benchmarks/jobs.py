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
import itertools
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

#: a whole ``pdnkit`` process that says, as it ends, the CPU seconds of itself and of its
#: workers (on standard error); with ``forced`` as its first argument the workers' decision
#: is forced to yes (a busy machine then shows what the workers cost, not the cost model's
#: refusal)
WRAPPED = ("import atexit, resource, sys\n"
           "def _cpu():\n"
           "    s = resource.getrusage(resource.RUSAGE_SELF)\n"
           "    c = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
           "    sys.stderr.write(f'\\nJOBS-CPU {s.ru_utime + s.ru_stime} "
           "{c.ru_utime + c.ru_stime}\\n')\n"
           "atexit.register(_cpu)\n"
           "if sys.argv.pop(1) == 'forced':\n"
           "    import pdnkit.validation.costs as c\n"
           "    c.workers_pay = lambda *a, **k: True\n"
           "    c.Probe.busy = lambda self, a, b: None\n"
           "    c.Probe.slower = lambda self, g, s: False\n"
           "from pdnkit.launch import main\n"
           "sys.argv[0] = 'pdnkit'\n"
           "sys.exit(main())\n")


def _style() -> object:
    """The JSONL digest ``pdnkit validate --format jsonl`` fills (None before digests)."""
    try:
        from pdnkit.lean.digest import Style
        from pdnkit.lean.validate import CSV_FIELDS, Summary, csv_rows
    except ImportError:  # an earlier tree: reports cross, the parent renders
        return None
    return Style("jsonl", counter=Summary, csv_rows=csv_rows, fields=tuple(CSV_FIELDS))


def in_process(path: Path) -> dict[str, float]:
    """CPU seconds a game: serial, worker, parent (see the module doc)."""
    import io
    import json
    from functools import partial

    from pdnkit.validation.collect import Reports
    from pdnkit.validation.flow import run
    from pdnkit.validation.jobs import file_parts
    from pdnkit.validation.parts import FileOrder, WorkContext, span_work

    try:
        from pdnkit.validation.parts import worker_start
    except ImportError:  # an earlier tree (benchmarks/lean.py): its workers' own settings
        worker_start = None
    from pdnkit.validation.pipeline import file_guess_of
    from pdnkit.validation.runoptions import RunOptions

    style = _style()
    opts = RunOptions(light=True)
    if style is not None:
        from pdnkit.lean.digest import Digest, merge

        rows = partial(Digest, style)
        counts = style.counter  # type: ignore[attr-defined]

        def write(parts, out):  # type: ignore[no-untyped-def]
            total, games = counts(), 0
            for part in parts:
                merge(total, part.summary)
                out.write(part.text())
                games += part.games_count
            return games
    else:
        rows = Reports

        def write(parts, out):  # type: ignore[no-untyped-def]
            games = 0
            for part in parts:
                for rep in part:
                    out.write(json.dumps(rep.to_dict(), ensure_ascii=False) + "\n")
                    games += 1
            return games

    write(run(path, opts, rows), io.StringIO())  # warm: tables, caches, the parser
    t = time.process_time()
    games = write(run(path, opts, rows), io.StringIO())
    serial = time.process_time() - t
    spans = file_parts(path, opts)
    if spans is None:
        raise SystemExit(f"{path} is not cut into parts (the pure core, or not plain UTF-8)")
    ctx = WorkContext(str(path), "utf-8", opts, file_guess_of(path, opts), rows)
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
    order = FileOrder(str(path), rows)
    taken = (r for b in blobs for r in order.take(pickle.loads(b)))
    flush = getattr(order, "flush", lambda: iter(()))  # (an earlier tree: none)
    back = write(itertools.chain(taken, (r for r in flush())), io.StringIO())
    parent = time.process_time() - t
    assert back == games, (back, games)
    return {"games": games, "serial": serial / games, "worker": worker / games,
            "parent": parent / games, "bytes": sum(map(len, blobs)) / games}


def whole(cmd: list[str]) -> tuple[float, float, float]:
    """Wall seconds of one command (:data:`WRAPPED`), and the CPU seconds of its process
    and of its workers."""
    t = time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, env=bench_env(), cwd=tempfile.gettempdir())
    wall = time.perf_counter() - t
    if res.returncode not in (0, 1):
        raise SystemExit(res.stderr.decode()[-2000:])
    last = [ln for ln in res.stderr.decode().splitlines() if ln.startswith("JOBS-CPU ")][-1]
    parent, workers = map(float, last.split()[1:])
    return wall, parent, workers


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
    cmds = {"--jobs 1": [sys.executable, "-c", WRAPPED, "plain", *base, "--jobs", "1"],
            "--jobs 2": [sys.executable, "-c", WRAPPED, "plain", *base, "--jobs", "2"],
            "--jobs 2 forced": [sys.executable, "-c", WRAPPED, "forced", *base, "--jobs", "2"]}
    times: dict[str, tuple[float, float, float]] = {}
    loads = []
    for _ in range(args.repeat):
        for name, cmd in cmds.items():
            got = whole(cmd)
            loads.append(os.getloadavg()[0])
            times[name] = min(times.get(name, got), got)  # the best wall
    print(f"\nwhole processes, validate --format jsonl (best wall of {args.repeat}; load "
          f"average {min(loads):.1f}-{max(loads):.1f}):")
    one = times["--jobs 1"]
    for name, (wall, parent, workers) in times.items():
        cpu = parent + workers
        print(f"  {name:<16} wall {wall:6.2f} s ({one[0] / wall:.2f}x)   CPU {cpu:6.2f} s "
              f"({cpu / (one[1] + one[2]):.2f}x --jobs 1's): this process {parent:5.2f} s, "
              f"workers {workers:5.2f} s")
    forced = times["--jobs 2 forced"]
    serial = one[1] + one[2]
    print(f"  projected on 2 idle cores from CPU: --jobs 2 forced "
          f"{serial / max(forced[1], sum(forced[1:]) / 2):.2f}x --jobs 1")
    out.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
