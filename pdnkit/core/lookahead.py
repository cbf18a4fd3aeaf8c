"""The built-in tactical search: exact material, every variant, as deep as asked.

:func:`tactics` searches a position full width to ``depth`` plies and then on, capture by
capture, while the side to move has a capture (captures are compulsory: until none is pending
the material is not settled). The score is the material balance at the end of the best line
for the side to move, in hundredths of a man: a man is 100, a king :func:`king_value` (300
where kings fly, 150 where they step one square: the usual rule of thumb of draughts and
checkers players and programs), and a side without a legal move has lost (won in a losing
variant, where the material counts the other way). It is a check of material, not a judgement
of the position: it finds shots (a sacrifice that wins material back with interest), moves
that drop material, and wins of material a player let pass.

The compiled core runs it (``src/tactics.c``, alpha-beta); without the core, or with
``PDNKIT_PURE=1``, the same search runs in Python here. :func:`reference_tactics` is plain
minimax over the rules engine, without pruning: the tests hold the two to the same score,
best move and line (moves are searched in the order of :func:`move_order`, and of equal
moves the first stays best).

Example:
    >>> from pdnkit.rules import get_rules, parse_fen
    >>> pos = parse_fen("W:W11,17,23,25,34,38:B14,16,19,26,29,36", get_rules("international"))
    >>> t = tactics(pos, 4)  # even material: 11-6 gives a man, 34x32 takes two back
    >>> t.men, [str(m) for m in t.line]
    (1.0, ['11-6', '19x28', '34x32', '14-19'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pdnkit.errors import ArgumentError

if TYPE_CHECKING:
    from pdnkit.rules.position import Move, Position
    from pdnkit.rules.variants import Rules

__all__ = ["MAX_DEPTH", "NODE_LIMIT", "WIN", "Tactics", "king_value", "move_order",
           "reference_tactics", "tactics"]

#: the deepest full-width depth the search takes (the capture extension goes beyond it)
MAX_DEPTH = 40
#: positions one search may visit before it stops at the last depth it completed
NODE_LIMIT = 20_000_000
#: a decided position: ``WIN - n`` is won in ``n`` plies, ``-(WIN - n)`` lost in ``n``
WIN = 1_000_000
_MAX_PLY = 160  # plies of one line (src/tactics.h TAC_MAXPLY)


def king_value(rules: Rules) -> int:
    """What a king is worth in hundredths of a man: 300 where kings fly (international,
    Russian, Brazilian, pool, Frisian ...), 150 where a king steps one square (English,
    Italian).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> king_value(get_rules("international")), king_value(get_rules("english"))
        (300, 150)
    """
    return 300 if rules.flying_kings else 150


@dataclass(frozen=True)
class Tactics:
    """What one search found: ``score`` in hundredths of a man for the side to move
    (``+-(WIN - n)``: won or lost in ``n`` plies), the ``depth`` completed (less than asked
    where the node limit stopped it; 0: not even one ply), the positions visited (``nodes``)
    and the best line (``line``, its first move the best move; empty where the side to move
    has no move)."""

    score: int
    depth: int
    nodes: int
    line: tuple[Move, ...]

    @property
    def best(self) -> Move | None:
        """The best move (None: the side to move has none)."""
        return self.line[0] if self.line else None

    @property
    def decided(self) -> bool:
        """The score is a win or a loss found by the search, not material."""
        return abs(self.score) > WIN // 2

    @property
    def men(self) -> float:
        """The score in men: the material balance, or +-100 less a hundredth per ply for a
        decided position (99.97: won in 3 plies).

        Example:
            >>> Tactics(-150, 4, 10, ()).men, Tactics(WIN - 3, 4, 10, ()).men
            (-1.5, 99.97)
        """
        if self.decided:
            plies = WIN - abs(self.score)
            return round((100 - plies / 100) * (1 if self.score > 0 else -1), 2)
        return round(self.score / 100, 2)


def move_order(move: Move) -> tuple[int, int, int, bool]:
    """The order a node's moves are searched in: origin, destination, the captured squares
    as one number (bit ``n - 1`` for square ``n``), crowning.

    Example:
        >>> from pdnkit.rules.position import Move
        >>> move_order(Move(28, 19, (28, 19), (23,)))
        (28, 19, 4194304, False)
    """
    mask = 0
    for s in move.captured:
        mask |= 1 << (s - 1)
    return move.origin, move.destination, mask, move.promotes


def _check(depth: int, node_limit: int) -> None:
    if not isinstance(depth, int) or isinstance(depth, bool) or not 1 <= depth <= MAX_DEPTH:
        raise ArgumentError(f"depth must be an integer from 1 to {MAX_DEPTH}, not {depth!r}")
    if not isinstance(node_limit, int) or node_limit < 1:
        raise ArgumentError(f"node_limit must be a positive integer, not {node_limit!r}")


def tactics(position: Position, depth: int, *, node_limit: int = NODE_LIMIT) -> Tactics:
    """Search ``position`` ``depth`` plies full width and on while captures are pending
    (see the module's text); the compiled core where it runs, else the same search in Python.

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> tactics(parse_fen("B:W32,33:B19", get_rules("international")), 2).men  # Black's view
        -1.0
    """
    _check(depth, node_limit)
    rules = position.rules
    from pdnkit.core import compiled

    if compiled.ERROR is None and not compiled.PURE_REQUESTED and compiled.has("tactics"):
        raw = compiled.tactics(position, depth, king_value(rules), bool(rules.losing_game),
                               node_limit)
        if raw is not None:
            score, done, nodes, line = raw
            return Tactics(int(score), int(done), int(nodes), tuple(line))
    return _Searcher(position, node_limit, prune=True).iterate(depth)


def reference_tactics(position: Position, depth: int) -> Tactics:
    """The same search as plain minimax over the rules engine, without pruning and without
    a node limit: slow, for comparing with :func:`tactics` at small depths.

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> pos = parse_fen("W:W11,17,23,25,34,38:B14,16,19,26,29,36", get_rules("international"))
        >>> ref, fast = reference_tactics(pos, 3), tactics(pos, 3)
        >>> (ref.score, ref.line) == (fast.score, fast.line), ref.nodes >= fast.nodes
        (True, True)
    """
    _check(depth, 1)
    return _Searcher(position, 0, prune=False).once(depth)


class _Searcher:
    """Negamax over :class:`Position` (``prune``: alpha-beta, as the C search)."""

    def __init__(self, position: Position, node_limit: int, *, prune: bool) -> None:
        self.root = position
        self.king = king_value(position.rules)
        self.losing = bool(position.rules.losing_game)
        self.limit = node_limit
        self.prune = prune
        self.nodes = 0
        self.stopped = False

    def material(self, p: Position) -> int:
        men, kings = len(p.white_men) - len(p.black_men), len(p.white_kings) - len(p.black_kings)
        v = men * 100 + kings * self.king
        if int(p.side) == 1:
            v = -v
        return -v if self.losing else v

    def iterate(self, depth: int) -> Tactics:
        score, done = self.material(self.root), 0
        line: tuple[Move, ...] = ()
        for d in range(1, depth + 1):
            v, pv = self.search(self.root, d, 0, -2 * WIN, 2 * WIN)
            if self.stopped:
                break
            score, done, line = v, d, pv
        return Tactics(score, done, self.nodes, line)

    def once(self, depth: int) -> Tactics:
        v, pv = self.search(self.root, depth, 0, -2 * WIN, 2 * WIN)
        return Tactics(v, depth, self.nodes, pv)

    def search(self, p: Position, depth: int, ply: int, alpha: int, beta: int
               ) -> tuple[int, tuple[Move, ...]]:
        if self.stopped:
            return 0, ()
        self.nodes += 1
        if self.limit and self.nodes > self.limit:
            self.stopped = True
            return 0, ()
        capture = p.has_capture()
        if (depth <= 0 and not capture) or ply >= _MAX_PLY - 1:
            return self.material(p), ()
        moves = sorted(p.legal_moves(), key=move_order)
        if not moves:
            return (WIN - ply if self.losing else -(WIN - ply)), ()
        best = -2 * WIN
        line: tuple[Move, ...] = ()
        for m in moves:
            v, pv = self.search(p.play(m), depth - 1 if depth > 0 else 0, ply + 1,
                                -beta, -alpha if self.prune else 2 * WIN)
            v = -v
            if self.stopped:
                break
            if v > best:
                best = v
                if v > alpha or not self.prune:
                    line = (m, *pv)[: _MAX_PLY - ply]
                    if self.prune:
                        alpha = v
                        if alpha >= beta:
                            break
        return best, line
