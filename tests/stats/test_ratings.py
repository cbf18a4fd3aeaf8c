"""Ratings: the published examples through ``pdnkit ratings`` on PDN written here, the
formulas against their sources, periods, partial dates, seeds, aliases, performance ratings,
the plot and the report.

Sources: M. E. Glickman, *Example of the Glicko-2 system* (Boston University; the worked
example: a 1500/200/0.06 player beats 1400/30 and loses to 1550/100 and 1700/300 in one
period, tau 0.5 -> 1464.06, 151.52, 0.05999); Elo's formula with K 32 (two 1500 players,
one win: 1516 and 1484); the FIDE Rating Regulations' tables 8.1(a) (a score ``p`` as the
rating difference ``dp``) and 8.1(b) (a rating difference as the expected score).
"""

from __future__ import annotations

import csv
import io
import json
import math
import random
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from pdnkit.stats.rating_lists import ratings
from pdnkit.stats.rating_periods import game_period
from pdnkit.stats.rating_systems import (
    DP_TABLE,
    Glicko,
    elo_expected,
    elo_update,
    glicko2_idle,
    glicko2_update,
    performance_dp,
    performance_rating,
)
from tests.cli.helpers import cli
from tests.shared import shared_path


def _game(white: str, black: str, result: str, date: str = "2020.05.01", *,
          event: str = "Club", gametype: str = "20", extra: str = "") -> str:
    date_tag = f'[Date "{date}"]\n' if date is not None else ""
    return (f'[Event "{event}"]\n{date_tag}[White "{white}"]\n[Black "{black}"]\n'
            f'[Result "{result}"]\n[GameType "{gametype}"]\n{extra}\n1. 32-28 19-23 {result}\n\n')


def _db(tmp_path: Path, text: str, name: str = "games") -> Path:
    """A database of the PDN ``text``, imported by ``pdnkit import``."""
    src = tmp_path / f"{name}.pdn"
    src.write_text(text, encoding="utf-8")
    db = tmp_path / f"{name}.duckdb"
    code, _, err = cli("import", src, "--db", db, "--quiet")
    assert code in (0, 1), err
    return db


def _rows(*args: str | Path) -> tuple[list[dict[str, str]], str]:
    """``pdnkit ratings ARGS -f csv``: the rows and the note on standard error."""
    code, out, err = cli("ratings", *args, "-f", "csv")
    assert code == 0, err
    return list(csv.DictReader(io.StringIO(out))), err.strip()


# --------------------------------------------------------------------------------------
# the published examples, through the command line
# --------------------------------------------------------------------------------------

GLICKMAN = (_game("Player", "Opponent 1400", "2-0", "2013.11.30")
            + _game("Opponent 1550", "Player", "2-0", "2013.11.30")
            + _game("Player", "Opponent 1700", "0-2", "2013.11.30"))
GLICKMAN_SEED = ("player,rating,rd,volatility\nPlayer,1500,200,0.06\n"
                 "Opponent 1400,1400,30,0.06\nOpponent 1550,1550,100,0.06\n"
                 "Opponent 1700,1700,300,0.06\n")


def test_glickman_worked_example_through_the_real_program(tmp_path: Path) -> None:
    db = _db(tmp_path, GLICKMAN)
    seed = tmp_path / "seed.csv"
    seed.write_text(GLICKMAN_SEED, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pdnkit", "ratings", "--db", str(db),
                          "--system", "glicko2", "--tau", "0.5", "--seed", str(seed),
                          "-f", "json"], capture_output=True, text=True, timeout=120,
                         check=False)
    assert run.returncode == 0, run.stderr
    row = next(r for r in json.loads(run.stdout) if r["player"] == "Player")
    # Glickman's 1464.06 rounds mu' to -0.2069 first; exact arithmetic gives 1464.0507
    assert abs(row["rating"] - 1464.06) <= 0.011
    assert row["rd"] == 151.52
    assert abs(row["volatility"] - 0.05999) < 0.00001
    assert (row["games"], row["wins"], row["draws"], row["losses"]) == (3, 1, 0, 2)
    assert (row["last_period"], row["start"]) == ("2013-11", "seed")
    assert "3 of 3 games rated (4 players, 1 variant list, glicko2)" in run.stderr


