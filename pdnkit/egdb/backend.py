"""Who solves and probes: the compiled core, else the pure-Python reference.

A :class:`Backend` holds the signatures loaded so far, solves a new one from them and reads
the codes of many positions at once. :func:`backend_for` gives the compiled one
(:class:`~pdnkit.core.retro.Retro`, ``pdnkit/core/src/egdb.c``) where the compiled core is in
use and the pure one (:mod:`pdnkit.egdb.reference`) otherwise; both give the same codes, slot
for slot (``tests/egdb``).

Example:
    >>> from pdnkit.rules import get_rules
    >>> from pdnkit.egdb.index import Signature
    >>> b = backend_for(get_rules("english"))
    >>> t = b.solve(Signature(0, 1, 0, 0))
    >>> t.positions, t.wins, t.losses, t.longest
    (64, 32, 32, 1)
"""

from __future__ import annotations

import array
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from pdnkit.core.api import state_of
from pdnkit.egdb.files import EgdbError, Table
from pdnkit.egdb.index import Signature, layout_of

if TYPE_CHECKING:
    from pdnkit.core.retro import Retro, Solved
    from pdnkit.rules.position import Move, Position
    from pdnkit.rules.variants import Rules

__all__ = ["MISSING", "NOT_INDEXED", "Backend", "CompiledBackend", "PureBackend",
           "backend_for", "bits_after", "codes_of", "placement_bits", "table_from_codes"]

#: the code of a position no loaded signature holds
MISSING = 0xFFFF
#: the code of a position outside the index (a man on its promotion row or
#: a square no man of its side reaches, too many pieces)
NOT_INDEXED = 0xFFFE


class Backend(Protocol):
    """What the builder and the prober need of a solver."""

    def add(self, sig: Signature, table: Table) -> None:
        """Hold a solved signature (what :meth:`solve` and :meth:`codes` read)."""

    def has(self, sig: Signature) -> bool:
        """Whether a signature is held."""

    def solve(self, sig: Signature) -> Table:
        """Solve one signature (every signature its captures and promotions lead to held)."""

    def mirror(self, sig: Signature) -> Table | None:
        """The signature's table read off its mirror's (held), where the variant is the same
        for both colours; ``None`` where it cannot be."""

    def codes(self, bits: Sequence[tuple[int, int, int, int]]) -> list[int]:
        """The code of each position ``(side, white, black, kings)`` (PDN square bitboards):
        :data:`MISSING`, :data:`NOT_INDEXED` where there is none."""


def codes_of(table: Table) -> Sequence[int]:
    """A table's codes as numbers, slot by slot.

    Example:
        >>> list(codes_of(Table(b"\\x05\\x00\\x01\\x01", 2, 1, 2, 0, 2, 0, 2)))
        [5, 257]
    """
    if table.width == 1:
        return memoryview(table.codes).cast("B")
    out = array.array("H")
    out.frombytes(bytes(table.codes))
    if sys.byteorder == "big":  # pragma: no cover - the files are little-endian
        out.byteswap()
    return out


def table_from_codes(codes: Sequence[int], half: int) -> Table:
    """A :class:`Table` from codes (``0`` for a gap as for a draw: gaps are counted by the
    index, not here).

    Example:
        >>> table_from_codes([4, 0, 1, 7], 2)
        Table(codes=b'\\x04\\x00\\x01\\x07', width=1, half=2, positions=4, wins=1, losses=2, draws=1, longest=3)
    """
    top = max(codes, default=0)
    width = 1 if top < 256 else 2
    raw = array.array("B" if width == 1 else "H", codes)
    if width == 2 and sys.byteorder == "big":  # pragma: no cover
        raw.byteswap()
    wins = sum(1 for c in codes if c and (c - 1) & 1)
    losses = sum(1 for c in codes if c and not (c - 1) & 1)
    longest = max(((c - 1) >> 1 for c in codes if c), default=0)
    return Table(raw.tobytes(), width, half, len(codes), wins, losses,
                 len(codes) - wins - losses, longest)


def placement_bits(position: Position) -> tuple[int, int, int, int]:
    """``(side, white, black, kings)`` of a position as PDN square bitboards.

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> placement_bits(parse_fen("B:W5:BK2", get_rules("english")))
        (1, 16, 2, 2)
    """
    s = state_of(position)
    return int(s.black), s.wm | s.wk, s.bm | s.bk, s.wk | s.bk


