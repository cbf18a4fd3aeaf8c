"""``pdnkit lake``: look after a Parquet lake written by ``pdnkit import --lake``."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from pdnkit.cli.app import app, fail

lake_app = typer.Typer(
    help="Look after a Parquet lake (written by [bold]pdnkit import --lake DIR[/bold]). "
         "Every read command takes the lake folder as [bold]--db[/bold].",
    no_args_is_help=True)
app.add_typer(lake_app, name="lake")


def _check(lake: str) -> None:
    from pdnkit.lake import is_lake

    if not is_lake(lake):
        raise fail(f"{lake} is not a pdnkit lake (no _manifest folder; "
                    "write one with `pdnkit import PATH --lake DIR`)")


@lake_app.command("compact", epilog="Example:\n\n  [bold]pdnkit lake compact games.lake[/bold]")
def compact_command(
    lake: str = typer.Argument(..., help="The lake folder (or fsspec URL)."),
    rows: int = typer.Option(2_000_000, "--rows",
                             help="Positions per merged part (about)."),
) -> None:
    """Merge the small Parquet parts of each source into fewer, larger ones.

    Each merged part is complete before the manifest names it; the old parts are removed
    afterwards, so readers never see a half-merged lake."""
    from pdnkit.lake import compact

    _check(lake)
    removed = compact(lake, target_rows=rows)
    typer.echo(f"{removed} part(s) merged away in {lake}")


@lake_app.command("info", epilog="Example:\n\n  [bold]pdnkit lake info games.lake[/bold]")
def info_command(
    lake: str = typer.Argument(..., help="The lake folder (or fsspec URL)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Sources, games, rows per table, parts and size on disk of a lake, and every damaged
    part.

    Each part is checked: it must be there, its Parquet footer readable and its row count the
    manifest's. A damaged part is listed with the source it holds rows of, and the command
    exits with status 1; importing that source again
    ([bold]pdnkit import SOURCE --lake DIR[/bold]) reloads it."""
    from pdnkit.lake import lake_summary
    from pdnkit.lean.tables import terminal_safe

    _check(lake)
    info = lake_summary(lake)
    if as_json:
        typer.echo(json.dumps(info, indent=2))
    else:
        state = f", {len(info['damaged'])} DAMAGED" if info["damaged"] else ""
        typer.echo(terminal_safe(
            f"{info['lake']}: {info['sources']} source(s), {info['games']} games, "
            f"{info['parts']} part(s){state}, {info['bytes'] / 1e6:.1f} MB"))
        for table, n in info["rows"].items():
            typer.echo(f"  {table:12} {n:>12,}")
        for text in info["damaged"]:
            typer.echo(terminal_safe(f"damaged: {text}"))
        for src in info["damaged_sources"]:
            typer.echo(terminal_safe(f"to reload it: pdnkit import {src} --lake {lake}"))
    if info["damaged"]:
        raise typer.Exit(code=1)


_ = Path  # the lake may be a local folder or a URL: arguments stay strings
