"""The batch of clean games (:mod:`pdnkit.validation.cleanbatch`) held to the general path:
every light report of seeded random games of every variant the verdict takes, of seeded
mutations of them and of the real files, field by field (and in field order) equal to the
report the validator makes with the batch switched off (``PDNKIT_BATCH=0``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from pdnkit.pdn import read_games
from pdnkit.validation import GameReport, RunOptions, validate
from pdnkit.validation.cleanbatch import CleanBatch
from pdnkit.verdict.facts import compiled_core
from pdnkit.verdict.startdata import STARTS
from tests.shared import shared_path
from tests.validate.gengames import EDGES, FOLDERS, random_game, real_games


def _reports(path: Path, on: bool, monkeypatch: pytest.MonkeyPatch,
             **options: object) -> list[GameReport]:
    with monkeypatch.context() as m:
        m.setenv("PDNKIT_BATCH", "1" if on else "0")
        return list(validate(str(path), light=True, **options))  # type: ignore[arg-type]


def _fields(rep: GameReport) -> list[tuple[str, object]]:
    return list(rep.__dict__.items())


def _taken(path: Path) -> int:
    """How many games of ``path`` the batch makes the report of."""
    batch = CleanBatch.for_run(RunOptions(light=True))
    assert batch is not None
    return sum(batch.report(rec) is not None for rec in read_games(path))


def _held(path: Path, monkeypatch: pytest.MonkeyPatch, **options: object) -> int:
    """Hold the light reports of ``path`` with the batch to those without, field by field;
    the number of games the batch took."""
    got = _reports(path, True, monkeypatch, **options)
    ref = _reports(path, False, monkeypatch, **options)
    assert len(got) == len(ref), path
    for a, b in zip(got, ref, strict=True):
        assert _fields(a) == _fields(b), (path, b.index, b.findings)
        assert a.to_dict() == b.to_dict()
    return _taken(path) if (compiled_core() is not None) else 0


def _codes_taken(path: Path) -> set[str]:
    """The finding codes of the reports the batch makes for ``path``'s games."""
    batch = CleanBatch.for_run(RunOptions(light=True))
    assert batch is not None
    return {f.code for rec in read_games(path) for f in
            getattr(batch.report(rec), "findings", ())}


def _mutated(games: list[str], rng: random.Random) -> Iterator[str]:
    for g in games:
        yield rng.choice(EDGES)(rng.choice(EDGES)(g, rng), rng)


@pytest.mark.parametrize("gametype", sorted(STARTS))
def test_random_games_of_every_variant(gametype: int, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(1000 + gametype)
    games = [random_game(STARTS[gametype][0], gametype, rng) for _ in range(40)]
    path = tmp_path / "gen.pdn"
    path.write_text("\n".join(games), encoding="utf-8")
    taken = _held(path, monkeypatch)
    mutated = tmp_path / "mutated.pdn"
    mutated.write_text("\n".join(_mutated(games, rng)), encoding="utf-8")
    taken += _held(mutated, monkeypatch)
    assert taken > 0 or not (compiled_core() is not None)


def test_drawn_games_with_their_finding(tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # a drawn game's one finding (draw-unsupported here: random games reach no draw rule)
    # is the batch's too, made by the validator's judge_draws: held to the general path
    if compiled_core() is None:
        pytest.skip("the batch runs on the compiled core")
    rng = random.Random(3535)
    games = [random_game(STARTS[gametype][0], gametype, rng)
             for gametype in sorted(STARTS) for _ in range(12)]
    path = tmp_path / "drawn.pdn"
    path.write_text("\n".join(games), encoding="utf-8")
    assert _held(path, monkeypatch) > 0
    assert _codes_taken(path) == {"draw-unsupported"}


def test_options_the_batch_leaves_to_the_general_path(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    path = tmp_path / "gen.pdn"
    path.write_text("\n".join(random_game("international", 20, rng) for _ in range(20)),
                    encoding="utf-8")
    assert _held(path, monkeypatch, ignore=["draw-by-rule"]) >= 0
    assert _held(path, monkeypatch, result_convention="white") >= 0
    for options in (RunOptions(), RunOptions(light=True, compact=True),
                    RunOptions(light=True, variant="international"),
                    RunOptions(light=True, edition="default"),
                    RunOptions(light=True, irregular="stop"),
                    RunOptions(light=True, result_convention="white")):
        assert CleanBatch.for_run(options) is None, options
    with monkeypatch.context() as m:
        m.setenv("PDNKIT_BATCH", "0")
        assert CleanBatch.for_run(RunOptions(light=True)) is None


@pytest.mark.slow
def test_seeded_mutations_of_real_files(tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = shared_path("real")
    rng = random.Random(35)
    taken = 0
    for path in sorted(p for p in folder.rglob("*.pdn") if p.is_file()):
        taken += _held(path, monkeypatch)
        gametype = FOLDERS.get(path.parent.name)
        games = real_games(path)
        if gametype is None or not games:
            continue
        picked = []
        for g in rng.sample(games, min(len(games), 12)):
            if "[GameType " not in g:
                g = g.replace("[Event ", f'[GameType "{gametype}"]\n[Event ', 1)
            picked.append(g)
        out = tmp_path / f"{path.parent.name}-{path.stem}.pdn"
        encoding = rng.choice(("utf-8", "utf-8", "utf-8", "cp1252"))
        bom = "\ufeff" if encoding == "utf-8" and rng.random() < 0.3 else ""
        out.write_bytes((bom + "\n".join(_mutated(picked, rng))).encode(encoding, "replace"))
        taken += _held(out, monkeypatch)
    assert taken > 0 or not (compiled_core() is not None)


@pytest.mark.slow
def test_the_benchmark_file(monkeypatch: pytest.MonkeyPatch) -> None:
    path = shared_path("bench") / "intl_2000.pdn"
    if not path.is_file():
        pytest.skip("no benchmark file")
    taken = _held(path, monkeypatch)
    assert taken > 1900 or not (compiled_core() is not None)
    if compiled_core() is not None:  # (the drawn games' findings held above too)
        assert _codes_taken(path) == {"draw-by-rule", "draw-unsupported"}
