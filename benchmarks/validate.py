"""Validation speed: ``pdnkit validate`` against py-draughts' ``Board.from_pdn``.

Usage::

    .venv/bin/python benchmarks/validate.py                 # intl_2000.pdn, best of 3
    .venv/bin/python benchmarks/validate.py --repeat 5 --jobs 1 2 4
    .venv/bin/python benchmarks/validate.py --file other.pdn
    .venv/bin/python benchmarks/validate.py --replicate 50 --jobs 1 2 0 --no-peer --hog

``--replicate N`` times a file of the games repeated N times (written to a temporary folder:
intl_2000 50 times is 100,000 games); ``--jobs 0`` is one worker per core; ``--hog`` keeps
one core busy (a process spinning on the last CPU) while pdnkit runs, as on a machine whose
second core is taken; ``--no-peer`` leaves py-draughts out (the ratios are then to
``--jobs 1``).

Both tools read the same file (default ``../shared/data/bench/intl_2000.pdn``: 2,000 random
legal international games, 184,008 plies) and are timed whole process against whole process
(interpreter start, imports, reading, replay, output): ``pdnkit validate FILE --jobs N
--format jsonl`` with its output thrown away, and a py-draughts script that cuts the file into
games and calls ``Board.from_pdn`` on each (it replays the moves and checks them, nothing
more: no findings, no results, no draw rules, no comments kept). py-draughts lives in
``benchmarks/.venv-peer`` (created on first use; its import name ``draughts`` clashes with
pydraughts, so it never goes into the project venv).

Prints games/s and plies/s for each and the ratios pdnkit/peer (best of ``--repeat`` runs,
after one untimed warm-up run of each; timings on a shared machine are noisy, repeat before
trusting a difference). Both processes run with bytecode caches, as installed packages do:
``PYTHONDONTWRITEBYTECODE`` is dropped and ``PYTHONPYCACHEPREFIX`` points to a temporary
folder, so an editable install does not recompile pdnkit's sources on every run (the peer's
venv already has its caches from pip). A last line splits pdnkit's own time in this process
into reading (streamed, records dropped as they come) and replay (light reports).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PEER_VENV = HERE / ".venv-peer"
PEER_PY = PEER_VENV / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
PDNKIT = Path(sys.executable).with_name("pdnkit")
DEFAULT_FILE = ROOT.parent / "shared" / "data" / "bench" / "intl_2000.pdn"

PEER_SCRIPT = r"""
import re, sys
from draughts import Board
text = open(sys.argv[1], encoding="utf-8").read()
games = [g for g in re.split(r"\n\s*\n(?=\[)", text) if g.strip()]
ok = plies = 0
for g in games:
    try:
        b = Board.from_pdn(g)
        ok += 1
        plies += len(b._moves_stack) if hasattr(b, "_moves_stack") else 0
    except Exception:
        pass
print(len(games), ok)
"""


def ensure_peer() -> None:
    """Create the peer venv with py-draughts once (the same venv as benchmarks/perft.py)."""
    if PEER_PY.exists():
        probe = subprocess.run([str(PEER_PY), "-c", "import draughts"], capture_output=True)
        if probe.returncode == 0:
            return
    else:
        venv.EnvBuilder(with_pip=True).create(PEER_VENV)
    subprocess.run([str(PEER_PY), "-m", "pip", "install", "-q", "py-draughts"], check=True)


def bench_env() -> dict[str, str]:
    """The environment of the timed processes: bytecode caches on, kept out of the tree."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "pdnkit-bench-pycache")
    return env


def _children_cpu() -> float:
    """CPU seconds (user + system) of every waited-for child process so far."""
    import resource

    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def timed(cmd: list[str], repeat: int) -> tuple[float, float, str]:
    """Best wall time of ``repeat`` runs of a whole process (after one warm-up run), the least
    CPU time of the process tree (workers included) over those runs, and the last stdout."""
    best = float("inf")
    cpu = float("inf")
    out = ""
    env = bench_env()
    subprocess.run(cmd, capture_output=True, text=True, env=env)  # warm-up: caches
    for _ in range(repeat):
        c = _children_cpu()
        t = time.perf_counter()
        res = subprocess.run(cmd, capture_output=True, text=True, env=env)
        dt = time.perf_counter() - t
        if res.returncode not in (0, 1):
            raise SystemExit(f"{cmd[0]} failed:\n{res.stderr[-2000:]}")
        best = min(best, dt)
        cpu = min(cpu, _children_cpu() - c)
        out = res.stdout
    return best, cpu, out


def replicated(path: Path, times: int) -> Path:
    """A file of ``path``'s games ``times`` over (a blank line between copies)."""
    out = Path(tempfile.gettempdir()) / f"pdnkit-bench-{path.stem}-x{times}.pdn"
    data = path.read_bytes().rstrip(b"\r\n") + b"\n\n"
    if not out.exists() or out.stat().st_size != len(data) * times:
        with open(out, "wb") as f:
            for _ in range(times):
                f.write(data)
    return out


