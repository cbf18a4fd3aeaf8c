"""``pdnkit stats``, ``pdnkit tree``, ``pdnkit plot`` and ``pdnkit report``: reading a database.

Each command is a thin shell over one library function: :func:`pdnkit.stats.stats`,
:func:`pdnkit.stats.crosstable`, :func:`pdnkit.stats.tree`, :func:`pdnkit.plots.plot` and
:func:`pdnkit.reports.report`.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Any

import typer

from pdnkit.cli.app import app, fail, usage_errors
from pdnkit.cli.options import (
    AllCopies,
    DateFrom,
    DateTo,
    Db,
    Event,
    Format,
    Match,
    MinGames,
    Out,
    Player,
    VariantFilter,
    Wide,
    read_filter,
)
from pdnkit.lean.tables import check, emit, output, screen_text


class OpeningsBy(str, Enum):
    """How ``pdnkit stats openings`` groups games."""

    code = "code"
    name = "name"
    moves = "moves"
    position = "position"


class FindingsBy(str, Enum):
    """How ``pdnkit stats findings`` groups findings."""

    code = "code"
    file = "file"
    event = "event"
    game = "game"


class PlotKind(str, Enum):
    """The plots ``pdnkit plot`` draws."""

    openings = "openings"
    lengths = "lengths"
    results = "results"
    findings = "findings"
    board = "board"
    heatmap = "heatmap"
    endgame = "endgame"
    ratings = "ratings"


class ReportKind(str, Enum):
    """The reports ``pdnkit report`` writes."""

    endgame = "endgame"
    collection = "collection"
    openings = "openings"


stats_app = typer.Typer(
    help=(
        "Statistics over a pdnkit database: openings, novelties, players, results, game "
        "lengths, findings, crosstables and the players' accuracy by an engine.\n\nThe statistics take the same filters ([cyan]--variant "
        "--event --player --from --to --min-games[/cyan], each where it applies) and write a "
        "table, CSV, JSON, JSONL or Parquet like every table command. Each game counts "
        "once, by the record that stands for its copies ([bold]pdnkit duplicates[/bold]); "
        "[cyan]--all-copies[/cyan] counts every record."
    ),
    no_args_is_help=True,
    rich_markup_mode="rich",
)
report_app = typer.Typer(
    help=(
        "Reports on a database as Markdown or one self-contained HTML file with the plots "
        "embedded: [bold]endgame[/bold] (draw and endgame rules of every game), "
        "[bold]collection[/bold] (the validation summary) and [bold]openings[/bold] (the "
        "ballots played and the openings by name)."
    ),
    no_args_is_help=True,
    rich_markup_mode="rich",
)
app.add_typer(stats_app, name="stats")
app.add_typer(report_app, name="report")




def _run_stats(kind: str, db: Path | None, fmt: str | None, out: Path | None, wide: bool,
               **options: Any) -> None:
    from pdnkit.lean.forms import run_stats

    run_stats(kind, db, fmt, out, wide, **options)


@stats_app.command("openings", epilog=(
    "Examples:\n\n  [bold]pdnkit stats openings --variant english[/bold]   (by ballot)\n\n"
    "  [bold]pdnkit stats openings --variant russian --by name[/bold]\n\n"
    "  [bold]pdnkit stats openings --variant international --by moves --plies 4[/bold]\n\n"
    "  [bold]pdnkit stats openings --by position --plies 6 --min-games 5 -f csv[/bold]\n\n"
    "Open the games of a row with [bold]pdnkit view --db DB --where \"...\"[/bold] and its "
    "[cyan]view_where[/cyan] column."))
def stats_openings(
    db: Db = None,
    plies: int | None = typer.Option(None, "--plies", "-n",
                                     help="--by moves|position: the opening's length in "
                                          "half-moves (default 4; given alone, it means "
                                          "--by moves)."),
    by: OpeningsBy | None = typer.Option(None, "--by",
                                         help="Group by the ballot or table "
                                              "[cyan]code[/cyan] (the default), the opening's "
                                              "[cyan]name[/cyan] (both by the position the "
                                              "games reached: transpositions merge), the "
                                              "[cyan]moves[/cyan] played or the "
                                              "[cyan]position[/cyan] after N plies.",
                                         show_default=False),
    variant: VariantFilter = None, event: Event = None, player: Player = None, match: Match = False,
    date_from: DateFrom = None, date_to: DateTo = None, min_games: MinGames = 1,
    all_copies: AllCopies = False,
    fmt: Format = None, out: Out = None, wide: Wide = False,
) -> None:
    """Openings: games, wins of each side, draws, scores, draw rate and average length.

    By code or name (the default: by ballot or code), an opening is what the opening
    tables call the positions the game reached ([bold]pdnkit openings list[/bold]); in a
    variant Black begins (English) Black's columns come first. By moves or position, an
    opening is the first N plies of the main line; games from a set-up position (FEN) and
    games shorter than N plies are not counted.
    """
    chosen = by.value if by is not None else ("moves" if plies is not None else "code")
    _run_stats("openings", db, fmt, out, wide, plies=plies, by=chosen, variant=variant,
               event=event, player=player, filter=read_filter(match, all_copies), date_from=date_from, date_to=date_to,
               min_games=min_games)


@stats_app.command("novelties", epilog=(
    "Examples:\n\n  [bold]pdnkit stats novelties --player Tinsley[/bold]\n\n"
    "  [bold]pdnkit stats novelties --event \"World Championship\" -f csv[/bold]\n\n"
    "Earlier means: games with a date first, by date (a partial date such as 1965.??.?? "
    "counts as its first day, a year alone as 1 January); games of the same date in the "
    "order they were imported (files in import order, games in file order); games without "
    "a date after every dated game, in that order."))
def stats_novelties(
    db: Db = None,
    variant: VariantFilter = None, event: Event = None, player: Player = None, match: Match = False,
    date_from: DateFrom = None, date_to: DateTo = None, all_copies: AllCopies = False,
    fmt: Format = None, out: Out = None, wide: Wide = False,
) -> None:
    """Novelties: for each game, the first ply at which its position had not occurred in any
    earlier game of the database, the move played there and the game it deviated from.

    Positions count whatever the move order (placement and side to move). A novelty at ply
    0 is a start no earlier game had; none at all, a game every position of which an
    earlier game had reached.
    """
    from pdnkit.lean.streamed import emit_stream
    from pdnkit.stats.named import novelties_stream

    sink = output(fmt, out, [db], wide=wide)
    with usage_errors():
        stream = novelties_stream(db, variant=variant, event=event, player=player,
                                  date_from=date_from, date_to=date_to,
                                  filter=read_filter(match, all_copies))
    with stream:  # one row a game, written as read: memory flat, a closed pipe stops it
        emit_stream(stream, sink, title=f"novelties ({stream.total} games)")


@stats_app.command("players", epilog=(
    "Example:\n\n  [bold]pdnkit stats players --event \"World Championship\" --min-games 10[/bold]"))
def stats_players(
    db: Db = None,
    variant: VariantFilter = None, event: Event = None,
    player: str | None = typer.Option(None, "--player", "-p",
                                      help="Only players whose name contains this text."),
    match: Match = False,
    date_from: DateFrom = None, date_to: DateTo = None, min_games: MinGames = 1,
    all_copies: AllCopies = False,
    fmt: Format = None, out: Out = None, wide: Wide = False,
) -> None:
    """Players: games, wins/draws/losses as White and as Black, score, first and last game."""
    _run_stats("players", db, fmt, out, wide, variant=variant, event=event, player=player,
               filter=read_filter(match, all_copies), date_from=date_from, date_to=date_to, min_games=min_games)


@stats_app.command("results", epilog=(
    "Examples:\n\n  [bold]pdnkit stats results --by year[/bold]\n\n"
    "  [bold]pdnkit stats results --by variant,event -f json[/bold]"))
def stats_results(
    db: Db = None,
    by: str = typer.Option("variant", "--by",
                           help="Group by [cyan]variant[/cyan], [cyan]event[/cyan] and/or "
                                "[cyan]year[/cyan], comma separated."),
    variant: VariantFilter = None, event: Event = None, player: Player = None, match: Match = False,
    date_from: DateFrom = None, date_to: DateTo = None, min_games: MinGames = 1,
    all_copies: AllCopies = False,
    fmt: Format = None, out: Out = None, wide: Wide = False,
) -> None:
    """Results by variant, event or year: wins, draws, losses, White's score, draw rate."""
    _run_stats("results", db, fmt, out, wide, by=by, variant=variant, event=event,
               player=player, filter=read_filter(match, all_copies), date_from=date_from, date_to=date_to, min_games=min_games)


