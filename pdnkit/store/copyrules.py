"""The rules of copies, in plain Python: when two records *can* be the same game, which of
a group stands for it, and how the records of a database fall into groups.

A record's tags are read into a :class:`Tags` (players after identity, the date as the span
of days it can mean, the round, the event); :func:`contradict` says whether two records'
known tags contradict each other (then they are two games, whatever their moves), and
:func:`agreement` counts the known tags they share (which of several games a truncated copy
belongs to). :func:`canonical_key` is the documented order of the record that stands for a
group; :func:`partition` puts the records related by their main lines into groups
(:mod:`pdnkit.store.copies` finds the relations in the database and writes the groups).

* **Players** contradict when both are known (not a placeholder) and cannot be one person:
  not the same alias target, and not :func:`pdnkit.pdn.names.same_player` (case, accents,
  ``Surname, Given`` / ``Given Surname`` / initials, Cyrillic and Latin), nor a surname
  written alone that is the other name's surname. White is compared with White and Black
  with Black: the same two players with the colours the other way round played another
  game (a match plays each ballot twice).
* **Dates** contradict when both are known and share no day: each is read as the span it
  states at its own precision (``2003.03.??`` is all of March 2003, ``1999/00`` the season
  1999-2000, ``1.3.2003`` and ``2003-03-01`` one day, a date that could be read two ways is
  either); so ``2003.03.??`` never contradicts ``2003.03.15``.
* **Rounds** contradict when both are known and neither is the other's start (``5`` and
  ``5.2`` agree, ``5`` and ``7`` do not).
* **Results** contradict when both say who won and say it differently (``1-0`` and
  ``1/2-1/2``; SCID's "same result" criterion): identical moves with other results are two
  games cut at the same move. A result left open (``*``) contradicts nothing.
* Events never contradict (an event is spelled many ways); they count in :func:`agreement`.

Example:
    >>> a = Tags.of("Tinsley, Marion", "Chinook", "1992.08.??", "5", "Man-Machine")
    >>> b = Tags.of("M. Tinsley", "Chinook", "1992.08.17", "5", "Man v Machine")
    >>> contradict(a, b), agreement(a, b)
    (False, 4)
    >>> contradict(a, Tags.of("Lafferty, D.", "Chinook", "1992", "5", None))
    True
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from pdnkit.pdn.names import name_key, parse_name, same_player, spelling_key, transliterate

__all__ = ["MAX_PROBABLE", "MIN_PREFIX_PLIES", "REAL_RESULTS", "SHORT_AGREEMENT", "Assignment", "Record",
           "Tags", "agreement", "canonical_key", "contradict", "date_spans", "latin",
           "partition", "person_keys", "player_key", "probable_bucket", "probable_copies", "round_key"]

#: the shortest main line that groups as the start of a longer one (pgn-extract's fuzzy
#: depth, fixed): shorter common starts are book moves, not evidence of one game
MIN_PREFIX_PLIES = 20
#: known tags a record of a short main line (under :data:`MIN_PREFIX_PLIES` plies, or none)
#: must share with a group to join it: a few book moves say little, so its tags must say
#: the rest (both players and the date, and the event or the round)
SHORT_AGREEMENT = 4
#: groups whose records agree on every tag that are still read as probable copies of one
#: game: two or three records; more are games the tags do not tell apart
MAX_PROBABLE = 3
#: results that say who won (a record with one stands before one with ``*`` or none)
REAL_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2"})

#: a span of days (proleptic ordinals, first and last inclusive)
Span = tuple[int, int]

_MONTHS = {
    # English, Dutch, German, French, Italian, Spanish, Portuguese (first three letters)
    "jan": 1, "feb": 2, "mar": 3, "maa": 3, "mrt": 3, "mär": 3, "apr": 4, "avr": 4,
    "may": 5, "mai": 5, "mei": 5, "mag": 5, "jun": 6, "jui": 6, "giu": 6, "jul": 7,
    "lug": 7, "aug": 8, "aoû": 8, "ago": 8, "sep": 9, "set": 9, "okt": 10, "oct": 10,
    "ott": 10, "out": 10, "nov": 11, "dec": 12, "dez": 12, "déc": 12, "dic": 12,
    "ene": 1, "fev": 2, "fév": 2, "abr": 4,
    # Russian (first three letters, any case)
    "янв": 1, "фев": 2, "мар": 3, "апр": 4, "мая": 5, "май": 5, "июн": 6, "июл": 7,
    "авг": 8, "сен": 9, "окт": 10, "ноя": 11, "дек": 12,
}
_UNKNOWN = re.compile(r"^[\s?.\-/*]*$")
_YMD = re.compile(r"^(\d{4})\s*[.\-/ ]\s*(\d{1,2}|\?{1,2})\s*(?:[.\-/ ]\s*(\d{1,2}|\?{1,2}))?\.?$")
_DMY = re.compile(r"^(\d{1,2})\s*[.\-/ ]\s*(\d{1,2})\s*[.\-/ ]\s*(\d{4})\.?$")
_SHORT = re.compile(r"^(\d{2})[.\-/](\d{2})[.\-/](\d{2})$")
_SEASON = re.compile(r"^(\d{4})\s*[/\-]\s*(\d{2}|\d{4})$")
_YEAR = re.compile(r"^(\d{4})\.?$")


def _month_span(year: int, month: int | None, day: int | None) -> Span | None:
    """The days of ``year`` (a month of it, a day of that month); None when impossible."""
    try:
        if month is None:
            return _dt.date(year, 1, 1).toordinal(), _dt.date(year, 12, 31).toordinal()
        first = _dt.date(year, month, 1)
        if day is None:
            nxt = _dt.date(year + (month == 12), month % 12 + 1, 1)
            return first.toordinal(), nxt.toordinal() - 1
        d = _dt.date(year, month, day).toordinal()
        return d, d
    except ValueError:
        return None


def _num(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() else None


def _ymd(year: int, month: str | None, day: str | None) -> list[Span]:
    m = _num(month)
    span = _month_span(year, m, _num(day) if m else None)
    return [span] if span else []


def _one(text: str) -> list[Span]:
    """The spans one date text (no range) can mean."""
    t = text.strip()
    if m := _YEAR.match(t):
        return _ymd(int(m.group(1)), None, None)
    if m := _SEASON.match(t):  # 1999/00, 2007/08, 1999-2000: a season (or a month of it)
        y, second = int(m.group(1)), m.group(2)
        end = int(second) if len(second) == 4 else (y // 100) * 100 + int(second)
        spans: list[Span] = []
        if end == y + 1 or (len(second) == 2 and int(second) == (y + 1) % 100):
            lo = _month_span(y, None, None)
            hi = _month_span(y + 1, None, None)
            if lo and hi:
                spans.append((lo[0], hi[1]))
        if len(second) == 2:  # 2007/08 can be August 2007
            spans += _ymd(y, second, None)
        if spans:
            return spans
    if m := _YMD.match(t):
        return _ymd(int(m.group(1)), m.group(2), m.group(3))
    if m := _DMY.match(t):  # 1.3.2003: day first, or the month first where it must be
        a, b, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
        out = _ymd(y, str(b), str(a)) if b <= 12 else []
        if a <= 12 and a != b:
            out += _ymd(y, str(a), str(b))
        return out
    if m := _SHORT.match(t):  # 03.07.20: 2003-07-20, or 3 July 2020
        a, b, c = (int(x) for x in m.groups())
        out = []
        for year, month, day in ((a, b, c), (c, b, a)):
            for century in (1900, 2000):
                out += _ymd(century + year, str(month), str(day))
        return out
    return _words(t)


def _words(text: str) -> list[Span]:
    """A date written with a month's name (``17 april 2009``, ``March 3, 1992``), or only a
    year somewhere in the text."""
    low = text.lower()
    years = re.findall(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)", low)
    if len(set(years)) != 1:
        return []
    year = int(years[0])
    month = next((n for w in re.findall(r"[^\W\d_]+", low) if (n := _MONTHS.get(w[:3]))),
                 None)
    if month is None:
        return _ymd(year, None, None)
    days = [int(d) for d in re.findall(r"(?<!\d)(\d{1,2})(?!\d)", low) if 1 <= int(d) <= 31]
    return _ymd(year, str(month), str(days[0]) if len(days) == 1 else None)


@lru_cache(maxsize=65536)
def date_spans(raw: str | None, year: int | None = None) -> tuple[Span, ...] | None:
    """The spans of days a date as written can mean (one for most dates, two where the
    order of day and month is open), ``None`` when nothing is known; ``year`` (the year
    column) where the text says nothing readable.

    Example:
        >>> import datetime as dt
        >>> def show(raw):
        ...     return [(str(dt.date.fromordinal(a)), str(dt.date.fromordinal(b)))
        ...             for a, b in date_spans(raw)]
        >>> show("2003.03.??"), show("1999/00")
        ([('2003-03-01', '2003-03-31')], [('1999-01-01', '2000-12-31')])
        >>> show("15.03.2003") == show("2003-03-15") == show("March 15, 2003")
        True
        >>> date_spans("????.??.??") is None, len(date_spans("03.04.2003"))
        (True, 2)
    """
    text = (raw or "").strip()
    spans: list[Span] = []
    if text and not _UNKNOWN.match(text):
        parts = re.split(r"\s+-\s+|\s*\.\.\s*|\s+to\s+", text)
        if len(parts) == 2:  # a range: 2004.10.27 - 2004.11.01
            a, b = _one(parts[0]), _one(parts[1])
            if a and b:
                spans = [(min(x[0] for x in a), max(x[1] for x in b))]
        if not spans:
            spans = _one(text)
    if not spans and year:
        spans = _ymd(int(year), None, None)
    return tuple(spans) or None


@lru_cache(maxsize=16384)
def round_key(raw: str | None) -> tuple[int | str, ...] | None:
    """A round as compared: its numbers (``"Round 5"``, ``"5"``, ``"R5"`` -> ``(5,)``;
    ``"5.2"`` -> ``(5, 2)``), else its text; ``None`` when unknown (``?``, ``-``, empty).

    Example:
        >>> round_key("Round 5"), round_key("5.2"), round_key("-"), round_key("final")
        ((5,), (5, 2), None, ('final',))
    """
    t = (raw or "").strip().lower()
    if _UNKNOWN.match(t):
        return None
    nums = re.findall(r"\d+", t)
    if nums:
        return tuple(int(n) for n in nums)
    return (t,)


#: a transliterated initial of two letters (``Yu.`` for ``Ю.``, ``Zh.`` for ``Ж.``)
_DIGRAPH = re.compile(r"(?<![^\W\d_])([A-Z])[a-z]\.")


def latin(name: str) -> str:
    """``name`` in Latin letters, an initial of two letters cut to its first: ``Арустамов
    Ю.`` and ``Arustamov Yu.`` both read ``Arustamov Y.``.

    Example:
        >>> latin("Арустамов Ю."), latin("Arustamov Yu.")
        ('Arustamov Y.', 'Arustamov Y.')
    """
    return _DIGRAPH.sub(r"\1.", transliterate(name))


@lru_cache(maxsize=65536)
def _same_person(a: str, b: str) -> bool:
    """Two known names (alias targets) that can stand for one person."""
    if a == b or same_player(a, b) or _one_surname(a, b):
        return True
    la, lb = latin(a), latin(b)
    return (la, lb) != (a, b) and (same_player(la, lb) or _one_surname(la, lb))


def _one_surname(a: str, b: str) -> bool:
    """A surname written alone that is the other name's surname."""
    pa, pb = parse_name(a), parse_name(b)
    if (pa is None) == (pb is None):
        return False
    if pa is None and pb is not None:  # "Tinsley" / "M. Tinsley"
        return spelling_key(a) == pb.surname_key != ""
    return pa is not None and spelling_key(b) == pa.surname_key != ""


