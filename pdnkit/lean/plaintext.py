"""Text on the screen and in CSV without rich: control characters escaped
(:func:`terminal_safe`), spreadsheet formulas defused (:func:`spreadsheet_safe`), and the plain
tables (:func:`plain_table`) that print what rich prints for a simple table on a stream that
is no terminal.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pdnkit._lazy import lazy_pattern

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult

#: what a spreadsheet reads as the start of a formula (OWASP's CSV injection page)
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: a plain number written as text (``-5``, ``+1.5``, ``2e3``): a spreadsheet reads it as the
#: number, never as a formula
NUMBER = lazy_pattern(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def spreadsheet_safe(text: str) -> str:
    """``text`` as a CSV cell that no spreadsheet runs: after a ``'`` when it begins with
    one of :data:`FORMULA_START`, holds more than that character and is not a plain number
    (OWASP's advice against CSV injection); unchanged otherwise. A lone ``-`` or ``+`` (a
    placeholder Round tag, the tree's ``+``/``=``/``-`` columns) holds no formula to run.

    Example:
        >>> spreadsheet_safe("=cmd|' /C calc'!A0"), spreadsheet_safe("@SUM(A1)")
        ("'=cmd|' /C calc'!A0", "'@SUM(A1)")
        >>> spreadsheet_safe("-2+3"), spreadsheet_safe("-5"), spreadsheet_safe("-")
        ("'-2+3", '-5', '-')
    """
    if len(text) > 1 and text.startswith(FORMULA_START) and not NUMBER.fullmatch(text):
        return "'" + text
    return text


#: what never reaches the terminal from file text: C0 controls but newline and tab, DEL, C1
#: controls, and the bidi controls that reorder what is shown
UNSAFE = lazy_pattern("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                     "\u2066-\u2069]")


def terminal_safe(text: str) -> str:
    """``text`` with every control character that a terminal would act on (ESC sequences,
    BEL, CR, backspace, C1 controls, bidi overrides) written as an escape instead.

    Example:
        >>> terminal_safe("Ann\\x1b[2J\\u202eB\\nC")
        'Ann\\\\x1b[2J\\\\u202eB\\nC'
    """
    if not UNSAFE.search(text):
        return text
    return UNSAFE.sub(escape_char, text)


def escape_char(m: re.Match[str]) -> str:
    """The escape :func:`terminal_safe` writes for one character."""
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"




#: the environment variables that change what rich prints (colour forced on a pipe, a width
#: or a terminal assumed): where one is set, rich prints and no plain table stands in for it
RICH_ENVIRON = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "JUPYTER_COLUMNS",
                "JUPYTER_LINES")
#: printable ASCII: text whose width is its length and which rich prints unchanged
_PLAIN = lazy_pattern(r"[ -~]*")


def plain_width(stream: object) -> int | None:
    """The width rich gives a console on ``stream`` when it is no terminal and nothing in
    the environment changes what rich prints (else ``None``: let rich print): ``COLUMNS``
    when it is a number, else the first terminal's among standard input, output and error,
    else 80 (as ``rich.console.Console.size`` finds it). Its text must be UTF-8
    (rich draws ASCII boxes on other encodings).

    Example:
        >>> import io
        >>> plain_width(io.StringIO()) is None   # no encoding: rich decides
        True
    """
    if any(name in os.environ for name in RICH_ENVIRON):
        return None
    encoding = str(getattr(stream, "encoding", None) or "").lower()
    if not encoding.startswith("utf"):
        return None
    try:
        if stream.isatty():  # type: ignore[attr-defined]
            return None
    except (AttributeError, ValueError, OSError):
        return None
    width = 0
    for fd in (0, 1, 2):
        try:
            width = os.get_terminal_size(fd).columns
        except (AttributeError, ValueError, OSError):
            continue
        break
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit():
        width = int(columns)
    return width or 80


def plain_table(title: str, rows: Sequence[Sequence[str]], *,
                header: Sequence[str] | None = None, right: Sequence[int] = (),
                width: int = 80) -> str | None:
    """The text rich prints for a ``rich.table.Table`` with the default box, ``title``
    justified left, ``header`` (``None``: ``show_header=False``), columns ``right`` justified
    right and ``rows`` of plain cells, on a console ``width`` wide that is no terminal; or
    ``None`` when rich would do more than this draws (a cell or title not printable ASCII,
    a table wider than the console, a title wider than the table).

    Example:
        >>> text = plain_table("pdnkit", [("games", "10")], right=[1])
        >>> print(*text.splitlines()[1:], sep="\\n")  # (below the title, padded to the width)
        ┌───────┬────┐
        │ games │ 10 │
        └───────┴────┘
    """
    cells = [list(header)] if header is not None else []
    cells += [list(row) for row in rows]
    if not cells or not all(_PLAIN.fullmatch(c) for row in cells for c in row) \
            or not _PLAIN.fullmatch(title):
        return None
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    total = sum(widths) + 3 * len(widths) + 1
    if total > width or len(title) > total:
        return None

    def line(row: Sequence[str], bar: str) -> str:
        parts = [c.rjust(w) if i in right else c.ljust(w)
                 for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        return bar + " " + f" {bar} ".join(parts) + " " + bar

    def rule(left: str, mid: str, end: str, fill: str) -> str:
        return left + mid.join(fill * (w + 2) for w in widths) + end

    out = [title.ljust(total)]
    if header is not None:
        out += [rule("┏", "┳", "┓", "━"), line(header, "┃"), rule("┡", "╇", "┩", "━")]
    else:
        out.append(rule("┌", "┬", "┐", "─"))
    out += [line(row, "│") for row in rows]
    out.append(rule("└", "┴", "┘", "─"))
    return "\n".join(out) + "\n"


class Safe:
    """A rich renderable shown with :func:`terminal_safe` applied to every piece of text it
    renders (``show``'s board and moves, ``validate``'s summary): whatever a file holds, the
    terminal gets no control sequence from it.

    Example:
        >>> import io
        >>> from rich.console import Console
        >>> c = Console(file=io.StringIO(), width=40)
        >>> c.print(Safe("a\\x1b[31mb"))
        >>> c.file.getvalue()
        'a\\\\x1b[31mb\\n'
    """

    def __init__(self, renderable: object) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.segment import Segment
        from rich.text import Text

        inner = self.renderable
        if isinstance(inner, str):  # plain text, never markup: the file's '[' stays
            inner = Text(inner)
        for seg in console.render(inner, options):  # type: ignore[arg-type]
            if seg.control or not UNSAFE.search(seg.text):
                yield seg
            else:
                yield Segment(terminal_safe(seg.text), seg.style)


__all__ = ["FORMULA_START", "NUMBER", "RICH_ENVIRON", "UNSAFE", "Safe", "escape_char", "plain_table",
           "plain_width", "spreadsheet_safe", "terminal_safe"]

