"""The verdict on one game: whether a game the compiled core's scanner read whole is one no
check of the validator could fault, judged by plain facts of its text (its tags, its result
tokens, its date, a ``PlyCount`` that counts the moves) and one call of the compiled core (the
replay as written, the draw loop, whether the side to move has a move, the final FEN). The
conditions are :mod:`pdnkit.lean.verdict`'s, which judges whole files with it (``pdnkit
validate``'s clean files, without loading the validator); the validator's batch of clean games
(:mod:`pdnkit.validation.cleanbatch`) judges each game with it too. It sits below both: it
imports the compiled core and the variants' start data (:mod:`pdnkit.verdict.startdata`,
written by :mod:`pdnkit.lean.startgen`), nothing of the reader or the validator.

Example:
    >>> core = compiled_core()
    >>> core is None or judge_game([("GameType", "20")], "*", 2, "1. 32-28 19-23 *", 0, {},
    ...                            core)[1].name == "international"
    True
"""

from __future__ import annotations

from typing import Any, Protocol

#: the tags a game taken here may have (the Seven Tag Roster and GameType)
TAGS = frozenset({"Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType"})

#: the days of each month (February's 29th: a leap year's)
_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _day_ok(y: str, m: str, d: str) -> bool:
    """Whether year ``y`` (four digits), month ``m`` and day ``d`` (one or two digits each,
    or ``??``: unknown, the day only with a month or both) make a date of the proleptic
    Gregorian calendar in 1000-2999 (:func:`pdnkit.pdn.dates.parse_date`'s years)."""
    if not (len(y) == 4 and y.isdigit() and 1000 <= int(y) <= 2999):
        return False
    if m == "??":
        return d == "??"
    if not (0 < len(m) <= 2 and m.isdigit() and 1 <= int(m) <= 12):
        return False
    if d == "??":
        return True
    if not (0 < len(d) <= 2 and d.isdigit()):
        return False
    year, month, day = int(y), int(m), int(d)
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 1 <= day <= (28 if month == 2 and not leap else _DAYS[month - 1])


def _date_ok(value: str | None) -> bool:
    """Whether a ``Date`` tag is one the validator reads without a ``bad-date``, in the
    shapes taken here: none or blank, ``????.??.??``, a year ``YYYY`` (``YYYY.``), a year
    first (``YYYY.MM.DD``, ``YYYY-MM-DD``, ``YYYY/MM/DD``, months and days of one digit or
    ``??``) or a day first (``D.M.YYYY``, ``DD-MM-YYYY``) of a calendar date;
    ``tests/validate/test_verdict_variants.py`` holds every one taken to
    :func:`pdnkit.pdn.dates.parse_date`."""
    text = (value or "").strip()
    if not text.isascii():
        return False
    if text in ("", "????.??.??"):
        return True
    if len(text) in (4, 5) and text[:4].isdigit():
        return text[4:] in ("", ".") and 1000 <= int(text[:4]) <= 2999
    for sep in ".-/":
        parts = text.split(sep)
        if len(parts) == 3:
            if len(parts[0]) == 4:
                return _day_ok(*parts)
            if sep != "/" and len(parts[2]) == 4 and "?" not in text:
                return _day_ok(parts[2], parts[1], parts[0])
            return False
    return False


#: a game as the core's scanner hands it over: start, end, line, end line, movetext start,
#: result, tags (name, value), each move's line (int32s), moves
Scanned = tuple[int, int, int, int, int, str, list[tuple[str, str]], bytes, int]
#: the core's one call over a clean game: final state, whether the side to move has a move
#: (``None``: the generator's bounds), the draw events it made (``None``: no draw rules),
#: the final FEN; ``None`` where the game is not replayed whole as written
Cleaned = tuple[tuple[object, ...], "bool | None", "bytes | None", str]


class Core(Protocol):
    """The compiled core's calls the verdict makes (``pdnkit.core._core``)."""

    def table(self, blob: bytes) -> object:
        """A variant's core table from its packed blob."""

    def clean_game(self, table: object, state: tuple[object, ...], text: str, offset: int,
                   n: int, numbering: int, spec: bytes | None, draws: bytes, layout: bytes
                   ) -> Cleaned | None:
        """One clean game's replay, checks, draw loop, end and FEN."""

    def scan_games(self, text: str, pos: int, line: int, final: bool
                   ) -> tuple[list[Scanned], int, int, int]:
        """The games the scanner reads whole from ``pos`` on, where it stopped, its status."""