@lru_cache(maxsize=65536)
def _event_key(event: str | None) -> str | None:
    key = spelling_key(event or "")
    return key or None


@dataclass(frozen=True, eq=False)
class Tags:
    """What a record's tags say that two records can disagree on: ``white`` and ``black``
    (the player each name stands for, alias applied; ``None``: unknown or a placeholder),
    ``dates`` (:func:`date_spans`), ``round`` (:func:`round_key`), ``event`` (its
    spelling key) and ``result`` (a result that says who won, White first). Made by
    :meth:`of`, which gives the same object for the same tags: compared and hashed by
    identity (the comparisons are cached per pair)."""

    white: str | None
    black: str | None
    dates: tuple[Span, ...] | None
    round: tuple[int | str, ...] | None
    event: str | None
    result: str | None = None

    @classmethod
    def of(cls, white: str | None, black: str | None, date: str | None,
           round: str | None, event: str | None, year: int | None = None,
           result: str | None = None) -> Tags:
        """The tags of a record as written (names already through the alias table).

        Example:
            >>> Tags.of("Ann", "?", "2001", "-", "Cup").black is None
            True
        """
        return _tags(white, black, date, round, event, year, result)


#: names that name no player (as the ``player_name`` macro of the schema reads them)
_PLACEHOLDERS = frozenset({"", "?", "??", "-", "white", "black", "red", "n.n.", "n.n", "nn",
                           "unknown", "anonymous"})


