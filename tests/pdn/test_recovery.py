"""Recovery inside a game (issue 10 point 1): unreadable text is kept as a comment with a
warning and reading goes on; unclosed comments and variations are closed at the end of the
game; a game ends at the next game's tags even without a result."""

from __future__ import annotations

import random

import pytest

from pdnkit.findings import CODES, explain
from pdnkit.pdn import recover
from pdnkit.pdn.reader import parse_game, read_games
from pdnkit.pdn.record import CommentNode
from pdnkit.pdn.writer import write_game
from tests.shared import shared_path

MOVES = ["32-28", "19-23", "28x19", "14x23"]


def texts(g) -> list[str]:
    return [m.text for m in g.moves]


@pytest.mark.parametrize(("stray", "kept"), [
    ("Whiteoverstepped.", "Whiteoverstepped."),  # comment text glued to a move
    (" .", "."),  # a lone dot between moves
    (" ]", "]"),
    (" )", ")"),
    (" &", "&"),
    (" [%clk 1:00]", "[%clk 1:00]"),  # a clock command outside braces
    (" Black resigned after time trouble", "Black resigned after time trouble"),
])
def test_unreadable_text_is_a_warning_and_a_comment(stray: str, kept: str) -> None:
    text = f'[Event "x"]\n1. 32-28 19-23{stray} 2. 28x19 14x23 0-2'
    g = parse_game(text, line=10)
    assert g.parsed and texts(g) == MOVES and g.result == "0-2"
    assert g.moves[1].comments_after == [kept]
    (f,) = g.findings
    assert f.code == "unreadable-text" and f.severity.value == "warning"
    col = text.index("19-23") + 5 + len(stray) - len(stray.lstrip()) - text.index("\n")
    assert (f.line, f.column) == (11, col)
    assert f.details["text"] == kept and repr(kept) in f.message
    # convert / export write it back as a comment: nothing is lost
    again = parse_game(write_game(g))
    assert texts(again) == MOVES and kept in again.moves[1].comments_after[0].replace("(", "[")


def test_the_user_report_glued_comment_before_the_result() -> None:
    g = parse_game("15. 11x18x25 30x21x14 8-11Whiteoverstepped.\n0-1")
    assert texts(g) == ["11x18x25", "30x21x14", "8-11"] and g.result == "0-1"
    assert g.moves[-1].comments_after == ["Whiteoverstepped."]
    assert [f.code for f in g.findings] == ["unreadable-text"]


def test_unclosed_comment_is_closed_at_the_end_of_the_game() -> None:
    g = parse_game("1. 32-28 19-23 {a comment that never\ncloses 2. 28x19")
    assert texts(g) == ["32-28", "19-23"] and g.result is None
    assert g.moves[1].comments_after == ["a comment that never\ncloses 2. 28x19"]
    (f,) = g.findings
    assert (f.code, f.line, f.column) == ("unclosed-comment", 1, 16)
    # a final result still ends the game
    g = parse_game("1. 32-28 19-23 {never closed 2-0\n")
    assert g.result == "2-0" and g.moves[1].comments_after == ["never closed"]


def test_unclosed_variations_are_closed_at_the_end_of_the_game() -> None:
    g = parse_game("1. 32-28 19-23 (18-23 2. 33-29 (12-18 38-32 2-0")
    assert texts(g) == ["32-28", "19-23"] and g.result == "2-0"  # the result is the game's
    outer = g.moves[1].variations[0]
    assert [m.text for m in outer] == ["18-23", "33-29"]
    assert [m.text for m in outer[1].variations[0]] == ["12-18", "38-32"]
    (f,) = g.findings
    assert (f.code, f.line, f.column) == ("unclosed-variation", 1, 16)


def test_text_after_the_result_is_kept_at_the_end() -> None:
    g = parse_game("1. 32-28 19-23 2-0 garbage here")
    assert texts(g) == ["32-28", "19-23"] and g.result == "2-0"
    assert g.body[-1].text == "garbage here"
    assert "after the result" in g.findings[0].message


def test_a_tag_among_the_moves_is_kept_as_text() -> None:
    g = parse_game('1. 32-28 [Site "y"] 19-23 *')
    assert texts(g) == ["32-28", "19-23"]
    assert g.moves[0].comments_after == ['[Site "y"]']


def test_nothing_readable_is_unparsed_with_a_syntax_error() -> None:
    g = parse_game('[Event "x"]\n[White "W"]\n1) 32+28 19+23 *')
    assert not g.parsed and g.moves == [] and g.body == []
    assert g.tags == [("Event", "x"), ("White", "W")]
    (f,) = g.findings
    assert f.code == "syntax-error" and (f.line, f.column) == (3, 1)


def test_words_after_the_tags_are_junk_not_moves() -> None:
    g = parse_game('[Event "x"]\n[White "W"]\nno moves at all here *')
    assert g.parsed and g.moves == [] and g.result == "*"
    assert g.tags == [("Event", "x"), ("White", "W")]
    (f,) = g.findings
    assert f.code == "ignored-text" and (f.line, f.column) == (3, 1)
    assert g.body == [CommentNode("no moves at all here")]


