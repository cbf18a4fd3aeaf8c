"""Distinct random legal international games, fast enough for a million: the benchmarks'
generated collections (``benchmarks/search.py --generate``).

Each game is a random walk from the initial position, every move drawn uniformly from the
legal moves the compiled core lists, played on square bitboards in Python (about 4 us a ply,
against 23 us through ``Position.play``); it ends where the side to move has no move (a
result for the side that moved last) or after a length drawn between 60 and 130 plies
(``*``). Captures are written with their path where another legal capture joins the same
squares. Tags: an event of 200, a date spread over 1950-2024, players from a pool of 2,000
names, ``GameType 20``. Game ``i`` depends only on the seed and ``i``, so a file can be made
by several processes, and the same arguments give the same bytes.

    python benchmarks/randomgames.py 1000000 out.pdn [--seed 7] [--jobs 2]
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

RESULTS = {"white": "2-0", "black": "0-2"}
SURNAMES = ("Sijbrands", "Baljakin", "Georgiev", "Schwarzman", "Boomstra", "Ndjofang",
            "Chizhov", "Valneris", "Van der Wal", "Tsinsky", "Amrillaev", "Shaibakov",
            "Wiersma", "Clerc", "Gantwarg", "Koeperman", "Dybman", "Roozenburg", "Keller",
            "Deslauriers")
GIVEN = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _core() -> tuple[Any, Any, tuple[int, int, int, int]]:
    """The compiled core's move lister, the international table and the initial bitboards."""
    from pdnkit.core import compiled
    from pdnkit.core.api import state_of
    from pdnkit.rules import Position, get_rules

    rules = get_rules("international")
    table = compiled._table(rules)  # the benchmark reaches past the public face on purpose
    if table is None:
        sys.exit("randomgames.py needs the compiled core")
    s = state_of(Position.initial(rules))
    return compiled._core, table, (s.wm, s.wk, s.bm, s.bk)


def _movetext(core: Any, table: Any, start: tuple[int, int, int, int],
              rng: random.Random) -> tuple[str, str]:
    """One random game's movetext and result."""
    wm, wk, bm, bk = start
    black = False
    length = rng.randint(60, 130)
    words: list[str] = []
    result = "*"
    for ply in range(length):
        moves = core.legal_moves(table, (black, wm, wk, bm, bk, None), 0)
        if not moves:
            result = RESULTS["white" if black else "black"]
            break
        o, d, path, cap, _capk, prom, _isk = moves[rng.randrange(len(moves))]
        if cap:
            same = sum(1 for m in moves if m[0] == o and m[1] == d)
            text = "x".join(str(q) for q in path) if same > 1 else f"{o}x{d}"
        else:
            text = f"{o}-{d}"
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        words.append(text)
        ob, db = 1 << (o - 1), 1 << (d - 1)
        cm = 0
        for c in cap:
            cm |= 1 << (c - 1)
        if not black:
            if wk & ob:
                wk = (wk ^ ob) | db
            else:
                wm ^= ob
                if prom:
                    wk |= db
                else:
                    wm |= db
            bm &= ~cm
            bk &= ~cm
        else:
            if bk & ob:
                bk = (bk ^ ob) | db
            else:
                bm ^= ob
                if prom:
                    bk |= db
                else:
                    bm |= db
            wm &= ~cm
            wk &= ~cm
        black = not black
    return " ".join(words), result


def _wrap(words: str, width: int = 79) -> str:
    lines, line = [], ""
    for w in words.split(" "):
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    lines.append(line)
    return "\n".join(lines)


def game_text(i: int, seed: int, core: Any, table: Any,
              start: tuple[int, int, int, int]) -> str:
    """Game ``i`` of the collection of ``seed`` as PDN text (a blank line after it)."""
    rng = random.Random(seed * 1_000_003 + i)
    moves, result = _movetext(core, table, start, rng)
    players = [f"{rng.choice(SURNAMES)} {rng.choice(GIVEN)}{rng.randrange(100)}"
               for _ in range(2)]
    year = 1950 + rng.randrange(75)
    tags = [("Event", f"Random Open {i % 200}"), ("Site", "Amsterdam"),
            ("Date", f"{year}.{1 + rng.randrange(12):02d}.{1 + rng.randrange(28):02d}"),
            ("Round", str(1 + i % 11)), ("White", players[0]), ("Black", players[1]),
            ("Result", result), ("GameType", "20")]
    head = "\n".join(f'[{k} "{v}"]' for k, v in tags)
    return f"{head}\n\n{_wrap(moves + ' ' + result)}\n\n"


def _part(args: tuple[int, int, int, str]) -> int:
    first, end, seed, out = args
    core, table, start = _core()
    with open(out, "w", encoding="utf-8") as f:
        for i in range(first, end):
            f.write(game_text(i, seed, core, table, start))
    return end - first


def write_games(games: int, out: Path, *, seed: int = 7, jobs: int = 1) -> int:
    """Write ``games`` random games to ``out`` (in ``jobs`` processes); returns the count."""
    cuts = [games * k // jobs for k in range(jobs + 1)]
    parts = [(cuts[k], cuts[k + 1], seed, f"{out}.part{k}") for k in range(jobs)]
    if jobs == 1:
        _part(parts[0])
    else:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            pool.map(_part, parts)
    with open(out, "wb") as f:
        for part in parts:
            p = Path(part[3])
            with open(p, "rb") as g:
                while block := g.read(1 << 20):
                    f.write(block)
            p.unlink()
    return games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games", type=int)
    ap.add_argument("out", type=Path)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    t = time.perf_counter()
    write_games(args.games, args.out, seed=args.seed, jobs=args.jobs)
    print(f"{args.games} games, {args.out.stat().st_size / 1e6:.1f} MB in "
          f"{time.perf_counter() - t:.0f} s")


if __name__ == "__main__":
    main()
