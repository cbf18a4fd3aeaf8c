"""What the validator keeps from one game to the next, and why it cannot change a report:
the draw tracker's start (slots, start tests, first exported state), a result token's
meaning, a resolution decided by the tags alone, an empty report filled from defaults and
the engine bit table of the compiled core's positions."""

from __future__ import annotations

import random

import pytest

from pdnkit.core import api
from pdnkit.core.api import State
from pdnkit.pdn import parse_game
from pdnkit.rules import Position, get_rules, list_variants
from pdnkit.rules.draw import DrawTracker
from pdnkit.validation.judge import normalise_token
from pdnkit.validation.report import GameReport, base_report
from pdnkit.validation.resolve import resolve_rules


def test_a_tracker_made_after_another_starts_where_a_fresh_one_does() -> None:
    r = get_rules("international")
    pos = Position.from_squares(r, "W", white_kings=(47, 50), black_kings=(3,))
    first = DrawTracker(r, pos, int_keys=True)
    blob = first.export_state()  # remembered for this start
    shuffle = [(47, 42), (3, 8), (42, 47), (8, 3)] * 3
    p = pos
    for ply, (a, b) in enumerate(shuffle[:10], start=1):
        move = next(m for m in p.legal_moves() if (m.origin, m.destination) == (a, b))
        p = p.play(move)
        first.push(ply, move, p)
    second = DrawTracker(r, pos, int_keys=True)  # the remembered start, not the pushed one
    assert second.export_state() == blob
    assert first.export_state() != blob
    assert [e.rule for e in first.finish(10)] == ["fmjd-6.2", "fmjd-6.4", "fmjd-6.1"]
    assert second.finish(0) == []


@pytest.mark.parametrize("name", ["international", "frisian", "russian", "english"])
def test_a_tracker_at_a_seeded_start_is_not_shared(name: str) -> None:
    r = get_rules(name)
    start = Position.initial(r)
    a = DrawTracker(r, start, 3, int_keys=True)  # a FEN's half-move clock
    b = DrawTracker(r, start, None, int_keys=True)
    assert b.export_state() == DrawTracker(r, start, int_keys=True).export_state()
    assert a.counts() == DrawTracker(r, start, 3).counts()


def test_initial_positions_are_new_objects_with_the_same_placement() -> None:
    for r in list_variants():
        p, q = Position.initial(r), Position.initial(r)
        assert p is not q and p == q and p.key() == q.key()


def test_result_tokens_mean_the_same_each_time() -> None:
    want = {"2-0": "first", " 1 - 1 ": "draw", "½-½": "draw", "4-6": None, "*": "unknown",
            "0.5-0.5": "draw", "": "unknown", "0-2": "second", "1-1": "draw",
            "2\u20130": "first", "0 \u2212 1": "second"}
    for _ in range(3):  # in turns: a remembered meaning never answers for another token
        for token, meaning in want.items():
            assert normalise_token(token) == meaning, token


def test_a_resolution_by_tags_is_not_shared_between_games() -> None:
    one = resolve_rules(parse_game('[GameType "20,W,10,10,N1,0"] 1. 32-28 *'))
    two = resolve_rules(parse_game('[GameType "20,W,10,10,N1,0"] 1. 33-28 *'))
    assert (one.rules, one.source) == (two.rules, two.source)
    assert [f.code for f in one.findings] == [f.code for f in two.findings] == [
        "variant-guessed"]
    assert one.findings is not two.findings and one.findings[0] is not two.findings[0]
    giveaway = resolve_rules(parse_game('[GameType "25"][Variant "giveaway"] *'))
    assert giveaway.rules is not None and giveaway.rules.name == "giveaway"
    assert resolve_rules(parse_game('[GameType "25"] *')).rules.name == "russian"


def test_an_empty_report_is_the_constructors() -> None:
    g = parse_game('[White "a"][Black "b"] 1. 32-28 19-23 *')
    rep = base_report(g)
    ref = GameReport(file=g.file, index=g.index, line=g.line, record=g, white="a",
                     black="b", ply_count=2)
    assert rep == ref and list(vars(rep).items()) == list(vars(ref).items())
    assert rep.plies is not base_report(g).plies


def test_the_engine_bit_table_turns_every_state_into_its_position() -> None:
    rng = random.Random(25)
    for r in list_variants():
        if r.king_move_limit:
            continue
        n = r.geometry.num_squares
        for _ in range(50):
            squares = rng.sample(range(1, n + 1), rng.randint(0, min(n, 12)))
            cut = len(squares) // 2
            white, black = squares[:cut], squares[cut:]
            wk = {s for s in white if rng.random() < 0.3}
            bk = {s for s in black if rng.random() < 0.3}
            mask = lambda xs: sum(1 << (s - 1) for s in xs)  # noqa: E731
            state = State(bool(rng.getrandbits(1)), mask(set(white) - wk), mask(wk),
                          mask(set(black) - bk), mask(bk), None)
            want = Position.from_squares(r, "B" if state.black else "W",
                                         white_men=set(white) - wk, white_kings=wk,
                                         black_men=set(black) - bk, black_kings=bk)
            assert api.position_of(r, state) == want
