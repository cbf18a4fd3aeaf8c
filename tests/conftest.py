"""Shared fixtures. Tests that read ``../shared/data`` use ``tests.shared.shared_path`` or the
``shared_data`` fixture, and skip cleanly when that folder is absent."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
import typer.main
import typer.testing

from tests.shared import SHARED_DATA

# validate and import judge endings with the endgame databases of $PDNKIT_EGDB (else the
# per-user cache): the tests see none unless they build their own
os.environ["PDNKIT_EGDB"] = tempfile.mkdtemp(prefix="pdnkit-tests-egdb-")

#: the click command of each Typer application, built once per test worker
_COMMANDS: dict[int, tuple[typer.Typer, typer.main._click.Command]] = {}


def _command_once(app: typer.Typer) -> typer.main._click.Command:
    """``typer.main.get_command(app)``, built on the first call for ``app`` and kept.

    ``CliRunner.invoke`` builds the whole command tree again on every call (about 0.1 s of
    CPU for pdnkit's, more than most commands take); a program builds it once, at its start,
    and runs one command line on it, which is what every test's command line still does."""
    kept = _COMMANDS.get(id(app))
    if kept is None or kept[0] is not app:
        kept = _COMMANDS[id(app)] = (app, typer.main.get_command(app))
    return kept[1]


typer.testing._get_command = _command_once  # type: ignore[attr-defined]


@pytest.fixture
def shared_data() -> Path:
    """The ``../shared/data`` folder (the test is skipped when it is absent)."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared test data not available: {SHARED_DATA}")
    return SHARED_DATA


@pytest.fixture(scope="session")
def demo_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder ``pdnkit.demo.demo`` writes (the demo database and viewer page), made once
    per test worker and shared by the modules that read it: read it only (copy it to write)."""
    from pdnkit.demo import demo

    where = tmp_path_factory.mktemp("demo") / "pdnkit-demo"
    demo(where)
    return where


#: the modules that take the longest (measured with ``--durations``), started first so that no
#: test worker is left alone with one of them at the end of the run (``--dist loadscope`` gives
#: a module's tests to one worker, and ``--no-loadscope-reorder`` in pyproject's addopts keeps
#: this order instead of one by test count); the other modules follow in collection order
LONG_FIRST = (
    "tests/store/test_upgrade_kill.py",
    "tests/pdn/test_dialects.py",
    "tests/test_fuzz_pipeline.py",
    "tests/validate/test_core_differential.py",
    "tests/core/test_differential.py",
    "tests/store/test_lake.py",
    "tests/test_docs.py",
    "tests/store/test_lake_safety.py",
    "tests/store/test_safety_database.py",
    "tests/core/test_moves.py",
    "tests/view/test_browser.py",
    "tests/serve/test_browser.py",
    "tests/cli/test_cli_output.py",
    "tests/analyse/test_cli.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The modules of :data:`LONG_FIRST` first, in its order; every module stays whole."""
    rank = {module: i for i, module in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.partition("::")[0], len(rank)))
