"""Clean games on the compiled core: a game the compiled lane read, from its variant's own
start, whose whole main line the core replays as written is validated without a Python
object per ply and without a draw tracker.

:func:`clean_line` is the first step of the main line (:func:`pdnkit.validation.game`'s
``_replay``) for a light or compact report: one :func:`pdnkit.core.replay` call over the
movetext as written, the written move numbers and separators checked in C, the draw rules
run over the replay's arrays in C from the start's cached draw state
(:func:`pdnkit.rules.draw.run_events` makes the few rule events), the final position read
from the arrays. For a light report all of this -- and whether the side to move has a move,
and the final FEN -- is one call of the compiled core (``clean_game``), which hands back the
final state, the draw events it made and the FEN instead of the replay's arrays; for a compact
report (the database loader's) the same call hands back the replay's arrays as well, which the
report's run and the loader's rows are cut from (one replay a clean game). It fills in
exactly what :class:`~pdnkit.validation.game.MainLine` would
(start and final position, replayed plies, rule events, a compact report's
:class:`~pdnkit.validation.coreplies.CoreRun`) and the judge runs as always. Any other game
-- a ply the core does not take as written, a set-up, a record the Python reader read, the
pure core, a full report -- goes the general way, from the start, with every diagnosis; so
the reports are the general path's (``tests/validate/test_clean_line.py``).

Example:
    >>> from pdnkit.validation import validate
    >>> rep = next(validate('[GameType "20"]\\n1. 32-28 19-23 2. 28x19 14x23 *', light=True))
    >>> rep.replayed_plies, rep.final_fen[:9], rep.status
    (4, 'W:W31,33,', 'ok')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pdnkit import core
from pdnkit.core import FLAG_MISMATCH, compiled
from pdnkit.core.feed import draw_spec
from pdnkit.pdn.tags import tag_values
from pdnkit.rules.draw import DrawTracker, run_events
from pdnkit.rules.fen import fen_squares, write_fen_bits
from pdnkit.rules.position import Position
from pdnkit.validation.coreplies import CoreRun, LaneFields
from pdnkit.validation.report import record_tag
from pdnkit.validation.runoptions import RunOptions
from pdnkit.validation.start import start_fen

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pdnkit.pdn.record import GameRecord, MoveNode, UnreadLine
    from pdnkit.rules.variants import Rules
    from pdnkit.validation.report import GameReport

__all__ = ["CleanStart", "FinalState", "clean_line", "clean_start", "start_parts"]

#: flags byte -> 1 where the ply was written with the wrong separator
_MISMATCH = bytes(1 if b & FLAG_MISMATCH else 0 for b in range(256))


class FinalState:
    """The position a clean game reached, as the judge reads it
    (:class:`~pdnkit.validation.judge.FinalPosition`): the core's final state and whether
    the side to move has a move, computed in C.

    Example:
        >>> from pdnkit.core import State
        >>> from pdnkit.rules import get_rules
        >>> end = FinalState(get_rules("international"), State(True, 1 << 27, 0, 0, 0, None))
        >>> end.is_terminal(), end.winner(), end.white_kings, end.pieces()
        (True, 0, frozenset(), 1)
        >>> end.position().white_men
        frozenset({28})
    """

    __slots__ = ("rules", "state", "_terminal", "_losing")

    def __init__(self, rules: Rules, state: core.State, has_move: bool | None = None) -> None:
        self.rules = rules
        self.state = state
        self._terminal = not (core.has_moves(rules, state) if has_move is None else has_move)
        self._losing = rules.losing_game

    @property
    def side(self) -> int:
        return 1 if self.state.black else 0

    @property
    def white_kings(self) -> frozenset[int]:
        return _squares(self.state.wk)

    @property
    def black_kings(self) -> frozenset[int]:
        return _squares(self.state.bk)

    def is_terminal(self) -> bool:
        return self._terminal

    def winner(self) -> int | None:
        if not self._terminal:
            return None
        return self.side if self._losing else 1 - self.side

    def pieces(self) -> int:
        """The number of pieces on the board."""
        st = self.state
        return sum(bin(mask).count("1") for mask in (st.wm, st.wk, st.bm, st.bk))

    def position(self) -> Position:
        """The final state as a rules-engine position (made on request: a light report
        keeps none)."""
        return core.position_of(self.rules, self.state)


def _squares(mask: int) -> frozenset[int]:
    return frozenset(n + 1 for n in range(mask.bit_length()) if mask >> n & 1)


class CleanStart:
    """What every clean game of one rules record shares: the start position and its core
    state, key, FEN and counts, the numbering of its moves, the draw spec and the draw
    state a tracker just made there exports.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> s = CleanStart(get_rules("international"))
        >>> s.offset, s.counts["white_men"]
        (0, 20)
    """

    __slots__ = ("rules", "pos", "state", "key", "fen", "counts", "offset", "spec", "draws",
                 "run", "layout")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        pos = self.pos = Position.initial(rules)
        self.state = core.state_of(pos)
        self.key = int(pos.key())
        self.fen = start_fen(rules, pos, None, self.key)
        self.counts = dict(pos.counts())
        #: the numbering offset of MainLine (0: the first mover moves first)
        self.offset = 0 if int(pos.side) == int(rules.first_mover) else 1
        tracker = DrawTracker(rules, pos, None, int_keys=True)
        slots = tracker.slots
        self.spec = draw_spec(rules, slots) if slots else None
        self.draws = tracker.export_state() if slots else b""
        #: the core's one call over a light report's clean game (None: the steps apart)
        self.run = compiled.clean_game(rules)
        self.layout = fen_squares(rules)


def start_parts(rules: Rules) -> tuple[core.State, int, bytes | None, bytes, bytes]:
    """What the core's one call over a clean game of ``rules`` takes of its start: the
    start state, the numbering offset, the draw spec and state, and the FEN layout.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> state, offset, spec, draws, layout = start_parts(get_rules("international"))
        >>> state.black, offset, layout[:3]
        (False, 0, b'\\x00\\x011')
    """
    s = CleanStart(rules)
    return s.state, s.offset, s.spec, s.draws, s.layout


#: id(rules) -> the rules' :class:`CleanStart`, or None where clean games cannot be taken
_STARTS: dict[int, tuple[Any, CleanStart | None]] = {}


def clean_start(rules: Rules) -> CleanStart | None:
    """What every clean game of ``rules`` shares (cached), or ``None`` where the core takes
    no clean game of them.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> s = clean_start(get_rules("international"))
        >>> s is None or s.fen[:9]
        'W:W31,32,'
    """
    hit = _STARTS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    # (the core replays ``rules``: the main line came as LaneNodes, coreline.main_line)
    ok = compiled.draw_run() is not None and not rules.wins_on_promotion
    start = CleanStart(rules) if ok else None
    _STARTS[id(rules)] = (rules, start)
    return start


def clean_line(report: GameReport, record: GameRecord, rules: Rules,
               nodes: Sequence[MoveNode], options: RunOptions) -> FinalState | None:
    """Replay the main line of a clean game (see the module's text) into ``report``: its
    start, replayed plies, final FEN and position, rule events and, for a compact report,
    its run. Returns the final state, or ``None`` (the report untouched) where the game
    is not one the core takes whole as written."""
    lane = record.unread_line()  # (its moves unread: ``nodes`` reads them on first use)
    if lane is None or not (options.light or options.compact):
        return None
    start = clean_start(rules)
    if start is None:
        return None
    if "fen" in tag_values(record):  # (a FEN tag, blank or not: MainLine reads it)
        fen = record_tag(record, "FEN")
        if fen is not None and fen.strip():
            return None
    n = lane.move_count
    if options.light and start.run is not None:
        return _light_line(report, rules, start, lane.raw, lane.lane_body, n)
    if start.run is not None:
        return _compact_line(report, rules, start, lane, n)
    rep = core.replay(rules, start.state, lane.raw, lane.lane_body)
    if rep.plies != n or (n and (rep.flags.translate(_MISMATCH).find(1, 0, n) >= 0
                                 or core.misnumbered(rep, n, 0, 1, start.offset) >= 0)):
        return None
    if start.spec is not None and n:
        run = compiled.draw_run()
        _, _, made = run(start.spec, start.draws, rep.flags, rep.counts, rep.keys, rep.bits,
                         rep.bits_high, 0, n, 0)
        report.rule_events = run_events(rules, made, n) if made else []
    end = rep.final if n else start.state
    final = FinalState(rules, end)
    report.start_key = start.key
    report.start_fen = start.fen
    report.start_counts = dict(start.counts)
    if options.compact and not options.light and n:
        black = bool(start.state.black)
        report.plain = CoreRun(rules, start.pos, LaneFields(lane, rep), rep, n, 1,
                               start.offset, black)
    report.replayed_plies = n
    report.final_fen = write_fen_bits(rules, end.black, end.wm, end.wk, end.bm, end.bk)
    if not options.light:
        report.final_position = core.position_of(rules, end) if n else start.pos
    return final


def _compact_line(report: GameReport, rules: Rules, start: CleanStart, lane: UnreadLine,
                  n: int) -> FinalState | None:
    """:func:`clean_line` of a compact report in one call of the core: what
    :func:`_light_line` gets and the replay's arrays, which the report's run
    (:class:`~pdnkit.validation.coreplies.CoreRun`) and the loader's rows are cut from."""
    got = start.run(start.state, lane.raw, lane.lane_body, n, start.offset, start.spec,
                    start.draws, start.layout, True)
    if got is None:
        return None
    end, has_move, made, fen, rep = got
    if made is not None:
        report.rule_events = run_events(rules, made, n) if made else []
    report.start_key = start.key
    report.start_fen = start.fen
    report.start_counts = dict(start.counts)
    if n:
        report.plain = CoreRun(rules, start.pos, LaneFields(lane, rep), rep, n, 1,
                               start.offset, bool(start.state.black))
    report.replayed_plies = n
    report.final_fen = fen
    report.final_position = core.position_of(rules, end) if n else start.pos
    return FinalState(rules, end, has_move)


def _light_line(report: GameReport, rules: Rules, start: CleanStart, raw: str, body: int,
                n: int) -> FinalState | None:
    """:func:`clean_line` of a light report in one call of the core: the replay, its checks,
    the draw loop, whether the side to move has a move and the final FEN."""
    got = start.run(start.state, raw, body, n, start.offset, start.spec, start.draws,
                    start.layout)
    if got is None:
        return None
    end, has_move, made, fen = got
    if made is not None:
        report.rule_events = run_events(rules, made, n) if made else []
    report.start_key = start.key
    report.start_fen = start.fen
    report.start_counts = dict(start.counts)
    report.replayed_plies = n
    report.final_fen = fen
    return FinalState(rules, end, has_move)
