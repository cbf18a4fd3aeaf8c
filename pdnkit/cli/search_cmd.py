"""``pdnkit search`` (positions, patterns, material, manoeuvres), ``pdnkit games`` (the game
list, of a position too) and ``pdnkit players`` (aliases).

Each command is a thin shell over one library function: :func:`pdnkit.stats.search.search`,
:func:`pdnkit.stats.gamelist.games`, :func:`pdnkit.stats.identities.alias`, :func:`~pdnkit.stats.identities.unalias`,
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
    Match,
    Out,
    Player,
    UsageError,
    VariantFilter,
    Wide,
    read_filter,
)
from pdnkit.lean.tables import emit, output, terminal_safe


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
    match: Match = False,
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
    from pdnkit.lean.forms import run_search

    run_search(db, fmt, out, wide, fen=fen, pattern=pattern, exclude=exclude, any_of=any_of,
               side=side, mirror=mirror, material=material, manoeuvre=manoeuvre,
               captures=captures, promotes=True if promotes else None, before=before,
               after=after, first=first, limit=limit, variant=variant, event=event,
               player=player, date_from=date_from, date_to=date_to,
               filter=read_filter(match, all_copies))


@app.command(
    "games",
    epilog=(
        "Examples:\n\n"
        "  [bold]pdnkit games --variant international --moves \"32-28 19-23\"[/bold]   "
        "(the games of a node of [bold]pdnkit tree[/bold])\n\n"
        "  [bold]pdnkit games --status error --player Sijbrands -f csv -o broken.csv[/bold]\n\n"
        "  [bold]pdnkit games --fen \"W:W28,31-50:B1-19,21\" --limit 20 --offset 20[/bold]"
    ),
)
def games_command(
    db: Db = None,
    fen: str | None = typer.Option(None, "--fen", help="Only the games that reached this "
                                   "position (FEN)."),
    moves: str | None = typer.Option(None, "--moves", help="Only the games that reached the "
                                     "position after these moves from the initial position, "
                                     "by any move order, e.g. [cyan]\"32-28 19-23\"[/cyan]."),
    status: str | None = typer.Option(None, "--status", help="Only games of these statuses: "
                                      "ok, warning, error, unparsed (comma separated)."),
    limit: int | None = typer.Option(None, "--limit", help="At most this many games."),
    offset: int = typer.Option(0, "--offset", help="Leave out this many games first (a "
                               "page of the list, with --limit)."),
    variant: VariantFilter = None,
    event: Event = None,
    player: Player = None,
    match: Match = False,
    date_from: DateFrom = None,
    date_to: DateTo = None,
    all_copies: AllCopies = False,
    fmt: Format = None,
    out: Out = None,
    wide: Wide = False,
) -> None:
    """List the games, or the games that reached a position, with their status and findings.

    One row a game, in import order: players, event, date, result and who won, status, the
    number of findings, plies, the opening and the game's file and its number there (as
    show --game counts). With --moves or --fen, [cyan]ply[/cyan] is where the game first
    reached the position: transpositions merge, as in the tree. Each game is listed once,
    by the record that stands for its copies (--all-copies: every record).
    """
    from pdnkit.lean.streamed import emit_stream
    from pdnkit.stats.gamelist import games_stream

    if fen and moves:
        raise UsageError("give --fen or --moves, not both")
    sink = output(fmt, out, [db], wide=wide)
    with usage_errors():  # a bad FEN, move, status or date, no database
        stream = games_stream(db, fen=fen, moves=moves, status=status, limit=limit,
                              offset=offset, variant=variant, event=event, player=player,
                              date_from=date_from, date_to=date_to,
                              filter=read_filter(match, all_copies))
    with stream:  # the rows written as they are read: memory flat, a closed pipe stops it
        n, total = stream.rows_out, stream.total
        shown = f"{offset + 1}-{offset + n} of {total}" if n else f"0 of {total}"
        emit_stream(stream, sink, title=f"games ({shown})", limit=50)


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
        typer.echo(f"pdnkit: warning: {terminal_safe(str(warning))}", err=True)


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
    "Reasons: [cyan]punctuation[/cyan], [cyan]case[/cyan], [cyan]accents[/cyan] (Gérard / "
    "Gerard), [cyan]order[/cyan] (Tinsley, Marion / Marion Tinsley), "
    "[cyan]transliteration[/cyan] (Абациев Н. / Abatsiev N.), [cyan]spelling[/cyan] "
    "(Tsjizjow / Chizhov), [cyan]initials[/cyan] (M. Tinsley / Marion Tinsley), [cyan]given "
    "name[/cyan] (Alex / Alexander), [cyan]surname only[/cyan], [cyan]years apart[/cyan]; "
    "the confidence is the product of their weights.\n\n"
    "Then: [bold]pdnkit players alias NAME_A NAME_B --as \"Full Name\"[/bold]"))
def players_suggest(
    db: Db = None,
    max_gap: int = typer.Option(2, "--max-gap", help="Years between the two names' games "
                                "beyond which a proposal is less likely (reason: years apart)."),
    all_copies: AllCopies = False,
    fmt: Format = None,
    out: Out = None,
    wide: Wide = False,
) -> None:
    """List likely aliases, the most likely first: names one player can have written
    (case, accents, order, initials, Cyrillic or Latin, another spelling), each with its
    reason and a confidence.

    A name's games count each game once: a name written in a copy of a game ([bold]pdnkit duplicates[/bold]) counts the game it copies, and a name written in a game and its copies counts it once; [bold]--all-copies[/bold] counts every record."""
    from pdnkit.stats.identities import suggest

    sink = output(fmt, out, [db], wide=wide)
    with usage_errors():
        df = suggest(db, max_gap=max_gap, all_copies=all_copies)
    emit(df, sink)
