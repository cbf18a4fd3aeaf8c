"""The main line's plain plies in Python: the strategy of :class:`~pdnkit.validation.game.
MainLine` where the compiled core does not run (``PDNKIT_PURE=1``, no extension, a rules
record the core does not hold).

A *plain* ply is a move of two known squares, with no variation and no setup before it, the
expected move number (or none), written with the right separator, that the position's
direct tests resolve (a quiet move, or a capture that only one legal capture makes).
:meth:`PlainLine.take` replays the plain plies from a given one on, as
:func:`pdnkit.validation.coreline.CoreLine.take` does on the core; the first ply that is not
plain goes to :meth:`MainLine._ply <pdnkit.validation.game.MainLine>`, which gives every
diagnosis, and the main line hands back here after it. Every finding therefore comes from the
one Python replay of a ply, and this loop only makes the common case fast (everything inlined
in one loop: most plies of most games end here).

Example:
    >>> from pdnkit.pdn import parse_game
    >>> from pdnkit.rules import Position, get_rules
    >>> from pdnkit.rules.draw import DrawTracker
    >>> from pdnkit.validation.report import Numbering, base_report
    >>> rec = parse_game("1. 32-28 19-23 2. 28x19 14x23 3. 99-98 *")
    >>> r = get_rules("international")
    >>> report = base_report(rec)
    >>> line = PlainLine(r, rec.moves, report, fen_tag=None)
    >>> start = Position.initial(r)
    >>> taken, pos = line.take(0, start, DrawTracker(r, start), Numbering(1, 0, True))
    >>> taken, [p.notation for p in report.plies]
    (4, ['32-28', '19-23', '28x19', '14x23'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pdnkit.core import move_number, number_fits
from pdnkit.validation.match import CAPTURE_SEPS, parse_squares, squares_cache
from pdnkit.validation.report import COLOR_LETTER, GameReport, Numbering, PlainRun, PlyRecord

if TYPE_CHECKING:
    from pdnkit.pdn.record import MoveNode
    from pdnkit.rules.draw import DrawTracker
    from pdnkit.rules.position import Position
    from pdnkit.rules.variants import Rules

__all__ = ["PlainLine"]


class PlainLine:
    """The plain plies of one main line replayed in Python (see the module's text).

    ``report`` receives the plies: as :class:`~pdnkit.validation.report.PlyRecord`\\ s, as
    one :class:`~pdnkit.validation.report.PlainRun` (``compact``: the leading plies, for the
    database loader) or not at all (``light``); ``fen_tag``: the FEN tag when the game has one
    (a setup before the first move is then a setup, not the start)."""

    __slots__ = ("rules", "nodes", "report", "light", "compact", "first_setup_used", "sq_cache")

    def __init__(self, rules: Rules, nodes: Sequence[MoveNode], report: GameReport, *,
                 fen_tag: str | None, light: bool = False, compact: bool = False) -> None:
        self.rules = rules
        self.nodes = nodes
        self.report = report
        self.light = light
        self.compact = compact and not light
        self.first_setup_used = fen_tag is None
        self.sq_cache = squares_cache(rules)

    def take(self, k: int, pos: Position, tracker: DrawTracker, numbering: Numbering
             ) -> tuple[int, Position]:
        """Replay the plain plies from main-line ply ``k`` (0-based) on, from ``pos``: push
        each into ``tracker`` and record it, numbered as ``numbering`` says (a ply whose
        written move number does not fit it is not plain while ``numbering.checked``);
        returns how many were replayed and the position reached."""
        run = None
        if self.compact and k == 0:
            run = PlainRun(self.rules, pos, self.nodes, numbering.base, numbering.offset)
        plies = None if self.light or run is not None else self.report.plies
        taken, pos = self._loop(k, pos, tracker, numbering, plies, run)
        if run is not None and taken:
            self.report.plain = run
        return taken, pos

    def _loop(self, k0: int, pos: Position, tracker: DrawTracker, numbering: Numbering,
              plies: list[PlyRecord] | None, run: PlainRun | None) -> tuple[int, Position]:
        rules, sq_cache = self.rules, self.sq_cache
        base_num, offset, check_numbers = numbering
        color = COLOR_LETTER
        capture_seps = CAPTURE_SEPS
        dash_is_wrong = rules.capture_separator != "-"
        push = tracker.push
        if run is not None:
            run_move, run_after = run.moves.append, run.afters.append
        nodes = self.nodes
        k = k0
        for k in range(k0, len(nodes)):
            node = nodes[k]
            if node.variations or node.placeholder or (
                    node.setup_before and (k or not self.first_setup_used)):
                break
            sq = sq_cache.get(node.squares)
            if sq is None:
                sq = parse_squares(rules, node.squares)
            if isinstance(sq, str) or len(sq) != 2:
                break
            number = node.number
            if check_numbers and number is not None \
                    and not number_fits(number, node.black_dots, k, base_num, offset):
                break
            got = pos.play_written(sq[0], sq[1])
            if got is None:
                break
            move, after = got
            seps = node.separators
            if seps:
                if move.captured:
                    if len(seps) == 1 and seps[0] == "-" and dash_is_wrong:
                        break
                elif seps[0] in capture_seps:
                    break
            if plies is not None:
                comments = node.comments_after
                prec = PlyRecord(k + 1, move_number(k, base_num, offset), color[int(pos.side)],
                                 node.text, nags=node.nags,
                                 comment=" ".join(comments) if comments else None,
                                 line=node.line)
                plies.append(prec)
                prec.set_replayed(move, pos, after, (move,) if move.captured else None)
            elif run is not None:
                run_move(move)
                run_after(after)
            push(k + 1, move, after)
            pos = after
        else:
            return len(nodes) - k0, pos
        return k - k0, pos
