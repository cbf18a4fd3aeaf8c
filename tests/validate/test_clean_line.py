"""Clean games on the compiled core (:mod:`pdnkit.validation.clean`): the light and compact
reports of a game the core replays whole, with the draw rules, the final position and the
verdict computed from its arrays, are the reports the general replay makes of it; a game that
is not clean goes the general way. Seeded random games of every variant the samples play
(draw rules reached, kings, captures, results that agree with the final position or not)
and hand-written edge cases, each through both paths on the compiled core.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import pdnkit.validation.game as game
from pdnkit.core import State, has_moves, state_of
from pdnkit.pdn import write_games
from pdnkit.rules import Position, Rules, get_rules, parse_fen, write_fen
from pdnkit.rules.fen import write_fen_bits
from pdnkit.samples.samples import variant_collection
from pdnkit.validation import clean, validate
from tests.shared import shared_path
from tests.validate.coreparity import COMPILED, dumps, first_difference

pytestmark = pytest.mark.skipif(not COMPILED, reason="the compiled core is not built")

VARIANTS = ("international", "russian", "english", "frisian", "italian", "brazilian", "czech",
            "turkish", "pool", "giveaway", "thai")
RESULTS = ("1-0", "0-1", "2-0", "0-2", "1/2-1/2", "1-1", "*", "0-0", "3-1")


class _Spy:
    """Counts the games the clean line took and declined."""

    def __init__(self) -> None:
        self.taken = self.declined = 0

    def __call__(self, *args: Any) -> Any:
        out = clean.clean_line(*args)
        if out is None:
            self.declined += 1
        else:
            self.taken += 1
        return out


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Spy]:
    s = _Spy()
    monkeypatch.setattr(game, "clean_line", s)
    # (the clean line itself: the batch of clean games, which takes such games before it,
    # is held to the general path in test_clean_batch.py)
    monkeypatch.setenv("PDNKIT_BATCH", "0")
    yield s


def _general(monkeypatch: pytest.MonkeyPatch, source: object, deep: bool, **options: Any
             ) -> list[dict[str, Any]]:
    with monkeypatch.context() as m:
        m.setattr(game, "clean_line", lambda *a: None)
        return dumps(source, deep, **options)


def _same_both_ways(monkeypatch: pytest.MonkeyPatch, spy: _Spy, source: object) -> None:
    for deep, options in ((False, {"light": True}), (True, {"compact": True}),
                          (False, {"light": True, "result_convention": "white"})):
        got = dumps(source, deep, **options)
        want = _general(monkeypatch, source, deep, **options)
        assert got, "no report"
        diff = first_difference(got, want)
        assert diff is None, f"{options}: {diff}"


def _collection(variant: str, games: int, seed: int, tmp_path: Path) -> Path:
    """Random games of ``variant`` (the samples' player), their results shuffled among the
    tokens real files write, written as PDN."""
    rng = random.Random(seed)
    records = variant_collection(variant, games, seed)
    for rec in records:
        if rng.random() < 0.4:
            token = rng.choice(RESULTS)
            rec.tags = [(k, token if k == "Result" else v) for k, v in rec.tags]
            if rng.random() < 0.5:
                rec.result = rng.choice(RESULTS)
    path = tmp_path / f"{variant}-{seed}.pdn"
    write_games(records, path)
    return path


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_read_the_same_both_ways(variant: str, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              spy: _Spy) -> None:
    path = _collection(variant, 24, 7 + len(variant), tmp_path)
    _same_both_ways(monkeypatch, spy, path)
    assert spy.taken > 0, "no game took the clean line"


def test_draw_rules_reached_in_clean_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           spy: _Spy) -> None:
    """The drawn games of the shared intl_2000 file (king endings that reach FMJD 6.1-6.4)
    and the first decided ones: the events, the draw basis and the findings the core's draw
    loop gives are the general replay's."""
    text = shared_path("bench", "intl_2000.pdn").read_text(encoding="utf-8")
    starts = [m.start() for m in re.finditer(r"^\[Event ", text, re.MULTILINE)]
    games = [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]
    drawn = [g for g in games if '[Result "1-1"]' in g]
    path = tmp_path / "draws.pdn"
    path.write_text("".join(drawn + games[:60]), encoding="utf-8")
    reports = list(validate(path, light=True))
    assert sum(1 for r in reports if r.draw_basis) >= 20
    assert spy.taken == len(reports)
    _same_both_ways(monkeypatch, spy, path)


GAMES = {
    "clean": '[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 1-0\n',
    "misnumbered": '[GameType "20"]\n1. 32-28 19-23 3. 33-29 *\n',
    "capture with a dash": '[GameType "20"]\n1. 32-28 19-23 2. 28-19 14x23 *\n',
    "quiet with an x": '[GameType "20"]\n1. 32x28 19-23 *\n',
    "illegal": '[GameType "20"]\n1. 32-28 19-24 2. 28-17 *\n',
    "missed capture": '[GameType "20"]\n1. 32-28 19-23 2. 33-29 *\n',
    "fen tag": '[GameType "20"]\n[FEN "W:W28,32:B19,23"]\n1. 28x19 *\n',
    "blank fen tag": '[GameType "20"]\n[FEN " "]\n1. 32-28 *\n',
    "no moves": '[GameType "20"]\n[Result "1-0"]\n\n1-0\n',
    "black numbers": '[GameType "20"]\n1. 32-28 1... 19-23 *\n',
    "result tag against terminator": '[GameType "20"]\n[Result "2-0"]\n1. 32-28 19-23 0-2\n',
    "breakthrough": '[GameType "96"]\n1. 32-28 19-23 *\n',
    "english": '[GameType "21"]\n1. 11-15 23-19 2. 8-11 22-17 *\n',
    "russian, black to move first by number": '[GameType "25"]\n1... c3-d4 *\n',
    "comments and nags": '[GameType "20"]\n1. 32-28 {a} 19-23 $2 2. 28x19 {b} 14x23 *\n',
}


@pytest.mark.parametrize("name", list(GAMES))
def test_hand_written_games_read_the_same_both_ways(name: str, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    spy: _Spy) -> None:
    path = tmp_path / "g.pdn"
    path.write_text(GAMES[name], encoding="utf-8")
    _same_both_ways(monkeypatch, spy, path)


@pytest.mark.parametrize(("name", "taken"), [("clean", True), ("comments and nags", True),
                                             ("misnumbered", False),
                                             ("capture with a dash", False),
                                             ("illegal", False), ("fen tag", False),
                                             ("breakthrough", False)])
def test_which_games_take_the_clean_line(name: str, taken: bool, tmp_path: Path,
                                         spy: _Spy) -> None:
    path = tmp_path / "g.pdn"
    path.write_text(GAMES[name], encoding="utf-8")
    list(validate(path, light=True))
    assert (spy.taken, spy.declined) == ((1, 0) if taken else (0, 1))


def test_full_reports_take_the_general_replay(tmp_path: Path, spy: _Spy) -> None:
    path = tmp_path / "g.pdn"
    path.write_text(GAMES["clean"], encoding="utf-8")
    rep = next(validate(path))
    assert spy.taken == 0
    assert [p.notation for p in rep.plies] == ["32-28", "19-23", "28x19", "14x23"]


def _placements(rng: random.Random) -> Iterator[tuple[Rules, Position]]:
    """Sixty seeded random placements (men and kings, either side to move) on each of eight
    boards and notations."""
    for name in ("international", "russian", "english", "frisian", "canadian", "turkish",
                 "thai", "italian"):
        rules = get_rules(name)
        n = rules.geometry.num_squares
        for _ in range(60):
            squares = rng.sample(range(1, n + 1), rng.randint(1, min(n, 24)))
            kinds: dict[str, list[int]] = {"wm": [], "wk": [], "bm": [], "bk": []}
            for sq in squares:
                kinds[rng.choice(list(kinds))].append(sq)
            yield rules, Position.from_squares(
                rules, rng.choice("WB"), white_men=kinds["wm"], white_kings=kinds["wk"],
                black_men=kinds["bm"], black_kings=kinds["bk"])


def test_fen_of_square_bits_is_write_fen() -> None:
    """``write_fen_bits`` against ``write_fen`` on seeded random placements of every board
    and notation (men and kings, either side to move)."""
    for rules, pos in _placements(random.Random(11)):
        st = state_of(pos)
        assert write_fen_bits(rules, st.black, st.wm, st.wk, st.bm, st.bk) == write_fen(pos)


def test_final_state_answers_as_the_position() -> None:
    rules = get_rules("international")
    for fen in ("W:W28:B19,23", "B:W28:B19", "W:WK46:BK5", "B:W6:B45", "W:W6:B1"):
        pos = parse_fen(fen, rules)
        end = clean.FinalState(rules, state_of(pos))
        assert end.is_terminal() == pos.is_terminal(), fen
        assert end.side == int(pos.side)
        assert end.white_kings == pos.white_kings and end.black_kings == pos.black_kings
        assert end.winner() == (None if pos.winner() is None else int(pos.winner()))
        assert has_moves(rules, State(*state_of(pos))) == bool(pos.legal_moves())


def test_one_core_call_writes_the_fen_and_counts_the_moves() -> None:
    """The core's one call over a clean game (``clean_game``) with no move: its final FEN
    is ``write_fen``'s and whether the side to move has a move is the position's, on seeded
    random placements of every board and notation."""
    from pdnkit.core import compiled
    from pdnkit.rules.fen import fen_squares

    for rules, pos in _placements(random.Random(5)):
        run = compiled.clean_game(rules)
        assert run is not None, rules.name
        got = run(state_of(pos), "*", 0, 0, 0, None, b"", fen_squares(rules))
        assert got is not None
        end, has_move, made, fen = got
        assert fen == write_fen(pos), rules.name
        assert has_move == bool(pos.legal_moves()), write_fen(pos)
        assert made is None and tuple(end) == tuple(state_of(pos))


@pytest.mark.parametrize(("text", "n", "clean_game"), [
    ("1. 32-28 19-23 2. 28x19 14x23 *", 4, True),
    ("1. 32-28 19-23 2. 28x19 14x23 *", 3, False),   # not every ply it was told of
    ("1. 32-28 19-23 3. 28x19 14x23 *", 4, False),   # a move number that does not fit
    ("1. 32-28 19-23 2. 28-19 14x23 *", 4, False),   # a capture written with '-'
    ("1. 32-28 19-23 2. 28-22 *", 3, False),         # an illegal move
])
def test_one_core_call_declines_what_is_not_clean(text: str, n: int, clean_game: bool) -> None:
    from pdnkit.core import compiled
    from pdnkit.rules.fen import fen_squares

    rules = get_rules("international")
    run = compiled.clean_game(rules)
    if run is None:
        pytest.skip("the compiled core is not in use")
    start = state_of(Position.initial(rules))
    got = run(start, text, 0, n, 0, None, b"", fen_squares(rules))
    assert (got is not None) == clean_game
    if got is not None:
        # 32 went to 19 and was taken there; 14 took it, landing on 23
        assert got[3] == "W:W31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:" \
                         "B1,2,3,4,5,6,7,8,9,10,11,12,13,15,16,17,18,20,23"
