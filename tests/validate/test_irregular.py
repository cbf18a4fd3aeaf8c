"""Irregular moves (RULES.md 2.0 "Irregularities"): where the variant's rules let an
irregularity stand once the opponent plays on (FMJD 5.4/5.7, Czech, ...), a physically
interpretable move is replayed as played and the replay goes on; where they recall it (EDA
rule 19) the replay stops with the rule named; ``irregular="stop"`` stops everywhere."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdnkit.cli import app
from pdnkit.findings import Severity
from pdnkit.pdn import parse_game
from pdnkit.rules import get_rules, parse_fen
from pdnkit.validation import replay
from tests.validate.helpers import codes, game, only, run

runner = CliRunner()


def _stood(rep: object, code: str, ply: int, accepted_at: int | None, article: str) -> None:
    """The irregular move at ``ply`` kept its code and severity, says it was replayed as
    played, and the opponent's next move accepted it."""
    f = [f for f in rep.findings if f.code == code and f.ply == ply]  # type: ignore[attr-defined]
    assert len(f) == 1, [str(x) for x in rep.findings]  # type: ignore[attr-defined]
    assert f[0].severity is Severity.ERROR
    assert "replayed as played" in f[0].message and article in f[0].message
    acc = [a for a in rep.findings  # type: ignore[attr-defined]
           if a.code == "irregular-accepted" and a.details.get("irregular_ply") == ply]
    if accepted_at is None:
        assert not acc
    else:
        assert [a.ply for a in acc] == [accepted_at]
        assert acc[0].severity is Severity.WARNING
        assert article in acc[0].message and acc[0].details["irregular_code"] == code


# (variant GameType, FEN, moves, code and ply of the irregular move, the later finding)
STOOD = [
    # a quiet move while 32x23 was compulsory; Black takes 28x37; then a man walks backwards
    pytest.param("20", "W:W32,45:B28,5", "1. 45-40 28x37 2. 40-45", "missed-capture",
                 ("illegal-move", 3), id="international-missed-capture"),
    # 32x21 takes one piece where 32x23x14 takes two
    pytest.param("20", "W:W32:B28,19,27,5", "1. 32x21 5-10 2. 21-16 10-14 3. 16-21",
                 "not-max-capture", ("illegal-move", 5), id="international-not-max"),
    # 32x23 stops where the capture goes on over 19
    pytest.param("20", "W:W32,45:B28,19,5", "1. 32x23 19x28 2. 45-40 5-10 3. 40-45",
                 "illegal-move", ("illegal-move", 5), id="international-stopped-early"),
    # Russian: b2-c3 while d4:f6 was compulsory, then the game goes on to a wrong move
    pytest.param("25", None, "1. c3-d4 f6-e5 2. b2-c3 e5-f4 3. e3:g5 h6:f4 4. g3:e5 d6:f4 "
                 "5. e5-d4", "missed-capture", ("illegal-move", 9),
                 id="russian-missed-capture"),
    # Russian: c3:e5 stops where the capture goes on to g7
    pytest.param("25", "W:Wc3,h2:Bd4,f6,a7", "1. c3:e5 f6:d4 2. h2-g3 a7-b6 3. g3-h2",
                 "illegal-move", ("illegal-move", 5), id="russian-stopped-early"),
    # Czech: a man captures while the king could (the king captures first)
    pytest.param("29", "W:WKa1,e3:Bb2,f4,g3,h8", "1. e3:g5 h8-g7 2. g5-h4",
                 "capture-priority", ("illegal-move", 3), id="czech-capture-priority"),
]


@pytest.mark.parametrize(("gametype", "fen", "moves", "code", "later"), STOOD)
def test_irregular_move_stands_and_replay_goes_on(gametype: str, fen: str | None,
                                                  moves: str, code: str,
                                                  later: tuple[str, int]) -> None:
    rep = run(game(fen, moves, gametype=gametype))
    ply = next(f.ply for f in rep.findings if f.code == code)
    article = get_rules(gametype).irregularity_article
    _stood(rep, code, ply, ply + 1, article)
    # a later fault is found: the replay went on past the irregular move
    assert any(f.code == later[0] and f.ply == later[1] and "replayed as played" not in
               f.message for f in rep.findings), [str(f) for f in rep.findings]
    assert rep.replayed_plies == later[1] - 1
    # ``stop`` restores the replay that stops at the irregular move, same code and severity
    old = run(game(fen, moves, gametype=gametype), irregular="stop")
    assert old.replayed_plies == ply - 1
    f = only(old, code)
    assert f.severity is Severity.ERROR and "replayed as played" not in f.message
    assert "irregular-accepted" not in codes(old)


