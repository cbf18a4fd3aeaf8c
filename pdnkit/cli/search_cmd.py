"""``pdnkit search`` (positions, patterns, material, manoeuvres), ``pdnkit players`` (aliases)
and ``pdnkit stats crosstable``.

Each command is a thin shell over one library function: :func:`pdnkit.stats.search.search`,
:func:`pdnkit.stats.identities.alias`, :func:`pdnkit.stats.identities.suggest` and
:func:`pdnkit.stats.crosstable`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from pdnkit.cli.app import app
from pdnkit.cli.app import fail as _fail
from pdnkit.cli.store_cmd import QueryFormat, _write_frame

_DB_HELP = "The DuckDB database file (default: [cyan]pdnkit.duckdb[/cyan] in the current folder)."


def _db_or_fail(db: Path | None) -> str:
    path = str(db) if db is not None else "pdnkit.duckdb"
    if path != ":memory:" and not Path(path).exists():
        raise _fail(f"no database at {path} (run `pdnkit import FILES` or `pdnkit demo` first)")
    return path


def _run(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Call a library function, turning its usage errors into ``pdnkit: error: ...``."""
    try:
        return fn(*args, **kwargs)
    except (ValueError, FileNotFoundError) as exc:
        raise _fail(str(exc)) from None
    except Exception as exc:
        if type(exc).__module__.split(".")[0] in ("duckdb", "_duckdb"):
            raise _fail(str(exc).strip()) from None
        raise


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
    db: Path | None = typer.Option(None, "--db", help=_DB_HELP),
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
    variant: str | None = typer.Option(None, "--variant", "-v", help="Only this variant."),
    event: str | None = typer.Option(None, "--event", "-e", help="Event contains this text."),
    player: str | None = typer.Option(None, "--player", "-p", help="White or Black contains "
                                      "this text (or is an alias of it)."),
    date_from: str | None = typer.Option(None, "--from", help="From this date (YYYY[-MM[-DD]])."),
    date_to: str | None = typer.Option(None, "--to", help="Up to this date (inclusive)."),
    format: QueryFormat = typer.Option(QueryFormat.table, "--format", "-f",
                                       help="table, csv, json or parquet (needs --out)."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Write to this file."),
) -> None:
    """Find games by position, pattern, material or manoeuvre.

    One row per hit: game, ply, side to move, players, event, date, result, the move played
    next (and the FEN with --format csv/json/parquet).
    """
    from pdnkit.stats.search import search

    if format is QueryFormat.parquet and out is None:
        raise _fail("--format parquet needs --out FILE")
    df = _run(search, _db_or_fail(db), fen=fen, pattern=pattern, exclude=exclude,
              any_of=any_of, side=side, mirror=mirror, material=material,
              manoeuvre=manoeuvre, captures=captures, promotes=True if promotes else None,
              before=before, after=after, first=first, limit=limit, variant=variant,
              event=event, player=player, date_from=date_from, date_to=date_to)
    if format is QueryFormat.table and out is None:
        df = df.drop(columns=["fen"])
    _write_frame(df, format.value, out, None if out is not None else 50)


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
    db: Path | None = typer.Option(None, "--db", help=_DB_HELP),
) -> None:
    """Record that NAMES stand for one player: every statistic then counts them as one."""
    from pdnkit.stats.identities import alias

    n = _run(alias, _db_or_fail(db), names, as_)
    typer.echo(f"{n} name(s) -> {as_.strip()}")
    for warning in n.warnings:
        typer.echo(f"pdnkit: warning: {warning}", err=True)


@players_app.command("unalias")
def players_unalias(
    names: list[str] = typer.Argument(..., help="Names whose alias to forget."),
    db: Path | None = typer.Option(None, "--db", help=_DB_HELP),
) -> None:
    """Forget the aliases of NAMES."""
    from pdnkit.stats.identities import unalias

    typer.echo(f"{_run(unalias, _db_or_fail(db), names)} alias(es) removed")


@players_app.command("aliases")
def players_aliases(
    db: Path | None = typer.Option(None, "--db", help=_DB_HELP),
    format: QueryFormat = typer.Option(QueryFormat.table, "--format", "-f",
                                       help="table, csv, json or parquet (needs --out)."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Write to this file."),
) -> None:
    """List the aliases recorded in the database."""
    from pdnkit.stats.identities import aliases

    _write_frame(_run(aliases, _db_or_fail(db)), format.value, out, None)


@players_app.command("suggest", epilog=(
    "Then: [bold]pdnkit players alias NAME_A NAME_B --as \"Full Name\"[/bold]"))
def players_suggest(
    db: Path | None = typer.Option(None, "--db", help=_DB_HELP),
    max_gap: int = typer.Option(2, "--max-gap", help="Years allowed between the two names' "
                                "careers."),
    format: QueryFormat = typer.Option(QueryFormat.table, "--format", "-f",
                                       help="table, csv, json or parquet (needs --out)."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Write to this file."),
) -> None:
    """List likely aliases: the same surname, compatible initials, overlapping years."""
    from pdnkit.stats.identities import suggest

    _write_frame(_run(suggest, _db_or_fail(db), max_gap=max_gap), format.value, out, None)


def _stats_app() -> typer.Typer:
    from pdnkit.cli.analysis_cmd import stats_app

    return stats_app


@_stats_app().command("crosstable", epilog=(
    "Example:\n\n  [bold]pdnkit stats crosstable --event \"World Championship 2011\"[/bold]"))
def stats_crosstable(
    event: str = typer.Option(..., "--event", "-e", help="Event contains this text."),
    db: Path | None = typer.Option(None, "--db", help=_DB_HELP),
    variant: str | None = typer.Option(None, "--variant", "-v", help="Only this variant."),
    date_from: str | None = typer.Option(None, "--from", help="From this date."),
    date_to: str | None = typer.Option(None, "--to", help="Up to this date (inclusive)."),
    scoring: str = typer.Option("auto", "--scoring", help="2 (2-1-0), 1 (1-½-0) or auto "
                                "(2 where the file writes 2-0 results)."),
    format: QueryFormat = typer.Option(QueryFormat.table, "--format", "-f",
                                       help="table, csv, json or parquet (needs --out)."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Write to this file."),
) -> None:
    """Crosstable of an event: players x players with results, points and games.

    Aliases are merged (pdnkit players alias) and placeholder names left out.
    """
    from pdnkit.stats import crosstable

    df = _run(crosstable, _db_or_fail(db), event=event, variant=variant,
              date_from=date_from, date_to=date_to, scoring=scoring)
    _write_frame(df, format.value, out, None)