def test_elo_k32_one_win_between_two_1500_players(tmp_path: Path) -> None:
    db = _db(tmp_path, _game("Ann", "Bob", "1-0"))
    rows, note = _rows("--db", db, "--k", "32")
    assert [(r["player"], float(r["rating"])) for r in rows] == [("Ann", 1516.0),
                                                                 ("Bob", 1484.0)]
    assert "rd" not in rows[0] and note.startswith("1 of 1 games rated (2 players")


# --------------------------------------------------------------------------------------
# the formulas against their sources
# --------------------------------------------------------------------------------------


def test_glicko2_worked_example_in_the_library() -> None:
    new = glicko2_update(Glicko(1500, 200, 0.06), [(Glicko(1400, 30), 1.0),
                                                    (Glicko(1550, 100), 0.0),
                                                    (Glicko(1700, 300), 0.0)], tau=0.5)
    assert abs(new.rating - 1464.06) < 0.011 and round(new.rd, 2) == 151.52
    assert abs(new.volatility - 0.05999) < 0.00001
    # step 8 read backwards: the paper's mu' = -0.2069 and phi' = 0.8722
    assert round((new.rating - 1500) / 173.7178, 4) == -0.2069
    assert round(new.rd / 173.7178, 4) == 0.8722


def test_glicko2_a_period_without_games_is_step_6() -> None:
    # Glickman: a player who does not compete keeps r and sigma, phi' = sqrt(phi^2 + sigma^2)
    idle = glicko2_update(Glicko(1500, 200, 0.06), [])
    assert idle.rating == 1500 and idle.volatility == 0.06
    assert idle.rd == pytest.approx(173.7178 * math.sqrt((200 / 173.7178) ** 2 + 0.0036))
    three = glicko2_idle(Glicko(1500, 200, 0.06), 3)
    once = Glicko(1500, 200, 0.06)
    for _ in range(3):
        once = glicko2_idle(once)
    assert three.rd == pytest.approx(once.rd)


def test_elo_expected_score_matches_fide_table_8_1_b() -> None:
    # table 8.1(b): a difference of 198-206 gives the higher rated .76, 92-98 gives .63
    assert round(elo_expected(1700, 1500), 2) == 0.76
    assert round(elo_expected(1595, 1500), 2) == 0.63
    assert elo_update(2000, [(2000, 1.0), (2000, 0.0)], k=10) == 2000


def test_fide_table_8_1_a_values_and_performance() -> None:
    published = {1.0: 800, 0.99: 677, 0.9: 366, 0.78: 220, 0.67: 125, 0.51: 7, 0.5: 0,
                 0.25: -193, 0.11: -351, 0.01: -677, 0.0: -800}
    assert {p: performance_dp(p) for p in published} == published
    assert len(DP_TABLE) == 51 and list(DP_TABLE) == sorted(DP_TABLE)
    assert performance_dp(7 / 9) == 220  # .777... read as .78
    # 7 of 9 against 2300s: 2300 + 220; 4.5 of 9 against 2100 and 2500: 2300 + 0
    assert performance_rating([2300] * 9, 7.0) == 2520
    assert performance_rating([2100, 2500] * 4 + [2300], 4.5) == 2300
    with pytest.raises(ValueError):
        performance_rating([2300], 2.0)


def test_elo_with_one_k_keeps_the_sum_of_ratings() -> None:
    """Seeded random periods: with one K for everyone every point won is a point lost."""
    rnd = random.Random(7)
    names = [f"P{i}" for i in range(8)]
    ratings_now = dict.fromkeys(names, 1500.0)
    for _ in range(30):
        games = [(rnd.choice(names), rnd.choice(names), rnd.choice((0.0, 0.5, 1.0)))
                 for _ in range(6)]
        games = [g for g in games if g[0] != g[1]]
        played: dict[str, list[tuple[float, float]]] = {}
        for w, b, s in games:
            played.setdefault(w, []).append((ratings_now[b], s))
            played.setdefault(b, []).append((ratings_now[w], 1 - s))
        ratings_now |= {p: elo_update(ratings_now[p], res, k=24) for p, res in played.items()}
    assert sum(ratings_now.values()) == pytest.approx(1500.0 * len(names))


