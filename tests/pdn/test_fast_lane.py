"""The reader's fast lane (one regular expression built from the grammar's terminals) gives
exactly what the Lark parser gives, and steps aside for everything outside its subset."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pdnkit.pdn import fast, lalr, read_games, reader
from pdnkit.pdn.decode import detect_encoding_chunks
from pdnkit.pdn.split import split_lines
from tests.shared import shared_path


def _norm(children: list[Any]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for c in children:
        if isinstance(c, lalr.Tag):
            out.append(("TAG", c.name, c.value, c.bare, c.tok.line, c.tok.column))
        elif isinstance(c, lalr.Var):
            out.append(("VAR",))
        else:
            out.append((c.type, c.value, c.line, c.column))
    return out


def _lark(text: str) -> list[tuple[Any, ...]]:
    return _norm(lalr.parser().parse(text))


@pytest.mark.parametrize("text", [
    '[Event "x"]\n[White "A"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n',
    '[Event "x"]\n1. 32-28 {a comment\nover two lines} 19-23 $1 2. 28x19! 14x23 *',
    "1. c3-d4 f6-g5 2. d4xf6 e7xg5 1-0",
    "1. 32-28 19-23 ; line comment\n2. 28x19 14x23 *",
    '/FEN "W:W31,32:B19"/ 1. 32-28 19-23 *',
    '1. 32-28 ... 2. 33-29 *',
    '%escape line\n[Event "x"]\n1. 32-28 2-0 [FILENAME "a.pdn"]',
    "1. 1-18 1-1",
    "12. 1-0",
    "1. 3228 1-6* *",
])
def test_fast_lane_equals_lark(text: str) -> None:
    got = fast.fast_children(text, lalr.parser())
    assert got is not None
    assert _norm(got) == _lark(text)


@pytest.mark.parametrize("text", [
    '[Event "x"]\n1. 32-28 (1. 33-29 18-23) 19-23 *',  # a variation
    "[Event x]\n1. 32-28 *",  # a liberal tag
    '1. 32-28 [Event "x"] 19-23 *',  # a tag among the moves
    "1. 32-28 2-0 19-23",  # moves after the result
    "1. 32-28 2-0 0-2",  # a second result
    "[pdn]1. 32-28 *[/pdn]",  # forum wrapper (the reader notes it)
    "1. 32-28 {unclosed",  # a syntax error
    "1. 32-28 @ *",  # a character no terminal matches
    "",
])
def test_fast_lane_steps_aside(text: str) -> None:
    assert fast.fast_children(text, lalr.parser()) is None


def test_syntax_errors_still_come_from_lark() -> None:
    rec = next(read_games('[Event "x"]\n1. 32-28 {unclosed'))
    assert rec.parsed and [m.text for m in rec.moves] == ["32-28"]
    assert rec.findings[0].code == "unclosed-comment"
    rec = next(read_games('[Event "x"]\n1) 32+28 *'))
    assert not rec.parsed and rec.findings[0].code == "syntax-error"


def _shared_games(folder: str) -> Iterator[tuple[str, int, str]]:
    """(file name, first line, text with LF line ends) of every game of the shared folder's
    PDN files (the first 300 chunks of each file under ``bench``)."""
    base = shared_path(folder)
    files = sorted(p for p in base.rglob("*") if p.is_file() and p.suffix.lower() == ".pdn")
    for path in files:
        data = path.read_bytes()
        text_all = data.decode(detect_encoding_chunks([data]), errors="replace")
        for n, chunk in enumerate(split_lines(text_all.splitlines(keepends=True))):
            if not chunk.has_content or (folder == "bench" and n > 300):
                continue
            yield path.name, chunk.line, chunk.text.replace("\r\n", "\n").replace("\r", "\n")


@pytest.mark.parametrize("folder", ["real", "bench", "syntax"])
def test_fast_lane_equals_lark_on_the_shared_files(folder: str) -> None:
    in_lane = 0
    for name, line, text in _shared_games(folder):
        got = fast.fast_children(text, lalr.parser())
        if got is None:
            continue
        in_lane += 1
        assert _norm(got) == _lark(text), (name, line)
    assert in_lane > 0


def _general(text: str, line: int) -> Any:
    """The record as the general path builds it (the narrow fast lane switched off)."""
    saved = fast.fast_record
    fast.fast_record = lambda *a: False  # type: ignore[assignment]
    try:
        return reader.parse_game(text, line=line, file="f.pdn", index=3)
    finally:
        fast.fast_record = saved  # type: ignore[assignment]


def _same_record(a: Any, b: Any) -> None:
    assert (a.tags, a.result, a.line, a.end_line, a.parsed) == \
        (b.tags, b.result, b.line, b.end_line, b.parsed)
    assert a.body == b.body and a.moves == b.moves
    assert [(f.code, f.message, f.line, f.column) for f in a.findings] == \
        [(f.code, f.message, f.line, f.column) for f in b.findings]


@pytest.mark.parametrize("text", [
    '[Event "x"]\n[White "A \\"B\\""]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n',
    '[Event "x"]\n1. 32-28 {a comment\nover two lines} 19-23 $1 2. 28x19 $3 $4 14x23 *',
    "{before} 1. c3-d4 f6-g5 2. d4xf6 e7xg5 1-0",
    "1. 32-28 2. 33-29 3. 34-30 *",
    "1... 19-23 2. 32-28 *",
    "12. 32-28 19-23 *",
])
def test_narrow_lane_builds_the_same_record(text: str) -> None:
    rec = reader.parse_game(text, line=5, file="f.pdn", index=3)
    assert fast.fast_record(text, lalr.parser(), 5, reader.GameRecord())
    _same_record(rec, _general(text, 5))


@pytest.mark.parametrize("text", [
    "1. 32-28! 19-23 *",  # a strength mark
    "1. 32-28 19-23",  # no result
    "1.. 32-28 *",  # two dots
    "1. 32-28 {a {nested} comment} *",
    "$1 1. 32-28 *",  # a NAG before any move
    "1. 3228 *",  # no separator
    "1. 32-28 *\n[Event \"after\"]",  # a tag after the result
    "[event \"x\"] 1. 32-28 *",  # a tag name in lower case
    "1. 32-28 2. *",  # a number with no move
])
def test_narrow_lane_steps_aside(text: str) -> None:
    assert not fast.fast_record(text, lalr.parser(), 1, reader.GameRecord())
    _same_record(reader.parse_game(text, line=1, file="f.pdn", index=3), _general(text, 1))


@pytest.mark.parametrize("folder", ["real", "bench", "syntax"])
def test_narrow_lane_equals_the_general_path_on_the_shared_files(folder: str) -> None:
    narrow = 0
    for _name, line, text in _shared_games(folder):
        narrow += fast.fast_record(text, lalr.parser(), line, reader.GameRecord())
        _same_record(reader.parse_game(text, line=line, file="f.pdn", index=3),
                     _general(text, line))
    assert narrow > 0
