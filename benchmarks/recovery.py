"""How many games lose moves to a stray token, and what hostile games cost to read.

Part 1 (``losses``): every game of the shared real files (``../shared/data/real``) is read,
then read again with one stray token put after one of its moves (chosen with a fixed seed):
a word glued to the move (``8-11Whiteoverstepped.``), a lone ``.``, a stray ``]``, ``)`` or
``&``, a ``[%clk 1:00]`` outside braces. A game *loses moves* when the mutated copy is
unparsed or has fewer main-line moves than the original. The untouched files are counted too
(unparsed games, games with fewer moves than move-like words in their text).

Part 2 (``hostile``): time and peak memory (tracemalloc) of reading single pathological games:
long digit runs, a 1 MB comment, deep variations, a FEN range.

Run::

    PYTHONPATH=. .venv/bin/python benchmarks/recovery.py [losses|hostile]
"""

from __future__ import annotations

import random
import re
import sys
import time
import tracemalloc
from pathlib import Path

from pdnkit.pdn.reader import parse_game, read_games

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT.parent / "shared" / "data" / "real"
_MOVE = re.compile(r"(?<![\w.\-/])\d{1,2}[-x:]\d{1,2}(?:[x:]\d{1,2})*(?![\w\-/])")
STRAYS = ("Whiteoverstepped.", " .", " ]", " )", " &", " [%clk 1:00]")


def _movetext_moves(raw: str) -> list[re.Match[str]]:
    """Move-like words outside tag lines and comments."""
    out = []
    depth = 0
    for m in re.finditer(r"\{|\}|^[ \t]*\[[^\n]*$|" + _MOVE.pattern, raw, re.M):
        g = m.group()
        if g == "{":
            depth += 1
        elif g == "}":
            depth = max(0, depth - 1)
        elif depth == 0 and not g.lstrip().startswith("["):
            out.append(m)
    return out


def losses() -> None:
    rng = random.Random(10)
    games = unparsed = fewer_than_text = mutated = lost = 0
    for path in sorted(p for p in REAL.rglob("*") if p.is_file()):
        for g in read_games(path):
            games += 1
            moves = _movetext_moves(g.raw)
            unparsed += not g.parsed
            fewer_than_text += g.parsed and len(g.moves) < len(moves) - 1  # a score result
            if len(g.moves) < 2 or len(moves) < 2:
                continue
            m = rng.choice(moves[:-1])
            stray = STRAYS[mutated % len(STRAYS)]
            text = g.raw[:m.end()] + stray + g.raw[m.end():]
            mutated += 1
            h = parse_game(text)
            if not h.parsed or len(h.moves) < len(g.moves):
                lost += 1
    print(f"real files: {games} games, {unparsed} unparsed, {fewer_than_text} with fewer moves "
          "than their text")
    print(f"one stray token in each of {mutated} games: {lost} lose moves")


HOSTILE = {
    "5,000-digit move number": "1" * 5000 + ". 32-28 19-23 *",
    "20,000-digit run in movetext": "1. 32-28 " + "1" * 20000 + " 19-23 *",
    "1 MB comment": "1. 32-28 {" + "a" * 1_000_000 + "} 19-23 *",
    "1 MB unclosed comment": "1. 32-28 {" + "a " * 500_000,
    "variations 1,000 deep": "1. 32-28 " + "(19-23 " * 1000 + ")" * 1000 + " *",
    "variations 100,000 deep": "1. 32-28 " + "(19-23 " * 100_000 + ")" * 100_000 + " *",
    "FEN range W1-30000000": '[FEN "W:W1-30000000:B2"]\n*',
}


def _read(name: str, text: str) -> str:
    try:
        recs = list(read_games(text))
        out = f"{len(recs)} game(s), codes {sorted({f.code for r in recs for f in r.findings})}"
        if "FEN" in name:
            from pdnkit.validation import replay

            out += f", replay codes {sorted({f.code for f in replay(recs[0]).findings})}"
    except Exception as exc:  # noqa: BLE001 - the figure to report
        out = f"raised {type(exc).__name__}"
    return out


def hostile() -> None:
    """Time (a plain run, after the parser is built) and peak traced memory (a second run
    under tracemalloc, which slows it down) of each hostile game."""
    parse_game("1. 32-28 (19-23) *")  # build the Lark parser outside the figures
    for name, text in HOSTILE.items():
        t = time.perf_counter()
        out = _read(name, text)
        dt = time.perf_counter() - t
        tracemalloc.start()
        _read(name, text)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"{name}: {dt:.2f} s, peak {peak / 1e6:.1f} MB, {out}")


if __name__ == "__main__":
    what = sys.argv[1:] or ["losses", "hostile"]
    if "losses" in what:
        losses()
    if "hostile" in what:
        hostile()
