"""Positions as square bitboards: one bit per playable square in PDN numbering.

The database stores every position as four integers (``wm``, ``wk``, ``bm``, ``bk``: white
men, white kings, black men, black kings) in which bit ``n - 1`` stands for square ``n``, so a
set of squares is a plain SQL integer (``1 << (n - 1)`` per square) and a pattern is a few
bitwise tests. The columns are ``UBIGINT``: squares 1-64, which is every square of every board
but 12x12; there squares 65 and up go to ``wm_high``, ``wk_high``, ``bm_high``, ``bk_high``
(NULL on smaller boards), and :func:`bits_source` joins the two halves for a query that
reads every board. (``HUGEINT`` columns would serve every board in one, but DuckDB stores
them in more than half again the space.)

The rules engine keeps its own bit numbering (with gaps, some boards mirrored): a
:class:`~pdnkit.rules.squarebits.BoardLayout` (:mod:`pdnkit.rules.squarebits`, below the
rooms that read it: the rows here, the opening tables) holds, per board and notation, the
engine bit of each square (to turn engine bitboards into square bitboards, in Python with
:func:`~pdnkit.rules.squarebits.square_bits` or in SQL with :func:`compact_sql`) and the FEN
name and order of the squares (the ``layouts`` table, from which the ``positions`` view
writes FEN).

Example:
    >>> from pdnkit.rules import get_rules
    >>> black, (wm, wk, bm, bk) = fen_bits("W:W21,K32:B1", get_rules("english"))
    >>> black, wm == 1 << 20, wk == 1 << 31, bm
    (False, True, True, 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pdnkit.errors import ArgumentError
from pdnkit.rules.squarebits import Bits, BoardLayout, board_layout, square_bits

if TYPE_CHECKING:
    import duckdb

    from pdnkit.rules.variants import Rules

#: a board's squares and a position's square bitboards are the rules' (one place for them,
#: below the rooms that read them); the rows read and write them in SQL
__all__ = ["HIGH_COLUMNS", "LOW_WORD", "WHOLE_BITS", "Bits", "BoardLayout", "bits_key",
           "bits_literal", "bits_source", "board_layout", "compact_sql", "fen_bits",
           "layout_ids", "split_columns", "split_sql", "square_bits", "stores_wide_boards"]

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
    bits, so of at most 64 squares) into a square bitboard (``UBIGINT``); ``code`` numbers
    ``layouts``.

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
        return "0::UBIGINT"
    if len(layouts) == 1:
        return one(layouts[0]) + "::UBIGINT"
    return ("(CASE " + code + " " + " ".join(f"WHEN {i} THEN {one(lay)}"
                                             for i, lay in enumerate(layouts))
            + " END)::UBIGINT")


#: the squares 1-64 of a square bitboard: what its ``UBIGINT`` column holds
LOW_WORD = (1 << 64) - 1
#: the square bitboards of ``position_bits`` and the column of each one's squares 65 and up
HIGH_COLUMNS = {"wm": "wm_high", "wk": "wk_high", "bm": "bm_high", "bk": "bk_high"}


def bits_literal(mask: int) -> str:
    """A square bitboard (or mask) as an SQL constant: ``UBIGINT`` when it lies on squares
    1-64 (so a test on the ``UBIGINT`` columns reads them as they are), else ``HUGEINT``.

    Example:
        >>> bits_literal(1 << 27), bits_literal(1 << 70)
        ('134217728::UBIGINT', '1180591620717411303424::HUGEINT')
    """
    return f"{int(mask)}::UBIGINT" if 0 <= mask <= LOW_WORD else f"{int(mask)}::HUGEINT"


def split_sql(value: str, wide: str) -> tuple[str, str]:
    """SQL for the two columns of the whole square bitboard ``value`` (an SQL expression
    that casts to ``HUGEINT``): squares 1-64, and squares 65 and up where the SQL condition
    ``wide`` holds (a board of more than 64 squares; NULL elsewhere).

    Example:
        >>> import duckdb
        >>> low, high = split_sql("v", "v > 5")
        >>> duckdb.connect().execute(f"SELECT {low}, {high} FROM (SELECT "
        ...     "((1::HUGEINT << 70) | 9) AS v)").fetchall()
        [(9, 64)]
    """
    return (f"({value}::HUGEINT & {LOW_WORD}::HUGEINT)::UBIGINT",
            f"CASE WHEN {wide} THEN ({value}::HUGEINT >> 64)::UBIGINT END")


def split_columns(value: str, wide: str) -> dict[str, str]:
    """SQL for every ``position_bits`` bitboard column (``wm`` ... ``bk`` and their
    ``_high`` columns) from whole bitboards: ``value`` names each one's whole value
    (``"t.{col}"``), ``wide`` is the condition of a board of more than 64 squares
    (:func:`split_sql`).

    Example:
        >>> sorted(split_columns("{col}", "FALSE"))[:3]
        ['bk', 'bk_high', 'bm']
    """
    out = {}
    for col, high in HIGH_COLUMNS.items():
        out[col], out[high] = split_sql(value.format(col=col), wide)
    return out


#: the ``position_bits`` bitboards whole (``HUGEINT``), as a select list
WHOLE_BITS = ", ".join(f"full_bits({c}, {h}) AS {c}" for c, h in HIGH_COLUMNS.items())


def stores_wide_boards(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether a stored board has more than 64 squares (its bitboards then span two
    columns each, ``x`` and ``x_high``).

    Example:
        >>> from pdnkit.store.db import connect
        >>> stores_wide_boards(connect(":memory:"))
        False
    """
    return bool(con.execute("SELECT count(*) FROM layouts WHERE squares > 64").fetchall()[0][0])


def bits_source(con: duckdb.DuckDBPyConnection) -> str:
    """``position_bits`` as a query reads it with each bitboard whole: the table itself
    when no stored board has more than 64 squares (its ``UBIGINT`` columns then hold every
    square), else a subquery joining each bitboard's two columns (``HUGEINT``). Give it an
    alias: ``f"FROM {bits_source(con)} p"``.

    Example:
        >>> from pdnkit.store.db import connect
        >>> bits_source(connect(":memory:"))
        'position_bits'
    """
    if not stores_wide_boards(con):
        return "position_bits"
    return f"(SELECT game_id, ply, layout, black, {WHOLE_BITS} FROM position_bits)"


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
                raise ArgumentError(f"square {text} is not on the board")
            masks[base + int(king)] |= 1 << (n - 1)
    return raw.side == "B", (masks[0], masks[1], masks[2], masks[3])
