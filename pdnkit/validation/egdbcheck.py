"""The endgame databases' verdicts on a replayed game (validate and import).

Where the databases' folder (``$PDNKIT_EGDB`` or the per-user cache,
:func:`pdnkit.egdb.files.default_dir`) holds databases of the game's variant of up to N
pieces and its final position has at most N pieces, the tail of its main line is judged
(:func:`pdnkit.egdb.verdicts.judge_line`) and each verdict becomes a finding of the game at
its ply, with the position before the move. Nothing is built here and a database that is
not built is no finding: without databases a game is read as before. The folder is looked at
once per process and variant.

Example:
    >>> from pdnkit.rules import get_rules
    >>> db, pieces = databases_for(get_rules("english"))
    >>> db is None or pieces > 0
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pdnkit.egdb.prober import Egdb
    from pdnkit.egdb.verdicts import DrawByRule
    from pdnkit.pdn.record import MoveNode
    from pdnkit.rules.position import Position
    from pdnkit.rules.variants import Rules
    from pdnkit.validation.clean import FinalState
    from pdnkit.validation.report import Findings, GameReport

__all__ = ["add_egdb_findings", "databases_for", "forget_databases"]

#: id(rules) -> (rules, the databases or None, the pieces they hold completely)
_OPEN: dict[int, tuple[Rules, Egdb | None, int]] = {}


def databases_for(rules: Rules) -> tuple[Egdb | None, int]:
    """The databases of ``rules`` in the databases' folder and the most pieces of one built
    there (``(None, 0)``: none, or a variant without databases); a position of a signature
    not built is simply not judged.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> databases_for(get_rules("frisian"))
        (None, 0)
    """
    hit = _OPEN.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1], hit[2]
    db: Egdb | None = None
    pieces = 0
    if not rules.king_move_limit and _folder_exists():
        from pdnkit.egdb.files import EgdbError, variant_dir

        try:
            if variant_dir(rules).is_dir():  # else no backend is made (nor its modules loaded)
                from pdnkit.egdb.prober import Egdb

                db = Egdb(rules)
                pieces = db.built_pieces()
        except (EgdbError, OSError):
            db = None
    if not pieces:
        db = None
    _OPEN[id(rules)] = (rules, db, pieces)
    return db, pieces


def _folder_exists() -> bool:
    """Whether the databases' folder exists (without it no variant has databases, and the
    file format's modules, hashing among them, are not loaded)."""
    from pdnkit.egdb.folder import default_dir

    try:
        return default_dir().is_dir()
    except OSError:
        return False


def forget_databases() -> None:
    """Look at the databases' folder again (after a build in this process)."""
    _OPEN.clear()


def _pieces(position: Position) -> int:
    return sum(position.counts().values())


def _line(rules: Rules, start: Position, nodes: Sequence[MoveNode], plies: int,
          final: Position, pieces: int) -> list[tuple[int, Position]]:
    """``(k, position after k plies)`` of the main line's tail with at most ``pieces``
    pieces: the replay core for the plies it resolves from the move texts, the validator's
    matcher for the rest (a move written another way, algebraic squares ...); a ply neither
    resolves ends the line there, and the final position closes it."""
    from pdnkit.core import position_of, replay

    rep = replay(rules, start, [n.text for n in nodes[:plies]])
    black = int(start.side) == 1
    counts = memoryview(rep.counts).cast("B")
    out = [(0, start)] if _pieces(start) <= pieces else []
    for i in range(rep.plies):
        if sum(counts[4 * i:4 * i + 4]) <= pieces:
            out.append((i + 1, position_of(rules, rep.position(i, black))))
    if rep.plies < plies:
        pos = position_of(rules, rep.position(rep.plies - 1, black)) if rep.plies else start
        out += _matched(rules, pos, nodes, rep.plies, plies, pieces)
        if not out or out[-1][0] != plies:
            out.append((plies, final))
    return out