@stats_app.command("lengths", epilog=(
    "Example:\n\n  [bold]pdnkit stats lengths --bin 20 --variant russian[/bold]"))
def stats_lengths(
    db: Db = None,
    bin_width: int = typer.Option(10, "--bin", help="Width of a bin in plies."),
    variant: VariantFilter = None, event: Event = None, player: Player = None, match: Match = False,
    date_from: DateFrom = None, date_to: DateTo = None, all_copies: AllCopies = False,
    fmt: Format = None, out: Out = None, wide: Wide = False,
) -> None:
    """Game length distribution (plies in the main line) per variant."""
    _run_stats("lengths", db, fmt, out, wide, bin_width=bin_width, variant=variant,
               event=event, player=player, filter=read_filter(match, all_copies), date_from=date_from, date_to=date_to)


@stats_app.command("findings", epilog=(
    "Examples:\n\n  [bold]pdnkit stats findings[/bold]\n\n"
    "  [bold]pdnkit stats findings --by file[/bold]   (which sources are dirty)"))
def stats_findings(
    db: Db = None,
    by: FindingsBy = typer.Option(FindingsBy.code, "--by",
                                  help="Group by finding [cyan]code[/cyan], [cyan]file[/cyan], "
                                       "[cyan]event[/cyan] or list the worst [cyan]game[/cyan]s."),
    variant: VariantFilter = None, event: Event = None, player: Player = None, match: Match = False,
    date_from: DateFrom = None, date_to: DateTo = None, min_games: MinGames = 1,
    all_copies: AllCopies = False,
    fmt: Format = None, out: Out = None, wide: Wide = False,
) -> None:
    """Findings by code, file or event, with the share of clean games: which sources are dirty."""
    _run_stats("findings", db, fmt, out, wide, by=by.value, variant=variant, event=event,
               player=player, filter=read_filter(match, all_copies), date_from=date_from, date_to=date_to, min_games=min_games)


