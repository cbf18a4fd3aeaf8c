"""The judge stage of the validator: what the result means, and whether the rules back it.

Takes the report after the replay (the plies replayed, the final position, the draw-rule
events the tracker saw) and fills in ``result``, ``result_raw``, ``outcome`` and
``draw_basis``, with the result and draw findings (``result-mismatch``,
``draw-rule-ignored``, ``draw-by-rule``, ...). The result tokens themselves
(:func:`normalise_token`) are read here too, for every variant's conventions.

Example:
    >>> normalise_token("2-0"), normalise_token("½-½"), normalise_token("4-6")
    ('first', 'draw', None)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from pdnkit._lazy import lazy_pattern
from pdnkit.rules.variants import SOURCE_TAGS
from pdnkit.validation.report import Findings, GameReport

if TYPE_CHECKING:
    from pdnkit.pdn.record import GameRecord
    from pdnkit.rules.draw import RuleEvent
    from pdnkit.rules.variants import Rules

class FinalPosition(Protocol):
    """What the judge reads of the position a main line reached: a rules-engine
    :class:`~pdnkit.rules.Position`, or a clean game's final state as the compiled core
    left it (:class:`pdnkit.validation.clean.FinalState`)."""

    @property
    def side(self) -> int:
        """The side to move (0 White, 1 Black)."""
        ...

    @property
    def white_kings(self) -> frozenset[int]:
        """White's kings."""
        ...

    @property
    def black_kings(self) -> frozenset[int]:
        """Black's kings."""
        ...

    def is_terminal(self) -> bool:
        """Whether the game is over by the rules in this position."""
        ...

    def winner(self) -> int | None:
        """The side that has won by the rules alone, or ``None``."""
        ...


_FIRST = {"1-0", "2-0", "1+-", "1+ -", "+-", "1:0", "2:0"}
_SECOND = {"0-1", "0-2", "-1+", "- 1+", "-+", "0:1", "0:2"}
_DRAW = {"1/2-1/2", "1-1", "=", "1/2", "1/2 1/2", "1:1", "draw", "remise"}
_UNKNOWN = {"*", "", "?", "0-0", "-", "--"}  # a lone '-': the result is not given

#: accepted values of ``result_convention``
CONVENTIONS = ("auto", "white", "first-mover")


def normalise_token(raw: str | None) -> str | None:
    """Meaning of a result token independent of orientation: ``"first"`` (the first number
    won), ``"second"``, ``"draw"``, ``"unknown"`` (``*``, ``0-0``, empty) or ``None`` (an
    unrecognised score such as a match result ``4-6``).

    Example:
        >>> [normalise_token(t) for t in ("1-0", "0-2", "1-1", "*", "0.5-0.5")]
        ['first', 'second', 'draw', 'unknown', 'draw']
    """
    if raw is None:
        return "unknown"
    hit = _MEANINGS.get(raw, _MISSING)
    if hit is not _MISSING:
        return hit  # type: ignore[return-value]
    meaning = _meaning(raw)
    if len(_MEANINGS) >= 4096:  # a file of odd scores does not grow it without bound
        _MEANINGS.clear()
    _MEANINGS[raw] = meaning
    return meaning


#: result token as written -> its meaning (:func:`normalise_token`: a game reads its tag and
#: terminator several times, and a collection writes few distinct tokens)
_MEANINGS: dict[str, str | None] = {}
_MISSING = object()


#: the typographic dashes a result is written with, each read as ``-`` (hyphen,
#: non-breaking hyphen, figure dash, en dash, em dash, minus sign)
_DASHES = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2212", "-"))


#: ``0-0``, a double forfeit (spaces around its dash as :func:`normalise_token` reads them)
_FORFEIT = lazy_pattern(r"\s*0\s*-\s*0\s*")


def _meaning(raw: str) -> str | None:
    """:func:`normalise_token` of a token not seen before."""
    t = raw.strip().lower().replace("½", "1/2").replace("0.5", "1/2")
    t = t.translate(_DASHES)  # typographic dashes: 2\u20130 is 2-0
    t = re.sub(r"\s*-\s*", "-", t)
    if t in _UNKNOWN:
        return "unknown"
    if t in _FIRST:
        return "first"
    if t in _SECOND:
        return "second"
    if t in _DRAW:
        return "draw"
    return None


def first_number_side(rules: Rules, convention: str) -> str:
    """Which colour (``"W"``/``"B"``) the first number of a result belongs to under a
    convention: ``white`` -> White; ``first-mover`` -> the variant's first mover.

    Example:
        >>> class R: first_mover = 1
        >>> first_number_side(R(), "first-mover"), first_number_side(R(), "white")
        ('B', 'W')
    """
    if convention == "first-mover" and int(rules.first_mover) == 1:
        return "B"
    return "W"


