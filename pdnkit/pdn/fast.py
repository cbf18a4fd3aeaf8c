"""The fast lane of the reader: a plain game read with one regular expression derived from
the grammar's own terminals, handed over as Lark's parser would hand it over.

The terminals of the usual game are taken from the grammar (the same patterns, in the order
Lark's lexer tries them). A game whose text is a sequence of these that fits
``tags? elements? (RESULT tags?)?`` -- no variation, no liberal tag, no forum wrapper -- is
tokenised with one regular expression (:func:`fast_children`); the narrowest case, tag pairs,
numbered moves, comments and NAGs after a move and a standard result, goes straight into a
record (:func:`fast_record`). Anything else (and every syntax error) goes through the Lark
parser.

Example:
    >>> from pdnkit.pdn.record import GameRecord
    >>> rec = GameRecord()
    >>> fast_record('[Event "x"] 1. 32-28 19-23 *', lalr.parser(), 1, rec), rec.tags, rec.result
    (True, [('Event', 'x')], '*')
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, overload

from pdnkit._lazy import lazy_pattern
from pdnkit.pdn import lalr
from pdnkit.pdn.lalr import (
    STANDARD_RESULTS,
    TOKEN_CACHE,
    UNESCAPE,
    ParseActions,
    Tok,
    move_token,
)
from pdnkit.pdn.layout import IDENTIFIER, decode_entities
from pdnkit.pdn.record import BodyElement, GameRecord, MoveNode, UnreadLine

if TYPE_CHECKING:
    from pdnkit.pdn.split import Chunk

# The terminals of the usual game, taken from the grammar (the same patterns, in the order
# Lark's lexer tries them). A game whose text is a sequence of these that fits
# ``tags? elements? (RESULT tags?)?`` -- no variation, no liberal tag, no forum wrapper -- is
# tokenised with one regular expression and handed to the reader as Lark's transformer would
# hand it over. Anything else (and every syntax error) goes through the Lark parser.
_FAST_ELEMENTS = ("MOVENUM", "NUMMOVE", "ALPHAMOVE", "PLACEHOLDER", "STRENGTH", "NAG",
                  "COMMENT", "LINECOMMENT", "SETUP")
_FAST_TERMINALS = frozenset((*_FAST_ELEMENTS, "TAG", "RESULT", "WS", "ESCAPE", "WRAPPER"))
_FAST: list[Any] = []


def fast_pattern(parser: Any) -> str | None:
    """The fast lane's regular expression, from the terminals of the built grammar (None when
    the grammar no longer has them all)."""
    terms = [t for t in parser.terminals if t.name in _FAST_TERMINALS]
    if len(terms) != len(_FAST_TERMINALS):  # the grammar changed: no fast lane
        return None
    # Lark's own order (lark.lexer.BasicLexer): the first alternative that matches wins
    terms.sort(key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name))
    return "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terms)


def cache_file() -> Path | None:
    """Where the fast lane's expression for this grammar text is kept between runs:
    ``$PDNKIT_CACHE_DIR``, else ``$XDG_CACHE_HOME/pdnkit``, else ``~/.cache/pdnkit``; the name
    carries a hash of the grammar text, so an edited grammar is derived afresh. ``None`` when
    ``PDNKIT_CACHE_DIR`` is set empty (no cache)."""
    import hashlib

    from pdnkit.pdn.grammar import grammar_text

    base = os.environ.get("PDNKIT_CACHE_DIR")
    if base is not None and not base.strip():
        return None
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = os.path.join(xdg, "pdnkit") if xdg else os.path.join(
            os.path.expanduser("~"), ".cache", "pdnkit")
    digest = hashlib.sha256(grammar_text().encode("utf-8")).hexdigest()[:24]
    return Path(base) / f"fast-lane-{digest}.json"


def fast_regex(parser: Any = None) -> Any:
    """The fast lane's compiled expression (``None``: no fast lane). Derived once from the
    grammar's terminals through Lark and kept in a small cache file (see :func:`cache_file`),
    so a run whose games all take the fast lane never loads Lark."""
    if _FAST:
        return _FAST[0]
    import json

    path = cache_file()
    pattern: str | None = None
    found = False
    if path is not None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") == 1 and (data["pattern"] is None
                                            or isinstance(data["pattern"], str)):
                pattern = data["pattern"]
                found = True
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            found = False
    if found and pattern is not None:
        try:
            _FAST.append(re.compile(pattern))
            return _FAST[0]
        except re.error:
            found = False
    if not found:
        pattern = fast_pattern(parser if parser is not None else lalr.parser())
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_text(json.dumps({"format": 1, "pattern": pattern}), encoding="utf-8")
                os.replace(tmp, path)
            except OSError:
                pass  # a read-only home: derive it again next time
    _FAST.append(re.compile(pattern) if pattern is not None else None)
    return _FAST[0]


_ELEMENT_TYPES = frozenset(_FAST_ELEMENTS)


def fast_children(text: str, parser: Any) -> list[Any] | None:
    """What the parser's transformer returns for ``text``, when the text stays in the fast
    lane's subset; ``None`` otherwise (then Lark decides)."""
    rx = _FAST[0] if _FAST else fast_regex(parser)
    if rx is None:
        return None
    out: list[Any] = []
    append = out.append
    state = 0  # 0: tags, 1: movetext, 2: after the result
    end = 0
    line = 1
    last_nl = -1
    elements = _ELEMENT_TYPES
    make_tag = ParseActions.tag
    for m in rx.finditer(text):
        start = m.start()
        if start != end:
            return None  # text no terminal of the lane matches
        val = m.group()
        end = start + len(val)
        typ = m.lastgroup
        if typ in elements:
            if state == 2:
                return None
            state = 1
            append(Tok(typ, val, line, start - last_nl))
        elif typ == "TAG":
            if state == 1:
                return None
            append(make_tag(None, [Tok(typ, val, line, start - last_nl)]))  # type: ignore[arg-type]
        elif typ == "RESULT":
            if state == 2:
                return None
            state = 2
            append(Tok(typ, val, line, start - last_nl))
        elif typ == "WRAPPER":
            return None
        if "\n" in val:
            line += val.count("\n")
            last_nl = start + val.rindex("\n")
    if end != len(text) or not out:
        return None
    return out


