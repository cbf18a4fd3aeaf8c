"""Shared fixtures. Tests that read the public test material in ``../shared/data`` use the
``shared_data`` fixture (or ``SHARED_DATA``) and skip cleanly when it is absent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("PDNKIT_SHARED_DATA", ROOT.parent / "shared" / "data"))


def shared_path(*parts: str) -> Path:
    """Path inside the shared test material; skips the calling test when it is missing."""
    p = SHARED_DATA.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"shared test data not available: {p}")
    return p


@pytest.fixture
def shared_data() -> Path:
    """The ``../shared/data`` folder (the test is skipped when it is absent)."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared test data not available: {SHARED_DATA}")
    return SHARED_DATA
