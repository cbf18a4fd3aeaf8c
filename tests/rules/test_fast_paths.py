"""The direct move tests (``Position.quiet_move``, ``Position.capture_move``) agree with the
full move list on many random positions of every variant, and the draw tracker's shortcuts
(no piece counting without kings) agree with the material conditions themselves."""

from __future__ import annotations

import itertools
import random

import pytest

from pdnkit.rules import Position, get_rules, list_variants
from pdnkit.rules.draw import MATERIAL_CONDITIONS

VARIANTS = sorted({r.name for r in list_variants()})


def _random_placement(rules: object, rng: random.Random) -> Position:
    """A random legal-looking placement: men off their promotion rows, some kings, and (for a
    king-move limit) random counters on the kings."""
    g = rules.geometry  # type: ignore[attr-defined]
    squares = list(range(1, g.num_squares + 1))
    rng.shuffle(squares)
    n = rng.randint(2, min(24, len(squares)))
    chosen = squares[:n]
    promo_w, promo_b = g.promotion_squares(0), g.promotion_squares(1)
    wm, wk, bm, bk = [], [], [], []
    for sq in chosen:
        white = rng.random() < 0.5
        king = rng.random() < 0.3
        if king:
            (wk if white else bk).append(sq)
        elif white and sq not in promo_w:
            wm.append(sq)
        elif not white and sq not in promo_b:
            bm.append(sq)
    king_moves = None
    if rules.king_move_limit and (wk or bk):  # type: ignore[attr-defined]
        limit = rules.king_move_limit  # type: ignore[attr-defined]
        king_moves = (
            (rng.choice(wk), rng.randint(1, limit)) if wk else (0, 0),
            (rng.choice(bk), rng.randint(1, limit)) if bk else (0, 0),
        )
    side = rng.choice("WB")
    return Position.from_squares(rules, side, wm, wk, bm, bk,  # type: ignore[arg-type]
                                 king_moves=king_moves)


def _random_game_positions(rules: object, rng: random.Random, plies: int) -> list[Position]:
    pos = Position.initial(rules)  # type: ignore[arg-type]
    out = [pos]
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves:
            break
        pos = pos.play(rng.choice(moves))
        out.append(pos)
    return out


def _positions(name: str) -> list[Position]:
    rules = get_rules(name)
    rng = random.Random(f"fast-paths-{name}")
    out = _random_game_positions(rules, rng, 120)
    out += [_random_placement(rules, rng) for _ in range(100)]
    return out


def _check_quiet(pos: Position) -> int:
    """Compare ``quiet_move`` with the move list (and ``quiet_move_exists`` while a capture is
    compulsory) for every origin/destination pair; returns the number of quiet moves seen."""
    n = pos.rules.geometry.num_squares
    legal = pos.legal_moves()
    quiet_legal = {(m.origin, m.destination): m for m in legal if not m.captured}
    seen = 0
    own = pos.white_men | pos.white_kings if str(pos.side) == "W" else \
        pos.black_men | pos.black_kings
    others = random.Random(n).sample(range(1, n + 1), 4)  # empty or enemy origins too
    for o, d in itertools.product(sorted(own | set(others)), range(1, n + 1)):
        got = pos.quiet_move(o, d)
        if pos.has_capture():
            assert (got is not None) == pos.quiet_move_exists(o, d, ignore_capture_rule=True), \
                (pos, o, d)
            if got is not None:
                piece = pos.piece_at(o)
                assert piece is not None and got.is_king == piece[1]
        else:
            assert got == quiet_legal.get((o, d)), (pos, o, d, got)
        seen += got is not None
    return seen


@pytest.mark.parametrize("name", VARIANTS)
def test_quiet_move_agrees_with_the_move_list(name: str) -> None:
    positions = _positions(name)
    total = sum(_check_quiet(p) for p in positions)
    assert total > 100  # the positions do have quiet moves to compare


@pytest.mark.parametrize("name", VARIANTS)
def test_capture_move_agrees_with_the_move_list(name: str) -> None:
    checked = 0
    for pos in _positions(name):
        legal = pos.legal_moves()
        caps = [m for m in legal if m.captured]
        ends = {(m.origin, m.destination) for m in caps}
        for o, d in ends | {(m.origin, m.destination) for m in legal if not m.captured}:
            same = [m for m in caps if (m.origin, m.destination) == (o, d)]
            outcomes = {(frozenset(m.captured), m.promotes) for m in same}
            expected = same[0] if len(outcomes) == 1 else None
            assert pos.capture_move(o, d) == expected, (pos, o, d)
            checked += 1
    assert checked > 100


def test_quiet_move_bad_squares_and_wrong_side() -> None:
    pos = Position.initial(get_rules("international"))
    assert pos.quiet_move(0, 5) is None
    assert pos.quiet_move(51, 46) is None
    assert pos.quiet_move(-1, 5) is None
    assert pos.quiet_move(19, 23) is None  # a black man, White to move
    assert pos.quiet_move(32, 28) is not None
    assert pos.capture_move(32, 23) is None


def test_frisian_king_limit_blocks_the_king_in_the_direct_test() -> None:
    # Frisian art. 17: a king that made three quiet moves in a row while its side still has
    # men may not make a fourth quiet move; the other king may.
    rules = get_rules("frisian")
    pos = Position.from_squares(rules, "W", white_men=[40], white_kings=[28, 33],
                                black_men=[3], king_moves=((28, 3), (0, 0)))
    assert pos.quiet_move(28, 22) is None
    assert pos.quiet_move(33, 29) is not None
    assert pos.quiet_move(40, 34) is not None
    free = Position.from_squares(rules, "W", white_men=[40], white_kings=[28, 33],
                                 black_men=[3], king_moves=((28, 2), (0, 0)))
    assert free.quiet_move(28, 22) is not None
    # without men of its own side the limit does not apply
    alone = Position.from_squares(rules, "W", white_kings=[28, 33], black_men=[3],
                                  king_moves=((28, 3), (0, 0)))
    assert alone.quiet_move(28, 22) is not None


def test_quiet_moves_are_shared_objects_with_correct_flags() -> None:
    rules = get_rules("russian")
    pos = Position.from_squares(rules, "W", white_men=[5], white_kings=[22], black_men=[30])
    crown = pos.quiet_move(5, 1)
    assert crown is not None and crown.promotes and not crown.is_king
    king = pos.quiet_move(22, 4)  # a flying king crosses the long diagonal
    assert king is not None and king.is_king and not king.promotes
    assert pos.quiet_move(5, 1) is crown


def test_material_conditions_without_kings_never_hold_unless_always() -> None:
    # the draw tracker skips piece counting while no king is on the board
    for cond in MATERIAL_CONDITIONS.values():
        for wm, bm in itertools.product(range(0, 13), repeat=2):
            counts = {"white_men": wm, "white_kings": 0, "black_men": bm, "black_kings": 0}
            if cond.always:
                assert cond.test(counts, None)
            elif cond.needs_kings and not cond.needs_position:
                assert not cond.test(counts, None), (cond.name, counts)
    assert not MATERIAL_CONDITIONS["lone-king-on-main-road-vs-3"].always
