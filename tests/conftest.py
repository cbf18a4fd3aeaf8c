"""Shared fixtures. Tests that read ``../shared/data`` use ``tests.shared.shared_path`` or the
``shared_data`` fixture, and skip cleanly when that folder is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.shared import SHARED_DATA


@pytest.fixture
def shared_data() -> Path:
    """The ``../shared/data`` folder (the test is skipped when it is absent)."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared test data not available: {SHARED_DATA}")
    return SHARED_DATA
