"""The rules of copies on hand-written cases: dates at their own precision, rounds, players
after identity, results, the canonical order, and the groups :func:`partition` makes
(prefixes shared by several games, short lines, rulings)."""

from __future__ import annotations

import datetime as dt

import pytest

from pdnkit.store.copyrules import (
    MIN_PREFIX_PLIES,
    Record,
    Tags,
    agreement,
    canonical_key,
    contradict,
    date_spans,
    partition,
    probable_copies,
    round_key,
)


def days(raw: str) -> list[tuple[str, str]]:
    spans = date_spans(raw)
    assert spans is not None, raw
    return [(str(dt.date.fromordinal(a)), str(dt.date.fromordinal(b))) for a, b in spans]


@pytest.mark.parametrize(("raw", "expected"), [
    ("2003.03.15", [("2003-03-15", "2003-03-15")]),
    ("2003-03-15", [("2003-03-15", "2003-03-15")]),
    ("2003/03/15", [("2003-03-15", "2003-03-15")]),
    ("15.03.2003", [("2003-03-15", "2003-03-15")]),
    ("15-03-2003", [("2003-03-15", "2003-03-15")]),
    ("2003.03.??", [("2003-03-01", "2003-03-31")]),
    ("2003.??.??", [("2003-01-01", "2003-12-31")]),
    ("1847-??-??", [("1847-01-01", "1847-12-31")]),
    ("1950.", [("1950-01-01", "1950-12-31")]),
    ("2003", [("2003-01-01", "2003-12-31")]),
    ("1999/00", [("1999-01-01", "2000-12-31")]),
    ("2004.10.27 - 2004.11.01", [("2004-10-27", "2004-11-01")]),
    ("17 april 2009", [("2009-04-17", "2009-04-17")]),
    ("March 15, 2003", [("2003-03-15", "2003-03-15")]),
    ("15 мая 1965", [("1965-05-15", "1965-05-15")]),
    ("1.1.1987", [("1987-01-01", "1987-01-01")]),
])
def test_a_date_is_the_span_it_states(raw: str, expected: list[tuple[str, str]]) -> None:
    assert days(raw) == expected


def test_dates_that_read_two_ways_are_either() -> None:
    assert days("03.04.2003") == [("2003-04-03", "2003-04-03"), ("2003-03-04", "2003-03-04")]
    assert ("2007-08-01", "2007-08-31") in days("2007/08")  # August 2007, or the season
    assert ("2007-01-01", "2008-12-31") in days("2007/08")
    assert ("2003-07-20", "2003-07-20") in days("03.07.20")  # 2003-07-20, or 3 July 2020


@pytest.mark.parametrize("raw", [None, "", "?", "????.??.??", "??.??.????", "-", "unknown"])
def test_an_unknown_date_is_none(raw: str | None) -> None:
    assert date_spans(raw) is None
    assert days_or_year(raw) == [("1990-01-01", "1990-12-31")]


def days_or_year(raw: str | None) -> list[tuple[str, str]]:
    spans = date_spans(raw, 1990)  # the year column, where the text says nothing
    assert spans is not None
    return [(str(dt.date.fromordinal(a)), str(dt.date.fromordinal(b))) for a, b in spans]


def tags(white: str | None = "Tinsley, Marion", black: str | None = "Chinook",
         date: str | None = "1992.08.17", round: str | None = "5",
         event: str | None = "Man-Machine World Championship",
         result: str | None = None) -> Tags:
    return Tags.of(white, black, date, round, event, None, result)


@pytest.mark.parametrize(("changes", "contradicts"), [
    ({"white": "M. Tinsley"}, False),               # initials
    ({"white": "TINSLEY, M.F."}, False),            # case, more initials
    ({"white": "Tinsley"}, False),                  # the surname alone
    ({"white": "Marion Tinsley"}, False),           # given name first
    ({"white": "Tinsley, R."}, True),               # another person of that name
    ({"white": "Lafferty, Don"}, True),             # another player
    ({"black": "Chinook"}, False),
    ({"white": "?"}, False),                        # a placeholder is unknown
    ({"white": "Chinook", "black": "Tinsley, Marion"}, True),  # colours the other way round
    ({"date": "1992.08.??"}, False),                # the month contains the day
    ({"date": "1992"}, False),
    ({"date": "17.08.1992"}, False),                # another format, the same day
    ({"date": "1992.08.18"}, True),
    ({"date": "1993"}, True),
    ({"date": None}, False),
    ({"round": "5.1"}, False),                      # round 5, board 1
    ({"round": "Round 5"}, False),
    ({"round": "6"}, True),
    ({"round": "-"}, False),
    ({"event": "Chinook v Tinsley, London"}, False),  # events never contradict
])
def test_known_tags_that_contradict(changes: dict[str, str | None], contradicts: bool) -> None:
    assert contradict(tags(), tags(**changes)) is contradicts  # type: ignore[arg-type]


