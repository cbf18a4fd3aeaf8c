"""``pdnkit openings load|list|classify``: the opening tables, and games labelled by them.

Each command is a thin shell over one library function: :func:`pdnkit.store.openingdb.load_opening_table`,
:func:`pdnkit.store.openinglist.list_openings` and :func:`pdnkit.store.openinglist.classify`.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path

import typer

from pdnkit.cli.app import app, fail, usage_errors
from pdnkit.cli.options import (
    AllCopies,
    Db,
    Edition,
    Encoding,
    Format,
    Out,
    SourceDb,
    Variant,
    Wide,
    known_variant,
)
from pdnkit.lean.tables import emit, output, screen_text


class TableKind(str, Enum):
    """What a user's table holds."""

    name = "name"
    ballot = "ballot"
    code = "code"


openings_app = typer.Typer(
    help=(
        "Opening tables: ballots, codes and names, each defined by the position its line "
        "reaches (transpositions land in the same opening).\n\n[bold]list[/bold] what is "
        "known, [bold]load[/bold] a table of your own into a database, [bold]classify[/bold] "
        "games without importing them. An import labels every game "
        "([cyan]games.opening_code[/cyan], [cyan]opening_name[/cyan], "
        "[cyan]opening_ply[/cyan], [cyan]novelty_ply[/cyan] ...)."
    ),
    no_args_is_help=True,
    rich_markup_mode="rich",
)
app.add_typer(openings_app, name="openings")

_KIND = typer.Option(TableKind.name, "--kind",
                     help="What the table holds: [cyan]name[/cyan]d openings, "
                          "[cyan]ballot[/cyan]s (counted in the ballot report) or "
                          "[cyan]code[/cyan]s.")


@openings_app.command("load", epilog=(
    "The table is a CSV file with the columns [cyan]code, name, translit, fen, moves, "
    "flags, source[/cyan] (name, translit, fen and flags may be left out); every line is "
    "replayed, an illegal move names its row.\n\n"
    "Example:\n\n  [bold]pdnkit openings load club.csv --variant english --db club.duckdb[/bold]"))
def openings_load(
    table: Path = typer.Argument(..., help="The CSV table."),
    variant: str = typer.Option(..., "--variant", "-v", callback=known_variant,
                                help="The variant whose games it names."),
    db: Db = None,
    kind: TableKind = _KIND,
    family: str | None = typer.Option(None, "--family",
                                      help="The table's name (default: the file's name)."),
    prefix: str = typer.Option("", "--prefix", help="Put before every code of the table."),
    replace: bool = typer.Option(False, "--replace",
                                 help="Load again a table of that name loaded before."),
) -> None:
    """Store an opening table of your own in the database and classify the variant's games
    with it (beside the tables shipped with pdnkit); later imports use it too."""
    from pdnkit.store import connect
    from pdnkit.store.openingdb import load_opening_table

    with usage_errors():
        connect(db, read_only=True).close()  # never an empty database for a mistyped name
        done = load_opening_table(db, table, variant, kind=kind.value, family=family,
                                  prefix=prefix, replace=replace)
    t = done.table
    typer.echo(screen_text(f"{t.family} ({t.kind}, {t.entries} entries) loaded for "
                           f"{t.variant}; {done.games} game(s) classified again"))


@openings_app.command("list", epilog=(
    "Examples:\n\n  [bold]pdnkit openings list --variant english[/bold]\n\n"
    "  [bold]pdnkit openings list --variant russian --entries --db games.duckdb[/bold]"))
def openings_list(
    variant: Variant = None,
    db: Db = None,
    entries: bool = typer.Option(False, "--entries",
                                 help="One row per entry: code, name, line, flags, source."),
    all_copies: AllCopies = False,
    fmt: Format = None, out: Out = None, wide: Wide = False,
) -> None:
    """The opening tables: shipped with pdnkit and (with --db) loaded into the database,
    with their kind, entries, sources and the games they name there."""
    from pdnkit.store.openinglist import list_openings

    sink = output(fmt, out, [db] if db else [], wide=wide)
    with usage_errors():
        df = list_openings(db, variant=variant, entries=entries, all_copies=all_copies)
    emit(df, sink, title="opening entries" if entries else "opening tables")


@openings_app.command("classify", epilog=(
    "Examples:\n\n  [bold]pdnkit openings classify games.pdn[/bold]\n\n"
    "  [bold]pdnkit openings classify --db club.duckdb --variant english -f csv[/bold]"))
def openings_classify(
    paths: list[Path] | None = typer.Argument(None, help="PDN files or folders."),
    db: SourceDb = None,
    variant: Variant = None,
    table: list[Path] | None = typer.Option(None, "--table",
                                            help="A CSV table of your own, used beside the "
                                                 "shipped ones (repeat for more)."),
    kind: TableKind = _KIND,
    edition: Edition = None, encoding: Encoding = None,
    all_copies: AllCopies = False,
    fmt: Format = None, out: Out = None, wide: Wide = False,
) -> None:
    """Label games with their opening without importing them: code, name, the ply they
    reached it, and the verdict on their opening tag."""
    from pdnkit.store.openinglist import classify_stream

    if bool(paths) == (db is not None):
        raise fail("give PDN files or --db DB")
    sink = output(fmt, out, [db] if db else list(paths or []), wide=wide)
    with usage_errors():
        stream = classify_stream(paths or None, db=db, variant=variant, tables=table or [],
                                 kind=kind.value, edition=edition, encoding=encoding,
                                 all_copies=all_copies)
        with stream:
            if sink.format == "text" and sink.to_screen:  # every row, counted in the title
                df = stream.frame()
                emit(df, sink, title=f"openings ({len(df)} games)")
                return
            from pdnkit.lean.streamed import emit_stream

            emit_stream(stream, sink)  # a file or a pipe: each part written as it is read
