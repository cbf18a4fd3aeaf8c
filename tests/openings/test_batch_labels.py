"""The import labels most games a batch at a time (``BatchOpenings``: the compiled core's
square bitboards of a whole batch hashed with numpy, only the plies that reach a table
position looked up). It must give every game the columns the per-game path
(``label_report``) gives: checked on every real file of ``../shared/data/real`` (each
variant folder: colour-swapped games, set-up starts, games stopped by an illegal move, games
with opening tags), on the seeded samples of ``data/``, on colour-swapped games made from
the ACF ballots, and through the row batch's take-back and merge.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pdnkit.openings import load_tables
from pdnkit.openings.labels import OPENING_COLUMNS, BatchOpenings, label_report
from pdnkit.pdn.tags import unique_tags
from pdnkit.rows.batch import ReportBatch
from pdnkit.validation import GameReport, validate
from tests.shared import SHARED_DATA

SAMPLES = Path(__file__).resolve().parents[2] / "data"


def _sources() -> list[Path]:
    real = SHARED_DATA / "real"
    folders = sorted(p for p in real.iterdir() if p.is_dir()) if real.is_dir() else []
    return folders + sorted(SAMPLES.glob("*.pdn"))


def _tags(report: GameReport) -> list[tuple[str, str]]:
    return unique_tags(getattr(report.record, "tags", None) or [])


def _columns(labels: Any) -> tuple[Any, ...]:
    return (labels.code, labels.name, labels.ply, labels.family, labels.mirrored)


def _batched(reports: list[GameReport], with_tags: bool) -> tuple[list[tuple[Any, ...]], int]:
    """Every game's columns through one :class:`BatchOpenings` (in batches of 50), and how
    many games waited for their batch."""
    cols: dict[str, list[Any]] = {c: [] for c in OPENING_COLUMNS}
    labels, waited = BatchOpenings(), 0
    for i, rep in enumerate(reports):
        labels.add(cols, rep, _tags(rep) if with_tags else [])
        if i % 50 == 49 or i == len(reports) - 1:
            waited += len(labels)
            labels.settle(cols)
    return list(zip(*(cols[c] for c in OPENING_COLUMNS), strict=True)), waited


@pytest.mark.parametrize("source", _sources(), ids=lambda p: p.name)
@pytest.mark.parametrize("with_tags", [True, False], ids=["tags", "no-tags"])
def test_batch_labels_equal_the_per_game_labels(source: Path, with_tags: bool) -> None:
    reports = list(validate(source, source.name if source.is_dir() else None, compact=True))
    got, _ = _batched(reports, with_tags)
    for rep, row in zip(reports, got, strict=True):
        want = label_report(rep, _tags(rep) if with_tags else [])
        assert row == _columns(want), (rep.file, rep.index)


def test_most_games_of_the_samples_wait_for_their_batch() -> None:
    """The batch path is the one the import takes: every replayed game of the samples
    without an opening tag waits (the test above would pass on the per-game path alone)."""
    reports = [r for f in sorted(SAMPLES.glob("*.pdn")) for r in validate(f, compact=True)]
    assert reports
    _, waited = _batched(reports, with_tags=False)
    core_runs = sum(1 for r in reports if getattr(getattr(r, "plain", None), "rep", None)
                    is not None and load_tables(str(r.variant)).entries)
    assert core_runs > 0 and waited >= core_runs * 0.9


def _swapped_game(line: str) -> str:
    """An English game of ``line`` recorded with the colours swapped (the starting
    placement with White to move and every square turned round), as PlayStrategy exports."""
    moves = []
    for tok in line.split():
        sep = "x" if "x" in tok else "-"
        moves.append(sep.join(str(33 - int(s)) for s in tok.split(sep)))
    body = " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))
    return f'[GameType "21"]\n[FEN "W:W21-32:B1-12"]\n{body} *\n'


def test_colour_swapped_games_are_turned_round_in_the_batch() -> None:
    book = load_tables("english")
    ballots = [e for e in book.entries if e.family == "acf-3move" and e.fen is None][:40]
    assert ballots
    text = "\n".join(_swapped_game(" ".join(e.notation)) for e in ballots)
    reports = list(validate(text, compact=True))
    got, waited = _batched(reports, with_tags=False)
    assert waited == len(ballots)  # the compiled core replayed them; none labelled at once
    for rep, row, e in zip(reports, got, ballots, strict=True):
        assert row == _columns(label_report(rep, [])), rep.index
        assert row[4] is True and row[0] == e.full_code  # read mirrored: the ballot itself


def test_a_game_taken_back_leaves_no_waiting_row(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose rows fail after its opening waited goes in again without moves: the row
    it had kept must not be filled later (the next game's opening would shift)."""
    text = "\n".join(f'[GameType "21"][Round "{i}"] 1. 11-15 23-19 8-11 22-17 4-8 *'
                     for i in range(3)).replace('[Round "1"] 1. 11-15', '[Round "1"] 1. 9-13')
    reports = list(validate(text, compact=True))
    from pdnkit.rows import batch as rows

    real = rows.start_position_info
    calls = {"n": 0}

    def failing(*args: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("a fault of pdnkit's")
        return real(*args)

    monkeypatch.setattr(rows, "start_position_info", failing)
    batch = ReportBatch()
    for rep in reports:
        batch.add(rep)
    tables = batch.to_arrow()["games"].to_pydict()
    assert tables["opening_code"][0] == tables["opening_code"][2] == "ACF 126"
    assert tables["opening_code"][1] is None  # the taken-back game: no moves, no opening
    assert len(batch.openings) == 0


def test_merged_batches_settle_their_waiting_games_in_place() -> None:
    text = ('[GameType "21"] 1. 11-15 23-19 8-11 22-17 4-8 *\n'
            '[GameType "21"] 1. 9-13 22-18 6-9 *\n')
    first, second = ReportBatch(), ReportBatch()
    reps = list(validate(text, compact=True))
    first.add(reps[0])
    second.add(reps[1])
    first.extend(second)
    games = first.to_arrow()["games"].to_pydict()
    assert games["opening_name"] == ["Old Fourteenth", "Dreaded Edinburgh"]
