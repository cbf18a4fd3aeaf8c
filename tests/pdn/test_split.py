"""Splitting files into games (issue 10 point 7, issue 16 point 4)."""

from __future__ import annotations

import time

import pytest

from pdnkit.pdn.reader import read_games
from pdnkit.pdn.split import split_text

GAME = '[Event "e{i}"]\n[White "w{i}"]\n1. 32-28 19-23 2-0\n\n'
HUNDRED = "".join(GAME.format(i=i) for i in range(100))


def events(text: str) -> list[str | None]:
    return [g.tag("Event") for g in read_games(text)]


def test_a_brace_after_a_result_does_not_swallow_the_rest() -> None:
    """The user's report: a `{` after a result made 100 games 2."""
    text = HUNDRED.replace("2-0\n", "2-0 {oops\n", 1)
    games = list(read_games(text))
    assert [g.tag("Event") for g in games] == [f"e{i}" for i in range(100)]
    assert [len(g.moves) for g in games] == [2] * 100
    # the unclosed comment stays with the game it follows (kept, and reported there)
    assert "unclosed-comment" in [f.code for f in games[0].findings]
    assert games[0].raw.rstrip().endswith("2-0 {oops")
    assert not games[1].findings


def test_an_unclosed_comment_or_variation_ends_at_the_next_tag_line() -> None:
    for broken in ("19-23 {never closed\n", "19-23 (1... 18-23\n"):
        text = HUNDRED.replace("19-23 2-0\n", broken, 1)
        games = list(read_games(text))
        assert [g.tag("Event") for g in games] == [f"e{i}" for i in range(100)], broken
        assert all(g.parsed for g in games[1:])


def test_a_header_block_after_a_header_block_is_two_games() -> None:
    """The user's report: a header-only game merged silently into the next one."""
    text = ('[Event "a"]\n[White "Sijbrands"]\n\n'
            '[Event "b"]\n[White "Baliakin"]\n[Date "2001.01.01"]\n1. 32-28 *\n')
    games = list(read_games(text))
    assert [g.tags for g in games] == [
        [("Event", "a"), ("White", "Sijbrands")],
        [("Event", "b"), ("White", "Baliakin"), ("Date", "2001.01.01")]]
    assert games[0].moves == [] and [g.line for g in games] == [1, 4]


def test_several_games_on_one_line_with_several_tags_each() -> None:
    """The user's report: games on one line with two or more tags each became one record."""
    line = " ".join(f'[Event "e{i}"][White "w{i}"][Black "b{i}"] 1. 32-28 19-23 *'
                    for i in range(5))
    games = list(read_games(line + "\n"))
    assert [(g.tag("Event"), g.tag("Black"), len(g.moves)) for g in games] == [
        (f"e{i}", f"b{i}", 2) for i in range(5)]
    assert all(g.parsed and g.line == 1 for g in games)
    separate = line.replace("] 1.", "]\n1.").replace(" [Event", "\n[Event") + "\n"
    assert [g.tags for g in read_games(separate)] == [g.tags for g in games]


def test_a_tag_value_holding_a_bracket_stays_one_tag() -> None:
    (g,) = read_games('[Event "a]b"][Site "x"] 1. 32-28 *\n')
    assert g.tags == [("Event", "a]b"), ("Site", "x")]


@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\x0b", "\x0c", "\x1c", "\x85"])
def test_strings_split_like_files(sep: str, tmp_path) -> None:
    """The user's report: a string split a game at U+2028, \\x0b, \\x0c, \\x85."""
    text = (f'[Event "a"]\n1. 32-28 {{a{sep}[Event "x"]}} 19-23 *{sep}\n'
            f'[Event "b"]\n1. 33-29 *\n')
    p = tmp_path / "g.pdn"
    p.write_bytes(text.encode("utf-8"))
    from_file = [(g.tag("Event"), g.line, g.end_line, g.raw) for g in read_games(p)]
    from_str = [(g.tag("Event"), g.line, g.end_line, g.raw) for g in read_games(text)]
    assert from_file == from_str
    assert [e for e, *_ in from_str] == ["a", "b"] and from_str[1][1] == 3


def test_quadratic_tag_pattern_is_linear() -> None:
    """The user's report: `"[a]x" * 10000` (40 KB) took 41 s in the splitter."""
    start = time.process_time()
    chunks = list(split_text("[a]x" * 10000))
    assert time.process_time() - start < 5
    assert "".join(c.text for c in chunks) == "[a]x" * 10000


def test_many_games_on_one_line_split_in_linear_time() -> None:
    """The user's report: 80,000 games on one line took 25 s against 3 s on separate
    lines (a hang check with a generous bound on this process's CPU time, which other
    processes on a shared machine do not inflate as they do the wall time; figures in
    benchmarks/)."""
    n = 80_000
    start = time.process_time()
    one_line = sum(1 for _ in split_text("1. 32-28 * " * n))
    elapsed = time.process_time() - start
    assert one_line == n and elapsed < 5


def test_chunks_keep_every_character() -> None:
    text = HUNDRED.replace("2-0\n", "2-0 {oops\n", 1) + "trailing note\n"
    assert "".join(c.text for c in split_text(text)).replace("\n", "") == \
        text.replace("\n", "")


def test_an_endless_chunk_is_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bounded memory on an endless stream without results or tags (`yes | pdnkit ...`)."""
    from pdnkit.pdn import split

    monkeypatch.setattr(split, "MAX_CHUNK_CHARS", 1000)
    chunks = list(split.split_lines("y\n" for _ in range(5000)))
    assert len(chunks) == 10 and all(len(c.text) <= 1002 for c in chunks)
    assert [c.line for c in chunks[:2]] == [1, 501]
