"""PDN parse throughput and memory: pdnkit's reader next to a plain regex tokenizer.

Usage:
    .venv/bin/python benchmarks/parse.py [--repeat 3] [--memory-games 100000] [--no-memory]

Prints, for ``../shared/data/bench/intl_2000.pdn`` (2,000 games, 1.8 MB):

* the floor: a plain regular-expression tokenizer (one ``re.finditer`` over the whole text,
  one match per token, nothing built) -- the fastest pure Python can walk the file;
* Lark's lexer alone on the same game chunks (what the grammar's tokenizer costs);
* ``pdnkit.read_games`` (decode, split, LALR parse with the transformer applied during
  parsing, GameRecord building) with lark-cython and with pure-Python Lark;

as MB/s, games/s and plies/s, with the ratio to the regex floor. Then the peak memory (RSS)
of a separate process reading a file of ``--memory-games`` games (intl_2000 repeated).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BENCH = Path(os.environ.get("PDNKIT_SHARED_DATA", ROOT.parent / "shared" / "data")) / "bench" \
    / "intl_2000.pdn"

_TOKEN = re.compile(
    r'\[[^\]\n]*\]|\{[^}]*\}|\d+\.+|\d+(?:[-x]\d+)+|[a-h]\d(?:[-x:][a-h]\d)+|\$\d+|[()*]'
    r"|1/2-1/2|[!?]+|\S"
)


def best_of(repeat: int, fn) -> tuple[float, object]:
    best = float("inf")
    out = None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def regex_floor(path: Path) -> int:
    text = path.read_text(encoding="utf-8")
    n = 0
    for _ in _TOKEN.finditer(text):
        n += 1
    return n


def lark_lex_only(path: Path) -> int:
    from lark import Lark

    from pdnkit.pdn.grammar import grammar_text
    from pdnkit.pdn.split import split_text

    lexer = Lark(grammar_text(), parser="lalr", lexer="basic")
    n = 0
    for chunk in split_text(path.read_text(encoding="utf-8")):
        for _ in lexer.lex(chunk.text):
            n += 1
    return n


def pdnkit_read(path: Path, use_cython: bool) -> tuple[int, int]:
    from pdnkit.pdn import lalr, reader

    lalr.PARSERS.clear()
    original = lalr.parser
    lalr.parser = lambda use=None: original(use_cython)  # type: ignore[assignment]
    try:
        games = plies = 0
        for g in reader.read_games(path):
            games += 1
            plies += len(g.moves)
        return games, plies
    finally:
        lalr.parser = original  # type: ignore[assignment]


BASELINE_SCRIPT = """
import resource, sys
sys.path.insert(0, {root!r})
import pdnkit.pdn.reader as r
try:
    from pdnkit.pdn.lalr import parser  # the parser's own module
except ImportError:  # an older checkout: the reader built it
    parser = r._parser
parser()
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""

MEMORY_SCRIPT = """
import resource, sys, time
sys.path.insert(0, {root!r})
from pdnkit.pdn import read_games
t = time.perf_counter()
n = sum(1 for _ in read_games({path!r}))
dt = time.perf_counter() - t
print(n, dt, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def memory(games: int) -> None:
    base = BENCH.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    reps = max(1, games // 2000)
    with tempfile.TemporaryDirectory() as d:
        big = Path(d) / "big.pdn"
        with open(big, "w", encoding="utf-8") as fh:
            for _ in range(reps):
                fh.write(base)
        size = big.stat().st_size / 1e6
        baseline = subprocess.run(
            [sys.executable, "-c", BASELINE_SCRIPT.format(root=str(ROOT))],
            capture_output=True, text=True, check=True).stdout.split()
        out = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT.format(root=str(ROOT),
                                                                         path=str(big))],
                             capture_output=True, text=True, check=True).stdout.split()
    n, dt, rss = int(out[0]), float(out[1]), float(out[2])
    print(f"\nmemory: {n:,} games, {size:.0f} MB file, read in {dt:.1f} s "
          f"({size / dt:.2f} MB/s): peak RSS {rss:.0f} MB "
          f"(interpreter + parser alone: {float(baseline[0]):.0f} MB; limit 200 MB)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--memory-games", type=int, default=100_000)
    ap.add_argument("--no-memory", action="store_true")
    args = ap.parse_args()
    if not BENCH.is_file():
        sys.exit(f"benchmark file not found: {BENCH}")
    size = BENCH.stat().st_size / 1e6
    from pdnkit.pdn.grammar import accelerator

    print(f"file: {BENCH.name}, {size:.2f} MB; lark-cython available: "
          f"{accelerator() == 'lark-cython'}")
    t_floor, ntok = best_of(args.repeat, lambda: regex_floor(BENCH))
    print(f"{'regex tokenizer (floor)':34s} {size / t_floor:7.2f} MB/s  {ntok:,} tokens "
          f"in {t_floor:.3f} s")
    t_lex, nlex = best_of(args.repeat, lambda: lark_lex_only(BENCH))
    print(f"{'lark lexer only (split + lex)':34s} {size / t_lex:7.2f} MB/s  {nlex:,} tokens "
          f"in {t_lex:.3f} s  ({t_lex / t_floor:.1f}x the floor)")
    rows = []
    for label, cy in (("pdnkit read_games, lark-cython", True),
                      ("pdnkit read_games, pure lark", False)):
        if cy and accelerator() != "lark-cython":
            continue
        t, (games, plies) = best_of(args.repeat, lambda cy=cy: pdnkit_read(BENCH, cy))
        rows.append((label, t))
        print(f"{label:34s} {size / t:7.2f} MB/s  {games / t:7.0f} games/s  "
              f"{plies / t:9.0f} plies/s  ({t / t_floor:.1f}x the floor)")
    if len(rows) == 2:
        print(f"lark-cython speed-up: {rows[1][1] / rows[0][1]:.2f}x")
    if not args.no_memory:
        memory(args.memory_games)


if __name__ == "__main__":
    main()
