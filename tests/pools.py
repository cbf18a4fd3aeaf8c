"""Counting the worker pools a run starts (``pdnkit._children.process_pool``), for the tests
that say when ``--jobs`` starts workers and when it does not."""

from __future__ import annotations

import pytest


def started_pools(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that gets the number of workers of each pool started from now on (the pools
    are real: only the call is counted)."""
    import pdnkit._children as children

    started: list[int] = []
    real = children.process_pool

    def counted(jobs: int, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        started.append(jobs)
        return real(jobs, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(children, "process_pool", counted)
    return started


def workers_always(monkeypatch: pytest.MonkeyPatch, size: int) -> list[int]:
    """Parts of about ``size`` bytes, every part after the first to the workers whatever the
    cost model's probe measures; the list of :func:`started_pools`."""
    from pdnkit.validation import costs as costs_mod
    from pdnkit.validation import jobs as jobs_mod

    started = started_pools(monkeypatch)
    monkeypatch.setattr(jobs_mod, "PROBE_SPANS", (size,))
    monkeypatch.setattr(jobs_mod, "SPAN_BYTES", size)
    monkeypatch.setattr(costs_mod, "PROBE_SECONDS", 0.0)
    monkeypatch.setattr(costs_mod, "PROBE_WARMUP", 0)
    monkeypatch.setattr(costs_mod, "PROBE_GAMES", 1)
    monkeypatch.setattr(costs_mod, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(costs_mod, "workers_pay", lambda *a, **k: True)
    return started
