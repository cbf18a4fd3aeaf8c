"""A worker's part of a file takes its clean games as a serial run takes them: through the
batch of clean games (:class:`pdnkit.validation.cleanbatch.CleanBatch`), the validator
replaying only the games the batch refuses, and the reports are the serial run's, field by
field. Seeded random games of several variants, with right, wrong and unknown results."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pdnkit.validation import GameReport, RunOptions, validate
from pdnkit.validation import parts as parts_module
from pdnkit.validation import pipeline as pipeline_module
from pdnkit.validation.collect import Reports
from pdnkit.validation.jobs import file_parts
from pdnkit.validation.parts import FileOrder, WorkContext, span_work
from pdnkit.validation.pipeline import file_guess_of
from pdnkit.verdict.facts import compiled_core
from tests.validate.gengames import random_game

pytestmark = pytest.mark.skipif(compiled_core() is None,
                                reason="parts of a file's bytes and the batch: compiled core")

KINDS = (("international", 20), ("english", 21), ("russian", 25), ("brazilian", 26))


def _file(tmp_path: Path, seed: int) -> Path:
    rng = random.Random(seed)
    games = []
    for _ in range(160):
        name, gametype = rng.choice(KINDS)
        games.append(random_game(name, gametype, rng))
    path = tmp_path / f"games-{seed}.pdn"
    path.write_text("\n\n".join(games) + "\n", encoding="utf-8")
    return path


def _counting(module: object, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the validator's replays of records called from ``module``."""
    calls: list[int] = []
    real = module.replay_with  # type: ignore[attr-defined]

    def counted(record, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(record.index)
        return real(record, *args, **kwargs)

    monkeypatch.setattr(module, "replay_with", counted)
    return calls


def _in_parts(path: Path, options: RunOptions) -> list[GameReport]:
    spans = file_parts(path, options, size=4096)
    assert spans is not None and len(spans) > 1
    ctx = WorkContext(str(path), "utf-8", options, file_guess_of(path, options), Reports)
    order = FileOrder(str(path), Reports)
    return [rep for span in spans for rows in order.take(span_work(span, ctx))
            for rep in rows]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_workers_clean_games_are_not_replayed_by_the_validator(
        tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _file(tmp_path, seed)
    options = RunOptions(light=True)
    serial_calls = _counting(pipeline_module, monkeypatch)
    serial = list(validate(str(path), light=True))
    part_calls = _counting(parts_module, monkeypatch)
    got = _in_parts(path, options)
    assert [list(r.__dict__.items()) for r in got] == \
        [list(r.__dict__.items()) for r in serial]
    taken = len(serial) - len(serial_calls)
    assert taken > len(serial) // 3  # (the seeded games: many clean ones)
    assert len(part_calls) == len(serial_calls)  # the same games refused, no more
