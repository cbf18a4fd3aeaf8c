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

from pdnkit.errors import ArgumentError
from pdnkit.viewer.plies import PlyView, placement_of

if TYPE_CHECKING:  # pragma: no cover
    from pdnkit.pdn.tags import GameTags
    from pdnkit.rules import Rules
    from pdnkit.validation import GameReport
    from pdnkit.viewer.variations import VariationView

__all__ = ["FindingView", "GameModel", "PlyView", "add_analysis", "comment_evals", "game_model",
           "placement_of", "players", "resolve_ply", "result_text", "winner_text"]

#: stages of finding codes whose findings say something about the result
_VERDICT_STAGES = ("result", "draw")


def _name(value: object) -> str | None:
    """A player name, or ``None`` for a missing one (``None``, NaN, empty, PDN's ``?``)."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    return text if text and text != "?" else None


def players(white: object, black: object) -> str:
    """``White - Black`` as the views write it: ``?`` for a missing name, ``(no players)``
    when both are missing (a tagless game; also for NaN from a DataFrame).

    >>> players("Sijbrands", None), players(None, float("nan")), players("", "Baba")
    ('Sijbrands - ?', '(no players)', '? - Baba')
    """
    w, b = _name(white), _name(black)
    if w is None and b is None:
        return "(no players)"
    return f"{w or '?'} - {b or '?'}"


_SIDES = {"white": "White", "black": "Black"}


def winner_text(outcome: object, white: object = None, black: object = None) -> str:
    """Who won, from the game's normalised ``outcome`` (``white``/``black``/``draw``/
    ``unknown``): ``Black won: MF Tinsley``, ``draw``, or ``no result``.

    >>> winner_text("black", "E Fuller", "MF Tinsley"), winner_text("draw"), winner_text(None)
    ('Black won: MF Tinsley', 'draw', 'no result')
    """
    if outcome in _SIDES:
        name = _name(white if outcome == "white" else black)
        return f"{_SIDES[str(outcome)]} won" + (f": {name}" if name else "")
    return "draw" if outcome == "draw" else "no result"


def result_text(result: object, outcome: object, white: object = None,
                black: object = None) -> str:
    """A result as written with its winner named, never a bare score: in English the first
    number of ``1-0`` is Black's (the first mover's), in most variants White's, so the
    views always say who won, from the normalised ``outcome``.

    >>> result_text("1-0", "black", "E Fuller", "MF Tinsley")
    '1-0 (Black won: MF Tinsley)'
    >>> result_text("1-1", "draw"), result_text("*", "unknown"), result_text("2-1", "unknown")
    ('1-1 (draw)', '* (no result)', '2-1 (outcome unknown)')
    """
    raw = result.strip() if isinstance(result, str) and result.strip() else "*"
    if outcome in _SIDES or outcome == "draw":
        return f"{raw} ({winner_text(outcome, white, black)})"
    return f"{raw} ({'no result' if raw == '*' else 'outcome unknown'})"


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
    #: the finding is about a move of a variation (``ply`` counts as in the game)
    in_variation: bool = False


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
    #: the variations, replayed (parents before their children; see viewer.variations)
    variations: list[VariationView] = field(default_factory=list)
    #: an engine's score of each position (index = ply, 0 the start; men, White's view;
    #: None where there is none), from the database's analysis or ``[%eval]`` comments
    evals: list[float | None] = field(default_factory=list)
    #: whose scores they are (``dame 0.2.0 depth 6``, ``[%eval] comments``)
    eval_by: str | None = None

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
        """``White - Black, Event, Date: result (who won)``: the event and the date under
        any tag name the tag mapping knows, the date as every table writes it."""
        r = self.report
        names = players(r.white, r.black)
        t = self.game_tags()
        extra = [v for v in (t.event, t.date_text) if v and v != "?"]
        return ", ".join([names, *extra]) + f": {self.result_text()}"

    def game_tags(self) -> GameTags:
        """The game's fields read from its tags (:func:`pdnkit.pdn.tags.game_tags`)."""
        from pdnkit.pdn.tags import game_tags

        return game_tags(self.tags, self.rules.name if self.rules else None)

    def result_text(self) -> str:
        """The result as written and who won (:func:`result_text`)."""
        r = self.report
        return result_text(r.result_raw or r.result, r.outcome, r.white, r.black)

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
            "plies": [_ply_json(p) for p in self.plies],
            "vars": [{"at": v.at, "parent": v.parent, "depth": v.depth, "stop": v.stopped,
                      "plies": [_ply_json(p) for p in v.plies]} for v in self.variations],
            "findings": [{"code": f.code, "sev": f.severity, "msg": f.message, "ply": f.ply,
                          "move": f.move, "line": f.line, "fen": f.fen,
                          "sq": list(f.written_squares), "legal": f.legal,
                          "legalPaths": [list(p) for p in f.legal_paths],
                          "before": f.before, "inVar": f.in_variation}
                         for f in self.findings],
            "evals": self.evals,
            "evalBy": self.eval_by,
            "status": self.report.status,
            "result": self.report.result_raw or self.report.result,
            "resultText": self.result_text(),
            "verdict": self.verdict,
        }


