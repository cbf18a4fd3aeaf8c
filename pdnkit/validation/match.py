"""The match stage of the validator: a written move to the one legal move it stands for.

A recorded move is a list of squares (origin, optional intermediate squares, destination);
:func:`pdnkit.rules.notation.match_move` finds the legal moves it can mean (route squares for
men and flying kings, RULES.md 1.5, and the engine styles that list captured squares). This
module adds the diagnosis when nothing matches (:func:`describe_failure`): a skipped capture,
a capture the variant's choice rule excludes (and which precedence key it broke), or a plain
illegal move; and the readings of a written move that are not one legal move as written: a
capture written one jump per ply (:func:`merge_split_capture`) and an ambiguous move settled
by the moves that follow it (:func:`settle_ambiguity`).

A quiet recorded move is checked with ``has_capture()`` and the position's direct quiet-move
test, never a full move list (only captures need the generator).

Example:
    >>> from pdnkit.rules import Position, get_rules
    >>> match_move(Position.initial(get_rules("international")), [32, 28]).ok
    True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pdnkit.rules.notation import format_move, parse_square, square_name
from pdnkit.rules.notation import match_move as _legal_readings
from pdnkit.rules.position import Move, Position
from pdnkit.rules.variants import CAPTURE_KEYS, Rules

if TYPE_CHECKING:
    from pdnkit.pdn.record import MoveNode

#: ``dataclasses.replace`` for a rules field named at run time
_replace_rules: Callable[..., Rules] = dataclasses.replace

#: the separators that write a capture
CAPTURE_SEPS = frozenset(("x", "X", ":"))


@dataclass
class MatchResult:
    """What a recorded move resolved to.

    ``kind`` is ``ok``, ``ambiguous`` (``candidates`` holds the legal moves it matches),
    ``illegal``, ``missed-capture``, ``not-max-capture``, ``capture-priority``, ``no-moves``
    (the side to move has no legal move at all), ``bad-square`` or ``merged`` (a capture
    written as several plies). ``required`` lists the legal moves when the recorded move broke
    a capture rule; ``broken`` names the broken precedence key for ``capture-priority``.

    Example:
        >>> MatchResult("ok").ok
        True
    """

    kind: str
    move: Move | None = None
    candidates: list[Move] = field(default_factory=list)
    required: list[Move] = field(default_factory=list)
    broken: str | None = None
    note: str | None = None

    @property
    def ok(self) -> bool:
        """True when the move resolved to exactly one legal move."""
        return self.kind == "ok"

    @property
    def readable(self) -> bool:
        """True when the move reads as at least one legal move (``ok`` or ``ambiguous``)."""
        return self.move is not None and self.kind in ("ok", "ambiguous")


#: square tokens -> square numbers, or the reason they are not squares
SquaresCache = dict[tuple[str, ...], "list[int] | str"]

_SQ_CACHE: dict[int, tuple[Rules, SquaresCache]] = {}


def squares_cache(rules: Rules) -> SquaresCache:
    """The per-rules cache of :func:`parse_squares` results (square tokens -> numbers)."""
    entry = _SQ_CACHE.get(id(rules))
    if entry is None or entry[0] is not rules:
        entry = (rules, {})
        _SQ_CACHE[id(rules)] = entry
    return entry[1]


def parse_squares(rules: Rules, tokens: Sequence[str]) -> list[int] | str:
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
    numbers: list[int] = []
    out: list[int] | str = numbers
    for t in tokens:
        try:
            numbers.append(parse_square(rules, t))
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            out = str(exc) or f"{t!r} is not a square of the {rules.name} board"
            break
    if len(cache) > 100_000:
        cache.clear()
    cache[key] = out
    return out


def _relaxed_positions(pos: Position) -> list[tuple[str | None, Position]]:
    """Copies of ``pos`` under rules with a growing prefix of the capture precedence keys:
    ``[(None, no filter), (key1, keys[:1]), ...]``. Empty when the rules have no
    precedence keys."""
    rules = pos.rules
    keys = tuple(rules.capture_precedence)
    out: list[tuple[str | None, Position]] = []
    for i in range(len(keys)):
        r = _replace_rules(rules, capture_precedence=keys[:i])
        out.append((keys[i - 1] if i else None, _same_position(pos, r)))
    return out


def _same_position(pos: Position, rules: Rules) -> Position:
    return Position.from_squares(
        rules, pos.side, white_men=pos.white_men, white_kings=pos.white_kings,
        black_men=pos.black_men, black_kings=pos.black_kings)


def flip_side(pos: Position) -> Position:
    """``pos`` with the other side to move."""
    return Position.from_squares(
        pos.rules, pos.side.opponent, white_men=pos.white_men, white_kings=pos.white_kings,
        black_men=pos.black_men, black_kings=pos.black_kings)


def _select(pos: Position, moves: Sequence[Move], sq: Sequence[int]) -> list[Move]:
    return _legal_readings(pos, sq, legal=moves)


def match_move(pos: Position, sq: Sequence[int], capture_known: bool = False) -> MatchResult:
    """Resolve the recorded squares ``sq`` (origin, intermediate..., destination) in ``pos``.

    ``capture_known``: the caller has just seen ``pos.has_capture()`` return True.

    Example:
        >>> from pdnkit.rules import Position, get_rules
        >>> match_move(Position.initial(get_rules("international")), [32, 37]).kind
        'illegal'
    """
    if len(sq) < 2:
        return MatchResult("illegal", note="a move needs an origin and a destination")
    o, d = sq[0], sq[-1]
    if len(sq) == 2 and not capture_known and not pos.has_capture():
        m = pos.quiet_move(o, d)
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
    if len(sq) == 2 and pos.quiet_move_exists(o, d, ignore_capture_rule=True):
        return MatchResult("missed-capture", required=captures)
    broken = _broken_precedence(pos, sq, captures)
    if broken is not None:
        return broken
    return MatchResult("illegal", required=captures, note=_relaxation_note(pos, sq))


def _broken_precedence(pos: Position, sq: Sequence[int], captures: list[Move]
                       ) -> MatchResult | None:
    """A capture the variant's choice rule excludes: which precedence key removed it."""
    relaxed = _relaxed_positions(pos)
    if not relaxed:
        return None
    free_pos = relaxed[0][1]
    mine = _select(free_pos, free_pos.legal_moves(), sq)
    if not mine:
        return None
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


