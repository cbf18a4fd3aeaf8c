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