def fast_record(text: str, parser: Any, line0: int, rec: GameRecord) -> bool:
    """The fast lane's narrowest case, straight into ``rec``: tag pairs, numbered moves,
    comments and NAGs after a move and a standard result, nothing a strict reader remarks
    on. Fills ``rec`` exactly as the general path does and returns True; else False, with
    ``rec`` left alone."""
    rx = _FAST[0] if _FAST else fast_regex(parser)
    if rx is None:
        return False
    tags: list[tuple[str, str]] = []
    moves: list[MoveNode] = []
    result: str | None = None
    state = 0  # 0: tags, 1: movetext, 2: after the result
    end = 0
    line = 1
    last_nl = -1
    lo = line0 - 1
    number: int | None = None
    black_dots = False
    numbered = False  # a move number waits for its move
    before: list[str] = []
    last: MoveNode | None = None
    tokens = TOKEN_CACHE
    for m in rx.finditer(text):
        start = m.start()
        if start != end:
            return False
        val = m.group()
        end = start + len(val)
        typ = m.lastgroup
        if typ == "NUMMOVE" or typ == "ALPHAMOVE":
            if state == 2:
                return False
            state = 1
            tinfo = tokens.get(val)
            if tinfo is None:
                tinfo = move_token(val)
            num, mtext, squares, seps, star, remark = tinfo
            if star or remark is not None:
                return False
            if num is not None:
                if num[1] == 2:
                    return False
                number = num[0]
                black_dots = num[1] >= 2
                numbered = True
            last = MoveNode(mtext, squares, seps, None, False, None, [], [], [], [], None,
                            line + lo, start - last_nl, False)
            if numbered:
                last.number = number
                last.black_dots = black_dots
                numbered = False
                black_dots = False
            if before:
                last.comments_before = before
                before = []
            moves.append(last)
        elif typ == "COMMENT":
            if state == 2:
                return False
            state = 1
            body = val.rstrip()[1:-1]
            if "{" in body:
                return False
            if last is not None:
                last.comments_after.append(body)
            else:
                before.append(body)
        elif typ == "MOVENUM":
            if state == 2:
                return False
            state = 1
            val = val.rstrip()
            digits = val.rstrip(".")
            dots = len(val) - len(digits)
            if dots == 2:
                return False
            number = int(digits)
            black_dots = dots >= 2
            numbered = True
        elif typ == "TAG":
            if state != 0:
                return False
            q = val.index('"')
            name = val[1:q].strip()
            if not IDENTIFIER.fullmatch(name):
                return False
            inner = val[q + 1:val.rindex('"')]
            if "\\" not in inner:
                if '"' in inner:
                    return False
            elif "\\'" in inner:
                return False  # a C-style escape: the general path says so
            else:
                inner = UNESCAPE.sub(r"\1", inner)
            tags.append((name, decode_entities(inner) if "&" in inner else inner))
        elif typ == "RESULT":
            if state == 2:
                return False
            state = 2
            result = val.rstrip()
            if result not in STANDARD_RESULTS:
                return False
        elif typ == "NAG":
            if state == 2 or last is None:
                return False
            state = 1
            last.nags.append(int(val.rstrip()[1:]))
        elif typ != "WS" and typ != "ESCAPE":
            return False  # placeholders, strength marks, line comments, setups, wrappers
        if "\n" in val:
            line += val.count("\n")
            last_nl = start + val.rindex("\n")
    if end != len(text) or result is None or numbered or before:
        return False
    rec.tags = tags
    rec.body = list(moves)
    rec.moves = moves
    rec.result = result
    return True


