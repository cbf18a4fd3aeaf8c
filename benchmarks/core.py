"""Replay speed of the core's one call per game, compiled against pure, on intl_2000.pdn.

Usage::

    .venv/bin/python benchmarks/core.py [--repeat 3] [--pure-games 400]

Reads ``../shared/data/bench/intl_2000.pdn`` once (2,000 random legal international games,
184,008 plies), then replays every game's main line in one call each:

* the compiled core (``pdnkit.core.compiled.replay``) given the reader's move texts, and given
  the movetext as written (move numbers, comments and the result read by the core);
* the pure core (``pdnkit.core.pure.replay``: the same procedure over the rules engine), on
  the first ``--pure-games`` games (it is two orders of magnitude slower);
* for scale, the validator's own replay (``pdnkit.validation.replay``, today's path: matching,
  ply records, draw tracking, the verdicts) on the same first games.

Every run's final positions are checked against ``intl_2000.final.json``. Prints games/s and
plies/s (best of ``--repeat``), the ratios side by side, and the load average before and
after (the machine is shared: ratios measured in one script are what to compare).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BENCH = HERE.parent.parent / "shared" / "data" / "bench"
sys.path.insert(0, str(HERE.parent))

_TAGS = re.compile(r'\A(?:\s*\[[^\]"\n]*(?:"(?:[^"\\\n]|\\.)*"[^\]\n]*)?\])*')


def _mask(squares: list[int]) -> int:
    return sum(1 << (n - 1) for n in squares)


def check_finals(reps: Sequence[Any], finals: Sequence[dict[str, Any]]) -> None:
    """Each replay went to the end and stands on the published final position."""
    for i, (rep, want) in enumerate(zip(reps, finals, strict=False)):
        f = want["final"]
        got = tuple(rep.final[:5])
        exp = (f["turn"] == "B", _mask(f["wm"]), _mask(f["wk"]), _mask(f["bm"]), _mask(f["bk"]))
        if rep.code is not None or rep.plies != want["plies"] or got != exp:
            raise SystemExit(f"game {i}: final position differs ({rep.code}, {rep.plies} plies)")


def timed(fn: Callable[[], list[Any]], repeat: int) -> tuple[float, list[Any]]:
    best, out = None, []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    assert best is not None
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pure-games", type=int, default=400)
    args = ap.parse_args()
    from pdnkit.core import compiled, core_note, pure, state_of
    from pdnkit.pdn import read_games
    from pdnkit.rules import Position, get_rules
    from pdnkit.validation import replay as validator_replay

    load0 = os.getloadavg()
    print(core_note())
    if compiled.ERROR is not None:
        raise SystemExit("the compiled core is not built here")
    records = list(read_games(BENCH / "intl_2000.pdn"))
    finals = json.loads((BENCH / "intl_2000.final.json").read_text(encoding="utf-8"))
    rules = get_rules("international")
    start = state_of(Position.initial(rules))
    texts = [[m.text for m in r.moves] for r in records]
    movetexts = [r.raw[_TAGS.match(r.raw).end():] for r in records]  # type: ignore[union-attr]
    plies = sum(len(t) for t in texts)
    k = min(args.pure_games, len(records))
    k_plies = sum(len(t) for t in texts[:k])
    rows: list[tuple[str, int, int, float]] = []

    dt, reps = timed(lambda: [compiled.replay(rules, start, t, 0) for t in texts], args.repeat)
    check_finals(reps, finals)
    rows.append(("compiled core, move texts", len(texts), plies, dt))
    dt, reps = timed(lambda: [compiled.replay(rules, start, t, 0) for t in movetexts],
                     args.repeat)
    check_finals(reps, finals)
    rows.append(("compiled core, movetext", len(texts), plies, dt))
    dt, reps = timed(lambda: [pure.replay(rules, start, t, 0) for t in texts[:k]], 1)
    check_finals(reps, finals[:k])
    rows.append(("pure core, move texts", k, k_plies, dt))
    dt, reports = timed(lambda: [validator_replay(r) for r in records[:k]], 1)
    for i, rep in enumerate(reports):
        if rep.replayed_plies != finals[i]["plies"]:
            raise SystemExit(f"validator: game {i} replayed {rep.replayed_plies} plies")
    rows.append(("validator replay (today)", k, k_plies, dt))

    base = rows[0][1] / rows[0][3]
    print(f"{'':<28}{'games':>7}{'games/s':>11}{'plies/s':>12}{'compiled x':>12}")
    for label, games, n_plies, secs in rows:
        rate = games / secs
        print(f"{label:<28}{games:>7}{rate:>11,.0f}{n_plies / secs:>12,.0f}{base / rate:>12.1f}")
    print(f"load average before {load0[0]:.2f}, after {os.getloadavg()[0]:.2f} "
          f"({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
