"""Read PDN into :class:`~pdnkit.pdn.record.GameRecord` objects, game by game.

:func:`read_games` decodes the input (:mod:`pdnkit.pdn.source`: UTF-8, UTF-16/32, else
CP1251, CP866 or CP1252 with an ``encoding-fallback`` finding), cuts it into game chunks
(:mod:`pdnkit.pdn.split`) and parses each chunk with the
Lark grammar ``grammars/pdn.lark`` (LALR, transformer applied during parsing). A syntax error
costs only its game: the record keeps its raw text and tags (when they can be read), gets a
``syntax-error`` finding with line, column and a plain message, and reading goes on.

Example:
    >>> text = '[White "Sijbrands"]\\n1. 32-28 {good} 19-23 (1... 18-23) 2. 28x19 14x23 2-0'
    >>> g = next(read_games(text))
    >>> g.tag("White"), [m.text for m in g.moves], g.result
    ('Sijbrands', ['32-28', '19-23', '28x19', '14x23'], '2-0')
    >>> g.moves[0].comments_after, g.moves[1].variations[0][0].squares
    (['good'], ('18', '23'))
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from pdnkit._lazy import lazy_pattern
from pdnkit.errors import MissingFileError
from pdnkit.findings import Finding, Severity, make_finding
from pdnkit.pdn import build, fast, lalr
from pdnkit.pdn.build import MAX_VIOLATIONS, Ctx
from pdnkit.pdn.lalr import UNESCAPE, Tok, local
from pdnkit.pdn.layout import RESULTS, Header, Lifted, read_header
from pdnkit.pdn.messages import describe_error, excerpt
from pdnkit.pdn.record import CommentNode, GameRecord
from pdnkit.pdn.recover import Recovery
from pdnkit.pdn.source import Source, bare_record, open_source
from pdnkit.pdn.split import Chunk

# ------------------------------------------------------------------------------------------
# one game

#: The largest game text (in characters) the reader parses. A longer game -- or a comment or
#: tag value that makes it longer -- is kept as raw text with a ``too-large`` finding and its
#: tag lines, without running the parser on it (memory stays proportional to the text).
MAX_GAME_CHARS = 10_000_000
#: The most variation brackets (``(`` and ``)``) and dashes a game may hold for the parser:
#: each is a token of its own, and a token costs the parser a few hundred bytes, so a run of
#: a million ``(`` would take hundreds of megabytes for one megabyte of text. A game over
#: either count is a ``too-large`` finding like a game over :data:`MAX_GAME_CHARS`
#: (variations nested 50,000 deep stay well inside it).
MAX_GAME_BRACKETS = 120_000
MAX_GAME_DASHES = 1_000_000

_LINE = lazy_pattern(r"[^\n]*\n?")
_HEAD_TAG = lazy_pattern(r'[ \t]*\[[ \t]*([A-Za-z_][\w\-]*)[ \t]+"([^"\\\n]*(?:\\.[^"\\\n]*)*)"'
                       r'[ \t]*\][ \t]*')
_HEAD_TAG_MAX = 1 << 16  # longest tag line read from a game too large to parse


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text`` (with their ``\\n``), lazily."""
    for m in _LINE.finditer(text):
        if not m.group():
            return
        yield m.group()


def _first_content_line(text: str) -> int:
    for i, ln in enumerate(_lines(text)):
        s = ln.strip()
        if s and not ln.startswith("%"):
            return i
    return 0


