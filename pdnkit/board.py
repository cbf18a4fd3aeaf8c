"""A position drawn on its board: a rich renderable for the terminal and an SVG diagram.

Both draw a *placement* (one character per square, square 1 first: ``w``/``W`` White man/king,
``b``/``B`` Black man/king, ``.`` empty; see :func:`pdnkit.viewer.model.placement_of`) on the
variant's own board: its size, the colour of its corner, its square numbering (from
:class:`~pdnkit.rules.Geometry`: Italian on its mirrored board, Spanish and Portuguese counted
from White's bottom right) and White at the bottom. Squares can be marked: ``from``/``to``/
``path`` for the move played, ``captured``, ``written`` for the squares of a move as written.

Example:
    >>> from pdnkit.rules import get_rules
    >>> svg = board_svg(get_rules("english"), "b" + "." * 30 + "w")
    >>> svg.count('data-piece="b"'), 'data-square="32"' in svg
    (1, True)
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from pdnkit.errors import ArgumentError

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console, ConsoleOptions, RenderResult
    from rich.measure import Measurement

    from pdnkit.rules import Rules

__all__ = ["GLYPHS", "MARK_COLOURS", "Board", "board_svg"]

#: Unicode draughts pieces per placement character
GLYPHS = {"w": "\u26c0", "W": "\u26c1", "b": "\u26c2", "B": "\u26c3"}
LIGHT = "#f0d9b5"
DARK = "#b58863"
#: background of a marked square, by mark
MARK_COLOURS = {"from": "#c8b440", "to": "#e0cc50", "path": "#d2be48", "captured": "#c0504d",
                "written": "#d9534f", "legal": "#6a9fd4"}


def _labels(rules: Rules) -> tuple[list[str], list[str]]:
    files = [chr(ord("a") + f) for f in range(rules.width)]
    ranks = [str(r + 1) for r in range(rules.height)]
    return files, ranks


class Board:
    """A rich renderable of a placement on the board of ``rules``.

    ``marks`` maps square numbers to a mark (a key of :data:`MARK_COLOURS`). Square numbers
    are printed in the playing squares of numerically written variants (``numbers``
    overrides); files and ranks are printed around the board.

    >>> from io import StringIO
    >>> from rich.console import Console
    >>> from pdnkit.rules import Position, get_rules
    >>> from pdnkit.viewer.model import placement_of
    >>> rules = get_rules("international")
    >>> con = Console(file=StringIO(), width=80, color_system=None)
    >>> con.print(Board(rules, placement_of(Position.initial(rules))))
    >>> text = con.file.getvalue()
    >>> text.count(GLYPHS["b"]), text.count(GLYPHS["w"]), "46" in text
    (20, 20, True)
    """

    def __init__(self, rules: Rules, placement: str | None, *,
                 marks: Mapping[int, str] | None = None, numbers: bool | None = None) -> None:
        n = rules.geometry.num_squares
        if placement is not None and len(placement) != n:
            raise ArgumentError(f"placement has {len(placement)} squares, the board {n}")
        self.rules = rules
        self.placement = placement or "." * n
        self.marks = dict(marks or {})
        self.numbers = rules.notation == "numeric" if numbers is None else numbers

    def _cell(self, f: int, r: int, width: int) -> tuple[str, str, str]:
        """(top text, bottom text, style) of one square."""
        n = self.rules.geometry.coords_to_square(f, r)
        if n is None:
            return " " * width, " " * width, f"on {LIGHT}"
        bg = MARK_COLOURS.get(self.marks.get(n, ""), DARK)
        top = str(n).rjust(width - 1) + " " if self.numbers else " " * width
        ch = self.placement[n - 1]
        glyph = GLYPHS.get(ch, " ")
        mid = glyph.center(width)
        colour = "#ffffff" if ch in "wW" else "#000000"
        return top, mid, f"{colour} on {bg}"

    def _width(self) -> int:
        return 5 if self.rules.width <= 10 else 4

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        from rich.measure import Measurement

        size = 3 + self._width() * self.rules.width
        return Measurement(size, size)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.text import Text

        w, h = self.rules.width, self.rules.height
        width = self._width()
        files, ranks = _labels(self.rules)
        for r in range(h - 1, -1, -1):
            top, mid = Text(" " * 3), Text(ranks[r].rjust(2) + " ")
            for f in range(w):
                a, b, style = self._cell(f, r, width)
                num_style = style.replace("#ffffff", "#3b2a1a").replace("#000000", "#3b2a1a")
                top.append(a, style=num_style + " dim" if a.strip() else style)
                piece_style = style + (" bold" if self.placement and b.strip() else "")
                mid.append(b, style=piece_style)
            yield top
            yield mid
        yield Text("   " + "".join(x.center(width) for x in files), style="dim")


def board_svg(rules: Rules, placement: str | None, *, marks: Mapping[int, str] | None = None,
              arrows: Iterable[tuple[int, ...]] = (), size: int = 320,
              numbers: bool = True, title: str | None = None) -> str:
    """An SVG diagram of a placement (White at the bottom), for reports and pages.

    Every playing square is a ``rect`` with ``data-square``; every piece a ``circle`` with
    ``data-square`` and ``data-piece`` (``w``, ``W``, ``b``, ``B``). ``arrows`` are square
    paths drawn as arrows (a move or a capture route).

    >>> from pdnkit.rules import get_rules
    >>> svg = board_svg(get_rules("italian"), None, numbers=True)
    >>> svg.startswith("<svg") and '>1</text>' in svg
    True
    """
    g = rules.geometry
    w, h = rules.width, rules.height
    n = g.num_squares
    placement = placement or "." * n
    marks = dict(marks or {})
    cell = 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="pdnkit-board" '
           f'viewBox="0 0 {w * cell} {h * cell}" width="{size}" height="{size * h // w}" '
           f'data-variant="{html.escape(rules.name)}" role="img">']
    if title:
        out.append(f"<title>{html.escape(title)}</title>")
    out.append(f'<rect width="{w * cell}" height="{h * cell}" fill="{LIGHT}"/>')

    def centre(sq: int) -> tuple[float, float]:
        f, r = g.square_to_coords(sq)
        return f * cell + cell / 2, (h - 1 - r) * cell + cell / 2

    for sq in range(1, n + 1):
        f, r = g.square_to_coords(sq)
        x, y = f * cell, (h - 1 - r) * cell
        fill = MARK_COLOURS.get(marks.get(sq, ""), DARK)
        out.append(f'<rect data-square="{sq}" x="{x}" y="{y}" width="{cell}" height="{cell}" '
                   f'fill="{fill}"/>')
        if numbers:
            out.append(f'<text x="{x + 2}" y="{y + 10}" font-size="9" fill="#f6ead7" '
                       f'font-family="sans-serif">{sq}</text>')
    for sq in range(1, n + 1):
        ch = placement[sq - 1]
        if ch == ".":
            continue
        cx, cy = centre(sq)
        face, edge = ("#fbf7ee", "#333") if ch in "wW" else ("#222", "#000")
        out.append(f'<circle data-square="{sq}" data-piece="{ch}" cx="{cx}" cy="{cy}" '
                   f'r="{cell * 0.38}" fill="{face}" stroke="{edge}" stroke-width="1.5"/>')
        if ch in "WB":
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.2}" fill="none" '
                       f'stroke="#c9a227" stroke-width="3"/>')
    arrow_list = [tuple(a) for a in arrows if len(a) >= 2]
    if arrow_list:
        out.append('<defs><marker id="pdnkit-arrow" viewBox="0 0 10 10" refX="6" refY="5" '
                   'markerWidth="4" markerHeight="4" orient="auto-start-reverse">'
                   '<path d="M0,0 L10,5 L0,10 z" fill="#1f5fa8"/></marker></defs>')
        for path in arrow_list:
            pts = " ".join("{:.0f},{:.0f}".format(*centre(s)) for s in path)
            out.append(f'<polyline points="{pts}" fill="none" stroke="#1f5fa8" '
                       f'stroke-width="5" stroke-opacity="0.75" '
                       f'marker-end="url(#pdnkit-arrow)"/>')
    out.append("</svg>")
    return "".join(out)