def outcome_of(meaning: str | None, first_side: str) -> str:
    """``white``/``black``/``draw``/``unknown`` from a token meaning and the side the first
    number belongs to.

    Example:
        >>> outcome_of("first", "B"), outcome_of("second", "W"), outcome_of(None, "W")
        ('black', 'black', 'unknown')
    """
    if meaning == "draw":
        return "draw"
    if meaning == "first":
        return "white" if first_side == "W" else "black"
    if meaning == "second":
        return "black" if first_side == "W" else "white"
    return "unknown"


_RESULT_OF = {"white": "1-0", "black": "0-1", "draw": "1/2-1/2"}


def result_string(outcome: str, meaning: str | None) -> str | None:
    """The normalised White-first result string for an outcome (``None`` for an unreadable
    score, ``"*"`` for an unknown one).

    Example:
        >>> result_string("black", "first"), result_string("unknown", "unknown")
        ('0-1', '*')
    """
    if outcome in _RESULT_OF:
        return _RESULT_OF[outcome]
    return "*" if meaning == "unknown" else None




def result_sources(record: GameRecord) -> tuple[str | None, str | None]:
    """(the result tag under any name (``Result``, ``Risultato`` ...: see
    :func:`pdnkit.pdn.tags.result_tag`); the movetext's terminator)."""
    from pdnkit.pdn.tags import result_tag

    t = result_tag(record) if hasattr(record, "tags") else None
    return t, getattr(record, "result", None)


def _pick_raw(tag_value: str | None, term: str | None) -> str | None:
    if tag_value is not None and normalise_token(tag_value) != "unknown":
        return tag_value
    if term is not None and normalise_token(term) != "unknown":
        return term
    return tag_value if tag_value is not None else term


def result_source(raw: str | None, tag_value: str | None, term: str | None) -> str | None:
    """Where the result as written comes from: ``"tag"`` (the Result tag under any name),
    ``"terminator"`` (the movetext's result token) or ``None`` (neither gives one).

    Example:
        >>> result_source("2-0", "2-0", "*"), result_source("*", None, "*"), result_source(None, None, None)
        ('tag', 'terminator', None)
    """
    if raw is None:
        return None
    if tag_value is not None and raw is tag_value:
        return "tag"
    return "terminator" if term is not None and raw is term else "tag"


def _tag_vs_terminator(report: GameReport, found: Findings, tag_value: str | None,
                       term: str | None) -> None:
    if tag_value is None or term is None:
        return
    a, b = normalise_token(tag_value), normalise_token(term)
    if a == "unknown" or b == "unknown":
        return
    if a != b or (a is None and tag_value.strip() != term.strip()):
        found.add("result-tag-mismatch",
                  f"the Result tag says {tag_value!r}, the movetext ends with {term!r}",
                  ply=report.replayed_plies or None, tag=tag_value, terminator=term)


def result_without_position(report: GameReport, record: GameRecord, rules: Rules | None,
                            convention: str, found: Findings) -> None:
    """Read the result of a game that was not replayed: no final position to check it by."""
    tag_value, term = result_sources(record)
    raw = _pick_raw(tag_value, term)
    report.result_raw = raw
    report.result_source = result_source(raw, tag_value, term)
    meaning = normalise_token(raw)
    side = first_number_side(rules, "white" if convention == "white" else "first-mover") \
        if rules is not None else "W"
    report.outcome = outcome_of(meaning, side)
    report.result = result_string(report.outcome, meaning)
    _tag_vs_terminator(report, found, tag_value, term)


def _readings(meaning: str | None, rules: Rules, convention: str) -> set[str]:
    """Every outcome a result token can mean under the conventions allowed."""
    if convention == "auto" and int(rules.first_mover) == 1:
        return {outcome_of(meaning, first_number_side(rules, c))
                for c in ("first-mover", "white")}
    return {outcome_of(meaning, first_number_side(rules, convention))}


