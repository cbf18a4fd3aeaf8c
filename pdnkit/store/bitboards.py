"""Positions as square bitboards: one bit per playable square in PDN numbering.

The database stores every position as four integers (``wm``, ``wk``, ``bm``, ``bk``: white
men, white kings, black men, black kings) in which bit ``n - 1`` stands for square ``n``, so a
set of squares is a plain SQL integer (``1 << (n - 1)`` per square) and a pattern is a few
bitwise tests. The columns are ``HUGEINT`` (128 bits) so one type serves every board, 12x12
(72 squares) included; DuckDB compresses them like 64-bit integers.

The rules engine keeps its own bit numbering (with gaps, some boards mirrored): a
:class:`BoardLayout` holds, per board and notation, the engine bit of each square (to turn
engine bitboards into square bitboards, in Python or in SQL, :func:`compact_sql`) and the FEN
name and order of the squares (the ``layouts`` table, from which the ``positions`` view
writes FEN).

Example:
    >>> from pdnkit.rules import Position, get_rules
    >>> p = Position.initial(get_rules("english"))
    >>> wm, wk, bm, bk = square_bits(p)
    >>> bin(bm).count("1"), bm == (1 << 12) - 1, wk
    (12, True, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb

    from pdnkit.rules.variants import Rules

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
        out: list[tuple[int, int, int]] = []
        for i, e in enumerate(self.engine_bits):
            if out and out[-1][0] + out[-1][2] == e and out[-1][1] + out[-1][2] == i:
                eb, sb, n = out[-1]
                out[-1] = (eb, sb, n + 1)
            else:
                out.append((e, i, 1))
        return out

    def from_engine(self, bits: int) -> int:
        """An engine bitboard as a square bitboard.

        Example:
            >>> from pdnkit.rules import get_rules
            >>> board_layout(get_rules("international")).from_engine(1 << 11)  # square 11
            1024
        """
        out = 0
        for eb, sb, n in self.runs():
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
    from pdnkit.rules.notation import _tables

    t = _tables(rules)
    squares = range(1, t.num_squares + 1)
    order = list(squares)
    if t.alphanumeric:
        order.sort(key=lambda n: t.coords[n])
    geo = rules.geometry
    layout = BoardLayout(tuple(t.names[n] for n in squares), tuple(order),
                         tuple(int(geo.bit_of[n]) for n in squares))
    _LAYOUTS[id(rules)] = (rules, layout)
    return layout


def _mask(squares: Any) -> int:
    out = 0
    for n in squares:
        out |= 1 << (int(n) - 1)
    return out


def square_bits(position: Any) -> Bits:
    """``(wm, wk, bm, bk)`` of a position: bit ``n - 1`` set for a piece on square ``n``.

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> square_bits(parse_fen("W:W28,K33:B19", get_rules("international")))
        (134217728, 4294967296, 262144, 0)
    """
    w, b, k = getattr(position, "_w", None), getattr(position, "_b", None), getattr(
        position, "_k", None)
    if type(w) is int and type(b) is int and type(k) is int:
        lay = board_layout(position.rules)
        return (lay.from_engine(w & ~k), lay.from_engine(w & k), lay.from_engine(b & ~k),
                lay.from_engine(b & k))
    return (_mask(position.white_men), _mask(position.white_kings),
            _mask(position.black_men), _mask(position.black_kings))


def bits_key(bits: Bits, black: bool) -> int:
    """The position key of square bitboards (``(wm, wk, bm, bk)``, Black to move or not): the
    ``position_key`` the ``positions`` view derives with the ``position_key_of`` macro, the
    mix of :func:`pdnkit.rules.position.position_key` applied to the square bitboards.

    Example:
        >>> import duckdb
        >>> from pdnkit.store.db import schema_sql
        >>> con = duckdb.connect()
        >>> _ = con.execute(schema_sql())
        >>> bits = (1 << 27, 1 << 32, 1 << 18, 0)
        >>> sql = con.execute("SELECT position_key_of(?::HUGEINT, ?::HUGEINT, ?::HUGEINT, "
        ...                   "?::HUGEINT, true)", list(bits)).fetchall()[0][0]
        >>> sql == bits_key(bits, True) != bits_key(bits, False)
        True
    """
    from pdnkit.rules.position import position_key

    wm, wk, bm, bk = bits
    return position_key(wm | wk, bm | bk, wk | bk, bool(black))


def compact_sql(col: str, layouts: list[BoardLayout], code: str = "layout") -> str:
    """SQL turning the engine bitboard ``col`` (``UBIGINT``, boards of at most 64 engine
    bits) into a square bitboard (``HUGEINT``); ``code`` numbers ``layouts``.

    Example:
        >>> import duckdb
        >>> from pdnkit.rules import get_rules
        >>> lay = board_layout(get_rules("international"))
        >>> duckdb.connect().execute("SELECT " + compact_sql("x", [lay]) + " FROM (SELECT "
        ...     "0 AS layout, (1::UBIGINT << 11) AS x)").fetchall()[0][0]
        1024
    """

    def one(lay: BoardLayout) -> str:
        parts = []
        for eb, sb, n in lay.runs():
            part = f"((({col}) >> {eb}) & {(1 << n) - 1}::UBIGINT)"
            parts.append(f"({part} << {sb})" if sb else part)
        return "(" + " | ".join(parts) + ")"

    if not layouts:
        return "0::HUGEINT"
    if len(layouts) == 1:
        return one(layouts[0]) + "::HUGEINT"
    return ("(CASE " + code + " " + " ".join(f"WHEN {i} THEN {one(lay)}"
                                             for i, lay in enumerate(layouts))
            + " END)::HUGEINT")


def layout_ids(con: duckdb.DuckDBPyConnection, layouts: list[BoardLayout]) -> list[int]:
    """The database's number (``layouts.layout``) of each layout, added to the table
    when new.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> from pdnkit.store.db import connect
        >>> con = connect(":memory:")
        >>> lays = [board_layout(get_rules(v)) for v in ("russian", "english", "czech")]
        >>> layout_ids(con, lays), layout_ids(con, lays[1:2])
        ([0, 1, 0], [1])
    """
    have = {(tuple(n), tuple(o)): int(i) for i, n, o in con.execute(
        "SELECT layout, names, fen_order FROM layouts").fetchall()}
    out = []
    for lay in layouts:
        key = (lay.names, lay.fen_order)
        i = have.get(key)
        if i is None:
            i = have[key] = len(have)
            con.execute("INSERT INTO layouts VALUES (?, ?, ?, ?)",
                        [i, lay.squares, list(lay.names), list(lay.fen_order)])
        out.append(i)
    return out


def fen_bits(fen: str, rules: Rules) -> tuple[bool, Bits]:
    """``(black to move, (wm, wk, bm, bk))`` of FEN text read leniently on ``rules``' board:
    squares as numbers or names, no check that the position could occur (so a stored
    position that the engine would refuse is still found). Raises ``ValueError`` for text
    that names no square of the board.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> fen_bits("B:W28,K33:B19", get_rules("international"))
        (True, (134217728, 4294967296, 262144, 0))
    """
    from pdnkit.rules.fen import split_fen
    from pdnkit.rules.notation import parse_square

    raw = split_fen(fen)
    n_sq = int(rules.geometry.num_squares)
    masks = [0, 0, 0, 0]
    for base, items in ((0, raw.white), (2, raw.black)):
        for text, king in items:
            n = int(parse_square(rules, text))
            if not 1 <= n <= n_sq:
                raise ValueError(f"square {text} is not on the board")
            masks[base + int(king)] |= 1 << (n - 1)
    return raw.side == "B", (masks[0], masks[1], masks[2], masks[3])
