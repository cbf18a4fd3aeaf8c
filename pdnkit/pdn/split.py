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
from dataclasses import dataclass

#: what the splitter looks at on a line outside comments; the result alternatives mirror the
#: grammar's RESULT terminal (a king move such as 1-18 stays one word)
_SCAN = re.compile(
    r"""
    (?P<open>\{)
  | (?P<semi>;)
  | (?P<wrap>\[/?pdn\])
  | (?P<tag>\[[ \t]*[A-Za-z_][^\n]*?\](?=[ \t]*(?:$|\[|\n))|\[[ \t]*[A-Za-z_][^\]\n]*\]?)
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
_TAG_LINE = re.compile(r'[ \t]*\[[ \t]*[A-Za-z_][\w\-]*[ \t]+"[^"\n]*"[ \t]*\][ \t]*$')


@dataclass
class Chunk:
    """One game's text: ``text`` (line ends ``\\n``), ``line`` (1-based first line in the
    file), ``end_line`` and ``has_content`` (False for whitespace and ``%`` lines only)."""

    text: str
    line: int
    end_line: int
    has_content: bool


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
        pos = 0
        n = len(line)
        if self.comment and self.state == 2 and _TAG_LINE.match(line):
            # a tag line inside an unterminated comment: the comment never closed
            self.flush(line_no - 1)
        if not self.comment:
            if line.startswith("%"):
                self.begin(line_no)
                self.parts.append(line)
                return
            if line.startswith("[") and _TAG_LINE.match(line):
                # one whole tag pair on its line (the usual header): what the scan below does
                # with it, without scanning
                if self.state == 2:
                    self.flush(line_no)
                self.begin(line_no)
                self.state = 1
                self.content = True
                self.parts.append(line)
                return
            if _SPECIAL.search(line) is None:
                if not line.isspace():
                    self.begin(line_no)
                    self.state = 2
                    self.content = True
                self.parts.append(line)
                return
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
                if self.state == 2:
                    self.parts.append(line[:m.start()])
                    self.flush(line_no)
                    line = line[m.start():]
                    n = len(line)
                    pos = 0
                    continue
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
                if self.depth > 0:
                    pos = m.end()
                    continue
                self.parts.append(line[:m.end()])
                self.flush(line_no, hold=True)
                line = line[m.end():]
                n = len(line)
                pos = 0
                if line.strip():
                    self.start_line = line_no
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
        if line:
            if not line.isspace():
                self.begin(line_no)
            self.parts.append(line)


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


def split_text(text: str) -> Iterator[Chunk]:
    """Cut a whole text into game chunks (any line ends).

    Example:
        >>> len(list(split_text("1. 32-28 2-0\\r\\n1. 33-29 0-2\\r\\n")))
        2
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return split_lines(text.splitlines(keepends=True))
