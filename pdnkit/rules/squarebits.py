"""A board's squares as bits: the layout of a board (each square's FEN name, FEN order and the
rules engine's bit) and a position's four square bitboards (``wm``, ``wk``, ``bm``, ``bk``:
white men, white kings, black men, black kings), bit ``n - 1`` for square ``n`` in PDN
numbering.

The rules engine keeps its own bit numbering (with gaps, some boards mirrored): a
:class:`BoardLayout` holds, per board and notation, the engine bit of each square, to turn
engine bitboards into square bitboards (:func:`square_bits`). The database stores positions
as square bitboards (:mod:`pdnkit.rows.bitboards` writes and reads them in SQL); the opening
tables look positions up by them (:mod:`pdnkit.openings.table`).

Example:
    >>> from pdnkit.rules import Position, get_rules
    >>> p = Position.initial(get_rules("english"))
    >>> wm, wk, bm, bk = square_bits(p)
    >>> bin(bm).count("1"), bm == (1 << 12) - 1, wk
    (12, True, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pdnkit.rules.material import Placement
    from pdnkit.rules.position import Position
    from pdnkit.rules.variants import Rules

__all__ = ["Bits", "BoardLayout", "board_layout", "square_bits"]

#: the four square bitboards of a position: white men, white kings, black men, black kings
Bits = tuple[int, int, int, int]


@dataclass(frozen=True)
class BoardLayout:
    """A board's squares as data: ``names[n - 1]`` is the FEN name of square ``n``,
    ``fen_order`` the squares in FEN order, ``engine_bits[n - 1]`` the rules engine's bit of
    square ``n``. Equal for every variant on the same board with the same notation.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> lay = board_layout(get_rules("russian"))
        >>> lay.names[:2], lay.fen_order[:3], lay == board_layout(get_rules("czech"))
        (('b8', 'd8'), (29, 21, 13), True)
    """

    names: tuple[str, ...]
    fen_order: tuple[int, ...]
    engine_bits: tuple[int, ...]
    #: :meth:`runs`, worked out once (a position's square bitboards read them four times)
    _runs: tuple[tuple[int, int, int], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        out: list[tuple[int, int, int]] = []
        for i, e in enumerate(self.engine_bits):
            if out and out[-1][0] + out[-1][2] == e and out[-1][1] + out[-1][2] == i:
                eb, sb, n = out[-1]
                out[-1] = (eb, sb, n + 1)
            else:
                out.append((e, i, 1))
        object.__setattr__(self, "_runs", tuple(out))

    @property
    def squares(self) -> int:
        """Number of playable squares."""
        return len(self.names)

    def runs(self) -> list[tuple[int, int, int]]:
        """``(engine bit, square bit, length)`` for each run of squares whose engine bits
        are consecutive: the shifts that turn engine bitboards into square bitboards.

        Example:
            >>> from pdnkit.rules import get_rules
            >>> board_layout(get_rules("international")).runs()[:2]
            [(0, 0, 10), (11, 10, 10)]
        """
        return list(self._runs)

    def from_engine(self, bits: int) -> int:
        """An engine bitboard as a square bitboard.

        Example:
            >>> from pdnkit.rules import get_rules
            >>> board_layout(get_rules("international")).from_engine(1 << 11)  # square 11
            1024
        """
        out = 0
        for eb, sb, n in self._runs:
            out |= ((bits >> eb) & ((1 << n) - 1)) << sb
        return out


_LAYOUTS: dict[int, tuple[Any, BoardLayout]] = {}


def board_layout(rules: Rules) -> BoardLayout:
    """The :class:`BoardLayout` of ``rules``' board (cached per rules record).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> lay = board_layout(get_rules("canadian"))
        >>> lay.squares, max(lay.engine_bits) >= 64
        (72, True)
    """
    entry = _LAYOUTS.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    from pdnkit.rules.notation import square_names

    names = square_names(rules)
    geo = rules.geometry
    squares = range(1, int(geo.num_squares) + 1)
    order = list(squares)
    if rules.notation == "alphanumeric":  # FEN lists squares by file, then rank
        order.sort(key=lambda n: tuple(int(x) for x in geo.square_to_coords(n)))
    layout = BoardLayout(tuple(names[n] for n in squares), tuple(order),
                         tuple(int(geo.bit_of[n]) for n in squares))
    _LAYOUTS[id(rules)] = (rules, layout)
    return layout


def _mask(squares: Any) -> int:
    out = 0
    for n in squares:
        out |= 1 << (int(n) - 1)
    return out


def square_bits(position: Position | Placement) -> Bits:
    """``(wm, wk, bm, bk)`` of a position: bit ``n - 1`` set for a piece on square ``n``
    (a :class:`~pdnkit.rules.position.Position` through its engine bitboards, any other
    placement through its squares).

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> square_bits(parse_fen("W:W28,K33:B19", get_rules("international")))
        (134217728, 4294967296, 262144, 0)
    """
    from pdnkit.rules.position import Position as _Position

    if isinstance(position, _Position):
        w, b, k = position.engine_bits
        lay = board_layout(position.rules)
        return (lay.from_engine(w & ~k), lay.from_engine(w & k), lay.from_engine(b & ~k),
                lay.from_engine(b & k))
    return (_mask(position.white_men), _mask(position.white_kings),
            _mask(position.black_men), _mask(position.black_kings))
