"""The draw rules fed from a core replay's arrays (:func:`pdnkit.core.feed.push_replay`)
against the tracker pushed one ply at a time: the same rule events and counts on every real
game, on seeded random ply sequences of every variant (the compiled loop and Python taking
turns within a game, seeded counters), and every material condition as data
(``CountPattern``) against its function, in Python and in the compiled loop.
"""

from __future__ import annotations

import itertools
import random
from array import array

import pytest

from pdnkit.core import Replay, State, compiled, replay
from pdnkit.core.feed import draw_spec, push_replay, push_replay_python
from pdnkit.rules import DrawTracker, Position, get_rules
from pdnkit.rules.draw import MATERIAL_CONDITIONS, main_road_squares
from pdnkit.rules.variants import DrawRule, list_variants
from tests.core.support import COMPILED, corpus_files, reference_games

RUN = compiled.draw_run()
needs_loop = pytest.mark.skipif(RUN is None or not COMPILED, reason="no compiled core")


def _events(tracker: DrawTracker, last: int) -> list[tuple[object, ...]]:
    return [(e.rule, e.article, e.automatic, e.start_ply, e.limit_plies, e.deadline_ply,
             e.reached_ply, e.end_ply, e.source) for e in tracker.finish(last)]


@needs_loop
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_real_games(path: object) -> None:
    for g in reference_games(path):  # type: ignore[arg-type]
        rep = replay(g.rules, g.start, g.texts)
        a = DrawTracker(g.rules, g.start, g.halfmove, int_keys=True)
        b = DrawTracker(g.rules, g.start, g.halfmove, int_keys=True)
        black = int(g.start.side) == 1
        push_replay(a, rep, 0, rep.plies, 0, black)
        push_replay_python(b, rep, 0, rep.plies, 0, black)
        assert a.counts() == b.counts(), (g.report.file, g.report.index)
        assert _events(a, rep.plies) == _events(b, rep.plies), (g.report.file, g.report.index)


def _fake_replay(rng: random.Random, rules: object, n: int) -> Replay:
    """A replay of ``n`` plies of random classes, counts, keys (few distinct, so positions
    repeat) and square bitboards: what the draw loop reads, consistent or not."""
    nsq = rules.geometry.num_squares  # type: ignore[attr-defined]
    flags = bytes(rng.choice((0, 0, 1, 2, 3, 4, 4, 4, 4, 5)) for _ in range(n))
    counts = bytes(rng.choice((0, 0, 1, 1, 2, 3, 4)) for _ in range(4 * n))
    keys = array("q", (rng.randrange(6) - 3 for _ in range(n))).tobytes()
    bits = array("Q", (rng.getrandbits(min(nsq, 64)) & rng.getrandbits(64)
                       for _ in range(4 * n))).tobytes()
    high = array("Q", (rng.getrandbits(nsq - 64) for _ in range(4 * n))).tobytes() \
        if nsq > 64 else b""
    final = State(False, 0, 0, 0, 0, None)
    return Replay(n, None, None, 0, 0, -1, -1, final, b"", b"", flags, b"", b"", b"", b"",
                  b"", bits, high, keys, counts, b"", b"", b"")


@needs_loop
@pytest.mark.parametrize("rules", list_variants(), ids=lambda r: f"{r.name}-{r.edition}")
def test_random_plies_in_turns(rules: object) -> None:
    rng = random.Random(f"draw-{rules.name}-{rules.edition}")  # type: ignore[attr-defined]
    start = Position.initial(rules)  # type: ignore[arg-type]
    for round_ in range(60):
        n = rng.randrange(1, 120)
        rep = _fake_replay(rng, rules, n)
        halfmove = rng.choice((None, 0, 3, 40))
        a = DrawTracker(rules, start, halfmove, int_keys=True)  # type: ignore[arg-type]
        b = DrawTracker(rules, start, halfmove, int_keys=True)  # type: ignore[arg-type]
        # the compiled loop and Python take turns, as when Python replays a stop ply
        cuts = sorted({0, n, *(rng.randrange(n) for _ in range(rng.randrange(4)))})
        for x, y in itertools.pairwise(cuts):
            if rng.random() < 0.5:
                push_replay(a, rep, x, y, x, False)
            else:
                push_replay_python(a, rep, x, y, x, False)
        push_replay_python(b, rep, 0, n, 0, False)
        where = (rules.name, round_)  # type: ignore[attr-defined]
        assert a.counts() == b.counts(), where
        assert _events(a, n) == _events(b, n), where


def _two_repetition_rules(name: str) -> object:
    """A variant's record with a second repetition rule beside its own (no variant has two
    today; the state the compiled loop hands back holds one table per rule)."""
    import dataclasses

    rules = get_rules(name)
    extra = DrawRule("test-fourfold", "a test rule", False, "repetition", 4, "any",
                     frozenset({"capture"}), "S")
    return dataclasses.replace(rules, draw_rules=(*rules.draw_rules, extra))