class Variant:
    """One variant's start, ready for the core (made on the first game of it).

    Example:
        >>> from pdnkit.verdict.startdata import STARTS
        >>> core = compiled_core()
        >>> core is None or Variant(core, STARTS[20]).name == "international"
        True
    """

    __slots__ = ("name", "core", "table", "state", "offset", "spec", "draws", "layout",
                 "losing", "results", "gametype", "edition", "slots")

    def __init__(self, core: Core, entry: tuple[Any, ...]) -> None:
        (name, blob, state, offset, spec, draws, layout, losing, results, gametype, edition,
         slots) = entry
        self.name = str(name)
        self.core = core
        self.table = core.table(blob)
        self.state: tuple[object, ...] = state
        self.offset: int = offset
        self.spec: bytes | None = spec
        self.draws: bytes = draws
        self.layout: bytes = layout
        self.losing = bool(losing)
        #: result token -> (outcome, the result the report writes, its meaning, whether
        #: it has another reading where the rules decide the game)
        self.results: dict[str, tuple[str, str, str, bool]] = results
        self.gametype: int = gametype
        self.edition: str = edition
        #: the draw loop's slots: (rule, article, automatic) each
        self.slots: list[tuple[str, str, bool]] = slots

    def run(self, raw: str, body: int, n: int) -> Cleaned | None:
        """The core's one call over a game's text ``raw`` (movetext from ``body``)."""
        return self.core.clean_game(self.table, self.state, raw, body, n, self.offset,
                                    self.spec, self.draws, self.layout)


#: :func:`_draw_finding`'s answer where the judge would find more
_FAULT = ("", -1, -1)


def _draw_finding(v: Variant, made: bytes | None, n: int, outcome: str
                  ) -> tuple[str, int, int] | None:
    """The one finding of a game's end as the judge gives it from the draw rules reached
    (:func:`pdnkit.validation.judge.judge_draws`, step by step): ``None`` (no draw, no rule
    touched), ``draw-by-rule`` or ``draw-unsupported`` for a draw; :data:`_FAULT` where it
    would find more (a rule reached and ignored: the validator says it)."""
    events = memoryview(made).cast("q").tolist() if made else []
    if max(events[3::5], default=-1) < 0:  # no rule reached (most games): what follows says
        return None if outcome != "draw" else ("draw-unsupported", n, -1)
    reached = sorted(((events[j + 3], events[j], events[j + 4])
                      for j in range(0, len(events), 5) if events[j + 3] >= 0),
                     key=lambda t: t[0])
    decisive = outcome in ("white", "black")
    first_auto = next((t for t in reached if v.slots[t[1]][2]), None)
    for at, slot, _ in reached:
        if first_auto is not None and at > first_auto[0]:
            break
        if at < n or decisive:  # the game went on after it, or was won: draw-rule-ignored
            return _FAULT
        if v.slots[slot][2]:
            break
    if outcome != "draw":
        return None
    basis = first_auto
    if basis is None:  # a claim that still holds at the end backs the draw
        holding = [t for t in reached if t[2] < 0 or t[2] >= n]
        basis = holding[-1] if holding else None
    if basis is None:
        return ("draw-unsupported", n, -1)
    return ("draw-by-rule", basis[0], basis[1])


#: a tag name -> its name in lower case, or :data:`_REFUSED` where it is one the validator
#: reads and the verdict does not take (:func:`_tags`; made on first sight of each name)
_NAMES: dict[str, str] = {}
#: no name in lower case (it has capitals)
_REFUSED = "REFUSED"


def _tags(tags: list[tuple[str, str]]) -> dict[str, str] | None:
    """A game's tags by name in lower case, where the validator reads none of them but the
    verdict's own (:data:`TAGS`, as spelt there, and ``PlyCount``, which it checks) and none
    is repeated (``duplicate-tag``: names compared as the validator compares them); else
    ``None``."""
    names = _NAMES
    values: dict[str, str] = {}
    for name, value in tags:
        low = names.get(name)
        if low is None:
            low = names[name] = _tag_name(name)
        if low is _REFUSED or low in values:
            return None
        values[low] = value
    return values


