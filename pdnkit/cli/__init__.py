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


def main() -> None:
    """Entry point of the ``pdnkit`` console script."""
    app()


__all__ = ["app", "main"]
