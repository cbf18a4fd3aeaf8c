"""Workers only when they pay, batches bounded in bytes (issue 13, "Local parallelism")."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from pdnkit.pdn.split import split_text
from pdnkit.validation import jobs as jobs_mod
from pdnkit.validation import validate


def test_decision_by_total_size() -> None:
    small = [20_000] * 23  # a folder of 23 small files
    assert not jobs_mod.worth_workers(small, 2)
    assert jobs_mod.worth_workers([jobs_mod.PARALLEL_MIN_BYTES], 2)
    assert jobs_mod.worth_workers([jobs_mod.PARALLEL_MIN_BYTES // 2] * 2, 2)
    assert not jobs_mod.worth_workers([10 ** 9], 1)
    assert jobs_mod.worth_workers([100, None], 2)  # standard input: size unknown
    assert jobs_mod.worth_workers([100], 2, min_bytes=50)


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
    assert list(validate(p, "international", jobs=2)) == []
    assert called == [1]


def test_batches_end_at_a_byte_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs_mod, "BATCH_CHARS", 40)
    text = "\n\n".join(f"1. 32-28 19-23 {i}. *" for i in range(10))  # ~20 chars a game
    longest = max(len(c.text) for c in split_text(text))

    def chars(batch: list[tuple[int, str, bool, list[object]]]) -> tuple[int, int]:
        return len(batch), sum(len(t) for _, t, _, _ in batch)

    with ThreadPoolExecutor(2) as pool:
        got = list(jobs_mod.run_batches(pool, split_text(text), 200, 4, chars))
    assert sum(n for n, _ in got) == 10 and len(got) >= 3  # not one batch of 10
    assert all(c < 40 + longest for _, c in got)