@stats_app.command("accuracy", epilog=(
    "Examples:\n\n  [bold]pdnkit stats accuracy --db club.duckdb[/bold]\n\n"
    "  [bold]pdnkit stats accuracy --engine \"dame 0.2.0 depth 8\" --min-games 5[/bold]\n\n"
    "The games must have been analysed first: [bold]pdnkit analyse[/bold]."))
def stats_accuracy(
    db: Db = None,
    engine: str | None = typer.Option(
        None, "--engine", "-E",
        help="Which analysis, where the database holds several: an engine's name, "
             "[cyan]name version[/cyan] or the start of [cyan]name version depth N[/cyan] "
             "(default: the one with the most positions)."),
    variant: VariantFilter = None, event: Event = None,
    player: str | None = typer.Option(None, "--player", "-p",
                                      help="Only players whose name contains this text."),
    date_from: DateFrom = None, date_to: DateTo = None, min_games: MinGames = 1,
    all_copies: AllCopies = False,
    fmt: Format = None, out: Out = None, wide: Wide = False,
) -> None:
    """Players by the engine's judgement: moves, average loss per move (men), missed shots, blunders and mistakes, and those per game; the most accurate first."""
    from pdnkit.analysis import accuracy

    sink = output(fmt, out, [db], wide=wide)
    with usage_errors():
        df = accuracy(db, engine=engine, variant=variant, event=event, player=player,
                      date_from=date_from, date_to=date_to, min_games=min_games,
                      filter=read_filter(all_copies=all_copies))
    emit(df, sink, title=f"accuracy ({len(df)} players)")


@stats_app.command("crosstable", epilog=(
    "Example:\n\n  [bold]pdnkit stats crosstable --event \"World Championship 2011\"[/bold]"))
def stats_crosstable(
    event: str = typer.Option(..., "--event", "-e", help="Event contains this text."),
    db: Db = None,
    variant: VariantFilter = None,
    date_from: DateFrom = None, date_to: DateTo = None,
    scoring: str = typer.Option("auto", "--scoring", help="2 (2-1-0), 1 (1-½-0) or auto "
                                "(2 where the file writes 2-0 results)."),
    all_copies: AllCopies = False,
    fmt: Format = None, out: Out = None, wide: Wide = False,
) -> None:
    """Crosstable of an event: players x players with results, points and games.

    Aliases are merged (pdnkit players alias) and placeholder names left out.
    """
    from pdnkit.stats import crosstable

    sink = output(fmt, out, [db], wide=wide)
    with usage_errors():
        df = crosstable(db, event=event, variant=variant, date_from=date_from,
                        date_to=date_to, scoring=scoring, filter=read_filter(all_copies=all_copies))
    emit(df, sink)


@app.command("tree", epilog=(
    "Examples:\n\n  [bold]pdnkit tree --variant international[/bold]   (first moves)\n\n"
    "  [bold]pdnkit tree --moves \"32-28 19-23 37-32\"[/bold]\n\n"
    "  [bold]pdnkit tree --fen \"W:W28,31-50:B1-20\" --variant international[/bold]"))
