"""The compiled retrograde solver and prober of endgame databases (``src/egdb.c``).

:class:`Retro` holds one variant's index and the databases added to it; :meth:`Retro.solve`
solves one material signature (every database a capture or a promotion leads to added
first), :meth:`Retro.probe` reads many positions at once. Positions pass as 56-byte records
(:func:`record`: the side to move and the white, black and king bitboards of PDN squares,
bit ``n - 1`` for square ``n``). :mod:`pdnkit.egdb` builds on it; the variant reaches C as the
core's table only, and :func:`retro_for` is ``None`` where the compiled core is not in use.

A code is one number for the side to move: ``0`` a draw, else ``1 + 2 * plies + win``.

Example:
    >>> from pdnkit.rules import get_rules
    >>> r = retro_for(get_rules("english"))
    >>> r is None or r.half((0, 1, 0, 1)) == 32 * 31
    True
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from pdnkit.core import compiled

if TYPE_CHECKING:
    from pdnkit.rules.variants import Rules

__all__ = ["BAD", "MISSING", "RECORD_SIZE", "Retro", "Solved", "record", "retro_for"]

#: a probe's code for a position no database added holds
MISSING = 0xFFFF
#: a probe's code for a record that is not a position of the index (a man on its promotion
#: row, more pieces than a signature holds, pieces off the board or on one square)
BAD = 0xFFFE
RECORD_SIZE = 56
_MASK = (1 << 64) - 1
_RECORD = struct.Struct("<7Q")
_INDEX = struct.Struct("<iQ")

Signature = tuple[int, int, int, int]


def record(side: int, white: int, black: int, kings: int) -> bytes:
    """One position as the compiled prober reads it (``side`` 0 White, 1 Black; bitboards of
    PDN squares).

    Example:
        >>> len(record(0, 1 << 9, 1 << 20, 1 << 9))
        56
    """
    return _RECORD.pack(side, white & _MASK, white >> 64, black & _MASK, black >> 64,
                        kings & _MASK, kings >> 64)


def unpack_record(data: bytes) -> tuple[int, int, int, int]:
    """``(side, white, black, kings)`` of a record.

    Example:
        >>> unpack_record(record(1, 3, 4, 1))
        (1, 3, 4, 1)
    """
    v = _RECORD.unpack(data)
    return v[0], v[1] | v[2] << 64, v[3] | v[4] << 64, v[5] | v[6] << 64


class Solved(NamedTuple):
    """One signature solved: its codes (both halves, ``width`` bytes each, little-endian)
    and what they hold."""

    codes: bytes
    width: int
    positions: int
    wins: int
    losses: int
    draws: int
    max_plies: int
    passes: int


class Retro:
    """The compiled index and solver of one variant (see the module's text)."""

    def __init__(self, ext: Any, handle: Any) -> None:
        self._ext = ext
        self._eg = handle

    def half(self, sig: Signature) -> int:
        """Slots per side to move of a signature (gaps included)."""
        return int(self._ext.egdb_half(self._eg, tuple(sig)))

    def set_men(self, white: Iterable[int], black: Iterable[int]) -> None:
        """The squares (PDN numbers) a man of each side may stand on, which the index
        numbers (default: every square but the side's promotion squares); before any
        :meth:`add` (``ValueError`` after)."""
        def words(squares: Iterable[int]) -> tuple[int, int]:
            mask = sum(1 << (n - 1) for n in set(squares))
            return mask & (2**64 - 1), mask >> 64

        self._ext.egdb_men(self._eg, words(white), words(black))

    def add(self, sig: Signature, width: int, data: Any) -> None:
        """Hold a signature's codes (any buffer: bytes, a memoryview of a mapped file)."""
        self._ext.egdb_add(self._eg, tuple(sig), width, data)

    def drop(self, sig: Signature) -> None:
        """Forget a signature's codes."""
        self._ext.egdb_drop(self._eg, tuple(sig))

    def solve(self, sig: Signature) -> Solved:
        """Solve one signature; every signature its captures and promotions lead to must
        have been added (``ValueError`` otherwise)."""
        codes, width, stats = self._ext.egdb_solve(self._eg, tuple(sig))
        return Solved(codes, width, *stats)

    @property
    def symmetric(self) -> bool:
        """Whether the variant's tables are the same for both colours under a half-turn of
        the board (checked from the tables, ``src/egdbsym.c``): then :meth:`mirror` may
        stand for :meth:`solve`."""
        return bool(self._ext.egdb_symmetric(self._eg))

    def board_symmetries(self, use: bool | None = None) -> tuple[int, int]:
        """How many board symmetries (turns and reflections keeping the colours, the
        identity included; checked from the tables, ``src/egdbsym.c``) :meth:`solve` uses for
        a signature with men and for kings alone: it solves one position of each class and
        reads the others off it; a signature that is its own colour-swapped one (K+M v K+M)
        takes each of them once more after the colour swap, where :attr:`symmetric`, and is
        solved on White's half. ``use``: turn them off (``False``: every position solved, the
        colour swap within a signature too) or on.

        Example:
            >>> from pdnkit.rules import get_rules
            >>> r = retro_for(get_rules("turkish"))
            >>> r is None or r.board_symmetries()
            (2, 8)
        """
        got = self._ext.egdb_board_symmetries(self._eg, -1 if use is None else int(use))
        return int(got[0]), int(got[1])

    def mirror(self, sig: Signature) -> Solved:
        """A signature's codes read off those of its mirror ``(bm, bk, wm, wk)`` (added
        before): the position turned half a turn, colours and side to move swapped, has the
        same value. ``ValueError`` when the variant is not :attr:`symmetric` or the mirror
        is missing."""
        codes, width, stats = self._ext.egdb_mirror(self._eg, tuple(sig))
        return Solved(codes, width, *stats)

    def probe(self, records: bytes) -> bytes:
        """The code of each record (``uint16`` little-endian each; :data:`MISSING`,
        :data:`BAD`)."""
        return bytes(self._ext.egdb_probe(self._eg, records))

    def index(self, records: bytes) -> list[tuple[int, int]]:
        """``(signature code, index)`` of each record (code ``-1``: not a position of the
        index); the code is ``((wm * 9 + wk) * 9 + bm) * 9 + bk``."""
        out = self._ext.egdb_index(self._eg, records)
        return [_INDEX.unpack_from(out, i) for i in range(0, len(out), _INDEX.size)]

    def decode(self, sig: Signature, side: int, idx: int) -> tuple[int, int, int, int] | None:
        """``(side, white, black, kings)`` of a slot, ``None`` for a gap."""
        data = self._ext.egdb_decode(self._eg, tuple(sig), side, idx)
        return None if data is None else unpack_record(data)


def retro_for(rules: Rules) -> Retro | None:
    """A new :class:`Retro` for ``rules``; ``None`` where the compiled core is not in use or
    cannot hold the variant. Raises ``ValueError`` when the index cannot hold the variant's
    positions (king-move counters).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> r = retro_for(get_rules("international"))
        >>> r is None or r.half((1, 0, 0, 0)) == 45
        True
    """
    made = compiled.egdb_set(rules)
    if made is None:
        return None
    return Retro(made[0], made[1])
