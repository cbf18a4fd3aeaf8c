"""The validator's worker processes, under their former name (the database loader uses them):
everything lives in :mod:`pdnkit.validation.jobs` (no logic here)."""

from __future__ import annotations

from pdnkit.validation.jobs import (
    _chunks,
    _Order,
    _renumber,
    _work,
    default_jobs,
    run_batches,
    validate_parallel,
)

__all__ = ["_Order", "_chunks", "_renumber", "_work", "default_jobs", "run_batches",
           "validate_parallel"]