def judge_result(report: GameReport, record: GameRecord, rules: Rules, convention: str,
                 found: Findings, pos: FinalPosition | None, complete: bool,
                 events: Sequence[RuleEvent] = ()) -> None:
    """Read the result and check it against the final position ``pos`` (when the whole
    main line was replayed, ``complete``) and the automatic draws among ``events``."""
    tag_value, term = result_sources(record)
    last = report.replayed_plies or None

    # what the rules say: the final position decides, or an automatic draw was reached
    decided: str | None = None
    why = ""
    if complete and pos is not None and rules.wins_on_promotion:
        winner = pos.winner()  # the first king wins (Breakthrough, RULES.md 2.5)
        if winner is not None:
            decided = "white" if int(winner) == 0 else "black"
            crowned = pos.white_kings if int(winner) == 0 else pos.black_kings
            why = (f"{decided.capitalize()} has a king at the end and so wins"
                   if crowned else
                   f"{'White' if int(pos.side) == 0 else 'Black'} has no legal move at the "
                   "end and so loses")
    elif complete and pos is not None and pos.is_terminal():
        mover = int(pos.side)
        loser = mover if not rules.losing_game else 1 - mover
        decided = "black" if loser == 0 else "white"
        what = "wins" if rules.losing_game else "loses"
        why = (f"{'White' if mover == 0 else 'Black'} has no legal move at the end and so "
               f"{what}")
    verdict = decided
    if verdict is None and complete and any(e.automatic and e.reached_ply is not None
                                            for e in events):
        verdict = "draw"

    raw = _pick_raw(tag_value, term)
    if verdict is not None and tag_value is not None and term is not None \
            and verdict not in _readings(normalise_token(tag_value), rules, convention) \
            and verdict in _readings(normalise_token(term), rules, convention):
        raw = term  # the tag and the terminator disagree: keep the one the rules back
    report.result_raw = raw
    report.result_source = result_source(raw, tag_value, term)
    meaning = normalise_token(raw)
    _tag_vs_terminator(report, found, tag_value, term)
    if meaning is None:
        found.add("unknown-result", f"result {raw!r} is not a game result", ply=last)
    elif meaning == "unknown" and raw is not None and _FORFEIT.fullmatch(raw.translate(_DASHES)):
        found.add("unknown-result", f"{raw.strip()}: double forfeit", ply=last)

    black_first = int(rules.first_mover) == 1
    if convention == "auto" and black_first:
        readings = {c: outcome_of(meaning, first_number_side(rules, c))
                    for c in ("first-mover", "white")}
        chosen = "first-mover"
        if decided is not None and readings["first-mover"] != decided \
                and readings["white"] == decided:
            chosen = "white"
        if decided is not None and readings[chosen] == decided and \
                readings["first-mover"] != readings["white"]:
            who = "Black (the first mover)" if chosen == "first-mover" else "White"
            found.add("result-convention",
                      f"{raw} read as: the first number is {who}; that reading fits the "
                      "final position", ply=last, convention=chosen)
        outcome = readings[chosen]
    else:
        outcome = outcome_of(meaning, first_number_side(rules, convention))
    report.outcome = outcome
    report.result = result_string(outcome, meaning)
    if decided is not None and outcome != "unknown" and outcome != decided:
        found.add("result-mismatch",
                  f"{why}, but the result "
                  f"{raw!r} says {'a draw' if outcome == 'draw' else outcome + ' won'}",
                  ply=last, expected=decided, result=raw)


def judge_draws(report: GameReport, found: Findings, events: Sequence[RuleEvent]) -> None:
    """Draw rules reached and not respected, and the rule that backs a drawn result."""
    last = report.replayed_plies
    reached = sorted(((e.reached_ply, e) for e in events if e.reached_ply is not None),
                     key=lambda t: t[0])
    decisive = report.outcome in ("white", "black")
    first_auto = next((t for t in reached if t[1].automatic), None)
    # rules reached and not respected
    for at, e in reached:
        if first_auto is not None and at > first_auto[0]:
            break
        went_on = at < last
        if not (went_on or decisive):
            continue
        how = (f"the game went on for {last - at} more plies" if went_on
               else f"the game was scored {report.result_raw}")
        kind = "an automatic draw" if e.automatic else "a draw claim"
        sourced = e.source == "P"
        # RULES.md section 0: a rule known only from a secondary summary [S], an
        # implementation [I] or no source [U] never makes an error of its own
        doubt = "" if sourced else (
            f"; the rule is {SOURCE_TAGS.get(e.source, 'not confirmed')} [{e.source}], "
            "so this is a warning")
        found.add("draw-rule-ignored",
                  f"{e.article} ({e.rule}) gives {kind} at ply {at}, but {how}{doubt}",
                  ply=at, severity=None if e.automatic and sourced else "warning",
                  rule=e.rule, article=e.article, automatic=e.automatic,
                  reached_ply=at, source=e.source)
        if e.automatic:
            break
    if report.outcome != "draw":
        return
    basis = first_auto[1] if first_auto is not None else None
    if basis is None:
        # a claim that still holds at the end of the game backs the draw
        holding = [e for _, e in reached if e.end_ply is None or e.end_ply >= last]
        basis = holding[-1] if holding else None
    if basis is not None:
        report.draw_basis = basis.rule
        found.add("draw-by-rule", f"the draw is backed by {basis.article} ({basis.rule}), "
                  f"reached at ply {basis.reached_ply}", ply=basis.reached_ply, rule=basis.rule,
                  article=basis.article, automatic=basis.automatic)
    else:
        found.add("draw-unsupported", "no draw rule was reached; the draw was presumably agreed",
                  ply=last or None)
