"""The board turned round: a game whose notation puts the first mover at the bottom.

Alphanumeric squares are named from White's side (``a1`` bottom left, RULES.md 1.8), and in
a variant where Black moves first (English checkers, RULES.md 2.8: Black on 1-12, the top of
the usual diagram) the first move comes from the top rows: ``f6-e5`` (11-15). Some
exporters write such games from the first mover's side instead -- PlayStrategy's English
exports: ``1. c3-d4``, the first mover on ranks 1-3 -- so every square is its image through
the board's centre. Read as written, the first move is the other side's: the game would be
replayed with the colours reversed against its players and its move numbers.

:func:`turned_line` decides it from the game's first move alone, by what the rules say: as
written, its origin holds no piece of the side to move (else the notation is the usual
one), while turned round it holds one and the move is legal (and as written it is not).
The main line (with its variations) is then read turned round, and the game gets a
``board-turned`` finding. Nothing here depends on a variant's name: only the board's size
and the start position.

Example:
    >>> from pdnkit.pdn import parse_game
    >>> from pdnkit.rules import Position, get_rules
    >>> g = parse_game('[GameType "21"] 1. c3-d4 b6-c5 2. d4xb6 a7xc5 0-1')
    >>> line = turned_line(g, g.moves, Position.initial(get_rules("english")))
    >>> [m.text for m in line]
    ['f6-e5', 'g3-f4', 'e5xg3', 'h2xf4']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from pdnkit._lazy import lazy_pattern
from pdnkit.pdn.record import BodyElement, MoveNode
from pdnkit.validation.match import match_move, parse_squares

if TYPE_CHECKING:
    from pdnkit.pdn.record import GameRecord
    from pdnkit.rules.position import Position

__all__ = ["turned_line", "turned_square"]

_ALPHA = lazy_pattern(r"([a-z])(\d{0,2})\Z")
#: the first square of a movetext as the compiled lane keeps it (a move number, then a move)
_FIRST_SQUARE = lazy_pattern(r"\s*(?:\d{1,9}\.{1,3}\s*)?([a-lA-L]\d{1,2}|\d{1,3})")


def turned_square(token: str, width: int, height: int) -> str:
    """An alphanumeric square (or a bare file, ``c`` of the short form ``cd4``) seen from the
    other side of a ``width`` x ``height`` board; a number stays as it is.

    Example:
        >>> turned_square("c3", 8, 8), turned_square("a1", 10, 10), turned_square("c", 8, 8)
        ('f6', 'j10', 'f')
    """
    m = _ALPHA.match(token)
    if m is None:
        return token
    file = chr(ord("a") + width - 1 - (ord(m.group(1)) - ord("a")))
    return file + (str(height + 1 - int(m.group(2))) if m.group(2) else "")


def _first_origin(record: GameRecord, nodes: Sequence[MoveNode]) -> str | None:
    """The first square of the main line as written, read without reading the moves of a
    game the compiled lane read."""
    lane = record.unread_line()
    if lane is not None:
        m = _FIRST_SQUARE.match(lane.raw, lane.lane_body)
        return m.group(1).lower() if m is not None else None
    for node in nodes[:1]:
        return node.squares[0] if node.squares else None
    return None


def turned_line(record: GameRecord, nodes: Sequence[MoveNode], pos: Position
                ) -> list[MoveNode] | None:
    """The main line ``nodes`` read on the board turned round when the game's first move
    says its notation puts the first mover at the bottom (see the module doc), else
    ``None`` (the usual reading; the cost is a look at the first square)."""
    origin = _first_origin(record, nodes)
    if origin is None or not origin[:1].isalpha():
        return None
    rules = pos.rules
    width, height = int(rules.width), int(rules.height)
    side = pos.side
    as_written = parse_squares(rules, (origin,))
    if isinstance(as_written, str):
        return None
    piece = pos.piece_at(as_written[0])
    if piece is not None and piece[0] == side:
        return None  # the usual notation: the side to move stands on the first square
    first = nodes[0]  # (a lane game's moves are read now: a rare game)
    written = parse_squares(rules, first.squares)
    turned = parse_squares(rules, [turned_square(t, width, height) for t in first.squares])
    if isinstance(turned, str) or match_move(pos, turned).move is None:
        return None
    if not isinstance(written, str) and match_move(pos, written).move is not None:
        return None
    return _turn_line(list(nodes), width, height)


def _turn_node(node: MoveNode, width: int, height: int) -> MoveNode:
    """``node`` with its squares turned round (its text written again from them, its
    separators kept); its variations are turned by :func:`_turn_line`."""
    if node.placeholder or not node.squares:
        return replace(node, variations=list(node.variations))
    squares = tuple(turned_square(t, width, height) for t in node.squares)
    text = "".join(s + sep for s, sep in zip(squares, (*node.separators, ""), strict=False))
    return replace(node, text=text, squares=squares, variations=list(node.variations))


def _turn_line(line: list[MoveNode], width: int, height: int) -> list[MoveNode]:
    """The main line's nodes turned round, and every variation hung on them (an explicit
    stack: any depth of nesting). The record's own nodes are left as they are."""
    out = [_turn_node(n, width, height) for n in line]
    stack: list[MoveNode] = list(out)
    while stack:
        node = stack.pop()
        for i, var in enumerate(node.variations):
            turned: list[BodyElement] = []
            for el in var:
                if isinstance(el, MoveNode):
                    el = _turn_node(el, width, height)
                    stack.append(el)
                turned.append(el)
            node.variations[i] = turned
    return out
