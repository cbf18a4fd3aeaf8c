"""Hostile and huge games (issue 16, reader side): no exception escapes, time linear in the
text, memory proportional to it, no recursion on nesting depth. Time bounds are generous
hang checks, not benchmarks (``benchmarks/recovery.py hostile`` prints the figures)."""

from __future__ import annotations

import random
import sys
import time
import tracemalloc

import pytest

from pdnkit.pdn import build, reader
from pdnkit.pdn.reader import parse_game, read_games
from pdnkit.pdn.writer import write_game
from pdnkit.rules import get_rules
from pdnkit.rules.fen import FenError, parse_fen, split_fen


def peak_of(fn):  # type: ignore[no-untyped-def]
    tracemalloc.start()
    try:
        out = fn()
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_huge_numbers_in_movetext_are_findings_not_exceptions() -> None:
    text = ('[Event "a"]\n1. 32-28 *\n\n[Event "b"]\n' + "1" * 5000 + ". 32-28 19-23 $"
            + "9" * 5000 + " *\n\n[Event \"c\"]\n1. 33-29 *\n")
    games = list(read_games(text))  # Python's int-conversion limit is 4,300 digits
    assert [g.tag("Event") for g in games] == ["a", "b", "c"]
    b = games[1]
    assert [m.text for m in b.moves] == ["32-28", "19-23"]
    assert [f.code for f in b.findings] == ["unreadable-text", "unreadable-text"]
    assert not games[0].findings and not games[2].findings


def test_huge_numbers_in_a_fen_raise_only_fen_errors() -> None:
    rules = get_rules("international")
    for fen in ("W:W" + "1" * 5000 + ":B2", "W:W1-" + "9" * 5000 + ":B2"):
        with pytest.raises(FenError, match="off any board"):
            parse_fen(fen, rules)


def test_a_fen_range_is_bounded_before_it_is_expanded() -> None:
    def run() -> None:
        with pytest.raises(FenError, match="off any board"):
            split_fen("W:W1-30000000:B2")

    _, peak = peak_of(run)
    assert peak < 1_000_000
    assert len(split_fen("W:W31-50:B1-20").white) == 20


def test_any_fault_while_reading_a_game_costs_only_that_game(monkeypatch) -> None:
    real = build.records_from_parse

    def faulty(children, ctx, rec):  # type: ignore[no-untyped-def]
        if rec.index == 1:
            raise RuntimeError("boom")
        return real(children, ctx, rec)

    monkeypatch.setattr(build, "records_from_parse", faulty)
    text = ('[Event "a"]\n1. 32-28 (19-23) *\n[Event "b"]\n1. 32-28 (19-23) *\n'
            '[Event "c"]\n1. 32-28 (19-23) *\n')
    games = list(read_games(text))
    assert [g.parsed for g in games] == [True, False, True]
    (f,) = games[1].findings
    assert f.code == "internal-error" and "RuntimeError: boom" in f.message
    assert games[1].raw.startswith('[Event "b"]')


def test_a_game_over_the_size_limit_is_a_finding(monkeypatch) -> None:
    monkeypatch.setattr(reader, "MAX_GAME_CHARS", 1000)
    text = ('[Event "a"]\n1. 32-28 *\n\n[Event "big"]\n[White "W \\" x"]\n1. 32-28 {'
            + "x" * 2000 + "} *\n\n[Event \"c\"]\n1. 33-29 *\n")
    games = list(read_games(text))
    assert [g.tag("Event") for g in games] == ["a", "big", "c"]
    big = games[1]
    assert not big.parsed and big.moves == [] and "x" * 2000 in big.raw
    assert big.tags == [("Event", "big"), ("White", 'W " x')]
    (f,) = big.findings
    assert f.code == "too-large" and f.details == {"chars": len(big.raw), "limit": 1000}
    assert games[0].parsed and games[2].parsed


@pytest.mark.parametrize("variation", [False, True])
def test_memory_stays_proportional_to_a_huge_comment(variation: bool) -> None:
    # 1 MB: 369 MB before (one regex backtracking frame per character)
    comment = "a" * 1_000_000
    text = "1. 32-28 {" + comment + "} " + ("(19-23) " if variation else "") + "19-23 *"
    g, peak = peak_of(lambda: parse_game(text))
    assert g.moves[0].comments_after == [comment]
    assert peak < 8 * len(text)


def test_memory_stays_proportional_to_a_huge_tag_value() -> None:
    value = "v" * 2_000_000
    text = f'[Event "{value}"]\n[Site "s"]\n1. 32-28 *\n'
    g, peak = peak_of(lambda: next(read_games(text)))
    assert g.tag("Event") == value and g.tag("Site") == "s"
    assert peak < 8 * len(text)


def test_beyond_the_limit_memory_stays_proportional() -> None:
    text = '[Event "e"]\n1. 32-28 {' + "c" * (reader.MAX_GAME_CHARS + 10) + '} *\n'
    g, peak = peak_of(lambda: parse_game(text))
    assert [f.code for f in g.findings] == ["too-large"] and g.tags == [("Event", "e")]
    assert peak < 4 * len(text)
    # a tag line too long to be worth reading is left in the raw text
    g = parse_game('[Event "' + "v" * (reader.MAX_GAME_CHARS + 10) + '"]\n1. 32-28 *\n')
    assert [f.code for f in g.findings] == ["too-large"] and g.tags == []


