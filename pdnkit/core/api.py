"""The values the replay core takes and gives: :class:`State`, :class:`Replay` and its codes.

A :class:`State` is a position as the database stores it: the side to move, four PDN square
bitboards (bit ``n - 1`` set for a piece on square ``n``: white men, white kings, black men,
black kings) and the Frisian king-move counters. A :class:`Replay` is what one call on a
game's main line gives back: a few compact arrays (``bytes`` in the machine's byte order;
``memoryview(b).cast("q")`` or ``numpy.frombuffer`` read them without a copy), no object per
ply. Its layout, for ``n = plies``:

=====================  ================  ==================================================
field                  item              per ply ``i``
=====================  ================  ==================================================
``origin``             uint8 x n         origin square
``destination``        uint8 x n         destination square
``flags``              uint8 x n         :data:`FLAG_CAPTURE` ... :data:`FLAG_FULL_PATH`
``path_offsets``       int32 x (n+1)     ``path[path_offsets[i]:path_offsets[i+1]]``
``path``               uint8             every square visited, origin first
``captured_offsets``   int32 x (n+1)     ``captured[...[i]:...[i+1]]``
``captured``           uint8             captured squares in capture order
``captured_kings``     uint8             1 where that captured piece was a king
``bits``               uint64 x 4n       wm, wk, bm, bk after the ply (squares 1-64)
``bits_high``          uint64 x 4n       the same for squares 65 and up (boards over 64
                                         squares; empty otherwise)
``keys``               int64 x n         ``Position.key()`` after the ply (repetitions)
``counts``             uint8 x 4n        white men, white kings, black men, black kings
``numbers``            int32 x n         the move number written before it (0: none)
``spans``              int32 x 2n        start, end of the move in the input (characters of
                                         the movetext; item index, index + 1 for a list)
``king_moves``         int32 x 4n        Frisian counters after the ply: white square, count,
                                         black square, count (empty without the limit)
=====================  ================  ==================================================

The side to move after ply ``i`` is the opposite of the side before it (the core replays no
setup), so it is not stored. ``code`` is ``None`` when every move of the input was replayed
(``result_start``/``result_end`` then span a result token, if the text ended with one), else
the reason the ply ``plies + 1`` did not resolve: a finding code of :data:`CODES`, or
``"handover"`` when the text or the move needs the Python reader or matcher (``reason`` says
what). ``stop_start``/``stop_end`` span that ply's text; ``final`` is the position before it.

Example:
    >>> s = State(False, 1 << 31, 0, 1 << 18, 0, None)
    >>> s.black, s.white & (1 << 31) != 0
    (False, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from pdnkit.errors import PdnkitError

if TYPE_CHECKING:
    from pdnkit.rules.position import Position
    from pdnkit.rules.variants import Rules

__all__ = ["CODES", "FLAG_ANNOTATED", "FLAG_BLACK_DOTS", "FLAG_CAPTURE", "FLAG_FULL_PATH",
           "FLAG_KING", "FLAG_MISMATCH", "FLAG_NUMBERED", "FLAG_PROMOTES", "CoreError",
           "KingMoves", "PlyMove", "Replay", "State", "move_number", "number_fits",
           "position_of", "state_of"]


# --------------------------------------------------------------------------------------
# The move-number rule: the Python statement of what src/module.c's number_fits says in C


def move_number(k: Any, base: Any, offset: Any) -> Any:
    """The move number of main-line ply ``k`` (0-based): ``base`` is the number of the first
    move (1, or a FEN's full-move field), ``offset`` 1 when the side that does not move first
    in the variant starts the line (its first ply is the second half of move ``base``), else
    0. Works on ints and on numpy arrays alike.

    Example:
        >>> [move_number(k, 1, 0) for k in range(4)], move_number(0, 12, 1)
        ([1, 1, 2, 2], 12)
    """
    return base + (k + offset) // 2


def number_fits(number: int, black_dots: bool, k: int, base: int, offset: int) -> bool:
    """Whether a move number written before main-line ply ``k`` fits it: it is
    :func:`move_number` of ``k``, and ``N...`` (``black_dots``) is written only on the second
    half of a move.

    Example:
        >>> number_fits(2, False, 2, 1, 0), number_fits(1, True, 0, 1, 0)
        (True, False)
    """
    j = k + offset
    return number == base + j // 2 and not (black_dots and not j % 2)

#: the codes of a ply that does not resolve (finding codes of :mod:`pdnkit.findings`, and
#: ``handover``: the Python replay reads it)
CODES = ("illegal-move", "ambiguous-move", "not-max-capture", "missed-capture",
         "capture-priority", "move-after-end", "handover")

FLAG_CAPTURE = 1  #: the move takes at least one piece
FLAG_PROMOTES = 2  #: a man is crowned by it
FLAG_KING = 4  #: the moving piece was a king
FLAG_MISMATCH = 8  #: written with the wrong separator (a notation-mismatch finding)
FLAG_NUMBERED = 16  #: a move number was written before it
FLAG_BLACK_DOTS = 32  #: ... in the ``12...`` form
FLAG_ANNOTATED = 64  #: a comment, NAG or strength mark follows it
FLAG_FULL_PATH = 128  #: another legal move joins its squares: PDN writes its full path

#: ((white king's square, consecutive quiet moves), (black's)); square 0: none
KingMoves = tuple[tuple[int, int], tuple[int, int]]


class CoreError(PdnkitError, ValueError):
    """Raised for misuse of the core's API: a malformed state (pieces off the board or on one
    square twice, negative or huge bitboards), moves that are neither text nor a list of text.
    Bad game data never raises: it gives a stop code."""


class State(NamedTuple):
    """A position as PDN square bitboards (see the module docstring)."""

    black: bool  #: Black to move
    wm: int
    wk: int
    bm: int
    bk: int
    king_moves: KingMoves | None = None  #: Frisian counters (None without the limit)

    @property
    def white(self) -> int:
        """Every white piece."""
        return self.wm | self.wk

    @property
    def black_pieces(self) -> int:
        """Every black piece."""
        return self.bm | self.bk


class PlyMove(NamedTuple):
    """One resolved move, read back from a :class:`Replay` (:meth:`Replay.move`)."""

    origin: int
    destination: int
    path: tuple[int, ...]
    captured: tuple[int, ...]
    captured_kings: tuple[int, ...]
    promotes: bool
    is_king: bool


def _mask(squares: frozenset[int]) -> int:
    out = 0
    for n in squares:
        out |= 1 << (n - 1)
    return out


def _squares(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return out


def state_of(position: Position) -> State:
    """The :class:`State` of a rules-engine position.

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> state_of(parse_fen("B:W28:BK19", get_rules("international")))
        State(black=True, wm=134217728, wk=0, bm=0, bk=262144, king_moves=None)
    """
    return State(int(position.side) == 1, _mask(position.white_men),
                 _mask(position.white_kings), _mask(position.black_men),
                 _mask(position.black_kings), position.king_moves)


#: id(rules) -> (rules, the engine bits of each byte value of each byte of a square bitboard)
_LUTS: dict[int, tuple[Rules, tuple[tuple[int, ...], ...], int]] = {}


def _lut_entry(rules: Rules) -> tuple[Rules, tuple[tuple[int, ...], ...], int]:
    """``(rules, its engine bit table, its number of squares)``, built once per record."""
    hit = _LUTS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit
    geo = rules.geometry
    bit_of = geo.bit_of
    n = int(geo.num_squares)
    tables = []
    for j in range((n + 7) // 8):
        # each value from the one without its lowest bit: one OR per entry
        one = [1 << bit_of[8 * j + b + 1] if 8 * j + b < n else 0 for b in range(8)]
        row = [0] * 256
        for v in range(1, 256):
            low = v & -v
            row[v] = row[v ^ low] | one[low.bit_length() - 1]
        tables.append(tuple(row))
    entry = _LUTS[id(rules)] = (rules, tuple(tables), n)
    return entry


def _engine(lut: tuple[tuple[int, ...], ...], mask: int) -> int:
    out = 0
    j = 0
    while mask:
        out |= lut[j][mask & 255]
        mask >>= 8
        j += 1
    return out


def position_of(rules: Rules, state: State) -> Position:
    """The rules-engine position of a :class:`State` (raises :class:`CoreError` for a
    malformed one).

    Example:
        >>> from pdnkit.rules import Position, get_rules
        >>> r = get_rules("frisian")
        >>> position_of(r, state_of(Position.initial(r))) == Position.initial(r)
        True
    """
    from pdnkit.rules.position import Position

    hit = _LUTS.get(id(rules))
    _, lut, n = hit if hit is not None and hit[0] is rules else _lut_entry(rules)
    wm, wk, bm, bk = state[1:5]
    # ints of the board's squares (a negative one has its high bits set)
    if not (type(wm) is int and type(wk) is int and type(bm) is int and type(bk) is int
            and not (wm | wk | bm | bk) >> n):
        raise CoreError("malformed state: a bitboard is not an int of the board's squares")
    if state.king_moves is None and not rules.king_move_limit and not (
            wm & wk | bm & bk | (wm | wk) & (bm | bk)):
        # whole bitboards turned into the engine's, a byte at a time
        return Position.from_engine_bits(rules, "B" if state.black else "W",
                                         _engine(lut, wm | wk), _engine(lut, bm | bk),
                                         _engine(lut, wk | bk))
    if state.king_moves is not None and not all(
            type(x) is int and x >= 0 for pair in state.king_moves for x in pair):
        raise CoreError("malformed state: king_moves is ((square, n), (square, n))")
    try:
        return Position.from_squares(
            rules, "B" if state.black else "W", white_men=_squares(state.wm),
            white_kings=_squares(state.wk), black_men=_squares(state.bm),
            black_kings=_squares(state.bk), king_moves=state.king_moves)
    except (ValueError, TypeError) as exc:
        raise CoreError(f"malformed state: {exc}") from None


def _ints(data: bytes, code: Literal["i", "q", "Q"]) -> memoryview[int]:
    return memoryview(data).cast(code)


class Replay(NamedTuple):
    """One game's main line replayed (the arrays are described in the module docstring); a
    named tuple, so the extension's result becomes one without a copy per field.

    Example:
        >>> from pdnkit.core import replay
        >>> from pdnkit.rules import Position, get_rules
        >>> r = get_rules("international")
        >>> rep = replay(r, Position.initial(r), "1. 32-28 19-23 2. 28x19 14x23 *")
        >>> rep.plies, rep.code, rep.move(2).captured, rep.result_text("1. 32-28 19-23 2. 28x19 14x23 *")
        (4, None, (23,), '*')
    """

    plies: int
    code: str | None
    reason: str | None
    stop_start: int
    stop_end: int
    result_start: int
    result_end: int
    final: State
    origin: bytes
    destination: bytes
    flags: bytes
    path_offsets: bytes
    path: bytes
    captured_offsets: bytes
    captured: bytes
    captured_kings: bytes
    bits: bytes
    bits_high: bytes
    keys: bytes
    counts: bytes
    numbers: bytes
    spans: bytes
    king_moves: bytes

    def move(self, i: int) -> PlyMove:
        """The move of ply ``i`` (0-based)."""
        po = _ints(self.path_offsets, "i")
        co = _ints(self.captured_offsets, "i")
        caps = self.captured[co[i]:co[i + 1]]
        kings = self.captured_kings[co[i]:co[i + 1]]
        fl = self.flags[i]
        return PlyMove(self.origin[i], self.destination[i],
                       tuple(self.path[po[i]:po[i + 1]]), tuple(caps),
                       tuple(c for c, k in zip(caps, kings, strict=True) if k),
                       bool(fl & FLAG_PROMOTES), bool(fl & FLAG_KING))

    def side_after(self, i: int, start_black: bool) -> bool:
        """Black to move after ply ``i`` of a replay that started with ``start_black``."""
        return start_black != (i % 2 == 0)

    def position(self, i: int, start_black: bool) -> State:
        """The :class:`State` after ply ``i`` (0-based)."""
        q = _ints(self.bits, "Q")
        parts = [int(q[4 * i + j]) for j in range(4)]
        if self.bits_high:
            h = _ints(self.bits_high, "Q")
            parts = [p | int(h[4 * i + j]) << 64 for j, p in enumerate(parts)]
        km: KingMoves | None = None
        if self.king_moves:
            k = _ints(self.king_moves, "i")
            km = ((k[4 * i], k[4 * i + 1]), (k[4 * i + 2], k[4 * i + 3]))
        return State(self.side_after(i, start_black), parts[0], parts[1], parts[2], parts[3],
                     km)

    def key(self, i: int) -> int:
        """``Position.key()`` after ply ``i``."""
        return int(_ints(self.keys, "q")[i])

    def result_text(self, text: str) -> str | None:
        """The result token the movetext ``text`` ended with (None: none)."""
        return text[self.result_start:self.result_end] if self.result_start >= 0 else None
