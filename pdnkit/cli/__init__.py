"""Command-line interface: ``pdnkit COMMAND ...``.

Each command is a thin shell over the library function of the same name. Command
modules import heavy libraries (pandas, duckdb, matplotlib) inside the command
functions, so ``pdnkit --help`` stays fast. When ``pdnkit`` runs as its console script (or
``python -m pdnkit``) with a command name first, only that command's module is imported;
otherwise (``--help``, no arguments, an unknown name, or ``import pdnkit.cli`` from Python)
every command is registered.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import sys

from pdnkit.cli.app import app

#: help panels, in the order a user meets the stages
_PANELS: list[tuple[str, list[str]]] = [
    ("Start here", ["demo"]),
    ("Rules engine", ["variants", "moves", "perft", "egdb"]),
    ("PDN files", ["lint", "convert"]),
    ("Validation", ["validate", "explain", "show", "view"]),
    ("Database", ["import", "query", "export", "duplicates", "rule-copies", "merge", "upgrade",
                  "lake"]),
    ("Analysis", ["search", "games", "stats", "tree", "openings", "analyse", "plot", "report",
                  "players", "ratings", "serve"]),
]

#: the module (under ``pdnkit.cli``) that registers each command, in registration order
_MODULES: dict[str, list[str]] = {
    "stats_cmd": ["stats", "report", "tree", "plot"],
    "analyse_cmd": ["analyse"],
    "egdb_cmd": ["egdb"],
    "pdn_cmd": ["lint", "convert"],
    "rules_cmd": ["variants", "perft", "moves"],
    "search_cmd": ["search", "games", "players"],
    "serve_cmd": ["serve"],
    "store_cmd": ["import", "query", "export", "duplicates", "rule-copies", "merge", "upgrade",
                  "demo"],
    "lake_cmd": ["lake"],
    "openings_cmd": ["openings"],
    "ratings_cmd": ["ratings"],
    "validate_cmd": ["validate", "explain"],
    "view_cmd": ["show", "view"],
}
_MODULE_OF = {cmd: mod for mod, cmds in _MODULES.items() for cmd in cmds}
#: every module that registers under each command (``stats`` subcommands come from two)
_MODULES_OF: dict[str, list[str]] = {}
for _m, _cmds in _MODULES.items():
    for _c in _cmds:
        _MODULES_OF.setdefault(_c, []).append(_m)


def _modules_needed(argv: list[str]) -> list[str]:
    """The command modules to import: only the named command's when this process is the
    ``pdnkit`` program and its first argument is a command name, else all of them.

    Example:
        >>> _modules_needed(["/usr/bin/pdnkit", "validate", "x.pdn"])
        ['validate_cmd']
        >>> len(_modules_needed(["/usr/bin/pdnkit", "--help"])) == len(_MODULES)
        True
    """
    prog = argv[0] if argv else ""
    base = os.path.basename(prog)
    is_pdnkit = base in ("pdnkit", "pdnkit.exe", "pdnkit-script.py") or (
        base == "__main__.py" and os.path.basename(os.path.dirname(prog)) == "pdnkit")
    if is_pdnkit and len(argv) > 1 and argv[1] in _MODULE_OF:
        return _MODULES_OF[argv[1]]
    return list(_MODULES)


def _arrange_commands() -> None:
    order = {name: i for i, name in enumerate(n for _, names in _PANELS for n in names)}
    panel = {name: title for title, names in _PANELS for name in names}

    def name_of(info: object) -> str:
        cmd = getattr(info, "name", None)
        if cmd:
            return str(cmd)
        callback = getattr(info, "callback", None)
        return callback.__name__.replace("_", "-") if callback else ""

    for group in app.registered_groups:  # command groups such as `stats` and `report`
        title = panel.get(str(group.name or ""))
        if title and not group.rich_help_panel:
            group.rich_help_panel = title
    for info in app.registered_commands:
        title = panel.get(name_of(info))
        if title and not info.rich_help_panel:
            info.rich_help_panel = title
    app.registered_commands.sort(key=lambda info: order.get(name_of(info), len(order)))


_KEEP_LINES = re.compile(r"^\s*(?:[-*]\s|>>>|\\b|\d+[.)]\s|\[bold\]pdnkit |\s{2,}\S)")


def reflow(text: str | None) -> str | None:
    """A command's help with each paragraph on one line, as the help screen wraps it to the
    terminal (Typer keeps a docstring's single line breaks after its first paragraph, so at
    80 columns lines broke mid-sentence); a paragraph holding a list, an example or an
    indented block keeps its lines.

    Example:
        >>> reflow("Read files.\\n\\nEvery game\\nis read.\\n\\n- one\\n- two")
        'Read files.\\n\\nEvery game is read.\\n\\n- one\\n- two'
    """
    if text is None:
        return None
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(
        p if any(_KEEP_LINES.match(line) for line in p.splitlines()) or "\f" in p
        else " ".join(line.strip() for line in p.splitlines())
        for p in paragraphs)


def _reflow_help(typer_app: object) -> None:
    """:func:`reflow` the help of every command of ``typer_app`` and of its groups."""
    for info in getattr(typer_app, "registered_commands", []):
        doc = info.help if info.help is not None else getattr(info.callback, "__doc__", None)
        info.help = reflow(doc)
    for group in getattr(typer_app, "registered_groups", []):
        _reflow_help(group.typer_instance)


for _mod in _modules_needed(sys.argv):  # importing a module registers its commands
    importlib.import_module(f"pdnkit.cli.{_mod}")
_arrange_commands()
_reflow_help(app)


def main() -> None:
    """Entry point of the ``pdnkit`` console script."""
    app()


__all__ = ["app", "main"]
