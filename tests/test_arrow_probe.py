"""pyarrow without its pandas import (:mod:`pdnkit._arrow`): nothing pdnkit's import does
loads pandas, and pandas imported afterwards converts exactly as in a process where pyarrow
probed for it the usual way."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.imported import modules_after

#: conversions whose result depends on pyarrow knowing pandas: strings, categoricals,
#: time zones, indexes, frames both ways, NaN as null
CONVERSIONS = r'''
import datetime, sys
import numpy as np
import pandas as pd
import pyarrow as pa
cases = {
    "series int": lambda: pa.array(pd.Series([1, 2])),
    "series obj": lambda: pa.array(pd.Series(["a", None], dtype=object)),
    "series str": lambda: pa.array(pd.Series(["a", None])),
    "categorical": lambda: pa.array(pd.Categorical(["a", "b", "a"])),
    "series cat": lambda: pa.array(pd.Series(["a", "b"], dtype="category")),
    "series tz": lambda: pa.array(pd.Series(pd.to_datetime(["2020-01-01"]).tz_localize("UTC"))),
    "index": lambda: pa.array(pd.Index([1, 2])),
    "table df": lambda: pa.table(pd.DataFrame({"a": [1], "c": pd.Categorical(["x"])})).schema,
    "from_pandas": lambda: pa.Table.from_pandas(pd.DataFrame({"d": [datetime.date(2020, 1, 1)]})).schema,
    "to_pandas": lambda: pa.table({"a": [1, None], "s": ["x", None]}).to_pandas().dtypes.to_dict(),
    "nan": lambda: pa.array(pd.Series([1.0, np.nan])).null_count,
}
for name, make in cases.items():
    try:
        out = make()
        print(name, getattr(out, "type", out))
    except Exception as exc:
        print(name, "fails:", type(exc).__name__, exc)
'''


def _run(prelude: str) -> str:
    res = subprocess.run([sys.executable, "-c", prelude + CONVERSIONS], capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    return res.stdout


def test_pandas_imported_later_converts_as_usual() -> None:
    pytest.importorskip("pandas")
    usual = _run("import pyarrow\npyarrow.array([])\n")  # the probe as pyarrow does it
    skipped = _run("from pdnkit._arrow import pyarrow_module\n"
                   "assert pyarrow_module().array([1]).to_pylist() == [1]\n"
                   "import sys\nassert 'pandas' not in sys.modules\n")
    assert skipped == usual
    assert " fails: " not in usual, usual
    assert all(f"\n{name} " in f"\n{usual}" for name in ("series str", "categorical", "to_pandas"))


def test_pandas_imported_before_is_left_alone() -> None:
    pytest.importorskip("pandas")
    usual = _run("import pandas, pyarrow\n")
    assert _run("import pandas\nfrom pdnkit._arrow import pyarrow_module\n"
                "pyarrow_module()\n") == usual


def test_an_import_loads_no_pandas(tmp_path: Path) -> None:
    game = tmp_path / "g.pdn"
    game.write_text('[Event "a"]\n[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n',
                    encoding="utf-8")
    args = ["import", str(game), "--db", str(tmp_path / "g.duckdb"), "-q"]
    assert modules_after(args, ("pandas", "pyarrow")) == ["pyarrow"]
    assert (tmp_path / "g.duckdb").exists()