def tree_command(
    db: Db = None,
    fen: str | None = typer.Option(None, "--fen", help="Explore from this position (FEN)."),
    moves: str | None = typer.Option(None, "--moves",
                                     help="Explore after these moves from the initial position, "
                                          "e.g. [cyan]\"32-28 19-23\"[/cyan] (move numbers "
                                          "ignored)."),
    variant: VariantFilter = None, event: Event = None, player: Player = None, match: Match = False,
    date_from: DateFrom = None, date_to: DateTo = None, min_games: MinGames = 1,
    all_copies: AllCopies = False,
    fmt: Format = None, out: Out = None, wide: Wide = False,
    book: bool = typer.Option(False, "--book", help="The book's view: per move the games, "
                              "+/=/- and score from the side to move, and transpositions."),
) -> None:
    """Opening explorer: the moves played next from a position, with counts and scores.

    Every game that reached the position counts, whatever its move order (transpositions
    merge). The [cyan]opening[/cyan] column names the position after each move (ballot,
    code, name: [bold]pdnkit openings list[/bold]); [cyan]fen_after[/cyan] gives it, to
    explore further with [cyan]--fen[/cyan].
    """
    from pdnkit.lean.forms import run_tree

    run_tree(db, fmt, out, wide, book, fen=fen, moves=moves, variant=variant, event=event,
             player=player, date_from=date_from, date_to=date_to, min_games=min_games,
             filter=read_filter(match, all_copies))


@app.command("plot", epilog=(
    "Kinds: [cyan]openings[/cyan] (results by opening, stacked bars), [cyan]lengths[/cyan] "
    "(game length histogram per variant), [cyan]results[/cyan] (results over the years), "
    "[cyan]findings[/cyan] (findings by code), [cyan]board[/cyan] (a position: --fen, "
    "--variant), [cyan]heatmap[/cyan] (squares: --what, --variant), [cyan]endgame[/cyan] "
    "(endgame-rule verdicts), [cyan]ratings[/cyan] (ratings over time: the players of --name, "
    "or whose name contains --player, else the --top 5 with the most games; --system, "
    "--period as [bold]pdnkit ratings[/bold]).\n\n"
    "Examples:\n\n  [bold]pdnkit plot openings --variant russian --plies 4 --out openings.png[/bold]"
    "\n\n  [bold]pdnkit plot heatmap --variant international --what captured --out caps.svg[/bold]"
    "\n\n  [bold]pdnkit plot board --variant international --fen \"W:W31-50:B1-20\" "
    "--out start.png[/bold]"
    "\n\n  [bold]pdnkit plot ratings --system glicko2 --name \"Marion Tinsley\" --name "
    "\"Derek Oldbury\" --out tinsley.png[/bold]"))
def plot_command(
    kind: PlotKind = typer.Argument(..., help="What to draw (see below)."),
    out: Path = typer.Option(..., "--out", "-o", help="Output file: .png or .svg."),
    db: Db = None,
    variant: VariantFilter = None, event: Event = None, player: Player = None, match: Match = False,
    date_from: DateFrom = None, date_to: DateTo = None, min_games: MinGames = 1,
    all_copies: AllCopies = False,
    plies: int = typer.Option(4, "--plies", "-n", help="openings: length in half-moves."),
    top: int | None = typer.Option(None, "--top", help="openings: how many openings to show "
                                   "(15); ratings: how many players (5).",
                                   show_default=False),
    bin_width: int = typer.Option(10, "--bin", help="lengths: bin width in plies."),
    what: str = typer.Option("capture-landing", "--what",
                             help="heatmap: [cyan]capture-landing[/cyan], [cyan]captured[/cyan], "
                                  "[cyan]destination[/cyan], [cyan]origin[/cyan] or "
                                  "[cyan]promotion[/cyan]."),
    fen: str | None = typer.Option(None, "--fen", help="board: the position to draw."),
    system: str = typer.Option("elo", "--system", help="ratings: [cyan]elo[/cyan], "
                               "[cyan]fmjd[/cyan] (Elo's table) or [cyan]glicko2[/cyan] "
                               "(with the 2 RD band)."),
    period: str = typer.Option("month", "--period", help="ratings: [cyan]month[/cyan], "
                               "[cyan]year[/cyan] or [cyan]event[/cyan]."),
    names: list[str] | None = typer.Option(None, "--name", help="ratings: a player to draw "
                                           "(again for more)."),
    dpi: int = typer.Option(120, "--dpi", help="Resolution of PNG files."),
) -> None:
    """Draw a plot from the database (or a board diagram) and write it as PNG or SVG."""
    from pdnkit._atomic import atomic_path
    from pdnkit.plots import plot

    suffix = out.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise fail("--out must end in .png or .svg")
    board = kind is PlotKind.board
    inputs = check(out, [] if board else [db])
    with usage_errors():
        fig = plot(kind.value, None if board else db, variant=variant, event=event,
                   player=player, date_from=date_from, date_to=date_to, min_games=min_games,
                   plies=plies, top=top, bin_width=bin_width, what=what, fen=fen,
                   system=system, period=period, names=names,
                   filter=read_filter(match, all_copies))
    with atomic_path(out, inputs=inputs) as tmp:  # whole or not at all, never over the db
        fig.savefig(tmp, format=suffix[1:], dpi=dpi, bbox_inches="tight")
    typer.echo(f"wrote {out}")