class FullParser(Protocol):
    """The reader's whole parser (:func:`pdnkit.pdn.reader.parse_game`), for a lane game the
    fast lane cannot take after all; the reader sets it (it imports this module, so this
    module cannot import it)."""

    def __call__(self, text: str, *, file: str | None, index: int, line: int) -> GameRecord:
        ...


#: set by :mod:`pdnkit.pdn.reader` when it is imported (a lane record exists only after)
FULL_PARSER: list[FullParser] = []


class LaneRecord(GameRecord):
    """A game the compiled lane read (:class:`pdnkit.pdn.split.LaneChunk`): its tags, result
    and place as the reader gives them, and the movetext's elements read on first use
    (:func:`fast_record` over ``raw``, which reads a clean game without a finding). The
    compiled replay core reads the movetext itself (``raw[lane_body:]``), so validating it
    needs no node; ``move_lines`` holds the line of each move (int32s).

    Example:
        >>> from pdnkit.pdn.split import LaneChunk
        >>> chunk = LaneChunk('[Event "x"]\\n1. 32-28 *', 1, 2, True, [], [("Event", "x")],
        ...                   12, "*", b"\\x02\\x00\\x00\\x00", 1)
        >>> rec = lane_record(chunk, None, 0, "utf-8")
        >>> rec.move_count, [m.text for m in rec.moves], rec.moves[0].line
        (1, ['32-28'], 2)
    """

    lane_body: int
    move_lines: bytes
    _moves_count: int
    _body: list[BodyElement] | None
    _moves: list[MoveNode] | None

    def _read(self) -> None:
        rec = GameRecord()
        if not fast_record(self.raw, None, self.line, rec):  # never: the lane's own subset
            rec = FULL_PARSER[0](self.raw, file=self.file, index=self.index, line=self.line)
        self.__dict__["_body"] = rec.body
        self.__dict__["_moves"] = rec.moves

    @property
    def body(self) -> list[BodyElement]:
        if self.__dict__.get("_body") is None:
            self._read()
        return self.__dict__["_body"]  # type: ignore[no-any-return]

    @body.setter
    def body(self, value: list[BodyElement]) -> None:
        self.__dict__["_body"] = value

    @property
    def moves(self) -> list[MoveNode]:
        if self.__dict__.get("_moves") is None:
            self._read()
        return self.__dict__["_moves"]  # type: ignore[no-any-return]

    @moves.setter
    def moves(self, value: list[MoveNode]) -> None:
        self.__dict__["_moves"] = value
        self.__dict__["_moves_count"] = len(value)

    @property
    def move_count(self) -> int:
        return self._moves_count

    def unread_line(self) -> LaneRecord | None:
        """This record while its movetext's elements are not read (the core reads ``raw``),
        else ``None``."""
        return None if self.nodes_read else self

    @property
    def nodes_read(self) -> bool:
        """Whether the movetext's elements have been read (else the core reads ``raw``)."""
        return self.__dict__.get("_moves") is not None

    @property
    def setup(self) -> str | None:
        fen = self.tag("FEN")
        return fen if fen is not None and fen.strip() else None  # no setup in the lane

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameRecord):
            return NotImplemented
        return _fields(self) == _fields(other)

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        # pickles (and copies) as the plain record the Python reader makes
        return (GameRecord, (self.tags, self.body, self.moves, self.result, self.file,
                             self.index, self.line, self.end_line, self.raw, self.findings,
                             self.encoding, self.parsed))


