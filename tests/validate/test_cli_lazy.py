"""``pdnkit COMMAND`` imports only that command's module; ``pdnkit --help`` and
``import pdnkit.cli`` still see every command, in their panels."""

from __future__ import annotations

import subprocess
import sys

from pdnkit.cli import _MODULES, _modules_needed, app
from tests.imported import modules_after


def test_only_the_named_command_module_is_imported() -> None:
    assert _modules_needed(["/venv/bin/pdnkit", "validate", "x.pdn"]) == ["validate_cmd"]
    assert _modules_needed(["/site/pdnkit/__main__.py", "import", "x.pdn"]) == ["store_cmd"]
    everything = list(_MODULES)
    assert _modules_needed(["/venv/bin/pdnkit", "--help"]) == everything
    assert _modules_needed(["/venv/bin/pdnkit"]) == everything
    assert _modules_needed(["/venv/bin/pdnkit", "no-such-command"]) == everything
    # another program whose first argument happens to be a command name
    assert _modules_needed(["/venv/bin/pytest", "validate"]) == everything
    assert _modules_needed(["/site/pytest/__main__.py", "validate"]) == everything


def test_every_command_is_registered_for_python_callers() -> None:
    names = {c.name for c in app.registered_commands} | {g.name for g in app.registered_groups}
    assert {cmd for cmds in _MODULES.values() for cmd in cmds} <= names


def test_a_command_process_loads_one_module_and_still_runs() -> None:
    code = ("import sys; sys.argv = ['/x/pdnkit/__main__.py', 'explain', 'missed-capture']\n"
            "import pdnkit.cli\n"
            "print(sorted(m for m in sys.modules if m.startswith('pdnkit.cli.')))\n"
            "pdnkit.cli.main()\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    # the shared options and the one command module (the output layer is pdnkit.lean's)
    assert res.stdout.splitlines()[0] == ("['pdnkit.cli.app', 'pdnkit.cli.options', "
                                          "'pdnkit.cli.validate_cmd']")
    assert "compulsory" in res.stdout.lower() or "capture" in res.stdout.lower()


def test_top_level_help_lists_every_panel() -> None:
    res = subprocess.run([sys.executable, "-m", "pdnkit", "--help"], capture_output=True,
                         text=True, timeout=120, env={"COLUMNS": "100", "PATH": ""})
    assert res.returncode == 0, res.stderr
    out = res.stdout
    panels = ["Start here", "Rules engine", "PDN files", "Validation", "Database", "Analysis"]
    where = [out.index(f"─ {p} ") for p in panels]
    assert where == sorted(where)
    for cmd in ("demo", "validate", "import", "stats", "perft", "lint"):
        assert f" {cmd} " in out


_HEAVY = ("pandas", "pyarrow")


def test_help_validate_and_lint_import_neither_pandas_nor_pyarrow(tmp_path) -> None:
    """Issue 25: the output layer imports pandas and pyarrow only for a DataFrame or a
    Parquet file."""
    game = tmp_path / "g.pdn"
    game.write_text('[GameType "20"]\n\n1. 32-28 19-23 *\n', encoding="utf-8")
    for args in (["--help"], ["validate", str(game), "-q"],
                 ["validate", str(game), "--output", str(tmp_path / "r.csv")],
                 ["lint", str(game)], ["variants", "-f", "csv"], ["moves", "russian", "-f",
                                                                   "json"]):
        assert modules_after(args, _HEAVY) == [], args
    assert (tmp_path / "r.csv").read_text(encoding="utf-8").startswith("file,index,")


def test_emit_of_plain_rows_imports_neither_pandas_nor_pyarrow() -> None:
    code = ("import sys\n"
            "from pdnkit.lean.tables import Rows, emit, output, print_table\n"
            "rows = Rows(['a', 'b'], [(1, [2]), (None, 'x')])\n"
            "for fmt in ('csv', 'json', 'jsonl', 'text'):\n"
            "    emit(rows, output(fmt, None))\n"
            "print_table(rows, title='t')\n"
            f"print(sorted(m for m in {_HEAVY!r} if m in sys.modules))\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[-1] == "[]"
