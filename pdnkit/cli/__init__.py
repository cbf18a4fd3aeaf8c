"""Command-line interface: ``pdnkit COMMAND ...``.

Each command is a thin shell over the library function of the same name. Command
modules import heavy libraries (pandas, duckdb, matplotlib) inside the command
functions, so ``pdnkit --help`` stays fast.
"""

from __future__ import annotations

from pdnkit.cli import (  # noqa: F401  (importing registers the commands)
    analysis_cmd,
    pdn_cmd,
    rules_cmd,
    store_cmd,
    validate_cmd,
)
from pdnkit.cli.app import app

#: help panels, in the order a user meets the stages
_PANELS: list[tuple[str, list[str]]] = [
    ("Start here", ["demo"]),
    ("Rules engine", ["variants", "moves", "perft"]),
    ("PDN files", ["lint", "convert"]),
    ("Validation", ["validate", "explain"]),
    ("Database", ["import", "query", "export", "duplicates"]),
    ("Analysis", ["stats", "tree", "plot", "report"]),
]


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


_arrange_commands()


def main() -> None:
    """Entry point of the ``pdnkit`` console script."""
    app()


__all__ = ["app", "main"]
