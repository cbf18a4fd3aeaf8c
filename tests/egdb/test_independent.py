"""Every value and ply count of English and international up to three pieces, checked
without the solver: each position's own moves, made by the rules engine (not the solver's
tables, nor its moves taken back), and the databases' values of the positions they lead to
must give the position's value by the definition (game-theoretic, no move-count rule):

* no legal move: a loss in 0 plies (the side to move has lost);
* a win in n plies: a move leads to a loss in n - 1, and none to a shorter loss;
* a loss in n plies: every move leads to a win, the longest in n - 1;
* a draw: no move leads to a loss, and one leads to a draw.

Holding at every position, this is the databases' whole truth: by induction on the true
length of a game, a position won or lost in n plies is found so, and a draw can then be
neither (a win's chain of shorter and shorter values must end at a position without a move).
The default run checks a seeded sample, the slow run every position; ``pdnkit egdb probe``
is checked on a sample as a user runs it.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from pdnkit.egdb import Egdb, build
from pdnkit.egdb.index import build_order, layout_of
from pdnkit.rules import Position, get_rules
from pdnkit.rules.fen import write_fen

from .support import compiled

PIECES = 3


@pytest.fixture(scope="module", params=["english", "international"])
def built(request, tmp_path_factory):
    rules = get_rules(request.param)
    compiled(rules)
    folder = tmp_path_factory.mktemp(f"egdb-independent-{request.param}")
    build(rules, PIECES, directory=folder)
    return rules, folder


def _positions(rules, sample: int, seed: int = 5) -> list[Position]:
    """A seeded sample of the positions of up to PIECES pieces."""
    lay = layout_of(rules)
    rng = random.Random(seed)
    sigs = build_order(PIECES)
    out: list[Position] = []
    while len(out) < sample:
        sig = rng.choice(sigs)
        placed = lay.decode(sig, rng.randrange(lay.half(sig)))
        if placed is not None:
            out.append(Position.from_squares(rules, rng.choice("WB"), *placed))
    return out


def _every_position(rules, sig) -> list[Position]:
    """Every position of one signature, both sides to move."""
    lay = layout_of(rules)
    out = []
    for idx in range(lay.half(sig)):
        placed = lay.decode(sig, idx)
        if placed is not None:
            out += [Position.from_squares(rules, side, *placed) for side in "WB"]
    return out


def _by_definition(kids: list[tuple[str | None, int | None]]) -> tuple[str, int | None]:
    """A position's value from its children's (each for the child's side to move)."""
    if not kids:
        return "loss", 0
    losses = [n for v, n in kids if v == "loss"]
    if losses:
        return "win", min(losses) + 1  # type: ignore[type-var,operator]
    if all(v == "win" for v, _ in kids):
        return "loss", max(n for _, n in kids) + 1  # type: ignore[type-var,operator]
    return "draw", None


def _wrong(db: Egdb, positions: list[Position]) -> list[tuple[str, tuple, tuple]]:
    rules = db.rules
    children = [[p.play(m) for m in p.legal_moves()] for p in positions]
    values = db.verdicts(positions)
    kid_values = iter(db.verdicts([c for kids in children for c in kids]))
    wrong = []
    for p, v, kids in zip(positions, values, children, strict=True):
        got = [next(kid_values) for _ in kids]
        assert all(k.value is not None for k in got)
        want = _by_definition([(k.value, k.plies) for k in got])
        if (v.value, v.plies) != want:
            wrong.append((write_fen(p), (v.value, v.plies), want))
        if p.winner() is not None and not kids:  # the rules engine's own end of game
            assert rules.losing_game or p.winner() != p.side
    return wrong


def test_a_sample_of_values_and_plies_by_definition(built) -> None:
    rules, folder = built
    db = Egdb(rules, folder)
    positions = _positions(rules, 3000)
    assert _wrong(db, positions) == []
    values = {v.value for v in db.verdicts(positions)}
    assert values == {"win", "draw", "loss"}


@pytest.mark.slow
def test_every_value_and_ply_count_by_definition(built) -> None:
    rules, folder = built
    db = Egdb(rules, folder)
    lay = layout_of(rules)
    checked = 0
    for sig in build_order(PIECES):  # one signature at a time: memory stays small
        positions = _every_position(rules, sig)
        assert len(positions) == 2 * lay.positions(sig)
        for i in range(0, len(positions), 20_000):
            assert _wrong(db, positions[i:i + 20_000]) == []
        checked += len(positions)
    assert checked == 2 * sum(lay.positions(s) for s in build_order(PIECES))


def test_probe_command_gives_the_values_and_plies(built, tmp_path) -> None:
    """``pdnkit egdb probe --format json`` on a sample: each value and ply count by the
    definition (the children's values probed by the library)."""
    rules, folder = built
    db = Egdb(rules, folder)
    positions = _positions(rules, 300, seed=11)
    fens = tmp_path / "fens.txt"
    fens.write_text("".join(write_fen(p) + "\n" for p in positions), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "pdnkit", "egdb", "probe", rules.name,
                        "--fens", str(fens), "--dir", str(folder), "--format", "json"],
                       capture_output=True, text=True, env=dict(os.environ), timeout=300)
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert [row["fen"] for row in rows] == [write_fen(p) for p in positions]
    for p, row in zip(positions, rows, strict=True):
        kids = db.verdicts([p.play(m) for m in p.legal_moves()])
        assert (row["value"], row["plies"]) == _by_definition([(k.value, k.plies) for k in kids])
