"""Elo's table of expected scores (``pdnkit ratings --system fmjd``) against the published
table, a period worked by hand from it through the real program, and the games a rating
list counts (each game once unless every copy is asked for).

Sources of the reference values (transcribed here, not produced by pdnkit):

* the table of the scoring probability ``PD`` by rating difference ``D`` for the higher
  (``H``) and the lower (``L``) rated player: FIDE Rating Regulations, table 8.1(b) (8.1.2
  in the current handbook, handbook.fide.com chapter B02), reproduced as the
  "Percentage-Verwachting tabel" of nl.wikipedia.org/wiki/Elo-rating and, in Russian, on
  chess.sainfo.ru/ratingtext.html; it is Elo's table (*The Rating of Chessplayers, Past and
  Present*, 1978), "de oorspronkelijke kansentabel van Arpad Elo, welke nog steeds wordt
  gebruikt in de damwereld" (De Rode Loper, drl.tuxtown.net/clubelo.php);
* nl.wikipedia.org/wiki/Elo-rating, the short table "Verschil / Sterke speler / Zwakke
  speler" (0 .50, 25 .53, 50 .57, 100 .64 ... 735 .99, > 735 1.00), a second transcription;
* the rule of the update, ``Rn = Ro + K x sum(W - We)`` with ``We`` read from the table
  (FIDE 8.3.2; FMJD Annex 9, "FMJD rating system and its application rules", article 3.2).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from pdnkit.stats import GameFilter
from pdnkit.stats.rating_lists import ratings
from pdnkit.stats.rating_systems import (
    EXPECTED_TABLE,
    elo_expected,
    elo_update,
    table_expected,
)
from tests.cli.helpers import cli

#: FIDE table 8.1(b) as printed: "D-range H L", four column groups read top to bottom
PUBLISHED = """
0-3 .50 .50       92-98 .63 .37     198-206 .76 .24   345-357 .89 .11
4-10 .51 .49      99-106 .64 .36    207-215 .77 .23   358-374 .90 .10
11-17 .52 .48     107-113 .65 .35   216-225 .78 .22   375-391 .91 .09
18-25 .53 .47     114-121 .66 .34   226-235 .79 .21   392-411 .92 .08
26-32 .54 .46     122-129 .67 .33   236-245 .80 .20   412-432 .93 .07
33-39 .55 .45     130-137 .68 .32   246-256 .81 .19   433-456 .94 .06
40-46 .56 .44     138-145 .69 .31   257-267 .82 .18   457-484 .95 .05
47-53 .57 .43     146-153 .70 .30   268-278 .83 .17   485-517 .96 .04
54-61 .58 .42     154-162 .71 .29   279-290 .84 .16   518-559 .97 .03
62-68 .59 .41     163-170 .72 .28   291-302 .85 .15   560-619 .98 .02
69-76 .60 .40     171-179 .73 .27   303-315 .86 .14   620-735 .99 .01
77-83 .61 .39     180-188 .74 .26   316-328 .87 .13   736-9999 1.00 .00
84-91 .62 .38     189-197 .75 .25   329-344 .88 .12
"""

#: nl.wikipedia "Elo-rating": a difference and the stronger and weaker player's expectation
WIKIPEDIA_SHORT = {0: (0.50, 0.50), 25: (0.53, 0.47), 50: (0.57, 0.43), 100: (0.64, 0.36),
                   150: (0.70, 0.30), 200: (0.76, 0.24), 250: (0.81, 0.19),
                   300: (0.85, 0.15), 350: (0.89, 0.11), 400: (0.92, 0.08),
                   450: (0.94, 0.06), 500: (0.96, 0.04), 735: (0.99, 0.01),
                   736: (1.00, 0.00)}


def _published() -> dict[int, tuple[float, float]]:
    """Every whole difference 0 to 1000 -> (H, L) as the printed table gives it."""
    words = PUBLISHED.split()
    rows = [words[i:i + 3] for i in range(0, len(words), 3)]
    out: dict[int, tuple[float, float]] = {}
    for rng, high, low in rows:
        lo, hi = (int(x) for x in rng.split("-"))
        for d in range(lo, min(hi, 1000) + 1):
            assert d not in out, f"the transcription repeats {d}"
            out[d] = (float(high), float(low))
    assert sorted(out) == list(range(1001)), "the transcription leaves a gap"
    return out


def test_the_table_is_the_published_one_at_every_difference() -> None:
    published = _published()
    assert len(EXPECTED_TABLE) == 50
    for d, (high, low) in published.items():
        assert table_expected(1500 + d, 1500) == high, d
        assert table_expected(1500, 1500 + d) == low, d
        assert table_expected(2400, 2400 - d) == high, d  # only the difference counts
    for d, (high, low) in WIKIPEDIA_SHORT.items():
        assert (table_expected(2000 + d, 2000), table_expected(2000, 2000 + d)) == (high, low)


def test_the_table_is_not_the_logistic_formula() -> None:
    # the two part where Elo's normal table and the logistic curve round differently
    assert table_expected(1900, 1500) == 0.92 and round(elo_expected(1900, 1500), 2) == 0.91
    assert table_expected(2300, 1500) == 1.0 and elo_expected(2300, 1500) < 0.995
    # a fractional difference is read at the nearest whole point
    assert table_expected(1503.4, 1500) == 0.50 and table_expected(1503.5, 1500) == 0.51
    assert table_expected(1500, 1503.5) == 0.49


def test_a_period_worked_by_hand_from_the_table() -> None:
    # 2300 beats 2150 (D 150: .70), draws 2400 (D 100: L .36), loses to 2650 (D 350: L .11)
    # and beats 1800 (D 500: .96): We = 2.13, W = 2.5, K 20 -> 2300 + 20 x 0.37 = 2307.4
    games = [(2150, 1.0), (2400, 0.5), (2650, 0.0), (1800, 1.0)]
    assert elo_update(2300, games, k=20, expected=table_expected) == pytest.approx(2307.4)
    assert elo_update(2300, games, k=20) != pytest.approx(2307.4)  # the formula differs


def _game(white: str, black: str, result: str, date: str = "2021.03.06",
          moves: str = "1. 32-28 19-23") -> str:
    return (f'[Event "Open"]\n[Date "{date}"]\n[White "{white}"]\n[Black "{black}"]\n'
            f'[Result "{result}"]\n[GameType "20"]\n\n{moves} {result}\n\n')


def _db(tmp_path: Path, text: str) -> Path:
    src = tmp_path / "games.pdn"
    src.write_text(text, encoding="utf-8")
    db = tmp_path / "games.duckdb"
    code, _, err = cli("import", src, "--db", db, "--quiet")
    assert code in (0, 1), err
    return db


def test_the_worked_period_through_the_real_program(tmp_path: Path) -> None:
    db = _db(tmp_path, _game("Player", "Opp 2150", "2-0") + _game("Opp 2400", "Player", "1-1")
             + _game("Player", "Opp 2650", "0-2") + _game("Opp 1800", "Player", "0-2"))
    seed = tmp_path / "seed.csv"
    seed.write_text("player,rating\nPlayer,2300\nOpp 2150,2150\nOpp 2400,2400\n"
                    "Opp 2650,2650\nOpp 1800,1800\n", encoding="utf-8")
    code, out, err = cli("ratings", "--db", db, "--system", "fmjd", "--seed", seed,
                         "-f", "csv")
    assert code == 0, err
    got = {r["player"]: float(r["rating"]) for r in csv.DictReader(io.StringIO(out))}
    # each opponent by hand: 2150 loses at L .30 (-6), 2400 draws at H .64 (-2.8),
    # 2650 wins at H .89 (+2.2), 1800 loses at L .04 (-0.8)
    assert got == {"Player": 2307.4, "Opp 2150": 2144.0, "Opp 2400": 2397.2,
                   "Opp 2650": 2652.2, "Opp 1800": 1799.2}
    assert "rd" not in out.splitlines()[0] and "fmjd" in err


def test_a_rating_list_counts_each_game_once(tmp_path: Path) -> None:
    # the same game twice in the file: one record stands for both (games.duplicate_of)
    same = _game("Ann", "Bob", "2-0", moves="1. 32-28 19-23 2. 28x19 14x23")
    db = _db(tmp_path, same + same + _game("Bob", "Cid", "1-1", "2021.03.07"))
    once = ratings(db, system="fmjd", k=20)
    every = ratings(db, system="fmjd", k=20, filter=GameFilter(all_copies=True))
    assert (once.rated, once.selected, every.rated, every.selected) == (2, 2, 3, 3)
    ann = dict(zip(once.table["player"], once.table["games"], strict=True))["Ann"]
    ann_all = dict(zip(every.table["player"], every.table["games"], strict=True))["Ann"]
    assert (ann, ann_all) == (1, 2)
    # Ann beat Bob once at 1500 each: +10; counted twice in one period: +20
    rating = dict(zip(once.table["player"], once.table["rating"], strict=True))
    assert rating["Ann"] == 1510.0
