"""Player names as people write them: what ``--match`` and ``players suggest`` cost.

Builds a database of ``--games`` games (default 100,000) whose White and Black names are
drawn from ``--players`` people (default 5,000), each written in up to six ways (``Surname,
I.``, ``I. Surname``, ``Given Surname``, upper case, without accents, Cyrillic with a Latin
transliteration), straight into the ``games`` table (no replay: only the names matter here),
and prints, warm (best of ``--repeat``):

* ``--player X --match`` three ways: the names computed in Python and bound as one list
  parameter (:func:`pdnkit.stats.filters.matching_names`, what pdnkit does), a DuckDB Python
  UDF over the distinct names in a subquery, and the UDF called on every game's names;
* the substring filter (``--player X`` without ``--match``) for scale;
* ``stats results`` with each filter, and ``players suggest`` on the whole database.

    python benchmarks/players.py                   # 100,000 games, 5,000 players
    python benchmarks/players.py --games 20000     # a quicker run
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

_SYLLABLES = ["ka", "ro", "vi", "ts", "ev", "an", "ol", "mi", "sh", "ko", "la", "be", "no",
              "dr", "ze", "ul", "ar", "ni", "po", "te"]
_CYR = {"ka": "ка", "ro": "ро", "vi": "ви", "ts": "ц", "ev": "ев", "an": "ан", "ol": "ол",
        "mi": "ми", "sh": "ш", "ko": "ко", "la": "ла", "be": "бе", "no": "но", "dr": "др",
        "ze": "зе", "ul": "ул", "ar": "ар", "ni": "ни", "po": "по", "te": "те"}
_GIVEN = ["Anton", "Boris", "Cees", "Dirk", "Emil", "Frans", "Gérard", "Hans", "Igor", "Jan",
          "Karel", "Lev", "Marion", "Nikolai", "Oleg", "Pieter", "Roman", "Sergei", "Ton"]


def _people(n: int, rng: random.Random) -> list[list[str]]:
    """``n`` people, each with the ways the games write their name."""
    out = []
    for _ in range(n):
        parts = [rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))]
        sur = "".join(parts).capitalize()
        given = rng.choice(_GIVEN)
        forms = [f"{sur}, {given[0]}.", f"{given[0]}. {sur}", f"{given} {sur}",
                 f"{sur.upper()} {given}", f"{given.replace('é', 'e')} {sur}"]
        if rng.random() < 0.3:
            forms.append(f"{''.join(_CYR[p] for p in parts).capitalize()} "
                         f"{given[0].translate(str.maketrans('ABCDEFGHIJKLMNOPRST', 'АБЦДЕФГХИЙКЛМНОПРСТ'))}.")
        out.append(forms)
    return out


def build(db: Path, games: int, players: int, seed: int = 1) -> list[list[str]]:
    """The database of ``games`` games between the ``players`` people; returns the people."""
    import duckdb

    from pdnkit.store.schema import ensure_schema

    rng = random.Random(seed)
    people = _people(players, rng)
    import pyarrow as pa

    cols: dict[str, list[Any]] = {k: [] for k in ("game_id", "file_id", "game_index", "variant",
                                                   "white", "black", "result", "year")}
    for gid in range(1, games + 1):
        w, b = rng.sample(people, 2)
        for k, v in zip(cols, (gid, 1, gid - 1, "international", rng.choice(w), rng.choice(b),
                               rng.choice(["1-0", "0-1", "1/2-1/2"]), 2000 + gid % 20),
                        strict=True):
            cols[k].append(v)
    con = duckdb.connect(str(db))
    ensure_schema(con)
    con.register("bench_games", pa.table(cols))
    con.execute("INSERT INTO games BY NAME SELECT *, CASE result WHEN '1-0' THEN 'white' "
                "WHEN '0-1' THEN 'black' ELSE 'draw' END AS outcome FROM bench_games")
    con.close()
    return people


def best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    fn()  # warm-up
    times, value = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - t)
    return min(times), value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--players", type=int, default=5_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    from pdnkit.pdn.names import same_player
    from pdnkit.stats import results, suggest
    from pdnkit.stats.filters import GameFilter, matching_names
    from pdnkit.store import connect

    folder = Path(tempfile.mkdtemp(prefix="pdnkit-players-"))
    db = folder / "players.duckdb"
    t = time.perf_counter()
    people = build(db, args.games, args.players)
    print(f"database: {args.games:,} games, {args.players:,} people "
          f"({sum(map(len, people)):,} spellings), built in {time.perf_counter() - t:.1f} s")
    con = connect(db, read_only=True)
    distinct = con.execute("SELECT count(*) FROM (SELECT trim(white) FROM games UNION "
                           "SELECT trim(black) FROM games)").fetchall()[0][0]
    print(f"distinct names: {distinct:,}")
    query = people[0][2]  # "Given Surname"
    names_sql = ("(SELECT trim(white) AS n FROM games UNION SELECT trim(black) FROM games)")
    t = time.perf_counter()
    con.create_function("bench_same_player", same_player, ["VARCHAR", "VARCHAR"], "BOOLEAN")
    print(f"registering the UDF: {1000 * (time.perf_counter() - t):.1f} ms (numpy imported "
          "by DuckDB's Python UDFs on first use)")

    def by_list() -> int:
        names = matching_names(con, query)
        return int(con.execute("SELECT count(*) FROM games g WHERE trim(g.white) IN (SELECT "
                               "unnest(?::VARCHAR[])) OR trim(g.black) IN (SELECT "
                               "unnest(?::VARCHAR[]))", [names, names]).fetchall()[0][0])

    def by_udf_names() -> int:
        sub = f"(SELECT n FROM {names_sql} WHERE bench_same_player(?, n))"
        return int(con.execute(f"SELECT count(*) FROM games g WHERE trim(g.white) IN {sub} OR "
                               f"trim(g.black) IN {sub}", [query, query]).fetchall()[0][0])

    def by_udf_rows() -> int:
        return int(con.execute("SELECT count(*) FROM games g WHERE bench_same_player(?, "
                               "trim(g.white)) OR bench_same_player(?, trim(g.black))",
                               [query, query]).fetchall()[0][0])

    def substring() -> int:
        where, params = GameFilter(player=query).sql()
        return int(con.execute(f"SELECT count(*) FROM games g WHERE {where}",
                               params).fetchall()[0][0])

    print(f"\n--player {query!r}")
    base = None
    for label, fn in (("--match: names in Python, bound as a list (pdnkit)", by_list),
                      ("--match: UDF over the distinct names", by_udf_names),
                      ("--match: UDF on every game", by_udf_rows),
                      ("substring (no --match)", substring)):
        secs, n = best(fn, args.repeat)
        base = base or secs
        print(f"  {label:<52} {1000 * secs:8.1f} ms  {n:6,} games  x{secs / base:.1f}")
    for label, gf in (("stats results --player --match", GameFilter(player=query, match=True)),
                      ("stats results --player", GameFilter(player=query)),
                      ("stats results", GameFilter())):
        secs, df = best(lambda gf=gf: results(con, filter=gf), args.repeat)
        print(f"  {label:<52} {1000 * secs:8.1f} ms  {int(df['games'].sum()):6,} games")
    secs, df = best(lambda: suggest(con), max(1, args.repeat - 1))
    print(f"\nplayers suggest: {secs:.2f} s, {len(df):,} proposals "
          f"({(df['confidence'] >= 0.8).sum():,} at 0.8 or more)")
    con.close()


if __name__ == "__main__":
    main()
