"""Opening classification speed: the cost per game of ``OpeningBook.classify`` (positions) and
``classify_bits`` (the database's bitboard rows) next to the cost of replaying the game, and
the time to build each variant's book from its tables.

Reads the bundled samples (``data/<variant>.pdn``) and, when present, the shared real English
and Russian files; replays every game once, then times the classification of the same
positions ``--repeat`` times (best run). Run::

    .venv/bin/python benchmarks/openings.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pdnkit.openings import (  # noqa: E402 - after the path set-up
    OpeningBook,
    game_positions,
    read_table,
    square_bits,
    table_index,
)
from pdnkit.validation import validate  # noqa: E402

REAL = ROOT.parent / "shared" / "data" / "real"
SOURCES = {
    "english": [ROOT / "data" / "english.pdn", REAL / "english" / "OCA_2.0.pdn"],
    "russian": [ROOT / "data" / "russian.pdn", REAL / "russian" / "abatsiev.pdn"],
    "international": [ROOT / "data" / "international.pdn"],
    "italian": [ROOT / "data" / "italian.pdn"],
}


def best(fn: Callable[[], object], repeat: int) -> float:
    out = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t)
    return out


def build(variant: str) -> tuple[OpeningBook, float]:
    """The book of ``variant`` read from the shipped tables, and the seconds it took."""
    from importlib import resources

    t = time.perf_counter()
    entries = []
    folder = resources.files("pdnkit.openings").joinpath("tables")
    for info in table_index():
        if variant in info.variants:
            text = folder.joinpath(info.file).read_text(encoding="utf-8")
            entries.extend(read_table(io.StringIO(text, newline=""), variant,
                                      family=info.family, kind=info.kind, prefix=info.prefix))
    book = OpeningBook(variant, entries)
    return book, time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print("| variant | entries | build s | games | plies | replay us/game | classify "
          "us/game | bits us/game | classify / replay | classified |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for variant, paths in SOURCES.items():
        files = [str(p) for p in paths if p.exists()]
        if not files:
            continue
        book, built = build(variant)
        t = time.perf_counter()
        reports = list(validate(files, variant=variant))
        replay = time.perf_counter() - t
        games = [list(game_positions(r)) for r in reports]
        rows = [[square_bits(p) for p in g] for g in games]
        plies = sum(len(g) - 1 for g in games)
        c_pos = best(lambda b=book, gs=games: [b.classify(g) for g in gs], args.repeat)
        c_bits = best(lambda b=book, rs=rows: [b.classify_bits(r) for r in rs], args.repeat)
        done = sum(1 for g in games if book.classify(g).classified)
        n = len(games)
        print(f"| {variant} | {len(book)} | {built:.2f} | {n} | {plies} | "
              f"{1e6 * replay / n:,.0f} | {1e6 * c_pos / n:.1f} | {1e6 * c_bits / n:.1f} | "
              f"{c_pos / replay:.4f} | {done}/{n} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
