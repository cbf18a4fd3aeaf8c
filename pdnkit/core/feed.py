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

from array import array
from typing import TYPE_CHECKING, Any

from pdnkit.core import compiled
from pdnkit.core.api import FLAG_CAPTURE, FLAG_KING, FLAG_PROMOTES, Replay

if TYPE_CHECKING:
    from pdnkit.rules.draw import DrawTracker
    from pdnkit.rules.variants import DrawRule, Rules

__all__ = ["ArrayMove", "ArrayPosition", "SPEC_MAGIC", "draw_spec", "push_replay",
           "push_replay_python"]

#: the first word of a draw spec (src/draw.h DRAW_MAGIC)
SPEC_MAGIC = 0x44524157
#: the move classes of ``DrawRule.resets`` as the compiled loop numbers them
_RESETS = {"capture": 1, "man_move": 2, "promotion": 4, "material_change": 0}
_NO_PATTERN = ((0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0), (0, 0), False)
#: id(rules) -> (rules, spec)
_SPECS: dict[int, tuple[Any, bytes]] = {}


def draw_spec(rules: Rules, slots: list[DrawRule]) -> bytes:
    """The compiled draw loop's spec of ``rules`` (its rules in the tracker's order
    ``slots``): per rule its kind, limit, resets and material condition as data
    (:class:`~pdnkit.rules.draw.CountPattern`), and the board's main road.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> r = get_rules("russian")
        >>> len(draw_spec(r, list(r.draw_rules))) // 8 == 4 + 19 * len(r.draw_rules)
        True
    """
    hit = _SPECS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    from pdnkit.rules.draw import MATERIAL_CONDITIONS, main_road_squares

    road = 0
    for n in main_road_squares(rules):
        road |= 1 << (n - 1)
    out = array("q", [SPEC_MAGIC, len(slots), _signed(road & (1 << 64) - 1),
                      _signed(road >> 64)])
    for rule in slots:
        cond = MATERIAL_CONDITIONS[rule.material]
        pattern = cond.pattern if cond.pattern is not None else _NO_PATTERN
        side, other, total, on_road = pattern
        out.extend((0 if rule.kind == "repetition" else 1, int(rule.limit),
                    sum(_RESETS[e] for e in rule.resets), int(cond.always)))
        out.extend(side)
        out.extend(other)
        out.extend(total)
        out.append(int(on_road))
    spec = out.tobytes()
    _SPECS[id(rules)] = (rules, spec)
    return spec


def _signed(word: int) -> int:
    return word - (1 << 64) if word >= 1 << 63 else word


class ArrayMove:
    """A ply's move as the draw tracker reads it (its class: capture, king, promotion)."""

    __slots__ = ("captured", "is_king", "promotes")

    def __init__(self, flags: int) -> None:
        self.captured = bool(flags & FLAG_CAPTURE)
        self.is_king = bool(flags & FLAG_KING)
        self.promotes = bool(flags & FLAG_PROMOTES)


class ArrayPosition:
    """The position after a ply of a replay, as the draw tracker reads one: piece counts,
    the position key (also its repetition key), whether a king stands on the board and the
    squares of each kind (for the conditions that look at squares)."""

    __slots__ = ("rules", "has_kings", "_key", "_counts", "_bits")

    def __init__(self, rules: Rules, counts: bytes, key: int,
                 bits: tuple[int, int, int, int]) -> None:
        self.rules = rules
        self._counts = counts
        self._key = key
        self._bits = bits
        self.has_kings = bool(bits[1] | bits[3])

    def counts(self) -> dict[str, int]:
        c = self._counts
        return {"white_men": c[0], "white_kings": c[1], "black_men": c[2], "black_kings": c[3]}

    def key(self) -> int:
        return self._key

    @property
    def repetition_key(self) -> int:
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
    ``int_keys=True``): in one call of the compiled draw loop where the extension is
    loaded, else one :meth:`~pdnkit.rules.draw.DrawTracker.push` a ply."""
    if i1 <= i0:
        return
    run = compiled.draw_run()
    if run is None or tracker.last_ply != ply0:
        push_replay_python(tracker, rep, i0, i1, ply0, start_black)
        return
    slots = tracker.slots
    if not slots:
        tracker.import_state(b"", b"", b"", ply0 + i1 - i0)
        return
    state, entry, events = run(draw_spec(tracker.rules, slots), tracker.export_state(),
                               rep.flags, rep.counts, rep.keys, rep.bits, rep.bits_high,
                               i0, i1, ply0)
    tracker.import_state(state, entry, events, ply0 + i1 - i0)


def push_replay_python(tracker: DrawTracker, rep: Replay, i0: int, i1: int, ply0: int,
                       start_black: bool) -> None:
    """:func:`push_replay` one :meth:`~pdnkit.rules.draw.DrawTracker.push` a ply (the
    reference the compiled loop is tested against)."""
    if i1 <= i0:
        return
    rules = tracker.rules
    flags, counts = rep.flags, rep.counts
    for i in range(i0, i1):
        state = rep.position(i, start_black)
        after = ArrayPosition(rules, counts[4 * i:4 * i + 4], rep.key(i),
                              (state.wm, state.wk, state.bm, state.bk))
        tracker.push(ply0 + i - i0 + 1, ArrayMove(flags[i]), after)
