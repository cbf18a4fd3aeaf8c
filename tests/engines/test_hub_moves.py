"""The quick way a Hub move is read (:func:`pdnkit.engines.hubtext.play_hub`: the replay's
two-square step first) and the quick way a line is written
(:func:`pdnkit.analysis.rows.line_text`: a capture that alone joins its two squares written
short) give what the slow ways give, move for move, on positions of seeded random games of
every 10x10 variant a Hub engine plays (kings, flying captures, the majority rules and the
Frisian king counters among them), and on the hand-made positions where two captures join the
same squares."""

from __future__ import annotations

import random

import pytest

from pdnkit.analysis.rows import line_text
from pdnkit.engines.hubtext import (
    HubSyntaxError,
    hub_move,
    line_from_hub,
    move_from_hub,
    play_hub,
)
from pdnkit.rules import Position, canonical_notation, get_rules, parse_fen
from pdnkit.rules.position import Move
from tests.engines.helpers import random_game

VARIANTS = ("international", "frisian", "breakthrough", "antidraughts")


def _outcome(m: Move) -> tuple[int, int, tuple[int, ...]]:
    return m.origin, m.destination, tuple(sorted(m.captured))


def _positions(variant: str, seed: int, games: int = 12, plies: int = 160) -> list[Position]:
    """Positions of random games: every position until the game ends or ``plies``."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        pos = Position.initial(get_rules(variant))
        for _ in range(plies):
            legal = pos.legal_moves()
            if not legal or pos.is_terminal():
                break
            out.append(pos)
            pos = pos.play(rng.choice(legal))
    return out


def _hand_made() -> list[Position]:
    rules = get_rules("international")
    return [parse_fen("W:WK47:B14,19,29,31,42", rules),  # two routes, two capture sets
            parse_fen("W:WK46:B41,37,28,18", rules), parse_fen("B:W32,33:B19", rules),
            parse_fen("W:W28,32:B22,23", rules), parse_fen("W:WK5:B10,19,28,37", rules)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_legal_move_reads_back_as_the_slow_way_reads_it(variant: str) -> None:
    seen = {"quiet": 0, "capture": 0, "short": 0}
    positions = _positions(variant, seed=34) + (_hand_made() if variant == "international"
                                                 else [])
    for pos in positions:
        for m in pos.legal_moves():
            for text in (hub_move(m), f"{m.origin}x{m.destination}" if m.captured else None):
                if text is None:
                    continue
                try:
                    slow = move_from_hub(pos, text)
                except HubSyntaxError:  # two captures join the squares: both ways refuse
                    with pytest.raises(HubSyntaxError):
                        play_hub(pos, text)
                    continue
                fast, after = play_hub(pos, text)
                assert _outcome(fast) == _outcome(slow), (pos.to_fen(), text)
                assert after.repetition_key == pos.play(slow).repetition_key
                assert after.counters == pos.play(slow).counters
            seen["capture" if m.captured else "quiet"] += 1
            words, _ = line_text(pos, [m])
            assert words == canonical_notation(m, pos), (pos.to_fen(), hub_move(m))
            seen["short"] += "x" in words and words.count("x") == 1
    assert seen["quiet"] > 1000 and seen["capture"] > 100, seen


def test_a_quiet_move_where_a_capture_is_due_and_a_wrong_capture_set_are_refused() -> None:
    pos = parse_fen("W:W28,32:B22,23", get_rules("international"))
    for text in ("32-27", "28x19x22", "28x19x23x24", "99-98"):
        with pytest.raises(HubSyntaxError):
            play_hub(pos, text)
    assert line_from_hub(pos, "28x19x23 14-23")[1] is not None


def test_a_long_line_is_written_as_canonical_notation_writes_it_move_by_move() -> None:
    for seed, variant in enumerate(VARIANTS, start=7):
        rules = get_rules(variant)
        pos = Position.initial(rules)
        line = random_game(seed, 120, rules)
        words, end = line_text(pos, line)
        expected, p = [], pos
        for m in line:
            expected.append(canonical_notation(m, p))
            p = p.play(m)
        assert words == " ".join(expected)
        assert end.repetition_key == p.repetition_key
