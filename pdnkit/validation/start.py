"""The start stage of the validator: the position a game's main line starts from.

The variant's own starting position, or the ``FEN`` tag, or a setup written before the first
move; a FEN that does not parse or holds no piece is a ``bad-fen`` finding and the game is not
replayed. A FEN whose side to move is ``?`` takes the side whose first move replays.

Example:
    >>> from pdnkit.rules import get_rules
    >>> from pdnkit.validation.report import Findings
    >>> pos, info = start_position(Findings(None), get_rules("russian"), None)
    >>> start_fen(get_rules("russian"), pos, None)[:2], info
    ('W:', None)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pdnkit.pdn.fast import LaneNodes
from pdnkit.rules.fen import FenError, FenInfo, parse_fen_info, write_fen
from pdnkit.rules.position import Position
from pdnkit.validation.match import flip_side, match_move, parse_squares
from pdnkit.validation.report import Findings, record_tag

if TYPE_CHECKING:
    from pdnkit.pdn.record import GameRecord, MoveNode
    from pdnkit.rules.variants import Rules


@dataclass
class Start:
    """Where a main line starts: ``pos`` and, from a FEN, its ``info`` (move counters, side
    known); ``fen_tag``: the game's ``FEN`` tag (``None`` without one); ``setup``: the FEN the
    game starts from (the tag, or a setup before the first move; ``None``: the variant's own
    starting position)."""

    pos: Position
    info: FenInfo | None
    fen_tag: str | None
    setup: str | None


def start_position(found: Findings, rules: Rules, fen: str | None
                   ) -> tuple[Position | None, FenInfo | None]:
    """(position, FenInfo or None); (None, None) after reporting ``bad-fen``."""
    if not fen:
        return Position.initial(rules), None
    try:
        info = parse_fen_info(fen, rules)
    except FenError as exc:
        found.add("bad-fen", f"FEN {fen!r}: {exc}", fen_text=fen)
        return None, None
    return info.position, info


def game_start(record: GameRecord, nodes: Sequence[MoveNode], rules: Rules,
               found: Findings) -> Start | None:
    """The start of ``record``'s main line, or ``None`` after a ``bad-fen`` finding."""
    fen_tag = record_tag(record, "FEN")
    fen_tag = fen_tag if fen_tag is not None and fen_tag.strip() else None
    # (a game the compiled lane read has no setup in its movetext: its moves stay unread)
    setup = fen_tag or (nodes[0].setup_before if nodes and not isinstance(nodes, LaneNodes)
                        else None)
    pos, info = start_position(found, rules, setup)
    if pos is None:
        return None
    if setup is not None and not any(pos.counts().values()):
        found.add("bad-fen", f"FEN {setup!r} has no pieces at all", fen_text=setup)
        return None
    if info is not None and not info.side_known and nodes and nodes[0].squares:
        # '?' side to move: take the side whose first move replays
        sq = parse_squares(rules, nodes[0].squares)
        if not isinstance(sq, str) and match_move(pos, sq).move is None:
            other = flip_side(pos)
            if match_move(other, sq).move is not None:
                pos = other
    return Start(pos, info, fen_tag, setup)


_START_FEN: dict[tuple[int, int], tuple[Rules, str]] = {}


def start_fen(rules: Rules, pos: Position, setup: str | None, key: int | None = None) -> str:
    """The FEN of the start position ``pos`` (the variant's own start is written once per
    variant: its FEN is the same for every game); ``key``: ``pos.key()`` when known."""
    if setup is not None:
        return write_fen(pos)
    ck = (id(rules), int(pos.key()) if key is None else key)
    cached = _START_FEN.get(ck)
    if cached is None or cached[0] is not rules:
        cached = (rules, write_fen(pos))
        _START_FEN[ck] = cached
    return cached[1]
