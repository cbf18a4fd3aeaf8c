"""Positions and moves: the public face of the bitboard move generator.

Squares are PDN square numbers of the variant (1-based); see :mod:`pdnkit.rules.geometry`.

Example:
    >>> from pdnkit.rules import get_rules
    >>> pos = Position.initial(get_rules("international"))
    >>> len(pos.legal_moves()), pos.has_capture(), str(pos.side)
    (9, False, 'W')
    >>> pos = pos.play(next(m for m in pos.legal_moves() if (m.origin, m.destination) == (32, 28)))
    >>> sorted(pos.white_men)[:3], str(pos.side)
    ([28, 31, 33], 'B')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pdnkit.errors import ArgumentError
from pdnkit.rules._movegen import NO_COUNTERS, Counters, Engine, engine_for
from pdnkit.rules.variants import Color, Rules

__all__ = ["KEY_FINAL", "KEY_SIDE", "KEY_WORDS", "Move", "Position", "position_key"]


@dataclass(frozen=True, slots=True)
class Move:
    """One complete move (a whole capture sequence is one move).

    >>> m = Move(32, 28, (32, 28))
    >>> m.is_capture, str(m)
    (False, '32-28')
    """

    origin: int
    destination: int
    path: tuple[int, ...]  # every square visited, origin first (quiet: (origin, destination))
    captured: tuple[int, ...] = ()  # captured squares in capture order
    captured_kings: tuple[int, ...] = ()  # the captured squares that held kings
    promotes: bool = False  # a man is crowned by this move
    is_king: bool = False  # the moving piece was a king

    @property
    def is_capture(self) -> bool:
        """True when the move takes at least one piece."""
        return bool(self.captured)

    def __str__(self) -> str:
        if self.captured:
            return f"{self.origin}x{self.destination}"
        return f"{self.origin}-{self.destination}"


def _color(side: Color | int | str) -> Color:
    if isinstance(side, str):
        s = side.strip().upper()
        if s in ("W", "WHITE"):
            return Color.WHITE
        if s in ("B", "BLACK"):
            return Color.BLACK
        raise ArgumentError(f"side must be W or B, not {side!r}")
    if side in (0, 1) and not isinstance(side, bool):
        return Color(side)
    raise ArgumentError(f"side must be a Color, 0/1 or 'W'/'B', not {side!r}")


#: constants of :func:`position_key`: (seed, multiplier) for the low 64-bit word of the
#: white, black and king bitboards, then for their next word (boards of more than 64 bits),
#: then the side-to-move seed and the final (seed, multiplier)
KEY_WORDS = ((0xA0761D6478BD642F, 0xE7037ED1A0B428DB), (0x8EBC6AF09C88C6E3, 0x589965CC75374CC3),
             (0x1D8E4E27C47D124F, 0x9E3779B97F4A7C15), (0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9),
             (0xD6E8FEB86659FD93, 0xFF51AFD7ED558CCD), (0xC4CEB9FE1A85EC53, 0xBF58476D1CE4E5B9))
KEY_SIDE = 0x94D049BB133111EB
KEY_FINAL = (0x2545F4914F6CDD1D, 0x9FB21C651E98DF25)
_M64 = (1 << 64) - 1
(_SW, _CW), (_SB, _CB), (_SK, _CK), (_SW1, _CW1), (_SB1, _CB1), (_SK1, _CK1) = KEY_WORDS
_SF, _CF = KEY_FINAL


def position_key(white: int, black: int, kings: int, black_to_move: bool) -> int:
    """The signed 64-bit position key of a placement given as the engine's bitboards.

    Each 64-bit word ``v`` of the three bitboards is mixed as ``mum(v ^ seed, multiplier)``
    (the 128-bit product folded to 64 bits: high half XOR low half, so every input bit
    reaches every output bit), the mixed words are XORed together with the side's seed when
    Black is to move, and the result is mixed once more. Plain integer arithmetic, so the
    database loader computes the same key in SQL (``pdnkit.rows.batch``) from the bitboards
    it is given.

    >>> position_key(0b11, 0b1100, 0, False) == position_key(0b11, 0b1100, 0, False)
    True
    >>> position_key(0b11, 0b1100, 0, False) != position_key(0b11, 0b1100, 0, True)
    True
    """
    p = (white & _M64 ^ _SW) * _CW
    x = p >> 64 ^ p & _M64
    p = (black & _M64 ^ _SB) * _CB
    x ^= p >> 64 ^ p & _M64
    p = (kings & _M64 ^ _SK) * _CK
    x ^= p >> 64 ^ p & _M64
    if (white | black) >> 64:  # boards of more than 64 bits: the next words too
        p = (white >> 64 ^ _SW1) * _CW1
        x ^= p >> 64 ^ p & _M64
        p = (black >> 64 ^ _SB1) * _CB1
        x ^= p >> 64 ^ p & _M64
        p = (kings >> 64 ^ _SK1) * _CK1
        x ^= p >> 64 ^ p & _M64
    if black_to_move:
        x ^= KEY_SIDE
    p = (x ^ _SF) * _CF
    x = p >> 64 ^ p & _M64
    return x - (1 << 64) if x >> 63 else x


#: id(rules) -> (rules, white bitboard, black bitboard) of the variant's starting position
_INITIAL: dict[int, tuple[Rules, int, int]] = {}


class Position:
    """An immutable position: placement, side to move (and Frisian king-move counters).

    Build with :meth:`initial` or :meth:`from_squares`; read with the properties below.

    >>> from pdnkit.rules import get_rules
    >>> p = Position.from_squares(get_rules("international"), "W", white_kings=[23],
    ...     black_men=[28, 17, 10, 20, 29, 39, 40, 38, 31, 8, 9])
    >>> [(m.origin, m.destination, len(m.captured)) for m in p.legal_moves()]
    [(23, 2, 10)]
    """

    __slots__ = ("rules", "side", "_w", "_b", "_k", "_ctr", "_eng", "_moves")

    rules: Rules
    side: Color
    _w: int  # bitboard of the white pieces
    _b: int  # bitboard of the black pieces
    _k: int  # bitboard of the kings
    _ctr: Counters | None
    _eng: Engine
    _moves: list[Move] | None

    def __init__(self) -> None:  # pragma: no cover - use the constructors
        raise TypeError("use Position.initial(rules) or Position.from_squares(...)")

    # ------------------------------------------------------------------ construction
    @classmethod
    def _make(cls, rules: Rules, w: int, b: int, k: int, side: Color,
              ctr: Counters | None, eng: Engine | None = None) -> Position:
        p = object.__new__(cls)
        p.rules = rules
        p.side = side
        p._w = w
        p._b = b
        p._k = k
        p._ctr = ctr
        p._eng = eng if eng is not None else engine_for(rules)
        p._moves = None
        return p

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # compact: the rules record (by name, see Rules.__reduce__), the bitboards, the side
        # and the counters; the engine and the move cache are rebuilt where it is loaded
        return _unpickle_position, (self.rules, self._w, self._b, self._k, int(self.side),
                                    self._ctr)

    @classmethod
    def initial(cls, rules: Rules) -> Position:
        """The variant's starting position (Black on the top rows, White on the bottom ones).

        >>> from pdnkit.rules import get_rules
        >>> p = Position.initial(get_rules("english"))
        >>> str(p.side), min(p.black_men), max(p.black_men), min(p.white_men)
        ('B', 1, 12, 21)
        """
        hit = _INITIAL.get(id(rules))
        if hit is None or hit[0] is not rules:
            g = rules.geometry
            rows = rules.initial_rows
            gap = rules.initial_offset  # empty back rows (Turkish)
            w = b = 0
            for bit, ir in g.row_of_bit.items():
                if gap <= ir < gap + rows:
                    b |= 1 << bit
                elif g.height - gap - rows <= ir < g.height - gap:
                    w |= 1 << bit
            hit = _INITIAL[id(rules)] = (rules, w, b)
        ctr = NO_COUNTERS if rules.king_move_limit else None
        return cls._make(rules, hit[1], hit[2], 0, rules.first_mover, ctr)

    @classmethod
    def from_squares(
        cls,
        rules: Rules,
        side: Color | int | str,
        white_men: Iterable[int] = (),
        white_kings: Iterable[int] = (),
        black_men: Iterable[int] = (),
        black_kings: Iterable[int] = (),
        king_moves: tuple[tuple[int, int], tuple[int, int]] | None = None,
    ) -> Position:
        """A position from PDN square numbers. Raises ``ValueError`` for a square off the board
        or listed twice.

        ``king_moves`` (Frisian art. 17 only): ``((white_square, n), (black_square, n))``, the
        king of each side that made ``n`` consecutive non-capturing moves (square 0, n 0 = none).

        >>> from pdnkit.rules import get_rules
        >>> p = Position.from_squares(get_rules("russian"), "B", white_men=[22], black_kings=[4])
        >>> p.piece_at(22), p.piece_at(4), p.piece_at(1)
        ((<Color.WHITE: 0>, False), (<Color.BLACK: 1>, True), None)
        """
        g = rules.geometry
        lists = [list(white_men), list(white_kings), list(black_men), list(black_kings)]
        masks = [g.mask_of(x) for x in lists]
        total = sum(len(x) for x in lists)
        union = masks[0] | masks[1] | masks[2] | masks[3]
        if union.bit_count() != total:
            raise ArgumentError("a square is listed more than once")
        ctr: Counters | None = None
        if rules.king_move_limit:
            ctr = NO_COUNTERS
            if king_moves is not None:
                parts = []
                for sq, n in king_moves:
                    if sq and not g.is_square(sq):
                        raise ArgumentError(f"king-move counter square {sq!r} is not on the board")
                    parts.append((g.bit_of[sq] if sq and n else -1, int(n) if sq else 0))
                ctr = (parts[0], parts[1])
        return cls._make(
            rules,
            masks[0] | masks[1],
            masks[2] | masks[3],
            masks[1] | masks[3],
            _color(side),
            ctr,
        )

    @classmethod
    def from_engine_bits(cls, rules: Rules, side: Color | int | str, white: int, black: int,
                         kings: int) -> Position:
        """A position from the engine's own bitboards (:attr:`engine_bits`: bit
        ``rules.geometry.bit_of[n]`` for square ``n``), for a variant without king-move
        counters; the caller vouches for them (on the board, white and black apart, kings a
        subset). Made for code that converts whole bitboards (the compiled core).

        >>> from pdnkit.rules import get_rules
        >>> p = Position.initial(get_rules("russian"))
        >>> Position.from_engine_bits(p.rules, p.side, *p.engine_bits) == p
        True
        """
        return cls._make(rules, white, black, kings, _color(side), None)

    def with_side(self, side: Color | int | str) -> Position:
        """The same placement with another side to move.

        >>> from pdnkit.rules import get_rules
        >>> str(Position.initial(get_rules("russian")).with_side("B").side)
        'B'
        """
        return Position._make(self.rules, self._w, self._b, self._k, _color(side), self._ctr,
                              self._eng)

    # ------------------------------------------------------------------ read access
    def _squares(self, mask: int) -> frozenset[int]:
        return frozenset(self._eng.geometry.squares_of(mask))

    @property
    def white_men(self) -> frozenset[int]:
        """Squares of the white men."""
        return self._squares(self._w & ~self._k)

    @property
    def white_kings(self) -> frozenset[int]:
        """Squares of the white kings."""
        return self._squares(self._w & self._k)

    @property
    def black_men(self) -> frozenset[int]:
        """Squares of the black men."""
        return self._squares(self._b & ~self._k)

    @property
    def black_kings(self) -> frozenset[int]:
        """Squares of the black kings."""
        return self._squares(self._b & self._k)

    @property
    def king_moves(self) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """Frisian art. 17 counters ``((white_square, n), (black_square, n))``; ``None`` when the
        variant has no king-move limit. Square 0 with n 0 means no counted king."""
        if self._ctr is None:
            return None
        sob = self._eng.geometry.square_of_bit
        return (
            (sob.get(self._ctr[0][0], 0), self._ctr[0][1]),
            (sob.get(self._ctr[1][0], 0), self._ctr[1][1]),
        )

    @property
    def engine_bits(self) -> tuple[int, int, int]:
        """The engine's own bitboards ``(white, black, kings)``: bit
        ``rules.geometry.bit_of[n]`` for square ``n`` (the view the tracker, the rows and the
        core's feed read; :meth:`from_engine_bits` makes a position from them).

        >>> from pdnkit.rules import get_rules
        >>> p = Position.from_squares(get_rules("russian"), "W", white_kings=[1])
        >>> p.engine_bits == (1 << p.rules.geometry.bit_of[1], 0, 1 << p.rules.geometry.bit_of[1])
        True
        """
        return self._w, self._b, self._k

    @property
    def mover_bits(self) -> tuple[int, int, int, bool]:
        """The engine's bitboards as the side to move sees them: ``(own, opponent, kings,
        white_to_move)`` (what the generator and perft take).

        >>> from pdnkit.rules import get_rules
        >>> p = Position.initial(get_rules("russian"))
        >>> p.mover_bits[0] == p.engine_bits[0], p.with_side("B").mover_bits[3]
        (True, False)
        """
        return self._state()

    @property
    def has_kings(self) -> bool:
        """Whether a king of either side stands on the board."""
        return bool(self._k)

    @property
    def repetition_key(self) -> tuple[int, int, int, Color]:
        """Placement and side to move as one hashable value (cheaper than :meth:`key`; equal
        exactly when the positions are equal, counters aside)."""
        return self._w, self._b, self._k, self.side

    @property
    def counters(self) -> Counters | None:
        """The king-move counters in engine bits (``((bit, n), (bit, n))``, bit -1: none),
        ``None`` for a variant without a king-move limit; :attr:`king_moves` gives them in
        square numbers."""
        return self._ctr

    @property
    def engine(self) -> Engine:
        """The move generator of this position's rules record (shared by every position of
        the record)."""
        return self._eng

    def piece_at(self, n: int) -> tuple[Color, bool] | None:
        """``(colour, is_king)`` of the piece on square ``n``, or ``None`` if it is empty."""
        g = self._eng.geometry
        if not g.is_square(n):
            raise ArgumentError(f"square {n!r} is not on a {g.width}x{g.height} board")
        m = 1 << g.bit_of[n]
        if self._w & m:
            return (Color.WHITE, bool(self._k & m))
        if self._b & m:
            return (Color.BLACK, bool(self._k & m))
        return None

    def counts(self) -> dict[str, int]:
        """Piece counts: ``white_men``, ``white_kings``, ``black_men``, ``black_kings``."""
        w, b, k = self._w, self._b, self._k
        return {
            "white_men": (w & ~k).bit_count(),
            "white_kings": (w & k).bit_count(),
            "black_men": (b & ~k).bit_count(),
            "black_kings": (b & k).bit_count(),
        }

    def key(self) -> int:
        """Signed 64-bit key of placement + side to move (stable across runs and versions;
        see :func:`position_key`).

        >>> from pdnkit.rules import get_rules
        >>> p = Position.initial(get_rules("russian"))
        >>> p.key() == Position.initial(get_rules("russian")).key() != p.with_side("B").key()
        True
        """
        return position_key(self._w, self._b, self._k, self.side is Color.BLACK)

    def _state(self) -> tuple[int, int, int, bool]:
        if self.side is Color.WHITE:
            return self._w, self._b, self._k, True
        return self._b, self._w, self._k, False

    # ------------------------------------------------------------------ moves
    def has_capture(self) -> bool:
        """True when the side to move has a capture (cheap: whole-board shifts, no move list)."""
        if self.side is Color.WHITE:
            return self._eng.has_capture(self._w, self._b, self._k, True)
        return self._eng.has_capture(self._b, self._w, self._k, False)

    def legal_moves(self, all_routes: bool = False) -> list[Move]:
        """Every legal move (captures when compulsory, after the variant's precedence rules).

        Captures with the same origin, destination and captured set are listed once (the first
        route found), unless ``all_routes`` is true: then every capture route is listed, so a
        recorded route can be matched square by square. Order: by origin, destination, path.
        """
        if all_routes:
            return self._build(all_routes=True)
        if self._moves is None:
            self._moves = self._build()
        return list(self._moves)

    def _build(self, all_routes: bool = False) -> list[Move]:
        own, opp, k, white = self._state()
        raw = self._eng.moves(own, opp, k, white, self._ctr, detail=True,
                              all_routes=all_routes)
        sob = self._eng.geometry.square_of_bit
        out = []
        for o, d, _c, ends_king, path, order in raw:
            is_king = bool(k & o)
            out.append(
                Move(
                    sob[o.bit_length() - 1],
                    sob[d.bit_length() - 1],
                    tuple(sob[i] for i in path),
                    tuple(sob[i] for i in order),
                    tuple(sob[i] for i in order if (k >> i) & 1),
                    ends_king and not is_king,
                    is_king,
                )
            )
        out.sort(key=lambda m: (m.origin, m.destination, m.path, m.captured))
        return out

    def quiet_move_exists(self, origin: int, destination: int,
                          ignore_capture_rule: bool = False) -> bool:
        """True when ``origin-destination`` is a legal non-capturing move. With
        ``ignore_capture_rule`` the compulsory-capture rule is not checked (useful to tell a
        missed capture from an impossible move).

        >>> from pdnkit.rules import get_rules
        >>> p = Position.initial(get_rules("international"))
        >>> p.quiet_move_exists(32, 28), p.quiet_move_exists(32, 22)
        (True, False)
        """
        g = self._eng.geometry
        if not (g.is_square(origin) and g.is_square(destination)):
            return False
        own, opp, k, white = self._state()
        if not ignore_capture_rule and self._eng.has_capture(own, opp, k, white):
            return False
        o = 1 << g.bit_of[origin]
        d = 1 << g.bit_of[destination]
        if not own & o:
            return False
        return any(m[0] == o and m[1] == d
                   for m in self._eng.quiet(own, opp, k, white, self._ctr))

    def quiet_move(self, origin: int, destination: int) -> Move | None:
        """The non-capturing move ``origin-destination`` of the side to move, or ``None`` when
        the piece on ``origin`` cannot make it (a man's forward step, a king's free diagonal,
        the Frisian king-move limit honoured). The compulsory-capture rule is **not** checked:
        ask :meth:`has_capture` first. A few bit tests, no move list.

        >>> from pdnkit.rules import get_rules
        >>> p = Position.initial(get_rules("international"))
        >>> p.quiet_move(32, 28), p.quiet_move(32, 22)
        (Move(origin=32, destination=28, path=(32, 28), captured=(), captured_kings=(), promotes=False, is_king=False), None)
        """
        eng = self._eng
        cache = eng.quiet_cache
        if self.side is Color.WHITE:
            white = True
            own, opp = self._w, self._b
        else:
            white = False
            own, opp = self._b, self._w
        bit_of = eng.geometry.bit_of
        try:
            if origin < 1 or destination < 1:
                return None
            ob = bit_of[origin]
            db = bit_of[destination]
        except (IndexError, TypeError):
            return None
        kind = eng.quiet_step(own, opp, self._k, white, self._ctr, ob, db)
        if not kind:
            return None
        key = (origin, destination, kind)
        move = cache.get(key)
        if move is None:
            move = cache[key] = Move(origin, destination, (origin, destination), (), (),
                                     kind == 2, kind == 3)
        return move

    def capture_move(self, origin: int, destination: int) -> Move | None:
        """The legal capture from ``origin`` to ``destination`` when exactly one legal capture
        (one resulting position) joins them, else ``None`` (no such capture, or several that
        only their routes tell apart). Builds no list of every legal move.

        >>> from pdnkit.rules import get_rules
        >>> p = Position.from_squares(get_rules("international"), "W", white_men=[32],
        ...                           black_men=[28, 19])
        >>> p.capture_move(32, 14).captured, p.capture_move(32, 23)
        ((28, 19), None)
        """
        eng = self._eng
        bit_of = eng.geometry.bit_of
        try:
            if origin < 1 or destination < 1:
                return None
            om = 1 << bit_of[origin]
            dm = 1 << bit_of[destination]
        except (IndexError, TypeError):
            return None
        own, opp, k, white = self._state()
        if not own & om:
            return None
        found = None
        for r in eng.captures(own, opp, k, white, detail=True):
            if r[0] == om and r[1] == dm:
                if found is not None:
                    return None
                found = r
        if found is None:
            return None
        _o, _d, _c, ends_king, path, order = found
        sob = eng.geometry.square_of_bit
        is_king = bool(k & om)
        return Move(origin, destination, tuple([sob[i] for i in path]),
                    tuple([sob[i] for i in order]),
                    tuple([sob[i] for i in order if (k >> i) & 1]),
                    ends_king and not is_king, is_king)

    def _play_quiet(self, origin: int, destination: int) -> tuple[Move, Position] | None:
        """:meth:`quiet_move` and :meth:`play` in one step: ``(move, position after)``, or
        ``None`` when the piece on ``origin`` cannot make the move (captures aside, as for
        :meth:`quiet_move`). For replaying recorded games."""
        eng = self._eng
        if self.side is Color.WHITE:
            white = True
            own, opp = self._w, self._b
        else:
            white = False
            own, opp = self._b, self._w
        bit_of = eng.geometry.bit_of
        try:
            if origin < 1 or destination < 1:
                return None
            ob = bit_of[origin]
            db = bit_of[destination]
        except (IndexError, TypeError):
            return None
        k = self._k
        ctr = self._ctr
        o = 1 << ob
        if not own & o:
            return None
        if k & o or ctr is not None or (k and eng.first_king_wins):
            kind = eng.quiet_step(own, opp, k, white, ctr, ob, db)
            if not kind:
                return None
        else:  # a man's step (Engine.quiet_step, inlined)
            if (ob, db) not in eng.man_step_pairs[white] or (own | opp) >> db & 1:
                return None
            kind = 2 if (eng.promo[0 if white else 1] >> db) & 1 else 1
        cache = eng.quiet_cache
        key = (origin, destination, kind)
        move = cache.get(key)
        if move is None:
            move = cache[key] = Move(origin, destination, (origin, destination), (), (),
                                     kind == 2, kind == 3)
        d = 1 << db
        nown = own ^ o | d
        if kind != 1:  # a king's move, or a man's step that crowns
            k = (k & ~o) | d
        if ctr is not None:
            ctr = next_counters(ctr, white, o, d, 0, kind == 3)
        p = object.__new__(Position)
        p.rules = self.rules
        p._k = k
        p._ctr = ctr
        p._eng = eng
        p._moves = None
        if white:
            p.side = Color.BLACK
            p._w = nown
            p._b = opp
        else:
            p.side = Color.WHITE
            p._w = opp
            p._b = nown
        return move, p

    def play_written(self, origin: int, destination: int) -> tuple[Move, Position] | None:
        """A move written as two squares, replayed: the capture that joins them when the side
        to move must capture (:meth:`_play_capture`), else the quiet move
        (:meth:`_play_quiet`); ``None`` when that does not settle it."""
        if self.side is Color.WHITE:
            if self._eng.has_capture(self._w, self._b, self._k, True):
                return self._play_capture(origin, destination)
        elif self._eng.has_capture(self._b, self._w, self._k, False):
            return self._play_capture(origin, destination)
        return self._play_quiet(origin, destination)

    def _play_capture(self, origin: int, destination: int) -> tuple[Move, Position] | None:
        """:meth:`capture_move` and :meth:`play` in one step: ``(move, position after)``, or
        ``None`` when no single legal capture joins the two squares."""
        eng = self._eng
        bit_of = eng.geometry.bit_of
        try:
            if origin < 1 or destination < 1:
                return None
            om = 1 << bit_of[origin]
            dm = 1 << bit_of[destination]
        except (IndexError, TypeError):
            return None
        if self.side is Color.WHITE:
            white = True
            own, opp = self._w, self._b
        else:
            white = False
            own, opp = self._b, self._w
        if not own & om:
            return None
        k = self._k
        found = None
        if not k and eng.men_only_precedence:
            # no king on the board: the men's routes, and only the count can rank them
            raw = eng.men_captures(own, opp, white)
            if eng.men_only_precedence == 2 and len(raw) > 1:
                most = max(r[2].bit_count() for r in raw)
            else:
                most = 0
            for r in raw:
                if r[0] == om and r[1] == dm and (not most or r[2].bit_count() == most):
                    if found is None:
                        found = r
                    elif r[2:4] != found[2:4]:
                        return None  # two different captures join the squares
        else:
            for r in eng.captures(own, opp, k, white, detail=True):
                if r[0] == om and r[1] == dm:
                    if found is not None:
                        return None
                    found = r
        if found is None:
            return None
        c = found[2]
        ends_king = found[3]
        key = (found, k & (c | om))
        move = eng.capture_cache.get(key)
        if move is None:
            _o, _d, c, ends_king, path, order = found
            sob = eng.geometry.square_of_bit
            is_king = bool(k & om)
            move = Move(origin, destination, tuple([sob[i] for i in path]),
                        tuple([sob[i] for i in order]),
                        tuple([sob[i] for i in order if (k >> i) & 1]) if k & c else (),
                        ends_king and not is_king, is_king)
            if len(eng.capture_cache) > 10_000:  # a few MB at most
                eng.capture_cache.clear()
            eng.capture_cache[key] = move
        return move, self._after(own, opp, k, white, om, dm, c, ends_king)

    def play(self, move: Move) -> Position:
        """The position after ``move``. The move is applied as given (no legality check, so an
        irregular move accepted in a game can be replayed); ``ValueError`` when the origin does
        not hold a piece of the side to move, the destination is occupied, or a captured square
        does not hold an opposing piece.
        """
        g = self._eng.geometry
        own, opp, k, white = self._state()
        try:
            o = 1 << g.bit_of[move.origin]
            d = 1 << g.bit_of[move.destination]
            c = g.mask_of(move.captured) if move.captured else 0
        except (IndexError, TypeError) as exc:
            raise ArgumentError(f"move {move} has squares off the board") from exc
        if not own & o:
            raise ArgumentError(f"square {move.origin} holds no piece of the side to move")
        if d != o and (own | opp & ~c) & d:  # (immediate removal: may land on a victim's square)
            raise ArgumentError(f"square {move.destination} is occupied")
        if c & ~opp:
            raise ArgumentError("a captured square holds no opposing piece")
        ends_king = bool(k & o) or move.promotes
        return self._after(own, opp, k, white, o, d, c, ends_king)

    def _after(self, own: int, opp: int, k: int, white: bool, o: int, d: int, c: int,
               ends_king: bool) -> Position:
        nown = (own ^ o) | d
        nopp = opp & ~c
        nk = k & ~(c | o)
        if ends_king:
            nk |= d
        ctr = self._ctr
        if ctr is not None:
            ctr = next_counters(ctr, white, o, d, c, bool(k & o))
        p = object.__new__(Position)
        p.rules = self.rules
        p._k = nk
        p._ctr = ctr
        p._eng = self._eng
        p._moves = None
        if white:
            p.side = Color.BLACK
            p._w = nown
            p._b = nopp
        else:
            p.side = Color.WHITE
            p._w = nopp
            p._b = nown
        return p

    def is_terminal(self) -> bool:
        """True when the side to move has no legal move (it loses, or wins in a losing game),
        or, in a variant won by the first king (``Rules.wins_on_promotion``), when a king
        stands on the board (the game is over: no side has a move).

        >>> from pdnkit.rules import get_rules, parse_fen
        >>> parse_fen("B:WK3,31:B10,20", get_rules("breakthrough")).is_terminal()
        True
        """
        own, opp, k, white = self._state()
        return self._eng.count(own, opp, k, white, self._ctr) == 0

    def winner(self) -> Color | None:
        """The side that has won by the rules alone in this position, or ``None`` while the
        game goes on. The side to move loses when it has no legal move (wins, in a losing
        game); in a variant won by the first king the side with a king has won (the side
        that just moved, should both have one).

        >>> from pdnkit.rules import get_rules, parse_fen
        >>> parse_fen("B:WK3,31:B10,20", get_rules("breakthrough")).winner()
        <Color.WHITE: 0>
        >>> parse_fen("B:WK3,31:B10,20", get_rules("international")).winner() is None
        True
        """
        if self.rules.wins_on_promotion and self._k:
            mover = self.side.opponent
            mine = self._w if mover is Color.WHITE else self._b
            return mover if mine & self._k else self.side
        if not self.is_terminal():
            return None
        return self.side if self.rules.losing_game else self.side.opponent

    # ------------------------------------------------------------------ dunder
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self._w == other._w
            and self._b == other._b
            and self._k == other._k
            and self.side == other.side
            and self._ctr == other._ctr
            and self.rules.name == other.rules.name
        )

    def __hash__(self) -> int:
        return hash((self._w, self._b, self._k, int(self.side), self._ctr))

    def __repr__(self) -> str:
        def part(men: frozenset[int], kings: frozenset[int]) -> str:
            items = [(n, "") for n in men] + [(n, "K") for n in kings]
            return ",".join(f"{p}{n}" for n, p in sorted(items))

        return (
            f"<Position {self.rules.name} {self.side}:W{part(self.white_men, self.white_kings)}"
            f":B{part(self.black_men, self.black_kings)}>"
        )


def next_counters(ctr: Counters, white: bool, o: int, d: int, c: int,
                   was_king: bool) -> Counters:
    """Frisian art. 17 counters after a move by ``white`` (see RULES.md 2.4): the king that
    made consecutive quiet moves and how many, per side (the perft walk keeps them too)."""
    me = 0 if white else 1
    mine_bit, mine_n = ctr[me]
    theirs = ctr[1 - me]
    if was_king and not c:
        ob = o.bit_length() - 1
        mine = (d.bit_length() - 1, mine_n + 1 if mine_bit == ob else 1)
    else:
        mine = (-1, 0)
    if theirs[0] >= 0 and (c >> theirs[0]) & 1:
        theirs = (-1, 0)
    return (mine, theirs) if white else (theirs, mine)


def _unpickle_position(rules: Rules, w: int, b: int, k: int, side: int,
                       ctr: Counters | None) -> Position:
    """A pickled :class:`Position` back (see ``Position.__reduce__``)."""
    return Position._make(rules, w, b, k, Color(side), ctr)
