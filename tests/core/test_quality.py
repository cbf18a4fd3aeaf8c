"""The core's Python face type-checks under ``mypy --strict`` and its C compiles without a
warning under ``-Wall -Wextra`` (both ``slow``: they run the tools)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_mypy_strict_is_clean_on_the_core() -> None:
    api = pytest.importorskip("mypy.api", reason="mypy is not installed (pip install -e .[test])")
    cache = Path(tempfile.gettempdir()) / "pdnkit-mypy-cache-core"
    limit = sys.getrecursionlimit()  # mypy raises it for the whole process: put it back
    try:
        out, err, status = api.run([
            "--strict", "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(cache),
            str(ROOT / "pdnkit" / "core"), str(ROOT / "pdnkit" / "rules" / "tables.py"),
        ])
    finally:
        sys.setrecursionlimit(limit)
    assert status == 0, out + err


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
