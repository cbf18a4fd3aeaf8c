"""A game as pdnkit sees it, ply by ply: what ``pdnkit show`` and ``pdnkit view`` draw.

:func:`game_model` turns a replayed :class:`~pdnkit.validation.GameReport` into a
:class:`GameModel`: the placement of every position (ply 0 = the start), the moves with
their comments and NAGs, the findings with the squares of the move as written and the legal
moves where the move is an error, and pdnkit's verdict on the final position. Every position
is computed here, by the rules engine; the terminal board and the HTML viewer only draw.

A *placement* is a string with one character per square, square 1 first: ``w`` White man,
``W`` White king, ``b`` Black man, ``B`` Black king, ``.`` empty.

Example:
    >>> from pdnkit.pdn import parse_game
    >>> from pdnkit.validation import replay
    >>> m = game_model(replay(parse_game('[GameType "21"] 1. 11-15 23-19 *')))
    >>> m.placement(0)[:12], m.placement(1)[10], m.placement(1)[14]
    ('bbbbbbbbbbbb', '.', 'b')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from pdnkit.rules import Position, Rules
    from pdnkit.validation import GameReport

__all__ = ["FindingView", "GameModel", "PlyView", "game_model", "placement_of", "resolve_ply"]

#: stages of finding codes whose findings say something about the result
_VERDICT_STAGES = ("result", "draw")


def placement_of(position: Position) -> str:
    """The placement string of ``position`` (see the module docstring).

    >>> from pdnkit.rules import get_rules, parse_fen
    >>> placement_of(parse_fen("W:WK3:B1", get_rules("english"))).rstrip(".")
    'b.W'
    """
    n = position.rules.geometry.num_squares
    cells = ["."] * n
    for squares, ch in ((position.white_men, "w"), (position.white_kings, "W"),
                        (position.black_men, "b"), (position.black_kings, "B")):
        for s in squares:
            cells[s - 1] = ch
    return "".join(cells)


@dataclass
class PlyView:
    """One ply of the main line: the move as written and what replay made of it.

    ``placement`` is the position after the ply (``None`` when the ply was not replayed).
    """

    ply: int
    number: int | None
    side: str | None
    written: str
    notation: str | None
    path: tuple[int, ...]
    captured: tuple[int, ...]
    nags: list[int]
    comment: str | None
    replayed: bool
    placement: str | None

    def label(self, first: str = "W") -> str:
        """``12.`` or ``12...`` (a move of the second mover, ``first`` moves first) and the
        move as written.

        >>> PlyView(3, 2, "W", "32-28", None, (), (), [], None, False, None).label()
        '2. 32-28'
        >>> PlyView(2, 1, "W", "22-18", None, (), (), [], None, False, None).label("B")
        '1... 22-18'
        """
        dots = "." if self.side == first else "..."
        return f"{self.number}{dots} {self.written}" if self.number else self.written


@dataclass
class FindingView:
    """A finding with what a person needs to fix it: the squares of the move as written and,
    for an error at a ply, the legal moves there (canonical texts and their square paths)."""

    code: str
    severity: str
    message: str
    ply: int | None
    move: str | None
    line: int | None
    fen: str | None
    written_squares: tuple[int, ...] = ()
    legal: list[str] = field(default_factory=list)
    legal_paths: list[tuple[int, ...]] = field(default_factory=list)
    #: for an error at a ply, the placement before the move (the board to fix it on, also
    #: when the move was replayed as played: an irregularity that stands)
    before: str | None = None


@dataclass
class GameModel:
    """Everything the board views show of one game (see :func:`game_model`)."""

    report: GameReport
    rules: Rules | None
    source: str
    start: str | None
    plies: list[PlyView]
    findings: list[FindingView]
    verdict: str
    tags: list[tuple[str, str]]

    @property
    def first_mover(self) -> str:
        """``W`` or ``B``: who moves first in the variant (numbers each move pair)."""
        return str(self.rules.first_mover) if self.rules is not None else "W"

    @property
    def last_ply(self) -> int:
        """The number of main-line plies as recorded."""
        return len(self.plies)

    def placement(self, k: int) -> str | None:
        """The placement after ply ``k`` (0 = start). An unreplayed ply shows the last
        replayed position; ``None`` when the game has no position at all."""
        if k <= 0 or not self.plies:
            return self.start
        for p in reversed(self.plies[: min(k, len(self.plies))]):
            if p.placement is not None:
                return p.placement
        return self.start

    def heading(self) -> str:
        """``White - Black, Event, Date: result``."""
        r = self.report
        names = f"{r.white or '?'} - {r.black or '?'}"
        extra = [v for k in ("Event", "Date") if (v := _tag(self.tags, k))]
        return ", ".join([names, *extra]) + f": {r.result_raw or r.result or '*'}"

    def to_json(self) -> dict[str, Any]:
        """The JSON object the HTML viewer reads for this game."""
        rules = self.rules
        return {
            "title": self.heading(),
            "source": self.source,
            "variant": rules.name if rules else None,
            "variantTitle": rules.title if rules else None,
            "start": self.start,
            "tags": [[k, v] for k, v in self.tags],
            "plies": [{"n": p.ply, "num": p.number, "side": p.side, "w": p.written,
                       "c": p.notation, "path": list(p.path), "cap": list(p.captured),
                       "nags": p.nags, "cm": p.comment, "ok": p.replayed,
                       "pl": p.placement} for p in self.plies],
            "findings": [{"code": f.code, "sev": f.severity, "msg": f.message, "ply": f.ply,
                          "move": f.move, "line": f.line, "fen": f.fen,
                          "sq": list(f.written_squares), "legal": f.legal,
                          "legalPaths": [list(p) for p in f.legal_paths],
                          "before": f.before}
                         for f in self.findings],
            "status": self.report.status,
            "result": self.report.result_raw or self.report.result,
            "verdict": self.verdict,
        }


def _tag(tags: list[tuple[str, str]], name: str) -> str | None:
    low = name.lower()
    return next((v for k, v in tags if k.lower() == low and v and v != "?"), None)


def _rules_of(report: GameReport) -> Rules | None:
    if not report.variant:
        return None
    from pdnkit.rules import get_rules

    try:
        return get_rules(report.variant, report.edition)
    except (KeyError, ValueError, LookupError):
        return get_rules(report.variant)


def _start(report: GameReport, rules: Rules | None) -> str | None:
    if rules is None:
        return None
    from pdnkit.rules import FenError, Position, parse_fen

    fen = report.start_fen
    if fen is None and report.record is not None and report.record.setup:
        fen = report.record.setup  # a set-up position that replay could not use
    if fen:
        try:
            return placement_of(parse_fen(fen, rules))
        except (FenError, ValueError):
            return None  # no position to show rather than a wrong one
    return placement_of(Position.initial(rules))


def _ply_views(report: GameReport) -> list[PlyView]:
    out = []
    for p in report.plies:
        after = p.position_after if p.replayed else None
        out.append(PlyView(p.ply, p.move_number, p.side, p.written,
                           p.notation if p.replayed else None, tuple(p.path),
                           tuple(p.captured), list(p.nags), p.comment, p.replayed,
                           placement_of(after) if after is not None else None))
    return out


def _finding_view(f: Any, rules: Rules | None) -> FindingView:
    from pdnkit.rules import FenError, format_move, parse_fen
    from pdnkit.rules.notation import NotationError, parse_move_text

    sev = f.severity.value if hasattr(f.severity, "value") else str(f.severity)
    view = FindingView(f.code, sev, f.message, f.ply, f.move, f.line, f.fen)
    if rules is None:
        return view
    if f.move:
        try:
            squares, _ = parse_move_text(rules, f.move)
            view.written_squares = tuple(s for s in squares if rules.geometry.is_square(s))
        except (NotationError, ValueError):
            pass
    if sev == "error" and f.fen and f.ply is not None and not f.in_variation:
        try:
            pos = parse_fen(f.fen, rules)
            moves = pos.legal_moves()
            view.before = placement_of(pos)
        except (FenError, ValueError):
            moves = []
        view.legal = [format_move(m, rules, full_path=len(m.captured) > 1) for m in moves]
        view.legal_paths = [tuple(m.path) for m in moves]
    return view


def _verdict(report: GameReport, findings: list[FindingView]) -> str:
    from pdnkit.findings import CODES

    said = [f.message for f in findings
            if f.code in CODES and CODES[f.code].stage in _VERDICT_STAGES]
    head = f"status {report.status}; outcome {report.outcome}"
    if report.draw_basis:
        head += f"; drawn by {report.draw_basis}"
    if report.ply_count and report.replayed_plies < report.ply_count:
        head += f"; replayed {report.replayed_plies} of {report.ply_count} plies"
    return head + "".join(f". {m}" for m in said)


def game_model(report: GameReport, *, source: str | None = None) -> GameModel:
    """The :class:`GameModel` of a replayed game (a report with its ply list, not light).

    >>> from pdnkit.pdn import parse_game
    >>> from pdnkit.validation import replay
    >>> m = game_model(replay(parse_game('[GameType "20"] 1. 32-28 19-23 2. 28-23 *')))
    >>> m.findings[0].code, m.findings[0].written_squares, m.findings[0].legal[:2]
    ('illegal-move', (28, 23), ['28x19'])
    """
    rules = _rules_of(report)
    findings = [_finding_view(f, rules) for f in report.findings]
    record = report.record
    tags = list(record.tags) if record is not None else []
    where = source or (f"{report.file}, game {report.index + 1}" if report.file
                       else f"game {report.index + 1}")
    return GameModel(report, rules, where, _start(report, rules), _ply_views(report), findings,
                     _verdict(report, findings), tags)


def resolve_ply(model: GameModel, ply: str | int | None) -> int:
    """The ply a ``--ply`` value names: a number (clamped to the game), ``end``, or a finding
    code (the first ply with that finding). ``None`` means the first error's ply, else the end.
    Raises ``ValueError`` for a code the game has no finding of at a ply.

    >>> from pdnkit.pdn import parse_game
    >>> from pdnkit.validation import replay
    >>> m = game_model(replay(parse_game('[GameType "20"] 1. 32-28 19-23 2. 28-23 *')))
    >>> resolve_ply(m, "illegal-move"), resolve_ply(m, "end"), resolve_ply(m, 99)
    (3, 3, 3)
    """
    if ply is None:
        first = next((f.ply for f in model.findings
                      if f.severity == "error" and f.ply is not None), None)
        return first if first is not None else model.last_ply
    if isinstance(ply, int) or str(ply).strip().lstrip("-").isdigit():
        return max(0, min(int(ply), model.last_ply))
    text = str(ply).strip().lower()
    if text in ("end", "last", "final"):
        return model.last_ply
    if text in ("start", "begin"):
        return 0
    at = [f.ply for f in model.findings if f.code == text and f.ply is not None]
    if not at:
        codes = sorted({f.code for f in model.findings if f.ply is not None})
        raise ValueError(f"the game has no {text!r} finding at a ply"
                         + (f" (it has: {', '.join(codes)})" if codes else ""))
    return min(at)
