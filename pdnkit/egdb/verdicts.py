"""Verdicts on a game's ending: what the endgame databases say of the positions it reached.

:func:`judge_line` reads the positions of a game's main line that the databases hold (the
tail of a game whose material fell to their number of pieces) and gives:

* ``result-vs-egdb`` -- the recorded result contradicts the value of the final position
  (a game scored as a win in a drawn position, a draw in a won one, the other side's win);
  a final position without a legal move is left to ``result-mismatch``;
* ``win-thrown-away`` -- the ply where a side with a won position made a move after which
  it no longer wins (a draw, or a loss);
* ``draw-thrown-away`` -- the ply where a side with a drawn position made a move that loses;
* ``egdb-win-drawn-by-rule`` -- the game was drawn by a move-count rule (FMJD 16/25 moves,
  English 40 moves, Russian 15 moves ...) in a position the databases say is won, and
  whether the fastest win fitted within the rule's limit.

Each verdict names its ply (the move judged), the position before it and, in ``details``,
the values before and after and the moves that keep the value. The databases' values have
no move-count rule (see :mod:`pdnkit.egdb.prober`).

Example:
    >>> import tempfile
    >>> from pdnkit.egdb.builder import build
    >>> from pdnkit.egdb.prober import Egdb
    >>> from pdnkit.rules import parse_fen
    >>> d = tempfile.mkdtemp(); _ = build("english", 3, directory=d)
    >>> db = Egdb("english", d)
    >>> p0 = parse_fen("W:WK19,K23:BK32", db.rules)   # White wins (Lasker's diagram 89)
    >>> p1 = p0.play([m for m in p0.legal_moves() if str(m) == "23-27"][0])  # 32x23x14 wins
    >>> [v.code for v in judge_line(db, [(0, p0), (1, p1)], outcome="draw", final_ply=1)]
    ['win-thrown-away', 'result-vs-egdb']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from pdnkit.egdb.backend import placement_bits
from pdnkit.egdb.index import decode_code

if TYPE_CHECKING:
    from pdnkit.egdb.prober import Egdb
    from pdnkit.rules.position import Position

__all__ = ["CODES", "DrawByRule", "LineVerdict", "judge_line"]

#: the finding codes of the verdicts (registered in pdnkit.findings.CODES)
CODES = ("result-vs-egdb", "win-thrown-away", "draw-thrown-away", "egdb-win-drawn-by-rule")
_SIDE = ("White", "Black")


class DrawByRule(NamedTuple):
    """The move-count rule that drew a game: its name and article, the ply after which its
    count started, its limit in plies and the ply it was reached."""

    rule: str
    article: str
    start_ply: int
    limit_plies: int
    reached_ply: int


@dataclass(frozen=True)
class LineVerdict:
    """One verdict: its finding ``code``, the 1-based ``ply`` of the move judged (the last
    ply for a verdict on the final position), the ``position`` before that move (the final
    position for ``result-vs-egdb``), a ``message``, a ``severity`` other than the code's
    own (or ``None``) and ``details``."""

    code: str
    ply: int
    position: Position
    message: str
    severity: str | None = None
    details: dict[str, Any] = field(default_factory=dict)


def _value(code: int) -> tuple[str, int | None] | None:
    if code >= 0xFFFE:
        return None
    return decode_code(code)


def _winner(position: Position, value: tuple[str, int | None]) -> int | None:
    """The side (0 White, 1 Black) that wins ``position``, ``None`` for a draw."""
    side = int(position.side)
    return None if value[0] == "draw" else (side if value[0] == "win" else 1 - side)


def _said(value: tuple[str, int | None], position: Position) -> str:
    """``"White wins in 15 plies"`` or ``"a draw"``."""
    winner = _winner(position, value)
    if winner is None:
        return "a draw"
    return f"{_SIDE[winner]} wins in {value[1]} pl{'y' if value[1] == 1 else 'ies'}"


def _best(db: Egdb, position: Position) -> list[str]:
    from pdnkit.rules.notation import canonical_notation

    legal = position.legal_moves()
    return [canonical_notation(m, position, legal) for m in db.best_moves(position)]


def _move_verdicts(db: Egdb, line: Sequence[tuple[int, Position]],
                   values: dict[int, tuple[str, int | None]]) -> list[LineVerdict]:
    out = []
    at = dict(line)
    for k, before in line:
        after = at.get(k + 1)
        if after is None or k not in values or k + 1 not in values:
            continue
        mover = int(before.side)
        was, now = _winner(before, values[k]), _winner(after, values[k + 1])
        if was == mover and now != mover:
            code = "win-thrown-away"
            what = f"could win in {values[k][1]} plies and this move lets the win go"
        elif was is None and now == 1 - mover:
            code, what = "draw-thrown-away", "could draw and this move loses"
        else:
            continue
        keep = _best(db, before)
        out.append(LineVerdict(
            code, k + 1, before,
            f"{_SIDE[mover]} {what}: after it, {_said(values[k + 1], after)} (endgame "
            f"databases); {'winning' if code == 'win-thrown-away' else 'drawing'}: "
            f"{', '.join(keep) or '-'}",
            details={"value_before": values[k][0], "plies_before": values[k][1],
                     "value_after": values[k + 1][0], "plies_after": values[k + 1][1],
                     "best_moves": keep}))
    return out


def _result_verdict(db: Egdb, final: Position, value: tuple[str, int | None],
                    outcome: str | None, final_ply: int,
                    draw: DrawByRule | None) -> LineVerdict | None:
    if outcome not in ("white", "black", "draw") or value[1] == 0:
        return None  # no result to judge, or no move left: result-mismatch's business
    winner = _winner(final, value)
    said = None if outcome == "draw" else ("white", "black").index(outcome)
    if said == winner or (draw is not None and winner is not None):
        return None  # agrees; a draw by a move-count rule has its own verdict
    scored = "a draw" if said is None else f"a win for {_SIDE[said]}"
    return LineVerdict(
        "result-vs-egdb", final_ply, final,
        f"the game is scored as {scored}, but in its final position ({_SIDE[int(final.side)]} "
        f"to move) {_said(value, final)} (endgame databases)",
        details={"value": value[0], "plies": value[1], "outcome": outcome,
                 "best_moves": _best(db, final)})


def _rule_verdict(db: Egdb, line: Sequence[tuple[int, Position]],
                  values: dict[int, tuple[str, int | None]],
                  draw: DrawByRule) -> LineVerdict | None:
    """The first position the databases hold from the rule's count on: a won one makes the
    verdict, with whether the win fitted in the plies the rule left."""
    for k, pos in line:
        if k < draw.start_ply or k > draw.reached_ply or k not in values:
            continue
        winner = _winner(pos, values[k])
        if winner is None:
            return None
        n = values[k][1]
        assert n is not None
        left = draw.reached_ply - k
        fits = n <= left
        how = (f"it fitted within the {left} plies the rule left" if fits else
               f"the fastest win takes {n} plies, more than the {left} the rule left (a "
               "capture or a promotion on the way would have restarted the count)")
        return LineVerdict(
            "egdb-win-drawn-by-rule", k + 1 if k < draw.reached_ply else k, pos,
            f"drawn by {draw.article} ({draw.rule}) at ply {draw.reached_ply}, but at ply {k} "
            f"{_SIDE[winner]} had a win in {n} plies by the endgame databases: {how}",
            severity="warning" if fits else None,
            details={"rule": draw.rule, "article": draw.article, "start_ply": draw.start_ply,
                     "reached_ply": draw.reached_ply, "limit_plies": draw.limit_plies,
                     "ply": k, "winner": _SIDE[winner].lower(), "plies": n, "fits": fits,
                     "best_moves": _best(db, pos)})
    return None


def judge_line(db: Egdb, line: Sequence[tuple[int, Position]], *, outcome: str | None,
               final_ply: int, complete: bool = True,
               draw: DrawByRule | None = None) -> list[LineVerdict]:
    """The verdicts on a game's main line (see the module's text). ``line``: ``(k,
    position after k plies)`` in order, ``k = 0`` the start; only the positions the
    databases hold are judged, and only moves between two of them. ``outcome``: ``white``,
    ``black``, ``draw`` (else no result verdict); ``final_ply``: the plies replayed (the
    final position is the line's entry ``final_ply``); ``complete``: the whole main line was
    replayed (else the result is not judged); ``draw``: the move-count rule that drew the
    game, if one did.
    """
    codes = db.codes([placement_bits(p) for _, p in line])
    values = {k: v for (k, _), c in zip(line, codes, strict=True)
              if (v := _value(c)) is not None}
    out = _move_verdicts(db, line, values)
    final = dict(line).get(final_ply)
    if complete and final is not None and final_ply in values:
        got = _result_verdict(db, final, values[final_ply], outcome, final_ply, draw)
        if got is not None:
            out.append(got)
    if draw is not None and outcome == "draw":
        ruled = _rule_verdict(db, line, values, draw)
        if ruled is not None:
            out.append(ruled)
    return out
