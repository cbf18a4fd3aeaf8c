"""Dates as people write them: what a Date tag says, at the precision it says it.

Archives write dates in many forms (``2003.03.15``, ``15.3.2003``, ``15-03-2003``,
``15 maart 2003``, ``March 15, 2003``), often in part (``2003.03.??``, ``1841-??-??``,
``1950.``, ``april 2009``), as a span (``2004.10.27 - 2004.11.01``) or as a season
(``1999/00``, ``2007/08``, ``1999-2000``). :func:`date_span` reads such a text into a
:class:`DateSpan`: the first and the last day the text allows, and its precision (``day``,
``month`` or ``year``, the finest part written). What is known is kept: a partial date is
the span of its month or year, never dropped, and sorts and filters by that span.
:attr:`DateSpan.text` is how every table writes a game's date: ISO 8601 at the date's
precision (``2003-03-15``, ``2003-03``, ``1841``), a span as ISO 8601 writes an interval
(``1999/2000``, ``2004-10-27/2004-11-01``).

:func:`parse_date` is what the game fields keep of it (``games.date``, ``games.year``) and
whether the text is a date at all (a ``bad-date`` when not). Two-digit years (``03.07.20``)
are ambiguous (2003-07-20 or 2020-07-03) and are reported, never guessed; a year outside
1000-2999 is no year.

Example:
    >>> date_span("2003.03.??").text, date_span("1841-??-??").text
    ('2003-03', '1841')
    >>> s = date_span("1999/00")
    >>> s.first, s.last, s.precision, s.text
    (datetime.date(1999, 1, 1), datetime.date(2000, 12, 31), 'year', '1999/2000')
    >>> parse_date("1999/00"), parse_date("17 brumaire 1799")
    ((None, 1999, True), (None, 1799, False))
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeAlias

from pdnkit._lazy import lazy_pattern

__all__ = ["MONTHS", "PRECISIONS", "DateSpan", "date_span", "date_text", "parse_date",
           "year_span"]

#: the precisions of a date, finest first
PRECISIONS = ("day", "month", "year")

#: month names and their common abbreviations: English, Dutch, Italian, French, German,
#: Portuguese, Spanish, Russian (transliterated and in Cyrillic, nominative and genitive)
MONTHS = {
    "jan": 1, "january": 1, "januari": 1, "gennaio": 1, "janvier": 1, "januar": 1,
    "yanvar": 1, "janeiro": 1, "enero": 1, "январь": 1, "января": 1, "янв": 1,
    "feb": 2, "february": 2, "februari": 2, "febbraio": 2, "fevrier": 2, "février": 2,
    "februar": 2, "fevral": 2, "fevereiro": 2, "febrero": 2, "февраль": 2, "февраля": 2,
    "фев": 2,
    "mar": 3, "march": 3, "maart": 3, "marzo": 3, "mars": 3, "marz": 3, "märz": 3, "mart": 3,
    "março": 3, "marco": 3, "март": 3, "марта": 3, "мар": 3,
    "apr": 4, "april": 4, "aprile": 4, "avril": 4, "aprel": 4, "abril": 4, "апрель": 4,
    "апреля": 4, "апр": 4,
    "may": 5, "mei": 5, "maggio": 5, "mai": 5, "maj": 5, "maio": 5, "mayo": 5, "май": 5,
    "мая": 5,
    "jun": 6, "june": 6, "juni": 6, "giugno": 6, "juin": 6, "iyun": 6, "junho": 6,
    "junio": 6, "июнь": 6, "июня": 6, "июн": 6,
    "jul": 7, "july": 7, "juli": 7, "luglio": 7, "juillet": 7, "iyul": 7, "julho": 7,
    "julio": 7, "июль": 7, "июля": 7, "июл": 7,
    "aug": 8, "august": 8, "augustus": 8, "agosto": 8, "aout": 8, "août": 8, "avgust": 8,
    "август": 8, "августа": 8, "авг": 8,
    "sep": 9, "sept": 9, "september": 9, "settembre": 9, "septembre": 9, "sentyabr": 9,
    "setembro": 9, "septiembre": 9, "сентябрь": 9, "сентября": 9, "сен": 9,
    "oct": 10, "october": 10, "oktober": 10, "ottobre": 10, "octobre": 10, "oktyabr": 10,
    "okt": 10, "outubro": 10, "octubre": 10, "октябрь": 10, "октября": 10, "окт": 10,
    "nov": 11, "november": 11, "novembre": 11, "noyabr": 11, "novembro": 11,
    "noviembre": 11, "ноябрь": 11, "ноября": 11, "ноя": 11,
    "dec": 12, "december": 12, "dicembre": 12, "decembre": 12, "décembre": 12, "dezember": 12,
    "dekabr": 12, "dez": 12, "dezembro": 12, "diciembre": 12, "декабрь": 12, "декабря": 12,
    "дек": 12,
}

_UNKNOWN = lazy_pattern(r"^[?\s.\-/]*$")
#: ``YYYY.MM.DD`` with any part unknown (``??``); separators ``.``, ``-``, ``/``
_YMD = lazy_pattern(r"^(\d{4}|\?{4})[.\-/](\d{1,2}|\?\?)[.\-/](\d{1,2}|\?\?)$")
#: ``DD.MM.YYYY`` (Russian, Dutch, Czech lists), days and months may be unknown
_DMY = lazy_pattern(r"^(\d{1,2}|\?\?)[.\-/](\d{1,2}|\?\?)[.\-/](\d{4})$")
_YEAR_ONLY = lazy_pattern(r"^(\d{4})\.?$")
#: ``YYYY-MM`` / ``YYYY.MM`` (ISO 8601's year and month) and ``MM.YYYY``
_YM = lazy_pattern(r"^(\d{4})[.\-](\d{1,2})$")
_MY = lazy_pattern(r"^(\d{1,2})[.\-/](\d{4})$")
#: a season or span of years: ``1999/00``, ``2007/08``, ``1999-2000``, ``1999–2000``
_YEAR_SPAN = lazy_pattern(r"^(\d{4})\s*[/\-–]\s*(\d{2}|\d{4})$")
#: ``17 april 2009``, ``17. April 2009``, ``April 17, 2009``
_WORDS = lazy_pattern(r"^(?:(\d{1,2})\.?\s+([^\W\d_]+)\.?|([^\W\d_]+)\.?\s+(\d{1,2}),?)\s+(\d{4})$")
_MONTH_YEAR = lazy_pattern(r"^([^\W\d_]+)\.?,?\s+(\d{4})$")
_ANY_YEAR = lazy_pattern(r"(?<!\d)(1[0-9]\d\d|20\d\d)(?!\d)")
_RANGE_SEP = lazy_pattern(r"\s+to\s+|\.\.|[-–/]")
#: a season's second year is at most this many years after its first
_MAX_SPAN_YEARS = 5


def _plausible(y: int) -> bool:
    """A year a game can have been played in (four digits read as a year: 1000-2999)."""
    return 1000 <= y <= 2999


@dataclass(frozen=True, slots=True)
class DateSpan:
    """What a date says: the ``first`` and the ``last`` day it allows and its ``precision``
    (``day``, ``month`` or ``year``: the finest part written).

    Example:
        >>> d = DateSpan(_dt.date(2003, 3, 1), _dt.date(2003, 3, 31), "month")
        >>> d.text, d.date, d.year
        ('2003-03', None, 2003)
    """

    first: _dt.date
    last: _dt.date
    precision: str

    @property
    def text(self) -> str:
        """ISO 8601 at the precision (``2003-03-15``, ``2003-03``, ``1841``); a span of more
        than one day, month or year as an interval (``1999/2000``)."""
        a, b = _iso(self.first, self.precision), _iso(self.last, self.precision)
        return a if a == b else f"{a}/{b}"

    @property
    def date(self) -> _dt.date | None:
        """The calendar date when the day is known (a span's first day), else ``None``."""
        return self.first if self.precision == "day" else None

    @property
    def year(self) -> int:
        """The first year the date allows."""
        return self.first.year


def _iso(d: _dt.date, precision: str) -> str:
    if precision == "day":
        return d.isoformat()
    if precision == "month":
        return f"{d.year:04d}-{d.month:02d}"
    return f"{d.year:04d}"


def _day(y: int, mo: int, d: int) -> DateSpan | None:
    try:
        day = _dt.date(y, mo, d)
    except ValueError:
        return None
    return DateSpan(day, day, "day")


def _month(y: int, mo: int) -> DateSpan | None:
    if not 1 <= mo <= 12:
        return None
    # the month's last day without the calendar module (it imports locale: 3 ms a start)
    last = _dt.date(y, 12, 31) if mo == 12 else _dt.date(y, mo + 1, 1) - _dt.timedelta(days=1)
    return DateSpan(_dt.date(y, mo, 1), last, "month")


def year_span(first: int, last: int | None = None) -> DateSpan:
    """The span of a year (or of the years ``first`` to ``last``), precision ``year``.

    Example:
        >>> year_span(1990).text, year_span(1999, 2000).text
        ('1990', '1999/2000')
    """
    return DateSpan(_dt.date(first, 1, 1), _dt.date(last or first, 12, 31), "year")


#: what reading a text found: the span (``None``: no date), whether the text is a date (an
#: unknown date is one: ``????.??.??``), the year seen where the text is not a date
_Read: TypeAlias = "tuple[DateSpan | None, bool, int | None]"


def _ymd(y_text: str, mo_text: str, d_text: str) -> _Read:
    """A date of three parts, each maybe unknown (``??``)."""
    if y_text.startswith("?"):
        return None, True, None
    y = int(y_text)
    if not _plausible(y):
        return None, False, None
    if "?" in mo_text:  # the month unknown: the year is what is known
        return year_span(y), True, None
    if "?" in d_text:
        span = _month(y, int(mo_text))
        return span, span is not None, y
    span = _day(y, int(mo_text), int(d_text))
    return span, span is not None, y


def _words(m: re.Match[str]) -> _Read:
    """``17 april 2009`` / ``April 17, 2009``: a date only with a month's name and a
    plausible year."""
    day = m.group(1) or m.group(4)
    month = MONTHS.get((m.group(2) or m.group(3)).lower())
    y = int(m.group(5))
    if month is None or not _plausible(y):
        return None, False, None
    span = _day(y, month, int(day))
    return span, span is not None, y


def _one_date(t: str) -> _Read:
    """One date (not a range)."""
    m = _YMD.match(t)
    if m:
        return _ymd(m.group(1), m.group(2), m.group(3))
    m = _DMY.match(t)
    if m:
        return _ymd(m.group(3), m.group(2), m.group(1))
    m = _YEAR_ONLY.match(t)
    if m:
        y = int(m.group(1))
        return (year_span(y), True, None) if _plausible(y) else (None, False, None)
    ym = _YM.match(t)
    m = ym or _MY.match(t)
    if m:
        y_text, mo_text = (m.group(1), m.group(2)) if ym else (m.group(2), m.group(1))
        y = int(y_text)
        span = _month(y, int(mo_text)) if _plausible(y) else None
        if span is not None:
            return span, True, None
    m = _WORDS.match(t)
    if m:
        return _words(m)
    m = _MONTH_YEAR.match(t)
    if m and m.group(1).lower() in MONTHS and _plausible(int(m.group(2))):
        return _month(int(m.group(2)), MONTHS[m.group(1).lower()]), True, None
    return None, False, None


def _season(t: str) -> DateSpan | None:
    """``1999/00``, ``2007/08``, ``1999-2000``: the years from the first to the second (a
    two-digit second year is the next one ending so: ``1999/00`` ends in 2000)."""
    m = _YEAR_SPAN.match(t)
    if not m:
        return None
    a, b = int(m.group(1)), m.group(2)
    if len(b) == 4:
        last = int(b)
    else:
        last = a // 100 * 100 + int(b)
        if last < a:
            last += 100
    if _plausible(a) and a < last <= a + _MAX_SPAN_YEARS:
        return year_span(a, last)
    return None


def _range(t: str) -> DateSpan | None:
    """Two dates joined by ``-``, ``–``, ``/``, ``..`` or ``to``: from the first day of the
    first to the last day of the second, at the coarser precision of the two."""
    for sep in _RANGE_SEP.finditer(t):
        a, ok_a, _ = _one_date(t[:sep.start()].strip())
        b, ok_b, _ = _one_date(t[sep.end():].strip())
        if a is not None and b is not None and ok_a and ok_b and a.first <= b.last:
            precision = max(a.precision, b.precision, key=PRECISIONS.index)
            return DateSpan(a.first, b.last, precision)
    return None


@lru_cache(maxsize=4096)  # a collection writes few distinct dates, each game reads its own
def _read(text: str) -> _Read:
    if _UNKNOWN.match(text):
        return None, True, None
    t = text.strip()
    span, ok, year = _one_date(t)
    if ok:
        return span, True, None
    found = _season(t) or _range(t)
    if found is not None:
        return found, True, None
    if year is None:  # not a date, but a year written in it is still the year
        m = _ANY_YEAR.search(t)
        year = int(m.group(1)) if m else None
    return None, False, year


def date_span(text: str | None) -> DateSpan | None:
    """The span a date tag allows (see the module's text); ``None`` when it says nothing
    (empty, all ``?``) or is not a date.

    Example:
        >>> date_span("15.3.2003").text, date_span("april 2009").text
        ('2003-03-15', '2009-04')
        >>> date_span("2004.10.27 - 2004.11.01").text
        '2004-10-27/2004-11-01'
        >>> date_span("????.??.??") is None, date_span("03.07.20") is None
        (True, True)
    """
    if text is None:
        return None
    return _read(text)[0]


def date_text(span: DateSpan | None, raw: str | None) -> str | None:
    """A game's date as every table shows it: the span's text; a date tag that is no date
    (and names no year) as written; ``None`` for no date or an unknown one.

    Example:
        >>> date_text(date_span("1841-??-??"), "1841-??-??"), date_text(None, "03.07.20")
        ('1841', '03.07.20')
        >>> date_text(None, "????.??.??") is None
        True
    """
    if span is not None:
        return span.text
    if raw is None or _UNKNOWN.match(raw):
        return None
    return raw.strip()


def parse_date(text: str | None) -> tuple[_dt.date | None, int | None, bool]:
    """``(date, year, ok)`` from a date tag. ``date`` is set for a calendar date
    (``YYYY.MM.DD``, ``D.M.YYYY``, ``DD-MM-YYYY``, ``17 april 2009``) and for a range (its
    first day); ``year`` also for partial dates (``1950.??.??``, ``1950.``), seasons and
    spans of years (``2007/2008``, ``1999/00``: the first); ``ok`` is False when the text is
    not a date at all (a ``bad-date``: its year is kept when it names one). An empty or
    all-``?`` date is unknown, not bad. Two-digit years (``03.07.20``) are ambiguous and
    reported.

    Example:
        >>> parse_date("25.11.2000")
        (datetime.date(2000, 11, 25), 2000, True)
        >>> parse_date("2004.10.27 - 2004.11.01")
        (datetime.date(2004, 10, 27), 2004, True)
        >>> parse_date("2007/2008"), parse_date("1950."), parse_date("????.??.??")
        ((None, 2007, True), (None, 1950, True), (None, None, True))
        >>> parse_date("03.07.20"), parse_date("summer")
        ((None, None, False), (None, None, False))
    """
    if text is None:
        return None, None, True
    span, ok, year = _read(text)
    if span is not None:
        return span.date, span.year, ok
    return None, year, ok
