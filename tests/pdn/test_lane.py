"""The compiled lane of the reader (``pdnkit/core/src/scan.c`` through
:func:`pdnkit.pdn.split.split_blocks`) against the Python reader alone: every record of every
real file, sample and the shared intl_2000 file is the same (tags, body, moves, result,
place, raw text, findings, encoding), read from a path, from bytes and from text, and the
games the lane takes stay the games it is meant to take (the clean ones).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import pdnkit.core.compiled as compiled
from pdnkit.pdn import read_games
from pdnkit.pdn.fast import LaneRecord
from pdnkit.pdn.split import LaneChunk, split_blocks
from tests.core.support import corpus_files
from tests.shared import SHARED_DATA

SCAN = compiled.scanner()
pytestmark = pytest.mark.skipif(SCAN is None, reason="the compiled core is not built")

FILES = corpus_files()
INTL = SHARED_DATA / "bench" / "intl_2000.pdn"


def _fields(r: Any) -> tuple[Any, ...]:
    return (type(r.moves), r.tags, r.body, r.moves, r.result, r.file, r.index, r.line,
            r.end_line, r.raw, [f.to_dict() for f in r.findings], r.encoding, r.parsed)


def _python_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "scanner", lambda: None)


def _both(source: Any, monkeypatch: pytest.MonkeyPatch, **kw: Any) -> tuple[list[Any], list[Any]]:
    lane = list(read_games(source, **kw))
    with monkeypatch.context() as m:
        _python_reader(m)
        plain = list(read_games(source, **kw))
    return lane, plain


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_real_files(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lane, plain = _both(path, monkeypatch)
    assert not any(isinstance(r, LaneRecord) for r in plain)
    assert [_fields(r) for r in lane] == [_fields(r) for r in plain]
    text = path.read_bytes()
    again, _ = _both(text, monkeypatch)
    assert [_fields(r)[1:5] for r in again] == [_fields(r)[1:5] for r in plain]


@pytest.mark.slow
def test_intl_2000(monkeypatch: pytest.MonkeyPatch) -> None:
    if not INTL.exists():
        pytest.skip("shared bench file not available")
    lane, plain = _both(INTL, monkeypatch)
    assert sum(isinstance(r, LaneRecord) for r in lane) == len(lane) == 2000
    assert [_fields(r) for r in lane] == [_fields(r) for r in plain]


CLEAN = '[Event "E"]\n[White "W"]\n[Result "2-0"]\n\n1. 32-28 {c} 19-23 $1 2. 28x19 14x23 2-0\n'
#: texts of games the lane leaves to the Python reader, each placed between clean games
UNUSUAL = [
    '[Event "x"] 1. 32-28 *\n',  # a tag and movetext on one line
    '[event "x"]\n1. 32-28 *\n',  # a tag name that is no PDN identifier
    '[Event "a &amp; b"]\n1. 32-28 *\n',  # a character reference
    '[Event "a \\"b\\""]\n1. 32-28 *\n',  # escaped quotes
    '[Event "x"]\n\n[Site "y"]\n1. 32-28 *\n',  # a gap in the header
    '[Event "x"]\n{before} 1. 32-28 *\n',  # a comment before the first move
    '[Event "x"]\n1. 32-28 (1. 33-28) *\n',  # a variation
    '[Event "x"]\n1. 32-28! 19-23 *\n',  # a strength mark
    '[Event "x"]\n1. 32-28 19-23 ; line comment\n*\n',
    '[Event "x"]\n% escape\n1. 32-28 *\n',
    '[Event "x"]\n1. 32-28 /FEN "W:W31:B1"/ 19-23 *\n',
    '[Event "x"]\n1. 32-28 -- 19-23 *\n',
    '[Event "x"]\n1.. 32-28 *\n',
    '[Event "x"]\n1. 32-28 1-0 {after}\n',
    '[Event "x"]\n1. 32-28 0-1 19-23 *\n',
    '[Event "x"]\n1. 32 - 28 *\n',
    '[Event "x"]\n1. 32-28 19-23 4-6\n',  # a score that is no result
    '[Event "x"]\n1. 32-28 ½-½\n',
    '[Event "x"]\n1. 3228 *\n',
    '[Event "x"]\n1. 32X28 *\n',
    '[Event "x"]\n1. 32-28-23 *\n',
    '[Event "x"]\n1. c3-d4 {he said "go"} *\n',
    '[Event "x"]\n1. 32-28 {a [b]} *\n',
    '[Event "x"]\n1. 32-28 {a {b} c} *\n',
    '[Event "x"]\n1. 32-28\n',  # no result before the next game
    '[Event "x"]\n1. 32-28 *\n[FILENAME "a.pdn"]\n',
    '--- page 3 ---\n',
    '[Event "x"]\n1. 32-28 *\n\x0c\n',
    '[Event "x"]\n1. 32-28 *  junk\n',
    '[Event "x"]\n1. 32-28\t*\n',
    '[Event "x"]\n 1. 32-28 *\n',
    '[Event "x"]\n1. 32-28 *\n\\r\\n',
    '[Event "Événement"]\n1. 32-28 *\n',
    '[Évent "x"]\n1. 32-28 *\n',
    '[Event "x"]\n1. 32-28 *',  # no final line end
]


def test_lane_takes_clean_games(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "\n".join([CLEAN] * 3 + [UNUSUAL[6], CLEAN, CLEAN])
    lane, plain = _both(text, monkeypatch)
    assert [isinstance(r, LaneRecord) for r in lane] == [True, True, True, False, True, True]
    assert [_fields(r) for r in lane] == [_fields(r) for r in plain]


@pytest.mark.parametrize("odd", UNUSUAL)
def test_unusual_games_between_clean_ones(odd: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for text in (CLEAN + "\n" + odd + "\n" + CLEAN, odd + "\n" + CLEAN, CLEAN + odd,
                 odd.replace("\n", "\r\n") + CLEAN):
        lane, plain = _both(text, monkeypatch)
        assert [_fields(r) for r in lane] == [_fields(r) for r in plain], text


def test_blocks_cut_anywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of whole lines cut at every line of a file read as the whole file."""
    rng = random.Random(5)
    parts = [CLEAN] * 6 + UNUSUAL[:12]
    rng.shuffle(parts)
    text = "\n".join(parts)
    lines = text.splitlines(keepends=True)
    whole = [(c.text, c.line, c.end_line, type(c)) for c in split_blocks([text], SCAN)]
    assert any(t is LaneChunk for *_, t in whole)
    for cut in range(1, len(lines)):
        blocks = ["".join(lines[:cut]), "".join(lines[cut:])]
        got = [(c.text, c.line, c.end_line, type(c)) for c in split_blocks(blocks, SCAN)]
        assert [g[:3] for g in got] == [w[:3] for w in whole], cut


def test_fuzzed_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Clean games with random characters changed read as the Python reader reads them."""
    rng = random.Random(11)
    alphabet = ' \n\t[]{}()"\\$;%*!?-x:.,0123456789abcdefghijklmEW&\u00e9\u00bd/'
    for _ in range(400):
        text = list((CLEAN + "\n") * 3)
        for _ in range(rng.randrange(1, 4)):
            text[rng.randrange(len(text))] = rng.choice(alphabet)
        src = "".join(text)
        lane, plain = _both(src, monkeypatch)
        assert [_fields(r) for r in lane] == [_fields(r) for r in plain], src
