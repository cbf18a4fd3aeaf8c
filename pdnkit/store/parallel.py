"""Parallel import: worker processes parse and replay slices of a file; the caller writes.

Example:
    >>> isinstance(available(), bool)
    True
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any


def available() -> bool:
    """True when the PDN splitter needed to cut files into slices is there."""
    return False


def batches(path: Path, variant: str | None, edition: str | None,
            jobs: int) -> Iterator[tuple[dict[str, Any], Any]]:
    """(Arrow tables, batch stats) for each slice of ``path``, built by ``jobs`` workers."""
    raise NotImplementedError