def test_glicko2_stays_finite_on_generated_periods() -> None:
    """Seeded random players and periods, extreme ratings and deviations included."""
    rnd = random.Random(11)
    for _ in range(300):
        me = Glicko(rnd.uniform(-2000, 6000), rnd.uniform(1, 600), rnd.uniform(0.001, 0.5))
        games = [(Glicko(rnd.choice((rnd.uniform(0, 3000), me.rating + 10_000)),
                         rnd.uniform(1, 600), 0.06), rnd.choice((0.0, 0.5, 1.0)))
                 for _ in range(rnd.randint(1, 12))]
        new = glicko2_update(me, games, tau=rnd.uniform(0.2, 1.5))
        assert all(math.isfinite(x) for x in (new.rating, new.rd, new.volatility))
        assert 0 < new.rd <= math.hypot(me.rd, 173.7178 * new.volatility) + 1e-9


# --------------------------------------------------------------------------------------
# periods and the games left out
# --------------------------------------------------------------------------------------


def test_game_period_reads_the_most_precise_date() -> None:
    import datetime as dt

    assert game_period("month", dt.date(1965, 5, 17), "day", 1965).label == "1965-05"
    assert game_period("month", dt.date(1965, 5, 1), "month", 1965).label == "1965-05"
    year_only = game_period("month", dt.date(1965, 1, 1), "year", 1965)
    december = game_period("month", dt.date(1965, 12, 31), "day", 1965)
    assert year_only is not None and december is not None
    assert (year_only.label, year_only.clock) == ("1965", december.clock)
    assert game_period("year", dt.date(1965, 5, 1), "month", 1965).label == "1965"
    assert game_period("event", None, None, 1965, "  ").label == "1965"
    assert game_period("month", None, None, None) is None
    # a lake's older parts: no date columns of their own, the year alone
    assert game_period("month", None, None, 1965).label == "1965"
    with pytest.raises(ValueError, match="period must be one of"):
        game_period("week", None, None, 1965)


def test_left_out_games_are_counted_in_the_note(tmp_path: Path) -> None:
    text = (_game("Ann", "Bob", "1-0", "2020.05.01")
            + _game("Ann", "Cid", "*", "2020.05.02")          # no result
            + _game("Bob", "Cid", "1-0", "????.??.??")       # no date
            + _game("Bob", "Cid", "0-1", None)                 # no Date tag
            + _game("Ann", "?", "1-0", "2020.05.03")           # a placeholder
            + _game("Ann", "Ann", "1/2-1/2", "2020.05.04"))    # the same player
    db = _db(tmp_path, text)
    rows, note = _rows("--db", db)
    assert [r["player"] for r in rows] == ["Ann", "Bob"]
    assert note == ("1 of 6 games rated (2 players, 1 variant list, elo); left out: "
                    "1 without a result, 2 without a date, 2 without two named players")


def test_partial_dates_rate_in_their_period_and_periods_are_simultaneous(tmp_path: Path
                                                                         ) -> None:
    text = (_game("Ann", "Bob", "1-0", "1965.05.??")
            + _game("Bob", "Cid", "1-0", "1965.05.20")    # same month: Bob still 1500 for Cid
            + _game("Cid", "Ann", "1-0", "1965.??.??")    # the year only: after December
            + _game("Dan", "Cid", "1-0", "1965.12.01"))
    db = _db(tmp_path, text)
    hist, _ = _rows("--db", db, "--k", "20", "--history")
    got = [(r["period"], r["player"], float(r["rating"])) for r in hist]
    assert got[:3] == [("1965-05", "Ann", 1510.0), ("1965-05", "Bob", 1500.0),
                       ("1965-05", "Cid", 1490.0)]
    gain = 20 * (1 - elo_expected(1500, 1490))  # Dan (1500) beats Cid (1490) in December
    assert got[3:5] == [("1965-12", "Dan", pytest.approx(1500 + gain, abs=0.01)),
                        ("1965-12", "Cid", pytest.approx(1490 - gain, abs=0.01))]
    assert [r["period"] for r in hist][-2:] == ["1965", "1965"]
    final, _ = _rows("--db", db, "--k", "20")
    assert {r["player"]: r["last_period"] for r in final}["Ann"] == "1965"


