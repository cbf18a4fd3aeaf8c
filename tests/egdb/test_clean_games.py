"""The databases' verdicts on clean games: games from the variant's own start that the core
replays whole (the clean lane, ``pdnkit.validation.clean``) are judged as every other game,
whatever the report's mode (light for ``pdnkit validate``, compact for ``pdnkit import``,
full), on the compiled core and on the pure one, in this process and in workers.

The expected verdicts come from probing each position of the game's tail again
(``Egdb.verdict``), not from the validator: a move is a thrown win where its mover won
before it and does not after, a thrown draw where a drawn position becomes the opponent's
win, and the result is against the databases where they give the final position to another
side than the score does.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from pdnkit.egdb import Egdb, build
from pdnkit.rules import Position, get_rules
from pdnkit.rules.fen import write_fen
from pdnkit.rules.notation import format_move
from pdnkit.validation import validate
from pdnkit.validation.egdbcheck import forget_databases
from tests.validate.coreparity import pure_core

from .support import compiled

CODES = ("result-vs-egdb", "win-thrown-away", "draw-thrown-away")
PIECES = 3
SIDE = ("white", "black")


def _random_game(rules, db: Egdb, seed: int) -> list[Position]:
    """The positions of a random game from the start: random moves until at most PIECES
    pieces are left, then up to 12 more or to the end of the game, where a side that wins
    lets the win go now and then (one of its moves after which it no longer wins, chosen by
    probing)."""
    rng = random.Random(seed)
    line = [Position.initial(rules)]
    tail = 0
    while len(line) < 400 and tail < 12:
        p = line[-1]
        moves = p.legal_moves()
        if not moves:
            break
        if tail and rng.random() < 0.3 and db.verdict(p).value == "win":
            moves = [m for m in moves if db.verdict(p.play(m)).value != "loss"] or moves
        line.append(p.play(rng.choice(moves)))
        tail += sum(line[-1].counts().values()) <= PIECES
    return line


def _winner(value: str, side: int) -> int | None:
    return None if value == "draw" else side if value == "win" else 1 - side


def _score(rules, winner: int | None) -> str:
    """The result string of a winner (``None``: a draw); the first number is the first
    mover's (English: Black's)."""
    if winner is None:
        return "1/2-1/2"
    return "1-0" if winner == int(rules.first_mover) else "0-1"


def _expected(db: Egdb, line: list[Position], result: str) -> list[tuple]:
    """``(code, ply, fen)`` of every verdict, by probing each position of the tail."""
    values = {k: db.verdict(p) for k, p in enumerate(line)
              if sum(p.counts().values()) <= PIECES}
    out = []
    for k in range(len(line) - 1):
        if k not in values or k + 1 not in values:
            continue
        mover = int(line[k].side)
        was = _winner(values[k].value, mover)
        now = _winner(values[k + 1].value, 1 - mover)
        if was == mover and now != mover:
            out.append(("win-thrown-away", k + 1, write_fen(line[k])))
        elif was is None and now == 1 - mover:
            out.append(("draw-thrown-away", k + 1, write_fen(line[k])))
    end = values[len(line) - 1]
    scored = {_score(db.rules, w): w for w in (0, 1, None)}[result]
    if end.plies != 0 and _winner(end.value, int(line[-1].side)) != scored:
        out.append(("result-vs-egdb", len(line) - 1, write_fen(line[-1])))
    return out


def _result(db: Egdb, line: list[Position], wrong: bool) -> str:
    """The result by the rules where the game is over; else the databases' (``wrong``: a
    result they contradict)."""
    end = line[-1]
    if not end.legal_moves():
        return _score(db.rules, 1 - int(end.side))
    v = db.verdict(end)
    winner = _winner(v.value, int(end.side))
    if wrong:  # the other side's win, or a win in a draw
        return _score(db.rules, 0 if winner is None else 1 - winner)
    return _score(db.rules, winner)


def _pdn(rules, line: list[Position], result: str) -> str:
    moves = []
    for before, after in zip(line, line[1:], strict=False):
        (m,) = [m for m in before.legal_moves() if before.play(m) == after] or [None]
        if m is None:  # two moves to the same position: either is the game
            m = next(m for m in before.legal_moves() if before.play(m) == after)
        moves.append(format_move(m, rules))
    body = " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))
    return f'[GameType "{rules.gametype}"]\n[Result "{result}"]\n\n{body} {result}\n\n'


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """The databases' folder, the games' file and each game's expected verdicts: random
    games from the start, every third scored against the databases."""
    rules = get_rules("english")
    compiled(rules)
    folder = tmp_path_factory.mktemp("egdb-clean")
    build("english", PIECES, directory=folder)
    db = Egdb(rules, folder)
    texts, expected = [], []
    for seed in range(40):
        line = _random_game(rules, db, seed)
        if sum(line[-1].counts().values()) > PIECES:
            continue
        result = _result(db, line, wrong=len(texts) % 3 == 2)
        texts.append(_pdn(rules, line, result))
        expected.append(_expected(db, line, result))
        if len(texts) == 9:
            break
    path = folder.parent / "clean-games.pdn"
    path.write_text("".join(texts), encoding="utf-8")
    codes = {c for e in expected for c, *_ in e}
    assert {"win-thrown-away", "result-vs-egdb"} <= codes  # the games test something
    return folder, path, expected


@pytest.fixture
def databases(games, monkeypatch):
    monkeypatch.setenv("PDNKIT_EGDB", str(games[0]))
    forget_databases()
    yield games
    forget_databases()


def _found(reports) -> list[list[tuple]]:
    return [[(f.code, f.ply, f.fen) for f in rep.findings if f.code in CODES]
            for rep in reports]


def _others(reports) -> list[list[str]]:
    """Each game's other findings (a draw agreed in a position the rules do not end is a
    warning of its own)."""
    return [[f.code for f in rep.findings if f.code not in CODES
             and f.severity.value != "info" and f.code != "draw-unsupported"]
            for rep in reports]


@pytest.mark.parametrize("mode", [{"light": True}, {"compact": True}, {}],
                         ids=["light", "compact", "full"])
def test_clean_games_are_judged_in_every_mode(databases, monkeypatch, mode) -> None:
    import pdnkit.validation.game as game

    _, path, expected = databases
    clean = []

    def spy(*args, **kwargs):
        got = real(*args, **kwargs)
        clean.append(got is not None)
        return got

    real = game.clean_line
    monkeypatch.setattr(game, "clean_line", spy)
    reports = list(validate(str(path), **mode))
    assert _found(reports) == expected
    assert _others(reports) == [[]] * len(expected)
    assert sum(not [f for f in rep.findings if f.code not in CODES] for rep in reports) >= 3
    if mode:  # the light and compact reports of these games come from the clean lane
        assert clean == [True] * len(expected)
    if mode == {"light": True}:  # not from the validator's batch: it cannot probe
        from pdnkit.pdn import read_games
        from pdnkit.validation import RunOptions
        from pdnkit.validation.cleanbatch import CleanBatch

        batch = CleanBatch.for_run(RunOptions(light=True))
        assert batch is not None
        assert [batch.report(rec) for rec in read_games(path)] == [None] * len(expected)


@pytest.mark.parametrize("light", [True, False], ids=["light", "full"])
def test_the_pure_core_gives_the_same_verdicts(databases, light) -> None:
    _, path, expected = databases
    with pure_core():
        reports = list(validate(str(path), light=light))
    assert _found(reports) == expected


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pdnkit", *args], capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=300)


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("pure", ["0", "1"], ids=["compiled", "pure"])
def test_validate_command_gives_the_verdicts(games, jobs, pure) -> None:
    folder, path, expected = games
    r = _run(["validate", str(path), "--format", "jsonl", "--jobs", jobs],
             {"PDNKIT_EGDB": str(folder), "PDNKIT_PURE": pure})
    assert r.returncode in (0, 1), r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    got = [[(f["code"], f["ply"], f["fen"]) for f in row["findings"] if f["code"] in CODES]
           for row in sorted(rows, key=lambda row: row["index"])]
    assert got == expected


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("pure", ["0", "1"], ids=["compiled", "pure"])
def test_import_stores_the_verdicts_of_clean_games(games, tmp_path, jobs, pure) -> None:
    from pdnkit.store import connect

    folder, path, expected = games
    db = tmp_path / "clean.duckdb"
    r = _run(["import", str(path), "--db", str(db), "--jobs", jobs],
             {"PDNKIT_EGDB": str(folder), "PDNKIT_PURE": pure})
    assert r.returncode == 0, r.stderr
    con = connect(db, read_only=True)
    rows = con.execute(
        "SELECT g.game_index, f.code, f.ply, f.fen FROM findings f JOIN games g USING "
        f"(game_id) WHERE f.code IN {CODES} ORDER BY g.game_index, f.ply, f.code").fetchall()
    con.close()
    want = sorted((i, *v) for i, e in enumerate(expected) for v in e)
    assert sorted(rows) == want
