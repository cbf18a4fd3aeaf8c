"""The file's pre-scan (``resolve.scan_file``) reads a lane game's tags from the compiled
lane and the first moves only where no game names its variant: the guess must be the one
the layout model's reading of every game gives."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from pdnkit.pdn.layout import read_header
from pdnkit.pdn.source import open_source
from pdnkit.pdn.split import LaneChunk
from pdnkit.samples import sample_files
from pdnkit.validation.resolve import FileGuess, scan_file
from tests.shared import SHARED_DATA


def _files() -> list[Path]:
    real = SHARED_DATA / "real"
    shared = sorted(real.rglob("*.pdn")) if real.exists() else []
    bench = SHARED_DATA / "bench" / "intl_2000.pdn"
    return [*sample_files(), *shared, *([bench] if bench.exists() else [])]


def _chunks(path: Path) -> list[object]:
    with open_source(path) as opened:
        return list(opened.chunks)


def _read_as_text(chunks: list[object]) -> list[object]:
    """The chunks as plain texts: the pre-scan reads each with the layout model."""
    return [SimpleNamespace(text=getattr(c, "text", "")) for c in chunks]


@pytest.mark.parametrize("path", _files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_lane_tags_are_the_layout_models_and_the_guess_is_the_same(path: Path) -> None:
    chunks = _chunks(path)
    for c in chunks[:500]:
        if type(c) is LaneChunk and c.body <= 6_000:
            assert list(c.tags) == [(t.name, t.value) for t in read_header(c.text[:6_000]).tags]
    assert scan_file(chunks, name=path.name) == scan_file(_read_as_text(chunks), name=path.name)


def _games(tags: list[str]) -> str:
    return "".join(f"{t}\n1. c3-d4 f6-g5 2. d4-e5 *\n\n" for t in tags)


@pytest.mark.parametrize("tags, expected", [
    (['[Event "a"]'] * 3, None),  # no game names one: the moves decide
    (['[Event "a"]', '[GameType "25"]', '[Event "b"]'], ("russian",)),
    (['[GameType "25"]', '[Event "b"]', '[GameType "25"]'], ("russian",)),
    (['[Event "a"]', '[Event "b"]', '[GameType "30"]'], ("turkish",)),
])
def test_the_moves_are_read_only_where_no_game_names_its_variant(
        tmp_path: Path, tags: list[str], expected: tuple[str, ...] | None) -> None:
    from pdnkit.core import core_in_use

    if core_in_use() != "compiled":
        pytest.skip("the lane's chunks are the compiled core's (the pure core is in use)")
    src = tmp_path / "games.pdn"
    src.write_text(_games(tags), encoding="utf-8")
    chunks = _chunks(src)
    assert all(type(c) is LaneChunk for c in chunks if getattr(c, "text", ""))  # the lane's
    got = scan_file(chunks)
    assert got == scan_file(_read_as_text(chunks))
    assert isinstance(got, FileGuess)
    if expected is not None:
        assert got.candidates == expected
    else:  # guessed from the moves: alphanumeric squares on an 8x8 board
        assert "over the file's games" in got.why and "russian" in got.candidates