def _matched(rules: Rules, pos: Position, nodes: Sequence[MoveNode], first: int, plies: int,
             pieces: int) -> list[tuple[int, Position]]:
    """The positions after plies ``first`` + 1 to ``plies`` by the validator's matcher, from
    ``pos`` (the position after ``first`` plies), as far as every move resolves; a capture
    written one jump a ply is one move, its later plies in the position after it (as the
    replay records them)."""
    from pdnkit.validation.match import match_move, merge_split_capture, parse_squares

    out = []
    k = first
    while k < plies:
        node = nodes[k]
        sq = parse_squares(rules, node.squares) if node.squares else "no squares"
        if isinstance(sq, str):
            break
        res = match_move(pos, sq)
        extra = 0
        move = res.move if res.kind == "ok" else None
        if move is None and res.kind != "ambiguous":
            merged = merge_split_capture(pos, sq, nodes, k, rules)
            if merged is not None:
                move, extra = merged
        if move is None:
            break  # an ambiguous or irregular move: the replay settled it, not this
        pos = pos.play(move)
        if _pieces(pos) <= pieces:
            out += [(j + 1, pos) for j in range(k, min(k + extra + 1, plies))]
        k += extra + 1
    return out


def _draw_rule(report: GameReport, rules: Rules) -> DrawByRule | None:
    """The move-count rule that drew the game (a counter, not a repetition), if one did."""
    from pdnkit.egdb.verdicts import DrawByRule

    if report.outcome != "draw" or report.draw_basis is None:
        return None
    kinds = {r.name: r.kind for r in rules.draw_rules}
    if kinds.get(report.draw_basis) != "counter":
        return None
    for e in report.rule_events:
        if e.rule == report.draw_basis and e.reached_ply is not None \
                and e.limit_plies is not None:
            return DrawByRule(e.rule, e.article, e.start_ply, e.limit_plies, e.reached_ply)
    return None


def add_egdb_findings(report: GameReport, rules: Rules, start: Position | None,
                      nodes: Sequence[MoveNode], complete: bool, found: Findings,
                      final: Position | FinalState | None = None) -> None:
    """Add the databases' verdicts on the game to ``found`` (see the module's text);
    ``start``: the main line's start (``None``: the variant's start position, as for a
    clean game the core replayed whole); ``complete``: every ply of the main line was
    replayed; ``final``: the position the main line reached (a rules-engine position, or a
    clean game's final state from the core), read where the report keeps none (a light
    report): a verdict does not depend on the report's mode. A fault here is an
    ``internal-error`` finding of the game; its replay stands."""
    try:
        _judge(report, rules, start, nodes, complete, found, final)
    except Exception as exc:  # noqa: BLE001 - the databases never spoil a game's report
        from pdnkit.validation.report import internal_error

        found.items.append(internal_error(exc, "judging its ending with the endgame databases",
                                          file=found.file, game_index=found.index))


def _final(report: GameReport, given: Position | FinalState | None,
           pieces: int) -> Position | None:
    """The main line's final position, if it has at most ``pieces`` pieces."""
    from pdnkit.rules.position import Position

    end = report.final_position
    if end is None:
        if given is None or isinstance(given, Position):
            end = given
        elif given.pieces() <= pieces:
            return given.position()
    return end if end is not None and _pieces(end) <= pieces else None


def _judge(report: GameReport, rules: Rules, start: Position | None,
           nodes: Sequence[MoveNode], complete: bool, found: Findings,
           given: Position | FinalState | None) -> None:
    if report.final_position is None and given is None:
        return
    db, pieces = databases_for(rules)
    if db is None:
        return
    final = _final(report, given, pieces)
    if final is None:
        return
    if start is None:
        from pdnkit.rules.position import Position

        start = Position.initial(rules)
    from pdnkit.egdb.verdicts import judge_line

    if report.start_key is not None and report.start_key != int(start.key()):
        start = start.with_side(1 - int(start.side))  # the record began with the other side
    plies = report.replayed_plies
    line = _line(rules, start, nodes, plies, final, pieces)
    for v in judge_line(db, line, outcome=report.outcome, final_ply=plies, complete=complete,
                        draw=_draw_rule(report, rules)):
        on_final = v.code == "result-vs-egdb"  # the final position, no move
        node: Any = nodes[v.ply - 1] if 0 < v.ply <= len(nodes) and not on_final else None
        found.add(v.code, v.message, node=node, ply=v.ply or None, pos=v.position,
                  severity=v.severity, details=v.details)
