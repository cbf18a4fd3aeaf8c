"""The verdict on a clean file first: ``pdnkit validate`` of files whose every game is one
the compiled core replays whole and that no check could find fault with prints its summary
without loading the validator (its report, pipeline and record modules).

A game is taken here only when nothing about it could give a finding, and each condition is
a plain fact of its text: the file is printable ASCII, or UTF-8 of printable characters
(with or without a byte order mark), and tabs, with ``\\n`` or ``\\r\\n`` line ends (the
validator's reader reads both as one) and no ``\\`` or ``&`` (nothing to unescape or flag
as read); the core's scanner reads every game whole (tag lines, plain movetext, a standard
result); a game's tags are each once (names compared in any case), its ``GameType`` one of
:data:`~pdnkit.lean.startdata.STARTS` (every variant the core replays whose end the verdict
can judge: :func:`pdnkit.lean.startgen.left_out`), and the only tags the validator reads
(:data:`~pdnkit.lean.startdata.READ_TAGS`) are the Seven Tag Roster's, ``GameType`` and a
``PlyCount`` that counts the moves; a ``Date`` is blank or of a shape :func:`_date_ok`
knows to be a date; the ``Result`` tag, where there is one, and the result after the moves
are tokens of the variant's table that do not disagree (``*`` on one side leaves the
other); the core replays every move as written, with its move numbers, and reaches no draw
rule the game ignores; where the side to move has no move the result names the winner the
rules name in its one reading, and a draw leaves the side to move a move (its one finding:
``draw-by-rule`` or ``draw-unsupported``); and the endgame databases' folder is empty or
absent. Anything else -- one game of it -- and :func:`render` answers ``None``: the
validator runs as always, from the start, so what is printed never depends on which way ran
(``tests/validate/test_verdict.py`` and ``test_verdict_variants.py`` hold every game taken
here to the validator's report, and whole files to its output, on real files, seeded games
of every variant and seeded mutations).

The variants' start data (core table, start state, draw state) are
:mod:`pdnkit.lean.startdata`'s, written once by :mod:`pdnkit.lean.startgen`.

Example:
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = os.path.join(d, "one.pdn")
    ...     with open(path, "w") as f:
    ...         _ = f.write('[Result "2-0"]\\n[GameType "20"]\\n\\n1. 32-28 19-23 2-0\\n')
    ...     got = clean_files([path])
    >>> got is None or [(g.plies, g.fen[:9]) for g in got[0]] == [(2, "W:W28,31,")]
    True
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Protocol, TextIO

if TYPE_CHECKING:
    from pdnkit.lean.summary import Summary

#: the tags a game taken here may have (the Seven Tag Roster and GameType)
TAGS = frozenset({"Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType"})
#: the bytes a file taken here may hold: printable ASCII, the tab (a blank to the scanner
#: and the reader alike) and the line feed (and, in UTF-8 text, the bytes of characters
#: beyond ASCII)
_PLAIN = bytes(range(0x20, 0x7F)) + b"\t\n"
_HIGH = bytes(range(0x80, 0x100))
#: UTF-8 of the characters beyond ASCII the verdict leaves to the validator: the C1
#: controls (U+0080-U+009F: \xc2 then \x80-\x9f), the line and paragraph separators
#: and the byte order mark inside the text
_ODD = (b"\xe2\x80\xa8", b"\xe2\x80\xa9", b"\xef\xbb\xbf")
#: the compiled scanner's statuses: a game it leaves to the Python reader, the end of its
#: input (src/scan.h)
_SCAN_UNUSUAL, _SCAN_END = 1, 3
#: the most bytes of files the verdict reads (it holds a file's text and games, and writes
#: its output once every game is judged): larger inputs stream through the validator, whose
#: memory stays flat and whose workers take a second core
MOST_BYTES = 8 << 20
#: the characters of a file's head, whose games are judged before the rest is scanned
_HEAD = 1 << 16


def _databases() -> bool:
    """Whether the endgame databases' folder (:func:`pdnkit.egdb.folder.default_dir`, found
    without pathlib) holds anything: where it may hold a variant's databases, the validator
    judges the games' ends with them."""
    env = os.environ.get("PDNKIT_EGDB", "").strip()
    if env:
        folder = os.path.expanduser(env)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
        folder = os.path.join(xdg or os.path.join(os.path.expanduser("~"), ".cache"),
                              "pdnkit", "egdb")
    try:
        return bool(os.listdir(folder)) if os.path.isdir(folder) else False
    except (OSError, ValueError):
        return True


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
        >>> from pdnkit.lean.startdata import STARTS
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


