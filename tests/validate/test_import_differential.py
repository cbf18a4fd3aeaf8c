"""The imported database on the compiled core is the one the pure core makes: every table of
an import of the samples (``data/``), compiled in this process and ``PDNKIT_PURE=1`` in
another, row for row (times aside)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import pdnkit
from pdnkit import core
from tests.dbtables import tables

duckdb = pytest.importorskip("duckdb")
DATA = sorted((Path(__file__).resolve().parents[2] / "data").glob("*.pdn"))


@pytest.mark.skipif(core.core_in_use() != "compiled", reason="the compiled core is not built")
def test_the_database_is_the_pure_cores(tmp_path: Path) -> None:
    assert DATA
    compiled, pure = tmp_path / "c.duckdb", tmp_path / "p.duckdb"
    pdnkit.import_files(DATA, compiled)
    code = ("import sys, pdnkit\n"
            "pdnkit.import_files(sys.argv[2:], sys.argv[1])\n")
    env = {**os.environ, "PDNKIT_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code, str(pure), *map(str, DATA)],
                         capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    a, b = tables(compiled), tables(pure)
    assert a.keys() == b.keys()
    for name in a:
        assert a[name] == b[name], name
