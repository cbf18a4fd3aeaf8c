"""The built-in tactical check as an engine: :func:`pdnkit.core.tactics` behind the
:class:`~pdnkit.engines.base.Engine` protocol.

It plays every variant pdnkit knows (the compiled core's generic move generator reads the
variant's rules record; a record the core cannot hold is searched in Python), runs in the
calling thread (the C search lets other threads run meanwhile), never crashes or hangs
(a node limit ends a search at the last depth it completed), and its scores are material
(:data:`~pdnkit.engines.base.SCALES`): men, with a king worth
:func:`pdnkit.core.lookahead.king_value`.

Example:
    >>> from pdnkit.rules import get_rules, parse_fen
    >>> engine = BuiltinEngine(depth=4)
    >>> ev = engine.evaluate(parse_fen("W:W11,17,23,25,34,38:B14,16,19,26,29,36",
    ...                                get_rules("international")))
    >>> engine.info.label, ev.score, str(ev.best), engine.scale
    ('builtin 1', 1.0, '11-6', 'material')
"""

from __future__ import annotations

from typing import Any

from pdnkit.core.lookahead import MAX_DEPTH, NODE_LIMIT, tactics
from pdnkit.engines.base import EngineInfo, Evaluation
from pdnkit.errors import ArgumentError

__all__ = ["SEARCH_VERSION", "BuiltinEngine"]

#: the version of the search the ``evals`` rows name: a change to what the search computes
#: raises it, so that analyses of the earlier search are kept apart
SEARCH_VERSION = "1"
#: the depth of the built-in search when none is given
DEFAULT_DEPTH = 6


class BuiltinEngine:
    """The tactical search to ``depth`` plies (1 to 40) and on while captures are pending,
    each search stopped after ``node_limit`` positions at the last depth completed."""

    scale = "material"

    def __init__(self, depth: int | None = None, *, node_limit: int = NODE_LIMIT) -> None:
        depth = DEFAULT_DEPTH if depth is None else depth
        if not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
            raise ArgumentError(f"the built-in search's depth must be from 1 to {MAX_DEPTH}, "
                                f"not {depth!r}")
        self.depth = depth
        self.node_limit = node_limit
        self._info = EngineInfo("builtin", SEARCH_VERSION, "pdnkit",
                                settings={"depth": depth})

    @property
    def info(self) -> EngineInfo:
        """``builtin``, the search's version, ``{"depth": N}``."""
        return self._info

    def plays(self, rules: Any) -> bool:
        """Every variant."""
        return True

    def new_game(self) -> None:
        """Nothing to clear: every search starts afresh."""

    def evaluate(self, position: Any) -> Evaluation:
        """The material the best line reaches, the depth completed, nodes, best move, line."""
        t = tactics(position, self.depth, node_limit=self.node_limit)
        return Evaluation(t.men, t.depth, t.nodes, t.best, t.line)

    def close(self) -> None:
        """Nothing to end."""
