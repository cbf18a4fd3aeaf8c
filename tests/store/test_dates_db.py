"""Dates in the database: what each game's date tag says is kept at its precision
(``games.date_first``, ``date_last``, ``date_precision``, ``date_text``), the filters and the
novelties' order read that span, every table shows the same text for a game, and an
upgraded database gets the columns an import gives.

The games (hand-written; each a different opening so that every novelty is at ply 1 or 2):

====  ===============  =============================================================
game  Date tag         what is known
====  ===============  =============================================================
1     2003.04.02       the day
2     2003.03.??       March 2003: earlier than game 1 although it comes later in the file
3     1841-??-??       the year 1841
4     1999/00          the season 1999/2000 (no ``bad-date``)
5     (Anno 1990)      the year, from the Italian year tag
6     03.07.20         no date (two-digit year): shown as written, ``bad-date``
7     ????.??.??       unknown
====  ===============  =============================================================
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from pdnkit.stats import novelties, players
from pdnkit.stats.search import search
from pdnkit.store import connect, import_files
from pdnkit.store.upgrades import needs_upgrade, upgrade
from tests.store.legacy import record_as

D = dt.date
GAMES = [  # (date tag, year tag, white, black, moves)
    ("2003.04.02", None, "Ann", "Bob", "1. 32-28 19-23 2. 28x19 14x23"),
    ("2003.03.??", None, "Bob", "Ann", "1. 32-28 19-23 2. 37-32"),
    ("1841-??-??", None, "Cid", "Ann", "1. 33-28 19-23"),
    ("1999/00", None, "Ann", "Dan", "1. 34-30 19-23"),
    (None, "1990", "Eve", "Ann", "1. 31-27 19-23"),
    ("03.07.20", None, "Ann", "Fay", "1. 35-30 19-23"),
    ("????.??.??", None, "Gus", "Ann", "1. 31-26 19-23"),
]
EXPECTED = [  # (date_first, date_last, date_precision, date_text) of each game
    (D(2003, 4, 2), D(2003, 4, 2), "day", "2003-04-02"),
    (D(2003, 3, 1), D(2003, 3, 31), "month", "2003-03"),
    (D(1841, 1, 1), D(1841, 12, 31), "year", "1841"),
    (D(1999, 1, 1), D(2000, 12, 31), "year", "1999/2000"),
    (D(1990, 1, 1), D(1990, 12, 31), "year", "1990"),
    (None, None, None, "03.07.20"),
    (None, None, None, None),
]
COLUMNS = "date_first, date_last, date_precision, date_text"


def _pdn() -> str:
    out = []
    for date, year, white, black, moves in GAMES:
        tags = [f'[White "{white}"]', f'[Black "{black}"]', '[GameType "20"]']
        if date is not None:
            tags.append(f'[Date "{date}"]')
        if year is not None:
            tags.append(f'[Anno "{year}"]')
        out.append("\n".join(tags) + f"\n\n{moves} *\n")
    return "\n".join(out)


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    f = tmp_path / "dates.pdn"
    f.write_text(_pdn(), encoding="utf-8")
    path = tmp_path / "dates.duckdb"
    import_files([f], db=path)
    return path


def _columns(db: Path) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(f"SELECT {COLUMNS} FROM games ORDER BY game_id").fetchall()
    finally:
        con.close()


def test_each_game_keeps_what_its_date_says(db: Path) -> None:
    assert _columns(db) == EXPECTED
    con = connect(db, read_only=True)
    bad = con.execute("SELECT g.game_index FROM findings f JOIN games g USING (game_id) "
                      "WHERE f.code = 'bad-date'").fetchall()
    con.close()
    assert bad == [(5,)]  # 03.07.20 alone: the season is a date


def test_novelties_show_and_order_by_what_is_known(db: Path) -> None:
    df = novelties(db)
    assert [None if pd.isna(d) else d for d in df["date"]] == [
        "1841", "1990", "1999/2000", "2003-03", "2003-04-02", "03.07.20", None]
    row = df.set_index("game_id").loc[1]
    # game 1 (2 April) deviated at 28x19 from game 2 (March), earlier by what is known
    assert (row["novelty_ply"], row["deviated_from"], row["from_date"]) == (3, 2, "2003-03")


def test_every_table_shows_the_same_date_text(db: Path, tmp_path: Path) -> None:
    hits = search(db, pattern="W28")  # a white man on 28: games 1-3
    assert dict(zip(hits["game_id"], hits["date"], strict=True)) == {
        1: "2003-04-02", 2: "2003-03", 3: "1841"}
    ann = players(db).set_index("player").loc["Ann"]
    assert (ann["first_date"], ann["last_date"]) == ("1841", "2003-04-02")
    from pdnkit.stats import games

    listed = games(db)  # pdnkit games and the explorer's game list
    assert [None if pd.isna(d) else d for d in listed["date"]] == [e[3] for e in EXPECTED]
    from pdnkit.viewer.page import view

    out = tmp_path / "v.html"
    view(db=db, out=out)
    index = json.loads(re.search(r'id="pdnkit-index">(.*?)</script>',
                                 out.read_text(encoding="utf-8"), flags=re.S).group(1))  # type: ignore[union-attr]
    assert [g["date"] for g in index["games"]] == [e[3] or "" for e in EXPECTED]


@pytest.mark.parametrize(("date_from", "date_to", "games"), [
    ("2000", None, [1, 2, 4]),             # the season 1999/2000 meets 2000
    (None, "1999-06", [3, 4, 5]),          # ... and the first half of 1999
    ("2003-04", None, [1]),                # March 2003 is before April
    ("2003-03-15", "2003-03-20", [2]),     # a day of March 2003 may be game 2's
    ("1841", "1841", [3]),
])
def test_date_filters_read_the_span(db: Path, date_from: str | None, date_to: str | None,
                                    games: list[int]) -> None:
    df = novelties(db, date_from=date_from, date_to=date_to)
    assert sorted(df["game_id"]) == games


def test_an_upgrade_fills_the_date_columns_as_an_import_does(db: Path) -> None:
    con = duckdb.connect(str(db))
    for col in COLUMNS.split(", "):
        con.execute(f"ALTER TABLE games DROP COLUMN {col}")
    from pdnkit.store.schema import SCHEMA_DIGEST, SCHEMA_VERSION

    record_as(con, str(SCHEMA_VERSION))  # as the schema was before these columns
    con.execute("UPDATE pdnkit_meta SET value = 'before dates' WHERE key = ?", [SCHEMA_DIGEST])
    con.close()
    assert needs_upgrade(db)
    result = upgrade(db, notice=None)
    assert result.upgraded and any("date_first" in f for f in result.fills)
    assert _columns(db) == EXPECTED
    assert list(novelties(db)["game_id"]) == [3, 5, 4, 2, 1, 6, 7]