def _ply_json(p: PlyView) -> dict[str, Any]:
    return {"n": p.ply, "num": p.number, "side": p.side, "w": p.written, "c": p.notation,
            "path": list(p.path), "cap": list(p.captured), "nags": p.nags, "cm": p.comment,
            "ok": p.replayed, "pl": p.placement}


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
    view = FindingView(f.code, sev, f.message, f.ply, f.move, f.line, f.fen,
                       in_variation=bool(getattr(f, "in_variation", False)))
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
    from pdnkit.viewer.variations import variations

    plies = _ply_views(report)
    evals = comment_evals(plies)
    return GameModel(report, rules, where, _start(report, rules), plies, findings,
                     _verdict(report, findings), tags, variations(report), evals,
                     "[%eval] comments" if evals else None)


def comment_evals(plies: list[PlyView]) -> list[float | None]:
    """The scores of ``[%eval]`` comments after the main line's moves (index = ply; empty
    when no move has one).

    >>> from pdnkit.pdn import parse_game
    >>> from pdnkit.validation import replay
    >>> rep = replay(parse_game('[GameType "20"] 1. 32-28 {[%eval 0.25,6]} 19-23 *'))
    >>> comment_evals(_ply_views(rep))
    [None, 0.25, None]
    """
    from pdnkit.pdn.annotations import read_eval

    found = [read_eval(p.comment) for p in plies]
    if not any(found):
        return []
    return [None] + [f[0] if f else None for f in found]


def add_analysis(model: GameModel, evals: list[tuple[int, float | None]], by: str,
                 findings: list[Any]) -> None:
    """Give ``model`` an analysis's scores (``(ply, score)``) and its findings (records with
    the fields of :class:`pdnkit.findings.Finding`), in place of any ``[%eval]`` comments.

    >>> m = game_model_of_text('[GameType "20"] 1. 32-28 19-23 *')
    >>> add_analysis(m, [(0, 0.0), (2, -0.5)], "builtin 1 depth 2", [])
    >>> m.evals, m.eval_by
    ([0.0, None, -0.5], 'builtin 1 depth 2')
    """
    if evals:
        last = max(model.last_ply, max(p for p, _ in evals))
        scores: list[float | None] = [None] * (last + 1)
        for ply, score in evals:
            scores[ply] = score
        model.evals, model.eval_by = scores, by
    model.findings += [_finding_view(f, model.rules) for f in findings]


def game_model_of_text(text: str) -> GameModel:
    """The model of the first game of a PDN text (for examples)."""
    from pdnkit.pdn import parse_game
    from pdnkit.validation import replay

    return game_model(replay(parse_game(text)))


def resolve_ply(model: GameModel, ply: str | int | None) -> int:
    """The ply a ``--ply`` value names: a number from 0 (the start) to the game's last ply,
    ``end``, ``start``, or a finding code (the first ply with that finding). ``None`` means
    the first error's ply, else the end. Raises ``ValueError`` for a ply outside the game
    (saying its range) and for a code the game has no finding of at a ply.

    >>> from pdnkit.pdn import parse_game
    >>> from pdnkit.validation import replay
    >>> m = game_model(replay(parse_game('[GameType "20"] 1. 32-28 19-23 2. 28-23 *')))
    >>> resolve_ply(m, "illegal-move"), resolve_ply(m, "end"), resolve_ply(m, 2)
    (3, 3, 2)
    >>> resolve_ply(m, 99)
    Traceback (most recent call last):
    ...
    pdnkit.errors.ArgumentError: there is no ply 99: the game has 3 plies (give 0 for the start up to 3, end, or a finding code)
    """
    if ply is None:
        first = next((f.ply for f in model.findings
                      if f.severity == "error" and f.ply is not None), None)
        return first if first is not None else model.last_ply
    if isinstance(ply, int) or str(ply).strip().lstrip("-").isdigit():
        k = int(ply)
        if not 0 <= k <= model.last_ply:
            n = model.last_ply
            raise ArgumentError(f"there is no ply {k}: the game has {n} pl{'y' if n == 1 else 'ies'}"
                             f" (give 0 for the start up to {n}, end, or a finding code)")
        return k
    text = str(ply).strip().lower()
    if text in ("end", "last", "final"):
        return model.last_ply
    if text in ("start", "begin"):
        return 0
    at = [f.ply for f in model.findings if f.code == text and f.ply is not None]
    if not at:
        codes = sorted({f.code for f in model.findings if f.ply is not None})
        raise ArgumentError(f"the game has no {text!r} finding at a ply"
                         + (f" (it has: {', '.join(codes)})" if codes else ""))
    return min(at)
