"""What the core tests share: the backends to compare, the reference replay of a game (the
validator over the pure-Python rules engine) and the comparison of a core replay with it.

The contract checked (:func:`check_game`): every ply the core resolves is the ply the
validator replayed (move, path, captured squares, position after it, key, counts), with no
finding of the validator that says the move was not one legal move as written; the ply the
core stops at carries the validator's own classification of that move (illegal, ambiguous,
not-max-capture, missed-capture, capture-priority, no move at all), or ``handover`` where
the text needs the Python reader or matcher; and the draw rules fed from the core's arrays
give the validator's rule events.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pdnkit import core
from pdnkit.core import FLAG_FULL_PATH, FLAG_MISMATCH, Replay, State, compiled, pure, state_of
from pdnkit.pdn.record import MoveNode
from pdnkit.rules import DrawTracker, Position, get_rules
from pdnkit.rules.draw import RuleEvent
from pdnkit.rules.variants import Rules
from pdnkit.validation import validate
from pdnkit.validation.match import match_move, parse_squares
from pdnkit.validation.report import Findings, GameReport
from pdnkit.validation.start import game_start
from tests.shared import ROOT, SHARED_DATA

ReplayFn = Callable[[Rules, Any, Any, int], Replay]

#: the backends a test compares: the pure one always, the compiled one where it runs
BACKENDS: dict[str, ReplayFn] = {"pure": pure.replay}
if core.core_in_use() == "compiled":
    BACKENDS["compiled"] = compiled.replay

COMPILED = core.core_in_use() == "compiled"

#: the validator's match kinds as the core's codes
KIND_CODES = {"illegal": "illegal-move", "ambiguous": "ambiguous-move",
              "not-max-capture": "not-max-capture", "missed-capture": "missed-capture",
              "capture-priority": "capture-priority", "no-moves": "move-after-end"}
#: finding codes that say a ply was not one legal move as written
BLOCKING = frozenset({"illegal-move", "ambiguous-move", "not-max-capture", "missed-capture",
                      "capture-priority", "move-after-end", "unknown-move", "bad-fen"})


def corpus_files() -> list[Path]:
    """Every game file of ``../shared/data/real`` and the project's ``data/`` samples."""
    real = SHARED_DATA / "real"
    files = sorted(p for p in real.rglob("*") if p.suffix in (".pdn", ".txt")) if real.is_dir() \
        else []
    return files + sorted((ROOT / "data").glob("*.pdn"))


_TAGS = re.compile(r'\A(?:\s*\[[^\]"\n]*(?:"(?:[^"\\\n]|\\.)*"[^\]\n]*)?\])*')


def movetext(raw: str) -> str:
    """The movetext of a game's raw text (what follows its leading tag pairs)."""
    return raw[_TAGS.match(raw).end():]  # type: ignore[union-attr]


@dataclass
class RefGame:
    """A game as the validator replayed it, and the input the core gets for it."""

    report: GameReport
    rules: Rules
    start: Position
    halfmove: int | None
    nodes: list[MoveNode]  # the main line up to its first setup
    texts: list[str] = field(default_factory=list)

    @property
    def movetext(self) -> str:
        return movetext(self.report.record.raw) if self.report.record is not None else ""


def reference_games(path: Path | str) -> Iterator[RefGame]:
    """The games of ``path`` that the validator replays from a known start."""
    for report in validate(path):
        record = report.record
        if report.variant is None or record is None or not getattr(record, "parsed", True):
            continue
        try:
            rules = get_rules(report.variant, edition=report.edition)
        except ValueError:
            rules = get_rules(report.variant)
        nodes = list(record.moves)
        start = game_start(record, nodes, rules, Findings(record))
        if start is None:
            continue
        cut = next((k for k, n in enumerate(nodes)
                    if n.setup_before and (k > 0 or start.fen_tag is not None)), len(nodes))
        halfmove = start.info.halfmove if start.info is not None else None
        yield RefGame(report, rules, start.pos, halfmove, nodes[:cut],
                      [n.text for n in nodes[:cut]])


