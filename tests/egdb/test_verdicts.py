"""The endgame databases' verdicts on games, as validate and import give them: each finding
at its ply with the position before the move, checked against the databases by probing."""

from __future__ import annotations

import random

import pytest

from pdnkit.egdb import Egdb, build
from pdnkit.egdb.index import Signature
from pdnkit.rules import get_rules, parse_fen, write_fen
from pdnkit.rules.notation import format_move
from pdnkit.validation import validate
from pdnkit.validation.egdbcheck import forget_databases

from .support import compiled

EGDB_CODES = {"result-vs-egdb", "win-thrown-away", "draw-thrown-away", "egdb-win-drawn-by-rule"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    compiled(get_rules("english"))
    d = tmp_path_factory.mktemp("egdb-verdicts")
    build("english", 3, directory=d)
    build("russian", 4, directory=d, only=[Signature(0, 3, 0, 1)])
    return d


@pytest.fixture
def databases(folder, monkeypatch):
    monkeypatch.setenv("PDNKIT_EGDB", str(folder))
    forget_databases()
    yield folder
    forget_databases()


def _game(fen: str, moves: str, result: str, gametype: int = 21) -> str:
    return (f'[GameType "{gametype}"]\n[FEN "{fen}"]\n[Result "{result}"]\n\n'
            f"{moves} {result}\n\n")


def _verdicts(text: str) -> list[list]:
    return [[f for f in rep.findings if f.code in EGDB_CODES] for rep in validate(text)]


def test_a_thrown_win_and_a_result_against_the_database(databases) -> None:
    text = (_game("W:WK19,K23:BK32", "1. 23-27 32x16", "1/2-1/2")
            + _game("W:WK19,K23:BK32", "1. 19-24 32-28 2. 23-19 28-32", "1/2-1/2")
            + _game("W:WK19,K23:BK32", "1. 19-24 32-28 2. 23-19 28-32 3. 24-28 32-27 "
                    "4. 28-32 27-31 5. 19-15 31-26 6. 15-18 26-30 7. 18-22 30-25 8. 22x29",
                    "1-0"))
    thrown, drawn, right = _verdicts(text)
    (f,) = [f for f in thrown if f.code == "win-thrown-away"]
    assert (f.ply, f.move, f.fen) == (1, "23-27", "W:WK19,K23:BK32")
    assert f.details["best_moves"] == ["19-24"] and f.details["plies_before"] == 15
    (f,) = drawn
    assert f.code == "result-vs-egdb" and f.ply == 4 and f.severity.value == "warning"
    assert f.fen == "W:WK19,K24:BK32" and f.details["value"] == "win"
    assert "White wins in 11 plies" in f.message
    assert right == []


def test_a_thrown_draw(databases) -> None:
    # W:WK1:BK2 is a draw (1-5); 1-6 lets 2x9 take the king
    (found,) = _verdicts(_game("W:WK1:BK2", "1. 1-6 2x9", "0-1"))
    (f,) = found
    assert (f.code, f.ply, f.move, f.details["best_moves"]) == ("draw-thrown-away", 1, "1-6",
                                                                ["1-5"])


def test_every_verdict_is_right_when_probed(databases) -> None:
    rng = random.Random(7)
    rules = get_rules("english")
    db = Egdb(rules, databases)
    games = []
    for _ in range(30):  # random endings from random positions of two kings against one
        sq = rng.sample(range(1, 33), 3)
        p = parse_fen(f"W:WK{sq[0]},K{sq[1]}:BK{sq[2]}", rules)
        start, moves = p, []
        while len(moves) < 12 and p.legal_moves():
            m = rng.choice(p.legal_moves())
            moves.append(format_move(m, rules))
            p = p.play(m)
        text = " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))
        games.append(_game(write_fen(start), text, rng.choice(["1-0", "0-1", "1/2-1/2"])))
    checked = 0
    for rep in validate("".join(games)):
        for f in rep.findings:
            if f.code not in EGDB_CODES:
                continue
            checked += 1
            before = db.verdict(parse_fen(f.fen, rules))
            if f.code == "result-vs-egdb":
                assert (before.value, before.plies) == (f.details["value"], f.details["plies"])
                continue
            assert before.value == f.details["value_before"]
            after_fen = parse_fen(f.fen, rules)
            (move,) = [m for m in after_fen.legal_moves()
                       if format_move(m, rules) == f.move]
            after = db.verdict(after_fen.play(move))
            assert after.value == f.details["value_after"]
            if f.code == "win-thrown-away":
                assert before.value == "win" and after.value != "loss"
            else:
                assert before.value == "draw" and after.value == "win"
    assert checked > 10


def _shuffle(rules, fen: str, plies: int, seed: int) -> list[str]:
    """Moves of both sides from ``fen``, none a capture nor allowing one, no position twice."""
    rng = random.Random(seed)

    def walk(p, seen, out):
        if len(out) == plies:
            return out
        moves = [m for m in p.legal_moves() if not m.captured]
        rng.shuffle(moves)
        for m in moves:
            q = p.play(m)
            if q.key() in seen or q.has_capture():
                continue
            got = walk(q, seen | {q.key()}, [*out, format_move(m, rules)])
            if got:
                return got
        return None

    start = parse_fen(fen, rules)
    return walk(start, {start.key()}, [])


def test_a_won_ending_drawn_by_a_move_count_rule(databases) -> None:
    """Russian 7.2.4: three kings that have not taken the lone king by their 15th move draw;
    from Petrov's position (a win in at most 25 plies) that is a missed win that fitted."""
    rules = get_rules("russian")
    fen = "W:WKa1,Kc1,Ke1:BKf8"
    moves = _shuffle(rules, fen, 30, 3)
    text = " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))
    (rep,) = validate(_game(fen, text, "1/2-1/2", 25))
    assert rep.draw_basis in ("russian-7.2.4", "russian-7.2.5")
    (f,) = [f for f in rep.findings if f.code == "egdb-win-drawn-by-rule"]
    assert f.details["fits"] is True and f.severity.value == "warning"
    assert f.details["ply"] == 0 and f.details["winner"] == "white"
    assert f.details["plies"] <= 25
    db = Egdb(rules, databases)
    v = db.verdict(parse_fen(f.fen, rules))
    assert (v.value, v.plies) == ("win", f.details["plies"])


def test_no_databases_no_verdicts(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PDNKIT_EGDB", str(tmp_path))
    forget_databases()
    try:
        assert _verdicts(_game("W:WK19,K23:BK32", "1. 23-27 32x16", "1/2-1/2")) == [[]]
    finally:
        forget_databases()


def test_import_stores_the_verdicts(databases, tmp_path) -> None:
    from pdnkit.store import connect, import_files

    src = tmp_path / "g.pdn"
    src.write_text(_game("W:WK19,K23:BK32", "1. 23-27 32x16", "1/2-1/2"), encoding="utf-8")
    db = tmp_path / "g.duckdb"
    import_files([src], db)
    con = connect(db, read_only=True)
    rows = con.execute("SELECT code, ply, move, fen FROM findings WHERE code IN "
                       "('win-thrown-away', 'result-vs-egdb') ORDER BY code").fetchall()
    assert rows == [("win-thrown-away", 1, "23-27", "W:WK19,K23:BK32")]


def test_a_fault_in_the_databases_leaves_the_replay_standing(databases, monkeypatch) -> None:
    import pdnkit.egdb.verdicts as verdicts

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(verdicts, "judge_line", broken)
    (rep,) = validate(_game("W:WK19,K23:BK32", "1. 19-24 32-28", "1-0"))
    assert rep.replayed_plies == 2
    assert [f.code for f in rep.findings if f.code == "internal-error"] == ["internal-error"]
    assert "endgame databases" in next(f.message for f in rep.findings
                                       if f.code == "internal-error")