def parse_game(text: str, *, strict: bool = False, file: str | None = None, index: int = 0,
               line: int = 1, encoding: str | None = None, _parser_obj: Any = None,
               followed: bool = False) -> GameRecord:
    """Parse the text of exactly one game (no splitting) into a :class:`GameRecord`.

    Never raises for game data: problems become findings on the record. Text inside the
    movetext that does not read is kept as a comment with an ``unreadable-text`` warning,
    and reading goes on at the next token the grammar accepts; an unclosed ``{`` or ``(``
    is closed at the end of the game (with a warning). ``followed=True`` says the next game
    of the file follows this text (the splitter cut it there): moves without a result then
    get ``missing-terminator``. ``strict=True`` makes these errors.

    Example:
        >>> g = parse_game('[Event "x"]\\n1. 32-28 {unclosed')
        >>> g.parsed, g.tag("Event"), [m.text for m in g.moves], g.moves[0].comments_after
        (True, 'x', ['32-28'], ['unclosed'])
        >>> g.findings[0].code, g.findings[0].line, g.findings[0].column
        ('unclosed-comment', 2, 10)
        >>> g = parse_game('1. 32-28 19-23 2. 28x19 14x23Whiteoverstepped. 0-1')
        >>> len(g.moves), g.moves[-1].comments_after, g.result, g.findings[0].code
        (4, ['Whiteoverstepped.'], '0-1', 'unreadable-text')
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    skip = _first_content_line(text)
    rec = GameRecord(file=file, index=index, line=line + skip, raw=text, encoding=encoding)
    rec.end_line = line + text.count("\n", 0, len(text.rstrip("\n")))
    if (len(text) > MAX_GAME_CHARS or text.count("-") > MAX_GAME_DASHES
            or text.count("(") + text.count(")") > MAX_GAME_BRACKETS):
        _too_large(rec, text, line)
        return rec
    ctx = Ctx(line, strict)
    try:
        _parse_into(rec, text, ctx, _parser_obj)
    except MissingFileError:  # the grammar is not installed: a fault of the install, not
        raise                 # of the game (every game would read as a reading failure)
    except Exception as exc:  # noqa: BLE001 - never raise on game data
        _internal_error(rec, exc)
    finally:
        local.wrappers = None
    if followed and rec.parsed and rec.moves and rec.result is None:
        _missing_terminator(rec, strict)
    sev = Severity.ERROR if strict else Severity.WARNING
    for msg, vline, vcol in ctx.violations:
        rec.findings.append(make_finding(
            "strict-violation", msg + ("" if strict else " (a strict PDN 3.0 reader rejects this)"),
            severity=sev, file=file, game_index=index, line=vline, column=vcol))
    if ctx.unlisted:
        rec.findings.append(make_finding(
            "strict-violation", f"{ctx.unlisted} more departures from strict PDN 3.0 in this "
            f"game, not listed (the first {MAX_VIOLATIONS} are)", severity=sev, file=file,
            game_index=index, details={"unlisted": ctx.unlisted}))
    return rec


fast.FULL_PARSER[:] = [parse_game]  # the lane falls back on the whole parser


def _parse_into(rec: GameRecord, text: str, ctx: Ctx, parser_obj: Any) -> None:
    """Read ``text`` into ``rec``: the fast lane when the game is plain, else the layout
    model (:func:`pdnkit.pdn.layout.read_header`: the tags, and the junk lifted out) and
    Lark's parser on the movetext, with error recovery (:mod:`pdnkit.pdn.recover`). A tag
    line the grammar cannot read (after the result) is left out and the game read again
    without it (:func:`_skip_tag_line`)."""
    lane = parser_obj is None or parser_obj is lalr.PARSERS.get(True) or \
        parser_obj is lalr.PARSERS.get(False)
    if lane and fast.fast_record(text, parser_obj, ctx.line0, rec):
        return
    parser = parser_obj or lalr.parser()
    header = read_header(text)
    if header.start >= 0:
        rec.line = ctx.line0 + text.count("\n", 0, header.start)
    head_tags = _header_tags(rec, header, ctx)
    work = header.work
    skipped: list[tuple[int, str, str]] = []  # (line in the game, text, why) of tag lines
    first_error: Exception | None = None
    while True:
        local.wrappers = []
        recovery = Recovery(work)
        try:
            children = fast.fast_children(work, parser) if lane and not skipped else None
            if children is None:
                children = parser.parse(work, on_error=recovery)
            break
        except MissingFileError:  # the grammar is not installed (see parse_game)
            raise
        except Exception as exc:  # noqa: BLE001 - every parse failure becomes a finding
            first_error = first_error or exc
            step = _skip_tag_line(work, exc) if len(skipped) < _MAX_SKIPPED_TAG_LINES else None
            if step is None:
                _syntax_error(rec, first_error, work, ctx, head_tags)
                return
            why = describe_error(exc, work, 1)[0]
            work, row, line_text = step
            skipped.append((row, line_text, why))
    ctx.recovered = {(ev.line, ev.column) for ev in recovery.events}
    ctx.lifted_result = recovery.lifted_result
    rec.tags = head_tags
    build.records_from_parse(children, ctx, rec)
    if skipped and not rec.moves:  # a header that does not read, and no move: unparsed
        rec.body, rec.result = [], None
        ctx.violations.clear()
        ctx.unlisted = 0
        _syntax_error(rec, first_error, work, ctx, head_tags)  # type: ignore[arg-type]
        return
    if recovery.events:
        _recovered(rec, recovery, ctx, work)
    if skipped:
        _skipped_tag_lines(rec, skipped, ctx)
    if rec.parsed:
        _keep_lifted(rec, header, ctx)
    if header.dash >= 0 and rec.result is None and rec.parsed:
        _lone_dash(rec, header, text, ctx)
    if local.wrappers:  # [pdn] and [/pdn]: one remark
        ctx.violation("forum wrapper [pdn]...[/pdn] around the game", local.wrappers[0])


def _header_tags(rec: GameRecord, header: Header, ctx: Ctx) -> list[tuple[str, str]]:
    """The header's tags as ``(name, value)``, with an ``unknown-tag-syntax`` finding for each
    tag pair missing a bracket or a closing quote and the strict-mode remarks (a name that
    is not a PDN identifier matters to a strict reader only)."""
    sev = Severity.ERROR if ctx.strict else Severity.WARNING
    out: list[tuple[str, str]] = []
    for t in header.tags:
        out.append((t.name, t.value))
        at = Tok("TAG", "", t.line, t.column)
        for msg in t.malformed:
            rec.findings.append(make_finding(
                "unknown-tag-syntax", f"{msg}: read as the tag [{t.name} \"{t.value}\"]"[:300],
                severity=sev, file=rec.file, game_index=rec.index,
                line=t.line + ctx.line0 - 1, column=t.column,
                details={"tag": t.name, "value": t.value[:1000]}))
        for msg in t.strict:
            if ctx.strict or "not a PDN identifier" not in msg:
                ctx.violation(msg, at)
    for item in header.lifted:
        if item.kind == "comment":
            ctx.violation("a comment among the tags (PDN 3.0: comments belong to the "
                          "movetext)", Tok("COMMENT", "", item.line, item.column))
    return out


def _keep_lifted(rec: GameRecord, header: Header, ctx: Ctx) -> None:
    """Junk and comments lifted out of the header go before the first move as comments
    (``convert`` writes them there), junk lines of the movetext after the move they follow;
    junk gets a finding (``ignored-text`` in the header, ``unreadable-text`` in the
    movetext)."""
    if not header.lifted and not header.junk_lines:
        return
    sev = Severity.ERROR if ctx.strict else Severity.WARNING
    for item in header.lifted:
        if item.kind == "junk":
            rec.findings.append(make_finding(
                "ignored-text", f"text that is neither a tag pair nor movetext: "
                f"{excerpt(item.text)}, kept as a comment", severity=sev, file=rec.file,
                game_index=rec.index, line=item.line + ctx.line0 - 1, column=item.column,
                details={"text": item.text[:1000]}))
    last = (rec.moves[-1].line or 0) - ctx.line0 + 1 if rec.moves else 0
    for item in header.junk_lines:
        after = rec.result is not None and item.line > last  # between this game and the next
        rec.findings.append(make_finding(
            "ignored-text" if after else "unreadable-text",
            f"{'text after the game' if after else 'a line'} that holds no move: "
            f"{excerpt(item.text)}, kept as a comment", severity=sev, file=rec.file,
            game_index=rec.index,
            line=item.line + ctx.line0 - 1, column=item.column,
            details={"text": item.text[:1000]}))
    before = [item.text for item in header.lifted]
    if rec.moves:
        rec.moves[0].comments_before[:0] = before
        _place_after(rec, header.junk_lines, ctx)
    else:
        rec.body[:0] = [CommentNode(t) for t in before]
        rec.body.extend(CommentNode(item.text) for item in header.junk_lines)


def _place_after(rec: GameRecord, items: list[Lifted], ctx: Ctx) -> None:
    """Each junk line of the movetext as a comment after the main-line move before it (or
    before the first move)."""
    moves = rec.moves
    k = 0
    for item in items:
        where = (item.line + ctx.line0 - 1, item.column)
        while k < len(moves) and (moves[k].line or 0, moves[k].column or 0) < where:
            k += 1
        if k == 0:
            moves[0].comments_before.append(item.text)
        else:
            moves[k - 1].comments_after.append(item.text)


def _lone_dash(rec: GameRecord, header: Header, text: str, ctx: Ctx) -> None:
    """A lone ``-`` where the result belongs: the game is unfinished (``*``)."""
    line = ctx.line0 + text.count("\n", 0, header.dash)
    column = header.dash - text.rfind("\n", 0, header.dash)
    rec.result = "*"
    rec.findings.append(make_finding(
        "lone-dash-result", "a lone '-' stands where the result belongs: read as '*' (the "
        "result is not given)", severity=Severity.ERROR if ctx.strict else Severity.WARNING,
        file=rec.file, game_index=rec.index, line=line, column=column))


_MAX_SKIPPED_TAG_LINES = 10  # each one costs another parse (up to the header, mostly)


def _skip_tag_line(text: str, exc: Exception) -> tuple[str, int, str] | None:
    """When the parse failed on a line that starts a tag pair: the text with that line
    blanked (spaces keep every position), its 1-based line number and its text."""
    tok = getattr(exc, "token", None)
    line = getattr(tok, "line", None) if tok is not None and tok.type != "$END" else None
    line = line or getattr(exc, "line", None)
    if not isinstance(line, int) or line < 1:
        return None
    start = 0
    for _ in range(line - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return None
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    row = text[start:end]
    if not row.lstrip().startswith("["):
        return None
    return text[:start] + " " * len(row) + text[end:], line, row.strip()


def _skipped_tag_lines(rec: GameRecord, skipped: list[tuple[int, str, str]], ctx: Ctx) -> None:
    """Findings for tag lines left out; their text is kept as comments before the first
    move (``convert`` writes them there)."""
    sev = Severity.ERROR if ctx.strict else Severity.WARNING
    found = [make_finding(
        "unreadable-text", f"{why}: the tag line {excerpt(row_text)} was left out (kept as "
        "a comment)", severity=sev, file=rec.file, game_index=rec.index,
        line=row + ctx.line0 - 1, column=1, details={"text": row_text[:1000]})
        for row, row_text, why in skipped]
    rec.findings[:0] = found
    rec.moves[0].comments_before[:0] = [row_text for _, row_text, _ in skipped]


_RECOVERY_MESSAGES = {
    "unreadable-text": "unreadable text {text} in the movetext, kept as a comment",
    "unclosed-comment": "comment opened here is never closed: closed at the end of the game",
    "unclosed-variation": "variation opened here is never closed: closed at the end of the game",
}


def _recovered(rec: GameRecord, recovery: Recovery, ctx: Ctx, text: str) -> None:
    """Findings for what the recovery did; a game whose movetext gave nothing readable (no
    move) is ``unparsed`` with a syntax error instead."""
    if not rec.moves:
        first = recovery.events[0]
        line = first.line + ctx.line0 - 1
        rec.parsed = False
        rec.body = []
        rec.findings.append(make_finding(
            "syntax-error", "nothing readable in the movetext: "
            + _RECOVERY_MESSAGES[first.kind].format(text=excerpt(first.text)).replace(
                ", kept as a comment", ""),
            file=rec.file, game_index=rec.index, line=line, column=first.column))
        return
    sev = Severity.ERROR if ctx.strict else Severity.WARNING
    for ev in recovery.events:
        msg = _RECOVERY_MESSAGES[ev.kind].format(text=excerpt(ev.text))
        if not ev.kept:
            msg = msg.replace("kept as a comment", "after the result, kept as a comment at "
                              "the end")
        rec.findings.append(make_finding(
            ev.kind, msg, severity=sev, file=rec.file, game_index=rec.index,
            line=ev.line + ctx.line0 - 1, column=ev.column,
            details={"text": ev.text[:1000]}))
    rec.body.extend(CommentNode(t) for t in recovery.trailing)


def _missing_terminator(rec: GameRecord, strict: bool) -> None:
    """PDN 3.0 separates games with a result or ``*``: moves that stop without one right
    before the next game's tags (an error in strict mode). A header-only game is not
    concerned: to the standard's grammar its tags and the next game's are one header."""
    rec.findings.append(make_finding(
        "missing-terminator", "the movetext ends without a result (or '*') before the next "
        "game's tags: the game was ended there",
        severity=Severity.ERROR if strict else Severity.WARNING, file=rec.file,
        game_index=rec.index, line=rec.end_line))


def _internal_error(rec: GameRecord, exc: Exception) -> None:
    """A fault while reading one game: the game keeps its raw text and tags read so far."""
    rec.parsed = False
    rec.body = []
    rec.moves = []
    rec.findings.append(make_finding(
        "internal-error", f"reading the game failed: {type(exc).__name__}: {str(exc)[:200]}",
        file=rec.file, game_index=rec.index, line=rec.line))


def _too_large(rec: GameRecord, text: str, line0: int) -> None:
    """A game over :data:`MAX_GAME_CHARS` (or the bracket or dash limit): its tag lines are
    read, the rest is kept raw."""
    rec.parsed = False
    for ln in _lines(text):
        s = ln.strip()
        if not s or ln.startswith("%"):
            continue
        if len(ln) > _HEAD_TAG_MAX:
            break
        m = _HEAD_TAG.fullmatch(ln.rstrip("\n"))
        if m is None:
            break
        value = m.group(2)
        rec.tags.append((m.group(1), UNESCAPE.sub(r"\1", value) if "\\" in value else value))
    brackets = text.count("(") + text.count(")")
    if len(text) > MAX_GAME_CHARS:
        what = f"the game is {len(text):,} characters long, over the reader's limit of " \
               f"{MAX_GAME_CHARS:,}"
        details = {"chars": len(text), "limit": MAX_GAME_CHARS}
    elif brackets > MAX_GAME_BRACKETS:
        what = f"the game holds {brackets:,} variation brackets, over the reader's limit of " \
               f"{MAX_GAME_BRACKETS:,}"
        details = {"brackets": brackets, "limit": MAX_GAME_BRACKETS}
    else:
        what = f"the game holds {text.count('-'):,} dashes, over the reader's limit of " \
               f"{MAX_GAME_DASHES:,}"
        details = {"dashes": text.count("-"), "limit": MAX_GAME_DASHES}
    rec.findings.append(make_finding(
        "too-large", f"{what}: kept as raw text, not read", file=rec.file,
        game_index=rec.index, line=rec.line, details=details))


def _syntax_error(rec: GameRecord, exc: Exception, text: str, ctx: Ctx,
                  tags: list[tuple[str, str]]) -> None:
    """The game does not parse: ``parsed=False``, a ``syntax-error`` finding, the header's
    tags kept."""
    msg, eline, ecol = describe_error(exc, text, ctx.line0)
    rec.parsed = False
    rec.tags = tags
    rec.findings.append(make_finding(
        "syntax-error", msg, file=rec.file, game_index=rec.index, line=eline, column=ecol))


def read_games(source: Source, *, strict: bool = False, file: str | None = None,
               encoding: str | None = None) -> Iterator[GameRecord]:
    """Stream the games of ``source`` (a path, a text or binary file object, bytes, or a
    string of PDN text) as :class:`GameRecord` objects, in file order.

    Memory does not grow with the file: it is read line by line and cut into games. Never
    raises for bad data (syntax errors and odd constructs become findings); ``strict=True``
    turns what PDN 3.0 forbids from warnings into errors. ``file`` overrides the file name
    put on records; ``encoding`` (a codec name such as ``"cp866"``) skips detection.
    Sources are opened by :func:`pdnkit.pdn.source.open_source` (``"-"`` is standard
    input; decoding findings land on the game whose lines they concern).

    Example:
        >>> [g.result for g in read_games('1. 32-28 2-0\\n1. 33-29 0-2\\n')]
        ['2-0', '0-2']
        >>> g = next(read_games('[Event "x"]\\n1. 1-18 1-1'))
        >>> [m.text for m in g.moves], g.result
        (['1-18'], '1-1')
    """
    opened = open_source(source, encoding)
    fname = file if file is not None else opened.name
    try:
        yield from read_chunks(opened.chunks, fname, lambda: opened.encoding, strict)
    finally:
        opened.close()


def read_chunks(chunks: Iterable[Chunk], fname: str | None,
                encoding: Callable[[], str | None], strict: bool = False,
                left: list[Finding] | None = None) -> Iterator[GameRecord]:
    """The records of the game ``chunks`` of one source as :func:`read_games` gives them,
    numbered from 0 (``encoding()``: the source's encoding as decided so far). ``left``: the
    chunks are one part of a file that more games follow, so the last chunk is read as
    followed by another, and the findings of stray text after the last game are put into
    ``left`` (for the next part's first game) rather than made a game of their own.

    Example:
        >>> from pdnkit.pdn.split import split_text
        >>> [r.index for r in read_chunks(split_text("1. 32-28 *\\n1. 33-29 *"), None,
        ...                                lambda: None, left=[])]
        [0, 1]
    """
    records = _records(chunks, fname, encoding, strict, left)
    if left is not None:  # one part of a file: the file's first part decides (see below)
        return records
    return unless_not_pdn(records, fname)


def _records(chunks: Iterable[Chunk], fname: str | None, encoding: Callable[[], str | None],
             strict: bool, left: list[Finding] | None) -> Iterator[GameRecord]:
    """:func:`read_chunks` itself (every record as read, a file that is not PDN too)."""
    parser = None  # the Lark parser, built by the first game outside the fast lane
    index = 0
    pending: list[Finding] = []
    for chunk, followed in with_followed(chunks, more=left is not None):
        enc = chunk.own_encoding() or encoding()
        rec: GameRecord | None = None
        lane = chunk.lane()
        if lane is not None and not strict:  # read by the compiled lane
            try:
                rec = fast.lane_record(lane, fname, index, enc)
            except Exception:  # noqa: BLE001 - a fault of the lane: the reader reads it
                rec = None
        if rec is None:
            rec = bare_record(chunk, file=fname, index=index, encoding=enc) or parse_game(
                chunk.text, strict=strict, file=fname, index=index, line=chunk.line,
                encoding=enc, _parser_obj=parser, followed=followed)
        if chunk.text and is_stray_text(rec):
            pending.extend(chunk.findings)
            pending.append(make_finding(
                "ignored-text", "text between games that is neither tags nor moves was "
                f"skipped: {excerpt(rec.raw)}",
                file=fname, line=rec.line))
            continue
        notes = pending + (chunk.findings if chunk.text else [])
        if notes:
            at = None if rec.file_level else index
            rec.findings[:0] = [f.located(file=fname, game_index=at) for f in notes]
            pending = []
        yield rec
        index += not rec.file_level
    if pending and left is not None:
        left.extend(pending)
    elif pending:
        rec = GameRecord(file=fname, index=index, line=pending[0].line or 1, raw="",
                         encoding=encoding(), findings=[f.located(game_index=index)
                                                        for f in pending])
        rec.findings.append(make_finding("empty-game", "text after the last game holds "
                                         "no game", file=fname, game_index=index))
        yield rec


#: a file whose records hold no tag pair is held back for this many records, or characters
#: of text, to tell whether it is PDN at all (:func:`unless_not_pdn`)
NOT_PDN_RECORDS = 200
NOT_PDN_CHARS = 1 << 16
#: ... and a file holding this many moves is PDN whatever else it holds (a game commented
#: without braces after every move is still games)
NOT_PDN_MOVES = 40
#: the finding codes of text that is neither tags nor moves (what a file that is not PDN
#: is made of)
_JUNK_CODES = frozenset({"ignored-text", "unreadable-text", "syntax-error", "empty-game"})
#: findings about the bytes of a file, kept on the file's ``not-pdn`` record
_FILE_CODES = frozenset({"encoding-fallback", "invalid-bytes", "binary-data",
                         "escaped-line-ends"})


def unless_not_pdn(records: Iterable[GameRecord], fname: str | None) -> Iterator[GameRecord]:
    """``records`` (a whole file's, in order), or, for a text that is not PDN (a README, a
    note), one file-level record with a ``not-pdn`` finding instead of "games" made of its
    lines. A file is not PDN when none of its records holds a tag pair and what the reader
    could not read as tags or moves (the pieces of ``ignored-text``, ``unreadable-text``,
    ``syntax-error``, ``empty-game``) outnumbers the moves it read. A file is read as PDN
    as soon as a record holds a tag pair, or its moves are at least two and twice its
    pieces of junk, or :data:`NOT_PDN_MOVES`, or after :data:`NOT_PDN_RECORDS` records or
    :data:`NOT_PDN_CHARS` characters (memory stays bounded, and a stream of PDN comes out at
    once).

    Example:
        >>> text = "A note, not a game.\\n\\nSee the manual, chapter 2.\\n"
        >>> [(r.file_level, [f.code for f in r.findings]) for r in read_games(text)]
        [(True, ['not-pdn'])]
        >>> len(list(read_games("1. 32-28 19-23 *\\n1. 33-29 *")))
        2
    """
    held: list[GameRecord] = []
    moves = junk = chars = 0
    it = iter(records)
    for rec in it:
        held.append(rec)
        if rec.file_level:
            continue  # the notes after the last game: decided with the rest
        moves += rec.move_count
        junk += sum(f.code in _JUNK_CODES for f in rec.findings)
        chars += len(rec.raw)
        if rec.tags or (moves >= 2 and moves >= 2 * junk) or moves >= NOT_PDN_MOVES \
                or len(held) >= NOT_PDN_RECORDS or chars >= NOT_PDN_CHARS:
            yield from held
            yield from it
            return
    if junk <= moves or not any(not r.file_level for r in held):
        yield from held
        return
    yield _not_pdn_record(held, fname, moves, junk)


def _not_pdn_record(held: list[GameRecord], fname: str | None, moves: int,
                    junk: int) -> GameRecord:
    """The file-level record of a file that is not PDN (:func:`unless_not_pdn`)."""
    first = next((r.raw.strip() for r in held if r.raw.strip()), "")
    kept = [f.located(game_index=None) for r in held for f in r.findings
            if f.code in _FILE_CODES]
    for f in kept:
        f.game_index = None
    found = make_finding(
        "not-pdn", f"the file holds text but no PDN game: no tag pair, and {moves} move(s) "
        f"beside {junk} piece(s) of text that are neither tags nor moves (it begins "
        f"{excerpt(first)})", file=fname, line=1,
        details={"moves": moves, "junk": junk})
    return GameRecord(file=fname, index=0, line=1, end_line=held[-1].end_line, raw="",
                      encoding=held[0].encoding, file_level=True, findings=[found, *kept])


#: a game text whose last token is a result (no look-ahead needed for it)
_ENDS_WITH_RESULT = lazy_pattern(rf"(?:^|\s)(?:{RESULTS}|\*)\s*\Z")


def with_followed(chunks: Iterable[Chunk], more: bool = False) -> Iterator[tuple[Chunk, bool]]:
    """The chunks with content, each with True when another one follows it (one chunk of
    look-ahead: a game whose movetext stops without a result was cut by the next game's
    tags)."""
    held: Chunk | None = None
    for chunk in chunks:
        if not chunk.has_content:
            continue
        if held is not None:
            yield held, True
            held = None
        if chunk.lane() is not None or _ENDS_WITH_RESULT.search(chunk.text):
            # terminated: whether a chunk follows cannot matter, and a game read from a pipe
            # comes out at once instead of waiting for the next one
            yield chunk, True
        else:
            held = chunk
    if held is not None:
        yield held, more


def is_stray_text(rec: GameRecord) -> bool:
    """Text with no tags, no moves and no result (a note between games, a lone comment)."""
    if rec.tags or rec.moves or rec.result is not None:
        return False
    if not rec.parsed:
        # unparseable text without tags counts as a game only if it looks like movetext
        return not re.search(r"\d{1,2}[ \t]*[-x:][ \t]*\d{1,2}|[a-h][1-8][-x:]?[a-h][1-8]",
                             rec.raw, re.IGNORECASE)
    return True





__all__ = ["parse_game", "read_games"]
