"""The bricks of the board views: a position as a *placement* string and one ply as a
:class:`PlyView` (a ply of the main line or of a variation).

A placement has one character per square, square 1 first: ``w`` White man, ``W`` White king,
``b`` Black man, ``B`` Black king, ``.`` empty.

Example:
    >>> from pdnkit.rules import Position, get_rules
    >>> placement_of(Position.initial(get_rules("english")))[:12]
    'bbbbbbbbbbbb'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from pdnkit.rules import Position

__all__ = ["PlyView", "placement_of"]


def placement_of(position: Position) -> str:
    """The placement string of ``position`` (see the module docstring).

    >>> from pdnkit.rules import get_rules, parse_fen
    >>> placement_of(parse_fen("W:WK3:B1", get_rules("english"))).rstrip(".")
    'b.W'
    """
    n = position.rules.geometry.num_squares
    cells = ["."] * n
    for squares, ch in ((position.white_men, "w"), (position.white_kings, "W"),
                        (position.black_men, "b"), (position.black_kings, "B")):
        for s in squares:
            cells[s - 1] = ch
    return "".join(cells)


@dataclass
class PlyView:
    """One ply of the main line (or of a variation): the move as written and what replay
    made of it.

    ``placement`` is the position after the ply (``None`` when the ply was not replayed).
    """

    ply: int
    number: int | None
    side: str | None
    written: str
    notation: str | None
    path: tuple[int, ...]
    captured: tuple[int, ...]
    nags: list[int]
    comment: str | None
    replayed: bool
    placement: str | None

    def label(self, first: str = "W") -> str:
        """``12.`` or ``12...`` (a move of the second mover, ``first`` moves first) and the
        move as written.

        >>> PlyView(3, 2, "W", "32-28", None, (), (), [], None, False, None).label()
        '2. 32-28'
        >>> PlyView(2, 1, "W", "22-18", None, (), (), [], None, False, None).label("B")
        '1... 22-18'
        """
        dots = "." if self.side == first else "..."
        return f"{self.number}{dots} {self.written}" if self.number else self.written
