"""Italian choice rule 4 (RULES.md 2.10): the positions of ALL captured kings decide, in order."""

from __future__ import annotations

import dataclasses

from pdnkit.rules import format_move, get_rules, parse_fen


def _routes(fen: str, precedence: tuple[str, ...] | None = None) -> set[str]:
    rules = get_rules("italian")
    if precedence is not None:
        rules = dataclasses.replace(rules, capture_precedence=precedence)
    pos = parse_fen(fen, rules)
    return {format_move(m, rules, full_path=True) for m in pos.legal_moves()}


FEN = "W:WK7:BK10,K11,K12,K19,20"


def test_kings_at_pieces_1_2_4_beat_1_3_4() -> None:
    assert _routes(FEN) == {"7x14x23x16x7"}


def test_earlier_keys_tie_so_only_rule_4_decides() -> None:
    # without rule 4 both four-piece routes (three kings each, first piece a king) are legal
    before = _routes(FEN, ("max_count", "king_capturer", "max_kings"))
    assert "7x16x23x14x5" in before
    assert len(before) >= 2
    pos = parse_fen(FEN, get_rules("italian"))
    [move] = pos.legal_moves()
    assert len(move.captured) == 4 and len(move.captured_kings) == 3
