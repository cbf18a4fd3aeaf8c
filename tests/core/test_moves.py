"""Legal moves of the compiled core against the reference engine's, move for move.

The rulebook positions of ``../shared/data/positions`` (dctl's complete FMJD move sets are
also checked against the published lists), the random positions there, every position the
validator reaches in the real games, and seeded random placements of every variant (kings
and men of both colours anywhere, so that long king captures, the precedence keys and the
Frisian and Turkish searches get tried far from any opening). The lists are compared whole:
origin, destination, path, captured squares in order, captured kings, crowning, and the
routes of ``all_routes``; also the capture test and the position key.
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest

from pdnkit.core import compiled, state_of
from pdnkit.rules import Position, get_rules, list_variants, parse_fen
from pdnkit.rules.notation import format_move, parse_square
from pdnkit.rules.variants import Rules
from tests.core.support import COMPILED, corpus_files, reference_games
from tests.shared import SHARED_DATA

pytestmark = pytest.mark.skipif(not COMPILED, reason="the compiled core is not in use")

POS_DIR = SHARED_DATA / "positions"


def _load(name: str) -> Any:
    p = POS_DIR / name
    return json.loads(p.read_text(encoding="utf-8")) if p.exists() else {"positions": []}


def same_moves(pos: Position) -> None:
    """The compiled core's legal moves, routes, capture test and key are the engine's."""
    for routes in (False, True):
        assert compiled.legal_moves(pos, routes) == pos.legal_moves(all_routes=routes), \
            (repr(pos), routes)
    st = state_of(pos)
    assert compiled.has_capture(pos.rules, st) == pos.has_capture(), repr(pos)
    assert compiled.key(pos.rules, st) == pos.key(), repr(pos)


def _rules(name: str) -> Rules:
    return get_rules({"standard": "international", "american": "english"}.get(name, name))


def _fen_positions() -> list[tuple[str, str]]:
    out = [("international", c["fen"]) for c in _load("dctl_rulebook_international.json")
           ["positions"]]
    out += [(c["variant"], c["fen"]) for c in _load("misc_rule_positions.json")["positions"]]
    out += [(c["variant"], c["fen"]) for c in _load("pydraughts_expectations.json")
            ["positions"] if "fen" in c]
    out += [("international", f) for f in _load("random_positions.json")["positions"]]
    lens = POS_DIR / "legal_moves_len.json"
    if lens.exists():
        out += [("international", f) for f in json.loads(lens.read_text("utf-8"))]
    return out


FENS = _fen_positions()


@pytest.mark.parametrize(("variant", "fen"), FENS, ids=[f"{v}-{i}" for i, (v, _f) in
                                                        enumerate(FENS)])
def test_rule_and_random_positions(variant: str, fen: str) -> None:
    try:
        rules = _rules(variant)
    except ValueError:
        pytest.skip(f"variant {variant!r} is not registered")
    same_moves(parse_fen(fen, rules))


def test_dctl_rulebook_sets_as_published() -> None:
    cases = _load("dctl_rulebook_international.json")["positions"]
    if not cases:
        pytest.skip("shared test data not available")
    rules = get_rules("international")
    for case in cases:
        pos = parse_fen(case["fen"], rules)
        got = sorted(format_move(m, rules) for m in compiled.legal_moves(pos))
        want = sorted("-".join(str(int(s)) for s in m.split("-")) if "-" in m else
                      "x".join(str(int(s)) for s in m.split("x"))
                      for m in case["expected_legal_moves"])
        assert got == want, case["name"]


def test_kish_turkish_positions() -> None:
    cases = _load("kish_turkish_rules.json")["positions"]
    if not cases:
        pytest.skip("shared test data not available")
    for edition in ("default", "kish"):
        rules = get_rules("turkish", edition=edition)
        for c in cases:
            kings = {parse_square(rules, s) for s in c.get("kings", [])}
            white = {parse_square(rules, s) for s in c.get("white", [])}
            black = {parse_square(rules, s) for s in c.get("black", [])}
            pos = Position.from_squares(rules, "W" if c["turn"] == "White" else "B",
                                        white_men=white - kings, white_kings=white & kings,
                                        black_men=black - kings, black_kings=black & kings)
            same_moves(pos)


@cache
def _game_positions() -> list[Position]:
    out: list[Position] = []
    for path in corpus_files():
        for g in reference_games(path):
            out.append(g.start)
            out += [p.position_after for p in g.report.plies if p.position_after is not None]
    return out


def test_positions_of_the_real_games() -> None:
    """Every seventh position the validator reaches in the real games (all of them: slow)."""
    positions = _game_positions()
    if len(positions) < 1000:
        pytest.skip("shared test data not available")
    for pos in positions[::7]:
        same_moves(pos)
        same_moves(pos.with_side(pos.side.opponent))  # the other side's moves too


@pytest.mark.slow
def test_every_position_of_the_real_games() -> None:
    positions = _game_positions()
    if len(positions) < 1000:
        pytest.skip("shared test data not available")
    for pos in positions:
        same_moves(pos)
        same_moves(pos.with_side(pos.side.opponent))


def _random_position(rules: Rules, rng: random.Random) -> Position:
    n = rules.geometry.num_squares
    density, kings = rng.uniform(0.1, 0.7), rng.uniform(0.0, 0.9)
    sets: list[list[int]] = [[], [], [], []]
    for sq in range(1, n + 1):
        if rng.random() < density:
            colour = rng.randrange(2)
            sets[2 * colour + (rng.random() < kings)].append(sq)
    # men on their own crowning row cannot occur; keep the placement a position
    promo = (rules.geometry.promotion_squares(0), rules.geometry.promotion_squares(1))
    sets[0] = [s for s in sets[0] if s not in promo[0]]
    sets[2] = [s for s in sets[2] if s not in promo[1]]
    ctr = None
    if rules.king_move_limit and sets[1] and sets[3]:
        ctr = ((rng.choice(sets[1]), rng.randint(0, 3)), (rng.choice(sets[3]), rng.randint(0, 3)))
    return Position.from_squares(rules, rng.choice("WB"), white_men=sets[0],
                                 white_kings=sets[1], black_men=sets[2], black_kings=sets[3],
                                 king_moves=ctr)


VARIANTS = list_variants()


@pytest.mark.parametrize("rules", VARIANTS, ids=[f"{r.name}-{r.edition}" for r in VARIANTS])
def test_random_placements(rules: Rules) -> None:
    rng = random.Random(f"{rules.name}/{rules.edition}")
    for _ in range(400):
        same_moves(_random_position(rules, rng))
