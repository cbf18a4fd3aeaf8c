"""Ratings read as a stream (:class:`pdnkit.stats.ratings_games.RatedGames`) and the history
written as it is computed (:func:`pdnkit.stats.ratings_stream.ratings_history_stream`, what
``pdnkit ratings --history`` writes), on seeded generated games with every kind of game the
rating leaves out (no result, no date, a placeholder or the same player twice, no variant),
partial dates, events over two years, aliases and rating tags:

* the games, period by period, are those the whole reading (the games read at once as Python
  objects, grouped and sorted in Python: the code the stream replaced, kept here as the
  reference) gives, with the same left-out counts, tags and games per player;
* the stream's rows, in batches small enough that their edges fall inside periods, are the
  rows of ``ratings(...).history``, under every system, period and row filter;
* the command's output in every text format is byte for byte what the whole table's writer
  (:func:`pdnkit.lean.tables.emit`) writes of ``ratings(...).history``, with the same note.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pdnkit.cli import app
from pdnkit.lean.tables import emit, output
from pdnkit.stats import GameFilter, ratings
from pdnkit.stats.common import OUTCOME_SQL
from pdnkit.stats.rating_periods import LEFT_OUT, GamePeriod, game_period
from pdnkit.stats.ratings_games import RatedGames
from pdnkit.stats.ratings_stream import ratings_history_stream
from pdnkit.store.session import reading

runner = CliRunner()

NAMES = [f"Player {i}" for i in range(40)] + ["A. Lee", " Ann Lee ", "?", "NN", "", None]
EVENTS = ["Cup", "Open", "  ", None, "Club 2", "Cup"]


def _date(rng: random.Random) -> tuple[Any, ...]:
    """(date, date_first, date_precision, year) of a generated game: a day, a month, a year,
    a year alone (no date_first), or nothing."""
    day = dt.date(2000, 1, 1) + dt.timedelta(days=rng.randrange(3 * 365))
    kind = rng.random()
    if kind < 0.6:
        return day, day, "day", day.year
    if kind < 0.75:
        return None, day.replace(day=1), "month", day.year
    if kind < 0.85:
        return None, dt.date(day.year, 1, 1), "year", day.year
    if kind < 0.93:
        return None, None, None, day.year
    return None, None, None, None


def make_db(path: Path, games: int, seed: int) -> Path:
    """A database of ``games`` generated games (seeded): two variants and a few games with
    none, names from a pool with placeholders and an alias, results with unknowns."""
    from pdnkit.store import connect

    rng = random.Random(seed)
    con = connect(str(path))
    con.execute("INSERT INTO files VALUES (1, 'generated.pdn', 'x', 0, 'utf-8', ?, now())",
                [games])
    con.execute("INSERT INTO player_aliases VALUES ('A. Lee', 'Ann Lee')")
    rows = []
    for i in range(1, games + 1):
        date, first, precision, year = _date(rng)
        white, black = rng.choice(NAMES), rng.choice(NAMES)
        result = rng.choices(["1-0", "0-1", "1/2-1/2", "*", None], [35, 30, 30, 3, 2])[0]
        outcome = {"1-0": "white", "0-1": "black", "1/2-1/2": "draw"}.get(result or "")
        if rng.random() < 0.2:
            outcome = rng.choice([None, "", "unknown"]) if outcome else None
        variant = rng.choices(["international", "russian", None], [60, 38, 2])[0]
        rows.append((i, i - 1, variant, rng.choice(EVENTS), date, year, first, precision,
                     white, black, result, outcome,
                     rng.choice([None, None, 0, rng.randrange(1200, 2500)]),
                     rng.choice([None, rng.randrange(1200, 2500)])))
    rng.shuffle(rows)  # game ids out of date order
    con.executemany("""
        INSERT INTO games (game_id, file_id, game_index, variant, event, date, year,
                           date_first, date_precision, white, black, result, outcome,
                           white_rating, black_rating)
        VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", rows)
    con.close()
    return path


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_db(tmp_path_factory.mktemp("rstream") / "r.duckdb", 1500, seed=7)


# --------------------------------------------------------------------------------------
# the reference: the games read whole, as rating read them before the stream
# --------------------------------------------------------------------------------------

_SCORES = {"white": 1.0, "draw": 0.5, "black": 0.0}


