"""Perft speed: pdnkit's move generator against py-draughts (pure Python bitboards).

Usage::

    .venv/bin/python benchmarks/perft.py            # international 6, russian 7
    .venv/bin/python benchmarks/perft.py --repeat 3 --intl-depth 5 --russian-depth 6

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


def run_ours(variant: str, depth: int, repeat: int) -> tuple[int, float]:
    sys.path.insert(0, str(HERE.parent))
    from pdnkit.rules import Position, get_rules, perft

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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--intl-depth", type=int, default=6)
    ap.add_argument("--russian-depth", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    ensure_peer()
    peer = run_peer(args.intl_depth, args.russian_depth, args.repeat)
    rows = []
    for variant, depth in (("international", args.intl_depth), ("russian", args.russian_depth)):
        n, dt = run_ours(variant, depth, args.repeat)
        peers = {k.split("/")[1]: v for k, v in peer.items() if k.startswith(variant + "/")}
        for kind, (pn, _pdt) in peers.items():
            if pn != n:
                raise SystemExit(f"node counts differ: {variant} {kind}: peer {pn}, ours {n}")
        best_kind, (pn, pdt) = min(peers.items(), key=lambda kv: kv[1][1])
        rows.append((variant, depth, n, n / dt, {k: v[0] / v[1] for k, v in peers.items()},
                     best_kind, (n / dt) / (pn / pdt)))
    print(f"{'variant':<14}{'depth':>6}{'nodes':>10}{'pdnkit M/s':>12}  peer M/s"
          f"{'':<26}ratio")
    for variant, depth, n, ours, peers, best_kind, ratio in rows:
        pk = ", ".join(f"{k} {v / 1e6:.3f}" for k, v in peers.items())
        print(f"{variant:<14}{depth:>6}{n:>10}{ours / 1e6:>12.3f}  {pk:<34}{ratio:.2f}"
              f" (vs {best_kind})")


if __name__ == "__main__":
    main()