def _known(name: str | None) -> str | None:
    n = (name or "").strip()
    return None if n.lower() in _PLACEHOLDERS else n


@lru_cache(maxsize=262144)
def _tags(white: str | None, black: str | None, date: str | None, round: str | None,
          event: str | None, year: int | None, result: str | None) -> Tags:
    return Tags(_known(white), _known(black), date_spans(date, year), round_key(round),
                _event_key(event), result if result in REAL_RESULTS else None)


def _players(a: str | None, b: str | None) -> bool | None:
    """Whether two players agree (``None``: one is unknown)."""
    if a is None or b is None:
        return None
    return _same_person(a, b)


def _dates(a: tuple[Span, ...] | None, b: tuple[Span, ...] | None) -> bool | None:
    if a is None or b is None:
        return None
    return any(x[0] <= y[1] and y[0] <= x[1] for x in a for y in b)


def _rounds(a: tuple[int | str, ...] | None, b: tuple[int | str, ...] | None) -> bool | None:
    if a is None or b is None:
        return None
    short, long = sorted((a, b), key=len)
    return long[:len(short)] == short


def _events(a: str | None, b: str | None) -> bool | None:
    if a is None or b is None:
        return None
    short, long = sorted((a, b), key=len)
    return short == long or (len(short) >= 4 and short in long)


