"""How fast ``pdnkit ratings`` rates a large collection.

A database of ``--games`` games among ``--players`` players over ``--years`` years is made
directly in SQL (random pairings, results and dates from a fixed seed, a tenth of the dates
partial, a twentieth of the results unknown), then ``pdnkit.stats.ratings`` rates it by Elo
and by Glicko-2 with monthly and yearly periods. Prints the time and games/s of each.

    .venv/bin/python benchmarks/ratings.py [--games 200000] [--players 2000] [--years 20]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


def make_db(path: Path, games: int, players: int, years: int, seed: int = 1) -> None:
    """The synthetic database at ``path``."""
    from pdnkit.store import connect

    con = connect(str(path))
    con.execute("INSERT INTO files VALUES (1, 'synthetic.pdn', 'x', 0, 'utf-8', ?, now())",
                [games])
    con.execute(f"""
        INSERT INTO games (game_id, file_id, game_index, variant, white, black, date,
                           date_raw, year, result, outcome, event)
        SELECT i, 1, i - 1, 'international', 'P' || w, 'P' || CASE WHEN b = w THEN (b + 1)
               % {players} ELSE b END,
               CASE WHEN i % 10 = 0 THEN NULL ELSE d END,
               CASE WHEN i % 10 = 0 THEN strftime(d, '%Y.%m.??') ELSE strftime(d, '%Y.%m.%d')
               END,
               year(d),
               CASE WHEN r < 0.35 THEN '1-0' WHEN r < 0.7 THEN '1/2-1/2' WHEN r < 0.95
                    THEN '0-1' ELSE '*' END,
               CASE WHEN r < 0.35 THEN 'white' WHEN r < 0.7 THEN 'draw' WHEN r < 0.95
                    THEN 'black' ELSE 'unknown' END,
               'Event ' || (i // 50)
        FROM (SELECT i, (hash(i, {seed}) % {players})::INT AS w,
                     (hash(i, {seed} + 1) % {players})::INT AS b,
                     (hash(i, {seed} + 2) % 1000000) / 1000000.0 AS r,
                     DATE '2000-01-01' + ((i::BIGINT * {years} * 365) // {games})::INT AS d
              FROM range(1, {games} + 1) t(i))""")
    con.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--players", type=int, default=2_000)
    ap.add_argument("--years", type=int, default=20)
    args = ap.parse_args()

    from pdnkit.stats import ratings

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "ratings.duckdb"
        t0 = time.perf_counter()
        make_db(db, args.games, args.players, args.years)
        print(f"made {args.games:,} games, {args.players:,} players, {args.years} years "
              f"in {time.perf_counter() - t0:.1f} s")
        print("| system | period | s | games rated/s | players |")
        print("|---|---|---|---|---|")
        for system in ("elo", "glicko2"):
            for period in ("month", "year"):
                t0 = time.perf_counter()
                rl = ratings(db, system=system, period=period)
                dt = time.perf_counter() - t0
                print(f"| {system} | {period} | {dt:.2f} | {rl.rated / dt:,.0f} | "
                      f"{len(rl.table):,} |")


if __name__ == "__main__":
    main()
