"""Draw and endgame rules: material conditions, move classes and the per-game draw tracker.

Every variant lists its draw rules as data (``Rules.draw_rules``, a tuple of ``DrawRule``
records, see :mod:`pdnkit.rules.variants`). This module runs them over a game, ply by ply,
with one generic machine (RULES.md 4.1):

* each complete move is classified (:func:`move_events`): ``capture``, ``man_move`` (a man
  moved, including a move that promotes), ``promotion``, ``king_quiet``;
* a *repetition* rule keeps a table of position keys (placement + side to move) since the last
  move in its ``resets`` set; the starting position counts as the first occurrence. The rule
  is reached when one key occurs ``limit`` times;
* a *counter* rule runs while its material condition (:data:`MATERIAL_CONDITIONS`) holds after
  the move. The count (re)starts at 0 on the move that enters the condition (that move is not
  counted) and on every move whose class is in ``resets``; every other move adds one ply. The
  rule is reached when the count equals ``limit`` (plies);
* several rules run at once; each activation becomes a :class:`RuleEvent`, and the first one
  reached decides (``first_reached``).

Example:
    >>> MATERIAL_CONDITIONS["kings-only-2-vs-1"](
    ...     {"white_men": 0, "white_kings": 2, "black_men": 0, "black_kings": 1})
    True
    >>> MATERIAL_CONDITIONS["lone-king-vs-3-with-king"](
    ...     {"white_men": 3, "white_kings": 0, "black_men": 0, "black_kings": 1})
    False
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Protocol

from pdnkit.errors import ArgumentError
from pdnkit.rules.material import (
    ANY,
    MATERIAL_CONDITIONS,
    CountPattern,
    MaterialCondition,
    Placement,
    main_road_squares,
    material_holds,
)

if TYPE_CHECKING:  # pragma: no cover - typing only
    from pdnkit.rules.position import Move
    from pdnkit.rules.variants import DrawRule, Rules

class TrackedMove(Protocol):
    """What the tracker reads of a move: its class (a :class:`~pdnkit.rules.Move`, or the
    compiled replay's flags of a ply)."""

    @property
    def captured(self) -> object: ...  # true when the move captures
    @property
    def is_king(self) -> bool: ...
    @property
    def promotes(self) -> bool: ...


class TrackedPosition(Placement, Protocol):
    """What the tracker reads of a position after a ply: its squares and counts
    (:class:`~pdnkit.rules.material.Placement`), its signed key, its repetition key
    (placement and side to move; ``key()`` where keys are ints) and whether a king stands on
    the board (a :class:`~pdnkit.rules.Position`, or the compiled replay's light position)."""

    def key(self) -> int: ...
    @property
    def repetition_key(self) -> Hashable: ...
    @property
    def has_kings(self) -> bool: ...


__all__ = [
    "ANY",
    "MATERIAL_CONDITIONS",
    "CountPattern",
    "MOVE_EVENTS",
    "DrawTracker",
    "RuleEvent",
    "TrackedMove",
    "TrackedPosition",
    "main_road_squares",
    "material_holds",
    "move_events",
    "run_events",
]

#: Every move-class event a ``DrawRule.resets`` set may name.
MOVE_EVENTS: frozenset[str] = frozenset({"capture", "man_move", "promotion", "king_quiet"})

#: Reset events understood by the tracker (``material_change``: the condition was newly
#: entered, which always (re)starts a count).
RESET_EVENTS: frozenset[str] = frozenset({"capture", "man_move", "promotion", "material_change"})



# --------------------------------------------------------------------------------------------
# Move classes
# --------------------------------------------------------------------------------------------


def move_events(move: Move | None) -> frozenset[str]:
    """The draw-rule events of one complete move (RULES.md 4.1 step 1).

    ``capture`` (at least one piece taken), ``man_move`` (a man moved; a promotion and a
    man's capture are man moves too), ``promotion``, ``king_quiet`` (a king moved without
    capturing). ``None`` stands for a move whose class is unknown (an irregular move accepted
    as played): it counts as a capture, a man move and a promotion, so every count restarts.

    >>> from types import SimpleNamespace as M
    >>> sorted(move_events(M(is_capture=True, is_king=False, promotes=True)))
    ['capture', 'man_move', 'promotion']
    >>> sorted(move_events(M(is_capture=False, is_king=True, promotes=False)))
    ['king_quiet']
    """
    if move is None:
        return _UNKNOWN_MOVE
    capture = bool(move.is_capture)
    if move.is_king:
        return _KING_CAPTURE if capture else _KING_QUIET
    if move.promotes:
        return _MAN_CAPTURE_PROMOTION if capture else _MAN_PROMOTION
    return _MAN_CAPTURE if capture else _MAN_MOVE


_UNKNOWN_MOVE = frozenset({"capture", "man_move", "promotion"})
_KING_CAPTURE = frozenset({"capture"})
_KING_QUIET = frozenset({"king_quiet"})
_MAN_CAPTURE_PROMOTION = frozenset({"capture", "man_move", "promotion"})
_MAN_PROMOTION = frozenset({"man_move", "promotion"})
_MAN_CAPTURE = frozenset({"capture", "man_move"})
_MAN_MOVE = frozenset({"man_move"})


# --------------------------------------------------------------------------------------------
# Rule events and the tracker
# --------------------------------------------------------------------------------------------


@dataclass
class RuleEvent:
    """One activation of a draw rule during a game (a row of the ``rule_events`` table).

    ``start_ply``: ply after which the count started (0 = the starting position);
    ``limit_plies``: the rule's limit in plies (``None`` for repetition rules, whose limit is a
    number of occurrences); ``deadline_ply``: ply at which the rule draws the game if nothing
    resets it (for repetition: the ply it was reached, else ``None``); ``reached_ply``: ply at
    which the limit was reached (``None``: never); ``end_ply``: ply at which the rule stopped
    applying (reset, material left the condition, or game end; ``None`` while still running).

    >>> e = RuleEvent("fmjd-6.4", "FMJD 6.4", True, 40, 10, 50)
    >>> e.reached, e.to_dict()["deadline_ply"]
    (False, 50)
    """

    rule: str
    article: str
    automatic: bool
    start_ply: int
    limit_plies: int | None
    deadline_ply: int | None
    reached_ply: int | None = None
    end_ply: int | None = None
    #: the rule's :attr:`~pdnkit.rules.variants.DrawRule.source` tag (RULES.md section 0);
    #: not a ``rule_events`` column (the ``variants`` table's settings hold it)
    source: str = "P"

    @property
    def reached(self) -> bool:
        """True when the rule's limit was reached during this activation."""
        return self.reached_ply is not None

    def to_dict(self) -> dict[str, Any]:
        """The event as a plain dict (keys = ``rule_events`` columns, without ``game_id``)."""
        row = asdict(self)
        del row["source"]
        return row


class _Counter:
    """State of one counter rule."""

    __slots__ = ("rule", "cond", "resets", "limit", "running", "count", "start_ply", "event",
                 "needs_kings", "always")

    def __init__(self, rule: DrawRule, cond: MaterialCondition,
                 resets: frozenset[str] | None = None) -> None:
        self.rule = rule
        self.cond = cond
        self.needs_kings = cond.needs_kings
        self.always = cond.always
        self.resets = frozenset(rule.resets) if resets is None else resets
        self.limit = int(rule.limit)
        self.running = False  # the material condition held after the previous move
        self.count = 0
        self.start_ply = 0
        self.event: RuleEvent | None = None  # published activation (count >= 1)


class _Repetition:
    """State of one repetition rule: key -> [occurrences, ply of first occurrence]."""

    __slots__ = ("rule", "resets", "limit", "table", "event")

    def __init__(self, rule: DrawRule, resets: frozenset[str] | None = None) -> None:
        self.rule = rule
        self.resets = frozenset(rule.resets) if resets is None else resets
        self.limit = int(rule.limit)
        self.table: dict[object, list[int]] = {}
        self.event: RuleEvent | None = None  # open activation (some key occurred twice)


class DrawTracker:
    """Runs a variant's draw rules over one game, one complete move at a time.

    ``DrawTracker(rules, start_position, halfmove=None)``; call ``push(ply, move,
    position_after)`` after every ply of the main line (ply 1 = first move), then
    ``finish(last_ply)``. ``halfmove`` (a lidraughts FEN ``H`` clock, RULES.md 4.3) seeds the
    count of every counter rule running in the start position; the repetition history before a
    set-up position is unknown and taken as empty (the start position is its first occurrence).
    ``start_ply`` is the ply after which ``start_position`` stands (0 for the game's start; the
    ply before a ``/FEN "..."/`` setup inside the movetext): the first ``push`` is then
    ``start_ply + 1``. ``int_keys=True`` takes ``Position.key()`` as the repetition key (the
    key the compiled core gives for each ply, :func:`pdnkit.core.feed.push_replay`).

    A counter activation is recorded in ``events`` once it has counted at least one ply (a
    rule restarted by every man move does not leave a row per man move); a repetition
    activation is recorded when a position occurs for the second time since the last reset.

    Example (FMJD 6.4: two kings against one king, drawn after 5 moves each):

    >>> from pdnkit.rules import Position, get_rules
    >>> rules = get_rules("international")
    >>> pos = Position.from_squares(rules, "W", white_kings=(47, 50), black_kings=(3,))
    >>> tracker = DrawTracker(rules, pos)
    >>> shuffle = [(47, 42), (3, 8), (42, 47), (8, 3)] * 3
    >>> for ply, (a, b) in enumerate(shuffle[:10], start=1):
    ...     move = next(m for m in pos.legal_moves() if (m.origin, m.destination) == (a, b))
    ...     pos = pos.play(move)
    ...     reached = tracker.push(ply, move, pos)
    >>> [(e.rule, e.reached_ply) for e in reached]
    [('fmjd-6.4', 10)]
    >>> tracker.first_reached().rule    # the third occurrence (ply 8) came first
    'fmjd-6.1'
    >>> [e.rule for e in tracker.finish(10)]
    ['fmjd-6.2', 'fmjd-6.4', 'fmjd-6.1']
    """

    def __init__(
        self,
        rules: Rules,
        start_position: TrackedPosition,
        halfmove: int | None = None,
        *,
        start_ply: int = 0,
        int_keys: bool = False,
    ) -> None:
        if halfmove is not None and halfmove < 0:
            raise ArgumentError(f"halfmove must be >= 0, got {halfmove}")
        if start_ply < 0:
            raise ArgumentError(f"start_ply must be >= 0, got {start_ply}")
        self.rules = rules
        #: repetition keys are ``Position.key()`` values (as the compiled core gives them
        #: for its plies), so positions of the core and of the rules engine compare alike
        self.int_keys = int_keys
        self._counters: list[_Counter] = []
        self._repetitions: list[_Repetition] = []
        self._events: list[RuleEvent] = []
        self._last_ply = start_ply
        self._finished = False
        # per move class, by whether no king is left after the move: see _plan (shared by
        # the trackers of one rules record: a plan depends on its draw rules alone)
        shared = _PLANS.get(id(rules))
        if shared is None or shared[0] is not rules:
            shared = _PLANS[id(rules)] = (rules, ({}, {}))
        self._plans: tuple[dict[frozenset[str], Any], dict[frozenset[str], Any]] = shared[1]
        self._fresh: tuple[int, Any] | None = None  # (ply, key) of the last full reset
        #: the state as the compiled core's draw run left it (import_state), read into the
        #: counters and tables when Python needs them again (_unpack)
        self._packed: bytes | None = None
        reps, ctrs = _slots_of(rules)
        for rule, resets in reps:
            self._repetitions.append(_Repetition(rule, resets))
        for rule, cond, resets in ctrs:
            self._counters.append(_Counter(rule, cond, resets))
        #: the slots of the state blobs in order (repetition rules, then counters)
        self._slot_objs: list[_Repetition | _Counter] = [*self._repetitions, *self._counters]
        # The start position: first occurrence for repetition; running counters are seeded.
        key, holds, ck = _start_of(rules, start_position, int_keys, self._counters)
        for rep in self._repetitions:
            rep.table[key] = [1, start_ply]
        for c, held in zip(self._counters, holds):  # noqa: B905
            if held:
                c.running = True
                c.start_ply = start_ply
                c.count = int(halfmove or 0)
                if c.count >= 1:
                    self._publish(c, start_ply)
                    if c.count >= c.limit and c.event is not None:
                        c.event.reached_ply = start_ply
        #: the key of this start state's export (export_state) while nothing changed it
        self._start_state: tuple[Any, ...] | None = None
        if int_keys and not self._events:
            sk = (*ck, start_ply)
            hit = _START_STATES.get(sk)
            if hit is not None and hit[0] is rules:
                self._packed = hit[1]
            else:
                self._start_state = sk

    # -- public API -------------------------------------------------------------------------

    @property
    def events(self) -> list[RuleEvent]:
        """Every recorded activation so far, in the order they were recorded."""
        return list(self._events)

    def push(self, ply: int, move: TrackedMove | None, position_after: TrackedPosition
             ) -> list[RuleEvent]:
        """Account for the move played at ``ply`` (1-based) that led to ``position_after``.

        Returns the events whose limit was reached at exactly this ply (usually none).
        ``move=None`` marks a move of unknown class (irregular, accepted as played): every
        count restarts and the repetition history is cleared (the conservative choice: no
        draw is ever reported early because of a move pdnkit could not classify).
        """
        if self._finished:
            raise ArgumentError("DrawTracker.push() after finish()")
        if ply <= self._last_ply:
            raise ArgumentError(f"plies must increase: got {ply} after {self._last_ply}")
        self._last_ply = ply
        self._start_state = None
        if self._packed is not None:
            self._unpack()
        unknown = move is None
        if move is None:
            happened = _UNKNOWN_MOVE
        else:  # move_events(move), inlined
            capture = bool(move.captured)
            if move.is_king:
                happened = _KING_CAPTURE if capture else _KING_QUIET
            elif move.promotes:
                happened = _MAN_CAPTURE_PROMOTION if capture else _MAN_PROMOTION
            else:
                happened = _MAN_CAPTURE if capture else _MAN_MOVE
        kingless = not position_after.has_kings
        if unknown:
            resets, full = self._plan(happened, kingless, True)
        else:
            plans = self._plans[kingless]
            plan = plans.get(happened)
            if plan is None:
                plan = plans[happened] = self._plan(happened, kingless, False)
            resets, full = plan
        key: Any = None
        if self._repetitions:
            key = position_after.key() if self.int_keys else position_after.repetition_key
        if self._fresh is not None:
            if full:  # from one full reset to the next: nothing else changes
                self._fresh = (ply, key)
                return []
            self._materialize()
        reached: list[RuleEvent] = []

        if self._repetitions:
            for rep, reset in zip(self._repetitions, resets[0]):  # noqa: B905
                table = rep.table
                if unknown or reset:
                    if rep.event is not None:
                        rep.event.end_ply = ply
                        rep.event = None
                    if table:
                        table.clear()
                    table[key] = [1, ply]
                    continue
                entry = table.get(key)
                if entry is None:
                    table[key] = [1, ply]
                    continue
                entry[0] += 1
                if rep.event is None:
                    rep.event = RuleEvent(
                        rep.rule.name, rep.rule.article, bool(rep.rule.automatic),
                        start_ply=entry[1], limit_plies=None, deadline_ply=None,
                        source=rep.rule.source,
                    )
                    self._events.append(rep.event)
                if entry[0] >= rep.limit and rep.event.reached_ply is None:
                    rep.event.reached_ply = ply
                    rep.event.deadline_ply = ply
                    reached.append(rep.event)

        if self._counters:
            counts = None
            for c, reset in zip(self._counters, resets[1]):  # noqa: B905
                if c.always:
                    holds = True
                elif kingless and c.needs_kings:
                    holds = False
                else:
                    if counts is None:
                        counts = position_after.counts()
                    holds = c.cond.test(counts, position_after)
                if not holds:
                    if c.running:
                        self._close(c, ply)
                        c.running = False
                    continue
                if not c.running or unknown or reset:
                    if c.event is not None:
                        c.event.end_ply = ply
                        c.event = None
                    c.running = True
                    c.count = 0
                    c.start_ply = ply
                    continue
                c.count += 1
                if c.event is None:
                    self._publish(c, ply)
                if c.count == c.limit and c.event is not None and c.event.reached_ply is None:
                    c.event.reached_ply = ply
                    reached.append(c.event)
        if full:
            self._fresh = (ply, key)
        return reached

    def _plan(self, happened: frozenset[str], kingless: bool, unknown: bool
              ) -> tuple[tuple[tuple[bool, ...], tuple[bool, ...]], bool]:
        """For a move class (and whether the position after it has no king): which
        repetition and counter rules the move resets, and whether it is a *full reset*: every
        repetition rule restarts and every counter rule restarts or cannot hold. After a full
        reset the whole state is (ply, position key), so a run of them is tracked lazily."""
        rep_resets = tuple(unknown or bool(happened & r.resets) for r in self._repetitions)
        ctr_resets = tuple(unknown or bool(happened & c.resets) for c in self._counters)
        full = all(rep_resets) and all(
            (c.always and reset) or (not c.always and c.needs_kings and kingless)
            for c, reset in zip(self._counters, ctr_resets, strict=True))
        return (rep_resets, ctr_resets), full

    def _materialize(self) -> None:
        """Write out the state a run of full resets left (see :meth:`_plan`)."""
        assert self._fresh is not None
        ply, key = self._fresh
        self._fresh = None
        for rep in self._repetitions:
            rep.table.clear()
            rep.table[key] = [1, ply]
        for c in self._counters:
            if c.always:
                c.running = True
                c.count = 0
                c.start_ply = ply
            else:
                c.running = False

    def first_reached(self, automatic_only: bool = False) -> RuleEvent | None:
        """The event whose limit was reached earliest (ties: the order of
        ``Rules.draw_rules``), or ``None``. With ``automatic_only`` claims are ignored."""
        order = {r.name: i for i, r in enumerate(self.rules.draw_rules)}
        best: RuleEvent | None = None
        best_key: tuple[int, int] | None = None
        for e in self._events:
            if e.reached_ply is None or (automatic_only and not e.automatic):
                continue
            k = (e.reached_ply, order.get(e.rule, len(order)))
            if best_key is None or k < best_key:
                best, best_key = e, k
        return best

    def finish(self, last_ply: int) -> list[RuleEvent]:
        """Close every running activation at ``last_ply`` (the game's last ply, 0 for a game
        without moves) and return all events. Calling it again changes nothing."""
        if not self._finished:
            self._finished = True
            for e in self._events:
                if e.end_ply is None:
                    e.end_ply = last_ply
        return self.events

    def counts(self) -> dict[str, int | None]:
        """Current count of every counter rule (``None`` while its condition does not hold)
        and, for repetition rules, the highest occurrence count in the current table."""
        if self._fresh is not None:
            self._materialize()
        if self._packed is not None:
            self._unpack()
        out: dict[str, int | None] = {}
        for rep in self._repetitions:
            out[rep.rule.name] = max((v[0] for v in rep.table.values()), default=0)
        for c in self._counters:
            out[c.rule.name] = c.count if c.running else None
        return out

    # -- the compiled core's turn ----------------------------------------------------------

    @property
    def slots(self) -> list[DrawRule]:
        """The rules in the order of the state blobs: repetition rules, then counters."""
        return [obj.rule for obj in self._slot_objs]

    @property
    def last_ply(self) -> int:
        """The last ply pushed (the start ply before any)."""
        return self._last_ply

    def export_state(self) -> bytes:
        """The tracker's state as the compiled core's draw run reads it (int64s, machine
        order): per slot (:attr:`slots`) the open activation (open, start, deadline,
        reached; -1 for none), then a counter's running, count and start ply, or a
        repetition rule's table (its size, then key, occurrences and first ply of each
        entry). Only for a tracker made with ``int_keys=True``.

        Example:
            >>> from pdnkit.rules import Position, get_rules
            >>> r = get_rules("frisian")
            >>> t = DrawTracker(r, Position.initial(r), int_keys=True)
            >>> [r.kind for r in t.slots], len(t.export_state()) // 8  # two counters: 4 + 3 each
            (['counter', 'counter'], 14)
        """
        if not self.int_keys:
            raise ArgumentError("export_state needs a tracker made with int_keys=True")
        if self._fresh is not None:
            self._materialize()
        if self._packed is not None:
            return self._packed
        from array import array

        out = array("q")
        for rep in self._repetitions:
            _put_event(out, rep.event)
            out.append(len(rep.table))
            for key, (n, first) in rep.table.items():
                out.extend((key, n, first))  # type: ignore[arg-type]
        for c in self._counters:
            _put_event(out, c.event)
            out.extend((int(c.running), c.count, c.start_ply))
        blob = out.tobytes()
        if self._start_state is not None:  # still the state it was made with
            if len(_START_STATES) >= 4096:
                _START_STATES.clear()
            _START_STATES[self._start_state] = (self.rules, blob)
            self._start_state = None
        return blob

    def import_state(self, state: bytes, entry: bytes, events: bytes, last_ply: int) -> None:
        """Take the state the compiled core's draw run left (:meth:`export_state`'s form,
        each open activation named 0 none, 1 the one open before the run, 2 + j the j-th of
        ``events``), the final deadline, reached and end ply of the activations open before
        the run (``entry``, per slot) and the activations the run made (``events``: slot,
        start, deadline, reached, end each); ``last_ply``: the run's last ply."""
        self._start_state = None
        slots = self._slot_objs
        e = memoryview(entry).cast("q")
        for i, obj in enumerate(slots):
            ev = obj.event
            if ev is not None:
                ev.deadline_ply, ev.reached_ply, ev.end_ply = (
                    _opt(e[3 * i]), _opt(e[3 * i + 1]), _opt(e[3 * i + 2]))
        created = []
        if events:
            made = memoryview(events).cast("q")
            for j in range(0, len(made), 5):
                obj = slots[made[j]]
                rule = obj.rule
                created.append(RuleEvent(
                    rule.name, rule.article, bool(rule.automatic), made[j + 1],
                    obj.limit if isinstance(obj, _Counter) else None, _opt(made[j + 2]),
                    _opt(made[j + 3]), _opt(made[j + 4]), rule.source))
            self._events.extend(created)
        st = memoryview(state).cast("q")
        at = 0
        n_rep = len(self._repetitions)
        for i, obj in enumerate(slots):
            which = st[at]
            obj.event = None if which == 0 else obj.event if which == 1 else created[which - 2]
            if i >= n_rep:  # a counter: running, count, start ply
                obj.running, obj.count, obj.start_ply = (  # type: ignore[union-attr]
                    bool(st[at + 4]), st[at + 5], st[at + 6])
                at += 7
            else:  # a repetition rule: its table, read when Python needs it (_unpack)
                at += 5 + 3 * st[at + 4]
        self._packed = state
        self._last_ply = max(self._last_ply, last_ply)

    def _unpack(self) -> None:
        """Read the repetition tables of the packed state into the Python tracker."""
        st = memoryview(self._packed or b"").cast("q")
        self._packed = None
        at = 0
        for rep in self._repetitions:
            at += 4
            n = st[at]
            at += 1
            rep.table = {st[at + 3 * j]: [st[at + 3 * j + 1], st[at + 3 * j + 2]]
                         for j in range(n)}
            at += 3 * n
        # the counters were read at import

    # -- internals --------------------------------------------------------------------------

    def _publish(self, c: _Counter, ply: int) -> None:
        """Record the running activation of ``c`` (first counted ply, or a seeded start)."""
        # The count is c.count at this ply, so the limit falls (limit - count) plies later.
        deadline = ply + max(c.limit - c.count, 0)
        c.event = RuleEvent(
            c.rule.name, c.rule.article, bool(c.rule.automatic),
            start_ply=c.start_ply, limit_plies=c.limit, deadline_ply=deadline,
            source=c.rule.source,
        )
        self._events.append(c.event)

    @staticmethod
    def _close(c: _Counter, ply: int) -> None:
        if c.event is not None:
            c.event.end_ply = ply
            c.event = None


_PLANS: dict[int, tuple[Any, tuple[dict[frozenset[str], Any], dict[frozenset[str], Any]]]] = {}

_RepSlot = tuple["DrawRule", frozenset[str]]
_CtrSlot = tuple["DrawRule", MaterialCondition, frozenset[str]]
#: id(rules) -> (rules, its repetition rules, its counter rules), each checked once
_SLOTS: dict[int, tuple[Any, tuple[_RepSlot, ...], tuple[_CtrSlot, ...]]] = {}
#: (id(rules), placement, side, int keys) -> (rules, repetition key, which counters hold)
#: for the positions games start from (the variant's own start, mostly)
_STARTS: dict[tuple[Any, ...], tuple[Any, Any, tuple[bool, ...]]] = {}
#: (the key of :data:`_STARTS`, start ply) -> (rules, export_state of a tracker just made
#: there with no activation open): what the compiled core's first draw run of a game reads
_START_STATES: dict[tuple[Any, ...], tuple[Any, bytes]] = {}


def _slots_of(rules: Rules) -> tuple[tuple[_RepSlot, ...], tuple[_CtrSlot, ...]]:
    """The draw rules of ``rules`` as tracker slots (checked by :func:`_check_rule` the first
    time a tracker is made for the record)."""
    hit = _SLOTS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1], hit[2]
    reps: list[_RepSlot] = []
    ctrs: list[_CtrSlot] = []
    for rule in rules.draw_rules:
        _check_rule(rule)
        if rule.kind == "repetition":
            reps.append((rule, frozenset(rule.resets)))
        else:
            ctrs.append((rule, MATERIAL_CONDITIONS[rule.material], frozenset(rule.resets)))
    _SLOTS[id(rules)] = (rules, tuple(reps), tuple(ctrs))
    return tuple(reps), tuple(ctrs)