def _whole(db: Path, gf: GameFilter, period: str) -> tuple[list[tuple[Any, ...]],
                                                          dict[str, int], int]:
    """The games in ``game_id`` order as ``(game_id, variant, period, white, black, wt,
    bt)``, the left-out counts and the games selected."""
    with reading(db) as con:
        where, params = gf.sql(con=con)
        rows = con.execute(f"""
            SELECT g.game_id, g.variant, player_name(g.white), player_name(g.black),
                   {OUTCOME_SQL}, coalesce(g.date_first, g.date),
                   coalesce(g.date_precision, CASE WHEN g.date IS NOT NULL THEN 'day' END),
                   g.year, g.event, g.white_rating, g.black_rating
            FROM games g WHERE {where} ORDER BY g.game_id""", params).fetchall()
    left = dict.fromkeys(LEFT_OUT, 0)
    games = []
    for gid, variant, w, b, oc, date, precision, year, event, wt, bt in rows:
        if oc not in _SCORES:
            left[LEFT_OUT[0]] += 1
            continue
        when = game_period(period, date, precision, year, event)
        if when is None:
            left[LEFT_OUT[1]] += 1
            continue
        if not w or not b or w == b or not variant:
            left[LEFT_OUT[2]] += 1
            continue
        games.append((gid, variant, when, w, b, wt, bt))
    return games, left, len(rows)


def _whole_periods(games: list[tuple[Any, ...]]) -> list[tuple[str, GamePeriod, list[int]]]:
    groups: dict[tuple[str, Any], list[tuple[Any, ...]]] = defaultdict(list)
    for g in games:
        groups[(g[1], g[2].key)].append(g)
    firsts = {k: min(g[2].start for g in v) for k, v in groups.items()}
    order = sorted(groups, key=lambda k: (k[0], firsts[k], groups[k][0][2].label, k[1]))
    out, ordinal, last = [], 0, None
    for k in order:
        if k[0] != last:
            ordinal, last = 0, k[0]
        ordinal += 1
        first = groups[k][0][2]
        clock = first.clock if first.clock is not None else ordinal
        out.append((k[0], GamePeriod(first.key, first.label, firsts[k], clock),
                    [g[0] for g in groups[k]]))
    return out


@pytest.mark.parametrize("period", ["month", "year", "event"])
@pytest.mark.parametrize("filters", [{}, {"variant": "russian"}, {"date_from": "2001-03"},
                                     {"event": "Cup"}])
def test_the_games_come_period_by_period_as_read_whole(db: Path, period: str,
                                                       filters: dict[str, str]) -> None:
    gf = GameFilter.of(None, **filters)  # type: ignore[arg-type]
    games, left, selected = _whole(db, gf, period)
    with reading(db) as con, RatedGames(con, gf, period, rows=7) as rg:
        got = [(v, when, [g.game_id for g in group]) for v, when, group in rg.periods()]
        assert (rg.left_out, rg.selected, rg.rated) == (left, selected, len(games))
        tags: dict[tuple[str, str], int] = {}
        played: dict[tuple[str, str], int] = defaultdict(int)
        for _, v, _, w, b, wt, bt in games:
            for name, tag in ((w, wt), (b, bt)):
                played[(v, name)] += 1
                if tag is not None and tag > 0:
                    tags.setdefault((v, name), tag)
        assert rg.first_tags() == tags and rg.games_played() == played
    assert got == _whole_periods(games)
    assert len(got) > 3 and all(left.values()) or filters


# --------------------------------------------------------------------------------------
# the stream against the whole table
# --------------------------------------------------------------------------------------


def _plain(v: object) -> object:
    """A DataFrame's cell as Arrow gives it."""
    import pandas as pd

    if v is None or v is pd.NA or (isinstance(v, float) and v != v):
        return None
    return v.item() if hasattr(v, "item") else v


CASES = [
    {"system": "elo"},
    {"system": "fmjd", "period": "event"},
    {"system": "glicko2", "period": "year"},
    {"system": "glicko2", "period": "event", "min_games": 20},
    {"system": "elo", "period": "month", "player": "LEE"},
    {"system": "glicko2", "from_tags": True, "min_games": 30, "player": "player 1"},
    {"system": "fmjd", "variant": "international", "date_to": "2001", "k": 32.0},
    {"system": "glicko2", "seed": True},  # the seeds of SEEDS
]