class LaneNodes(Sequence[MoveNode]):
    """The moves of an unread main line (a :class:`LaneRecord`'s), read when one is first
    asked for; its length known before."""

    __slots__ = ("record",)

    def __init__(self, record: UnreadLine) -> None:
        self.record = record

    def __len__(self) -> int:
        return self.record.move_count

    @overload
    def __getitem__(self, i: int) -> MoveNode: ...

    @overload
    def __getitem__(self, i: slice) -> list[MoveNode]: ...

    def __getitem__(self, i: int | slice) -> MoveNode | list[MoveNode]:
        return self.record.moves[i]


def _fields(r: GameRecord) -> tuple[Any, ...]:
    return (r.tags, r.body, r.moves, r.result, r.file, r.index, r.line, r.end_line, r.raw,
            r.findings, r.encoding, r.parsed, r.file_level)


def lane_record(chunk: Any, file: str | None, index: int, encoding: str | None) -> LaneRecord:
    """The record of a game the compiled lane read (what :func:`pdnkit.pdn.reader.parse_game`
    gives for its text)."""
    rec = LaneRecord.__new__(LaneRecord)
    rec.tags = chunk.tags
    rec.result = chunk.result
    rec.file = file
    rec.index = index
    rec.line = chunk.line
    rec.end_line = chunk.end_line
    rec.raw = chunk.text
    rec.findings = []
    rec.encoding = encoding
    rec.parsed = True
    rec.file_level = False
    rec.__dict__.update(_body=None, _moves=None, lane_body=chunk.body, move_lines=chunk.lines,
                        _moves_count=chunk.nmoves)
    return rec


# -- parts of a file for worker processes ---------------------------------------------------

#: a place where a file is cut into parts: after a line that ends with a game's result (and
#: any blank lines), before a line that opens a tag pair. The splitter and the compiled lane
#: both end a game at its result and start the next one at such a tag line, so each part
#: reads as the same games as the whole file.
_CUT = lazy_pattern(rb'(?<![\w/-])(?:1-0|0-1|2-0|0-2|1-1|0-0|1/2-1/2|\*)[ \t]*\r?\n'
                  rb'(?:[ \t]*\r?\n)*(?=[ \t]*\[[ \t]*[A-Za-z_][\w\-]*[ \t]+")')


