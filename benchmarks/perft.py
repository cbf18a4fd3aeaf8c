"""Perft speed: pdnkit's move generators against py-draughts (pure Python bitboards).

Usage::

    .venv/bin/python benchmarks/perft.py            # international 7, russian 8
    .venv/bin/python benchmarks/perft.py --repeat 3 --intl-depth 6 --russian-depth 7

pdnkit is measured twice: the replay core (``pdnkit.core.perft``: the C extension when it is
built; the rows say which core ran) and the pure-Python rules engine (``pdnkit.rules.perft``,
the reference and the fallback). Then whole processes: ``pdnkit perft international DEPTH``
as the CLI runs it and the same count through ``pdnkit.core`` in a fresh interpreter, with
bytecode caches as an installed package has them (each after an untimed warm-up run), and
``pdnkit --version``: the program's start alone, the floor of any command.

The first run creates ``benchmarks/.venv-peer`` (a separate virtual environment with
``py-draughts``, whose import name ``draughts`` clashes with pydraughts, so it never goes into
the project venv). The peer runs in a subprocess; pdnkit runs in-process on the same positions
and depths. Both bulk-count the last ply. Prints nodes/s for each and the ratio pdnkit/peer
(best of ``--repeat`` runs each; timings on a shared machine are noisy).

py-draughts has two perft paths: ``draughts.engines.turbo.perft`` (its search engine's internal
generator, international only) and the public board API (``legal_moves`` + ``push``/``pop``,
every variant). Both are measured where they exist; the ratio uses the faster one.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
PEER_VENV = HERE / ".venv-peer"
PEER_PY = PEER_VENV / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")

PEER_SCRIPT = r"""
import json, sys, time
from draughts.boards.standard import Board as Std
from draughts.boards.russian import Board as Rus

def board_perft(board, depth):
    moves = board.legal_moves
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        board.push(m)
        total += board_perft(board, depth - 1)
        board.pop()
    return total

def best(fn, repeat):
    out = None
    for _ in range(repeat):
        t = time.perf_counter(); n = fn(); dt = time.perf_counter() - t
        if out is None or dt < out[1]:
            out = (n, dt)
    return out

cfg = json.loads(sys.argv[1])
res = {}
d = cfg["intl_depth"]
n, dt = best(lambda: board_perft(Std(), d), cfg["repeat"])
res["international/board"] = [n, dt]
try:
    from draughts.engines.turbo import perft_from_board
    n, dt = best(lambda: perft_from_board(Std(), d), cfg["repeat"])
    res["international/turbo"] = [n, dt]
except ImportError:
    pass
d = cfg["russian_depth"]
n, dt = best(lambda: board_perft(Rus(), d), cfg["repeat"])
res["russian/board"] = [n, dt]
print(json.dumps(res))
"""


def ensure_peer() -> None:
    """Create the peer venv with py-draughts once."""
    if PEER_PY.exists():
        probe = subprocess.run([str(PEER_PY), "-c", "import draughts.boards.standard"],
                               capture_output=True)
        if probe.returncode == 0:
            (PEER_VENV / ".gitignore").write_text("*\n")
            return
    print(f"creating {PEER_VENV} with py-draughts ...", file=sys.stderr)
    venv.create(PEER_VENV, with_pip=True)
    (PEER_VENV / ".gitignore").write_text("*\n")  # keep the peer venv out of git
    subprocess.run([str(PEER_PY), "-m", "pip", "install", "-q", "py-draughts"], check=True)


def run_peer(intl_depth: int, russian_depth: int, repeat: int) -> dict[str, list[float]]:
    cfg = json.dumps({"intl_depth": intl_depth, "russian_depth": russian_depth,
                      "repeat": repeat})
    out = subprocess.run([str(PEER_PY), "-c", PEER_SCRIPT, cfg], capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_ours(variant: str, depth: int, repeat: int, engine: str) -> tuple[int, float]:
    """(leaves, best seconds) of ``engine`` ("core" or "rules") on ``variant``'s start."""
    sys.path.insert(0, str(HERE.parent))
    from pdnkit import core
    from pdnkit.rules import Position, get_rules
    from pdnkit.rules import perft as rules_perft

    perft = core.perft if engine == "core" else rules_perft
    pos = Position.initial(get_rules(variant))
    best: tuple[int, float] | None = None
    for _ in range(repeat):
        t = time.perf_counter()
        n = perft(pos, depth)
        dt = time.perf_counter() - t
        if best is None or dt < best[1]:
            best = (int(n), dt)  # type: ignore[arg-type]
    assert best is not None
    return best