@lru_cache(maxsize=262144)
def contradict(a: Tags, b: Tags) -> bool:
    """Whether the known tags of two records say they are two games: players that cannot be
    one person (White with White, Black with Black), dates without a common day, rounds
    that differ, results that name other winners. Unknown tags contradict nothing.

    Example:
        >>> contradict(Tags.of("Ann", "Bob", "2001", "3", None),
        ...            Tags.of("Ann", None, "2001.05.02", None, "Cup"))
        False
    """
    return (_players(a.white, b.white) is False or _players(a.black, b.black) is False
            or _dates(a.dates, b.dates) is False or _rounds(a.round, b.round) is False
            or (a.result is not None and b.result is not None and a.result != b.result))


@lru_cache(maxsize=262144)
def agreement(a: Tags, b: Tags) -> int:
    """How many known tags two records share (White, Black, date, round, event): what
    decides which of several games a copy belongs to.

    Example:
        >>> agreement(Tags.of("Ann", "Bob", None, None, "Cup 2001"),
        ...           Tags.of("Ann", "Bob", "2001", None, "cup"))
        2
    """
    return sum(x is True for x in (
        _players(a.white, b.white), _players(a.black, b.black), _dates(a.dates, b.dates),
        _rounds(a.round, b.round), _events(a.event, b.event)))


class Record(NamedTuple):
    """One stored record as grouping sees it: its ``game_id``, main line (``line``, the
    ``moves_hash``), length in plies, result, number of tags, error findings, the path of
    its file and its 0-based number there (the order), its :class:`Tags`, and its
    ``identity`` (file content hash and number: what a user's ruling names). A tuple: a
    database's records are read by the hundred thousand."""

    game_id: int
    line: str
    plies: int
    result: str | None
    tags_count: int
    errors: int
    path: str
    game_index: int
    tags: Tags
    identity: tuple[str, int] = ("", 0)


def canonical_key(r: Record) -> tuple[int, int, int, int, str, int]:
    """The order of the record that stands for a group (the smallest first): the longest
    main line, then a real result over ``*`` (or none), then the most tags, then the fewest
    error findings, then the smallest path and game number. Nothing in it depends on the
    order of import.

    Example:
        >>> t = Tags.of(None, None, None, None, None)
        >>> a = Record(1, "h", 80, "*", 7, 0, "/b.pdn", 0, t)
        >>> b = Record(2, "h", 80, "1-0", 7, 0, "/c.pdn", 3, t)
        >>> sorted([a, b], key=canonical_key)[0].game_id
        2
    """
    return (-r.plies, 0 if r.result in REAL_RESULTS else 1, -r.tags_count, r.errors,
            r.path, r.game_index)


