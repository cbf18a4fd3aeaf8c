"""Splitting and decoding speed on the pathological inputs of issue 16, and on a real file.

Usage:
    .venv/bin/python benchmarks/split.py [--repeat 3] [--games 80000]

Prints seconds (best of ``--repeat``) for:

* ``split_text('[a]x' * 10000)`` (40 KB: a tag-like token at every fourth character);
* ``--games`` games on one line against the same games on separate lines (splitter only);
* opening and splitting ``../shared/data/bench/intl_2000.pdn`` (decode + split, no parsing)
  from a path and from a string, in MB/s.

Run it with ``PYTHONPATH`` pointing at another checkout to compare versions.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))  # PYTHONPATH (another checkout) comes first
BENCH = Path(os.environ.get("PDNKIT_SHARED_DATA", ROOT.parent / "shared" / "data")) / "bench" \
    / "intl_2000.pdn"


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--games", type=int, default=80_000)
    args = ap.parse_args()

    from pdnkit.pdn.split import split_text

    tags = "[a]x" * 10000
    print(f"split '[a]x' * 10000 (40 KB): "
          f"{best_of(args.repeat, lambda: list(split_text(tags))):.3f} s")
    one = "1. 32-28 * " * args.games
    many = "1. 32-28 *\n" * args.games
    print(f"{args.games} games on one line: "
          f"{best_of(args.repeat, lambda: list(split_text(one))):.3f} s; on separate lines: "
          f"{best_of(args.repeat, lambda: list(split_text(many))):.3f} s")
    if BENCH.exists():
        size = BENCH.stat().st_size / 1e6
        try:
            from pdnkit.pdn.source import open_source

            def from_path() -> object:
                return sum(1 for _ in open_source(BENCH).chunks)
        except ImportError:  # an older checkout: the reader opened sources itself
            from pdnkit.pdn import reader

            def from_path() -> object:
                lines, *_ = reader._open_lines(BENCH, None)
                from pdnkit.pdn.split import split_lines
                return sum(1 for _ in split_lines(lines))
        text = BENCH.read_text(encoding="utf-8")
        t_path = best_of(args.repeat, from_path)
        t_text = best_of(args.repeat, lambda: list(split_text(text)))
        print(f"{BENCH.name} ({size:.1f} MB) decode + split from the path: {t_path:.3f} s "
              f"({size / t_path:.1f} MB/s); split from a string: {t_text:.3f} s "
              f"({size / t_text:.1f} MB/s)")


if __name__ == "__main__":
    main()
