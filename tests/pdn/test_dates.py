"""Dates as people write them (pdnkit.pdn.dates): hand-written forms from real archives, the
precision each keeps, seasons, and generated dates in every form the reader takes."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pdnkit.pdn.dates import MONTHS, date_span, date_text, parse_date
from pdnkit.pdn.tags import check_tags, game_tags

D = dt.date


@pytest.mark.parametrize(("text", "first", "last", "precision", "shown"), [
    ("2003.03.15", D(2003, 3, 15), D(2003, 3, 15), "day", "2003-03-15"),
    ("15.3.2003", D(2003, 3, 15), D(2003, 3, 15), "day", "2003-03-15"),
    ("2003.03.??", D(2003, 3, 1), D(2003, 3, 31), "month", "2003-03"),
    ("2004.02.??", D(2004, 2, 1), D(2004, 2, 29), "month", "2004-02"),  # a leap year
    ("1841-??-??", D(1841, 1, 1), D(1841, 12, 31), "year", "1841"),
    ("1945.10.??", D(1945, 10, 1), D(1945, 10, 31), "month", "1945-10"),
    ("??.10.1945", D(1945, 10, 1), D(1945, 10, 31), "month", "1945-10"),
    ("??.??.1973", D(1973, 1, 1), D(1973, 12, 31), "year", "1973"),
    ("1950.", D(1950, 1, 1), D(1950, 12, 31), "year", "1950"),
    ("2007-08", D(2007, 8, 1), D(2007, 8, 31), "month", "2007-08"),  # ISO 8601: August
    ("april 2009", D(2009, 4, 1), D(2009, 4, 30), "month", "2009-04"),
    ("17 april 2009", D(2009, 4, 17), D(2009, 4, 17), "day", "2009-04-17"),
    ("17. April 2009", D(2009, 4, 17), D(2009, 4, 17), "day", "2009-04-17"),
    ("April 17, 2009", D(2009, 4, 17), D(2009, 4, 17), "day", "2009-04-17"),
    ("17 марта 2009", D(2009, 3, 17), D(2009, 3, 17), "day", "2009-03-17"),
    # seasons and spans of years
    ("1999/00", D(1999, 1, 1), D(2000, 12, 31), "year", "1999/2000"),
    ("2007/08", D(2007, 1, 1), D(2008, 12, 31), "year", "2007/2008"),
    ("1999-2000", D(1999, 1, 1), D(2000, 12, 31), "year", "1999/2000"),
    ("1999–00", D(1999, 1, 1), D(2000, 12, 31), "year", "1999/2000"),
    ("2012-13", D(2012, 1, 1), D(2013, 12, 31), "year", "2012/2013"),  # no month 13
    ("1899/00", D(1899, 1, 1), D(1900, 12, 31), "year", "1899/1900"),
    ("1990/1999", D(1990, 1, 1), D(1999, 12, 31), "year", "1990/1999"),  # a range of years
    # ranges of days
    ("2004.10.27 - 2004.11.01", D(2004, 10, 27), D(2004, 11, 1), "day",
     "2004-10-27/2004-11-01"),
    ("2004.10.27 to 2004.11.??", D(2004, 10, 27), D(2004, 11, 30), "month",
     "2004-10/2004-11"),
])
def test_a_date_keeps_what_it_says(text: str, first: dt.date, last: dt.date,
                                   precision: str, shown: str) -> None:
    span = date_span(text)
    assert span is not None
    assert (span.first, span.last, span.precision, span.text) == (first, last, precision, shown)
    date, year, ok = parse_date(text)
    assert ok and year == first.year
    assert date == (first if precision == "day" else None)


@pytest.mark.parametrize(("text", "year"), [
    ("17 foo 2009", 2009),        # DD word YYYY with a word that is no month: the year kept
    ("17 brumaire 1799", 1799),
    ("31 april 2009", 2009),      # a month's name, but no such day
    ("31 april 2150", 2150),      # ... its year read by that branch (no fallback reads 21xx)
    ("17 april 0999", None),      # no plausible year: no date, no year
    ("17 april 3000", None),
    ("april 0999", None),
    ("03.07.20", None),           # a two-digit year is ambiguous: reported, never guessed
    ("1999/1990", 1999),          # a season that goes back
    ("2000/06", 2000),            # ... or lasts six years: no season (at most five)
    ("1999/99", 1999),
    ("2003.13.??", 2003),
    ("the summer of 1987", 1987),
])
def test_what_is_no_date(text: str, year: int | None) -> None:
    assert date_span(text) is None
    assert parse_date(text) == (None, year, False)


def test_unknown_dates_are_unknown_not_bad() -> None:
    for text in ("", "?", "????.??.??", "??.??.????", " - "):
        assert date_span(text) is None and parse_date(text) == (None, None, True)
        assert date_text(None, text) is None


def test_the_plausibility_check_of_written_months() -> None:
    """Each branch refuses a year outside 1000-2999 (a mutant that drops one check gives a
    date in year 999 or 3000)."""
    for text in ("0999.01.01", "01.01.0999", "0999.", "0999-01", "01.0999", "17 april 0999",
                 "april 0999", "3000.01.01"):
        assert date_span(text) is None, text
        assert parse_date(text)[0] is None and not parse_date(text)[2], text


def test_a_season_is_no_bad_date_and_every_table_shows_one_text() -> None:
    from pdnkit.pdn.reader import parse_game

    g = parse_game('[Date "1999/00"][White "A"][Black "B"] 1. 32-28 *')
    assert [f.code for f in check_tags(g)] == []
    t = game_tags(g)
    assert (t.year, t.date, t.date_text) == (1999, None, "1999/2000")
    bad = parse_game('[Date "03.07.20"] 1. 32-28 *')
    assert [f.code for f in check_tags(bad)] == ["bad-date"]
    assert game_tags(bad).date_text == "03.07.20"  # no date: as written, nothing dropped
    year_tag = game_tags([("Anno", "1990")])
    assert (year_tag.date_text, year_tag.span.precision) == ("1990", "year")  # type: ignore[union-attr]


def test_every_month_name_reads_as_its_month() -> None:
    for word, month in MONTHS.items():
        span = date_span(f"5 {word} 2001")
        assert span is not None and span.first == D(2001, month, 5), word
        assert date_span(f"{word.capitalize()} 5, 2001") == span


_DAYS = st.dates(min_value=D(1000, 1, 1), max_value=D(2999, 12, 31))
_NAMES = {1: "January", 2: "februari", 3: "mars", 4: "Aprile", 5: "May", 6: "juni",
          7: "juillet", 8: "August", 9: "settembre", 10: "oktober", 11: "Nov", 12: "dicembre"}
_FORMS = [
    lambda d: f"{d.year:04d}.{d.month:02d}.{d.day:02d}",
    lambda d: f"{d.year:04d}-{d.month:02d}-{d.day:02d}",
    lambda d: f"{d.year:04d}/{d.month}/{d.day}",
    lambda d: f"{d.day}.{d.month}.{d.year:04d}",
    lambda d: f"{d.day:02d}-{d.month:02d}-{d.year:04d}",
    lambda d: f"{d.day} {_NAMES[d.month]} {d.year:04d}",
    lambda d: f"{_NAMES[d.month]} {d.day}, {d.year:04d}",
]


@given(_DAYS, st.integers(0, len(_FORMS) - 1))
def test_generated_full_dates_read_back(day: dt.date, form: int) -> None:
    text = _FORMS[form](day)
    span = date_span(text)
    assert span is not None and (span.first, span.last, span.precision) == (day, day, "day")
    assert span.text == day.isoformat() and parse_date(text) == (day, day.year, True)


@given(_DAYS, st.sampled_from(["{y}.{m}.??", "{y}-{m}-??", "??.{m}.{y}", "{m}.{y}",
                                "{y}-{m}", "{name} {y}"]))
def test_generated_months_keep_their_month(day: dt.date, form: str) -> None:
    text = form.format(y=f"{day.year:04d}", m=f"{day.month:02d}", name=_NAMES[day.month])
    span = date_span(text)
    assert span is not None and span.precision == "month"
    assert span.first == day.replace(day=1) and span.last.month == day.month
    assert (span.last + dt.timedelta(days=1)).day == 1  # the month's last day
    assert span.text == f"{day.year:04d}-{day.month:02d}"


@given(st.integers(1000, 2990), st.integers(1, 5), st.sampled_from(["/", "-", "–", " / "]),
       st.booleans())
def test_generated_seasons_are_spans(first: int, length: int, sep: str, short: bool) -> None:
    last = first + length
    text = f"{first}{sep}{last % 100:02d}" if short else f"{first}{sep}{last}"
    if short and sep == "-" and 1 <= last % 100 <= 12:
        return  # YYYY-MM: ISO 8601's month (2007-08 is August 2007), not a season
    span = date_span(text)
    assert span is not None and (span.first, span.last) == (D(first, 1, 1), D(last, 12, 31))
    assert span.text == f"{first}/{last}" and parse_date(text) == (None, first, True)