#: spins on one CPU while its parent lives (a benchmark killed from outside leaves no hog)
HOG = ("import os, sys\nos.sched_setaffinity(0, {int(sys.argv[1])})\nparent = os.getppid()\n"
       "while os.getppid() == parent:\n    pass\n")


def start_hog() -> subprocess.Popen[bytes]:
    """A process spinning on the last CPU until it is stopped."""
    last = max(os.sched_getaffinity(0))
    return subprocess.Popen([sys.executable, "-c", HOG, str(last)])


def in_process_rate(path: Path, jobs: int, repeat: int = 1) -> float:
    """Games a second of ``pdnkit.validation.validate`` (light reports, as the command asks)
    in this process, imports excluded: the best of ``repeat`` runs after an untimed one, as
    the processes are timed."""
    sys.path.insert(0, str(ROOT))
    from pdnkit.validation import validate

    best = 0.0
    for k in range(repeat + 1):
        t = time.perf_counter()
        n = sum(1 for _ in validate(path, light=True, jobs=jobs))
        if k:  # (the first run warms what a process builds once: tables, caches)
            best = max(best, n / (time.perf_counter() - t))
    return best


def split_in_process(path: Path) -> dict[str, float]:
    """pdnkit's time per game in this process: reading alone (streamed, as ``validate``
    reads: keeping every record alive costs garbage-collector time that the pipeline never
    pays), then replay alone."""
    sys.path.insert(0, str(ROOT))
    from pdnkit.pdn import read_games
    from pdnkit.validation import replay

    t_read = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        for _rec in read_games(path):
            pass
        t_read = min(t_read, time.perf_counter() - t)
    records = list(read_games(path))
    t = time.perf_counter()
    for rec in records:
        replay(rec, light=True)
    t_replay = time.perf_counter() - t
    n = len(records)
    return {"games": n, "read_ms": 1000 * t_read / n, "replay_ms": 1000 * t_replay / n,
            "plies": sum(len(r.moves) for r in records)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", type=Path, default=DEFAULT_FILE)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--replicate", type=int, default=1)
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--hog", action="store_true")
    args = ap.parse_args()
    path = args.file.resolve()
    if not path.exists():
        raise SystemExit(f"no such file: {path}")
    if args.replicate > 1:
        path = replicated(path, args.replicate)

    split = split_in_process(path) if args.replicate == 1 else None
    rows = []
    if not args.no_peer:
        ensure_peer()
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as fh:
            fh.write(PEER_SCRIPT)
            peer_script = fh.name
        t_peer, cpu_peer, out = timed([str(PEER_PY), peer_script, str(path)], args.repeat)
        peer_games, peer_ok = (int(x) for x in out.split())
        rows.append(("py-draughts Board.from_pdn", t_peer, cpu_peer))
    hog = start_hog() if args.hog else None
    try:
        for jobs in args.jobs:
            cmd = [str(PDNKIT), "validate", str(path), "--jobs", str(jobs), "--format", "jsonl",
                   "--fail-on", "never", "-o",
                   str(Path(tempfile.gettempdir()) / "pdnkit-bench.jsonl")]
            t, cpu, _ = timed(cmd, args.repeat)
            rows.append((f"pdnkit validate --jobs {jobs}", t, cpu))
        rate = in_process_rate(path, 1, args.repeat)
    finally:
        if hog is not None:
            hog.kill()
    games = split["games"] if split else path.read_bytes().count(b"\n[Event ") + 1
    plies = split["plies"] if split else 0
    base, base_cpu = rows[0][1], rows[0][2]
    print(f"file: {path.name}: {games} games, {plies or '?'} plies"
          + ("" if args.no_peer else f" (py-draughts read {peer_ok}/{peer_games} games)")
          + (" -- one core kept busy by another process" if args.hog else ""))
    print(f"{'tool':32s} {'seconds':>8s} {'games/s':>9s} {'ratio':>6s} {'CPU s':>6s} "
          f"{'CPU ratio':>9s}")
    for name, t, cpu in rows:
        print(f"{name:32s} {t:8.2f} {games / t:9.0f} {base / t:6.2f} {cpu:6.2f} "
              f"{base_cpu / cpu:9.2f}")
    print(f"(ratio: wall time, to {rows[0][0]}; CPU s: user + system time of the process "
          "tree, workers included: what the run costs whatever cores other programs leave "
          "free; CPU ratio: the same ratio of CPU times, the one to trust on a busy machine)")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"pdnkit in this process: validate (light reports, one process) {rate:,.0f} games/s")
    if split:
        print("pdnkit in this process (per game): "
              f"read {split['read_ms']:.2f} ms, replay {split['replay_ms']:.2f} ms, "
              f"replay {1000 * split['replay_ms'] / max(1, plies / games):.1f} us/ply")
    print(json.dumps({"games": games, "plies": plies, "in_process_games_s": rate,
                      **{name: t for name, t, _ in rows},
                      **{f"{name} cpu": c for name, _, c in rows}}))


if __name__ == "__main__":
    main()
