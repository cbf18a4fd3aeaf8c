"""Endgame databases: build times, peak memory, probe speed, against the targets.

Usage::

    .venv/bin/python benchmarks/egdb.py                      # every 8x8 variant to 4 pieces,
                                                             # international to 4, 1M probes
    .venv/bin/python benchmarks/egdb.py --five english       # and English to 5 pieces
    .venv/bin/python benchmarks/egdb.py --four russian --intl 0 --probes 200000
    .venv/bin/python benchmarks/egdb.py --four turkish russian --probes 0 --before /tmp/main
                                                             # and each build by an earlier
                                                             # checkout, side by side

Each build runs in a fresh process (``pdnkit.egdb.build`` into a temporary folder, removed
afterwards unless ``--keep``): wall time, CPU time (the child's user + system: on a shared
machine the wall time also counts the other jobs) and peak resident memory (the child's
``ru_maxrss``), with the positions per piece count checked against the published counts where
there are some (checkers, Schaeffer et al. 2007). Targets: every 8x8 variant to 4 pieces under
a minute, to 5 pieces under 30 minutes, international to 4 pieces under 10 minutes, memory
under 2 GB. ``--before DIR``: each build also by the pdnkit of DIR (a checkout with its
compiled core built in place), the same build side by side: CPU and peak memory, and their
ratios, with the load average at the time (CPU time is the build's own, the wall time also
counts the other jobs). The probe benchmark loads English to 4 pieces (or to 5 with ``--five english``)
and probes a million random positions in one batch (``Egdb.codes_raw``, 56-byte records):
target under 2 s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PUBLISHED = {1: 120, 2: 6_972, 3: 261_224, 4: 7_092_774, 5: 148_688_232}
EIGHT = ["english", "russian", "brazilian", "pool", "italian", "spanish", "portuguese",
         "czech", "thai", "turkish", "giveaway"]
TARGET_S = {(8, 4): 60, (8, 5): 1800, (10, 4): 600}

CHILD = r"""
import json, resource, sys, time
from pdnkit.egdb import build
start = time.perf_counter()
rep = build(sys.argv[1], int(sys.argv[2]), directory=sys.argv[3])
wall = time.perf_counter() - start
ru = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"wall": wall, "cpu": ru.ru_utime + ru.ru_stime, "rss_mb": ru.ru_maxrss / 1024,
                  "positions": rep.positions, "longest": rep.longest, "built": len(rep.built)}))
