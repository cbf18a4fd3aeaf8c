"""The main line on the compiled core: one :func:`pdnkit.core.replay` call for the plies it
resolves, the Python replay (:meth:`MainLine.replay_ply`) for the one it stops at.

:func:`run` hands the core the whole main line (the move texts, or the movetext as written for
a record the reader read in its compiled lane) and takes the leading plies it resolved as they
are: the draw tracker is fed from the arrays (:func:`pdnkit.core.feed.push_replay`), the ply
records are cut from them (:class:`CorePly`, or one :class:`CoreRun` for the database loader,
none for a light report). The first ply the core does not take as it is -- a stop code, a
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
from pdnkit.pdn.fast import LaneNodes, LaneRecord
from pdnkit.validation.coreplies import CorePly, CoreRun, LaneFields, NodeFields, PlyFields

if TYPE_CHECKING:
    from pdnkit.pdn.record import GameRecord, MoveNode
    from pdnkit.rules.position import Position
    from pdnkit.rules.variants import Rules
    from pdnkit.validation.game import MainLine

__all__ = ["main_line", "run", "state_of", "usable"]

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
    if type(record) is LaneRecord and not record.nodes_read and usable(rules):
        return record.lane_nodes()
    return list(getattr(record, "moves", ()) or ())


def run(line: MainLine) -> None:
    """Replay ``line``'s plies (see the module doc); ``line.pos`` is the position reached,
    ``line.stopped_at`` the ply the replay stopped at (``None``: none)."""
    rules = line.rules
    nodes = line.nodes
    n = len(nodes)
    k = 0
    record = line.report.record
    lane = record if isinstance(nodes, LaneNodes) and type(record) is LaneRecord else None
    texts: list[str] | None = None
    state = state_of(line.pos)
    while k < n:
        if line.pending is None:
            if lane is not None:
                rep = core.replay(rules, state, lane.raw, lane.lane_body)
                fields: PlyFields = LaneFields(lane, rep)
            else:
                if texts is None:
                    texts = [nd.text for nd in nodes]
                rep = core.replay(rules, state, texts, k)
                fields = NodeFields(nodes, k)
            good = _usable_plies(line, rep, nodes, k, lane is not None)
            if good:
                _take(line, rep, good, k, state.black, fields)
                k += good
                after = rep.final if good == rep.plies else rep.position(good - 1, state.black)
                line.pos = core.position_of(rules, after)
                if k >= n:
                    return
        lane = None  # the Python replay reads the nodes: the core reads their texts on
        if not line.replay_ply(k):
            line.stopped_at = k
            return
        k += 1
        while k < line.skip_to and k < n:  # the later jumps of a capture written as plies
            line.replay_ply(k)
            k += 1
        state = state_of(line.pos)


def _usable_plies(line: MainLine, rep: Replay, nodes: Sequence[MoveNode], k: int,
                  text: bool) -> int:
    """How many of the leading plies of ``rep`` (the main line's plies ``k`` on) are taken
    as the core resolved them: up to the first written with the wrong separator, with a
    move number that does not fit its ply (until the game's one such finding is given),
    with variations, or with a setup before it (``text``: the core read the movetext of a
    game the lane read, which has none)."""
    good = rep.plies
    if not good:
        return 0
    bad = rep.flags.translate(_MISMATCH).find(1, 0, good)
    if bad >= 0:
        good = bad
    check = not line.numbers_warned
    base, offset = line.base_num, line.offset
    if text:
        if check:
            bad = core.misnumbered(rep, good, k, base, offset)
            if bad >= 0:
                good = bad
        return good
    fen_tag = line.fen_tag
    for i in range(good):
        node = nodes[k + i]
        if node.variations or (node.setup_before and (k + i > 0 or fen_tag is not None)):
            return i
        number = node.number
        if check and number is not None and not number_fits(number, node.black_dots, k + i,
                                                            base, offset):
            return i
    return good


def _take(line: MainLine, rep: Replay, good: int, k: int, start_black: bool,
          fields: PlyFields) -> None:
    """Account for the plies ``0`` to ``good - 1`` of ``rep`` (main-line plies ``k`` on): the
    draw tracker, and the ply records or the run a compact report keeps."""
    push_replay(line.tracker, rep, 0, good, k, start_black)
    if line.light:
        return
    report = line.report
    if line.compact and k == 0:
        report.plain = CoreRun(line.rules, line.pos, fields, rep, good, line.base_num,
                               line.offset, start_black)
        return
    report.plies.extend(CorePly.of(line.rules, rep, i, fields, k + i, line.base_num,
                                   line.offset, start_black, line.pos) for i in range(good))