def _start_of(rules: Rules, position: TrackedPosition, int_keys: bool,
              counters: list[_Counter]) -> tuple[Any, tuple[bool, ...], tuple[Any, ...]]:
    """The repetition key of a start position and whether each counter's material condition
    holds in it (remembered for the rules engine's positions: both follow from the
    placement and the side to move)."""
    ck = (id(rules), position.repetition_key, int_keys)
    hit = _STARTS.get(ck)
    if hit is not None and hit[0] is rules:
        return hit[1], hit[2], ck
    key = position.key() if int_keys else position.repetition_key
    counts = position.counts()
    holds = tuple(bool(c.cond.test(counts, position)) for c in counters)
    if len(_STARTS) >= 4096:
        _STARTS.clear()
    _STARTS[ck] = (rules, key, holds)
    return key, holds, ck


def run_events(rules: Rules, events: bytes, last_ply: int) -> list[RuleEvent]:
    """The rule events of a main line the compiled draw loop ran whole, from the state of a
    tracker just made at the game's start with no activation open (the start positions of
    :attr:`DrawTracker.export_state`'s cache): the activations the run made (``events``, as
    :meth:`DrawTracker.import_state` reads them: slot, start, deadline, reached and end ply
    each) closed at ``last_ply`` as :meth:`DrawTracker.finish` closes them. The events
    that tracker would give after the same run, without the tracker.

    Example:
        >>> from array import array
        >>> from pdnkit.rules import get_rules
        >>> r = get_rules("international")
        >>> [(e.rule, e.start_ply, e.end_ply) for e in
        ...  run_events(r, array("q", [1, 40, 90, -1, -1]).tobytes(), 60)]
        [('fmjd-6.2', 40, 60)]
    """
    hit = _EVENT_SLOTS.get(id(rules))
    if hit is None or hit[0] is not rules:
        hit = _EVENT_SLOTS[id(rules)] = (rules, _event_slots(rules))
    slots = hit[1]
    made = memoryview(events).cast("q").tolist()
    out = []
    for j in range(0, len(made), 5):
        name, article, automatic, limit, source = slots[made[j]]
        deadline, reached, end = made[j + 2], made[j + 3], made[j + 4]
        out.append(RuleEvent(name, article, automatic, made[j + 1], limit,
                             None if deadline < 0 else deadline,
                             None if reached < 0 else reached,
                             last_ply if end < 0 else end, source))
    return out


