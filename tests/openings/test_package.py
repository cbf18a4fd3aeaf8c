"""The openings package ships its tables in the wheel and type-checks under ``mypy
--strict``."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from pdnkit.openings import table_index

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_wheel_ships_every_table(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                          str(tmp_path), str(ROOT)], capture_output=True, text=True)
    if run.returncode and "hatchling" in run.stderr.lower():
        pytest.skip("no build backend available: " + run.stderr[-200:])
    assert run.returncode == 0, run.stderr
    wheel = next(tmp_path.glob("pdnkit-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    wanted = {f"pdnkit/openings/tables/{t.file}" for t in table_index()}
    wanted |= {"pdnkit/openings/tables/index.csv", "pdnkit/openings/tables/README.md"}
    assert wanted <= names


