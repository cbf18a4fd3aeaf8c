"""``pdnkit ratings``: Elo and Glicko-2 rating lists of a database's players, a thin shell
over :func:`pdnkit.stats.ratings`."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from pdnkit.cli.app import app, usage_errors
from pdnkit.cli.options import (
    AllCopies,
    DateFrom,
    DateTo,
    Db,
    Event,
    Format,
    MinGames,
    Out,
    VariantFilter,
    Wide,
    read_filter,
)
from pdnkit.lean.tables import Output, emit, output

if TYPE_CHECKING:  # pragma: no cover
    import duckdb


class System(str, Enum):
    """The rating systems ``pdnkit ratings`` computes."""

    elo = "elo"
    fmjd = "fmjd"
    glicko2 = "glicko2"


class Period(str, Enum):
    """The rating periods of ``pdnkit ratings``."""

    month = "month"
    year = "year"
    event = "event"


@app.command("ratings", epilog=(
    "Examples:\n\n  [bold]pdnkit ratings --db club.duckdb --variant international[/bold]\n\n"
    "  [bold]pdnkit ratings --db club.duckdb --system glicko2 --period year --history "
    "-f csv -o history.csv[/bold]\n\n"
    "  [bold]pdnkit ratings --db club.duckdb --seed list-2024.csv --from 2025[/bold]\n\n"
    "  [bold]pdnkit ratings --db club.duckdb --period event --history --player Tinsley[/bold]"
    "   (a performance rating per event)\n\n"
    "A game without a result, without a date (a year is enough) or without two named "
    "players is left out; how many, and why, is said on standard error. Draw the history "
    "with [bold]pdnkit plot ratings[/bold]."))
def ratings_command(
    db: Db = None,
    system: System = typer.Option(System.elo, "--system", "-s",
                                  help="[cyan]elo[/cyan] (Elo's formula, K --k), "
                                       "[cyan]fmjd[/cyan] (Elo's table of expected scores "
                                       "by rating difference, as the draughts federations "
                                       "rate; K --k) or [cyan]glicko2[/cyan] (rating, RD and "
                                       "volatility; system constant --tau)."),
    period: Period = typer.Option(Period.month, "--period",
                                  help="Rating period: the calendar [cyan]month[/cyan] (a game "
                                       "known only by its year at the end of the year), the "
                                       "[cyan]year[/cyan], or the [cyan]event[/cyan] (an Event "
                                       "tag in one year; games without one by month). The "
                                       "games of a period count as played at once."),
    variant: VariantFilter = None, event: Event = None,
    player: str | None = typer.Option(None, "--player", "-p",
                                      help="Only list players whose name contains this text "
                                           "(every game is still rated)."),
    date_from: DateFrom = None, date_to: DateTo = None, min_games: MinGames = 1,
    seed: Path | None = typer.Option(None, "--seed",
                                     help="Starting values: a CSV file with the columns "
                                          "[cyan]player,rating[/cyan] and optionally "
                                          "[cyan]rd,volatility,variant[/cyan]. Others start "
                                          "at 1500 (RD 350, volatility 0.06)."),
    from_tags: bool = typer.Option(False, "--from-tags",
                                   help="Start a player without a seed from the rating tag "
                                        "(WhiteElo, BlackRating ...) of his earliest rated "
                                        "game that has one."),
    k: float = typer.Option(20.0, "--k", help="Elo and fmjd: the development coefficient K "
                                              "(the rating moves K x (score - expected))."),
    tau: float = typer.Option(0.5, "--tau", help="Glicko-2: the system constant tau "
                                                 "(Glickman: 0.3 to 1.2; smaller moves "
                                                 "volatility less)."),
    history: bool = typer.Option(False, "--history",
                                 help="The rating of each player after each period he "
                                      "played, with his games, points and performance rating "
                                      "in it, instead of the final list."),
    all_copies: AllCopies = False,
    fmt: Format = None, out: Out = None, wide: Wide = False,
) -> None:
    """Rating lists from the games: Elo (formula or table) or Glicko-2, one list per variant,
    period by period.

    Every game counts once, players are identities (aliases merged, placeholders left out),
    and each period's games are rated against the ratings as it began. The final list gives
    rank, rating (RD and volatility for Glicko-2), games, wins, draws, losses and the last
    period played.
    """
    sink = output(fmt, out, [db, seed], wide=wide)
    options: dict[str, Any] = dict(system=system.value, period=period.value, variant=variant, event=event,
                   player=player, date_from=date_from, date_to=date_to, min_games=min_games,
                   seed=seed, from_tags=from_tags, k=k, tau=tau,
                   filter=read_filter(all_copies=all_copies))
    if history and sink.format != "parquet" and not (sink.format == "text" and sink.to_screen):
        _stream_history(sink, db, options)
        return
    from pdnkit.stats import RatingList, ratings
    from pdnkit.store.session import read_once

    def rate(con: duckdb.DuckDBPyConnection) -> RatingList:
        with usage_errors():  # a bad seed file, a bad date, K or tau
            return ratings(con, progress=True, **options)

    result = read_once(db, rate)  # a small buffer pool: the games are read once
    table = result.history if history else result.table
    emit(table, sink, title=(f"{system.value} rating history ({len(table)} rows)" if history
                             else f"{system.value} ratings ({len(table)} players)"))
    typer.echo(result.note, err=True)


def _stream_history(sink: Output, db: Path | None, options: Mapping[str, Any]) -> None:
    """``--history`` to a file or a pipe, written as the periods are rated (memory flat
    whatever the games, the first rows at once, a closed pipe stops the rating), on the
    database opened with a small buffer pool (:func:`pdnkit.store.session.read_once`: the
    games are read once; the stream sorts them before its first row, so should the pool be
    too small the whole runs again on the default pool before anything is written). A text
    table on the screen (its title counts the rows) and Parquet (the whole table's column
    types) are written whole."""
    import sys

    from pdnkit.lean.streamed import emit_stream
    from pdnkit.stats.ratings_stream import ratings_history_stream
    from pdnkit.store.session import read_once

    progress = sink.path is not None or not sys.stdout.isatty()

    def write(con: duckdb.DuckDBPyConnection) -> str:
        with usage_errors():  # a bad seed file, a bad date, K or tau
            stream = ratings_history_stream(con, progress=progress, **options)
        with stream:
            emit_stream(stream, sink)
        return stream.note

    typer.echo(read_once(db, write), err=True)