def test_event_periods_and_their_performance(tmp_path: Path) -> None:
    text = (_game("Ann", "Bob", "1-0", "2020.05.01", event="Spring Open")
            + _game("Cid", "Ann", "0-1", "2020.05.02", event="Spring Open")
            + _game("Ann", "Bob", "0-1", "2020.05.03", event="May Cup"))
    db = _db(tmp_path, text)
    hist, _ = _rows("--db", db, "--period", "event", "--history", "--player", "Ann")
    assert [(r["period"], r["games"], r["points"]) for r in hist] == [
        ("Spring Open", "2", "2.0"), ("May Cup", "1", "0.0")]
    # 2 of 2 against two 1500s: 1500 + 800; then 0 of 1 against Bob's 1490
    assert [r["performance"] for r in hist] == ["2300", "690"]


def test_glicko2_rd_grows_in_the_months_a_player_misses(tmp_path: Path) -> None:
    text = (_game("Ann", "Bob", "1/2-1/2", "2020.01.10")
            + _game("Cid", "Dan", "1/2-1/2", "2020.02.10")
            + _game("Ann", "Bob", "1/2-1/2", "2020.04.10"))
    db = _db(tmp_path, text)
    hist, _ = _rows("--db", db, "--system", "glicko2", "--history", "--player", "Ann")
    jan, apr = hist
    after_jan = Glicko(float(jan["rating"]), float(jan["rd"]), float(jan["volatility"]))
    idle = glicko2_idle(after_jan, 2)  # February and March
    expected = glicko2_update(idle, [(idle, 0.5)], tau=0.5)
    assert float(apr["rd"]) == pytest.approx(expected.rd, abs=0.01)


# --------------------------------------------------------------------------------------
# seeds, tags, aliases, rows
# --------------------------------------------------------------------------------------


def test_seed_under_an_alias_and_the_tags(tmp_path: Path) -> None:
    text = (_game("M Tinsley", "Bob", "1-0", "2020.05.01",
                  extra='[WhiteElo "2400"]\n[BlackElo "2100"]\n')
            + _game("Cid", "Bob", "1-0", "2020.06.01", extra='[BlackElo "2000"]\n'))
    db = _db(tmp_path, text)
    code, _, err = cli("players", "alias", "M Tinsley", "--as", "Marion Tinsley", "--db", db)
    assert code == 0, err
    seed = tmp_path / "seed.csv"
    seed.write_text("player,rating\nM Tinsley,2500\nNobody,1000\n", encoding="utf-8")
    rows, note = _rows("--db", db, "--seed", seed, "--from-tags")
    start = {r["player"]: (r["start"], float(r["rating"])) for r in rows}
    expected = round(2500 + 20 * (1 - elo_expected(2500, 2100)), 2)
    assert start["Marion Tinsley"] == ("seed", expected)
    assert start["Bob"][0] == "tag" and start["Cid"][0] == "default"
    assert "1 seed row(s) name no player with a rated game" in note


@pytest.mark.parametrize(("content", "message"), [
    ("name,rating\nAnn,1500\n", "line 1: the seed file needs the columns player and rating"),
    ("player,rating\nAnn,strong\n", "line 2: rating 'strong' is not a number"),
    ("player,rating,rd\nAnn,1500,-3\n", "line 2: rd must be a positive number"),
])
def test_a_bad_seed_file_is_one_error_line(tmp_path: Path, content: str, message: str
                                           ) -> None:
    db = _db(tmp_path, _game("Ann", "Bob", "1-0"))
    seed = tmp_path / "seed.csv"
    seed.write_text(content, encoding="utf-8")
    code, _, err = cli("ratings", "--db", db, "--seed", seed)
    assert code == 2 and err.startswith("pdnkit: error: ") and message in err
    assert len(err.strip().splitlines()) == 1


