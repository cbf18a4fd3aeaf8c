"""One position's evaluation as an ``evals`` row: scores turned to White's point of view, the
engine's moves written as PDN in the game's own notation, the material here and at the end of
the engine's line.

Example:
    >>> from pdnkit.engines import open_engine
    >>> from pdnkit.rules import get_rules, parse_fen
    >>> pos = parse_fen("B:W32,33:B19", get_rules("international"))
    >>> row = eval_row(pos, open_engine("builtin", depth=2).evaluate(pos))
    >>> row["score"], row["best"], row["pv"], row["material"]
    (1.0, '19-23', '19-23 32-27', 1.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pdnkit.engines.base import Evaluation
    from pdnkit.rules.position import Move, Position

__all__ = ["DECIDED", "EVAL_COLUMNS", "eval_row", "line_text", "material", "terminal_row"]

#: the ``evals`` columns a row fills, in the table's order after the analysis key
EVAL_COLUMNS = ("score", "depth", "best", "pv", "nodes", "material", "pv_material")
#: the score of a decided position (men): the side to move has no legal move
DECIDED = 100.0


def material(position: Position) -> float:
    """The material balance in men, White's point of view: a man 1, a king
    :func:`pdnkit.core.lookahead.king_value` / 100 (counted the other way in a losing variant,
    as the built-in search counts it).

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> material(parse_fen("W:WK46:B5,6", get_rules("international")))
        1.0
    """
    from pdnkit.core.lookahead import king_value

    rules = position.rules
    white, black, kings_bits = position.engine_bits
    men = (white & ~kings_bits).bit_count() - (black & ~kings_bits).bit_count()
    kings = (white & kings_bits).bit_count() - (black & kings_bits).bit_count()
    value = (men * 100 + kings * king_value(rules)) / 100
    return round(-value if rules.losing_game else value, 2) + 0.0  # never -0.0


def _settled(position: Position) -> float:
    """The material of ``position`` once the captures pending there are played out (the
    built-in search's capture extension); a decided outcome counts as +-DECIDED."""
    if not position.has_capture():
        return material(position)
    from pdnkit.core.lookahead import tactics

    t = tactics(position, 1)
    men = t.men if int(position.side) == 0 else -t.men
    return round(men, 2) + 0.0


def line_text(position: Position, line: Sequence[Move]) -> tuple[str, Position]:
    """The moves of ``line`` as PDN (:func:`pdnkit.rules.canonical_notation`: the short form,
    the full path where another legal move joins the same squares), separated by spaces, and
    the position at its end.

    Example:
        >>> from pdnkit.rules import Position, get_rules
        >>> from pdnkit.engines.hubtext import line_from_hub
        >>> start = Position.initial(get_rules("international"))
        >>> line_text(start, line_from_hub(start, "32-27 18-22 27x18x22")[0])[0]
        '32-27 18-22 27x18'
    """
    from pdnkit.rules import canonical_notation
    from pdnkit.rules.notation import square_tables

    words = []
    pos = position
    names = square_tables(position.rules).names
    sep = position.rules.capture_separator
    for m in line:
        if m.captured:
            # the one capture that joins the two squares (as a game's replay finds it) is
            # written short, as canonical_notation writes it, without a list of every move
            found = pos.play_written(m.origin, m.destination)
            if found is not None and sorted(found[0].captured) == sorted(m.captured):
                words.append(f"{names[m.origin]}{sep}{names[m.destination]}")
                pos = found[1]
                continue
        words.append(canonical_notation(m, pos))
        pos = pos.play(m)
    return " ".join(words), pos


def eval_row(position: Position, ev: Evaluation) -> dict[str, Any]:
    """The ``evals`` columns of one evaluated position (:data:`EVAL_COLUMNS`)."""
    from pdnkit.rules import canonical_notation

    sign = -1.0 if int(position.side) == 1 else 1.0
    best = canonical_notation(ev.best, position) if ev.best is not None else None
    pv, end = line_text(position, ev.line)
    return {"score": round(sign * ev.score, 2) + 0.0, "depth": ev.depth, "best": best,
            "pv": pv or None, "nodes": ev.nodes, "material": material(position),
            "pv_material": _settled(end) if ev.line else material(position)}


def terminal_row(position: Position) -> dict[str, Any] | None:
    """The row of a position where the side to move has no legal move (the game is over:
    ``+-DECIDED`` for the winner, depth 0, no move), or None when a move remains.

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> terminal_row(parse_fen("W:W46:B41,37", get_rules("international")))["score"]
        -100.0
    """
    if not position.is_terminal():
        return None
    winner = position.winner()
    score = 0.0 if winner is None else (DECIDED if int(winner) == 0 else -DECIDED)
    here = material(position)
    return {"score": score, "depth": 0, "best": None, "pv": None, "nodes": 0,
            "material": here, "pv_material": here}
