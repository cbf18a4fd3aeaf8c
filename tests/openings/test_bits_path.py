"""The import's opening classification reads the compiled core's bitboards (``game_bits``,
``OpeningBook.classify_bits``) instead of a position object per ply: it must label every game
as the position path (``classify_record`` on the full replay) does. Checked on every real file
of ``../shared/data/real`` (each variant folder, colour-swapped PlayStrategy games, 11-man
ballot starts, problem set-ups, games stopped by an illegal move) and on hand-made games that
stop, resume and transpose.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdnkit.openings import (
    classify_record,
    game_bits,
    game_positions,
    load_tables,
    square_bits,
)
from pdnkit.openings.labels import GameOpening, label_report
from pdnkit.rules import UnknownVariantError
from pdnkit.validation import GameReport, validate
from tests.shared import SHARED_DATA


def _folders() -> list[Path]:
    real = SHARED_DATA / "real"
    return sorted(p for p in real.iterdir() if p.is_dir()) if real.is_dir() else []


def _position_label(report: GameReport) -> GameOpening:
    """The label by the position path: a position object per ply, the shipped tables."""
    try:
        book = load_tables(str(report.variant))
    except UnknownVariantError:
        return GameOpening()
    if not len(book):
        return GameOpening()
    return GameOpening.of(classify_record(report, book), None)


def _same_labels(source: str | Path, variant: str | None = None) -> int:
    """Label every game of ``source`` both ways and require equal columns; the count."""
    compact = list(validate(source, variant, compact=True))
    full = list(validate(source, variant))
    assert len(compact) == len(full)
    for c_rep, f_rep in zip(compact, full, strict=True):
        where = (c_rep.file, c_rep.index)
        assert list(game_bits(c_rep)) == [square_bits(p) for p in game_positions(f_rep)], where
        assert label_report(c_rep, []) == _position_label(f_rep), where
    return len(compact)


@pytest.mark.parametrize("folder", _folders(), ids=lambda p: p.name)
def test_bits_path_labels_every_real_game_as_the_position_path(folder: Path) -> None:
    assert _same_labels(folder, folder.name) > 0


def test_bits_path_reads_past_a_stop_ply() -> None:
    # ply 3 is illegal (32-28 again): the core stops, Python reports it; nothing after
    text = '[GameType "25"] 1. cd4 ba5 2. cd4 d:b4 *'
    assert _same_labels(text) == 1
    # an ambiguous capture the Python replay resolves by its path, then the core resumes
    text = '[GameType "21"] 1. 9-13 22-18 2. 6-9 *\n\n[GameType "21"] 1. 11-15 23-19 8-11 *'
    assert _same_labels(text) == 2


def test_bits_path_finds_a_ballot_reached_by_another_move_order() -> None:
    # ACF 6 (9-13 22-18 10-14) with Black's two moves swapped: the same position at ply 3
    orders = ['[GameType "21"] 1. 9-13 22-18 2. 10-14 18x9 3. 5x14 *',
              '[GameType "21"] 1. 10-14 22-18 2. 9-13 18x9 3. 5x14 *']
    labels = [label_report(next(validate(t, compact=True)), []) for t in orders]
    assert [(x.code, x.ply) for x in labels] == [("ACF 6", 3), ("ACF 6", 3)]
    assert sum(_same_labels(t) for t in orders) == 2
