"""The opening tag against the moves, and novelties on games whose deviations are known by
construction."""

from __future__ import annotations

import datetime as dt

from pdnkit.openings import (
    GameLine,
    check_opening_tag,
    classify_record,
    load_tables,
    novelties,
    pdn_date,
    tag_disagreement,
)
from pdnkit.pdn import parse_game
from tests.openings.test_classify import positions


def checks(pdn: str) -> list[tuple[str, str]]:
    rec = parse_game(pdn)
    c = classify_record(rec)
    book = load_tables(c.entry.variant if c.entry else "russian")
    return [(t.value, t.verdict) for t in check_opening_tag(rec.tags, c, book)]


def test_a_tag_that_names_the_opening_agrees() -> None:
    assert checks('[GameType "25"][Opening "Городская партия"] 1. cd4 dc5 2. bc3 fg5 3. cb4 '
                  'gh4 *') == [("Городская партия", "agrees")]
    # by transliteration, by code, by line, without case or ё
    assert checks('[GameType "25"][Opening "gorodskaya PARTIYA"] 1. cd4 dc5 2. bc3 fg5 '
                  '3. cb4 *') == [("gorodskaya PARTIYA", "agrees")]
    assert checks('[GameType "21"][Opening "ACF 5"] 1. 9-13 22-18 6-9 *') == [("ACF 5", "agrees")]
    assert checks('[GameType "25"][Opening "ed4"] 1. ed4 dc5 2. fe3 *') == [("ed4", "agrees")]


def test_a_tag_that_names_another_opening_disagrees() -> None:
    """Abatsiev's file has such games: 1.ab4 ba5 2.gh4 tagged as the Игра Бодянского
    (1.ab4 ba5 2.ed4)."""
    rec = parse_game('[GameType "25"][Opening "Игра Бодянского"] 1. ab4 ba5 2. gh4 fe5 *')
    c = classify_record(rec)
    found = tag_disagreement(rec.tags, c, load_tables("russian"))
    assert found is not None and found.verdict == "disagrees"
    assert "a3-b4 b6-a5 e3-d4" in found.message and found.named[0].code == "igra-bodyanskogo"


def test_unknown_names_placeholders_and_short_games_make_no_claim() -> None:
    assert checks('[GameType "25"][Opening "Безымянная"] 1. cd4 dc5 *') == [
        ("Безымянная", "unknown")]
    assert checks('[GameType "25"][Opening "****"][ECO "?"] 1. cd4 dc5 *') == []
    # the game stops before the named line could be reached: no disagreement
    assert checks('[GameType "25"][Opening "Кол"] 1. cd4 ba5 *') == [("Кол", "unknown")]
    # a bare number names different openings in different lists (Italian "Apertura 12")
    assert checks('[GameType "22"][Apertura "12"] 1. 22-18 11-15 2. 18x11 *') == [
        ("12", "unknown")]


# ------------------------------------------------------------------ novelties


def line(game: str, date: str | None, order: int, moves: str) -> GameLine:
    return GameLine(game, pdn_date(date), order, positions("english", moves))


def test_a_deviation_from_an_earlier_dated_game_at_a_known_ply() -> None:
    old = line("old", "1900.05.01", 5, "11-15 23-19 8-11 22-17 4-8 25-22")
    new = line("new", "1950.??.??", 1, "11-15 23-19 8-11 22-17 9-13 17-14")
    out = {n.game: n for n in novelties([new, old])}
    assert (out["old"].ply, out["old"].deviated_from) == (0, None)
    assert (out["new"].ply, out["new"].deviated_from) == (5, "old")  # 9-13 is the new move


def test_a_transposition_is_no_novelty() -> None:
    old = line("old", "1900", 0, "11-15 23-19 8-11 22-17 4-8")
    new = line("new", "1901", 1, "11-15 22-17 8-11 23-19 4-8 26-23")
    n = novelties([old, new])[1]
    assert (n.game, n.ply, n.deviated_from) == ("new", 2, "old")  # 22-17 first is new ...
    later = line("later", "1902", 2, "11-15 22-17 8-11 23-19 4-8 26-23")
    assert novelties([old, new, later])[2].ply is None  # ... and then known


def test_undated_games_come_after_the_dated_and_ties_keep_file_order() -> None:
    a = line("a", None, 0, "9-13 22-18 6-9")
    b = line("b", "1999.01.01", 2, "9-13 22-18 6-9")
    c = line("c", "1999.01.01", 1, "9-13 22-18 10-14")
    out = novelties([a, b, c])
    assert [n.game for n in out] == ["c", "b", "a"]
    assert [(n.ply, n.deviated_from) for n in out] == [(0, None), (3, "c"), (None, "b")]


def test_max_ply_bounds_the_positions_compared() -> None:
    a = line("a", "2000", 0, "11-15 23-19 8-11 22-17 4-8")
    b = line("b", "2001", 1, "11-15 23-19 8-11 22-17 9-13")
    assert novelties([a, b], max_ply=4)[1].ply is None
    assert novelties([a, b], max_ply=5)[1].ply == 5


def test_pdn_dates_for_ordering() -> None:
    """The reader's dates (what the database stores in ``date`` and ``year``), a partial or
    impossible date by the first day of what it gives, as the database orders them."""
    assert pdn_date("17 april 2009") == dt.date(2009, 4, 17)
    assert pdn_date("2004.10.27 - 2004.11.01") == dt.date(2004, 10, 27)
    assert pdn_date("1965.13.40") == dt.date(1965, 1, 1)
    assert pdn_date("1965.07.??") == dt.date(1965, 7, 1)
    assert pdn_date("1.1.1965") == dt.date(1965, 1, 1)  # day first, as Russian files write
    assert pdn_date("31.2.1965") == dt.date(1965, 1, 1)  # no such day: the year counts
    assert pdn_date("summer") is None and pdn_date("????.??.??") is None
