"""The byte ranges handed to workers at their edges: a requested cut that falls inside a
multi-byte character, a game longer than a part (it straddles where the cut was asked
for), a file of one game. Every part must read as the whole file reads, and ``--jobs 2``
give what ``--jobs 1`` gives, the workers really started."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pdnkit.core import core_in_use
from pdnkit.pdn.fast import file_spans, span_chunks
from pdnkit.validation import validate
from tests.pools import workers_always

compiled = pytest.mark.skipif(core_in_use() != "compiled", reason="the compiled core is not built")

#: short legal international games (moves as written, results as in the tag)
LINES = [("1. 32-28 19-23 2. 28x19 14x23", "*"),
         ("1. 33-29 18-23 2. 29x18 12x23", "1-1"),
         ("1. 31-27 16-21 2. 27-22 17x28 3. 32x23 19x28 4. 33x22", "2-0"),
         ("1. 34-30 20-25", "0-2")]
#: characters of one to four bytes in UTF-8
WIDE = ["e", "\u00e9", "\u20ac", "\U0001d11e", "\u4e2d"]


def _game(rng: random.Random, i: int, crlf: bool = False) -> str:
    moves, result = LINES[i % len(LINES)]
    name = "".join(rng.choice(WIDE) for _ in range(rng.randint(1, 9)))
    nl = "\r\n" if crlf else "\n"
    return (f'[Event "{name} {i}"]{nl}[White "{rng.choice(WIDE) * 3}"]{nl}'
            f'[Result "{result}"]{nl}{moves} {result}{nl}{nl}')



def _check_spans(src: Path, size: int) -> int:
    """The parts of ``src`` cut every ``size`` bytes tile the file, each is UTF-8 on its
    own and starts at a game's tags, and together they read as the chunks of the whole
    file (text and line numbers); the number of parts."""
    from pdnkit.pdn.source import open_source

    spans = file_spans(src, [], size)
    assert spans is not None
    data = src.read_bytes()
    assert spans[0].start == 0 and spans[-1].end == len(data)
    assert [s.start for s in spans[1:]] == [s.end for s in spans[:-1]]
    assert [s.last for s in spans] == [False] * (len(spans) - 1) + [True]
    for s in spans:
        data[s.start:s.end].decode("utf-8")  # never cut inside a character
        assert data[s.start:s.start + 7] == b'[Event '
    with open_source(src) as opened:
        whole = [(c.line, c.text) for c in opened.chunks if c.has_content]
    parts = [(c.line, c.text) for s in spans for c in span_chunks(s) if c.has_content]
    assert parts == whole
    return len(spans)


@pytest.mark.parametrize("crlf", [False, True])
def test_a_cut_asked_for_inside_a_character_moves_to_a_game_boundary(tmp_path: Path,
                                                                     crlf: bool) -> None:
    """Every requested size from 1 to 300 bytes: the cut asked for lands inside one-, two-,
    three- and four-byte characters alike; the parts are still whole games."""
    rng = random.Random(35)
    src = tmp_path / "wide.pdn"
    src.write_bytes("".join(_game(rng, i, crlf) for i in range(12)).encode("utf-8"))
    data = src.read_bytes()
    inside = [i for i in range(1, 300) if (data[i] & 0xC0) == 0x80]  # continuation bytes
    assert len(inside) > 30  # the sizes below do ask for cuts inside characters
    counts = {_check_spans(src, size) for size in range(1, 300)}
    assert max(counts) == 12 and min(counts) < 12


@compiled
def test_workers_read_wide_characters_at_their_edges_as_one_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    src = tmp_path / "wide.pdn"
    src.write_bytes("".join(_game(rng, i, crlf=i % 3 == 0) for i in range(60)).encode("utf-8"))
    serial = [r.to_dict() for r in validate(src, light=True)]
    assert any("\U0001d11e" in (r["white"] or "") for r in serial)
    started = workers_always(monkeypatch, 301)  # an odd size: cuts asked for mid-character
    assert [r.to_dict() for r in validate(src, light=True, jobs=2)] == serial
    assert started == [2]


def _long_game(size: int) -> str:
    """A game of two plies made long by a comment of about ``size`` bytes."""
    note = "a long note " * (size // 12)
    return f'[Event "long"]\n[Result "*"]\n1. 32-28 {{{note}}} 19-23 *\n\n'


@compiled
def test_a_game_longer_than_a_part_straddles_the_cut_and_stays_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game of 6,000 bytes among games of 100 with parts of 1,000: the cut asked for
    inside it moves to its end, so it is read whole, by one worker, at its line."""
    rng = random.Random(3)
    games = [_game(rng, i) for i in range(20)]
    games[9] = _long_game(6_000)
    src = tmp_path / "long.pdn"
    src.write_bytes("".join(games).encode("utf-8"))
    n = _check_spans(src, 1_000)
    spans = file_spans(src, [], 1_000)
    assert spans is not None and n == len(spans)
    long_at = src.read_bytes().index(b'[Event "long"]')
    holder = [s for s in spans if s.start <= long_at < s.end]
    assert len(holder) == 1 and holder[0].end - holder[0].start > 6_000
    serial = [r.to_dict() for r in validate(src, light=True)]
    started = workers_always(monkeypatch, 1_000)
    assert [r.to_dict() for r in validate(src, light=True, jobs=2)] == serial
    assert started == [2]
    assert serial[9]["replayed_plies"] == 2 and serial[9]["line"] == 46


@compiled
@pytest.mark.parametrize("size", [1, 100, 10_000])
def test_a_file_of_one_game_is_one_part_and_starts_no_worker(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    rng = random.Random(size)
    src = tmp_path / "one.pdn"
    src.write_bytes(_game(rng, 2).encode("utf-8"))
    spans = file_spans(src, [], size)
    assert spans is not None and len(spans) == 1 and spans[0].last
    assert (spans[0].start, spans[0].end, spans[0].line) == (0, src.stat().st_size, 1)
    serial = [r.to_dict() for r in validate(src, light=True)]
    started = workers_always(monkeypatch, size)
    assert [r.to_dict() for r in validate(src, light=True, jobs=2)] == serial
    assert len(serial) == 1 and serial[0]["result"] == "1-0"
    assert started == []  # one part: the probe reads it here, nothing is left for workers