def _run_report(kind: str, db: Path | None, out: Path | None, **filters: Any) -> None:
    if out is None:
        from pdnkit.reports import report

        with usage_errors():
            text = report(kind, db, fmt="md", **filters)
        typer.echo(screen_text(text))  # a terminal gets no control character of the games
        return
    from pdnkit.report_files import REPORT_SUFFIXES, write_report

    if out.suffix.lower() not in REPORT_SUFFIXES:
        raise fail("--out must end in .md or .html")
    with usage_errors():  # the report and its page of games: replaced together
        files = write_report(kind, out, db, **filters)
    typer.echo(f"wrote {out}")
    if files.page is not None:
        typer.echo(f"wrote {files.page} (the games to check, in the game viewer)")


_OUT = typer.Option(None, "--out", "-o",
                    help="Write to this file: [cyan].md[/cyan] (Markdown) or [cyan].html[/cyan] "
                         "(one self-contained page with the plots embedded). Default: Markdown "
                         "on standard output.")


@report_app.command("endgame", epilog=(
    "Verdicts: [cyan]ended-in-time[/cyan] (the game or the rule's count ended before the "
    "limit), [cyan]drawn-by-rule[/cyan], [cyan]played-past-limit[/cyan] (an automatic draw "
    "was ignored, or a claimable draw was not claimed), [cyan]result-contradicts-rule[/cyan] "
    "(a decisive result where an automatic rule had drawn the game).\n\n"
    "Example:\n\n  [bold]pdnkit report endgame --variant russian --out endgame.html[/bold]"))
def report_endgame(
    db: Db = None, out: Path | None = _OUT,
    variant: VariantFilter = None, event: Event = None, player: Player = None, match: Match = False,
    date_from: DateFrom = None, date_to: DateTo = None, all_copies: AllCopies = False,
) -> None:
    """Draw and endgame rules: every game where one became active, with a verdict.

    For each activation: the rule and its article, the ply its count started, the ply it
    would have drawn at, how the game actually ended, and the verdict; then summaries per
    variant, event and rule.
    """
    _run_report("endgame", db, out, variant=variant, event=event, player=player,
                date_from=date_from, date_to=date_to, filter=read_filter(match, all_copies))


@report_app.command("openings", epilog=(
    "Example:\n\n  [bold]pdnkit report openings --variant english --event \"Open\" "
    "--out ballots.html[/bold]"))
def report_openings(
    db: Db = None, out: Path | None = _OUT,
    variant: VariantFilter = None, event: Event = None, player: Player = None, match: Match = False,
    date_from: DateFrom = None, date_to: DateTo = None, all_copies: AllCopies = False,
) -> None:
    """The ballot report: for each ballot played (English three-move ballots, 11-man
    ballots, the basic positions ...), its games, wins by side, draws and whether it was
    decisive; then the openings by code and by name.
    """
    _run_report("openings", db, out, variant=variant, event=event, player=player,
                date_from=date_from, date_to=date_to, filter=read_filter(match, all_copies))


@report_app.command("collection", epilog=(
    "Example:\n\n  [bold]pdnkit report collection --out collection.html[/bold]"))
def report_collection(
    db: Db = None, out: Path | None = _OUT,
    variant: VariantFilter = None, event: Event = None, player: Player = None, match: Match = False,
    date_from: DateFrom = None, date_to: DateTo = None, all_copies: AllCopies = False,
) -> None:
    """Validation summary: games, clean share, findings by code, the worst files and games."""
    _run_report("collection", db, out, variant=variant, event=event, player=player,
                date_from=date_from, date_to=date_to, filter=read_filter(match, all_copies))
