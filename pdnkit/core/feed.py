"""The draw rules fed from a core replay's arrays: :func:`push_replay`.

A :class:`~pdnkit.rules.draw.DrawTracker` made with ``int_keys=True`` takes the plies of a
:class:`~pdnkit.core.api.Replay` without a rules-engine position per ply: the move's class
comes from its flags, the position after it from the arrays (piece counts, position key and
square bitboards for the conditions that look at squares). The result is the tracker the
plies pushed one at a time would leave (``tests/core`` and ``tests/validate`` hold the two to
the same rule events).

Example:
    >>> from pdnkit.core import replay
    >>> from pdnkit.rules import DrawTracker, Position, get_rules
    >>> r = get_rules("international")
    >>> start = Position.initial(r)
    >>> rep = replay(r, start, ["32-28", "19-23", "28x19", "14x23"])
    >>> tracker = DrawTracker(r, start, int_keys=True)
    >>> push_replay(tracker, rep, 0, rep.plies, 0, False)
    >>> tracker.finish(4)
    []
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pdnkit.core.api import FLAG_CAPTURE, FLAG_KING, FLAG_PROMOTES, Replay

if TYPE_CHECKING:
    from pdnkit.rules.draw import DrawTracker
    from pdnkit.rules.variants import Rules

__all__ = ["ArrayMove", "ArrayPosition", "push_replay"]


class ArrayMove:
    """A ply's move as the draw tracker reads it (its class: capture, king, promotion)."""

    __slots__ = ("captured", "is_king", "promotes")

    def __init__(self, flags: int) -> None:
        self.captured = bool(flags & FLAG_CAPTURE)
        self.is_king = bool(flags & FLAG_KING)
        self.promotes = bool(flags & FLAG_PROMOTES)


class ArrayPosition:
    """The position after a ply of a replay, as the draw tracker reads one: piece counts,
    the position key, whether a king stands on the board (``_k``, read as a truth value) and
    the squares of each kind (for the conditions that look at squares)."""

    __slots__ = ("rules", "_k", "_key", "_counts", "_bits")

    def __init__(self, rules: Rules, counts: bytes, key: int,
                 bits: tuple[int, int, int, int]) -> None:
        self.rules = rules
        self._counts = counts
        self._key = key
        self._bits = bits
        self._k = bits[1] | bits[3]

    def counts(self) -> dict[str, int]:
        c = self._counts
        return {"white_men": c[0], "white_kings": c[1], "black_men": c[2], "black_kings": c[3]}

    def key(self) -> int:
        return self._key

    @staticmethod
    def _squares(mask: int) -> frozenset[int]:
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length())
            mask ^= low
        return frozenset(out)

    @property
    def white_men(self) -> frozenset[int]:
        return self._squares(self._bits[0])

    @property
    def white_kings(self) -> frozenset[int]:
        return self._squares(self._bits[1])

    @property
    def black_men(self) -> frozenset[int]:
        return self._squares(self._bits[2])

    @property
    def black_kings(self) -> frozenset[int]:
        return self._squares(self._bits[3])


def push_replay(tracker: DrawTracker, rep: Replay, i0: int, i1: int, ply0: int,
                start_black: bool) -> None:
    """Push the plies ``i0`` to ``i1 - 1`` of ``rep`` (game plies ``ply0 + 1`` on; the
    replay started with ``start_black`` to move) into ``tracker`` (made with
    ``int_keys=True``)."""
    if i1 <= i0:
        return
    rules = tracker.rules
    flags, counts = rep.flags, rep.counts
    for i in range(i0, i1):
        state = rep.position(i, start_black)
        after = ArrayPosition(rules, counts[4 * i:4 * i + 4], rep.key(i),
                              (state.wm, state.wk, state.bm, state.bk))
        tracker.push(ply0 + i - i0 + 1, ArrayMove(flags[i]), after)  # type: ignore[arg-type]