"""


def run_build(variant: str, pieces: int, folder: Path,
              code: Path | None = None) -> dict[str, object]:
    """One build in a fresh process; ``code``: the pdnkit checkout it imports."""
    env = dict(os.environ)
    if code is not None:
        env["PYTHONPATH"] = str(code)
    out = subprocess.run([sys.executable, "-c", CHILD, variant, str(pieces), str(folder)],
                         check=True, capture_output=True, text=True, env=env,
                         cwd=code or Path.cwd())
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    result["load"] = os.getloadavg()[0]
    return result


def side_by_side(variant: str, pieces: int, before: Path) -> None:
    """The same build by the checkout ``before`` and by this one, in fresh folders."""
    rows = []
    for label, code in (("before", before), ("now", None)):
        folder = Path(tempfile.mkdtemp(prefix="pdnkit-egdb-bench-"))
        try:
            res = run_build(variant, pieces, folder, code)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        total = sum(res["positions"].values())  # type: ignore[attr-defined]
        rows.append(res)
        print(f"{variant:13} {pieces} pieces {label:6}  {total:>12,} positions  "
              f"cpu {res['cpu']:7.1f} s  wall {res['wall']:7.1f} s  "
              f"peak {res['rss_mb']:6.0f} MB  load {res['load']:5.1f}", flush=True)
    b, n = rows
    print(f"{variant:13} {pieces} pieces  cpu x{b['cpu'] / n['cpu']:.2f} "  # type: ignore[operator]
          f"(now {n['cpu']:.1f} s)  peak memory x{b['rss_mb'] / n['rss_mb']:.2f}",  # type: ignore[operator]
          flush=True)


def report(variant: str, pieces: int, res: dict[str, object], board: int) -> None:
    positions = {int(k): v for k, v in res["positions"].items()}  # type: ignore[attr-defined]
    total = sum(positions.values())
    check = ""
    if variant == "english":
        ok = all(positions[n] == PUBLISHED[n] for n in positions)
        check = "published counts " + ("ok" if ok else "WRONG")
    target = TARGET_S.get((board, pieces))
    verdict = "" if target is None else (
        f"target {target} s: {'ok' if res['wall'] < target else 'MISSED'} "  # type: ignore[operator]
        f"(cpu {'ok' if res['cpu'] < target else 'MISSED'})")  # type: ignore[operator]
    print(f"{variant:13} {pieces} pieces  {total:>12,} positions  wall {res['wall']:8.1f} s  "
          f"cpu {res['cpu']:8.1f} s  peak {res['rss_mb']:7.0f} MB  "
          f"longest {max(res['longest'].values())} plies  {verdict}  {check}",  # type: ignore[attr-defined]
          flush=True)


def probe_bench(folder: Path, pieces: int, count: int) -> None:
    from pdnkit.core.retro import record, unpack_record
    from pdnkit.egdb import Egdb
    from pdnkit.egdb.index import build_order, layout_of

    db = Egdb("english", folder)
    start = time.perf_counter()
    loaded = db.load_all(pieces)
    load_s = time.perf_counter() - start
    lay = layout_of(db.rules)
    rng = random.Random(1)
    sigs = build_order(pieces)
    retro = db.backend.retro  # type: ignore[attr-defined]
    recs = []
    while len(recs) < count:
        sig = rng.choice(sigs)
        side = rng.randrange(2)
        got = retro.decode(sig, side, rng.randrange(lay.half(sig)))
        if got is not None:
            recs.append(record(*got))
    blob = b"".join(recs)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        codes = db.codes_raw(blob)
        best = min(best, time.perf_counter() - start)
    missing = sum(1 for i in range(0, len(codes), 2) if codes[i:i + 2] == b"\xff\xff")
    print(f"probe: {count:,} positions of up to {pieces} pieces in one batch: {best:.3f} s "
          f"({count / best / 1e6:.1f} M probes/s; target 2 s: {'ok' if best < 2 else 'MISSED'}); "
          f"{loaded} signatures loaded and checked in {load_s:.2f} s; {missing} missing")
    from pdnkit.rules import Position

    positions = []
    for r in recs[:20_000]:
        side, w, b, k = unpack_record(r)
        sq = [[n for n in range(1, 33) if x >> (n - 1) & 1] for x in
              (w & ~k, w & k, b & ~k, b & k)]
        positions.append(Position.from_squares(db.rules, side, *sq))
    start = time.perf_counter()
    db.verdicts(positions)
    per = (time.perf_counter() - start) / len(positions)
    print(f"probe: Egdb.verdicts on Position objects: {per * 1e6:.1f} us a position")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--four", nargs="*", default=EIGHT,
                    help="variants built to 4 pieces (default: every 8x8 one)")
    ap.add_argument("--five", nargs="*", default=[], help="8x8 variants built to 5 pieces")
    ap.add_argument("--intl", type=int, default=4, help="international to this many pieces "
                                                        "(0: none)")
    ap.add_argument("--probes", type=int, default=1_000_000)
    ap.add_argument("--keep", type=Path, default=None, help="build here and keep the files")
    ap.add_argument("--before", type=Path, default=None,
                    help="a checkout of pdnkit (compiled core built in place): each build by "
                         "it and by this one, side by side")
    args = ap.parse_args()
    if args.before is not None:
        for v in args.four:
            side_by_side(v, 4, args.before.resolve())
        if args.intl:
            side_by_side("international", args.intl, args.before.resolve())
        return
    folder = args.keep or Path(tempfile.mkdtemp(prefix="pdnkit-egdb-bench-"))
    try:
        for v in args.five:
            report(v, 5, run_build(v, 5, folder), 8)
        from pdnkit.rules import get_rules

        for v in args.four:
            if v not in args.five:
                report(v, 4, run_build(v, 4, folder), get_rules(v).width)
        if args.intl:
            report("international", args.intl, run_build("international", args.intl, folder),
                   10)
        if args.probes:
            pieces = 5 if "english" in args.five else 4
            if "english" not in args.four + args.five:
                run_build("english", 4, folder)
            probe_bench(folder, pieces, args.probes)
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