def bench_env() -> dict[str, str]:
    """The environment of the timed processes: bytecode caches on, as installed packages
    have them (``PYTHONDONTWRITEBYTECODE`` dropped, the caches kept in a temporary folder
    rather than the source tree), so an editable install is not recompiled on every run."""
    import os
    import tempfile

    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "pdnkit-bench-pycache")
    return env


def whole_process(depth: int, repeat: int) -> list[tuple[str, float, str]]:
    """Seconds of a whole process counting international perft ``depth``: the CLI as it is,
    and the count through pdnkit.core (what ``pdnkit perft`` runs once it calls the core)."""
    exe = Path(sys.executable)
    cli = exe.with_name("pdnkit")
    core_code = ("from pdnkit import core; from pdnkit.rules import Position, get_rules; "
                 f"print(core.perft(Position.initial(get_rules('international')), {depth}))")
    peer_code = ("from draughts.boards.standard import Board\n"
                 "def f(b, d):\n"
                 "    ms = b.legal_moves\n"
                 "    if d == 1: return len(ms)\n"
                 "    t = 0\n"
                 "    for m in ms:\n"
                 "        b.push(m); t += f(b, d - 1); b.pop()\n"
                 "    return t\n"
                 f"print(f(Board(), {depth}))")
    runs = [("peer board API", [str(PEER_PY), "-c", peer_code]),
            ("pdnkit perft (CLI)", [str(cli), "perft", "international", str(depth)]),
            ("python -c core.perft", [sys.executable, "-c", core_code])]
    if cli.exists():  # the floor: the program's start alone (Typer, its parser, pdnkit.cli)
        runs.append(("pdnkit --version", [str(cli), "--version"]))
    out = []
    env = bench_env()
    for label, cmd in runs:
        if label.startswith("pdnkit") and not cli.exists():
            continue
        best = None
        last = ""
        subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)  # warm-up
        for _ in range(repeat):
            t = time.perf_counter()
            res = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
            dt = time.perf_counter() - t
            last = res.stdout.strip().splitlines()[-1]
            best = dt if best is None else min(best, dt)
        assert best is not None
        out.append((label, best, last))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--intl-depth", type=int, default=7)
    ap.add_argument("--russian-depth", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    ensure_peer()
    peer = run_peer(args.intl_depth, args.russian_depth, args.repeat)
    sys.path.insert(0, str(HERE.parent))
    from pdnkit.core import core_in_use

    print(f"pdnkit core in use: {core_in_use()}")
    print(f"{'variant':<14}{'depth':>6}{'nodes':>10}  {'engine':<16}{'M nodes/s':>10}"
          f"{'x board API':>13}{'x turbo':>9}")
    for variant, depth in (("international", args.intl_depth), ("russian", args.russian_depth)):
        peers = {k.split("/")[1]: v for k, v in peer.items() if k.startswith(variant + "/")}
        rows = [(f"peer {kind}", pn, pdt) for kind, (pn, pdt) in peers.items()]
        for engine in ("core", "rules"):
            n, dt = run_ours(variant, depth, args.repeat, engine)
            for kind, (pn, _pdt) in peers.items():
                if pn != n:
                    raise SystemExit(f"node counts differ: {variant} {kind}: peer {pn}, "
                                     f"{engine} {n}")
            rows.append((f"pdnkit {engine}", n, dt))
        board = peers["board"][0] / peers["board"][1]
        turbo = peers["turbo"][0] / peers["turbo"][1] if "turbo" in peers else None
        for label, n, dt in rows:
            rate = n / dt
            xt = f"{rate / turbo:>9.2f}" if turbo else f"{'-':>9}"
            print(f"{variant:<14}{depth:>6}{int(n):>10}  {label:<16}{rate / 1e6:>10.3f}"
                  f"{rate / board:>13.2f}{xt}")
    print(f"\nwhole processes (interpreter start and imports included), international depth "
          f"{args.intl_depth}:")
    runs = whole_process(args.intl_depth, args.repeat)
    base = runs[0][1]
    for label, dt, last in runs:
        print(f"  {label:<22}{dt:>8.2f} s  {base / dt:>7.1f}x the peer's process   ({last})")


if __name__ == "__main__":
    main()
