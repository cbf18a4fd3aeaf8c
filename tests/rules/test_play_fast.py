"""The replay's one-step moves (``Position._play_quiet`` / ``_play_capture``: the direct test
and ``play`` at once) give the same move and the same position as ``quiet_move`` /
``capture_move`` followed by ``play``; and the draw tracker's lazy runs of full resets leave
the same events and counts as processing every move in full."""

from __future__ import annotations

import random

import pytest

from pdnkit.rules import Color, Position, get_rules, list_variants
from pdnkit.rules.draw import DrawTracker
from tests.rules.test_fast_paths import _positions

VARIANTS = sorted({r.name for r in list_variants()})


def _same(a: Position, b: Position) -> bool:
    return a == b and a.king_moves == b.king_moves and a.key() == b.key()


@pytest.mark.parametrize("name", VARIANTS)
def test_one_step_moves_agree_with_move_then_play(name: str) -> None:
    checked = 0
    for pos in _positions(name):
        n = pos.rules.geometry.num_squares
        pairs = {(m.origin, m.destination) for m in pos.legal_moves()}
        rng = random.Random(n)
        pairs |= {(rng.randint(1, n), rng.randint(1, n)) for _ in range(20)}
        pairs |= {(0, 1), (1, n + 1)}
        for o, d in sorted(pairs):
            q = pos.quiet_move(o, d)
            got = pos._play_quiet(o, d)
            assert (got is None) == (q is None), (pos, o, d)
            if got is not None:
                assert got[0] == q and _same(got[1], pos.play(q)), (pos, o, d)
                checked += 1
            c = pos.capture_move(o, d)
            got = pos._play_capture(o, d)
            assert (got is None) == (c is None), (pos, o, d)
            if got is not None:
                assert got[0] == c and _same(got[1], pos.play(c)), (pos, o, d)
                checked += 1
    assert checked > 200


def test_one_step_crowning_and_frisian_counters() -> None:
    rules = get_rules("russian")
    pos = Position.from_squares(rules, "W", white_men=[5], white_kings=[22], black_men=[30])
    move, after = pos._play_quiet(5, 1)  # type: ignore[misc]
    assert move.promotes and after.piece_at(1) == (Color.WHITE, True)
    assert str(after.side) == "B" and after.piece_at(5) is None
    fr = get_rules("frisian")
    pos = Position.from_squares(fr, "W", white_men=[40], white_kings=[28, 33], black_men=[3],
                                king_moves=((28, 2), (0, 0)))
    _, after = pos._play_quiet(28, 22)  # type: ignore[misc]
    assert after.king_moves == ((22, 3), (0, 0))  # the third quiet move of that king
    assert pos._play_quiet(28, 27) is None  # not a diagonal


def _track(rules: object, positions: list[Position], moves: list[object], lazy: bool
           ) -> tuple[list[dict[str, object]], list[dict[str, int | None]]]:
    tracker = DrawTracker(rules, positions[0])  # type: ignore[arg-type]
    if not lazy:  # every move processed in full, as before the lazy runs
        tracker._plan = (lambda f: lambda *a: (f(*a)[0], False))(tracker._plan)  # type: ignore[method-assign]
        tracker._plans = ({}, {})  # not the plans shared by the rules' other trackers
    counts = []
    for ply, (move, after) in enumerate(zip(moves, positions[1:], strict=True), start=1):
        tracker.push(ply, move, after)  # type: ignore[arg-type]
        if ply % 7 == 0:
            counts.append(tracker.counts())
    return [e.to_dict() for e in tracker.finish(len(moves))], counts


def test_lazy_full_resets_leave_the_same_events() -> None:
    with_events = {name for name in VARIANTS if _compare_lazy_and_full(name)}
    # random games reach draw rules (repetitions, king endgames) in most variants
    assert len(with_events) >= len(VARIANTS) // 2, with_events


def _compare_lazy_and_full(name: str) -> int:
    rules = get_rules(name)
    events = 0
    for seed in range(12):
        rng = random.Random(f"lazy-{name}-{seed}")
        pos = Position.initial(rules)
        positions, moves = [pos], []
        for _ in range(260):
            legal = pos.legal_moves()
            if not legal:
                break
            # prefer king moves once there are kings, so draw rules get reached
            kings = [m for m in legal if m.is_king]
            move = rng.choice(kings if kings and rng.random() < 0.8 else legal)
            if rng.random() < 0.02:
                move = None  # a move of unknown class now and then
                pos = pos.play(rng.choice(legal))
            else:
                pos = pos.play(move)
            positions.append(pos)
            moves.append(move)
        lazy = _track(rules, positions, moves, True)
        full = _track(rules, positions, moves, False)
        assert lazy == full, (name, seed)
        events += len(lazy[0])
    return events