class CorePosition:
    """A position after a core ply, as the draw tracker reads one (counts, key, squares)."""

    def __init__(self, rules: Rules, state: State, key: int) -> None:
        self.rules = rules
        self.state = state
        self._key = key

    def counts(self) -> dict[str, int]:
        s = self.state
        return {"white_men": s.wm.bit_count(), "white_kings": s.wk.bit_count(),
                "black_men": s.bm.bit_count(), "black_kings": s.bk.bit_count()}

    def key(self) -> int:
        return self._key

    @property
    def repetition_key(self) -> int:
        return self._key

    @property
    def has_kings(self) -> bool:
        return bool(self.state.wk | self.state.bk)

    @staticmethod
    def _sq(mask: int) -> frozenset[int]:
        return frozenset(i + 1 for i in range(mask.bit_length()) if mask >> i & 1)

    @property
    def white_men(self) -> frozenset[int]:
        return self._sq(self.state.wm)

    @property
    def white_kings(self) -> frozenset[int]:
        return self._sq(self.state.wk)

    @property
    def black_men(self) -> frozenset[int]:
        return self._sq(self.state.bm)

    @property
    def black_kings(self) -> frozenset[int]:
        return self._sq(self.state.bk)


def core_events(rep: Replay, rules: Rules, start: Position, halfmove: int | None
                ) -> list[RuleEvent]:
    """The draw-rule events of the plies a core replay resolved, fed from its arrays only."""
    first = CorePosition(rules, state_of(start), start.key())
    tracker = DrawTracker(rules, first, halfmove)
    black = int(start.side) == 1
    for i in range(rep.plies):
        tracker.push(i + 1, rep.move(i), CorePosition(rules, rep.position(i, black), rep.key(i)))
    return tracker.finish(rep.plies)


def reference_events(g: RefGame, plies: int) -> list[RuleEvent]:
    """The validator's draw-rule events over its first ``plies`` plies."""
    tracker = DrawTracker(g.rules, g.start, g.halfmove)
    for prec in g.report.plies[:plies]:
        tracker.push(prec.ply, prec.move, prec.position_after)
    return tracker.finish(plies)


def _findings_at(report: GameReport, ply: int) -> set[str]:
    return {f.code for f in report.findings if f.ply == ply and not f.in_variation}


def check_game(rep: Replay, g: RefGame, stats: Counter[str] | None = None) -> None:
    """Assert the contract of the module docstring for one core replay of ``g``."""
    refs = g.report.plies
    black = int(g.start.side) == 1
    for i in range(rep.plies):
        ref = refs[i]
        where = f"{g.report.file}#{g.report.index} ply {i + 1}"
        assert ref.replayed and ref.move is not None, where
        m = rep.move(i)
        assert (m.origin, m.destination, m.path, m.captured, m.captured_kings, m.promotes,
                m.is_king) == (ref.move.origin, ref.move.destination, ref.move.path,
                               ref.move.captured, ref.move.captured_kings, ref.move.promotes,
                               ref.move.is_king), where
        after = ref.position_after
        assert rep.position(i, black) == state_of(after), where
        assert rep.key(i) == after.key(), where
        assert tuple(rep.counts[4 * i:4 * i + 4]) == tuple(after.counts().values()), where
        found = _findings_at(g.report, i + 1)
        assert not found & BLOCKING, (where, found)
        assert ("notation-mismatch" in found) == bool(rep.flags[i] & FLAG_MISMATCH), where
        if m.captured and ref.notation is not None:
            full = len(re.findall(r"[a-l]\d+|\d+", ref.notation)) > 2
            assert full == bool(rep.flags[i] & FLAG_FULL_PATH), (where, ref.notation)
    _check_stop(rep, g, stats)
    assert core_events(rep, g.rules, g.start, g.halfmove) == reference_events(g, rep.plies), \
        f"{g.report.file}#{g.report.index}: draw-rule events"


def _check_stop(rep: Replay, g: RefGame, stats: Counter[str] | None) -> None:
    s = rep.plies
    where = f"{g.report.file}#{g.report.index} ply {s + 1}"
    before = g.report.plies[s - 1].position_after if s else g.start
    assert before is not None and rep.final == state_of(before), where
    if stats is not None:
        stats[rep.code or "done"] += 1
        if rep.code == "handover":
            stats[f"handover: {rep.reason}"] += 1
    if rep.code is None or rep.code == "handover":
        return
    if s >= len(g.nodes):  # movetext: the reader took this last token for the result
        record = g.report.record
        assert record is not None and g.movetext[rep.stop_start:rep.stop_end] == record.result, where
        return
    node = g.nodes[s]
    sq = parse_squares(g.rules, node.squares)
    if isinstance(sq, str):  # a square that is not on the board
        assert rep.code == "illegal-move", (where, rep.code, sq)
        return
    res = match_move(before, sq)
    assert KIND_CODES.get(res.kind) == rep.code, (where, res.kind, rep.code, node.text)


def replay_all(fn: ReplayFn, g: RefGame, text: bool = False) -> Replay:
    """One backend's replay of ``g`` (its move texts, or its movetext as written)."""
    moves: str | Sequence[str] = g.movetext if text else g.texts
    return fn(g.rules, g.start, moves, 0)
