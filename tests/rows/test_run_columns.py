"""A plain run's columns cut from arrays (``pdnkit.rows.runs``) against the ply records a
full replay makes of the same run: the canonical notation (the short-form table and the core's
full-path plies against ``core_notation`` and the pure engine's record), the written move,
squares, path, captured pieces, flags, NAGs, comments, lines and the engine bitboards after
each ply, on every real file and sample (intl_2000 too, slow), compiled and pure."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pdnkit.rows.batch import moves_hash
from pdnkit.rows.bitboards import board_layout, square_bits
from pdnkit.rows.runs import PendingHash, hash_runs, run_chunk, run_columns
from pdnkit.validation import validate
from tests.core.support import corpus_files
from tests.shared import SHARED_DATA
from tests.validate.coreparity import COMPILED, pure_core

FILES = corpus_files()
INTL = SHARED_DATA / "bench" / "intl_2000.pdn"


def _expected(run: Any) -> dict[str, list[Any]]:
    recs = run.records()
    want: dict[str, list[Any]] = {k: [] for k in (
        "notation", "canonical", "origin", "destination", "path", "captured", "promotes",
        "king", "nags", "comment", "line", "numeric", "engine", "squares")}
    for r in recs:
        want["notation"].append(r.written)
        want["canonical"].append(r.notation)
        want["origin"].append(r.origin)
        want["destination"].append(r.destination)
        want["path"].append(list(r.path) if len(r.path) > 2 else None)
        want["captured"].append(list(r.captured))
        want["promotes"].append(bool(r.promotes))
        want["king"].append(r.piece == "king")
        want["nags"].append(list(r.nags) or None)
        want["comment"].append(r.comment)
        want["line"].append(r.line)
        want["numeric"].append(f"{r.origin}{'x' if r.captured else '-'}{r.destination}")
        after = r.position_after
        want["engine"].append(after.engine_bits)
        want["squares"].append(square_bits(after))
    return want


def _check(source: Path) -> int:
    """Compare every compact report's run of ``source`` in batches of 50; the runs seen."""
    seen = 0
    runs: list[Any] = []

    def flush() -> None:
        chunks = [run_chunk(r, board_layout(r.rules)) for r in runs]
        got = run_columns(chunks)
        want: dict[str, list[Any]] = {}
        for r in runs:
            for k, v in _expected(r).items():
                want.setdefault(k, []).extend(v)
        narrow = [max(board_layout(r.rules).engine_bits) < 64 for r in runs]
        bits = want.pop("squares") if got["squares"] else want.pop("engine")
        want.pop("engine", None)
        want.pop("squares", None)
        for name, values in want.items():
            col = got[name]
            have = col.to_pylist() if hasattr(col, "to_pylist") else col.tolist()
            assert have == values, (source.name, name)
        plies = [len(r) for r, ok in zip(runs, narrow, strict=True) if ok]
        keep = [b for r, ok in zip(runs, narrow, strict=True) if ok
                for b in bits[sum(map(len, runs[:runs.index(r)])):][:len(r)]]
        assert len(keep) == sum(plies)
        assert list(zip(*(map(int, p) for p in got["bits"]), strict=True)) == keep
        hashes: list[Any] = [PendingHash("v", None, c, ["x"]) for c in chunks]
        hash_runs(hashes, chunks, got["canonical"])
        for h, r in zip(hashes, runs, strict=True):
            assert h == moves_hash("v", None, [p.notation for p in r.records()] + ["x"])
        runs.clear()

    for rep in validate(source, compact=True):
        run = rep.plain
        if run is None or not len(run):
            continue
        runs.append(run)
        seen += 1
        if len(runs) == 50:
            flush()
    if runs:
        flush()
    return seen


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_file_compiled(path: Path) -> None:
    _check(path)


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_file_pure(path: Path) -> None:
    with pure_core():
        _check(path)


@pytest.mark.slow
def test_intl_2000() -> None:
    if not INTL.exists():
        pytest.skip("shared bench file missing")
    assert _check(INTL) == 2000


#: a capture whose short form another legal capture shares (RULES.md 4.5): the full path
FULL_PATH = ('[GameType "20"][FEN "W:WK47:B10,14,19,29,31,42"] 1. 47x38x20x9x36 10-15 '
             '2. 36-41 *')


@pytest.mark.skipif(not COMPILED, reason="the compiled core is not built")
def test_a_full_path_ply_of_a_run(tmp_path: Path) -> None:
    game = tmp_path / "full.pdn"
    game.write_text(FULL_PATH)
    assert _check(game) == 1
    with pure_core():  # (the Python replay keeps a full-path ply out of its run)
        _check(game)
    run = next(validate(FULL_PATH, compact=True)).plain
    assert run_columns([run_chunk(run, board_layout(run.rules))])["canonical"].to_pylist() == [
        "47x38x20x9x36", "10-15", "36-41"]


def test_the_runs_cover_the_compiled_core() -> None:
    """The corpus reaches the compiled core's runs of both kinds (the lane's text, nodes)."""
    if not COMPILED or not FILES:
        pytest.skip("no compiled core or corpus")
    from pdnkit.validation.coreplies import CoreRun, LaneFields

    kinds = set()
    for path in FILES:
        for rep in validate(path, compact=True):
            run = rep.plain
            if isinstance(run, CoreRun):
                kinds.add(type(run.fields) is LaneFields)
    assert kinds == {True, False}


@pytest.mark.skipif(not COMPILED, reason="the compiled core is not built")
def test_one_batch_of_runs_of_every_kind() -> None:
    """A batch mixing compiled runs of two boards (one with a full-path ply, written as
    hand-checked above) and Python runs: each ply's canonical notation is its own run's,
    in order, whatever the runs around it."""
    russian = '[GameType "25"] 1. c3-d4 f6-e5 2. d4:f6 g7:e5 *'
    intl = '[GameType "20"] 1. 32-28 19-23 2. 28x19 14x23 *'
    compiled = [next(validate(g, compact=True)).plain for g in (FULL_PATH, russian, intl)]
    with pure_core():
        python = [next(validate(g, compact=True)).plain for g in (russian, intl)]
    runs = [compiled[0], python[0], compiled[1], python[1], compiled[2], compiled[0]]
    assert all(r is not None for r in runs)
    chunks = [run_chunk(r, board_layout(r.rules)) for r in runs]
    got = run_columns(chunks)["canonical"].to_pylist()
    full = ["47x38x20x9x36", "10-15", "36-41"]
    assert got == [*full, "c3-d4", "f6-e5", "d4:f6", "g7:e5", "c3-d4", "f6-e5", "d4:f6",
                   "g7:e5", "32-28", "19-23", "28x19", "14x23", "32-28", "19-23", "28x19",
                   "14x23", *full]
    assert got == [n for r in runs for n in r.notations()]
