r"""Cut a PDN text into game chunks before the grammar runs, so one broken game costs one game.

The splitter only needs to know where games end, not what they say, and it decides that by
content (the layout model of :mod:`pdnkit.pdn.layout`), not by where line breaks fall:

* a game ends after a result token (or a lone ``-`` written where the result belongs)
  outside comments and variations, or where a tag pair
  starts after movetext (a tag pair in any of the forms the model reads: missing its ``[``
  or ``]``, broken over lines, glued to the result as in ``1-0[Event``);
* a header block, a blank line (or a ``%``/``;`` line) and another header block are one
  game unless the second block repeats a field of the first (its ``Event``, its ``White``
  under any name): then the first is a header-only game of its own;
* junk (a line or word that is neither a tag pair nor movetext, ``--- page 3 ---``,
  ``[Empty]``, a lone ``[``) never starts or ends a game: junk lines after a game's result go
  with that game (junk before the first game, or on the line where the next game starts,
  with the next one), where the reader keeps it as a comment with a finding; so a part of
  a file cut at a tag line reads as in the whole file;
* literal escape text (``\r`` written as two characters) is layout: read as white space,
  reported once per file (``escaped-line-ends``); so are C-style ``\'`` escapes in tag
  values (``c-style-escapes``) and HTML character references in tags (``html-entities``).

A tag line also ends an unterminated comment or variation (the broken game then gets its
syntax error, and the next game reads normally). ``%`` escape lines stay with the text
around them. The splitter is linear in the text, however many games share a line.

Example:
    >>> chunks = list(split_lines(['[Event "a"]\n', '1. 32-28 2-0 [Event "b"]\n', '1. 33-29 *\n']))
    >>> [(c.line, c.text.strip()) for c in chunks]
    [(1, '[Event "a"]\n1. 32-28 2-0'), (2, '[Event "b"]\n1. 33-29 *')]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING, Any

from pdnkit._lazy import lazy_pattern
from pdnkit.pdn.layout import (
    MOVETEXT_ANY,
    MOVETEXT_START,
    NAME,
    NAME1,
    NOT_NEXT_TAG,
    OPEN_VALUE_STOP,
    RESULTS,
    blank_escapes,
    has_entities,
    read_header,
)
from pdnkit.pdn.tags import field_of

if TYPE_CHECKING:
    from pdnkit.findings import Finding

_VALUE = rf'"(?:{NOT_NEXT_TAG}[^"\\\n]|\\.)*'
#: a value whose quote is never closed: to the first ``]``, else as far as the layout
#: model reads it (movetext on the same line stays movetext)
_OPEN = rf'"(?:(?!{OPEN_VALUE_STOP})[^"\\\n\]]|\\.)*\]?'
#: what the splitter looks at on a line outside comments; the result alternatives mirror the
#: grammar's RESULT terminal (a king move such as 1-18 stays one word)
_SCAN = lazy_pattern(
    rf"""
    (?P<open>\{{)
  | (?P<semi>;)
  | (?P<wrap>\[/?pdn\])
  | (?P<tag>\[(?:[ \t]*\[){{0,2}}[ \t]*(?P<tn>{NAME})(?:[ \t]*(?:{_VALUE}"|{_OPEN})
           |[ \t]+[^\]"\s][^\]"\n]{{0,1000}}\]))
  | (?P<otag>\[(?:[ \t]*\[){{0,2}}[ \t]*(?:(?P<on>{NAME})[ \t]*)?(?=\s*\Z))
  | (?P<lp>\()
  | (?P<rp>\))
  | (?P<res>(?<![\w/\-.:*])(?:{RESULTS}|\*)
            (?:(?![\w/\-.:*\u2010-\u2014\u2212])|(?={NAME1}[ \t]+"))
           |(?<![\w/\-.:*])(?<!-[ \t])-(?![\w/\-.:*])(?![ \t]*-))
  | (?P<word>[^\s{{}};"()\[]+|["\[])
    """,
    re.VERBOSE | re.IGNORECASE,
)
#: a tag pair without its ``[`` at the start of a line (or right after another tag)
_NO_LB = lazy_pattern(rf'[ \t]*(?P<name>{NAME1})[ \t]+{_VALUE}"[ \t]*\]')
#: the same at the start of a line, where its name may be words (``Type de jeu``)
_NO_LB_START = lazy_pattern(rf'[ \t]*(?P<name>{NAME})[ \t]+{_VALUE}"[ \t]*\]')
#: the rest of a tag pair broken over lines: its name, value and ``]`` (each may be missing)
_CONT = lazy_pattern(rf'[ \t]*(?:(?P<name>{NAME1})(?:\s*(?=")|(?=\s*\Z)))?\s*(?P<value>{_VALUE}"[ \t]*)?'
                   r'(?P<rb>\](?:[ \t]*\]){0,2})?')
#: a line with none of these is plain movetext (the common case, handled without a scan)
_SPECIAL = lazy_pattern(
    rf"[{{;\[()\"*]|(?<![\w/\-.:*])(?:{RESULTS}|-)(?![\w/\-.:*\u2010-\u2014\u2212])"
)
_COMMENT_EVENT = lazy_pattern(r"[{}]")
#: a tag some tools append after a game's result; it stays with that game
_TRAILING_TAG_LINE = lazy_pattern(r'[ \t]*\[FILENAME[ \t]+"[^"\n]*"[ \t]*\][ \t]*\n?$',
                                re.IGNORECASE)
#: a line that starts with a tag pair (it ends an unterminated comment)
_TAG_START = lazy_pattern(r'[ \t]*\[(?:[ \t]*\[){0,2}[ \t]*[A-Za-z_][\w\-]*[ \t]*"[^"\n]*"[ \t]*\]')
_TAG_LINE = lazy_pattern(r'[ \t]*\[(?:[ \t]*\[){0,2}[ \t]*(?P<name>[A-Za-z_][\w\-]*)[ \t]*"[^"\n]*"'
                       r'[ \t]*\](?:[ \t]*\]){0,2}[ \t]*$')


#: a game chunk that grows beyond this many characters without ending (an endless stream
#: without results or tags, such as ``yes | pdnkit validate -``) is cut at the next line: its
#: game is then reported as unreadable, and memory stays bounded
MAX_CHUNK_CHARS = 32 * 1024 * 1024


@dataclass
class Chunk:
    """One game's text: ``text`` (line ends ``\\n``), ``line`` (1-based first line in the
    file), ``end_line``, ``has_content`` (False for whitespace and ``%`` lines only) and
    ``findings`` (what decoding and splitting its lines found, see
    :mod:`pdnkit.pdn.source`)."""

    text: str
    line: int
    end_line: int
    has_content: bool
    findings: list[Finding] = field(default_factory=list)

    def lane(self) -> LaneChunk | None:
        """This chunk as the compiled lane read it (its tags, movetext and moves' lines
        already known), else ``None``: a chunk the splitter cut, for the reader to read.

        Example:
            >>> Chunk("1. 32-28 *", 1, 1, True).lane() is None
            True
        """
        return None

    def own_encoding(self) -> str | None:
        """The encoding this game alone was decoded from (a game of a UTF-8 file written in
        a legacy encoding), else ``None``: the file's.

        Example:
            >>> Chunk("1. 32-28 *", 1, 1, True).own_encoding() is None
            True
        """
        return None


#: the file-level layout notes: (code, message), each given once per file
_NOTES = {
    "escaped-line-ends": "the file writes line ends as literal escape text ('\\r', '\\n' as "
                         "two characters); read as white space (first on line {line})",
    "c-style-escapes": "tag values escape quotes C-style (\\'); read as ' (first on line "
                       "{line})",
    "html-entities": "tags are written with HTML character references (&#x00e9;, &eacute;); "
                     "decoded (first on line {line})",
}


class _Splitter:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.start_line = 1
        self.state = 0  # 0 nothing yet, 1 tags seen, 2 movetext seen
        self.depth = 0  # variation depth
        self.comment = 0  # brace depth (one level of nesting tolerated)
        self.content = False
        self.real = False  # the chunk holds a tag, movetext or a result (not junk only)
        self.junk = False  # the chunk holds junk (a line or word that is no tag nor move)
        self.empty = True
        self.gap = False  # a blank, % or ; line followed the header block
        self.open_tag = False  # a tag pair started at the end of the last line
        self.fields: set[str] = set()  # the header's fields, read at a gap (see repeats)
        self.read_upto = 0  # the parts read into ``fields`` so far
        self.size = 0  # characters in the chunk so far
        self.held: Chunk | None = None
        self.out: list[Chunk] = []
        self.noted: set[str] = set()  # file-level notes given
        self.notes: list[Finding] = []  # file-level notes for the chunk being built

    def new_game_at(self, line: str, line_no: int) -> bool:
        """Whether a game starts at ``line`` (a whole tag line, no escape text) with nothing
        of the chunk being built carried into it: the chunk ends before it (after movetext,
        at a repeated header field after a gap, in an unterminated comment) or is only
        blank, and no ``[FILENAME]`` rule joins it to the game before. There the compiled
        lane may read on (:meth:`end_game` first)."""
        if "\\" in line or self.notes:
            return False
        m = _TAG_LINE.match(line)
        if m is None:
            return False
        if self.held is not None and self.empty and _TRAILING_TAG_LINE.match(line):
            return False
        if self.comment or self.state == 2:
            return True
        if self.state == 1:
            return self.gap and self.repeats(m.group("name"))
        return self.empty

    def end_game(self, line_no: int) -> None:
        """End the chunk being built as :meth:`feed` does when the line ``line_no`` starts
        a new game (:meth:`new_game_at`), so that nothing is left: the next game is read
        from that line on as from the start of a file."""
        if self.comment:
            self.flush(line_no - 1)
        elif self.state:
            self.flush(line_no)
        if self.held is not None:
            self.absorb(line_no)
            self.release()
        self._reset()

    def release(self) -> None:
        if self.held is not None:
            self.out.append(self.held)
            self.held = None

    def flush(self, end_line: int, hold: bool = False) -> None:
        text = "".join(self.parts)
        if not self.real and self.held is not None and not hold:
            # junk after a game's result and nothing after it: it goes with that game
            if text.strip():
                # the line breaks between them as in the file (positions stay the file's)
                gap = max(self.start_line - self.held.end_line, 0)
                self.held.text += "\n" * gap + text
                self.held.end_line = end_line
                self.held.findings.extend(self.notes)
                self.notes = []
            self.release()
            self._reset()
            return
        self.release()
        if text.strip():
            chunk = Chunk(text, self.start_line, end_line, self.content, self.notes)
            self.notes = []
            if hold:  # after a result: a [FILENAME] line or junk may still follow
                self.held = chunk
            else:
                self.out.append(chunk)
        self._reset()

    def _reset(self) -> None:
        self.parts = []
        self.state = 0
        self.depth = 0
        self.comment = 0
        self.content = False
        self.real = False
        self.junk = False
        self.empty = True
        self.gap = False
        self.open_tag = False
        self.fields = set()
        self.read_upto = 0
        self.size = 0

    def begin(self, line_no: int) -> None:
        if self.empty:  # drop the blank lines before a game's first text
            self.parts = []
            self.read_upto = 0
            self.start_line = line_no
            self.empty = False

    def note(self, code: str, line_no: int) -> None:
        """A file-level layout note, once per file, on the chunk being built."""
        if code in self.noted:
            return
        from pdnkit.findings import make_finding

        self.noted.add(code)
        self.notes.append(make_finding(code, _NOTES[code].format(line=line_no), line=line_no))

    def feed(self, line: str, line_no: int) -> None:
        if self.held is not None and self.empty and not line.isspace() \
                and _TRAILING_TAG_LINE.match(line):
            sep = "" if self.held.text.endswith("\n") else "\n"
            self.held.text += sep + line
            self.held.end_line = line_no
            return
        self.size += len(line)
        if self.size > MAX_CHUNK_CHARS and self.parts:
            self.flush(line_no - 1)  # bounded memory: cut an endless chunk
            self.size = len(line)
        seen = line
        if "\\" in line and not self.comment:
            seen, escapes, _ = blank_escapes(line)
            if escapes:
                self.note("escaped-line-ends", line_no)
            if "\\'" in line:
                self.note("c-style-escapes", line_no)
        if seen.isspace():
            if self.state == 1 and not self.comment and not self.depth:
                self.gap = True  # a blank line after tags: a repeated tag starts a game
            self.parts.append(line)
            return
        if self.comment and _TAG_START.match(seen):
            # a line that starts a tag pair ends an unterminated comment: the game before it
            # stops there (and gets its syntax error), the next game reads normally
            self.flush(line_no - 1)
        if not self.comment:
            if seen.startswith("%"):
                self.begin(line_no)
                if self.state == 1:
                    self.gap = True
                self.parts.append(line)
                return
            m = _TAG_LINE.match(seen) if seen.startswith("[") else None
            if m is not None:
                # one whole tag pair on its line (the usual header): what the scan below does
                # with it, without scanning
                self.tag_seen(line_no, m.group("name") if self.gap else None)
                if "&" in seen and has_entities(seen):
                    self.note("html-entities", line_no)
                self.parts.append(line)
                return
            if _SPECIAL.search(seen) is None and not self.open_tag:
                if self.state == 2:  # more movetext (the common case)
                    pass
                elif MOVETEXT_ANY.search(seen) is not None:
                    self.movetext(line_no)
                else:  # junk: it neither starts nor ends a game
                    self.begin(line_no)
                    self.junk = True
                self.parts.append(line)
                return
        self.scan(seen, line, line_no)

    def absorb(self, line_no: int) -> None:
        """Junk lines after a game's result (the lines before this one) go with that game,
        as they would at the end of the file: a part of a file cut at a tag line reads the
        same as the whole file."""
        if self.held is None or self.real or not self.junk:
            return
        text = "".join(self.parts)
        if text.strip():
            gap = max(self.start_line - self.held.end_line, 0)
            self.held.text += "\n" * gap + text
            self.held.end_line = line_no - 1
            self.held.findings.extend(self.notes)
            self.notes = []
        self.parts = []
        self.read_upto = 0
        self.empty = True
        self.junk = False
        self.content = False

    def movetext(self, line_no: int) -> None:
        if self.held is not None:
            self.absorb(line_no)
            self.release()
        self.begin(line_no)
        self.state = 2
        self.content = True
        self.real = True

    def tag_seen(self, line_no: int, name: str | None) -> None:
        """A tag pair starts here: after movetext, or after a header block and a gap when
        it repeats a field of the header, it starts the next game."""
        if self.state == 2 or (self.state == 1 and self.gap and self.repeats(name)):
            self.flush(line_no)
        if self.held is not None:
            self.absorb(line_no)
            self.release()
        if self.empty:
            self.begin(line_no)
        self.state = 1
        self.content = True
        self.real = True
        self.gap = False

    def repeats(self, name: str | None) -> bool:
        """Whether tag ``name`` fills a field the header's tags already fill: the header
        read by the layout model, only at a gap (where it decides whether a new game
        starts), so the usual header costs nothing here."""
        if not name:
            return False
        if self.read_upto < len(self.parts):  # each line of the header is read once
            text = "".join(self.parts[self.read_upto:])
            self.fields.update(field_of(t.name) for t in read_header(text).tags)
            self.read_upto = len(self.parts)
        return field_of(name) in self.fields

    def _line_start_tag(self, seen: str, line_no: int) -> int:
        """A tag pair at the start of the line without its ``[``, or the rest of a tag
        pair broken over lines: where the scan goes on (0: none)."""
        if self.open_tag:
            self.open_tag = False
            m = _CONT.match(seen)
            if m is not None and m.end() > 0 and seen[:m.end()].strip():
                if m.group("name"):
                    self.tag_seen(line_no, m.group("name"))
                self.open_tag = m.group("rb") is None and m.end() == len(seen.rstrip())
                return m.end()
        lead = seen.lstrip()[:1]
        m = _NO_LB_START.match(seen) if (lead.isalpha() or lead == "&") else None
        if m is not None:
            self.tag_seen(line_no, m.group("name"))
            return m.end()
        return 0

    def scan(self, seen: str, line: str, line_no: int) -> None:
        """Walk the tokens of one line (``seen``: the line with its escape text blanked,
        same positions as ``line``); ``seg`` is where the text not yet stored starts (no
        slicing of the rest of the line: linear however many games share it)."""
        pos = seg = 0
        n = len(seen)
        quotes = '"' in seen  # a tag pair without its '[' needs one
        if not self.comment and (quotes or self.open_tag):
            pos = self._line_start_tag(seen, line_no)
            if pos and "&" in seen and has_entities(seen):
                self.note("html-entities", line_no)
        while pos < n:
            if self.comment:
                m = _COMMENT_EVENT.search(seen, pos)
                if m is None:
                    break
                pos = m.end()
                if m.group() == "{":
                    self.comment += 1
                else:
                    self.comment -= 1
                continue
            m = _SCAN.search(seen, pos)
            if m is None:
                break
            kind = m.lastgroup
            if kind == "tag" or kind == "otag":
                name = m.group("tn") if kind == "tag" else m.group("on")
                if self.state == 2 or (self.state == 1 and self.gap and self.repeats(name)):
                    self.parts.append(line[seg:m.start()])
                    seg = m.start()
                self.tag_seen(line_no, name)
                if "&" in m.group() and has_entities(m.group()):
                    self.note("html-entities", line_no)
                self.open_tag = kind == "otag"
                pos = m.end()
                continue
            if kind == "open":
                self.comment = 1
                self.begin(line_no)
                self.content = True
                pos = m.end()
                continue
            if kind == "semi":
                self.begin(line_no)
                self.content = True
                if self.state == 1 and not seen[:m.start()].strip():
                    self.gap = True
                break
            if kind == "res":
                self.begin(line_no)
                self.content = True
                pos = m.end()
                if self.depth > 0:
                    continue
                self.absorb(line_no)
                self.begin(line_no)
                self.real = True
                self.release()
                self.parts.append(line[seg:pos])
                seg = pos
                self.flush(line_no, hold=True)
                continue
            if kind == "word" and not self.depth and (quotes or self.state != 2):
                word = m.group()
                first = word[0]
                nolb = _NO_LB.match(seen, m.start()) if quotes and (
                    first.isalpha() or first == "&") else None
                if nolb is not None:  # a tag pair without its '[' after other text
                    if self.state == 2 or (self.state == 1 and self.gap
                                           and self.repeats(nolb.group("name"))):
                        self.parts.append(line[seg:m.start()])
                        seg = m.start()
                    self.tag_seen(line_no, nolb.group("name"))
                    pos = nolb.end()
                    continue
                if word == '"' and self.state != 2:
                    # a quoted value outside a tag pair (its tag is broken): junk, whatever
                    # it holds
                    close = seen.find('"', m.end())
                    self.begin(line_no)
                    self.junk = True
                    pos = n if close < 0 else close + 1
                    continue
            if kind == "lp":
                self.depth += 1
            elif kind == "rp":
                self.depth = max(0, self.depth - 1)
            if kind == "wrap":
                pass
            elif self.state == 2:
                pass  # more movetext (the common case)
            elif kind != "word" or MOVETEXT_START.match(m.group()):
                self.movetext(line_no)
            else:  # junk: it neither starts nor ends a game
                self.begin(line_no)
                self.junk = True
            pos = m.end()
        if seg < n:
            rest = line[seg:] if seg else line
            if not self.empty or not rest.isspace():
                self.begin(line_no)
                self.parts.append(rest)


def split_lines(lines: Iterable[str], first_line: int = 1) -> Iterator[Chunk]:
    """Cut lines (each ending in ``\\n`` except maybe the last) into game chunks, lazily
    (``first_line``: the number of the first line).

    Example:
        >>> [c.text for c in split_lines(['[FEN "W:W1:B2"] * [FEN "B:W1:B2"] *'])]
        ['[FEN "W:W1:B2"] *', ' [FEN "B:W1:B2"] *']
    """
    sp = _Splitter()
    line_no = first_line - 1
    for line_no, line in enumerate(lines, first_line):
        sp.feed(line, line_no)
        if sp.out:
            yield from sp.out
            sp.out.clear()
    sp.flush(line_no)
    sp.release()
    yield from sp.out


def line_blocks(blocks: Iterable[str]) -> Iterator[str]:
    """Text given in blocks as blocks of whole lines ending in ``\\n`` (the last may have
    none), breaking at ``\\r\\n``, ``\\r`` and ``\\n`` only. Linear in the text, however long
    a line is.

    Example:
        >>> list(line_blocks(["a\\r", "\\nb\\x0cc\\u2028\\rd"]))
        ['a\\n', 'b\\x0cc\\u2028\\n', 'd']
    """
    partial: list[str] = []
    cr = False  # the previous block ended in \r: a \n starting this one belongs to it
    for block in blocks:
        if not block:
            continue
        if cr and block[0] == "\n":
            block = block[1:]
        cr = block.endswith("\r")
        if "\r" in block:
            block = block.replace("\r\n", "\n").replace("\r", "\n")
        last = block.rfind("\n")
        if last < 0:
            partial.append(block)
            continue
        if partial:
            partial.append(block[:last + 1])
            body = "".join(partial)
            partial = []
        else:
            body = block[:last + 1] if last + 1 < len(block) else block
        if last + 1 < len(block):
            partial.append(block[last + 1:])
        if body:
            yield body
    if partial:
        yield "".join(partial)


def text_lines(blocks: Iterable[str]) -> Iterator[str]:
    """Cut text given in blocks into lines ending in ``\\n`` (the last may have none),
    breaking at ``\\r\\n``, ``\\r`` and ``\\n`` only. Linear in the text, however long a
    line is.

    Example:
        >>> list(text_lines(["a\\r", "\\nb\\x0cc\\u2028\\rd"]))
        ['a\\n', 'b\\x0cc\\u2028\\n', 'd']
    """
    for body in line_blocks(blocks):
        lines = body.split("\n")
        tail = lines.pop()
        for line in lines:
            yield line + "\n"
        if tail:
            yield tail


def _block_lines(blocks: Iterable[str]) -> Iterator[str]:
    """The lines of blocks of whole lines (:func:`line_blocks`)."""
    for body in blocks:
        lines = body.split("\n")
        tail = lines.pop()
        for line in lines:
            yield line + "\n"
        if tail:
            yield tail


@dataclass
class LaneChunk(Chunk):
    """A game the compiled lane read (:func:`split_blocks`): its chunk, and what the lane
    read of it: the tags, where its movetext starts in ``text`` (``body``), its result,
    the line each of its ``nmoves`` moves starts on (int32s, ``lines``)."""

    tags: list[tuple[str, str]] = field(default_factory=list)
    body: int = 0
    result: str = ""
    lines: bytes = b""
    nmoves: int = 0

    def lane(self) -> LaneChunk | None:
        return self


#: the compiled scanner's statuses (src/scan.h)
_SCAN_UNUSUAL, _SCAN_MORE, _SCAN_END = 1, 2, 3


def split_blocks(blocks: Iterable[str], scan: Any = None, first_line: int = 1) -> Iterator[Chunk]:
    """Cut blocks of whole lines (:func:`line_blocks`) into game chunks: what
    :func:`split_lines` gives for their lines. Where the compiled lane runs (``scan``,
    default :func:`pdnkit.core.compiled.scanner`), the clean games (``src/scan.c``: whole
    tag lines, plain movetext, a standard result) come from it as :class:`LaneChunk`
    with their tags read; every other game goes through the splitter line by line, which
    hands back to the lane where a new game starts with a whole tag line and nothing held
    over (:meth:`_Splitter.new_game_at`). ``first_line``: the number of the blocks' first
    line (a part of a file cut at a game boundary).

    Example:
        >>> [c.text for c in split_blocks(['[Event "a"]\\n1. 32-28 *\\n\\n1. 33-29 (33-28) *\\n'])]
        ['[Event "a"]\\n1. 32-28 *', '1. 33-29 (33-28) *']
    """
    if scan is None:
        from pdnkit.core.compiled import scanner

        scan = scanner()
    if scan is None:
        yield from split_lines(_block_lines(blocks), first_line)
        return
    sp = _Splitter()
    line_no = first_line - 1  # the lines read so far (by the lane or the splitter)
    python = False  # the splitter reads: a game the lane left to it is not over yet
    fresh = False  # the line at pos is the one the lane just left to the splitter
    carry = ""
    # each block is scanned as it comes (a game read from a pipe comes out before the next
    # block is asked for); what the lane cannot decide yet is carried to the next block, and
    # scanned once more as the end of the input when there is no next block
    for block, final in chain(((b, False) for b in blocks), (("", True),)):
        text = carry + block if carry else block
        carry = ""
        pos, n = 0, len(text)
        while pos < n:
            if not python:
                games, pos, line, status = scan(text, pos, line_no + 1, final)
                for g in games:
                    yield LaneChunk(text[g[0]:g[1]], g[2], g[3], True, [], g[6], g[4] - g[0],
                                    g[5], g[7], g[8])
                line_no = line - 1
                if status == _SCAN_END:  # blank lines only
                    line_no += text.count("\n", pos)
                    pos = n
                    break
                if status == _SCAN_MORE:
                    carry = text[pos:]
                    break
                python = fresh = True
            end = text.find("\n", pos) + 1 or n
            line = text[pos:end]
            if not fresh and line[:1] == "[" and sp.new_game_at(line, line_no + 1):
                sp.end_game(line_no + 1)
                yield from sp.out
                sp.out.clear()
                python = False
                continue
            fresh = False
            line_no += 1
            sp.feed(line, line_no)
            if sp.out:
                yield from sp.out
                sp.out.clear()
            pos = end
    if carry:  # never: at the end of the input the lane decides every game
        for line in _block_lines([carry]):
            line_no += 1
            sp.feed(line, line_no)
    sp.flush(line_no)
    sp.release()
    yield from sp.out


def split_text(text: str) -> Iterator[Chunk]:
    """Cut a whole text into game chunks (lines cut as :func:`text_lines` does, the same as
    reading a file).

    Example:
        >>> len(list(split_text("1. 32-28 2-0\\r\\n1. 33-29 0-2\\r\\n")))
        2
    """
    return split_lines(text_lines([text]))
