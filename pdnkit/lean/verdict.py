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
from typing import TYPE_CHECKING, TextIO

from pdnkit.verdict.facts import Core, Scanned, Variant, compiled_core, judge_game

if TYPE_CHECKING:
    from pdnkit.lean.summary import Summary

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


__all__ = ["MOST_BYTES", "Taken", "clean_files", "game_verdicts", "render"]
