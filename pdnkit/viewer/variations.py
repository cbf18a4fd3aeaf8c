"""The variations of a game, replayed for the board views.

A variation ``( ... )`` replaces a move of the line it hangs on: the main line or, nested,
another variation. :func:`variations` replays each one from the position before the move it
replaces, with the rules engine, so that ``pdnkit show`` can list it and the ``view`` page can
step into it. A variation is kept as a :class:`VariationView`: the ply it replaces (numbered
as in the game: the first move of a variation of ply 4 is ply 4), its parent (``None`` for
the main line), its plies as :class:`~pdnkit.viewer.model.PlyView` and, where the replay
stopped, why. Nesting of any depth is walked with a queue, never recursion.

Example:
    >>> from pdnkit.pdn import parse_game
    >>> from pdnkit.validation import replay
    >>> rep = replay(parse_game('[GameType "20"] 1. 32-28 (1. 33-29 19-23) 19-23 *'))
    >>> [(v.at, v.parent, [p.written for p in v.plies]) for v in variations(rep)]
    [(1, None, ['33-29', '19-23'])]
    >>> line_text(variations(rep), 0, "W")
    '(1. 33-29 19-23)'
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pdnkit.viewer.plies import PlyView, placement_of

if TYPE_CHECKING:  # pragma: no cover
    from pdnkit.pdn.record import BodyElement, MoveNode
    from pdnkit.rules import Move, Position
    from pdnkit.validation import GameReport

__all__ = ["VariationView", "line_text", "variations"]

#: at most this many variation plies are replayed for one game (a page stays small)
MAX_PLIES = 5000


@dataclass
class VariationView:
    """One variation: the line that replaces ply ``at`` of its parent (an index into the
    game's variation list, ``None`` for the main line), ``depth`` 1 for a variation of the
    main line, its plies (ply numbers from ``at`` on) and ``stopped``: why its replay
    stopped before its end (``None`` when every ply was replayed)."""

    at: int
    parent: int | None
    depth: int
    plies: list[PlyView] = field(default_factory=list)
    stopped: str | None = None


@dataclass
class _Task:
    """A variation still to replay: its elements, the position before its first move
    (``None``: unknown), where it hangs, and the number and side of its first move."""

    elements: Sequence[BodyElement]
    pos: Position | None
    at: int
    parent: int | None
    depth: int
    number: int | None
    side: str | None


def variations(report: GameReport) -> list[VariationView]:
    """Every variation of the game, parents before their children (see the module doc)."""
    record = report.record
    if record is None or not record.moves or report.plain is not None:
        return []
    queue: deque[_Task] = deque()
    plies = report.plies
    for k, node in enumerate(record.moves, 1):
        if not node.variations:
            continue
        main = plies[k - 1] if k <= len(plies) and plies[k - 1].written == node.text else None
        pos = main.position_before if main is not None else None
        for var in node.variations:
            queue.append(_Task(var, pos, k, None, 1, main.move_number if main else None,
                               main.side if main else None))
    out: list[VariationView] = []
    budget = MAX_PLIES
    while queue:
        task = queue.popleft()
        view = VariationView(task.at, task.parent, task.depth)
        out.append(view)
        budget = _replay(task, view, len(out) - 1, queue, budget)
    return out


def _replay(task: _Task, view: VariationView, index: int, queue: deque[_Task],
            budget: int) -> int:
    """Replay one variation into ``view``; its own variations go on ``queue``. Returns the
    plies left in the game's budget."""
    from pdnkit.pdn.record import MoveNode

    pos, number, side = task.pos, task.number, task.side
    first = str(pos.rules.first_mover) if pos is not None else None
    nodes = [e for e in task.elements if isinstance(e, MoveNode)]
    if nodes and nodes[0].placeholder and nodes[0].text.strip() in ("...", ".."):
        nodes = nodes[1:]  # "( ... 19-23)": a variation that starts with the second mover
    for j, node in enumerate(nodes):
        ply = task.at + j
        if budget <= 0 and pos is not None:
            view.stopped = "too many variation moves in this game to replay"
            pos = None
        before, move, why = _play(pos, node) if pos is not None else (None, None, None)
        if why and view.stopped is None:
            view.stopped = why
        if before is not None:
            side = str(before.side)
        # the variations of this move replace it: from the position before it
        queue.extend(_Task(var, before, ply, index, task.depth + 1, number, side)
                     for var in node.variations)
        pos = before.play(move) if before is not None and move is not None else None
        view.plies.append(_ply_view(ply, node, number if number is not None else node.number,
                                    side, before, move, pos))
        budget -= 1
        if side is not None and first is not None:
            side = "B" if side == "W" else "W"
            if side == first and number is not None:
                number += 1
    return budget


def _play(pos: Position, node: MoveNode) -> tuple[Position | None, Move | None, str | None]:
    """``(the position the move is played in, the move, None)``, or why it cannot be played
    as the third item (the position too when it is known)."""
    from pdnkit.rules import FenError, match_move, parse_fen
    from pdnkit.rules.notation import NotationError

    if node.setup_before:
        try:
            pos = parse_fen(node.setup_before, pos.rules)
        except (FenError, ValueError):
            return None, None, f"the set-up before {node.text} cannot be read"
    if node.placeholder or not node.squares:
        return pos, None, f"{node.text} stands where a move should be"
    try:
        found = match_move(pos, node.text)
    except (NotationError, ValueError):
        found = []
    if len(found) == 1:
        return pos, found[0], None
    what = "matches several legal moves" if found else "is not a legal move there"
    return pos, None, f"{node.text} {what}"


def _ply_view(ply: int, node: MoveNode, number: int | None, side: str | None,
              before: Position | None, move: Move | None, after: Position | None) -> PlyView:
    from pdnkit.rules import canonical_notation

    comment = " ".join([*node.comments_before, *node.comments_after]) or None
    if before is None or move is None or after is None:
        return PlyView(ply, number, side, node.text, None, (), (), list(node.nags), comment,
                       False, None)
    return PlyView(ply, number, side, node.text, canonical_notation(move, before),
                   tuple(move.path), tuple(move.captured), list(node.nags), comment, True,
                   placement_of(after))


def line_text(found: Sequence[VariationView], index: int, first: str) -> str:
    """Variation ``index`` as text, its own variations nested in parentheses where they
    branch (walked with a stack: any depth), a move not replayed marked ``?`` and why at the
    end of its variation. ``first`` is the first mover (``W``/``B``).

    >>> v = [VariationView(3, None, 1, [PlyView(3, 2, "W", "33-29", None, (), (), [], None,
    ...      False, None)], "33-29 is not a legal move there")]
    >>> line_text(v, 0, "W")
    '(2. 33-29? {not replayed: 33-29 is not a legal move there})'
    """
    children: dict[tuple[int, int], list[int]] = {}
    for i, v in enumerate(found):
        if v.parent is not None:
            children.setdefault((v.parent, v.at), []).append(i)
    parts: list[str] = []
    stack: list[tuple[int, int]] = [(index, -1)]
    while stack:
        v_index, j = stack.pop()
        v = found[v_index]
        if j < 0:
            parts.append("(")
            j = 0
        if j >= len(v.plies):
            parts.append(f"{{not replayed: {v.stopped}}})" if v.stopped else ")")
            continue
        p = v.plies[j]
        shown_number = j == 0 or (parts and parts[-1] == ")") or p.side == first
        text = p.label(first) if shown_number else p.written
        parts.append(text + ("" if p.replayed else "?"))
        stack.append((v_index, j + 1))
        for child in reversed(children.get((v_index, p.ply), [])):
            stack.append((child, -1))
    return " ".join(parts).replace("( ", "(").replace(" )", ")")
