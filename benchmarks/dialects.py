"""The dialect matrix and the reading speed in each dialect (issue 22).

Every game of ``../shared/data/real/`` is written again through each transformation of
``tests/pdn/dialects.py`` (and seeded random combinations of them) and replayed; a game
counts as equal when the tags through the mapping, the main-line moves, the result, the
plies replayed, the final position and the finding codes (less those the dialect explains)
are those of the clean file. Prints the matrix (transform x variant -> equal / total) and,
for each dialect, how fast the reader reads it against the clean files.

    python benchmarks/dialects.py                # every transform, 8 combinations, replayed
    python benchmarks/dialects.py --combos 20 --repeat 5
    python benchmarks/dialects.py --reader       # compare what the reader gives (faster)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pdnkit.pdn import read_games  # noqa: E402
from tests.pdn import dialects as D  # noqa: E402
from tests.pdn.digests import real_files  # noqa: E402
from tests.shared import SHARED_DATA  # noqa: E402

ALWAYS = frozenset({"encoding-fallback"})


def _read_time(paths: list[Path], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for p in paths:
            for _g in read_games(p):
                pass
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--combos", type=int, default=8, help="random combinations (seeded)")
    ap.add_argument("--seed", type=int, default=22)
    ap.add_argument("--repeat", type=int, default=3, help="reading-speed runs (best of)")
    ap.add_argument("--reader", action="store_true", help="compare the reader's view only")
    args = ap.parse_args()
    root = SHARED_DATA / "real"
    if not root.is_dir():
        sys.exit(f"shared real files not found: {root}")
    tmp = Path(tempfile.mkdtemp(prefix="pdnkit-dialects-"))
    view = D.read_view if args.reader else D.view
    files = []
    for p in real_files(root):
        games = D.clean_games(p)
        assert games is not None, p
        D.attach_replays(games, p)  # (the notation transforms write moves from the replay)
        replayed = D.view(p)
        files.append((p, games, view(p) if args.reader else replayed, replayed))
    combos = [(n,) for n in sorted(D.TRANSFORMS)] + D.combinations(args.seed, args.combos)
    cells: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    speed: list[tuple[str, int, float]] = []
    clean_paths = [p for p, *_ in files]
    clean_time = _read_time(clean_paths, args.repeat)
    n_games = sum(len(g) for _, g, _, _ in files)
    failures = []
    for names in combos:
        label = "+".join(names)
        opts = D.options(names)
        explains = opts.explains | ALWAYS
        # a dialect that writes other squares is compared as replayed
        viewed = D.view if D.needs_replay(names) else view
        paths = []
        for p, games, clean, replayed in files:
            if not all(D.applicable(n, games) for n in names):
                continue
            irregular = [i for i, g in enumerate(replayed)
                         if "move-number-mismatch" in g["codes"]]
            out = tmp / label / p.relative_to(root)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(D.render(games, names, args.seed, D.legacy_codec(games), irregular))
            paths.append(out)
            same, diffs = D.compare(replayed if viewed is D.view else clean, viewed(out),
                                    explains, opts.ignore)
            failures += [f"{label} {p.relative_to(root)}: {d}" for d in diffs[:2]]
            for g, ok in zip(replayed, same, strict=True):
                cell = cells[(label, g["variant"])]
                cell[0] += ok
                cell[1] += 1
        if len(names) == 1:
            speed.append((label, sum(1 for p in paths for _ in read_games(p)),
                          _read_time(paths, args.repeat)))
    variants = sorted({v for _, v in cells})
    labels = sorted({k for k, _ in cells}, key=lambda k: (k.count("+"), k))
    width = max(len(k) for k in labels)
    print(f"dialect matrix ({'reader' if args.reader else 'full replay'}): games equal / total")
    print(" " * width + " | " + " | ".join(f"{v[:13]:>13}" for v in variants))
    for k in labels:
        row = []
        for v in variants:
            a, b = cells.get((k, v), (0, 0))
            row.append(f"{f'{a}/{b}':>13}" if b else f"{'-':>13}")
        print(f"{k:<{width}} | " + " | ".join(row))
    bad = {k: v for k, v in cells.items() if v[0] != v[1]}
    print(f"cells: {len(cells)}, all 100%: {not bad}")
    for f in failures[:20]:
        print("  ", f[:300])
    print(f"\nreading speed (best of {args.repeat}; the machine may be shared: compare ratios)")
    print(f"{'clean files':<{width}}  {n_games:6d} games  {clean_time:7.3f} s  "
          f"{n_games / clean_time:8.0f} games/s  1.00x")
    for label, n, t in speed:
        print(f"{label:<{width}}  {n:6d} games  {t:7.3f} s  {n / t:8.0f} games/s  "
              f"{(n / t) / (n_games / clean_time):.2f}x")


if __name__ == "__main__":
    main()