def _tag_name(name: str) -> str:
    """``name`` in lower case, or :data:`_REFUSED` where the validator reads the tag and the
    verdict does not take it."""
    from pdnkit.verdict.startdata import READ_TAGS

    low = name.lower()
    return _REFUSED if low in READ_TAGS and name not in TAGS and low != "plycount" else low


def _result(v: Variant, tag: str | None, term: str) -> tuple[str, str] | None:
    """The result token the judge reads and where it comes from (``tag`` or
    ``terminator``: :func:`pdnkit.validation.judge.result_source`), where the tag and the
    terminator are tokens of the variant's table that do not disagree
    (``result-tag-mismatch``); else ``None``."""
    results = v.results
    if term not in results:
        return None
    if tag is None:  # (no Result tag: the terminator's)
        return term, "terminator"
    if tag not in results:
        return None
    tag_meaning, term_meaning = results[tag][2], results[term][2]
    if tag_meaning != "unknown":
        if term_meaning not in ("unknown", tag_meaning):
            return None
        return tag, "tag"
    return (term, "terminator") if term_meaning != "unknown" else (tag, "tag")


#: :func:`judge_game`'s answer for a clean game: its tags by name in lower case, its
#: variant, the result token the judge reads and where it comes from, the final FEN, its one
#: finding (``(code, ply, draw rule slot or -1)``, or ``None``) and the draw events the core
#: made (``None``: no draw rules)
Judged = tuple[dict[str, str], "Variant", str, str, str, "tuple[str, int, int] | None",
               "bytes | None"]


def judge_game(tags: list[tuple[str, str]], term: str, n: int, raw: str, body: int,
               variants: dict[int, Variant | None], core: Core) -> Judged | None:
    """The verdict on one game read whole (its ``tags``, result token ``term`` after the
    moves, ``n`` moves, its text ``raw`` with the movetext from ``body``) when it is clean
    (the module's conditions on a game; the file's are the caller's), else ``None``: the
    pure judging both the verdict and the validator's batch of clean games
    (:mod:`pdnkit.validation.cleanbatch`) make. ``variants`` caches each GameType's start.

    Example:
        >>> core = compiled_core()
        >>> got = core and judge_game([("GameType", "20")], "*", 2, "1. 32-28 19-23 *", 0,
        ...                           {}, core)
        >>> got is None or (got[1].name, got[2], got[3], got[4][:9]) == (
        ...     "international", "*", "terminator", "W:W28,31,")
        True
    """
    values = _tags(tags)
    if values is None:
        return None
    gametype = values.get("gametype", "")
    if not (gametype.isascii() and gametype.isdigit() and gametype[:1] != "0"):
        return None
    number = int(gametype)
    if number not in variants:
        from pdnkit.verdict.startdata import STARTS

        entry = STARTS.get(number)
        variants[number] = None if entry is None else Variant(core, entry)
    v = variants[number]
    read = None if v is None else _result(v, values.get("result"), term)
    if v is None or read is None or n < 1 or not _date_ok(values.get("date")):
        return None
    plies = values.get("plycount", "").strip()
    # (plycount-mismatch: a PlyCount that is a number and not the moves'; digits beyond
    # ASCII are left to the validator)
    if not plies.isascii() or (plies.isdigit() and int(plies) != n):
        return None
    got = v.run(raw, body, n)
    if got is None:
        return None
    final, has_move, made, fen = got
    if has_move is None:
        return None
    outcome, _, _, other = v.results[read[0]]
    if not has_move and outcome != "unknown":  # the side to move has none: the rules decide
        mover_black = bool(final[0])
        loser_black = mover_black if not v.losing else not mover_black
        if other or outcome != ("white" if loser_black else "black"):
            return None  # (another reading: the judge says which it took)
    finding = _draw_finding(v, made, n, outcome)
    if finding is _FAULT:
        return None
    return values, v, read[0], read[1], fen, finding, made


def compiled_core() -> Core | None:
    """The compiled core, where it has the verdict's two calls (``None``: the pure core).

    Example:
        >>> compiled_core() is None or hasattr(compiled_core(), "clean_game")
        True
    """
    from pdnkit.core.compiled import extension

    ext = extension()
    if ext is None or not hasattr(ext, "clean_game") or not hasattr(ext, "scan_games"):
        return None
    core: Core = ext
    return core


__all__ = ["TAGS", "Cleaned", "Core", "Judged", "Scanned", "Variant", "compiled_core", "judge_game"]