@dataclass(frozen=True)
class FileSpan:
    """A part of a file cut at a game boundary (:func:`file_spans`): the bytes
    ``[start, end)`` of ``path``, the number of its first ``line``, and whether it is the
    file's ``last`` part (else games follow it)."""

    path: str
    start: int
    end: int
    line: int
    last: bool


def file_spans(path: str | os.PathLike[str], sizes: Sequence[int], size: int,
               encoding: str | None = None) -> list[FileSpan] | None:
    """``path`` cut into parts at game boundaries (see :data:`_CUT`): the first of about
    ``sizes[0]`` bytes, the next ``sizes[1]`` ..., then ``size`` each; each part read by
    :func:`span_chunks` gives the chunks the whole file gives for its lines. ``None`` where
    the parts would not read as the whole file does: a file that is not plain UTF-8 (a byte
    order mark, NUL bytes, a legacy or requested other encoding, whose decoding the reader
    decides over the whole file) or that cannot be opened.

    Example:
        >>> import tempfile
        >>> with tempfile.NamedTemporaryFile("wb", suffix=".pdn", delete=False) as f:
        ...     _ = f.write(b'[A "1"]\\n1. 32-28 *\\n\\n[A "2"]\\n1. 31-27 *\\n')
        >>> [(s.start, s.end, s.line, s.last) for s in file_spans(f.name, [4], 4)]
        [(0, 20, 1, False), (20, 39, 4, True)]
        >>> os.unlink(f.name)
    """
    import codecs

    if encoding is not None and codecs.lookup(encoding).name != "utf-8":
        return None
    try:
        with open(path, "rb") as f:
            total = os.fstat(f.fileno()).st_size
            if total == 0 or f.read(3) == codecs.BOM_UTF8:
                return None
            return _cut(f, os.fspath(path), total, sizes, size)
    except (OSError, ValueError):
        return None


def _cut(f: Any, path: str, total: int, sizes: Sequence[int], size: int
         ) -> list[FileSpan] | None:
    """The spans of :func:`file_spans` over the open file ``f`` (``None``: not plain
    UTF-8). The file is read once, front to back, a part at a time."""
    spans: list[FileSpan] = []
    start, line = 0, 1
    while start < total:
        want = max(1, sizes[len(spans)] if len(spans) < len(sizes) else size)
        end = _next_cut(f, max(start, start + want - 8), total) if start + want < total \
            else total
        f.seek(start)
        part = f.read(end - start)
        if b"\0" in part:
            return None
        if not part.isascii():
            try:
                part.decode("utf-8")
            except UnicodeDecodeError:
                return None
        spans.append(FileSpan(path, start, end, line, end >= total))
        line += part.count(b"\n")
        if b"\r" in part:  # lines that end in CR alone
            line += part.count(b"\r") - part.count(b"\r\n")
        start = end
    return spans


def _next_cut(f: Any, pos: int, total: int, block: int = 4096) -> int:
    """The first cut point (:data:`_CUT`) at or after ``pos`` in the open file ``f``, or
    ``total`` when there is none. The byte before ``pos`` is read too (the pattern looks
    behind a result); the first match is final, as nothing after it can move it."""
    base = max(0, pos - 1)
    f.seek(base)
    data = b""
    while True:
        new = f.read(block)
        data += new
        m = _CUT.search(data, pos - base)
        if m is not None:
            return base + m.end()
        if not new:
            return total
        block = min(block * 2, 1 << 22)


def span_chunks(span: FileSpan) -> Iterator[Chunk]:
    """The game chunks of ``span`` (read from its file), numbered by the file's lines."""
    from pdnkit.pdn.split import line_blocks, split_blocks

    with open(span.path, "rb") as f:
        f.seek(span.start)
        data = f.read(span.end - span.start)
    return split_blocks(line_blocks([data.decode("utf-8")]), first_line=span.line)


__all__ = ["FileSpan", "LaneNodes", "LaneRecord", "cache_file", "fast_children", "fast_pattern",
           "fast_record", "fast_regex", "file_spans", "lane_record", "span_chunks"]