_EventSlot = tuple[str, str, bool, "int | None", str]
#: id(rules) -> (rules, what every event of each of its slots shares: name, article,
#: automatic, limit in plies, source), for :func:`run_events`
_EVENT_SLOTS: dict[int, tuple[Any, tuple[_EventSlot, ...]]] = {}


def _event_slots(rules: Rules) -> tuple[_EventSlot, ...]:
    reps, ctrs = _slots_of(rules)
    slots: list[_EventSlot] = [(rule.name, rule.article, bool(rule.automatic), None,
                                rule.source) for rule, _ in reps]
    slots.extend((rule.name, rule.article, bool(rule.automatic), int(rule.limit), rule.source)
                 for rule, _, _ in ctrs)
    return tuple(slots)


def _put_event(out: Any, ev: RuleEvent | None) -> None:
    if ev is None:
        out.extend((0, -1, -1, -1))
    else:
        out.extend((1, ev.start_ply, -1 if ev.deadline_ply is None else ev.deadline_ply,
                    -1 if ev.reached_ply is None else ev.reached_ply))


def _opt(v: int) -> int | None:
    return None if v < 0 else v


def _check_rule(rule: DrawRule) -> None:
    """API-misuse check of a DrawRule record (a bad record is a programming error)."""
    if rule.kind not in ("repetition", "counter"):
        raise ArgumentError(f"draw rule {rule.name!r}: unknown kind {rule.kind!r}")
    if int(rule.limit) < 1:
        raise ArgumentError(f"draw rule {rule.name!r}: limit must be >= 1, got {rule.limit!r}")
    unknown = set(rule.resets) - RESET_EVENTS
    if unknown:
        raise ArgumentError(f"draw rule {rule.name!r}: unknown reset events {sorted(unknown)}")
    if rule.kind == "counter" and rule.material not in MATERIAL_CONDITIONS:
        raise ArgumentError(
            f"draw rule {rule.name!r}: unknown material condition {rule.material!r}"
        )


def events_to_rows(events: Iterable[RuleEvent], game_id: int) -> list[dict[str, Any]]:
    """``rule_events`` rows for one game.

    >>> events_to_rows([RuleEvent("fmjd-6.4", "FMJD 6.4", True, 40, 10, 50)], 7)[0]["game_id"]
    7
    """
    return [{"game_id": game_id, **e.to_dict()} for e in events]
