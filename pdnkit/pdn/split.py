"""Cut a PDN text into game chunks before the grammar runs, so one broken game costs one game.

The splitter only needs to know where games end, not what they say: a game ends after a
result token outside comments and variations, or where a tag line starts after movetext. A tag
line also ends an unterminated comment or variation (the broken game then gets its syntax
error, and the next game reads normally). ``%`` escape lines stay with the text around them.

Example:
    >>> chunks = list(split_lines(['[Event "a"]\\n', '1. 32-28 2-0 [Event "b"]\\n', '1. 33-29 *\\n']))
    >>> [(c.line, c.text.strip()) for c in chunks]
    [(1, '[Event "a"]\\n1. 32-28 2-0'), (2, '[Event "b"]\\n1. 33-29 *')]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pdnkit.findings import Finding

#: what the splitter looks at on a line outside comments; the result alternatives mirror the
#: grammar's RESULT terminal (a king move such as 1-18 stays one word)
_SCAN = re.compile(
    r"""
    (?P<open>\{)
  | (?P<semi>;)
  | (?P<wrap>\[/?pdn\])
  | (?P<tag>\[[ \t]*[A-Za-z_][\w\-]*[ \t]*(?:"(?:[^"\\\n]|\\.)*"[ \t]*)?[^\]\n"]*\]?)
  | (?P<lp>\()
  | (?P<rp>\))
  | (?P<res>(?<![\w/\-.:*])(?:2-0|0-2|1-1|0-0|1-0|0-1|1/2-1/2|\u00bd-\u00bd|0\.5-0\.5|\*)(?![\w/\-.:*]))
  | (?P<word>[^\s{};"()\[]+|["\[])
    """,
    re.VERBOSE | re.IGNORECASE,
)
#: a line with none of these is plain movetext (the common case, handled without a scan)
_SPECIAL = re.compile(
    r"[{;\[()\"*]|(?<![\w/\-.:*])(?:2-0|0-2|1-1|0-0|1-0|0-1|1/2-1/2|\u00bd-\u00bd|0\.5-0\.5)"
    r"(?![\w/\-.:*])"
)
_COMMENT_EVENT = re.compile(r"[{}]")
#: a tag some tools append after a game's result; it stays with that game
_TRAILING_TAG_LINE = re.compile(r'[ \t]*\[FILENAME[ \t]+"[^"\n]*"[ \t]*\][ \t]*\n?$',
                                re.IGNORECASE)
#: a line that starts with a tag pair (it ends an unterminated comment)
_TAG_START = re.compile(r'[ \t]*\[[ \t]*[A-Za-z_][\w\-]*[ \t]+"[^"\n]*"[ \t]*\]')
_TAG_LINE = re.compile(r'[ \t]*\[[ \t]*[A-Za-z_][\w\-]*[ \t]+"[^"\n]*"[ \t]*\][ \t]*$')


#: a game chunk that grows beyond this many characters without ending (an endless stream
#: without results or tags, such as ``yes | pdnkit validate -``) is cut at the next line: its
#: game is then reported as unreadable, and memory stays bounded
MAX_CHUNK_CHARS = 32 * 1024 * 1024


@dataclass
class Chunk:
    """One game's text: ``text`` (line ends ``\\n``), ``line`` (1-based first line in the
    file), ``end_line``, ``has_content`` (False for whitespace and ``%`` lines only) and
    ``findings`` (what decoding its lines found, see :mod:`pdnkit.pdn.source`)."""

    text: str
    line: int
    end_line: int
    has_content: bool
    findings: list[Finding] = field(default_factory=list)


class _Splitter:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.start_line = 1
        self.cur_line = 1
        self.state = 0  # 0 nothing yet, 1 tags seen, 2 movetext seen
        self.depth = 0  # variation depth
        self.comment = 0  # brace depth (one level of nesting tolerated)
        self.content = False
        self.empty = True
        self.gap = False  # a blank line followed the header block
        self.size = 0  # characters in the chunk so far
        self.held: Chunk | None = None
        self.out: list[Chunk] = []

    def release(self) -> None:
        if self.held is not None:
            self.out.append(self.held)
            self.held = None

    def flush(self, end_line: int, hold: bool = False) -> None:
        self.release()
        text = "".join(self.parts)
        if text.strip():
            chunk = Chunk(text, self.start_line, end_line, self.content)
            if hold:  # after a result: a [FILENAME] line may still follow
                self.held = chunk
            else:
                self.out.append(chunk)
        self.parts = []
        self.state = 0
        self.depth = 0
        self.comment = 0
        self.content = False
        self.empty = True
        self.gap = False
        self.size = 0

    def begin(self, line_no: int) -> None:
        if self.empty:  # drop the blank lines before a game's first text
            self.parts = []
            self.start_line = line_no
            self.empty = False

    def feed(self, line: str, line_no: int) -> None:
        if self.held is not None and not line.isspace():
            if self.empty and _TRAILING_TAG_LINE.match(line):
                sep = "" if self.held.text.endswith("\n") else "\n"
                self.held.text += sep + line
                self.held.end_line = line_no
                return
            self.release()
        self.size += len(line)
        if self.size > MAX_CHUNK_CHARS and self.parts:
            self.flush(line_no - 1)  # bounded memory: cut an endless chunk
            self.size = len(line)
        if line.isspace():
            if self.state == 1 and not self.comment and not self.depth:
                self.gap = True  # a blank line after tags: more tags start another game
            self.parts.append(line)
            return
        if self.comment and _TAG_START.match(line):
            # a line that starts a tag pair ends an unterminated comment: the game before it
            # stops there (and gets its syntax error), the next game reads normally
            self.flush(line_no - 1)
        if not self.comment:
            if line.startswith("%"):
                self.begin(line_no)
                self.parts.append(line)
                return
            if line.startswith("[") and _TAG_LINE.match(line):
                # one whole tag pair on its line (the usual header): what the scan below does
                # with it, without scanning
                self.tag_seen(line_no)
                self.parts.append(line)
                return
            if _SPECIAL.search(line) is None:
                self.begin(line_no)
                self.state = 2
                self.content = True
                self.parts.append(line)
                return
        self.scan(line, line_no)

    def tag_seen(self, line_no: int) -> None:
        """A tag pair starts here: after movetext, or after a header block and a blank
        line, it starts the next game."""
        if self.state == 2 or (self.state == 1 and self.gap):
            self.flush(line_no)
        self.begin(line_no)
        self.state = 1
        self.content = True

    def scan(self, line: str, line_no: int) -> None:
        """Walk the tokens of one line; ``seg`` is where the text not yet stored starts (no
        slicing of the rest of the line: linear however many games share it)."""
        pos = seg = 0
        n = len(line)
        while pos < n:
            if self.comment:
                m = _COMMENT_EVENT.search(line, pos)
                if m is None:
                    break
                pos = m.end()
                if m.group() == "{":
                    self.comment += 1
                else:
                    self.comment -= 1
                continue
            m = _SCAN.search(line, pos)
            if m is None:
                break
            kind = m.lastgroup
            if kind == "tag":
                if self.state == 2 or (self.state == 1 and self.gap):
                    self.parts.append(line[seg:m.start()])
                    seg = m.start()
                    self.flush(line_no)
                self.begin(line_no)
                self.state = 1
                self.content = True
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
                break
            if kind == "res":
                self.begin(line_no)
                self.content = True
                pos = m.end()
                if self.depth > 0:
                    continue
                self.parts.append(line[seg:pos])
                seg = pos
                self.flush(line_no, hold=True)
                continue
            if kind == "lp":
                self.depth += 1
            elif kind == "rp":
                self.depth = max(0, self.depth - 1)
            if kind != "wrap":
                self.begin(line_no)
                self.state = 2
                self.content = True
            pos = m.end()
        if seg < n:
            rest = line[seg:] if seg else line
            if not self.empty or not rest.isspace():
                self.begin(line_no)
                self.parts.append(rest)


def split_lines(lines: Iterable[str]) -> Iterator[Chunk]:
    """Cut lines (each ending in ``\\n`` except maybe the last) into game chunks, lazily.

    Example:
        >>> [c.text for c in split_lines(['[FEN "W:W1:B2"] * [FEN "B:W1:B2"] *'])]
        ['[FEN "W:W1:B2"] *', ' [FEN "B:W1:B2"] *']
    """
    sp = _Splitter()
    line_no = 0
    for line_no, line in enumerate(lines, 1):
        sp.feed(line, line_no)
        if sp.out:
            yield from sp.out
            sp.out.clear()
    sp.flush(line_no)
    sp.release()
    yield from sp.out


def text_lines(blocks: Iterable[str]) -> Iterator[str]:
    """Cut text given in blocks into lines ending in ``\\n`` (the last may have none),
    breaking at ``\\r\\n``, ``\\r`` and ``\\n`` only. Linear in the text, however long a
    line is.

    Example:
        >>> list(text_lines(["a\\r", "\\nb\\x0cc\\u2028\\rd"]))
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
        for line in body.split("\n")[:-1]:
            yield line + "\n"
    if partial:
        yield "".join(partial)


def split_text(text: str) -> Iterator[Chunk]:
    """Cut a whole text into game chunks (lines cut as :func:`text_lines` does, the same as
    reading a file).

    Example:
        >>> len(list(split_text("1. 32-28 2-0\\r\\n1. 33-29 0-2\\r\\n")))
        2
    """
    return split_lines(text_lines([text]))