@needs_loop
@pytest.mark.parametrize("name", ["international", "russian"])
def test_two_repetition_rules_unpack_each_its_own_table(name: str) -> None:
    rules = _two_repetition_rules(name)
    assert [d.kind for d in rules.draw_rules].count("repetition") == 2  # type: ignore[attr-defined]
    rng = random.Random(f"two-repetitions-{name}")
    start = Position.initial(rules)  # type: ignore[arg-type]
    for round_ in range(80):
        n = rng.randrange(8, 120)
        rep = _fake_replay(rng, rules, n)
        a = DrawTracker(rules, start, None, int_keys=True)  # type: ignore[arg-type]
        b = DrawTracker(rules, start, None, int_keys=True)  # type: ignore[arg-type]
        cut = rng.randrange(1, n)  # the loop's tables, then Python reads them on
        push_replay(a, rep, 0, cut, 0, False)
        push_replay_python(a, rep, cut, n, cut, False)
        push_replay_python(b, rep, 0, n, 0, False)
        assert a.counts() == b.counts(), round_
        assert _events(a, n) == _events(b, n), round_


def test_patterns_are_the_conditions() -> None:
    """Every CountPattern holds exactly where its condition's function does."""
    for name, cond in MATERIAL_CONDITIONS.items():
        if cond.pattern is None:
            assert cond.always, name
            continue
        base = MATERIAL_CONDITIONS["lone-king-vs-3-with-king"] if cond.needs_position else cond
        for wm, wk, bm, bk in itertools.product(range(14), repeat=4):
            c = {"white_men": wm, "white_kings": wk, "black_men": bm, "black_kings": bk}
            assert cond.pattern.holds(c) == base(c), (name, c)


@needs_loop
def test_compiled_conditions() -> None:
    """The compiled loop's reading of every pattern (a counter starts where it holds), on
    counts up to 9 a kind and, for the main road, random placements of the Russian board."""
    rules = get_rules("russian")
    rng = random.Random("road")
    road = 0
    for n in main_road_squares(rules):
        road |= 1 << (n - 1)
    for name, cond in MATERIAL_CONDITIONS.items():
        rule = DrawRule("t", "T", True, "counter", 10, name, frozenset({"capture"}))
        spec_rules = compiled_spec(rules, rule)
        for wm, wk, bm, bk in itertools.product(range(10), repeat=4):
            counts = bytes((wm, wk, bm, bk))
            sq = [0, 0, 0, 0]
            if cond.needs_position:
                sq = [rng.getrandbits(32) & (rng.getrandbits(32) | road) for _ in range(4)]
            pos = _Counts(rules, counts, sq)
            want = cond.test(pos.counts(), pos) if cond.needs_position else cond(pos.counts())
            state = array("q", [0, -1, -1, -1, 0, 0, 0]).tobytes()
            out, _, _ = RUN(spec_rules, state, b"\x04", counts, array("q", [1]).tobytes(),
                            array("Q", sq).tobytes(), b"", 0, 1, 0)
            assert bool(array("q", out)[4]) == want, (name, wm, wk, bm, bk, sq)


def compiled_spec(rules: object, rule: DrawRule) -> bytes:
    """A spec of the one rule ``rule`` on ``rules``' board (not cached)."""
    from pdnkit.core import feed

    saved = dict(feed._SPECS)
    feed._SPECS.clear()
    try:
        return draw_spec(rules, [rule])  # type: ignore[arg-type]
    finally:
        feed._SPECS.clear()
        feed._SPECS.update(saved)


class _Counts:
    """Counts and squares as a condition reads a position."""

    def __init__(self, rules: object, counts: bytes, sq: list[int]) -> None:
        self.rules = rules
        self._c = counts
        self._sq = sq

    def counts(self) -> dict[str, int]:
        c = self._c
        return {"white_men": c[0], "white_kings": c[1], "black_men": c[2], "black_kings": c[3]}

    def _set(self, i: int) -> frozenset[int]:
        m = self._sq[i]
        return frozenset(n + 1 for n in range(m.bit_length()) if m >> n & 1)

    @property
    def white_men(self) -> frozenset[int]:
        return self._set(0)

    @property
    def white_kings(self) -> frozenset[int]:
        return self._set(1)

    @property
    def black_men(self) -> frozenset[int]:
        return self._set(2)

    @property
    def black_kings(self) -> frozenset[int]:
        return self._set(3)


@needs_loop
def test_malformed_arguments() -> None:
    rules = get_rules("international")
    spec = draw_spec(rules, list(rules.draw_rules))
    tracker = DrawTracker(rules, Position.initial(rules), int_keys=True)
    state = tracker.export_state()
    for bad in (b"", b"\x00" * 7, spec[:-8]):
        with pytest.raises(ValueError):
            RUN(bad, state, b"", b"", b"", b"", b"", 0, 0, 0)
    for bad in (b"", state[:-8], state + b"\x00" * 8, b"\xff" * len(state)):
        with pytest.raises(ValueError):
            RUN(spec, bad, b"", b"", b"", b"", b"", 0, 0, 0)
    with pytest.raises(ValueError):  # more plies than the arrays hold
        RUN(spec, state, b"\x00", b"\x00" * 4, b"\x00" * 8, b"\x00" * 32, b"", 0, 2, 0)
