"""``pdnkit search`` (positions, patterns, material, manoeuvres) and ``pdnkit players``
(aliases).

Each command is a thin shell over one library function: :func:`pdnkit.stats.search.search`,
:func:`pdnkit.stats.identities.alias`, :func:`~pdnkit.stats.identities.unalias`,
:func:`~pdnkit.stats.identities.aliases` and :func:`~pdnkit.stats.identities.suggest`.
"""

from __future__ import annotations

from pathlib import Path

import typer

from pdnkit.cli.app import app, usage_errors
from pdnkit.cli.options import (
    AllCopies,
    DateFrom,
    DateTo,
    Db,
    Event,
    Format,
    Out,
    Player,
    VariantFilter,
    Wide,
    copies_filter,
)
from pdnkit.cli.output import emit, output


def _existing(db: Path | None) -> Path | None:
    """``db`` when it can be opened: a command that writes to the database must not create
    an empty one where the user mistyped a name (the store says "no pdnkit database at");
    opened for writing, as the command then writes (an older database is upgraded)."""
    from pdnkit.store import connect

    with usage_errors():
        connect(db, must_exist=True).close()
    return db


@app.command(
    "search",
    epilog=(
        "Patterns: [cyan]W[/cyan]/[cyan]B[/cyan] lists of men (K before a square: a king, "
        "* a man or a king), an [cyan]E[/cyan] list of empty squares, fields separated by ':'.\n\n"
        "Examples:\n\n"
        "  [bold]pdnkit search --pattern \"W28,K33:B19:E23\" --mirror[/bold]\n\n"
        "  [bold]pdnkit search --fen \"W:W28,31-50:B1-20\" --side any[/bold]\n\n"
        "  [bold]pdnkit search --material \"2K+1 v 1K\" --first --variant international[/bold]\n\n"
        "  [bold]pdnkit search --manoeuvre \"bK46x??\" --captures 2 -f csv -o hits.csv[/bold]"
    ),
)
def search_command(
    db: Db = None,
    fen: str | None = typer.Option(None, "--fen", help="This exact position (side to move "
                                   "as in the FEN unless --side)."),
    pattern: str | None = typer.Option(None, "--pattern", help="Pieces that must be there, "
                                       "e.g. [cyan]\"W28,K33:B19:E23\"[/cyan]."),
    exclude: str | None = typer.Option(None, "--exclude", help="Pieces that must not be "
                                       "there, e.g. [cyan]\"B23,K24\"[/cyan]."),
    any_of: str | None = typer.Option(None, "--any", help="At least one of these pieces, "
                                      "e.g. [cyan]\"W27,28:B22\"[/cyan]."),
    side: str | None = typer.Option(None, "--side", help="Side to move: white, black or any "
                                    "(default: any; the FEN's own with --fen)."),
    mirror: bool = typer.Option(False, "--mirror", help="Also colours swapped and the board "
                                "turned."),
    material: str | None = typer.Option(None, "--material", help="Men and kings, White v "
                                        "Black, e.g. [cyan]\"2K+1 v 1K\"[/cyan]."),
    manoeuvre: str | None = typer.Option(None, "--manoeuvre", help="A move: colour, piece, "
                                         "from, - or x, to, ? wildcards, e.g. "
                                         "[cyan]bK46x02[/cyan]."),
    captures: str | None = typer.Option(None, "--captures", help="The move takes this many "
                                        "pieces ([cyan]2[/cyan]), or men and kings "
                                        "([cyan]1+1K[/cyan])."),
    promotes: bool = typer.Option(False, "--promotes", help="The move crowns a man."),
    before: str | None = typer.Option(None, "--before", help="Pattern of the position before "
                                      "the move."),
    after: str | None = typer.Option(None, "--after", help="Pattern of the position after "
                                     "the move."),
    first: bool = typer.Option(False, "--first", help="Only the first hit of each game."),
    limit: int | None = typer.Option(None, "--limit", help="At most this many rows."),
    variant: VariantFilter = None,
    event: Event = None,
    player: Player = None,
    date_from: DateFrom = None,
    date_to: DateTo = None,
    all_copies: AllCopies = False,
    fmt: Format = None,
    out: Out = None,
    wide: Wide = False,
) -> None:
    """Find games by position, pattern, material or manoeuvre.

    One row per hit: game, ply, side to move, players, event, date, result, the move played
    next (and the FEN in a file, or with --format csv/json/jsonl/parquet).
    """
    from pdnkit.stats.search import search

    sink = output(fmt, out, [db], wide=wide)
    with usage_errors():  # a bad pattern, FEN, date, no database
        df = search(db, fen=fen, pattern=pattern, exclude=exclude, any_of=any_of, side=side,
                    mirror=mirror, material=material, manoeuvre=manoeuvre, captures=captures,
                    promotes=True if promotes else None, before=before, after=after,
                    first=first, limit=limit, variant=variant, event=event, player=player,
                    date_from=date_from, date_to=date_to, filter=copies_filter(all_copies))
    if sink.format == "text" and sink.to_screen:
        df = df.drop(columns=["fen"])
    emit(df, sink, limit=50)


players_app = typer.Typer(
    help="Player identities: aliases (names that stand for one player) and likely aliases.",
    no_args_is_help=True,
)
app.add_typer(players_app, name="players")


@players_app.command("alias", epilog=(
    "Example:\n\n  [bold]pdnkit players alias \"M Tinsley\" \"MF Tinsley\" --as "
    "\"Marion Tinsley\"[/bold]"))
def players_alias(
    names: list[str] = typer.Argument(..., help="Names as written in White/Black tags."),
    as_: str = typer.Option(..., "--as", help="The player they stand for."),
    db: Db = None,
) -> None:
    """Record that NAMES stand for one player: every statistic then counts them as one."""
    from pdnkit.stats.identities import alias

    with usage_errors():  # a placeholder name
        n = alias(_existing(db), names, as_)
    typer.echo(f"{n} name(s) -> {as_.strip()}")
    for warning in n.warnings:
        typer.echo(f"pdnkit: warning: {warning}", err=True)


@players_app.command("unalias")
def players_unalias(
    names: list[str] = typer.Argument(..., help="Names whose alias to forget."),
    db: Db = None,
) -> None:
    """Forget the aliases of NAMES."""
    from pdnkit.stats.identities import unalias

    with usage_errors():
        n = unalias(_existing(db), names)
    typer.echo(f"{n} alias(es) removed")


@players_app.command("aliases")
def players_aliases(db: Db = None, fmt: Format = None, out: Out = None,
                    wide: Wide = False) -> None:
    """List the aliases recorded in the database."""
    from pdnkit.stats.identities import aliases

    sink = output(fmt, out, [db], wide=wide)
    with usage_errors():
        df = aliases(db)
    emit(df, sink)


@players_app.command("suggest", epilog=(
    "Then: [bold]pdnkit players alias NAME_A NAME_B --as \"Full Name\"[/bold]"))
def players_suggest(
    db: Db = None,
    max_gap: int = typer.Option(2, "--max-gap", help="Years allowed between the two names' "
                                "careers."),
    fmt: Format = None,
    out: Out = None,
    wide: Wide = False,
) -> None:
    """List likely aliases: the same surname, compatible initials, overlapping years."""
    from pdnkit.stats.identities import suggest

    sink = output(fmt, out, [db], wide=wide)
    with usage_errors():
        df = suggest(db, max_gap=max_gap)
    emit(df, sink)