def test_player_and_min_games_choose_rows_not_games(tmp_path: Path) -> None:
    text = _game("Ann", "Bob", "1-0") + _game("Bob", "Cid", "1-0", "2020.06.01")
    db = _db(tmp_path, text)
    every, _ = _rows("--db", db)
    bob, _ = _rows("--db", db, "--player", "bo")
    assert [r for r in every if r["player"] == "Bob"] == bob
    active, _ = _rows("--db", db, "--min-games", "2")
    assert [r["player"] for r in active] == ["Bob"]


def test_each_variant_has_its_own_list(tmp_path: Path) -> None:
    text = _game("Ann", "Bob", "1-0") + _game("Ann", "Bob", "0-1", gametype="25")
    db = _db(tmp_path, text)
    rows, note = _rows("--db", db)
    assert {(r["variant"], r["player"], r["rank"]) for r in rows} == {
        ("international", "Ann", "1"), ("international", "Bob", "2"),
        ("russian", "Bob", "1"), ("russian", "Ann", "2")}
    assert "2 variant lists" in note
    only, _ = _rows("--db", db, "--variant", "russian")
    assert {r["variant"] for r in only} == {"russian"}


def test_bad_options_are_one_error_line(tmp_path: Path) -> None:
    db = _db(tmp_path, _game("Ann", "Bob", "1-0"))
    for args in (["--tau", "0"], ["--k", "-1"], ["--system", "trueskill"]):
        code, _, err = cli("ratings", "--db", db, *args)
        assert code == 2 and "Traceback" not in err, args


# --------------------------------------------------------------------------------------
# performance ratings in the crosstable and the players' table
# --------------------------------------------------------------------------------------

EVENT = (_game("Ann", "Bob", "2-0", event="Rated Open",
               extra='[WhiteRating "2200"]\n[BlackRating "2400"]\n')
         + _game("Cid", "Ann", "1-1", event="Rated Open",
                 extra='[WhiteRating "2000"]\n[BlackRating "2200"]\n')
         + _game("Bob", "Cid", "2-0", event="Rated Open",
                 extra='[WhiteRating "2400"]\n'))


def test_crosstable_and_players_give_the_table_performance(tmp_path: Path) -> None:
    db = _db(tmp_path, EVENT)
    code, out, err = cli("stats", "crosstable", "--event", "Rated Open", "--db", db,
                         "-f", "json")
    assert code == 0, err
    perf = {r["player"]: (r["points"], r["opp_rating"], r["performance"])
            for r in json.loads(out)}
    # Ann: 1.5 of 2 against 2400 and 2000 (p .75: +193); Bob: 0 of 1 rated (Ann 2200;
    # Cid has no tag: p 0, -800); Cid: 0.5 of 2 against 2200 and 2400 (p .25: -193)
    assert perf == {"Ann": (3.0, 2200, 2393), "Bob": (2.0, 2200, 1400),
                    "Cid": (1.0, 2300, 2107)}
    code, out, err = cli("stats", "players", "--db", db, "-f", "json")
    assert code == 0, err
    players = {r["player"]: (r["opp_rating"], r["performance"]) for r in json.loads(out)}
    assert players == {"Ann": (2200, 2393), "Bob": (2200, 1400), "Cid": (2300, 2107)}


def test_without_rating_tags_the_performance_is_empty(tmp_path: Path) -> None:
    db = _db(tmp_path, _game("Ann", "Bob", "1-0"))
    code, out, _ = cli("stats", "crosstable", "--event", "Club", "--db", db, "-f", "json")
    assert code == 0
    assert {(r["opp_rating"], r["performance"]) for r in json.loads(out)} == {(None, None)}


# --------------------------------------------------------------------------------------
# the plot and the report
# --------------------------------------------------------------------------------------


def test_plot_ratings_writes_a_figure_and_names_a_missing_player(tmp_path: Path) -> None:
    text = GLICKMAN + _game("Player", "Opponent 1400", "1-1", "2013.12.05")
    db = _db(tmp_path, text)
    png = tmp_path / "r.png"
    code, out, err = cli("plot", "ratings", "--db", db, "--system", "glicko2", "--name",
                         "Player", "--out", png)
    assert code == 0, err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and "wrote" in out
    code, _, err = cli("plot", "ratings", "--db", db, "--name", "Nobody", "--out", png)
    assert code == 2 and "no rated player is called 'Nobody'" in err


