"""Helpers of :mod:`pdnkit.replay`: turn a recorded move into the legal move it stands for.

A recorded move is a list of squares (origin, optional intermediate squares, destination);
:func:`pdnkit.rules.notation.match_move` finds the legal moves it can mean (route squares for
men and flying kings, RULES.md 1.5, and the engine styles that list captured squares). This
module adds the diagnosis when nothing matches: a skipped capture, a capture the variant's
choice rule excludes (and which precedence key it broke), or a plain illegal move.

A quiet recorded move is checked with ``has_capture()`` and a direct quiet-move test, never a
full move list (only captures need the generator).

Example:
    >>> MatchResult("ok").ok
    True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class MatchResult:
    """What a recorded move resolved to.

    ``kind`` is ``ok``, ``ambiguous`` (``candidates`` holds the legal moves it matches),
    ``illegal``, ``missed-capture``, ``not-max-capture``, ``capture-priority``, ``no-moves``
    (the side to move has no legal move at all) or ``bad-square``. ``required`` lists the
    legal moves when the recorded move broke a capture rule; ``broken`` names the broken
    precedence key for ``capture-priority``.
    """

    kind: str
    move: Any = None
    candidates: list[Any] = field(default_factory=list)
    required: list[Any] = field(default_factory=list)
    broken: str | None = None
    note: str | None = None

    @property
    def ok(self) -> bool:
        """True when the move resolved to exactly one legal move."""
        return self.kind == "ok"


_SQ_CACHE: dict[int, tuple[Any, dict[tuple[str, ...], list[int] | str]]] = {}


def squares_cache(rules: Any) -> dict[tuple[str, ...], list[int] | str]:
    """The per-rules cache of :func:`parse_squares` results (square tokens -> numbers)."""
    entry = _SQ_CACHE.get(id(rules))
    if entry is None or entry[0] is not rules:
        entry = (rules, {})
        _SQ_CACHE[id(rules)] = entry
    return entry[1]


def parse_squares(rules: Any, tokens: Sequence[str]) -> list[int] | str:
    """PDN square numbers for the square tokens of a move, or an error message (cached).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> parse_squares(get_rules("international"), ("32", "28"))
        [32, 28]
        >>> parse_squares(get_rules("international"), ("32", "58"))
        'square 58 is off the 10x10 board'
    """
    cache = squares_cache(rules)
    key = tuple(tokens)
    got = cache.get(key)
    if got is not None:
        return got
    from pdnkit.rules import parse_square

    out: list[int] | str = []
    for t in tokens:
        try:
            out.append(parse_square(rules, t))  # type: ignore[union-attr]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            out = str(exc) or f"{t!r} is not a square of the {rules.name} board"
            break
    if len(cache) > 100_000:
        cache.clear()
    cache[key] = out
    return out


def quiet_move(pos: Any, o: int, d: int) -> Any:
    """The legal quiet move ``o``-``d`` (the caller knows no capture is available), else
    ``None``, built from the position's direct quiet-move test instead of a move list.

    Example:
        >>> from pdnkit.rules import Position, get_rules
        >>> quiet_move(Position.initial(get_rules("international")), 32, 28).path
        (32, 28)
    """
    direct = _direct_test(pos)
    if direct is not None:  # an engine-side per-piece test, when the engine offers one
        return direct(o, d)
    if not pos.quiet_move_exists(o, d, ignore_capture_rule=True):
        return None
    piece = pos.piece_at(o)
    is_king = bool(piece[1]) if piece else False
    promotes = not is_king and d in _promotion_squares(pos.rules, int(pos.side))
    return _Move()(o, d, (o, d), (), (), promotes, is_king)


_DIRECT: dict[type, bool] = {}


def _direct_test(pos: Any) -> Any:
    cls = type(pos)
    has = _DIRECT.get(cls)
    if has is None:
        has = _DIRECT[cls] = hasattr(cls, "quiet_move")
    return pos.quiet_move if has else None


_PROMO: dict[tuple[int, int], tuple[Any, frozenset[int]]] = {}


def _promotion_squares(rules: Any, side: int) -> frozenset[int]:
    key = (id(rules), side)
    got = _PROMO.get(key)
    if got is None or got[0] is not rules:
        got = (rules, frozenset(rules.geometry.promotion_squares(side)))
        _PROMO[key] = got
    return got[1]


_MOVE: list[Any] = []


def _Move() -> Any:  # noqa: N802 - stands for the class
    if not _MOVE:
        from pdnkit.rules import Move

        _MOVE.append(Move)
    return _MOVE[0]


def _quiet_exists(pos: Any, o: int, d: int) -> bool:
    """Would ``o``-``d`` be a legal quiet move if captures were not compulsory?"""
    return bool(pos.quiet_move_exists(o, d, ignore_capture_rule=True))


def _relaxed_positions(pos: Any) -> list[tuple[str | None, Any]]:
    """Copies of ``pos`` under rules with a growing prefix of the capture precedence keys:
    ``[(None, no filter), (key1, keys[:1]), ...]``. Empty when the rules have no such field."""
    rules = pos.rules
    name = _precedence_field(rules)
    if name is None:
        return []
    keys = tuple(getattr(rules, name))
    out: list[tuple[str | None, Any]] = []
    for i in range(len(keys)):
        r = dataclasses.replace(rules, **{name: keys[:i]})
        out.append((keys[i - 1] if i else None, _same_position(pos, r)))
    return out


_PRECEDENCE_NAMES = ("capture_precedence", "capture_choice", "capture_priority",
                     "capture_rule", "capture_filters", "choice")


def _precedence_field(rules: Any) -> str | None:
    for n in _PRECEDENCE_NAMES:
        v = getattr(rules, n, None)
        if isinstance(v, tuple) and all(isinstance(x, str) for x in v):
            return n
    return None


def _same_position(pos: Any, rules: Any) -> Any:
    from pdnkit.rules import Position

    return Position.from_squares(
        rules, pos.side, white_men=pos.white_men, white_kings=pos.white_kings,
        black_men=pos.black_men, black_kings=pos.black_kings)


def _select(pos: Any, moves: Sequence[Any], sq: Sequence[int]) -> list[Any]:
    from pdnkit.rules.notation import match_move as _nm

    return _nm(pos, sq, legal=moves)


def match_move(pos: Any, sq: Sequence[int], capture_known: bool = False) -> MatchResult:
    """Resolve the recorded squares ``sq`` (origin, intermediate..., destination) in ``pos``.

    ``capture_known``: the caller has just seen ``pos.has_capture()`` return True.

    Example:
        >>> from pdnkit.rules import Position, get_rules
        >>> match_move(Position.initial(get_rules("international")), [32, 28]).ok
        True
    """
    if len(sq) < 2:
        return MatchResult("illegal", note="a move needs an origin and a destination")
    o, d = sq[0], sq[-1]
    if len(sq) == 2 and not capture_known and not pos.has_capture():
        m = quiet_move(pos, o, d)
        if m is not None:
            return MatchResult("ok", m)
        if pos.is_terminal():
            return MatchResult("no-moves")
        return MatchResult("illegal", note=_relaxation_note(pos, sq))
    legal = pos.legal_moves()
    if not legal:
        return MatchResult("no-moves")
    hit = _select(pos, legal, sq)
    if len(hit) == 1:
        return MatchResult("ok", hit[0], candidates=legal)
    if hit:
        return MatchResult("ambiguous", hit[0], candidates=hit)
    captures = [m for m in legal if m.captured]
    if not captures:
        return MatchResult("illegal")
    if len(sq) == 2 and _quiet_exists(pos, o, d):
        return MatchResult("missed-capture", required=captures)
    # A capture the variant's choice rule excludes: find which precedence key removed it.
    relaxed = _relaxed_positions(pos)
    if relaxed:
        free_pos = relaxed[0][1]
        mine = _select(free_pos, free_pos.legal_moves(), sq)
        if mine:
            broken = None
            for key, rp in relaxed[1:]:
                if not _select(rp, rp.legal_moves(), sq):
                    broken = key
                    break
            if broken is None:
                broken = _precedence_field_last(pos.rules)
            taken = max(len(m.captured) for m in mine)
            need = max(len(m.captured) for m in captures)
            kind = "not-max-capture" if need > taken else "capture-priority"
            return MatchResult(kind, candidates=mine, required=captures, broken=broken)
    note = _relaxation_note(pos, sq)
    return MatchResult("illegal", required=captures, note=note)


#: Rule fields whose relaxation explains an illegal capture: (field, relaxed value, note).
_RELAXATIONS = (
    ("men_capture_kings", True, "a man may not capture a king in this variant"),
    ("men_capture_backward", True, "a man may not capture backwards in this variant"),
)


def _relaxation_note(pos: Any, sq: Sequence[int]) -> str | None:
    """Why a capture that is geometrically possible is still illegal, when one rule field
    explains it (e.g. an Italian man taking a king)."""
    rules = pos.rules
    for name, value, note in _RELAXATIONS:
        if getattr(rules, name, value) == value:
            continue
        rp = _same_position(pos, dataclasses.replace(rules, **{name: value}))
        if _select(rp, rp.legal_moves(), sq):
            return note
    return None


def _precedence_field_last(rules: Any) -> str | None:
    name = _precedence_field(rules)
    keys = tuple(getattr(rules, name)) if name else ()
    return keys[-1] if keys else None
