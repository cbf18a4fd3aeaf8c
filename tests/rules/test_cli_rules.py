"""``pdnkit variants``, ``pdnkit perft`` and ``pdnkit moves`` through typer's CliRunner."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from pdnkit.cli import app
from pdnkit.rules import get_rules

runner = CliRunner()


def _run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args))


# ----------------------------------------------------------------- variants


def test_variants_table() -> None:
    r = _run("variants")
    assert r.exit_code == 0, r.output
    for text in ("international", "russian", "english", "20,W,10,10,N2,0", "25,W,8,8,A0,0"):
        assert text in r.stdout


def test_variants_json() -> None:
    r = _run("variants", "--format", "json")
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)
    by_name = {row["name"]: row for row in rows if row["edition"] == get_rules(row["name"]).edition}
    intl = by_name["international"]
    # PDN 3.0 GameType table and FMJD rules 2.1, 3.3
    assert (intl["gametype"], intl["gametype_full"], intl["board"]) == (20, "20,W,10,10,N2,0", "10x10")
    assert intl["first_mover"] == "W" and intl["notation"] == "numeric"
    assert intl["men_capture_backward"] is True
    english = by_name["english"]
    assert english["first_mover"] == "B"  # the dark side moves first (WCDF)
    assert english["men_capture_backward"] is False
    russian = by_name["russian"]
    assert russian["notation"] == "alphanumeric" and russian["capture_separator"] == ":"
    assert by_name["canadian"]["board"] == "12x12"
    for row in rows:
        for key in ("name", "gametype", "gametype_full", "board", "first_mover", "edition"):
            assert key in row


# ----------------------------------------------------------------- perft

# published leaf counts of the initial positions (dctl tables, OEIS A133046 for English)
PERFT = [
    ("international", 3, 658),
    ("international", 4, 4265),
    ("english", 5, 7361),
    ("russian", 4, 1469),
    ("frisian", 4, 3874),
    ("canadian", 3, 1222),
]


@pytest.mark.parametrize(("variant", "depth", "count"), PERFT)
def test_perft_last_line(variant: str, depth: int, count: int) -> None:
    r = _run("perft", variant, str(depth))
    assert r.exit_code == 0, r.output
    assert r.stdout.strip().splitlines()[-1] == str(count)
    assert "nodes/s" in r.stderr


def test_perft_gametype_number_and_fen() -> None:
    r = _run("perft", "20", "2", "--fen", "W:W31-50:B1-20")
    assert r.exit_code == 0, r.output
    assert r.stdout.strip().splitlines()[-1] == "81"
    r = _run("perft", "international", "1", "--fen", "W:WK23:B8,9,10,17,20,28,29,31,38,39,40")
    assert r.stdout.strip().splitlines()[-1] == "1"


def test_perft_divide() -> None:
    r = _run("perft", "international", "2", "--divide")
    assert r.exit_code == 0, r.output
    lines = r.stdout.strip().splitlines()
    assert lines[-1] == "81"
    root = dict(line.split(": ") for line in lines[:-1])
    # the nine opening moves of international draughts, 9 replies each
    assert sorted(root) == sorted(
        ["31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"]
    )
    assert all(int(v) == 9 for v in root.values())


def test_perft_divide_russian_notation() -> None:
    r = _run("perft", "russian", "1", "--divide")
    lines = r.stdout.strip().splitlines()
    assert lines[-1] == "7"
    assert "c3-d4: 1" in lines


def test_perft_depth_zero() -> None:
    r = _run("perft", "russian", "0")
    assert r.stdout.strip().splitlines()[-1] == "1"


# ----------------------------------------------------------------- moves


def test_moves_ten_piece_capture() -> None:
    """lidraughts captureFen: one legal move, a king capture of 10 pieces ending on 2."""
    fen = "W:WK23:B8,9,10,17,20,28,29,31,38,39,40"
    r = _run("moves", "international", "--fen", fen)
    assert r.exit_code == 0, r.output
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("23x2 ")
    r = _run("moves", "international", "--fen", fen, "--format", "json")
    assert r.exit_code == 0, r.output
    [move] = json.loads(r.stdout)
    assert set(move) >= {"notation", "path", "captured", "promotes"}
    assert move["notation"] == "23x2" and move["path"][0] == 23 and move["path"][-1] == 2
    assert set(move["captured"]) < {8, 9, 10, 17, 20, 28, 29, 31, 38, 39, 40}
    assert len(move["captured"]) == 10 and move["promotes"] is False


def test_moves_initial_russian() -> None:
    r = _run("moves", "russian")
    assert r.exit_code == 0, r.output
    assert sorted(r.stdout.split()) == ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]


def test_moves_json_promotion_and_alias() -> None:
    """A white man on 6 (English numbering: c7) steps to 1 (b8) or 2 (d8) and is crowned."""
    r = _run("moves", "checkers", "--fen", "W:W6:B12", "--format", "json")
    assert r.exit_code == 0, r.output
    moves = json.loads(r.stdout)
    assert sorted(m["notation"] for m in moves if m["path"][0] == 6) == ["6-1", "6-2"]
    assert all(m["promotes"] for m in moves if m["path"][0] == 6)
    assert all(m["captured"] == [] for m in moves)


def test_moves_ambiguous_full_path() -> None:
    r = _run("moves", "international", "--fen", "W:WK47:B14,19,29,31,42", "--format", "json")
    notations = {m["notation"] for m in json.loads(r.stdout)}
    assert {"47x38x24x13x36", "47x38x20x9x36"} <= notations


def test_moves_no_legal_move() -> None:
    r = _run("moves", "international", "--fen", "B:W50:B")
    assert r.exit_code == 0
    assert "no legal move" in r.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("moves", "nosuchvariant"), "unknown variant"),
        (("perft", "nosuchvariant", "2"), "unknown variant"),
        (("moves", "international", "--fen", "W:W51:B1"), "square 51 is off the 10x10 board"),
        (("perft", "international", "2", "--fen", "X:W31"), "bad colour 'X' at position 0"),
        (("moves", "english", "--fen", "B:W1:B12"), "promotion row"),
    ],
)
def test_bad_input_exit_2(args: tuple[str, ...], message: str) -> None:
    r = _run(*args)
    assert r.exit_code == 2
    assert message in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert "Traceback" not in r.output


@pytest.mark.parametrize("command", ["variants", "perft", "moves"])
def test_help_has_examples(command: str) -> None:
    r = _run(command, "--help")
    assert r.exit_code == 0
    assert "Examples" in r.stdout and "pdnkit " + command in r.stdout