def test_position_after_a_stood_missed_capture_is_the_one_played() -> None:
    rep = replay(parse_game(game("W:W32,45:B28,5", "1. 45-40 28x37", gametype="20")))
    assert rep.replayed_plies == 2
    assert rep.final_position == parse_fen("W:W40:B37,5", get_rules("international"))


def test_stopped_capture_removes_only_the_pieces_jumped() -> None:
    rep = replay(parse_game(game("W:Wc3,h2:Bd4,f6,a7", "1. c3:e5", gametype="25")))
    assert rep.replayed_plies == 1
    assert rep.final_position == parse_fen("B:We5,h2:Bf6,a7", get_rules("russian"))


def test_the_result_is_checked_after_an_irregular_move() -> None:
    # after c3:e5 (stopped early) Black takes f6:d4 and White has nothing left: Black won
    rep = run(game("W:Wc3:Bd4,f6,h8", "1. c3:e5 f6:d4", gametype="25", result="2-0"))
    assert rep.replayed_plies == 2
    assert only(rep, "result-mismatch").ply == 2
    ok = run(game("W:Wc3:Bd4,f6,h8", "1. c3:e5 f6:d4", gametype="25", result="0-2"))
    assert "result-mismatch" not in codes(ok)


def test_no_acceptance_when_the_game_ends_with_the_irregular_move() -> None:
    rep = run(game("W:W32,45:B28,5", "1. 45-40", gametype="20"))
    assert rep.replayed_plies == 1
    _stood(rep, "missed-capture", 1, None, "FMJD 5.4, 5.7")


def test_english_recalls_the_move_and_stops() -> None:
    # 2. 9-13 while 15x22 was compulsory: EDA rule 19 recalls it, a second offence forfeits
    rep = run(game(None, "1. 11-15 22-18 2. 9-13 18x9", gametype="21"))
    f = only(rep, "missed-capture")
    assert f.severity is Severity.ERROR and f.ply == 3
    assert "EDA rule 19" in f.message and "recalled" in f.message and "forfeit" in f.message
    assert rep.replayed_plies == 2
    assert "irregular-accepted" not in codes(rep)


def test_a_move_that_cannot_be_interpreted_still_stops() -> None:
    # no piece on 44: nothing to replay, whatever the rules say
    rep = run(game("W:W32,45:B28,5", "1. 44-40 28x37", gametype="20"))
    assert rep.replayed_plies == 0
    assert "irregular-accepted" not in codes(rep)
    # a man moving backwards while a capture is compulsory
    rep = run(game("W:W32,40:B28,5", "1. 40-45 28x37", gametype="20"))
    assert rep.replayed_plies == 0


def test_bad_irregular_value_is_api_misuse() -> None:
    with pytest.raises(ValueError, match="irregular"):
        list(run_all("1. 32-28 *", irregular="maybe"))


def run_all(text: str, **kwargs: object) -> list[object]:
    from pdnkit.validation import validate

    return list(validate(text, variant="international", **kwargs))  # type: ignore[arg-type]


@pytest.mark.parametrize("command", ["validate", "import"])
def test_cli_irregular_option(tmp_path: Path, command: str) -> None:
    p = tmp_path / "g.pdn"
    p.write_text(game("W:W32,45:B28,5", "1. 45-40 28x37 2. 40-35", gametype="20"),
                 encoding="utf-8")
    if command == "validate":
        import json

        rows = {}
        for mode in ("stand", "stop"):
            res = runner.invoke(app, ["validate", str(p), "--format", "jsonl",
                                      "--irregular", mode])
            rows[mode] = next(json.loads(line) for line in res.stdout.splitlines()
                              if line.startswith("{"))
        assert (rows["stand"]["replayed_plies"], rows["stop"]["replayed_plies"]) == (3, 0)
        assert "irregular-accepted" in {f["code"] for f in rows["stand"]["findings"]}
        return
    import duckdb

    for mode, want in (("stand", 3), ("stop", 0)):
        db = tmp_path / f"{mode}.duckdb"
        res = runner.invoke(app, ["import", str(p), "--db", str(db), "-q",
                                  "--irregular", mode])
        assert res.exit_code == 0, res.output
        with duckdb.connect(str(db), read_only=True) as con:
            got = con.execute("SELECT replayed_plies FROM games").fetchall()
        assert got == [(want,)]


def test_worker_processes_honour_the_option() -> None:
    from pdnkit.validation import validate

    text = '[FEN "W:W32,45:B28,5"]\n1. 45-40 28x37 2. 40-45 *\n\n' * 3
    for mode, want in (("stand", 2), ("stop", 0)):
        reps = list(validate(text, variant="international", jobs=2, chunk_size=1,
                             irregular=mode))
        assert [r.replayed_plies for r in reps] == [want] * 3