@dataclass(frozen=True)
class Assignment:
    """Where :func:`partition` put a record: the ``canonical`` record of its group (its own
    ``game_id`` for the canonical one), ``relation`` to it (``canonical``, ``same`` main
    line, ``prefix``: its main line is the canonical one's start, ``ruled``: by a user's
    ruling), and ``ambiguous``: the other groups it could belong to as well (it was left
    out of all of them)."""

    canonical: int
    relation: str
    ambiguous: tuple[int, ...] = ()


@dataclass
class _Group:
    canonical: Record
    members: list[Record] = field(default_factory=list)
    tags: dict[Tags, None] = field(default_factory=dict)


def partition(records: Iterable[Record], prefixes: Iterable[tuple[str, str]] = (),
              same: Iterable[tuple[int, int]] = (), different: Iterable[tuple[int, int]] = ()
              ) -> dict[int, Assignment]:
    """Put ``records`` into groups of copies of one game. ``prefixes``: pairs of main lines
    ``(short, long)`` where ``short`` is the start of ``long`` (verified, the shorter at
    least :data:`MIN_PREFIX_PLIES`); records with the same ``line`` have the same main
    line. ``same`` and ``different``: pairs of ``game_id``s a user ruled one game or two.

    Records are taken in :func:`canonical_key` order. Each joins the group whose canonical
    record's main line is its own or starts with it, when its tags contradict no member's
    (:func:`contradict`), no ruling keeps them apart and, for a main line shorter than
    :data:`MIN_PREFIX_PLIES`, at least :data:`SHORT_AGREEMENT` known tags agree with a
    member's (:func:`agreement`); where several groups qualify, the
    one whose members share the most known tags with it (:func:`agreement`), and none when
    that is a tie (the record is then a game of its own, with ``ambiguous`` set). A record
    that joins no group starts one. Last, records ruled the same join one group.

    Example:
        >>> t = Tags.of("Ann", "Bob", "2001", None, None)
        >>> u = Tags.of("Cid", "Dan", "1990", None, None)
        >>> recs = [Record(1, "h", 30, "1-0", 5, 0, "/a.pdn", 0, t),
        ...         Record(2, "h", 30, "1-0", 5, 0, "/b.pdn", 0, t),
        ...         Record(3, "h", 30, "1-0", 5, 0, "/c.pdn", 0, u)]
        >>> {g: (a.canonical, a.relation) for g, a in sorted(partition(recs).items())}
        {1: (1, 'canonical'), 2: (1, 'same'), 3: (3, 'canonical')}
    """
    longer: dict[str, list[str]] = {}
    for short, long in prefixes:
        longer.setdefault(short, []).append(long)
    apart: dict[int, set[int]] = {}
    for a, b in different:
        apart.setdefault(a, set()).add(b)
        apart.setdefault(b, set()).add(a)
    groups: list[_Group] = []
    by_line: dict[str, list[int]] = {}
    by_player: dict[tuple[str, int, str], list[int]] = {}
    out: dict[int, Assignment] = {}
    for r in sorted(records, key=canonical_key):
        alone = _alone(r)
        lines = (r.line, *longer.get(r.line, ()))
        if alone:
            cands = []
        elif r.plies < MIN_PREFIX_PLIES and SHORT_AGREEMENT >= 4:  # a player must agree
            near = {i for line in lines for side, name in enumerate((r.tags.white, r.tags.black))
                    for k in person_keys(name) for i in by_player.get((line, side, k), ())}
            cands = [i for line in lines for i in by_line.get(line, ())
                     if i in near and _fits(r, groups[i], apart)]
        else:
            cands = [i for line in lines for i in by_line.get(line, ())
                     if _fits(r, groups[i], apart)]
        choice = _choose(r, cands, groups)
        if choice is None:
            groups.append(_Group(r, [r], {r.tags: None}))
            if not alone:  # (no record can join a group of a record that can join none)
                by_line.setdefault(r.line, []).append(len(groups) - 1)
                _index_players(by_player, r.line, r.tags, len(groups) - 1)
            amb = (tuple(sorted({groups[i].canonical.game_id for i in cands}))
                   if len(cands) > 1 else ())
            out[r.game_id] = Assignment(r.game_id, "canonical", amb)
            continue
        g = groups[choice]
        g.members.append(r)
        g.tags[r.tags] = None
        _index_players(by_player, g.canonical.line, r.tags, choice)
        out[r.game_id] = Assignment(g.canonical.game_id,
                                    "same" if r.line == g.canonical.line else "prefix")
    _apply_rulings(out, {r.game_id: r for g in groups for r in g.members}, same)
    return out


