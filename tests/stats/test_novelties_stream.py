"""Novelties as a stream (:func:`pdnkit.stats.named.novelties_stream`, what ``pdnkit stats
novelties`` writes): the rows of :func:`pdnkit.stats.novelties` in the same order and their
number, under filters; the command's output in every format byte for byte what the whole
table's writer (:func:`pdnkit.lean.tables.emit`) writes of :func:`pdnkit.stats.novelties`."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdnkit.cli import app
from pdnkit.lean.tables import emit, output
from pdnkit.samples import sample_dir
from pdnkit.stats import novelties
from pdnkit.stats.named import novelties_stream
from pdnkit.store import import_files

runner = CliRunner()


def _plain(v: object) -> object:
    """A DataFrame's cell as Arrow gives it: NULL for pandas' missing values, numpy's
    numbers as Python's."""
    import pandas as pd

    if v is None or v is pd.NA or (isinstance(v, float) and v != v):
        return None
    return v.item() if hasattr(v, "item") else v


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("novel") / "n.duckdb"
    import_files([sample_dir()], db=path)
    return path


@pytest.mark.parametrize("filters", [{}, {"variant": "russian"}, {"player": "a"},
                                     {"date_from": "2024-03"}])
def test_the_stream_gives_the_rows_and_their_number(db: Path, filters: dict[str, str]) -> None:
    want = novelties(str(db), **filters)  # type: ignore[arg-type]
    with novelties_stream(str(db), rows=5, **filters) as s:  # type: ignore[arg-type]
        total = s.total
        batches = [b.to_pylist() for b in s]
    assert all(len(b) <= 5 for b in batches)
    got = [tuple(r.values()) for b in batches for r in b]
    ref = [tuple(_plain(v) for v in row) for row in want.itertuples(index=False)]
    assert got == ref and total == len(want)
    assert total > 0 or filters


@pytest.mark.parametrize("fmt", ["csv", "json", "jsonl", "text"])
def test_the_command_writes_what_the_whole_table_writes(db: Path, tmp_path: Path,
                                                        fmt: str) -> None:
    ext = {"text": "txt"}.get(fmt, fmt)
    got, want = tmp_path / f"got.{ext}", tmp_path / f"want.{ext}"
    res = runner.invoke(app, ["stats", "novelties", "--db", str(db), "-f", fmt, "-o", str(got)])
    assert res.exit_code == 0, res.output
    df = novelties(str(db))
    assert len(df) > 10
    emit(df, output(fmt, want, [db]), title=f"novelties ({len(df)} games)")
    assert got.read_bytes() == want.read_bytes()


def test_the_screens_title_counts_the_games(db: Path) -> None:
    res = runner.invoke(app, ["stats", "novelties", "--db", str(db), "--variant", "russian"])
    assert res.exit_code == 0, res.output
    n = len(novelties(str(db), variant="russian"))
    assert f"novelties ({n} games)" in res.output
