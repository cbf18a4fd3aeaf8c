"""Writing canonical PDN 3.0, and the round trip over every game of the shared data."""

from __future__ import annotations

import io

import pytest

from pdnkit.pdn import read_games, write_game, write_games
from pdnkit.pdn.reader import parse_game
from tests.pdn.helpers import content
from tests.shared import shared_path


def test_tags_standard_order_then_the_rest_and_escapes() -> None:
    g = parse_game('[GameType "20"]\n[Result "2-0"]\n[Black "B"]\n[Opening "x"]\n'
                   '[White "Van \\"de\\" Wal"]\n[Event "E"]\n1. 32-28 2-0')
    head = write_game(g).split("\n\n")[0].splitlines()
    assert head == ['[Event "E"]', '[White "Van \\"de\\" Wal"]', '[Black "B"]',
                    '[Result "2-0"]', '[GameType "20"]', '[Opening "x"]']


def test_movetext_canonical_forms() -> None:
    g = parse_game("01. 34-29 06X17 2. c3:e5 1- 7 3. 3228 {a} ; b\n(3. 31-26 $1) *")
    assert write_game(g) == "1. 34-29 6x17 2. c3:e5 1-7 3. 32-28 {a} { b} (3. 31-26 $1) *\n"


def test_non_standard_results_are_written_as_pdn_terminators() -> None:
    assert write_game(parse_game("1. 32-28 ½-½")) == "1. 32-28 1/2-1/2\n"
    g = parse_game('[Result "4-6"]\n1. 32-28 4-6')
    assert write_game(g).endswith("1. 32-28 *\n") and '[Result "4-6"]' in write_game(g)


def test_wraps_at_80_columns_keeping_numbers_with_moves() -> None:
    moves = " ".join(f"{i}. 32-28 19-23" for i in range(1, 60))
    out = write_game(parse_game(moves + " *"))
    lines = out.splitlines()
    assert len(lines) > 5 and all(len(line) <= 80 for line in lines)
    assert not any(line.rstrip().endswith(".") for line in lines)
    assert parse_game(out).moves[-2].number == 59


def test_notation_overrides_main_line_moves() -> None:
    g = parse_game("1. 47x36 (1. 46x37) 28-23 *")
    out = write_game(g, notation={1: "47x38x24x13x36"})
    assert out == "1. 47x38x24x13x36 (1. 46x37) 28-23 *\n"


def test_write_games_to_path_and_stream(tmp_path) -> None:
    games = list(read_games('[Event "a"]\n1. 32-28 2-0\n[Event "b"]\n1. 33-29 0-2\n'))
    p = tmp_path / "out.pdn"
    assert write_games(games, p) == 2
    assert [g.tag("Event") for g in read_games(p)] == ["a", "b"]
    buf = io.StringIO()
    write_games(games, buf, notation=lambda r: {1: "31-27"})
    assert [m.text for g in read_games(buf.getvalue()) for m in g.moves] == ["31-27"] * 2


def _all_files():
    root = shared_path()
    return sorted(p for p in root.rglob("*") if p.suffix in (".pdn", ".txt")
                  and p.name != "SOURCES.md")


@pytest.mark.slow
def test_round_trip_every_game_of_the_shared_data() -> None:
    n = 0
    for path in _all_files():
        for g in read_games(path):
            assert g.parsed, (path, g.index)
            text = write_game(g)
            again = parse_game(text)
            assert content(again) == content(g), (path, g.index)
            assert write_game(again) == text, (path, g.index)  # canonical = fixed point
            assert not again.has_error
            assert all(len(line) <= 80 or "{" in line or line.startswith("[")
                       for line in text.splitlines())
            n += 1
    assert n > 8000
