"""The validator on the compiled core against the Python replay alone: the whole report of
every game (the jsonl object, findings, statuses, rule events, start and final positions,
ply records with moves and positions, a compact report's run) is the same, on every real
file, every sample of ``data/`` and the shared intl_2000 file (slow), in the modes a user
reaches (full reports, light ones, compact ones for the loader, ``irregular="stop"``). The
modes other than full reports run on a seeded sample (every sample of ``data/`` and one
smaller real file of each variant's folder) by default, and on the other files in the ``slow``
run.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.core.support import corpus_files
from tests.shared import SHARED_DATA, sample_games
from tests.validate.coreparity import COMPILED, dumps, first_difference, pure_core

pytestmark = pytest.mark.skipif(not COMPILED, reason="the compiled core is not built")

FILES = corpus_files()
INTL = SHARED_DATA / "bench" / "intl_2000.pdn"


def _same(source: object, deep: bool = True, **options: object) -> None:
    got = dumps(source, deep, **options)
    with pure_core():
        want = dumps(source, deep, **options)
    assert got, "no report"
    diff = first_difference(got, want)
    assert diff is None, diff


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_file_full_reports(path: Path) -> None:
    _same(path)


def _sample(files: list[Path], seed: int = 23, limit: int = 64 * 1024) -> list[Path]:
    """Every sample of ``data/`` (each variant's games) and, of each real variant folder, one
    file (a seeded pick) of those under ``limit`` bytes (the 11-man ballot files are not)."""
    rng = random.Random(seed)
    folders: dict[Path, list[Path]] = {}
    for p in files:
        folders.setdefault(p.parent, []).append(p)
    data = FILES[-1].parent if FILES else None
    picks = [p for folder, group in folders.items() if folder == data for p in group]
    for folder, group in folders.items():
        small = [p for p in group if p.stat().st_size < limit]
        if folder != data and small:
            picks.append(rng.choice(small))
    return sorted(picks)


@pytest.mark.parametrize("files", ["sample", pytest.param("rest", marks=pytest.mark.slow)])
def test_light_compact_and_stop_modes(files: str) -> None:
    if not FILES:
        pytest.skip("no corpus")
    sample = _sample(FILES)
    chosen = sample if files == "sample" else [p for p in FILES if p not in sample]
    if not chosen:  # the samples alone (no shared real files): every file is in the sample
        pytest.skip("no file outside the sample (the shared real files are not available)")
    paths = [str(p) for p in chosen]
    _same(paths, deep=False, light=True)
    _same(paths, compact=True)
    _same(paths, deep=False, irregular="stop")


@pytest.mark.slow
def test_intl_2000(tmp_path: Path) -> None:
    """Every game in full reports; light ones (on every real file in the two
    test_light_compact_and_stop_modes) on a seeded fifth of the games."""
    if not INTL.exists():
        pytest.skip("shared bench file not available")
    _same(INTL)
    _same(sample_games(INTL, tmp_path / "intl_400.pdn", 400), deep=False, light=True)