def test_plot_lines_and_bands(tmp_path: Path) -> None:
    from pdnkit.plots import rating_history

    rl = ratings(_memory_db(tmp_path), system="glicko2")
    fig = rating_history(rl.history, players=["Ann"])
    ax = fig.axes[0]
    assert ax.get_legend_handles_labels()[1] == ["Ann"]
    assert len(ax.collections) == 1  # the 2 RD band


def _memory_db(tmp_path: Path) -> duckdb.DuckDBPyConnection:
    """An in-memory database with Ann's three games over two months."""
    from pdnkit.store import connect
    from pdnkit.store.ingest import import_files

    con = connect(":memory:")
    src = tmp_path / "ann.pdn"
    src.write_text(_game("Ann", "Bob", "1-0", "2020.01.01")
                   + _game("Cid", "Ann", "1-0", "2020.02.01")
                   + _game("Ann", "Cid", "1/2-1/2", "2020.02.02"), encoding="utf-8")
    import_files([src], db=con)
    return con


def test_collection_report_has_a_ratings_section(tmp_path: Path) -> None:
    from pdnkit.reports import collection_report

    con = _memory_db(tmp_path)
    md = collection_report(con)
    section = md.split("## Ratings", 1)[1].split("\n## ", 1)[0]
    assert "3 of 3 games rated (3 players, 1 variant list, elo)" in section
    assert "| international | 1 | Cid | 1510.58 | 2 | 1 | 1 | 0 | 2020-02 |" in section
    html = collection_report(con, fmt="html")
    assert '<img alt="ratings over time"' in html


# --------------------------------------------------------------------------------------
# the shared real files
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("real") / "real.duckdb"
    for folder in ("russian", "czech", "international", "brazilian", "frisian"):
        code, _, err = cli("import", shared_path("real", folder), "--db", db, "--quiet")
        assert code in (0, 1), err
    return db


def test_real_files_every_rated_player_gets_a_rating(real_db: Path) -> None:
    from pdnkit.stats import GameFilter
    from pdnkit.stats.common import OUTCOME_SQL
    from pdnkit.store.session import reading

    where, params = GameFilter().sql()  # the games every statistic reads (each game once)
    for system in ("elo", "fmjd", "glicko2"):
        rl = ratings(real_db, system=system)
        with reading(real_db) as con:
            rateable = con.execute(f"""
                WITH g AS (SELECT variant, player_name(white) w, player_name(black) b,
                                  {OUTCOME_SQL} oc, year FROM games g WHERE {where})
                SELECT DISTINCT variant, p FROM (
                    SELECT variant, w p, b o, oc, year FROM g
                    UNION ALL SELECT variant, b, w, oc, year FROM g)
                WHERE p IS NOT NULL AND o IS NOT NULL AND p <> o AND year IS NOT NULL
                  AND oc IN ('white', 'black', 'draw')""", params).fetchall()
            counts = con.execute(f"""
                SELECT count(*) FILTER (WHERE {OUTCOME_SQL} NOT IN ('white', 'black', 'draw')),
                       count(*) FILTER (WHERE {OUTCOME_SQL} IN ('white', 'black', 'draw')
                                        AND g.year IS NULL),
                       count(*) FROM games g WHERE {where}""", params).fetchone()
        assert set(zip(rl.table["variant"], rl.table["player"], strict=True)) == set(rateable)
        assert rl.table["rating"].notna().all() and len(rl.table) > 100
        assert counts is not None
        assert (rl.left_out["without a result"], rl.left_out["without a date"],
                rl.selected) == counts
        assert rl.left_out["without a date"] > 0  # the real files have undated games
    hist = ratings(real_db, system="glicko2", variant="russian").history
    assert hist["rd"].between(0, 350).all()


def test_real_files_through_the_cli(real_db: Path, tmp_path: Path) -> None:
    rows, note = _rows("--db", real_db, "--system", "glicko2", "--period", "year")
    assert rows and "without a date" in note
    png = tmp_path / "ratings.svg"
    code, _, err = cli("plot", "ratings", "--db", real_db, "--variant", "russian",
                       "--out", png)
    assert code == 0, err and png.stat().st_size > 1000
