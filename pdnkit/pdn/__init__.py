"""PDN reading and writing: decode, split, parse with the Lark grammar, write PDN 3.0.

Example:
    >>> from pdnkit.pdn import read_games
    >>> g = next(read_games('[Event "x"]\\n1. 32-28 19-23 2-0'))
    >>> g.tag("Event"), [m.text for m in g.moves], g.result
    ('x', ['32-28', '19-23'], '2-0')
"""

from __future__ import annotations

from pdnkit._lazy import lazy_exports
from pdnkit.pdn.record import (
    BodyElement,
    CommentNode,
    GameRecord,
    MoveNode,
    NagNode,
    SetupNode,
    comment_commands,
)

_LAZY: dict[str, str] = {
    "read_games": "pdnkit.pdn.reader",
    "parse_game": "pdnkit.pdn.reader",
    "write_game": "pdnkit.pdn.writer",
    "write_games": "pdnkit.pdn.writer",
    "lint": "pdnkit.pdn.tools",
    "LintSummary": "pdnkit.pdn.tools",
}


__all__ = [
    "BodyElement",
    "CommentNode",
    "GameRecord",
    "MoveNode",
    "NagNode",
    "SetupNode",
    "comment_commands",
    *_LAZY,
]

__getattr__, __dir__ = lazy_exports(__name__, _LAZY, globals())
