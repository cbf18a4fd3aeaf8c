"""A worker that fails never stops a run (issue 25): a fault while a worker reads or
replays its part of a file (the reader raising on hostile bytes), or a worker killed, and
``pdnkit validate --jobs 2`` still writes what ``--jobs 1`` writes, byte for byte, and exits
as it does. The faults are real (a real pool of forked workers, which inherit the faulty
reader), only the reader is faked."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdnkit.core import core_in_use
from pdnkit.pdn import reader
from pdnkit.pdn.record import GameRecord
from pdnkit.validation import costs as costs_mod
from pdnkit.validation import jobs as jobs_mod
from pdnkit.validation import parts as parts_mod
from tests.shared import shared_path

compiled = pytest.mark.skipif(core_in_use() != "compiled", reason="the compiled core is not built")

#: the Event of the game the faulty reader stumbles on
HOSTILE = "HOSTILE bytes"


def _games(tmp_path: Path, size: int = 40_000, at: float = 2 / 3) -> Path:
    """About ``size`` bytes of real games, one of them (``at`` that share of the file, past
    its first game) marked hostile."""
    data = shared_path("bench", "intl_2000.pdn").read_bytes()[:size]
    games = data[:data.rindex(b"\n\n[") + 2].split(b"\n\n[")
    middle = max(1, int(len(games) * at))
    games[middle] = f'Event "{HOSTILE}"]\n'.encode() + games[middle].split(b"]\n", 1)[1]
    src = tmp_path / "games.pdn"
    src.write_bytes(b"\n\n[".join(games))
    return src


def _workers_always(monkeypatch: pytest.MonkeyPatch, size: int = 3_000) -> None:
    """Parts of about ``size`` bytes, the first read here and the rest by workers whatever
    the probe measures."""
    for name, value in [("PROBE_SPANS", (size,)), ("SPAN_BYTES", size)]:
        monkeypatch.setattr(jobs_mod, name, value)
    for name, value in [("PROBE_SECONDS", 0.0), ("PROBE_WARMUP", 0), ("PROBE_GAMES", 1),
                        ("PARALLEL_MIN_BYTES", 0)]:
        monkeypatch.setattr(costs_mod, name, value)
    monkeypatch.setattr(costs_mod, "workers_pay", lambda *a, **k: True)


def _faulty_reader(monkeypatch: pytest.MonkeyPatch, seen: Path,
                   fault: Callable[[], None], workers_only: bool) -> None:
    """The reader calls ``fault()`` on the hostile game (in the workers only, or in every
    process), after leaving a file named by its process id in ``seen``."""
    real = reader.is_stray_text
    parent = os.getpid()

    def stumbling(rec: GameRecord) -> bool:
        if ("Event", HOSTILE) in list(rec.tags) and (os.getpid() != parent or not workers_only):
            (seen / str(os.getpid())).touch()
            fault()
        return real(rec)

    monkeypatch.setattr(reader, "is_stray_text", stumbling)


def _faulty_parser(monkeypatch: pytest.MonkeyPatch, seen: Path,
                   fault: Callable[[], None]) -> None:
    """The game parser (the pure core's batches) calls ``fault()`` on the hostile game in a
    worker, after leaving a file named by its process id in ``seen``."""
    real = reader.parse_game
    parent = os.getpid()

    def stumbling(text: str, *args: object, **kwargs: object) -> GameRecord:
        if HOSTILE in text and os.getpid() != parent:
            (seen / str(os.getpid())).touch()
            fault()
        return real(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(reader, "parse_game", stumbling)


def _raise() -> None:
    raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "hostile bytes")


def _killed() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _hangs() -> None:
    time.sleep(600)


def _gone(pid: int) -> bool:
    """The process ``pid`` has ended (and was reaped by its pool)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def _validate(src: Path, jobs: int, out: Path, *extra: str) -> tuple[int, bytes]:
    """``pdnkit validate`` with ``jobs``: its exit code and what it wrote (JSON lines)."""
    from pdnkit.cli import app

    res = CliRunner().invoke(app, ["validate", str(src), "--jobs", str(jobs), "--format",
                                   "jsonl", "-o", str(out), *extra])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    return res.exit_code, out.read_bytes()


@compiled
@pytest.mark.parametrize("fault", [_raise, _killed], ids=["raised", "killed"])
def test_a_failing_worker_gives_what_one_process_gives(
        fault: Callable[[], None], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker raises (or dies) on one part of each of two files: that part, and for a
    killed worker every part not delivered (the rest of the run: the pool is broken), is
    read here; the output and the exit code are those of one process."""
    src = tmp_path / "files"
    src.mkdir()
    for name in ("a.pdn", "b.pdn"):
        _games(tmp_path).rename(src / name)
    one = _validate(src, 1, tmp_path / "one.jsonl")
    assert b"internal-error" not in one[1]
    _workers_always(monkeypatch)
    seen = tmp_path / "seen"
    seen.mkdir()
    _faulty_reader(monkeypatch, seen, fault, workers_only=True)
    assert _validate(src, 2, tmp_path / "two.jsonl") == one
    stumbled = {p.name for p in seen.iterdir()}
    assert stumbled and str(os.getpid()) not in stumbled  # workers, not this process
    if fault is _killed:  # one worker, on the first file: the second is read here
        assert len(stumbled) == 1


@compiled
@pytest.mark.parametrize("at", [0.0, 2 / 3], ids=["probed here", "in a worker"])
def test_a_part_no_process_can_read_ends_the_file_as_one_process_does(
        at: float, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader fails on the hostile game wherever it reads it: one process ends the file
    there with its report of a file it cannot read (the games after it lost); with workers,
    the part comes back here (or was read here by the probe), fails, and the run ends the
    file just the same."""
    src = _games(tmp_path, at=at)
    seen = tmp_path / "seen"
    seen.mkdir()
    _faulty_reader(monkeypatch, seen, _raise, workers_only=False)
    # (the verdict on a clean file reads it without the reader that fails here)
    monkeypatch.setattr("pdnkit.lean.verdict.clean_files", lambda paths: None)
    one = _validate(src, 1, tmp_path / "one.jsonl")
    assert one[0] == 1 and one[1].count(b"internal-error") == 1
    last = one[1].splitlines()[-1]
    assert b"reading this file" in last and b"hostile bytes" in last
    _workers_always(monkeypatch)
    assert _validate(src, 2, tmp_path / "two.jsonl") == one
    stumbled = len(list(seen.iterdir()))
    assert stumbled == (1 if at == 0.0 else 2)  # this process; then a worker, past the probe


def test_a_killed_worker_on_the_pure_path_gives_what_one_process_gives(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of game texts (the pure core's way): a worker killed on one batch, and the
    batches not collected are read here; the reports are those of one process."""
    from pdnkit.validation import validate

    src = _games(tmp_path, 20_000)
    monkeypatch.setattr(costs_mod, "workers_can_pay", lambda: True)
    _workers_always(monkeypatch)
    clean = [r.to_dict() for r in validate(src, light=True, jobs=2, chunk_size=4)]
    assert clean == [r.to_dict() for r in validate(src, light=True)]
    seen = tmp_path / "seen"
    seen.mkdir()
    _faulty_parser(monkeypatch, seen, _killed)
    assert [r.to_dict() for r in validate(src, light=True, jobs=2, chunk_size=4)] == clean
    assert len(list(seen.iterdir())) == 1  # a worker was killed


@compiled
def test_a_hanging_worker_is_stopped_and_its_part_read_here(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that never ends its part: after the stall time its workers are stopped,
    that part and every part not delivered are read here, and the run gives what one
    process gives; no worker is left behind."""
    src = _games(tmp_path)
    one = _validate(src, 1, tmp_path / "one.jsonl")
    _workers_always(monkeypatch)
    monkeypatch.setattr(parts_mod, "STALL_SECONDS", 3.0)
    seen = tmp_path / "seen"
    seen.mkdir()
    _faulty_reader(monkeypatch, seen, _hangs, workers_only=True)
    started = time.monotonic()
    assert _validate(src, 2, tmp_path / "two.jsonl") == one
    assert time.monotonic() - started < 120  # not the 600 s the worker sleeps
    hung = [int(p.name) for p in seen.iterdir()]
    assert len(hung) == 1 and hung[0] != os.getpid() and _gone(hung[0])


def test_a_hanging_worker_on_the_pure_path_is_stopped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of game texts: a worker that hangs on one batch is stopped after the stall
    time, and that batch and the ones not collected are read here."""
    from pdnkit.validation import validate

    src = _games(tmp_path, 20_000)
    monkeypatch.setattr(costs_mod, "workers_can_pay", lambda: True)
    _workers_always(monkeypatch)
    monkeypatch.setattr(parts_mod, "STALL_SECONDS", 3.0)
    clean = [r.to_dict() for r in validate(src, light=True)]
    seen = tmp_path / "seen"
    seen.mkdir()
    _faulty_parser(monkeypatch, seen, _hangs)
    assert [r.to_dict() for r in validate(src, light=True, jobs=2, chunk_size=4)] == clean
    hung = [int(p.name) for p in seen.iterdir()]
    assert len(hung) == 1 and _gone(hung[0])
