"""The Typer application object shared by every command module."""

from __future__ import annotations

import errno
from typing import Any

import typer
from typer.core import TyperGroup

from pdnkit.errors import PdnkitError
from pdnkit.lean.usage import duckdb_message, error_message, usage_errors, user_sql


class _Group(TyperGroup):
    """The root command group: turns the errors of :func:`error_message` into one
    ``pdnkit: error:`` line and exit status 2, for every command and sub-command."""

    def invoke(self, ctx: Any) -> Any:  # a click Context (typer vendors its own click)
        try:
            return super().invoke(ctx)
        except Exception as exc:
            message = error_message(exc)
            if message is None:
                raise
            from pdnkit.lean.tables import terminal_safe

            typer.echo(f"pdnkit: error: {terminal_safe(message)}", err=True)
            raise typer.Exit(code=2) from None


app = typer.Typer(
    cls=_Group,
    name="pdnkit",
    help=(
        "pdnkit turns draughts and checkers game collections (PDN files) into trustworthy data.\n\n"
        "Read and lint PDN, replay every move under the rules of its variant, validate results "
        "and draw claims, load everything into DuckDB, and get statistics, plots and reports.\n\n"
        "Start with [bold]pdnkit demo[/bold], or [bold]pdnkit validate FILE.pdn[/bold]."
    ),
    rich_markup_mode="rich",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)


def _version_callback(value: bool) -> None:
    if value:
        from pdnkit._version import __version__
        from pdnkit.core import core_note

        try:
            typer.echo(f"pdnkit {__version__}")
            typer.echo(core_note())  # which replay core this install runs
        except OSError as exc:  # (an eager option runs before the group's error handling)
            message = error_message(exc)
            if message is None or exc.errno == errno.EPIPE:
                raise
            typer.echo(f"pdnkit: error: {message}", err=True)
            raise typer.Exit(code=2) from None
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", help="Print the version and exit.", callback=_version_callback,
        is_eager=True,
    ),
) -> None:
    """pdnkit: PDN collections as trustworthy data."""


def fail(message: str) -> PdnkitError:
    """The error for a usage mistake the command itself finds, for the caller to raise:
    ``raise fail("give --fen or --moves, not both")`` prints one ``pdnkit: error: ...`` line
    and exits with status 2 (:func:`error_message`)."""
    from pdnkit.cli.options import UsageError

    return UsageError(message)


__all__ = ["app", "duckdb_message", "error_message", "fail", "usage_errors", "user_sql"]