def test_a_tag_line_that_does_not_read_well_is_read_as_the_tag_it_stands_for() -> None:
    text = '[Event "a"]\n[Site "s" junk]\n[Round "1\n[White "W"]\n1. 32-28 19-23 *'
    g = parse_game(text, line=5)
    assert g.parsed and texts(g) == ["32-28", "19-23"] and g.result == "*"
    assert g.tags == [("Event", "a"), ("Site", "s"), ("Round", "1"), ("White", "W")]
    assert [(f.code, f.line, f.column) for f in g.findings] == [
        ("unknown-tag-syntax", 6, 1), ("unknown-tag-syntax", 7, 1)]
    assert "text after its value ('junk')" in g.findings[0].message
    assert "never closed" in g.findings[1].message
    g = parse_game('[Event "a"]\n[FEN "W:W31-50:B1-20]\n*')
    assert g.parsed and g.tag("FEN") == "W:W31-50:B1-20"
    assert [f.code for f in g.findings] == ["unknown-tag-syntax"]


def test_a_tag_line_that_does_not_read_after_the_result_is_left_out() -> None:
    g = parse_game('1. 32-28 19-23 *\n[FILENAME "a.pdn" [x]\n')
    assert g.parsed and texts(g) == ["32-28", "19-23"] and g.result == "*"
    assert [f.code for f in g.findings][:1] == ["unreadable-text"]


def test_strict_mode_makes_recoveries_errors() -> None:
    g = parse_game("1. 32-28 Foo 19-23 {open", strict=True)
    assert texts(g) == ["32-28", "19-23"]
    assert [(f.code, f.severity.value) for f in g.findings] == [
        ("unreadable-text", "error"), ("unclosed-comment", "error")]


def test_many_unreadable_runs_are_capped_and_stay_linear() -> None:
    text = "1. 32-28 " + "zz 19-23 " * (recover.MAX_EVENTS + 50) + "*"
    g = parse_game(text)
    assert g.parsed and g.result == "*"
    codes = [f.code for f in g.findings]
    assert codes == ["unreadable-text"] * (recover.MAX_EVENTS + 1)
    assert len(g.moves) == recover.MAX_EVENTS + 1  # the rest is one unreadable text
    assert g.findings[-1].details["text"].startswith("zz 19-23 zz")


def test_missing_result_before_the_next_games_tags() -> None:
    text = ('[Event "a"]\n1. 32-28 19-23\n[Event "b"]\n1. 33-29 *\n'
            '[Event "c"]\n[Event "c2"]\n1. 34-29 19-23\n')
    games = list(read_games(text))
    assert [g.tag("Event") for g in games] == ["a", "b", "c"]
    assert [texts(g) for g in games] == [["32-28", "19-23"], ["33-29"], ["34-29", "19-23"]]
    (f,) = games[0].findings
    assert (f.code, f.severity.value, f.line) == ("missing-terminator", "warning", 2)
    assert not games[1].findings and not games[2].findings  # the last game needs none
    strict = list(read_games(text, strict=True))
    assert [(f.code, f.severity.value) for f in strict[0].findings] == [
        ("missing-terminator", "error")]


def test_neighbouring_games_are_untouched() -> None:
    clean = '[Event "a"]\n1. 32-28 19-23 2-0\n\n[Event "c"]\n1. 33-29 18-22 0-2\n'
    broken = clean.replace("2-0\n\n", "2-0\n\n[Event \"b\"]\n1. 31-27 ) { 2. & 0-2\n\n")
    before = list(read_games(clean))
    after = list(read_games(broken))
    assert [g.tag("Event") for g in after] == ["a", "b", "c"]
    for x, y in zip(before, [after[0], after[2]], strict=True):
        assert (x.tags, texts(x), x.result, x.findings) == (y.tags, texts(y), y.result,
                                                             [f.located(game_index=x.index)
                                                              for f in y.findings])
    assert texts(after[1]) == ["31-27"]


def test_new_codes_are_registered_and_explained() -> None:
    for code in ("unreadable-text", "unclosed-comment", "unclosed-variation",
                 "missing-terminator", "too-large"):
        assert code in CODES and explain(code)


def test_stray_tokens_in_real_games_lose_no_move() -> None:
    """One stray token after a random move of sampled real games: every move is still read
    (``benchmarks/recovery.py losses`` runs the same over every game)."""
    rng = random.Random(10)
    strays = ("Whiteoverstepped.", " .", " ]", " )", " &", " [%clk 1:00]")
    tried = 0
    for path in sorted(shared_path("real").rglob("*.pdn")):
        games = [g for g in read_games(path) if len(g.moves) >= 3]
        for g in rng.sample(games, min(4, len(games))):
            base = parse_game(g.raw)
            m = base.moves[rng.randrange(len(base.moves) - 1)]
            lines = g.raw.split("\n")
            at = lines[m.line - 1].find(m.text, m.column - 1)
            if at < 0:
                continue
            at += len(m.text)
            row = lines[m.line - 1]
            lines[m.line - 1] = row[:at] + strays[tried % len(strays)] + row[at:]
            h = parse_game("\n".join(lines))
            tried += 1
            assert h.parsed and texts(h) == texts(base), (path.name, g.index)
            new = [f.code for f in h.findings if f.code not in {x.code for x in base.findings}]
            assert new == ["unreadable-text"], (path.name, g.index, h.findings)
    assert tried >= 60
