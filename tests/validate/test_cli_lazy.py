"""``pdnkit COMMAND`` imports only that command's module; ``pdnkit --help`` and
``import pdnkit.cli`` still see every command, in their panels."""

from __future__ import annotations

import subprocess
import sys

from pdnkit.cli import _MODULES, _modules_needed, app


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
    # the shared options and output layer, and the one command module
    assert res.stdout.splitlines()[0] == ("['pdnkit.cli.app', 'pdnkit.cli.options', "
                                          "'pdnkit.cli.output', 'pdnkit.cli.validate_cmd']")
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