def _surname(name: str) -> str:
    parsed = parse_name(name)
    return spelling_key(name) if parsed is None else parsed.surname_key


@lru_cache(maxsize=65536)
def person_keys(name: str | None) -> tuple[str, ...]:
    """Keys of a known name (alias target) of which two names that can stand for one
    person (:func:`_same_person`) share at least one: its surname's spelling key (a name of
    one word: the word's), as written and in Latin letters. ``()`` for an unknown name.

    Example:
        >>> set(person_keys("Tinsley, M.F.")) & set(person_keys("Marion Tinsley")) != set()
        True
    """
    if name is None:
        return ()
    return tuple(sorted({_surname(name), _surname(latin(name))}))


def _index_players(by_player: dict[tuple[str, int, str], list[int]], line: str, t: Tags,
                   group: int) -> None:
    """Note that ``group`` (of main line ``line``) has a member with the players of ``t``
    (White side 0, Black side 1): a record of a short main line can join only a group whose
    members share a player with it (:data:`SHORT_AGREEMENT` of five tags agree)."""
    for side, name in enumerate((t.white, t.black)):
        for k in person_keys(name):
            got = by_player.setdefault((line, side, k), [])
            if not got or got[-1] != group:
                got.append(group)


def _alone(r: Record) -> bool:
    """Whether ``r`` can share no group: a short main line with fewer than
    :data:`SHORT_AGREEMENT` known tags can agree on that many with no one (:func:`_fits`
    would refuse every group, and every record would refuse its group). Looked at first,
    so thousands of short games without tags (a file of untagged openings, games of a few
    moves) are no longer compared pair by pair."""
    t = r.tags
    known = sum(x is not None for x in (t.white, t.black, t.dates, t.round, t.event))
    return r.plies < MIN_PREFIX_PLIES and known < SHORT_AGREEMENT


def _fits(r: Record, g: _Group, apart: dict[int, set[int]]) -> bool:
    """Whether ``r`` may join ``g``: no member's tags contradict it, no ruling parts them,
    and a short main line shares at least :data:`SHORT_AGREEMENT` known tags with one."""
    if any(contradict(r.tags, t) for t in g.tags):
        return False
    if r.plies < MIN_PREFIX_PLIES and max(agreement(r.tags, t) for t in g.tags) \
            < SHORT_AGREEMENT:
        return False
    kept = apart.get(r.game_id)
    return not kept or not any(m.game_id in kept for m in g.members)


def _choose(r: Record, cands: Sequence[int], groups: list[_Group]) -> int | None:
    """The group ``r`` joins among ``cands`` (indexes of ``groups``): the only one, or the
    one whose members share the most known tags with it; ``None`` for none or a tie."""
    if len(cands) <= 1:
        return cands[0] if cands else None
    cands = list(dict.fromkeys(cands))
    if len(cands) == 1:
        return cands[0]
    scores = sorted(((max(agreement(r.tags, t) for t in groups[i].tags), i) for i in cands),
                    reverse=True)
    return scores[0][1] if scores[0][0] > scores[1][0] else None


def _apply_rulings(out: dict[int, Assignment], records: dict[int, Record],
                   same: Iterable[tuple[int, int]]) -> None:
    """Join the groups of the records a user ruled one game: the merged group's canonical
    record is the first of the two canonical ones in the order; a member whose main line is
    another than its own is ``ruled`` into it."""
    for a, b in same:
        if a not in out or b not in out:
            continue
        ca, cb = out[a].canonical, out[b].canonical
        if ca == cb:
            continue
        keep, drop = sorted((records[ca], records[cb]), key=canonical_key)
        for gid, asg in list(out.items()):
            if asg.canonical == drop.game_id:
                rel = "same" if records[gid].line == keep.line else "ruled"
                out[gid] = Assignment(keep.game_id, rel)


