"""Engine evaluations in PDN comments: ``{[%eval 0.35,12]}`` after a move is the score of the
position after it (men, White's point of view) and the depth it was searched to, as lichess
and PGN tools write them; ``export --annotate`` writes them, with ``$2`` (``?``, a mistake or
a missed shot) and ``$4`` (``??``, a blunder), and the reader keeps both as any comment and
NAG (``moves.comment``, ``moves.nags``).

Example:
    >>> eval_comment(0.35, 12), eval_comment(-1.0, None)
    ('[%eval 0.35,12]', '[%eval -1.00]')
    >>> read_eval("good move [%eval -0.2,8] indeed")
    (-0.2, 8)
"""

from __future__ import annotations

import re

__all__ = ["EVAL_PATTERN", "NAG_BLUNDER", "NAG_MISTAKE", "eval_comment", "read_eval"]

#: the NAG of a mistake (and of a missed shot): ``?``
NAG_MISTAKE = 2
#: the NAG of a blunder: ``??``
NAG_BLUNDER = 4

#: an ``[%eval SCORE]`` or ``[%eval SCORE,DEPTH]`` command in a comment
EVAL_PATTERN = re.compile(r"\[%eval\s+([+-]?\d+(?:\.\d+)?)(?:\s*,\s*(\d+))?\s*\]")


def eval_comment(score: float, depth: int | None) -> str:
    """The ``[%eval SCORE,DEPTH]`` command for a score in men (two decimals) and a depth.

    Example:
        >>> eval_comment(2, 6)
        '[%eval 2.00,6]'
    """
    text = f"{float(score):.2f}"
    if text == "-0.00":
        text = "0.00"
    return f"[%eval {text}" + (f",{int(depth)}" if depth is not None else "") + "]"


def read_eval(comment: str | None) -> tuple[float, int | None] | None:
    """The score and depth of the first ``[%eval ...]`` in a comment (None: none).

    Example:
        >>> read_eval("[%eval +1.25,10]"), read_eval("no eval")
        ((1.25, 10), None)
    """
    if not comment:
        return None
    m = EVAL_PATTERN.search(comment)
    if m is None:
        return None
    return float(m.group(1)), int(m.group(2)) if m.group(2) else None