def test_names_across_alphabets_and_accents() -> None:
    assert not contradict(tags(white="Абациев Н."), tags(white="Abatsiev N."))
    assert not contradict(tags(white="Gérard Jansen"), tags(white="Gerard Jansen"))
    assert contradict(tags(white="Абациев Н."), tags(white="Andreiko I."))
    # an initial of two Latin letters for one Cyrillic letter
    assert not contradict(tags(black="Арустамов Ю."), tags(black="Arustamov Yu."))
    assert not contradict(tags(black="Жуков Ю."), tags(black="Zhukov, Yu."))
    assert contradict(tags(black="Жуков Ю."), tags(black="Zhukov, A."))


def test_results_contradict_only_when_both_say_who_won() -> None:
    assert contradict(tags(result="1-0"), tags(result="1/2-1/2"))
    assert not contradict(tags(result="1-0"), tags(result="*"))
    assert not contradict(tags(result="1-0"), tags(result="1-0"))


def test_agreement_counts_the_known_tags_shared() -> None:
    assert agreement(tags(), tags()) == 5
    assert agreement(tags(), tags(round=None)) == 4
    assert agreement(tags(), tags(event="Olympiad")) == 4
    assert agreement(tags(white=None, black=None, date=None), tags()) == 2


def test_rounds_read_by_their_numbers() -> None:
    assert round_key(" 07 ") == (7,) and round_key("R7") == (7,) and round_key("7.2") == (7, 2)
    assert round_key("?") is None and round_key("") is None


def rec(gid: int, line: str, plies: int = 60, result: str | None = "1-0", ntags: int = 7,
        errors: int = 0, path: str = "/a.pdn", index: int = 0, t: Tags | None = None) -> Record:
    return Record(gid, line, plies, result, ntags, errors, path, index, t or tags())


def test_the_canonical_order_rule_by_rule() -> None:
    base = rec(1, "h", path="/z.pdn", index=9)
    assert sorted([base, rec(2, "h", plies=58)], key=canonical_key)[0].game_id == 1  # longest
    assert sorted([rec(3, "h", result="*"), base], key=canonical_key)[0].game_id == 1  # result
    assert sorted([rec(4, "h", ntags=6), base], key=canonical_key)[0].game_id == 1  # tags
    assert sorted([rec(5, "h", errors=1), base], key=canonical_key)[0].game_id == 1  # errors
    assert sorted([base, rec(6, "h", path="/b.pdn")], key=canonical_key)[0].game_id == 6
    assert sorted([rec(7, "h", path="/b.pdn", index=3), rec(8, "h", path="/b.pdn", index=1)],
                  key=canonical_key)[0].game_id == 8


def test_the_order_of_the_records_given_does_not_matter() -> None:
    recs = [rec(1, "h"), rec(2, "h", path="/b.pdn"), rec(3, "s", plies=30),
            rec(4, "h", t=tags(white="Lafferty, Don"))]
    prefixes = [("s", "h")]
    a = partition(recs, prefixes)
    b = partition(list(reversed(recs)), prefixes)
    assert a == b
    assert {g: x.canonical for g, x in a.items()} == {1: 1, 2: 1, 3: 1, 4: 4}
    assert a[3].relation == "prefix" and a[2].relation == "same"


def test_a_prefix_of_two_games_belongs_to_the_one_its_tags_agree_with() -> None:
    """A truncated copy whose moves start two games (its original and another game of the
    same opening) joins the game its tags agree with; where they agree with both equally,
    none (it is then a game of its own, its candidates named)."""
    original = rec(1, "o", t=tags(round="5"))
    other = rec(2, "d", t=tags(round="7"))  # the same players, another round
    prefixes = [("c", "o"), ("c", "d")]
    copy = rec(3, "c", plies=30, result="*", t=tags(round="5"))
    got = partition([original, other, copy], prefixes)
    assert got[3].canonical == 1 and got[3].relation == "prefix"
    no_round = rec(3, "c", plies=30, result="*", t=tags(round=None))
    got = partition([original, other, no_round], prefixes)
    assert got[3].canonical == 3 and got[3].ambiguous == (1, 2)
    more = rec(3, "c", plies=30, result="*", t=tags(round=None, event=None))
    other_event = rec(2, "d", t=tags(round="7", event="Olympiad"))
    got = partition([original, other_event, more], prefixes)  # the event tells nothing here
    assert got[3].canonical == 3


