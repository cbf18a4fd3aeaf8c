"""Helpers for the PDN tests: a record's comparable content, independent of spelling."""

from __future__ import annotations

from typing import Any

from pdnkit.pdn import CommentNode, GameRecord, MoveNode, NagNode, SetupNode
from pdnkit.pdn.tags import standard_tags
from pdnkit.pdn.writer import canonical_result


def _sq(s: str) -> str:
    return str(int(s)) if s.isdigit() else s


def line_content(line: list[Any]) -> list[Any]:
    out: list[Any] = []
    for el in line:
        if isinstance(el, MoveNode):
            out.append((
                "move", tuple(_sq(s) for s in el.squares), el.is_capture, el.placeholder,
                el.number, el.black_dots, el.strength, tuple(el.nags),
                tuple(el.comments_before), tuple(el.comments_after),
                el.setup_before, tuple(tuple(line_content(v)) for v in el.variations),
            ))
        elif isinstance(el, CommentNode):
            out.append(("comment", el.text))
        elif isinstance(el, SetupNode):
            out.append(("setup", el.fen))
        elif isinstance(el, NagNode):
            out.append(("nag", el.value))
    return out


def content(rec: GameRecord) -> dict[str, Any]:
    """What must survive a write/read round trip (squares without leading zeros, results in
    their PDN 3.0 form, tags as a multiset since the writer puts the standard ones first;
    the tags are those the writer writes: standard names added from aliases, the first of a
    repeated tag only)."""
    return {
        "tags": sorted(standard_tags(rec)),
        "body": line_content(rec.body),
        "result": canonical_result(rec.result),
    }
