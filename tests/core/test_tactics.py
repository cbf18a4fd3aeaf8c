"""The built-in tactical search (``pdnkit.core.tactics``): the C search against plain minimax
over the rules engine (:func:`pdnkit.core.reference_tactics`) on positions of every variant,
the Python fallback against the C search node for node, and hand-worked positions whose
material outcome can be counted on the board."""

from __future__ import annotations

import random

import pytest

from pdnkit.core import core_in_use, reference_tactics, tactics
from pdnkit.core.lookahead import WIN, Tactics, _Searcher, king_value
from pdnkit.errors import ArgumentError
from pdnkit.rules import Position, get_rules, list_variants, parse_fen
from tests.placements import random_positions

VARIANTS = [r for r in list_variants() if r.edition == get_rules(r.name).edition]


def played_positions(rules: object, n: int, seed: int) -> list[Position]:
    """Positions met in random games from the initial position (captures favoured, so the
    lines hold exchanges, multi-captures and kings)."""
    rnd = random.Random(seed)
    out: list[Position] = []
    while len(out) < n:
        pos = Position.initial(rules)  # type: ignore[arg-type]
        for _ in range(rnd.randint(4, 70)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.play(rnd.choice(moves))
        out.append(pos)
    return out


def sparse_positions(rules: object, n: int, seed: int) -> list[Position]:
    """Random placements of at most eight pieces (kings included)."""
    out = [p for p in random_positions(rules, n * 40, seed)
           if len(p.white_men | p.white_kings | p.black_men | p.black_kings) <= 8]
    return out[:n]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.name)
def test_the_search_is_minimax_of_the_rules_engine(rules: object) -> None:
    """Score, best move and whole line equal plain minimax without pruning (same move
    order, the first of equal moves best) at depths 1 to 3."""
    positions = played_positions(rules, 10, 7) + sparse_positions(rules, 6, 11)
    for i, pos in enumerate(positions):
        depth = 1 + i % 3
        fast, ref = tactics(pos, depth), reference_tactics(pos, depth)
        assert (fast.score, fast.depth, fast.line) == (ref.score, ref.depth, ref.line), \
            (rules.name, repr(pos), depth)  # type: ignore[attr-defined]


@pytest.mark.skipif(core_in_use() != "compiled", reason="the compiled core is not in use")
@pytest.mark.parametrize("name", ["international", "russian", "english", "frisian", "italian",
                                  "antidraughts", "breakthrough", "turkish"])
def test_the_python_fallback_is_the_c_search_node_for_node(name: str) -> None:
    rules = get_rules(name)
    for pos in played_positions(rules, 8, 3):
        c = tactics(pos, 4)
        py = _Searcher(pos, 20_000_000, prune=True).iterate(4)
        assert (c.score, c.depth, c.nodes, c.line) == (py.score, py.depth, py.nodes, py.line)


def test_an_exchange_is_even_and_a_hanging_man_is_lost() -> None:
    r = get_rules("international")
    # White must take 28x19 (10 stops it going on over 14), Black takes back 14x23: even
    t = tactics(parse_fen("W:W28,38,47:B10,14,23", r), 2)
    assert [str(m) for m in t.line] == ["28x19", "14x23"]
    assert t.men == 0.0
    # Black to move can only move 19-23 or 19-24; 19-23 hangs to 28x19: the search avoids it
    t = tactics(parse_fen("B:W28,35:B19", r), 2)
    assert str(t.best) == "19-24" and t.men == -1.0


def test_a_shot_is_seen_to_its_end() -> None:
    """11-6 gives a man (19x28), and 34x32 then takes 29 and 28 (two men): +1 at depth 4,
    although after three plies the count is still running (the capture extension)."""
    pos = parse_fen("W:W11,17,23,25,34,38:B14,16,19,26,29,36", get_rules("international"))
    t = tactics(pos, 3)
    assert [str(m) for m in t.line] == ["11-6", "19x28", "34x32"]
    assert t.line[2].captured == (29, 28) or set(t.line[2].captured) == {28, 29}
    assert t.men == 1.0


def test_no_legal_move_is_a_loss_and_a_win_in_a_losing_variant() -> None:
    blocked = "W:W46:B41,37"  # White's man on 46 cannot move (41 occupied, 37 behind it)
    lost = tactics(parse_fen(blocked, get_rules("international")), 3)
    assert lost.score == -WIN and lost.men == -100.0 and lost.line == ()
    won = tactics(parse_fen(blocked, get_rules("antidraughts")), 3)
    assert won.score == WIN and won.men == 100.0


def test_material_counts_the_other_way_in_a_losing_variant() -> None:
    pos = "W:W31,32:B19"
    assert tactics(parse_fen(pos, get_rules("international")), 1).men == 1.0
    assert tactics(parse_fen(pos, get_rules("antidraughts")), 1).men == -1.0


def test_a_king_is_worth_three_men_where_kings_fly_else_one_and_a_half() -> None:
    assert tactics(parse_fen("W:WK46:B5,6", get_rules("international")), 1).men == 1.0
    assert king_value(get_rules("english")) == 150
    assert tactics(parse_fen("B:WK29:B1", get_rules("english")), 1).men == -0.5


def test_a_win_found_counts_its_plies() -> None:
    # White takes Black's last man: Black has no move after one ply
    t = tactics(parse_fen("W:W28:B23", get_rules("international")), 3)
    assert t.score == WIN - 1 and t.men == 99.99 and t.decided
    assert Tactics(-(WIN - 4), 4, 1, ()).men == -99.96


def test_the_node_limit_leaves_the_last_depth_completed() -> None:
    pos = Position.initial(get_rules("international"))
    full = tactics(pos, 4)
    cut = tactics(pos, 6, node_limit=full.nodes + 1)
    assert cut.depth == 4 and (cut.score, cut.line) == (full.score, full.line)
    assert tactics(pos, 3, node_limit=1).depth == 0


@pytest.mark.parametrize("depth", [0, 41, 2.5, True])
def test_bad_depths_are_refused(depth: object) -> None:
    with pytest.raises(ArgumentError):
        tactics(Position.initial(get_rules("russian")), depth)  # type: ignore[arg-type]