#: Rule fields whose relaxation explains an illegal capture: (field, relaxed value, note).
_RELAXATIONS = (
    ("men_capture_kings", True, "a man may not capture a king in this variant"),
    ("men_capture_backward", True, "a man may not capture backwards in this variant"),
)


def _relaxation_note(pos: Position, sq: Sequence[int]) -> str | None:
    """Why a capture that is geometrically possible is still illegal, when one rule field
    explains it (e.g. an Italian man taking a king)."""
    rules = pos.rules
    for name, value, note in _RELAXATIONS:
        if getattr(rules, name) == value:
            continue
        rp = _same_position(pos, _replace_rules(rules, **{name: value}))
        if _select(rp, rp.legal_moves(), sq):
            return note
    return None


def _precedence_field_last(rules: Rules) -> str | None:
    keys = tuple(rules.capture_precedence)
    return keys[-1] if keys else None


# --- readings of a written move that are not one legal move as written ----------------------


def fmt_move(move: Move, rules: Rules) -> str:
    """A move as the findings write it (the full path of a multiple capture)."""
    return format_move(move, rules, full_path=len(move.captured) > 1)


def fmt_list(moves: Iterable[Move], rules: Rules, limit: int = 12) -> list[str]:
    """The distinct moves of ``moves`` as the findings write them, sorted, at most ``limit``."""
    out = sorted({fmt_move(m, rules) for m in moves})
    return out[:limit]


def _play_quiet_sequence(pos: Position, nodes: Sequence[MoveNode], rules: Rules) -> int:
    """How many of ``nodes`` replay from ``pos`` (ambiguities take the first reading)."""
    n = 0
    for node in nodes:
        if node.placeholder or not node.squares:
            break
        if node.setup_before:
            break
        sq = parse_squares(rules, node.squares)
        if isinstance(sq, str):
            break
        res = match_move(pos, sq)
        if res.move is None or not res.readable:
            break
        pos = pos.play(res.move)
        n += 1
    return n


def settle_ambiguity(pos: Position, candidates: Sequence[Move], rest: Sequence[MoveNode],
                     rules: Rules) -> tuple[Move, bool]:
    """The reading of an ambiguous move to replay: the only one after which every move in
    ``rest`` replays (second item True), else the one that gets furthest (False)."""
    reach = [(_play_quiet_sequence(pos.play(m), rest, rules), m) for m in candidates]
    full = [m for n, m in reach if n == len(rest)]
    if len(full) == 1:
        return full[0], True
    return max(reach, key=lambda t: t[0])[1], False


def merge_split_capture(pos: Position, sq: Sequence[int], nodes: Sequence[MoveNode], k: int,
                        rules: Rules) -> tuple[Move, int] | None:
    """A capture written one jump per ply (``d6xb4 b4xd2``, PlayStrategy exports): join the
    following plies that go on from where the last one landed, while that reads as one legal
    move. Returns (move, number of extra plies used) or None."""
    path = list(sq)
    for j in range(k + 1, min(len(nodes), k + 16)):
        nxt = nodes[j]
        if nxt.placeholder or not nxt.squares:
            return None
        nsq = parse_squares(rules, nxt.squares)
        if isinstance(nsq, str) or nsq[0] != path[-1]:
            return None
        path.extend(nsq[1:])
        res = match_move(pos, path)
        if res.move is not None and res.readable:
            return res.move, j - k
    return None


def separator_mismatch(node: MoveNode, move: Move, rules: Rules) -> str | None:
    """What is wrong with the separator ``node`` writes ``move`` with, else ``None``."""
    seps = node.separators
    if not seps:
        return None
    if move.captured:
        if len(seps) == 1 and seps[0] == "-" and rules.capture_separator != "-":
            return "a capture written with '-'"
    elif seps[0] in CAPTURE_SEPS:
        return "a quiet move written with a capture separator"
    return None


