"""The replay core against the validator, and the compiled core against the pure one.

Every game of ``../shared/data/real`` and of the project's ``data/`` samples, given as the
reader's move texts and as the movetext as written; seeded random games from the start and
the perft positions of every variant, written in short, canonical and full-path forms; the
same games with one move spoiled. Each backend's replay must keep the contract of
``tests/core/support.py`` (the plies the validator replays, the validator's classification
of the ply it stops at, the validator's draw-rule events), and the two backends must give
identical arrays. With ``PDNKIT_PURE=1`` only the pure backend runs.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from pdnkit.core import Replay, compiled, pure, state_of
from pdnkit.rules import Position, get_rules, list_variants, parse_fen
from pdnkit.rules.notation import canonical_notation, format_move, to_numeric
from pdnkit.rules.variants import Rules
from pdnkit.validation.match import match_move
from tests.core.support import (
    BACKENDS,
    COMPILED,
    KIND_CODES,
    RefGame,
    check_game,
    corpus_files,
    reference_games,
    replay_all,
)
from tests.shared import SHARED_DATA, shared_path

FILES = corpus_files()


@cache
def _games(path: Path) -> list[RefGame]:
    return list(reference_games(path))


def test_the_corpus_is_there() -> None:
    if not (SHARED_DATA / "real").is_dir():
        pytest.skip("shared test data not available")
    assert len(FILES) > 30 and sum(len(_games(f)) for f in FILES) > 6000


#: the backends checked against the validator on the real games: the compiled one where it is
#: in use (the pure one then gives the same named tuples, checked below, so it keeps the same
#: contract; ``PDNKIT_PURE=1`` checks the pure one itself), else the pure one
AGAINST_THE_VALIDATOR = ["compiled"] if COMPILED else ["pure"]


@pytest.mark.parametrize("mode", ["moves", "movetext"])
@pytest.mark.parametrize("backend", AGAINST_THE_VALIDATOR)
@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_real_games_against_the_validator(path: Path, backend: str, mode: str) -> None:
    stats: Counter[str] = Counter()
    for g in _games(path):
        check_game(replay_all(BACKENDS[backend], g, mode == "movetext"), g, stats)


@pytest.mark.skipif(not COMPILED, reason="the compiled core is not in use")
@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_real_games_compiled_equals_pure(path: Path) -> None:
    """Every field of the replay (a named tuple) is the same: what the compiled core's check
    against the validator asserts then holds for the pure core too."""
    for g in _games(path):
        for text in (False, True):
            a, b = replay_all(compiled.replay, g, text), replay_all(pure.replay, g, text)
            assert a == b, f"{g.report.file}#{g.report.index} {'text' if text else 'moves'}"


def test_handovers_are_rare() -> None:
    """The core hands over to the Python replay only where the text or the move needs it
    (placeholders, short forms, a capture path written through a flying king's stretch)."""
    games = [g for f in FILES for g in _games(f)]
    if not games:
        pytest.skip("shared test data not available")
    fn = BACKENDS.get("compiled", pure.replay)
    reasons = Counter(r.reason for r in (replay_all(fn, g) for g in games)
                      if r.code == "handover")
    assert sum(reasons.values()) <= max(10, len(games) // 500), reasons
    assert set(reasons) <= {"text that is not a plain move",
                            "the written path needs the full matcher"}, reasons


# ------------------------------------------------------------------ generated games


def _perft_starts() -> list[tuple[Rules, Position]]:
    out = [(r, Position.initial(r)) for r in list_variants()]
    path = SHARED_DATA / "perft.json"
    if path.exists():
        for e in json.loads(path.read_text(encoding="utf-8"))["specific_positions"]:
            r = get_rules(e["variant"])
            out.append((r, parse_fen(e["fen"], r)))
    return out


STARTS = _perft_starts()
START_IDS = [f"{r.name}-{r.edition}-{i}" for i, (r, _p) in enumerate(STARTS)]


def _random_game(rules: Rules, start: Position, seed: int, plies: int = 160
                 ) -> tuple[list[str], list[Position]]:
    """A seeded random legal game: its moves written in a form picked per move (canonical,
    full landing path, or numeric squares for an alphanumeric variant) and its positions."""
    rng = random.Random(seed)
    pos, texts, positions = start, [], []
    for _ in range(plies):
        legal = pos.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        form = rng.random()
        if form < 0.6:
            text = canonical_notation(move, pos, legal)
        else:
            text = format_move(move, rules, full_path=bool(move.captured))
        if rules.notation == "alphanumeric" and rng.random() < 0.3:
            text = to_numeric(rules, text)
        texts.append(text)
        pos = pos.play(move)
        positions.append(pos)
    return texts, positions


@pytest.mark.parametrize("backend", sorted(BACKENDS))
@pytest.mark.parametrize(("index"), range(len(STARTS)), ids=START_IDS)
def test_generated_games_replay_whole(index: int, backend: str) -> None:
    rules, start = STARTS[index]
    for seed in range(4):
        texts, positions = _random_game(rules, start, 1000 * index + seed)
        movetext = " ".join(f"{i // 2 + 1}. {t}" if i % 2 == 0 else t
                            for i, t in enumerate(texts)) + " *"
        for moves in (texts, movetext):
            rep = BACKENDS[backend](rules, start, moves, 0)
            assert rep.code is None and rep.plies == len(texts), (seed, rep.code, rep.reason)
            black = int(start.side) == 1
            for i, pos in enumerate(positions):
                assert rep.position(i, black) == state_of(pos) and rep.key(i) == pos.key()
            assert rep.final == state_of(positions[-1] if positions else start)
            if COMPILED and backend == "compiled":
                assert rep == pure.replay(rules, start, moves, 0)


def _spoil(rules: Rules, texts: list[str], rng: random.Random) -> tuple[list[str], int]:
    k = rng.randrange(len(texts))
    n = rules.geometry.num_squares
    how = rng.random()
    out = list(texts)
    if how < 0.3:  # a square changed
        parts = out[k].replace("x", "-").replace(":", "-").split("-")
        parts[rng.randrange(len(parts))] = str(rng.randint(1, n))
        out[k] = rng.choice("-x").join(parts)
    elif how < 0.5 and k + 1 < len(out):  # two moves swapped
        out[k], out[k + 1] = out[k + 1], out[k]
    elif how < 0.7:  # a move dropped
        del out[k]
    elif how < 0.85:  # a random move of random squares
        out[k] = f"{rng.randint(1, n)}{rng.choice('-x:')}{rng.randint(1, n)}"
    else:  # the same move again
        out.insert(k, out[k])
    return out, k


@pytest.mark.parametrize(("index"), range(len(STARTS)), ids=START_IDS)
def test_spoiled_games_stop_where_the_validator_does(index: int) -> None:
    rules, start = STARTS[index]
    rng = random.Random(index)
    for seed in range(12):
        texts, _positions = _random_game(rules, start, 7000 + 100 * index + seed, 60)
        if not texts:
            continue
        spoiled, _k = _spoil(rules, texts, rng)
        reps = [fn(rules, start, spoiled, 0) for fn in BACKENDS.values()]
        assert all(r == reps[0] for r in reps), spoiled
        _check_against_reference(rules, start, spoiled, reps[0])


def _check_against_reference(rules: Rules, start: Position, texts: list[str], rep: Replay
                             ) -> None:
    """Every ply the core resolved is the validator's own reading; the stop carries the
    validator's classification."""
    pos = start
    for i in range(rep.plies):
        res = match_move(pos, _squares(rules, texts[i]))
        assert res.ok and res.move is not None, (i, texts[i], res.kind)
        pos = pos.play(res.move)
        assert state_of(pos) == rep.position(i, int(start.side) == 1)
    assert rep.final == state_of(pos)
    if rep.code in (None, "handover"):
        return
    sq = _squares(rules, texts[rep.plies])
    if any(not 1 <= s <= rules.geometry.num_squares for s in sq):
        assert rep.code == "illegal-move"
        return
    assert KIND_CODES[match_move(pos, sq).kind] == rep.code, (texts[rep.plies], rep.code)


def _squares(rules: Rules, text: str) -> list[int]:
    from pdnkit.rules.notation import parse_square

    out = []
    for part in text.replace("x", "-").replace(":", "-").split("-"):
        try:
            out.append(parse_square(rules, part))
        except ValueError:
            out.append(0)
    return out


# ------------------------------------------------------------------ the benchmark file


@pytest.mark.slow
def test_bench_games_against_the_validator() -> None:
    """intl_2000.pdn: every game, both inputs, every backend, and the published finals."""
    path = shared_path("bench", "intl_2000.pdn")
    finals = json.loads(shared_path("bench", "intl_2000.final.json").read_text("utf-8"))
    games = list(reference_games(path))
    assert len(games) == len(finals) == 2000
    first, *others = BACKENDS.values()  # the pure core first: it is the one checked whole
    for g, want in zip(games, finals, strict=True):
        rep = replay_all(first, g)
        check_game(rep, g)
        assert rep.code is None and rep.plies == want["plies"]
        f = want["final"]
        assert rep.final[:5] == (f["turn"] == "B", _mask(f["wm"]), _mask(f["wk"]),
                                 _mask(f["bm"]), _mask(f["bk"]))
        for fn in others:  # the compiled core: the same arrays (from movetext too, but for
            assert replay_all(fn, g) == rep  # the spans, numbers and annotation flags)
            text = replay_all(fn, g, text=True)
            assert (text.bits, text.keys, text.path, text.final) == (rep.bits, rep.keys,
                                                                     rep.path, rep.final)


def _mask(squares: list[int]) -> int:
    return sum(1 << (n - 1) for n in squares)


def test_resume_after_a_ply_python_handled() -> None:
    """``offset`` goes on where the Python replay took over (here: after a variation)."""
    r = get_rules("international")
    start = Position.initial(r)
    text = "1. 32-28 19-23 2. 28x19 {a comment} 14x23 3. 33-28 (3. 31-27 17-21) 3... 23x32 *"
    for fn in BACKENDS.values():
        first = fn(r, start, text, 0)
        assert (first.plies, first.code, first.reason) == (5, "handover", "a variation")
        assert text[first.stop_start] == "("
        rest = fn(r, first.final, text, text.index(")") + 1)
        assert (rest.plies, rest.code, rest.move(0)[:2]) == (1, None, (23, 32))
        assert text[rest.result_start:rest.result_end] == "*"
        assert rest.numbers[:4] == (3).to_bytes(4, "little") and rest.spans