def test_a_short_book_line_needs_its_tags_to_agree() -> None:
    """Identical short main lines are other games unless the tags say more: both players,
    the date and the event or the round."""
    short = MIN_PREFIX_PLIES - 2
    a = rec(1, "s", plies=short)
    other_players = rec(2, "s", plies=short, t=tags(white="Lafferty, Don", date="1990"))
    same_players_only = rec(3, "s", plies=short, t=tags(date=None, round=None, event=None))
    copy = rec(4, "s", plies=short, path="/b.pdn", t=tags(white="M. Tinsley", round=None))
    got = partition([a, other_players, same_players_only, copy])
    assert got[2].canonical == 2 and got[3].canonical == 3
    assert got[4].canonical == 1 and got[4].relation == "same"


def test_a_record_without_tags_between_two_games_joins_neither() -> None:
    t = Tags.of(None, None, None, None, None)
    a, b = rec(1, "h"), rec(2, "h", t=tags(white="Lafferty, Don", date="1990"))
    blank = rec(3, "h", ntags=1, t=t)
    got = partition([a, b, blank])
    assert got[3].canonical == 3 and got[3].ambiguous == (1, 2)
    assert partition([a, blank])[3].canonical == 1  # one game it can be: it is its copy


def test_rulings_join_and_part_records() -> None:
    a, b = rec(1, "h"), rec(2, "k", plies=50, t=tags())
    got = partition([a, b], same=[(1, 2)])
    assert got[2].canonical == 1 and got[2].relation == "ruled"
    c = rec(3, "h", path="/b.pdn")
    got = partition([a, c], different=[(1, 3)])
    assert got[3].canonical == 3


def test_probable_copies_agree_on_every_tag() -> None:
    a, b = rec(1, "h"), rec(2, "k", plies=50)
    assert probable_copies([a, b], {1: 1, 2: 2}) == [(1, 2)]
    assert probable_copies([a, b], {1: 1, 2: 2}, different=[(2, 1)]) == []
    c = rec(3, "k", t=tags(round=None))
    assert probable_copies([a, c], {1: 1, 3: 3}) == []  # the round unknown
    d = rec(4, "k", t=tags(white="M. Tinsley", result="0-1"))
    assert probable_copies([a, d], {1: 1, 4: 4}) == [(1, 4)]  # results may differ


def _date_texts() -> list[str]:
    """Dates as archives write them, generated: every order of day, month and year, two-
    digit years, unknown parts, seasons, ranges, words."""
    out = ["????.??.??", "", "?"]
    for y in (1841, 1903, 1999, 2003, 2020):
        for m in (1, 3, 12):
            for d in (1, 4, 13, 31):
                yy = y % 100
                out += [f"{y}.{m:02}.{d:02}", f"{d:02}.{m:02}.{y}", f"{y}-{m:02}-??",
                        f"{y}.??.??", f"{d}/{m}/{y}", f"{yy:02}.{m:02}.{d:02}",
                        f"{d:02}.{m:02}.{yy:02}", f"{y}/{(y + 1) % 100:02}", f"{y}",
                        f"{m:02}.{y}", f"{y}.{m:02}.{d:02} - {y + 1}.01.01",
                        f"March {d}, {y}", f"{d} april {y}"]
    return sorted(set(out))


@pytest.mark.parametrize("text", _date_texts())
def test_a_probable_copy_has_the_year_the_store_keeps(text: str) -> None:
    """A record takes part in probable copies only under the year the store's ``year``
    column holds for its date: a later import finds its partners by that column, so a
    date it leaves without a year (``03.07.20`` reads as four days in four years) pairs
    with nothing, whether the two records came in one file or in two."""
    from pdnkit.pdn.dates import parse_date

    a, b = rec(1, "h", t=tags(date=text)), rec(2, "k", plies=50, t=tags(date=text))
    paired = probable_copies([a, b], {1: 1, 2: 2}) == [(1, 2)]
    stored_year = parse_date(text)[1]
    spans = date_spans(text)
    if paired:
        assert spans is not None
        assert {dt.date.fromordinal(s[0]).year for s in spans} == {stored_year}, text
    else:
        assert stored_year is None or spans is None or len(
            {dt.date.fromordinal(s[0]).year for s in spans}) > 1, text