def probable_copies(records: Iterable[Record], canonical: dict[int, int],
                    different: Iterable[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """Pairs of groups (each named by its canonical record; ``canonical``: each record's)
    with records whose players, event, date and round are all known and agree, although
    their main lines did not make them one game: probably one game recorded twice (a copy
    with moves missing or mistyped), yet counted twice until a user rules on it. Groups
    with records a user ruled two games are left out, and so are the groups of tags shared
    by more than :data:`MAX_PROBABLE` groups (those tags tell games apart no better than a
    day's games of one pairing with every round numbered 1: not one game recorded twice).

    Example:
        >>> t = Tags.of("Ann", "Bob", "2001.05.02", "3", "Cup")
        >>> recs = [Record(1, "h", 40, "1-0", 5, 0, "/a.pdn", 0, t),
        ...         Record(2, "k", 38, "1-0", 5, 0, "/b.pdn", 0, t)]
        >>> probable_copies(recs, {1: 1, 2: 2})
        [(1, 2)]
        >>> more = [Record(i, f"h{i}", 40, "1-0", 5, 0, "/a.pdn", i, t) for i in range(9)]
        >>> probable_copies(more, {i: i for i in range(9)})
        []
    """
    apart = {frozenset(p) for p in different}
    buckets: dict[tuple[str, str, int], dict[Tags, dict[int, list[int]]]] = {}
    keys: dict[Tags, tuple[str, str, int] | None] = {}
    for r in records:
        t = r.tags
        if t not in keys:
            keys[t] = probable_bucket(t)
        key = keys[t]
        if key is None:
            continue
        group = canonical.get(r.game_id, r.game_id)
        buckets.setdefault(key, {}).setdefault(t, {}).setdefault(group, []).append(r.game_id)
    pairs: set[tuple[int, int]] = set()
    for by_tags in buckets.values():
        for cluster in _agreeing(by_tags):
            if not 2 <= len(cluster) <= MAX_PROBABLE:
                continue
            ids = sorted(cluster)
            for i, a in enumerate(ids):
                for b in ids[i + 1:]:
                    if not any(frozenset((x, y)) in apart for x in cluster[a]
                               for y in cluster[b]):
                        pairs.add((a, b))
    return sorted(pairs)


def _agreeing(by_tags: dict[Tags, dict[int, list[int]]]) -> list[dict[int, list[int]]]:
    """The groups of one bucket in clusters whose tags agree on every tag (each group with
    its records; results may differ)."""
    tags = list(by_tags)
    parent = list(range(len(tags)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(tags):
        for j in range(i + 1, len(tags)):
            if agreement(a, tags[j]) == 5:
                parent[root(j)] = root(i)
    clusters: dict[int, dict[int, list[int]]] = {}
    for i, t in enumerate(tags):
        into = clusters.setdefault(root(i), {})
        for group, ids in by_tags[t].items():
            into.setdefault(group, []).extend(ids)
    return list(clusters.values())


def player_key(name: str | None) -> str | None:
    """The key a player's name (alias applied) has in :func:`probable_bucket` (``None``
    for an unknown name or a placeholder).

    Example:
        >>> player_key("?") is None, player_key("Ann") == player_key(" Ann ")
        (True, True)
    """
    known = _known(name)
    return None if known is None else name_key(known)


def probable_bucket(t: Tags) -> tuple[str, str, int] | None:
    """Where a record with tags ``t`` looks for its probable copies: the players' keys and
    the year (``None`` where a tag is unknown). The year is the one every reading of the
    date starts in (a season's first year, a range's first): a date whose readings start in
    other years (``03.07.20``: 1903, 1920, 2003 or 2020) has no year, as the store's ``year``
    column has none, and so a record pairs with the same partners whether it is examined
    with its own file's records or found later by its year
    (:func:`pdnkit.store.copies.compute_groups` looks partners up by that column)."""
    if t.white is None or t.black is None or t.dates is None or t.round is None \
            or t.event is None:
        return None
    years = {_dt.date.fromordinal(s[0]).year for s in t.dates}
    if len(years) != 1:
        return None
    return name_key(t.white), name_key(t.black), years.pop()