def bits_after(bits: tuple[int, int, int, int], move: Move) -> tuple[int, int, int, int]:
    """``(side, white, black, kings)`` after ``move`` (a legal move of the side to move):
    the piece from its origin to its destination, crowned if it promotes, the captured
    pieces taken off.

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> p = parse_fen("W:W10:B7", get_rules("english"))
        >>> bits_after(placement_bits(p), p.legal_moves()[0]) == placement_bits(
        ...     p.play(p.legal_moves()[0]))
        True
    """
    side, white, black, kings = bits
    o, d = 1 << (move.origin - 1), 1 << (move.destination - 1)
    taken = 0
    for c in move.captured:
        taken |= 1 << (c - 1)
    own, opp = (white, black) if side == 0 else (black, white)
    own = (own & ~o) | d
    opp &= ~taken
    crowned = move.is_king or move.promotes
    kings = (kings & ~taken & ~o) | (d if crowned else 0)
    return (1 - side, own, opp, kings) if side == 0 else (1 - side, opp, own, kings)


class CompiledBackend:
    """The compiled solver and prober (:class:`pdnkit.core.retro.Retro`)."""

    def __init__(self, retro: Retro) -> None:
        self.retro = retro
        self.held: set[Signature] = set()

    def add(self, sig: Signature, table: Table) -> None:
        self.retro.add(sig, table.width, table.codes)
        self.held.add(sig)

    def has(self, sig: Signature) -> bool:
        return sig in self.held

    def solve(self, sig: Signature) -> Table:
        return _table(self.retro.solve(sig))

    def mirror(self, sig: Signature) -> Table | None:
        other = Signature(sig.bm, sig.bk, sig.wm, sig.wk)
        if other == sig or other not in self.held or not self.retro.symmetric:
            return None
        return _table(self.retro.mirror(sig))

    def codes(self, bits: Sequence[tuple[int, int, int, int]]) -> list[int]:
        from pdnkit.core.retro import record

        out = self.retro.probe(b"".join(record(*b) for b in bits))
        return list(memoryview(out).cast("H"))

    def codes_raw(self, records: bytes) -> bytes:
        """The codes of 56-byte records (:func:`pdnkit.core.retro.record`), two bytes each."""
        return self.retro.probe(records)


def _table(s: Solved) -> Table:
    return Table(s.codes, s.width, len(s.codes) // (2 * s.width), s.positions, s.wins,
                 s.losses, s.draws, s.max_plies)


class PureBackend:
    """The pure-Python reference (:mod:`pdnkit.egdb.reference`)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.tables: dict[Signature, Sequence[int]] = {}

    def add(self, sig: Signature, table: Table) -> None:
        self.tables[sig] = codes_of(table)

    def has(self, sig: Signature) -> bool:
        return sig in self.tables

    def solve(self, sig: Signature) -> Table:
        from pdnkit.egdb.reference import lookup_in, solve

        codes = solve(self.rules, sig, lookup_in(self.rules, self.tables))
        table = table_from_codes(codes, layout_of(self.rules).half(sig))
        gaps = 2 * table.half - 2 * layout_of(self.rules).positions(sig)
        return table._replace(positions=table.positions - gaps, draws=table.draws - gaps)

    def mirror(self, sig: Signature) -> Table | None:
        return None  # the reference solves every signature itself

    def codes(self, bits: Sequence[tuple[int, int, int, int]]) -> list[int]:
        lay = layout_of(self.rules)
        out = []
        for side, white, black, kings in bits:
            sq = [_squares(white & ~kings), _squares(white & kings), _squares(black & ~kings),
                  _squares(black & kings)]
            found = lay.index(*sq) if sum(map(len, sq)) <= 8 else None
            if found is None:
                out.append(NOT_INDEXED)
            elif found[0] not in self.tables:
                out.append(MISSING)
            else:
                out.append(self.tables[found[0]][side * lay.half(found[0]) + found[1]])
        return out


def _squares(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return out


def backend_for(rules: Rules) -> Backend:
    """The compiled backend where the compiled core is in use, else the pure one. Raises
    :class:`~pdnkit.egdb.files.EgdbError` for a variant the index cannot hold (king-move
    counters).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> type(backend_for(get_rules("russian"))).__name__ in ("CompiledBackend", "PureBackend")
        True
    """
    if rules.king_move_limit:
        raise EgdbError(
            f"{rules.name} has no endgame databases: its king-move counters (a king may make "
            f"at most {rules.king_move_limit} quiet moves in a row) are part of a position, "
            "and the index has no place for them")
    from pdnkit.core.retro import retro_for

    retro = retro_for(rules)
    if retro is not None:
        retro.set_men(*layout_of(rules).man_squares)  # the index of pdnkit.egdb.index
        return CompiledBackend(retro)
    return PureBackend(rules)