class Taken:
    """A game taken as clean: its line, players, result as the judge reads it (the token,
    where it comes from: ``tag`` or ``terminator``), plies, final FEN and its one finding
    where it has one (``(code, ply, draw rule slot or -1)``: a draw's ``draw-by-rule`` or
    ``draw-unsupported``)."""

    __slots__ = ("line", "white", "black", "token", "source", "plies", "variant", "fen",
                 "finding")

    def __init__(self, line: int, values: dict[str, str], token: str, source: str,
                 plies: int, variant: Variant, fen: str,
                 finding: tuple[str, int, int] | None) -> None:
        self.line = line
        self.white = values.get("white", "").strip() or None
        self.black = values.get("black", "").strip() or None
        self.token, self.source, self.plies, self.variant = token, source, plies, variant
        self.fen, self.finding = fen, finding


#: :func:`_draw_finding`'s answer where the judge would find more
_FAULT = ("", -1, -1)


def _draw_finding(v: Variant, made: bytes | None, n: int, outcome: str
                  ) -> tuple[str, int, int] | None:
    """The one finding of a game's end as the judge gives it from the draw rules reached
    (:func:`pdnkit.validation.judge.judge_draws`, step by step): ``None`` (no draw, no rule
    touched), ``draw-by-rule`` or ``draw-unsupported`` for a draw; :data:`_FAULT` where it
    would find more (a rule reached and ignored: the validator says it)."""
    events = memoryview(made).cast("q").tolist() if made else []
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
    from pdnkit.lean.startdata import READ_TAGS

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
    (:mod:`pdnkit.validation.batch`) make. ``variants`` caches each GameType's start.

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
        from pdnkit.lean.startdata import STARTS

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


def _game_clean(game: Scanned, text: str, variants: dict[int, Variant | None],
                core: Core) -> Taken | None:
    """The game the scanner read when it is clean (the module's conditions), else
    ``None``."""
    start, end, line, _, body, term, tags, _, n = game
    got = judge_game(tags, term, n, text[start:end], body - start, variants, core)
    if got is None:
        return None
    values, v, token, source, fen, finding, _ = got
    return Taken(line, values, token, source, n, v, fen, finding)


