"""The core's C compiles without a warning under ``-Wall -Wextra`` (``slow``: it runs the
compiler; ``mypy --strict`` over the whole package, the core's Python face included, is in
``tests/test_types.py``)."""

from __future__ import annotations

import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_c_sources_compile_without_warnings(tmp_path: Path) -> None:
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler")
    src = sorted((ROOT / "pdnkit" / "core" / "src").glob("*.c"))
    for c in src:  # compiled for real: some warnings (unused functions) come after parsing
        res = subprocess.run([cc, "-c", "-std=c11", "-O2", "-Wall", "-Wextra", "-Wpedantic",
                              "-Wshadow", "-Werror", f"-I{sysconfig.get_paths()['include']}",
                              str(c), "-o", str(tmp_path / (c.stem + ".o"))],
                             capture_output=True, text=True)
        assert res.returncode == 0, res.stderr
