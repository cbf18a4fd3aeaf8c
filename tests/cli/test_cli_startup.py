"""What ``pdnkit validate``, ``pdnkit perft`` and ``pdnkit --version`` import before they end
(issue 25: a command's start is part of its time). On a clean file ``validate`` needs neither
the database (DuckDB, pandas, pyarrow, numpy), nor the grammar (Lark: the compiled lane and
the fast lane read clean games), nor plots, nor worker processes with one job."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.imported import modules_after

#: never imported on these commands' clean paths (pydantic: what Typer 0.29 would import on
#: every command, the reason pyproject.toml holds Typer below it)
HEAVY = ("pandas", "pyarrow", "duckdb", "numpy", "lark", "matplotlib", "fsspec", "pydantic")
#: the jobs stage and what only it needs, the PDN writer (convert), Lark's parser module
NOT_WITH_ONE_JOB = ("pdnkit.validation.jobs", "concurrent.futures", "pdnkit.validation.rewrite",
                    "pdnkit.pdn.writer", "pdnkit.cli.store_cmd", "pdnkit.cli.stats_cmd")


@pytest.fixture
def clean_file(tmp_path: Path) -> Path:
    game = tmp_path / "g.pdn"
    game.write_text('[Event "a"]\n[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n'
                    '[Event "b"]\n[GameType "20"]\n1. 33-29 18-23 0-2\n', encoding="utf-8")
    return game


def test_validate_of_a_clean_file_imports_nothing_heavy(clean_file: Path, tmp_path: Path
                                                        ) -> None:
    for args in (["validate", str(clean_file), "-q"],
                 ["validate", str(clean_file), "--format", "jsonl"],
                 ["validate", str(clean_file), "-o", str(tmp_path / "r.csv")],
                 ["validate", str(clean_file), "--jobs", "2", "-q"]):
        assert modules_after(args, HEAVY) == [], args
    assert modules_after(["validate", str(clean_file), "-q"], NOT_WITH_ONE_JOB) == []


def test_perft_and_version_import_nothing_heavy() -> None:
    assert modules_after(["perft", "international", "3"], HEAVY) == []
    assert modules_after(["--version"], HEAVY) == []
    assert modules_after(["perft", "international", "3"], NOT_WITH_ONE_JOB) == []


def test_validate_without_the_databases_folder_loads_no_database_format(
        clean_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No databases' folder: no variant has databases, and neither the file format (its
    hashing) nor the JSON and CSV writers of a text run are loaded."""
    monkeypatch.setenv("PDNKIT_EGDB", str(tmp_path / "no-such-folder"))
    unused = ("pdnkit.egdb.files", "hashlib", "json", "csv", "heapq")
    assert modules_after(["validate", str(clean_file), "-q"], unused) == []
    assert modules_after(["validate", str(clean_file), "--format", "jsonl"], unused) == ["json"]