def describe_failure(res: MatchResult, rules: Rules, sq: Sequence[int], pos: Position
                     ) -> tuple[str, str, dict[str, object]]:
    """(code, message, details) for a move that did not resolve."""

    def nm(n: int) -> str:
        return square_name(rules, n)

    if res.kind == "missed-capture":
        req = fmt_list(res.required, rules)
        return ("missed-capture",
                f"quiet move {nm(sq[0])}-{nm(sq[-1])} while a capture was compulsory "
                f"({', '.join(req)})", {"required": req})
    if res.kind == "not-max-capture":
        taken = max(len(m.captured) for m in res.candidates)
        need = max(len(m.captured) for m in res.required)
        req = fmt_list(res.required, rules)
        pl = "piece" if taken == 1 else "pieces"
        return ("not-max-capture",
                f"captured {taken} {pl}; {need} were required ({', '.join(req)})",
                {"taken": taken, "required": need, "required_moves": req,
                 "rule": res.broken})
    if res.kind == "capture-priority":
        req = fmt_list(res.required, rules)
        what = CAPTURE_KEYS.get(res.broken or "", res.broken)
        return ("capture-priority",
                f"the capture breaks the priority rule '{res.broken}' ({what}); required: "
                f"{', '.join(req)}", {"rule": res.broken, "required_moves": req})
    # illegal: say what is wrong where it is cheap to tell
    piece = pos.piece_at(sq[0]) if sq else None
    side = int(pos.side)
    if piece is None:
        why = f"there is no piece on {nm(sq[0])}"
    elif int(piece[0]) != side:
        why = (f"the piece on {nm(sq[0])} is {'White' if int(piece[0]) == 0 else 'Black'}'s, "
               f"but {'White' if side == 0 else 'Black'} is to move")
    else:
        why = f"no legal move of the piece on {nm(sq[0])} goes to {nm(sq[-1])}"
    details: dict[str, object] = {}
    if res.note:
        why = f"{res.note} ({nm(sq[0])}x{nm(sq[-1])})"
    if res.required:
        required = fmt_list(res.required, rules)
        details["required"] = required
        why += f"; a capture was compulsory ({', '.join(required)})"
    return "illegal-move", why, details


# --- irregular moves that may stand (RULES.md 2.0 "Irregularities") -------------------------


def partial_capture(pos: Position, sq: Sequence[int]) -> Move | None:
    """The capture that the written squares ``sq`` describe when it stopped before its end:
    the first jumps of one capture route of the piece on ``sq[0]`` (the precedence rules
    relaxed), ending on ``sq[-1]``, every written square on the route in order. ``None`` when
    no route reads so.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> p = Position.from_squares(get_rules("international"), "W", white_men=[32],
        ...                           black_men=[28, 19])
        >>> partial_capture(p, [32, 23]).captured
        (28,)
    """
    if len(sq) < 2:
        return None
    relaxed = _relaxed_positions(pos)
    free = relaxed[0][1] if relaxed else pos
    o, d = sq[0], sq[-1]
    piece = pos.piece_at(o)
    if piece is None or int(piece[0]) != int(pos.side):
        return None
    promo = pos.rules.geometry.promotion_squares(int(pos.side))
    crown_mid = pos.rules.promotion_during_capture == "king"
    for m in free.legal_moves(all_routes=True):
        if m.origin != o or not m.captured:
            continue
        path = m.path
        for i in range(1, min(len(path) - 1, len(m.captured))):
            if path[i] != d or not _in_order(sq[1:-1], path[1:i]):
                continue
            captured = m.captured[:i]
            if crown_mid:
                promotes = not m.is_king and any(s in promo for s in path[1:i + 1])
            else:
                promotes = not m.is_king and d in promo
            return Move(o, d, path[:i + 1], captured,
                        tuple(c for c in captured if c in m.captured_kings), promotes,
                        m.is_king)
    return None


def _in_order(written: Sequence[int], route: Sequence[int]) -> bool:
    """True when every written square is on ``route``, in the same order."""
    it = iter(route)
    return all(any(s == r for r in it) for s in written)


def irregular_move(pos: Position, sq: Sequence[int], res: MatchResult) -> Move | None:
    """The move a written move that broke a capture rule stands for, as played: the quiet
    move of a ``missed-capture``, the capture of a ``not-max-capture`` or
    ``capture-priority`` (the first reading when several), the first jumps of a capture that
    stopped early (``illegal`` while a capture was compulsory). ``None`` when the move
    cannot be interpreted on the board (no piece of the mover on the origin, a move no piece
    can make)."""
    if res.kind == "missed-capture":
        return pos.quiet_move(sq[0], sq[-1])
    if res.kind in ("not-max-capture", "capture-priority"):
        return res.candidates[0] if res.candidates else None
    if res.kind == "illegal" and res.required and res.note is None:
        return partial_capture(pos, sq)
    return None