def test_a_long_run_of_digits_takes_linear_time() -> None:
    # 20,000 digits took 52 s before: the fast lane's pattern rescanned the run at each digit
    for n in (20_000, 200_000):
        text = "1. 32-28 " + "1" * n + " 19-23 *"
        t = time.process_time()
        g = parse_game(text)
        assert time.process_time() - t < 10
        assert [m.text for m in g.moves] == ["32-28", "19-23"]
        assert g.findings[0].code == "unreadable-text"


@pytest.mark.parametrize("kind", ["open-quote-spaces", "cut-short", "nul-bytes", "brackets"])
def test_damaged_tags_and_bytes_take_linear_time(kind: str) -> None:
    # a quote never closed before 200,000 spaces took minutes: its value's stop was looked
    # for from every space of the run
    n = 200_000
    if kind == "open-quote-spaces":
        data = ('[Event "a' + " " * n + 'b\n[White "W"]\n1. 32-28 *\n').encode()
    elif kind == "cut-short":  # a UTF-8 game (its file too), then one of broken characters
        data = ('[White "' + "é" * n + '"]\n1. 32-28 *\n\n[White "').encode() \
            + b"\xe2\x82 " * n + b'"]\n1. 32-28 *\n'
    elif kind == "brackets":  # a doubled [ is a tag's; a run of them was rescanned at each
        data = ("1. 32-28 " + "[" * n + " 19-23 *\n").encode()
    else:
        data = ('[Event "' + "ab\0" * n + '"]\n1. 32-28 *\n').encode()  # (a NUL every
        # second byte would be UTF-16)
    t = time.process_time()
    games = list(read_games(data))
    assert time.process_time() - t < 20
    assert games[-1].moves and games[-1].moves[0].text == "32-28"


def _depth(line: list) -> int:  # type: ignore[type-arg]
    depth = 0
    while line and line[0].variations:
        line = line[0].variations[0]
        depth += 1
    return depth


def test_deep_variations_need_no_recursion() -> None:
    n = 5 * sys.getrecursionlimit()
    text = "1. 32-28 " + "(19-23 " * n + ")" * n + " 2-0"
    g = parse_game(text)
    assert g.parsed and not g.findings and g.result == "2-0"
    assert _depth(g.moves) == n
    out = write_game(g)
    assert out.count("(") == n
    again = parse_game(out)
    assert _depth(again.moves) == n


def test_deep_unclosed_variations_are_closed() -> None:
    n = 3 * sys.getrecursionlimit()
    g = parse_game("1. 32-28 " + "(19-23 " * n + "*")
    assert g.result == "*" and _depth(g.moves) == n
    assert [f.code for f in g.findings] == ["unclosed-variation"]


@pytest.mark.slow
def test_variations_50000_deep() -> None:
    n = 50_000
    g = parse_game("1. 32-28 " + "(19-23 " * n + ")" * n + " *")
    assert _depth(g.moves) == n and write_game(g).count("(") == n


def test_a_run_of_brackets_over_the_limit_is_a_finding_not_parsed() -> None:
    """A run of ``(`` twice the limit (240 KB; a million would cost the parser hundreds of
    megabytes) is a ``too-large`` finding at once, its tags read, within 40 bytes a character;
    the next game is read as usual (tracemalloc makes the read ten times slower: the run is
    kept short)."""
    import tracemalloc

    from pdnkit.pdn import read_games
    from pdnkit.pdn.reader import MAX_GAME_BRACKETS

    text = ('[Event "x"]\n1. 32-28 ' + "(" * (2 * MAX_GAME_BRACKETS) +
            ' *\n\n[Event "y"]\n1. 32-28 *\n')
    tracemalloc.start()
    try:
        games = list(read_games(text))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [f.code for f in games[0].findings] == ["too-large"]
    assert games[0].findings[0].details["limit"] == MAX_GAME_BRACKETS
    assert games[0].tag("Event") == "x" and not games[0].parsed
    assert games[1].tag("Event") == "y" and [m.text for m in games[1].moves] == ["32-28"]
    assert peak < 40 * len(text)


def test_seeded_mutations_of_real_games_never_raise_and_spare_the_neighbours() -> None:
    """A seeded mutator over real files: one game's movetext gets a stray bracket, brace,
    parenthesis, a long digit run, a deleted or doubled character; reading never raises,
    each case stays fast, and the games before and after it read as before."""
    from tests.shared import shared_path

    rng = random.Random(16)
    inserts = ["{", "}", "(", ")", "]", ".", "&", "$", "1" * 5000, "x" * 3000, "\\", '"']
    files = [shared_path("real", "international", "wk2003.pdn"),
             shared_path("real", "russian", "abatsiev.pdn"),
             shared_path("real", "czech", "mrcd2006.pdn")]
    cases = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        games = list(read_games(text))
        for _ in range(40):
            k = rng.randrange(1, len(games) - 1)
            g = games[k]
            raw_at = text.index(g.raw)
            body_at = raw_at + g.raw.index(g.raw.split("]\n")[-1].lstrip("\n")[:20])
            at = rng.randrange(body_at, raw_at + len(g.raw.rstrip()) - 4)
            kind = rng.randrange(3)
            if kind == 0:
                mutated = text[:at] + rng.choice(inserts) + text[at:]
            elif kind == 1:
                mutated = text[:at] + text[at + 1:]
            else:
                mutated = text[:at] + text[at] + text[at:]
            t = time.process_time()
            out = list(read_games(mutated))
            assert time.process_time() - t < 20
            cases += 1
            assert len(out) == len(games), (path.name, k, kind)
            for i in (k - 1, k + 1):
                assert [m.text for m in out[i].moves] == [m.text for m in games[i].moves]
                assert out[i].tags == games[i].tags
            assert out[k].parsed or any(f.code == "syntax-error" for f in out[k].findings)
    assert cases == 120