def _case(case: dict[str, Any]) -> dict[str, Any]:
    from pdnkit.stats.rating_lists import Seed

    if case.get("seed"):  # an alias, one list's, a name no game has
        case = {**case, "seed": {(None, "A. Lee"): Seed(1800.0, 90.0),
                                 ("russian", "Player 3"): Seed(1400.0),
                                 (None, "Nobody"): Seed(2000.0)}}
    return case


@pytest.mark.parametrize("rows", [3, 64])
@pytest.mark.parametrize("case", CASES)
def test_the_stream_gives_the_history_rows(db: Path, case: dict[str, Any], rows: int) -> None:
    case = _case(case)
    whole = ratings(db, **case)
    with ratings_history_stream(db, rows=rows, **case) as s:
        batches = [b.to_pylist() for b in s]
        assert all(0 < len(b) <= rows for b in batches)
        got = [tuple(r.values()) for b in batches for r in b]
        assert s.total == len(got) and s.note == whole.note
        assert s.columns == list(whole.history.columns)
    want = [tuple(_plain(v) for v in row) for row in whole.history.itertuples(index=False)]
    assert got == want
    assert len(want) > 5


def test_a_stream_closed_early_stops_and_closes(db: Path) -> None:
    with ratings_history_stream(db, rows=2) as s:
        first = next(iter(s))
    assert first.num_rows == 2 and s.note == ""
    s.close()  # a second close does nothing


def test_a_bad_option_is_raised_at_once(db: Path) -> None:
    from pdnkit.errors import ArgumentError

    with pytest.raises(ArgumentError):
        ratings_history_stream(db, tau=0)


@pytest.mark.parametrize("fmt", ["csv", "csv-raw", "json", "jsonl", "text"])
@pytest.mark.parametrize("args", [["--system", "glicko2"],
                                  ["--system", "fmjd", "--period", "event", "--min-games", "9"],
                                  ["--period", "year", "--player", "lee"]])
def test_the_command_writes_what_the_whole_table_writes(db: Path, tmp_path: Path, fmt: str,
                                                        args: list[str]) -> None:
    ext = {"text": "txt", "csv-raw": "csv"}.get(fmt, fmt)
    got, want = tmp_path / f"got.{ext}", tmp_path / f"want.{ext}"
    res = runner.invoke(app, ["ratings", "--db", str(db), "--history", *args, "-f", fmt,
                              "-o", str(got)])
    assert res.exit_code == 0, res.output
    options: dict[str, Any] = {"system": "elo", "period": "month", "min_games": 1}
    for flag, value in zip(args[::2], args[1::2], strict=True):
        name = flag.lstrip("-").replace("-", "_")
        options[name] = int(value) if name == "min_games" else value
    whole = ratings(db, **options)
    emit(whole.history, output(fmt, want, [db]))
    assert got.read_bytes() == want.read_bytes()
    assert res.stderr.splitlines() == [f"{len(whole.history)} rows -> {got}", whole.note]


def test_the_command_to_standard_output_and_on_the_screen(db: Path, tmp_path: Path) -> None:
    whole = ratings(db, system="glicko2", period="year")
    want = tmp_path / "want.csv"
    emit(whole.history, output("csv", want, [db]))
    res = runner.invoke(app, ["ratings", "--db", str(db), "--history", "--system", "glicko2",
                              "--period", "year", "-f", "csv"])
    assert res.exit_code == 0, res.output
    assert res.stdout == want.read_text(encoding="utf-8")
    assert res.stderr.strip() == whole.note
    screen = runner.invoke(app, ["ratings", "--db", str(db), "--history", "--period", "year"])
    n = len(ratings(db, period="year").history)
    assert screen.exit_code == 0 and f"elo rating history ({n} rows)" in screen.stdout


@pytest.mark.parametrize("pool", ["1MB", "8MB"])
def test_a_buffer_pool_too_small_changes_nothing(db: Path, tmp_path: Path, pool: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The command opens the database with a small buffer pool (the games are read once);
    one too small for the sort (DuckDB spills, or runs out of memory and the command runs
    again on the default pool before its first row) writes the same rows once."""
    import pdnkit.store.session as session

    monkeypatch.setattr(session, "READ_ONCE_MEMORY", pool)
    whole = ratings(db, period="event")
    want = tmp_path / "want.csv"
    emit(whole.history, output("csv", want, [db]))
    res = runner.invoke(app, ["ratings", "--db", str(db), "--history", "--period", "event",
                              "-f", "csv"])
    assert res.exit_code == 0, res.output
    assert res.stdout == want.read_text(encoding="utf-8")
