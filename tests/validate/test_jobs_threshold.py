"""Workers only when they pay (decided on the measured rate of the first games and the free
cores, issue 25), batches bounded in bytes (issue 13, "Local parallelism")."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from pdnkit.pdn.split import split_text
from pdnkit.validation import jobs as jobs_mod
from pdnkit.validation import validate
from tests.pools import started_pools


def test_workers_are_never_started_for_a_few_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The prior on sizes alone: below a few hundred games' bytes, no worker is started."""
    monkeypatch.setattr(jobs_mod, "workers_can_pay", lambda: True)  # as on the pure core
    assert not jobs_mod.worth_workers([9_000] * 23, 2)  # about 230 games in all
    assert jobs_mod.worth_workers([20_000] * 23, 2)  # about 500: the measured rate decides
    assert jobs_mod.worth_workers([jobs_mod.PARALLEL_MIN_BYTES], 2)
    assert jobs_mod.worth_workers([jobs_mod.PARALLEL_MIN_BYTES // 2] * 2, 2)
    assert not jobs_mod.worth_workers([10 ** 9], 1)
    assert jobs_mod.worth_workers([100, None], 2)  # standard input: size unknown
    assert jobs_mod.worth_workers([100], 2, min_bytes=50)


def test_on_the_compiled_core_workers_get_parts_of_files(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    """Workers that read game texts cut here lose to one process on the compiled lane, so
    on the compiled core they are handed parts of a file's bytes instead (and any other
    input stays in this process); the pure core hands them game texts."""
    from pdnkit.validation.runoptions import RunOptions

    src = tmp_path / "a.pdn"
    src.write_text('[GameType "20"]\n1. 32-28 *\n\n' * 3, encoding="utf-8")
    monkeypatch.setattr("pdnkit.core.core_in_use", lambda: "compiled")
    assert not jobs_mod.workers_can_pay()
    assert jobs_mod.worth_workers([10 ** 9], 2) and jobs_mod.worth_workers([None], 2)
    parts = jobs_mod.file_parts(src, RunOptions())
    assert parts is not None and parts[-1].last and parts[-1].end == src.stat().st_size
    assert jobs_mod.file_parts(str(src.read_text()), RunOptions()) is None  # text: here
    monkeypatch.setattr("pdnkit.core.core_in_use", lambda: "pure")
    assert jobs_mod.workers_can_pay() and jobs_mod.file_parts(src, RunOptions()) is None


def test_workers_pay_by_the_measured_rate_and_the_free_cores() -> None:
    """The decision on measured figures (injected here, no timing): a second core must be
    free, and the games left must outweigh starting and feeding the workers."""
    pay = jobs_mod.workers_pay
    # 2 ms a game, 5,000 games left (10 s): a free core halves it
    assert pay(0.002, 5_000, 2, idle_cores=1.0)
    assert pay(0.002, 5_000, 2, idle_cores=1.0, start_cost=jobs_mod.POOL_START)
    # the same work on a machine whose other core is busy: never slower than serial
    assert not pay(0.002, 5_000, 2, idle_cores=0.2)
    assert not pay(0.002, 5_000, 2, idle_cores=0.0)
    assert not pay(0.002, 5_000, 1, idle_cores=8.0)  # one job: no workers
    # a few games left: the pool's start outweighs them; an existing pool does not
    assert not pay(0.002, 100, 2, idle_cores=1.0, start_cost=0.3)
    assert pay(0.002, 300, 2, idle_cores=1.0, start_cost=0.0)
    assert not pay(0.002, 0, 2, idle_cores=1.0)
    # a stream (games left unknown) with a free core: workers
    assert pay(0.002, None, 2, idle_cores=1.0)
    assert not pay(0.002, None, 2, idle_cores=0.3)
    # the workers' share of this process: twice as many cores is not twice as fast
    serial = 5_000 * 0.002
    assert pay(0.002, 5_000, 4, idle_cores=3.0)
    assert serial * (1 / 4 + jobs_mod.PARENT_SHARE) < serial * jobs_mod.MARGIN


def test_the_probe_reads_the_idle_cores_and_the_input_left() -> None:
    """:class:`Probe` turns a timed batch and the machine's idle ticks into the decision."""
    probe = jobs_mod.Probe(2, total=9_000_000, started=True)  # 9 MB of input
    probe.chars = 60_000  # what the probe batches read
    half_idle = ((100.0, 1_000.0, 2), (150.0, 1_100.0, 2))  # 50 of 100 ticks idle: 1 core
    busy = ((100.0, 1_000.0, 2), (105.0, 1_100.0, 2))  # 5 of 100 ticks idle
    # 48 games of 900 characters in 0.1 s: about 10,000 games left, 20 s of work
    assert probe.decide(0.1, 48, 43_200, *half_idle)
    assert not probe.decide(0.1, 48, 43_200, *busy)
    small = jobs_mod.Probe(2, total=80_000, started=False)  # what the probe read is all
    small.chars = 60_000
    assert not small.decide(0.1, 48, 43_200, *half_idle)
    stream = jobs_mod.Probe(2, total=None, started=False)
    assert stream.decide(0.1, 48, 43_200, *half_idle)
    assert not stream.decide(0.1, 48, 43_200, *busy)
    assert not stream.decide(0.1, 0, 0, *half_idle)  # nothing timed: stay


def test_a_probe_that_says_no_starts_no_worker(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers are started only when the measured rate says they pay; either way the
    reports are the serial ones, in file order."""
    from pdnkit.samples import sample_files

    started = started_pools(monkeypatch)
    monkeypatch.setattr(jobs_mod, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(jobs_mod, "workers_can_pay", lambda: True)
    files = sample_files()
    serial = [r.to_dict() for r in validate(files)]
    monkeypatch.setattr(jobs_mod, "workers_pay", lambda *a, **k: False)
    assert [r.to_dict() for r in validate(files, jobs=2, chunk_size=5)] == serial
    assert started == []
    monkeypatch.setattr(jobs_mod, "workers_pay", lambda *a, **k: True)
    assert [r.to_dict() for r in validate(files, jobs=2, chunk_size=5)] == serial
    assert started == [2]


def test_input_sizes(tmp_path: Path) -> None:
    a = tmp_path / "a.pdn"
    a.write_text("1. 32-28 *\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.pdn").write_text("1. 33-29 *\n\n", encoding="utf-8")
    assert sorted(jobs_mod.input_sizes(tmp_path)) == [11, 12]
    assert list(jobs_mod.input_sizes("1. 32-28 *")) == [10]


def test_small_input_stays_in_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    called = []
    monkeypatch.setattr(jobs_mod, "parallel_rows",
                        lambda *a, **k: called.append(1) or iter(()))
    p = tmp_path / "a.pdn"
    p.write_text("1. 32-28 *\n", encoding="utf-8")
    assert [r.status for r in validate(p, "international", jobs=2)] == ["ok"]
    assert called == []
    monkeypatch.setattr(jobs_mod, "PARALLEL_MIN_BYTES", 1)
    monkeypatch.setattr(jobs_mod, "workers_can_pay", lambda: True)
    assert list(validate(p, "international", jobs=2)) == []
    assert called == [1]


def test_batches_end_at_a_byte_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs_mod, "BATCH_CHARS", 40)
    text = "\n\n".join(f"1. 32-28 19-23 {i}. *" for i in range(10))  # ~20 chars a game
    longest = max(len(c.text) for c in split_text(text))

    def chars(batch: list[tuple[int, str, bool, list[object]]]) -> tuple[int, int]:
        return len(batch), sum(len(item[1]) for item in batch)

    with ThreadPoolExecutor(2) as pool:
        got = list(jobs_mod.run_batches(pool, split_text(text), 200, 4, chars))
    assert sum(n for n, _ in got) == 10 and len(got) >= 3  # not one batch of 10
    assert all(c < 40 + longest for _, c in got)


def test_a_busy_machine_decides_against_workers_before_the_probe() -> None:
    """The cores idle during a file's pre-scan: none free (a hog on the other core), and
    the run is the one process's at once; one free, or too few ticks to tell, and the probe
    decides on the measured rate."""
    busy = ((100.0, 1_000.0, 2), (100.5, 1_010.0, 2))  # 0.5 of 10 ticks idle: 0.1 core
    free = ((100.0, 1_000.0, 2), (105.0, 1_010.0, 2))  # 5 of 10 ticks idle: 1 core
    short = ((100.0, 1_000.0, 2), (100.0, 1_001.0, 2))  # one tick: nothing to tell
    for ticks, expected in ((busy, False), (free, None), (short, None), ((None, None), None)):
        probe = jobs_mod.Probe(2, total=9_000_000, started=False)
        probe.busy(*ticks)
        assert probe.use_workers is expected, ticks
