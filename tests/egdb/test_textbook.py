"""Textbook endings, each as its published source states it, checked over every position of
the ending in the databases.

* Russian draughts, three kings against one (Petrov's triangle). Russian Wikipedia,
  "Треугольник Петрова" (https://ru.wikipedia.org/wiki/Треугольник_Петрова): three kings
  catch a lone king "no later than the thirteenth move"; the Odessa draughts club's lesson
  "Три дамки против одной" (jak.bono.odessa.ua, "Трикутник Петрова"): "if the opponent's king
  is not on the main road, three kings always catch it, and from the most awkward position it
  takes no more than 13 moves"; the FMJD-64 rules 7.2.7 (RULES.md 2.x): against a lone king
  on the main road (a1-h8) the game is drawn unless a winning position is reached in 5 moves.
* International draughts, three kings against one. FMJD course "The endgame" (section 3, "3
  kings against 1"): "three kings against one, which usually is a draw. You have to know some
  exceptions however"; mindsports.nl, "Basic tactics": "barring some 10.000 of over 2.500.000
  three against one positions, one needs four kings"; hence FMJD rule 6.3 (RULES.md 2.1): the
  game is drawn after 16 more moves each.
* English checkers, two kings against one. Edward Lasker, "Chess and Checkers: the Way to
  Mastership" (1918, Project Gutenberg 4913), diagram 89: "With one King entrenched in the
  double corner it takes two Kings to force the win", with the winning line from White kings
  19 and 23 against Black's king on 32.
"""

from __future__ import annotations

import itertools

import pytest

from pdnkit.egdb import Egdb, build
from pdnkit.egdb.backend import placement_bits
from pdnkit.egdb.index import Signature, decode_code
from pdnkit.rules import Position, get_rules, parse_fen, parse_square

from .support import compiled


def _long_diagonal(rules) -> set[int]:
    g = rules.geometry
    return {n for n in range(1, g.num_squares + 1)
            if g.square_to_coords(n)[0] == g.square_to_coords(n)[1]}


def _kings_against_one(db: Egdb, strong: int, side: str):
    """Every position of ``strong`` white kings against one black king, ``side`` to move,
    with its value and plies."""
    rules = db.rules
    n = rules.geometry.num_squares
    positions = [Position.from_squares(rules, side, white_kings=wk, black_kings=[bk])
                 for wk in itertools.combinations(range(1, n + 1), strong)
                 for bk in range(1, n + 1) if bk not in wk]
    codes = db.codes([placement_bits(p) for p in positions])
    return [(p, *decode_code(c)) for p, c in zip(positions, codes, strict=True)]


@pytest.fixture(scope="module")
def russian(tmp_path_factory) -> Egdb:
    compiled(get_rules("russian"))
    d = tmp_path_factory.mktemp("egdb-russian")
    build("russian", 4, directory=d, only=[Signature(0, 3, 0, 1)])
    return Egdb("russian", d)


def test_russian_three_kings_catch_a_lone_king_off_the_main_road_within_13_moves(russian):
    road = _long_diagonal(russian.rules)
    assert road == {4, 8, 11, 15, 18, 22, 25, 29}  # a1-h8 in the numeric squares
    checked = 0
    plies = []
    for p, value, n in _kings_against_one(russian, 3, "W"):
        (bk,) = p.black_kings
        if bk in road or p.with_side("B").has_capture():
            continue  # on the main road, or a fork: the lone king takes a king first
        checked += 1
        assert value == "win", p
        plies.append(n)
    assert checked > 40_000
    assert max(plies) == 25  # White's 13th move takes the king: 13 + 12 plies


def test_russian_lone_king_on_the_main_road_draws(russian):
    road = _long_diagonal(russian.rules)
    held = [(p, value) for p, value, _ in _kings_against_one(russian, 3, "B")
            if next(iter(p.black_kings)) in road and not road & p.white_kings
            and not p.has_capture()]
    assert len(held) > 10_000
    assert {value for _, value in held} == {"draw"}


def test_russian_petrov_position_is_won(russian):
    """Petrov's own position (the Wikipedia article): White kings a1, c1, e1, Black king f8."""
    rules = russian.rules
    sq = {name: parse_square(rules, name) for name in ("a1", "c1", "e1", "f8")}
    for side, value in (("W", "win"), ("B", "loss")):
        p = Position.from_squares(rules, side, white_kings=[sq["a1"], sq["c1"], sq["e1"]],
                                  black_kings=[sq["f8"]])
        v = russian.verdict(p)
        assert v.value == value and v.plies is not None and v.plies <= 25


@pytest.fixture(scope="module")
def international(tmp_path_factory) -> Egdb:
    compiled(get_rules("international"))
    d = tmp_path_factory.mktemp("egdb-international")
    build("international", 4, directory=d, only=[Signature(0, 3, 0, 1)])
    return Egdb("international", d)


@pytest.mark.slow
def test_international_three_kings_against_one_draws_in_general_with_traps(international):
    rows = [(p, v, n) for p, v, n in _kings_against_one(international, 3, "B")
            if not p.has_capture()]  # the lone king to move, nothing to take
    lost = [(p, n) for p, v, n in rows if v == "loss"]
    drawn = sum(1 for _, v, _ in rows if v == "draw")
    assert len(rows) > 500_000
    assert drawn / len(rows) > 0.95  # "usually a draw"
    assert 5_000 < len(lost) < 50_000  # "some exceptions": about 10,000 traps
    assert max(n for _, n in lost) <= 32  # every trap springs well within 16 moves each


def test_english_two_kings_beat_one():
    rules = get_rules("english")
    compiled(rules)
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        build("english", 3, directory=d, only=[Signature(0, 2, 0, 1)])
        db = Egdb("english", d)
        rows = _kings_against_one(db, 2, "W")
        free = [(p, v) for p, v, _ in rows if not p.with_side("B").has_capture()]
        assert len(free) > 12_000
        others = [v for p, v in free if v != "win"]
        # won, but for a handful of draws where the lone king boxes both kings in a corner
        # (W:WK3,K4:BK11: 3-7 is taken, 3-8 and 4-8 leave them jammed)
        assert set(others) == {"draw"} and len(others) <= len(free) // 1000
        assert db.verdict(parse_fen("W:WK3,K4:BK11", rules)).value == "draw"
        # Lasker's diagram 89: White kings 19 and 23 drive Black's king out of the double
        # corner; every position of his line keeps the win for White
        p = parse_fen("W:WK19,K23:BK32", rules)
        line = ["19-24", "32-28", "23-19", "28-32", "24-28", "32-27", "28-32", "27-31", "19-15", "31-26", "15-18"]
        for ply, text in enumerate(line):
            v = db.verdict(p)
            assert v.value == ("win" if ply % 2 == 0 else "loss"), (ply, text)
            (move,) = [m for m in p.legal_moves() if f"{m.origin}-{m.destination}" == text]
            p = p.play(move)
        assert db.verdict(parse_fen("W:WK19,K23:BK32", rules)).plies == 15