def _file_text(path: str) -> str | None:
    """The text of the file at ``path`` when it is one the verdict may take."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if data.startswith(b"\xef\xbb\xbf"):  # (a UTF-8 byte order mark: no text, no finding)
        data = data[3:]
    if b"\r" in data:  # CR LF line ends: the validator's reader reads them as LF
        data = data.replace(b"\r\n", b"\n")
    if not data or b"\\" in data or b"&" in data:
        return None
    if data.isascii():
        return None if data.translate(None, _PLAIN) else data.decode("ascii")
    return _utf8(data)


def _utf8(data: bytes) -> str | None:
    """The text of ``data`` where it is UTF-8 (the validator's reader decides so, with no
    finding: :func:`pdnkit.pdn.decode.decide`) of printable characters and line feeds."""
    if data.translate(None, _PLAIN + _HIGH) or any(odd in data for odd in _ODD):
        return None
    at = data.find(b"\xc2")
    while at >= 0:
        if 0x80 <= data[at + 1] <= 0x9F:
            return None
        at = data.find(b"\xc2", at + 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _file_games(path: str, core: Core, variants: dict[int, Variant | None],
                every: bool = False) -> list[Taken | None] | None:
    """Each game of the file at ``path`` when every one is clean, else ``None``;
    ``every``: each game's verdict (``None``: not clean), ``None`` only where the file
    itself is not taken."""
    text = _file_text(path)
    if text is None:
        return None
    out: list[Taken | None] = []
    pos, line = 0, 1
    head = text.rfind("\n", 0, _HEAD) + 1
    if len(text) > _HEAD and head:  # the first games first: a file left to the validator is
        # left soon (the head ends at a line end: a token cut short, a lone ``1`` of
        # ``12-17``, is no move nor result to the scanner, which would leave the file)
        games, pos, line, status = core.scan_games(text[:head], 0, 1, False)
        if status == _SCAN_UNUSUAL or not _judge(games, text, variants, core, every, out):
            return None
    games, _, _, status = core.scan_games(text, pos, line, True)
    if status != _SCAN_END or not _judge(games, text, variants, core, every, out) or not out:
        return None
    return out


def _judge(games: list[Scanned], text: str, variants: dict[int, Variant | None], core: Core,
           every: bool, out: list[Taken | None]) -> bool:
    """Judge ``games`` into ``out``; False at the first not clean unless ``every``."""
    for game in games:
        got = _game_clean(game, text, variants, core)
        if got is None and not every:
            return False
        out.append(got)
    return True


def game_verdicts(path: str) -> list[tuple[int, str, list[str]] | None] | None:
    """Each game's verdict in the file at ``path`` (``(plies, variant, finding codes)`` for
    a game taken as clean, ``None`` for one left to the validator), or ``None`` where the file
    itself is left to it (its bytes, a game the scanner does not read whole, no compiled
    core).

    Example:
        >>> game_verdicts("no-such.pdn") is None
        True
    """
    core = compiled_core()
    if core is None:
        return None
    games = _file_games(path, core, {}, every=True)
    if games is None:
        return None
    return [None if g is None else (g.plies, g.variant.name, [g.finding[0]] if g.finding else [])
            for g in games]


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


def clean_files(paths: list[str]) -> list[list[Taken]] | None:
    """The games of each file at ``paths`` when every game of them is clean (see the
    module's text), else ``None`` (the validator decides).

    Example:
        >>> clean_files(["no-such.pdn"]) is None
        True
    """
    if _databases():
        return None
    try:
        if sum(os.path.getsize(p) for p in paths) > MOST_BYTES:
            return None
    except (OSError, ValueError):
        return None
    seen: set[str] = set()
    for p in paths:
        # (a path as the validator names it: a file, written in its plain form)
        if not p or p != os.path.normpath(p) or not os.path.isfile(p):
            return None
        real = os.path.realpath(p)
        if real in seen:
            return None
        seen.add(real)
    core = compiled_core()
    if core is None:
        return None
    variants: dict[int, Variant | None] = {}
    out = []
    for p in paths:
        games = _file_games(p, core, variants)
        if games is None:
            return None
        out.append([g for g in games if g is not None])
    return out


def _jsonl(path: str, games: list[Taken]) -> str:
    """The JSON lines of a file's clean games, as the validator writes their reports
    (:meth:`pdnkit.validation.report.GameReport.to_dict`), numbered in their file from 0."""
    from json import JSONEncoder

    encode = JSONEncoder(ensure_ascii=False).encode
    lines = []
    for k, g in enumerate(games):
        v = g.variant
        outcome, result = v.results[g.token][:2]
        findings: list[dict[str, object]] = []
        basis = None
        if g.finding is not None:
            code, ply, slot = g.finding
            if slot < 0:
                message = "no draw rule was reached; the draw was presumably agreed"
                details: dict[str, object] = {}
            else:
                basis, article, automatic = v.slots[slot]
                message = (f"the draw is backed by {article} ({basis}), reached at ply "
                           f"{ply}")
                details = {"rule": basis, "article": article, "automatic": automatic}
            findings.append({"code": code, "severity": "info", "ply": ply, "line": None,
                             "move": None, "fen": None, "message": message,
                             "in_variation": False, "details": details})
        lines.append(encode({
            "file": path, "index": k, "line": g.line, "variant": v.name,
            "gametype": v.gametype, "edition": v.edition, "white": g.white,
            "black": g.black, "result": result, "result_raw": g.token,
            "result_source": g.source, "outcome": outcome, "draw_basis": basis,
            "plies": g.plies, "replayed_plies": g.plies, "status": "ok",
            "final_fen": g.fen, "findings": findings}))
    return "\n".join(lines) + "\n" if lines else ""


def render(paths: list[str], fmt: str, stream: TextIO, to_file: bool = False,
           show_info: bool = False) -> Summary | None:
    """Validate ``paths`` on the verdict's path and print what ``pdnkit validate`` prints
    in format ``fmt`` on ``stream`` (``to_file``: a named output file, the text summary
    120 wide; ``show_info``: text's ``--info``, which prints a draw's finding, left to the
    validator): the run's counts, or ``None``, nothing printed, where the validator must
    run (a game not taken here, a CSV row to write, a summary that rich must print).

    Example:
        >>> import io
        >>> render(["no-such.pdn"], "text", io.StringIO()) is None
        True
    """
    import sys
    import time

    from pdnkit.lean.plaintext import plain_width

    text_format = fmt == "text"
    if fmt not in ("text", "jsonl", "csv", "csv-raw"):
        return None
    out = stream if text_format else sys.stderr
    width = plain_width(out)
    if width is None:
        return None
    if text_format and to_file:
        width = 120
    begun = time.perf_counter()
    files = clean_files(paths)
    if files is None:
        return None
    from pdnkit.lean.summary import Summary

    counts = Summary()
    for games in files:
        for g in games:
            counts.plies += g.plies
            name = g.variant.name
            counts.variants[name] = counts.variants.get(name, 0) + 1
            if g.finding is not None:
                if fmt not in ("text", "jsonl") or show_info:  # a CSV row, a line printed
                    return None
                key = (g.finding[0], "info")
                counts.by_code[key] = counts.by_code.get(key, 0) + 1
                counts.worst_rank = max(counts.worst_rank, 0)
        counts.games += len(games)
    counts.by_status["ok"] = counts.games
    if fmt == "jsonl":
        for path, games in zip(paths, files, strict=True):
            stream.write(_jsonl(path, games))
    elif fmt != "text":
        from pdnkit.lean.summary import CSV_FIELDS

        stream.write(",".join(CSV_FIELDS) + "\r\n")
    table = counts.text(time.perf_counter() - begun, width)
    if table is None:  # pragma: no cover - a plain table: printable ASCII and box lines
        raise AssertionError("the summary of clean games is a plain table")
    out.write(table)
    return counts


__all__ = ["MOST_BYTES", "TAGS", "Judged", "Taken", "Variant", "clean_files", "compiled_core",
           "game_verdicts", "judge_game", "render"]
