"""The validator, the rules engine, the row encoding, the store, the lake and the sample
generators type-check under ``mypy --strict`` (configuration in pyproject.toml), and the
validator keeps ``Any`` rare."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_mypy_strict_is_clean_on_the_validator_the_rules_and_the_stores() -> None:
    api = pytest.importorskip("mypy.api", reason="mypy is not installed (pip install -e .[test])")
    cache = Path(tempfile.gettempdir()) / "pdnkit-mypy-cache"
    out, err, status = api.run([
        "--strict", "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(cache),
        *(str(ROOT / "pdnkit" / name) for name in
          ("validation", "rules", "tables", "store", "lake", "samples")),
    ])
    assert status == 0, out + err


def test_the_validator_names_real_types() -> None:
    """``Any`` at most 15 times across the validator package."""
    files = sorted((ROOT / "pdnkit" / "validation").glob("*.py"))
    uses = sum(len(re.findall(r"\bAny\b", f.read_text(encoding="utf-8"))) for f in files)
    assert files and uses <= 15, uses
