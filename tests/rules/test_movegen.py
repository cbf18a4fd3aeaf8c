"""Legal-move generation against rulebook positions and other suites' published expectations."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from pdnkit.rules import Position, get_rules, parse_fen, parse_square
from tests.shared import shared_path


def _load(name: str) -> Any:
    with open(shared_path("positions", name), encoding="utf-8") as fh:
        return json.load(fh)


def _pos(variant: str, fen: str) -> Position:
    fen = re.sub(r":[HF]\d+", "", fen)  # lidraughts clock suffixes are the FEN reader's business
    return parse_fen(fen, get_rules(variant))


def _short(pos: Position) -> set[tuple[int, int, bool]]:
    return {(m.origin, m.destination, m.is_capture) for m in pos.legal_moves()}


# ---------------------------------------------------------------- FMJD rulebook (dctl suite)
def _dctl_cases() -> list[str]:
    return [
        "Whitepawn_moveDirections", "Blackpawn_moveDirections", "Whiteking_moveRange",
        "Blackking_moveRange", "pawn_jump", "king_jumpRange", "pawn_jumpContinuation",
        "king_jumpContinuation", "MultipleJumps", "JumpPrecedence", "king_moveRange",
        "pawn_jumpDirections", "pawn_jumpContinuation", "king_jumpContinuation",
        "ApresFiniJumpRemoval", "NumberOfpieces", "NotNumberOfKings", "ApresFinipromotion",
    ]


def test_fmjd_rulebook_positions_complete_move_lists() -> None:
    data = _load("dctl_rulebook_international.json")
    assert len(data["positions"]) >= 19
    for case in data["positions"]:
        pos = _pos("international", case["fen"])
        expected = set()
        for text in case["expected_legal_moves"]:
            sep = "x" if "x" in text else "-"
            a, b = text.split(sep)
            expected.add((int(a), int(b), sep == "x"))
        assert _short(pos) == expected, f"{case['suite']} {case['name']} ({case['rule_article']})"


# ---------------------------------------------------------------- other rule positions
def test_king_captures_ten_pieces_in_one_move() -> None:
    pos = _pos("international", "W:WK23:B28,17,10,20,29,39,40,38,31,8,9")
    moves = pos.legal_moves()
    assert len(moves) == 1
    assert (moves[0].origin, moves[0].destination, len(moves[0].captured)) == (23, 2, 10)
    assert moves[0].is_king and not moves[0].promotes


def test_extreme_frisian_twenty_routes_one_move() -> None:
    # lidraughts: 20 capture routes each taking all 19 pieces; they share origin, destination
    # and captured set, so they are one move for pdnkit.
    pos = _pos("frisian", "W:WK50:B3,7,10,12,13,14,17,20,21,23,25,30,32,36,38,39,41,43,K47")
    routes = pos.legal_moves(all_routes=True)
    assert len(routes) == 20
    assert {len(m.captured) for m in routes} == {19}
    assert len({m.path for m in routes}) == 20
    assert len({(m.origin, m.destination, frozenset(m.captured)) for m in routes}) == 1


def test_misc_rule_positions() -> None:
    data = _load("misc_rule_positions.json")["positions"]
    by_fen = {p["fen"]: p for p in data}
    # duplicate pair 50x39x22x36: listed once, with the landing squares in its path
    pos = _pos("international", "B:WK2,28,31,44:B20,K50")
    assert "50x39x22x36" in by_fen["B:WK2,28,31,44:B20,K50"]["expected"]["legal_moves_include"]
    hits = [m for m in pos.legal_moves() if (m.origin, m.destination) == (50, 36)]
    assert len(hits) == 1 and {39, 22} <= set(hits[0].path)
    assert len([m for m in pos.legal_moves(all_routes=True)
                if (m.origin, m.destination) == (50, 36)]) == 2
    # a king cannot jump adjacent pieces without an empty square between them
    pos = _pos("international", "B:W7,28,31,33:B20,30,K50")
    assert not pos.has_capture()
    assert all(not m.is_capture for m in pos.legal_moves())
    # the king cannot cross a square it already captured on
    pos = _pos("international", "B:W6,24,28,38,41:B13,K49")
    assert {(m.origin, m.destination) for m in pos.legal_moves()} == {(49, 30), (49, 35)}
    assert all(set(m.captured) == {24, 28, 38} for m in pos.legal_moves())


def test_legal_move_counts_lidraughts() -> None:
    data = _load("legal_moves_len.json")
    for fen, n in data.items():
        assert len(_pos("international", fen).legal_moves()) == n, fen


def _alg(rules_name: str, squares: list[str]) -> tuple[int, ...]:
    r = get_rules(rules_name)
    return tuple(parse_square(r, s) for s in squares)


def test_russian_king_free_choice_of_routes() -> None:
    pos = _pos("russian", "W:WKd2:Bf6,c5,e5,e3")
    paths = {m.path for m in pos.legal_moves()}
    expected = {_alg("russian", p.split(":")) for p in
                ["d2:f4:d6:b4", "d2:f4:d6:a3", "d2:g5:e7:b4", "d2:g5:e7:a3"]}
    assert paths == expected


def test_russian_no_majority_rule() -> None:
    pos = _pos("russian", "W:We3,g3,h4,a5,b2,h2,a3,Kf8:Bc5,e5,g5,g7,h8")
    got = {(m.origin, m.destination, len(m.captured)) for m in pos.legal_moves()}
    f8, b4, h4, b6 = _alg("russian", ["f8", "b4", "h4", "b6"])
    assert got == {(f8, b4, 1), (f8, b4, 4), (h4, b6, 3)}


def test_russian_circular_capture_duplicates_dropped() -> None:
    pos = _pos("russian", "W:WKd2:Bc5,e5,c3,e3")
    assert len(pos.legal_moves()) == 3  # pydraughts: 4 with duplicates kept, 3 dropped
    assert len(pos.legal_moves(all_routes=True)) == 4


def test_international_circular_capture() -> None:
    pos = _pos("international", "W:WK38:B18,19,32,33")
    assert {m.destination for m in pos.legal_moves()} == {38, 42, 47, 43, 49}
    assert len(pos.legal_moves()) == 5 and len(pos.legal_moves(all_routes=True)) == 6


def test_russian_man_promotes_mid_capture_and_goes_on_as_king() -> None:
    pos = _pos("russian", "W:Wh6:Bg7,c5,d2")
    (m,) = pos.legal_moves()
    assert m.path == _alg("russian", ["h6", "f8", "b4", "e1"])
    assert m.promotes and len(m.captured) == 3
    after = pos.play(m)
    assert after.white_kings == {parse_square(get_rules("russian"), "e1")}


def test_italian_precedence_most_kings_and_first_king() -> None:
    for fen in ("W:W31,32,K25:B12,20,21,28,5,K13,K14,K7",
                "W:W31,32,K25:B12,13,20,21,28,7,K14,K5"):
        (m,) = _pos("italian", fen).legal_moves()
        assert m.path == (25, 18, 11, 4)


def test_frisian_orthogonal_king_capture_routes() -> None:
    pos = _pos("frisian", "W:WK4,36,41,42,43,44,46,47,48,49,50:B1,2,6,12,14,17,18,23")
    expected = {(4, 24, 22, 11, 13, 22), (4, 24, 22, 11, 13, 27), (4, 24, 22, 11, 13, 31),
                (4, 24, 22, 13, 11, 22), (4, 24, 22, 13, 11, 28), (4, 24, 22, 13, 11, 33),
                (4, 24, 22, 13, 11, 39)}
    routes = {m.path for m in pos.legal_moves(all_routes=True)}
    assert routes == expected
    # 4x..x22 twice with the same captured set: one move
    assert len(pos.legal_moves()) == 6


def test_quiet_moves_standard_position() -> None:
    fen = ("B:W27,28,32,34,35,37,39,40,42,43,44,45,46,47,48,49,50:"
           "B1,2,3,4,5,6,7,8,9,10,12,13,15,16,19,23,24")
    got = {(m.origin, m.destination) for m in _pos("international", fen).legal_moves()}
    exp = ["15-20", "10-14", "9-14", "24-30", "24-29", "23-29", "13-18", "12-18", "12-17",
           "7-11", "6-11", "16-21"]
    assert got == {tuple(int(x) for x in e.split("-")) for e in exp}


# ---------------------------------------------------------------- rule facts checked by hand
def _sq(variant: str, *names: str) -> list[int]:
    r = get_rules(variant)
    return [parse_square(r, n) for n in names]


def test_english_men_capture_forward_only_and_kings_are_short() -> None:
    r = get_rules("english")
    # White man on 18 (WCDF numbering), black men on 14 (ahead) and 22 (behind)
    pos = Position.from_squares(r, "W", white_men=[18], black_men=[14, 23])
    assert {(m.origin, m.destination) for m in pos.legal_moves()} == {(18, 9)}
    pos = Position.from_squares(r, "W", white_kings=[18], black_men=[14, 23])
    assert {(m.origin, m.destination) for m in pos.legal_moves()} == {(18, 9), (18, 27)}
    pos = Position.from_squares(r, "W", white_kings=[29])
    assert {m.destination for m in pos.legal_moves()} == {25}


def test_english_promotion_ends_the_move() -> None:
    # white man 10 jumps 6 to land on 1 (crowning row); a king could go on over 5 to 9, but
    # the move ends on promotion
    r = get_rules("english")
    pos = Position.from_squares(r, "W", white_men=[10], black_men=[6, 5])
    (m,) = pos.legal_moves()
    assert (m.destination, m.promotes, m.captured) == (1, True, (6,))


def test_international_man_passes_the_crowning_row() -> None:
    # FMJD 4.15 (dctl ApresFinipromotion): a man passing the last row stays a man
    pos = _pos("international", "W:W15:B9,10")
    (m,) = pos.legal_moves()
    assert (m.destination, m.promotes) == (13, False)
    assert pos.play(m).white_men == {13}


def test_italian_man_cannot_capture_a_king() -> None:
    r = get_rules("italian")
    pos = Position.from_squares(r, "W", white_men=[22], black_kings=[18], black_men=[17])
    assert all(18 not in m.captured for m in pos.legal_moves())


def test_italian_king_capture_has_priority() -> None:
    # equal count (1): man 22 could take 18, king 24 could take 20; the king must capture
    r = get_rules("italian")
    alone = Position.from_squares(r, "W", white_men=[22], black_men=[18, 20])
    assert [(m.origin, m.captured) for m in alone.legal_moves()] == [(22, (18,))]
    pos = Position.from_squares(r, "W", white_men=[22], white_kings=[24], black_men=[18, 20])
    assert [(m.origin, m.captured) for m in pos.legal_moves()] == [(24, (20,))]


def test_czech_king_priority_without_majority() -> None:
    # the man a3 could take two (b4, d6: a3xc5xe7), the king h8 only one (h8xa1 over b2);
    # Czech king priority makes the king's capture compulsory
    r = get_rules("czech")
    a3, h8, b4, d6, b2, a1 = _sq("czech", "a3", "h8", "b4", "d6", "b2", "a1")
    pos = Position.from_squares(r, "W", white_men=[a3], white_kings=[h8], black_men=[b4, d6, b2])
    assert {(m.origin, m.destination, m.captured) for m in pos.legal_moves()} == {(h8, a1, (b2,))}
    # under Russian rules (free choice) both captures are legal
    pos = Position.from_squares(get_rules("russian"), "W", white_men=[a3], white_kings=[h8],
                                black_men=[b4, d6, b2])
    assert {m.origin for m in pos.legal_moves()} == {a3, h8}


def test_spanish_quality_rule() -> None:
    # Spanish numbering (1 = h1): man 10 (f3) may take the man on 14 (e4) or the king on 13
    # (g4), one piece each: the quality rule makes taking the king compulsory
    r = get_rules("spanish")
    assert r.geometry.square_to_coords(10) == (5, 2)
    pos = Position.from_squares(r, "W", white_men=[10], black_men=[14], black_kings=[13])
    assert [(m.origin, m.destination, m.captured) for m in pos.legal_moves()] == [(10, 17, (13,))]
    pos = Position.from_squares(get_rules("russian"), "W", white_men=[22], black_men=[18],
                                black_kings=[17])
    assert len(pos.legal_moves()) == 2


def _crowning_case(variant: str) -> Position:
    # white man f6, black men e7 and c7: f6xd8 reaches the crowning row, then c7 is behind
    f6, e7, c7 = _sq(variant, "f6", "e7", "c7")
    return Position.from_squares(get_rules(variant), "W", white_men=[f6], black_men=[e7, c7])


def test_pool_man_goes_on_as_a_man_past_the_crowning_row() -> None:
    # APCA: a man that reaches the far row by a jump and can jump on does so as a man
    (m,) = _crowning_case("pool").legal_moves()
    assert m.path == tuple(_sq("pool", "f6", "d8", "b6")) and not m.promotes


def test_russian_man_crowned_mid_capture_goes_on_as_king() -> None:
    moves = _crowning_case("russian").legal_moves()
    assert {m.destination for m in moves} == set(_sq("russian", "b6", "a5"))
    assert all(m.promotes and len(m.captured) == 2 for m in moves)


def test_english_man_stops_on_the_crowning_row() -> None:
    (m,) = _crowning_case("english").legal_moves()
    assert m.destination == _sq("english", "d8")[0] and m.promotes and len(m.captured) == 1


def test_frisian_king_move_limit() -> None:
    r = get_rules("frisian")
    pos = Position.from_squares(r, "W", white_men=[46], white_kings=[28], black_men=[5])
    for _ in range(3):
        # play a quiet move with the king, then a black waiting move
        km = next(m for m in pos.legal_moves() if m.is_king and not m.is_capture)
        pos = pos.play(km)
        black = pos.legal_moves()
        pos = pos.play(black[0])
        if len(pos.black_men | pos.black_kings) == 0:
            pytest.skip("black ran out of moves")
    assert pos.king_moves is not None and pos.king_moves[0][1] == 3
    assert all(not m.is_king for m in pos.legal_moves())
    # without men the limit does not apply
    pos2 = Position.from_squares(r, "W", white_kings=[28], black_men=[5], king_moves=((28, 3), (0, 0)))
    assert any(m.is_king for m in pos2.legal_moves())


def test_thai_immediate_removal_and_king_lands_right_behind() -> None:
    r = get_rules("thai")
    pos = Position.from_squares(r, "W", white_kings=[29], black_men=[15])
    dests = {m.destination for m in pos.legal_moves() if m.is_capture}
    assert dests == {11}  # lands on the square immediately behind, not 8 or 4


# ---------------------------------------------------------------- internal consistency
@pytest.mark.parametrize("variant", ["international", "russian", "english", "italian",
                                     "frisian", "czech", "spanish", "pool", "thai", "canadian"])
def test_random_playouts_consistent(variant: str) -> None:
    rng = random.Random(7)
    rules = get_rules(variant)
    for _ in range(6):
        pos = Position.initial(rules)
        for _ply in range(120):
            moves = pos.legal_moves()
            assert pos.has_capture() == any(m.is_capture for m in moves)
            assert pos.is_terminal() == (not moves)
            if not moves:
                break
            for m in moves:
                assert m.path[0] == m.origin and m.path[-1] == m.destination
                assert len(set(m.captured)) == len(m.captured)
                assert set(m.captured_kings) <= set(m.captured)
                assert pos.quiet_move_exists(m.origin, m.destination) == (not m.is_capture) or \
                    m.is_capture
            m = rng.choice(moves)
            nxt = pos.play(m)
            c0, c1 = pos.counts(), nxt.counts()
            assert sum(c0.values()) - sum(c1.values()) == len(m.captured)
            assert nxt.side == pos.side.opponent
            assert nxt.key() != pos.key()
            pos = nxt


def test_move_generation_leaves_no_cyclic_garbage() -> None:
    """The capture searches are recursive closures; they must not leave a reference cycle
    per call for the garbage collector (a bulk import runs with the collector off)."""
    import gc

    from pdnkit.rules import list_variants
    from tests.placements import random_positions

    positions = [p for r in list_variants() for p in random_positions(r, 60, seed=1)]
    gc.collect()
    gc.disable()
    try:
        captures = 0
        for p in positions:
            moves = p.legal_moves()
            captures += sum(1 for m in moves if m.captured)
        left = gc.collect()
    finally:
        gc.enable()
    assert captures > 1000
    assert left < 50
