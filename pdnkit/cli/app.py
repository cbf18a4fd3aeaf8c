"""The Typer application object shared by every command module."""

from __future__ import annotations

import typer

app = typer.Typer(
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
        from pdnkit import __version__

        typer.echo(f"pdnkit {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", help="Print the version and exit.", callback=_version_callback,
        is_eager=True,
    ),
) -> None:
    """pdnkit: PDN collections as trustworthy data."""


def fail(message: str) -> typer.Exit:
    """Print a one-line ``pdnkit: error: ...`` to stderr and return the exit (code 2, a usage
    error) for the caller to raise: ``raise fail("no database at x.duckdb")``."""
    typer.echo(f"pdnkit: error: {message}", err=True)
    return typer.Exit(code=2)
