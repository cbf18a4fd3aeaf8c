"""The main line on the compiled core: one :func:`pdnkit.core.replay` call for the plies it
resolves, the Python replay (``MainLine._ply``) for the one it stops at.

:meth:`CoreLine.take` hands the core the rest of the main line (the move texts, or the
movetext as written for a record the reader read in its compiled lane) and takes the leading
plies it resolved as they are: the draw tracker is fed from the arrays
(:func:`pdnkit.core.feed.push_replay`), the ply records are cut from them (:class:`CorePly`,
or one :class:`CoreRun` for the database loader, none for a light report). The first ply the core does not take as it is -- a stop code, a
handover, a move written with the wrong separator, an unexpected move number, a variation or a
setup -- goes to the Python replay with its full diagnostics, which then goes on from the
position it reached; the core takes over again after it (the move texts from that item on).
Variations stay in Python. The result is the report the Python replay alone makes
(``tests/validate/test_core_differential.py``).

Example:
    >>> from pdnkit.pdn import parse_game
    >>> from pdnkit.validation import replay
    >>> rep = replay(parse_game('[GameType "20"] 1. 32-28 19-23 2. 28x19 14x23 *'))
    >>> rep.replayed_plies, rep.plies[2].notation, rep.plies[2].captured
    (4, '28x19', (23,))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pdnkit import core
from pdnkit.core import FLAG_MISMATCH, Replay, State, number_fits
from pdnkit.core.feed import push_replay
from pdnkit.pdn.fast import LaneNodes
from pdnkit.validation.coreplies import CorePly, CoreRun, LaneFields, NodeFields, PlyFields

if TYPE_CHECKING:
    from pdnkit.pdn.record import GameRecord, MoveNode
    from pdnkit.rules.draw import DrawTracker
    from pdnkit.rules.position import Position
    from pdnkit.rules.variants import Rules
    from pdnkit.validation.report import GameReport, Numbering

__all__ = ["CoreLine", "main_line", "state_of", "usable"]

#: flags byte -> 1 where the ply was written with the wrong separator
_MISMATCH = bytes(1 if b & FLAG_MISMATCH else 0 for b in range(256))

#: (rules id, engine bitboards, side, counters) -> the State of a start position
_STATES: dict[tuple[object, ...], tuple[Rules, State]] = {}


def usable(rules: Rules) -> bool:
    """Whether the compiled core replays ``rules`` (else the Python replay does it all)."""
    return core.supports(rules)


def state_of(pos: Position) -> State:
    """The core's :class:`~pdnkit.core.State` of a rules-engine position (the usual start
    positions cached)."""
    key = (id(pos.rules), pos.repetition_key, pos.king_moves)
    hit = _STATES.get(key)
    if hit is not None and hit[0] is pos.rules:
        return hit[1]
    state = core.state_of(pos)
    if len(_STATES) > 4096:
        _STATES.clear()
    _STATES[key] = (pos.rules, state)
    return state


def main_line(record: GameRecord, rules: Rules) -> Sequence[MoveNode]:
    """The main line's moves of ``record`` as the replay reads them: a game the compiled
    lane read keeps its moves unread while the core replays its movetext (they are read
    when the Python replay needs them), any other record gives its list."""
    lane = record.unread_line()
    if lane is not None and usable(rules):
        return LaneNodes(lane)
    return list(record.moves)


class CoreLine:
    """The plies of one main line the compiled core resolves (see the module's text): the
    strategy of :class:`~pdnkit.validation.game.MainLine` where the core runs. ``record``:
    the game (a record the lane read gives the core its movetext as written, for the first
    call); ``report`` receives the plies as
    :class:`~pdnkit.validation.coreplies.CorePly` records, one
    :class:`~pdnkit.validation.coreplies.CoreRun` (``compact``: the leading plies) or not at
    all (``light``)."""

    __slots__ = ("rules", "nodes", "report", "fen_tag", "light", "compact", "lane", "texts")

    def __init__(self, rules: Rules, nodes: Sequence[MoveNode], record: GameRecord | None,
                 report: GameReport, *, fen_tag: str | None, light: bool = False,
                 compact: bool = False) -> None:
        self.rules = rules
        self.nodes = nodes
        self.report = report
        self.fen_tag = fen_tag
        self.light = light
        self.compact = compact and not light
        #: the lane's record while its movetext is read as written (the first call only)
        self.lane = record.unread_line() if record is not None else None
        self.texts: list[str] | None = None

    def take(self, k: int, pos: Position, tracker: DrawTracker, numbering: Numbering
             ) -> tuple[int, Position]:
        """Replay main-line plies from ``k`` (0-based) on, from ``pos``, in one core call;
        take the leading plies the core resolved as they are (into ``tracker`` and the
        report, numbered as ``numbering`` says: a ply whose written move number does not fit
        it is not taken while ``numbering.checked``); returns how many and the position
        reached."""
        rules = self.rules
        state = state_of(pos)
        lane, self.lane = self.lane, None  # the Python replay reads the nodes from now on
        if lane is not None:
            rep = core.replay(rules, state, lane.raw, lane.lane_body)
            fields: PlyFields = LaneFields(lane, rep)
        else:
            if self.texts is None:
                self.texts = [nd.text for nd in self.nodes]
            rep = core.replay(rules, state, self.texts, k)
            fields = NodeFields(self.nodes, k)
        good = self._usable_plies(rep, k, lane is not None, numbering)
        if not good:
            return 0, pos
        self._take(tracker, rep, good, k, state.black, fields, pos, numbering)
        after = rep.final if good == rep.plies else rep.position(good - 1, state.black)
        return good, core.position_of(rules, after)

    def _usable_plies(self, rep: Replay, k: int, text: bool, numbering: Numbering) -> int:
        """How many of the leading plies of ``rep`` (the main line's plies ``k`` on) are taken
        as the core resolved them: up to the first written with the wrong separator, with a
        move number that does not fit its ply (while ``numbering.checked``), with variations, or with a setup
        before it (``text``: the core read the movetext of a game the lane read, which has
        none)."""
        good = rep.plies
        if not good:
            return 0
        bad = rep.flags.translate(_MISMATCH).find(1, 0, good)
        if bad >= 0:
            good = bad
        base, offset, check = numbering
        if text:
            if check:
                bad = core.misnumbered(rep, good, k, base, offset)
                if bad >= 0:
                    good = bad
            return good
        nodes, fen_tag = self.nodes, self.fen_tag
        for i in range(good):
            node = nodes[k + i]
            if node.variations or (node.setup_before and (k + i > 0 or fen_tag is not None)):
                return i
            number = node.number
            if check and number is not None and not number_fits(number, node.black_dots, k + i,
                                                                base, offset):
                return i
        return good

    def _take(self, tracker: DrawTracker, rep: Replay, good: int, k: int, start_black: bool,
              fields: PlyFields, pos: Position, numbering: Numbering) -> None:
        """Account for the plies ``0`` to ``good - 1`` of ``rep`` (main-line plies ``k`` on):
        the draw tracker, and the ply records or the run a compact report keeps."""
        push_replay(tracker, rep, 0, good, k, start_black)
        if self.light:
            return
        report = self.report
        base, offset = numbering.base, numbering.offset
        if self.compact and k == 0:
            report.plain = CoreRun(self.rules, pos, fields, rep, good, base, offset, start_black)
            return
        report.plies.extend(CorePly.of(self.rules, rep, i, fields, k + i, base, offset,
                                       start_black, pos) for i in range(good))
