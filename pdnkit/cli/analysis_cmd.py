"""``pdnkit stats``, ``pdnkit tree``, ``pdnkit plot`` and ``pdnkit report``: analysis of a database.

Each command is a thin shell over one library function: :func:`pdnkit.stats.stats`,
:func:`pdnkit.stats.tree`, :func:`pdnkit.plots.plot` and :func:`pdnkit.reports.report`.
"""

from __future__ import annotations

import json
import math
from enum import Enum
from pathlib import Path
from typing import Any

import typer

from pdnkit.cli.app import app
from pdnkit.cli.app import fail as _fail


class OutFormat(str, Enum):
    """Output formats of ``pdnkit stats`` and ``pdnkit tree``."""

    table = "table"
    csv = "csv"
    json = "json"


class OpeningsBy(str, Enum):
    """How ``pdnkit stats openings`` groups games."""

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


class ReportKind(str, Enum):
    """The reports ``pdnkit report`` writes."""

    endgame = "endgame"
    collection = "collection"


_DB_HELP = "The pdnkit database (made by [bold]pdnkit import[/bold] or [bold]pdnkit demo[/bold])."

stats_app = typer.Typer(
    help=(
        "Statistics over a pdnkit database: openings, players, results, game lengths and "
        "findings.\n\nEvery statistic takes the same filters ([cyan]--variant --event --player "
        "--from --to --min-games[/cyan]) and prints a table, CSV or JSON (a list of row objects)."
    ),
    no_args_is_help=True,
    rich_markup_mode="rich",
)
report_app = typer.Typer(
    help=(
        "Reports on a database as Markdown or one self-contained HTML file with the plots "
        "embedded: [bold]endgame[/bold] (draw and endgame rules of every game) and "
        "[bold]collection[/bold] (the validation summary)."
    ),
    no_args_is_help=True,
    rich_markup_mode="rich",
)
app.add_typer(stats_app, name="stats")
app.add_typer(report_app, name="report")



def _opt_db() -> Any:
    return typer.Option(Path("pdnkit.duckdb"), "--db", help=_DB_HELP)


def _jsonable(v: Any) -> Any:
    """A JSON-ready value: NaN/NaT -> None, numpy values -> Python, dates -> ISO text."""
    import datetime as dt

    import pandas as pd

    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if hasattr(v, "tolist") and not isinstance(v, pd.Timestamp):  # numpy scalar or array
        return _jsonable(v.tolist())
    if v is None or v is pd.NaT or (isinstance(v, float) and math.isnan(v)):
        return None
    if isinstance(v, pd.Timestamp):
        return v.date().isoformat() if v == v.normalize() else v.isoformat()
    if isinstance(v, (dt.date, dt.datetime)):
        return v.isoformat()
    return v


def records(df: Any) -> list[dict[str, Any]]:
    """Rows of a DataFrame as JSON-ready dicts (NaN -> None, dates as ISO text)."""
    return [{k: _jsonable(v) for k, v in row.items()} for row in df.to_dict(orient="records")]


def _emit(df: Any, fmt: OutFormat, title: str | None = None) -> None:
    if fmt is OutFormat.json:
        typer.echo(json.dumps(records(df), ensure_ascii=False, indent=1))
        return
    if fmt is OutFormat.csv:
        typer.echo(df.to_csv(index=False), nl=False)
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, show_lines=False)
    numeric = {c for c in df.columns if str(df[c].dtype).startswith(("int", "float", "Int"))}
    rows = [["" if v is None else str(v) for v in row.values()] for row in records(df)]
    needed = 1
    for i, c in enumerate(df.columns):
        table.add_column(str(c), justify="right" if c in numeric else "left", no_wrap=True)
        needed += 3 + max([len(str(c))] + [len(r[i]) for r in rows])
    for r in rows:
        table.add_row(*r)
    console = Console()
    # never squeeze columns: a wide table is wider than the terminal (or use -f csv)
    Console(width=max(console.width, needed)).print(table)
    if df.empty:
        typer.echo("(no rows)")


def _run_stats(kind: str, db: Path, fmt: OutFormat, **options: Any) -> None:
    from pdnkit.stats import stats

    if str(db) != ":memory:" and not Path(db).exists():
        raise _fail(f"no database at {db} (run `pdnkit import FILES` or `pdnkit demo` first)")
    try:
        df = stats(kind, str(db), **options)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    _emit(df, fmt, title=f"{kind} ({len(df)} rows)")


_VARIANT = typer.Option(None, "--variant", "-v", help="Only this variant (canonical name).")
_EVENT = typer.Option(None, "--event", "-e", help="Event contains this text (case-insensitive).")
_PLAYER = typer.Option(None, "--player", "-p",
                       help="White or Black contains this text (case-insensitive).")
_FROM = typer.Option(None, "--from", help="From this date: YYYY, YYYY-MM or YYYY-MM-DD.")
_TO = typer.Option(None, "--to", help="Up to this date (inclusive): YYYY, YYYY-MM or YYYY-MM-DD.")
_MIN = typer.Option(1, "--min-games", "-m", help="Drop rows with fewer games.")
_FMT = typer.Option(OutFormat.table, "--format", "-f",
                    help="[cyan]table[/cyan], [cyan]csv[/cyan] or [cyan]json[/cyan] "
                         "(a list of row objects).")


@stats_app.command("openings", epilog=(
    "Examples:\n\n  [bold]pdnkit stats openings --variant international --plies 4[/bold]\n\n"
    "  [bold]pdnkit stats openings --by position --plies 6 --min-games 5 -f csv[/bold]"))
def stats_openings(
    db: Path = _opt_db(),
    plies: int = typer.Option(4, "--plies", "-n", help="Length of the opening in half-moves."),
    by: OpeningsBy = typer.Option(OpeningsBy.moves, "--by",
                                  help="Group by the [cyan]moves[/cyan] played or by the "
                                       "[cyan]position[/cyan] reached (transpositions merge)."),
    variant: str | None = _VARIANT, event: str | None = _EVENT, player: str | None = _PLAYER,
    date_from: str | None = _FROM, date_to: str | None = _TO, min_games: int = _MIN,
    fmt: OutFormat = _FMT,
) -> None:
    """Openings: games, White wins, draws, Black wins, White's score and average length.

    An opening is the first N plies of the main line. Games from a set-up position (FEN)
    and games shorter than N plies are not counted.
    """
    _run_stats("openings", db, fmt, plies=plies, by=by.value, variant=variant, event=event,
               player=player, date_from=date_from, date_to=date_to, min_games=min_games)


@stats_app.command("players", epilog=(
    "Example:\n\n  [bold]pdnkit stats players --event \"World Championship\" --min-games 10[/bold]"))
def stats_players(
    db: Path = _opt_db(),
    variant: str | None = _VARIANT, event: str | None = _EVENT,
    player: str | None = typer.Option(None, "--player", "-p",
                                      help="Only players whose name contains this text."),
    date_from: str | None = _FROM, date_to: str | None = _TO, min_games: int = _MIN,
    fmt: OutFormat = _FMT,
) -> None:
    """Players: games, wins/draws/losses as White and as Black, score, first and last game."""
    _run_stats("players", db, fmt, variant=variant, event=event, player=player,
               date_from=date_from, date_to=date_to, min_games=min_games)


@stats_app.command("results", epilog=(
    "Examples:\n\n  [bold]pdnkit stats results --by year[/bold]\n\n"
    "  [bold]pdnkit stats results --by variant,event -f json[/bold]"))
def stats_results(
    db: Path = _opt_db(),
    by: str = typer.Option("variant", "--by",
                           help="Group by [cyan]variant[/cyan], [cyan]event[/cyan] and/or "
                                "[cyan]year[/cyan], comma separated."),
    variant: str | None = _VARIANT, event: str | None = _EVENT, player: str | None = _PLAYER,
    date_from: str | None = _FROM, date_to: str | None = _TO, min_games: int = _MIN,
    fmt: OutFormat = _FMT,
) -> None:
    """Results by variant, event or year: wins, draws, losses, White's score, draw rate."""
    _run_stats("results", db, fmt, by=by, variant=variant, event=event, player=player,
               date_from=date_from, date_to=date_to, min_games=min_games)


@stats_app.command("lengths", epilog=(
    "Example:\n\n  [bold]pdnkit stats lengths --bin 20 --variant russian[/bold]"))
def stats_lengths(
    db: Path = _opt_db(),
    bin_width: int = typer.Option(10, "--bin", help="Width of a bin in plies."),
    variant: str | None = _VARIANT, event: str | None = _EVENT, player: str | None = _PLAYER,
    date_from: str | None = _FROM, date_to: str | None = _TO,
    fmt: OutFormat = _FMT,
) -> None:
    """Game length distribution (plies in the main line) per variant."""
    _run_stats("lengths", db, fmt, bin_width=bin_width, variant=variant, event=event,
               player=player, date_from=date_from, date_to=date_to)


@stats_app.command("findings", epilog=(
    "Examples:\n\n  [bold]pdnkit stats findings[/bold]\n\n"
    "  [bold]pdnkit stats findings --by file[/bold]   (which sources are dirty)"))
def stats_findings(
    db: Path = _opt_db(),
    by: FindingsBy = typer.Option(FindingsBy.code, "--by",
                                  help="Group by finding [cyan]code[/cyan], [cyan]file[/cyan], "
                                       "[cyan]event[/cyan] or list the worst [cyan]game[/cyan]s."),
    variant: str | None = _VARIANT, event: str | None = _EVENT, player: str | None = _PLAYER,
    date_from: str | None = _FROM, date_to: str | None = _TO, min_games: int = _MIN,
    fmt: OutFormat = _FMT,
) -> None:
    """Findings by code, file or event, with the share of clean games: which sources are dirty."""
    _run_stats("findings", db, fmt, by=by.value, variant=variant, event=event, player=player,
               date_from=date_from, date_to=date_to, min_games=min_games)


@app.command("tree", epilog=(
    "Examples:\n\n  [bold]pdnkit tree --variant international[/bold]   (first moves)\n\n"
    "  [bold]pdnkit tree --moves \"32-28 19-23 37-32\"[/bold]\n\n"
    "  [bold]pdnkit tree --fen \"W:W28,31-50:B1-20\" --variant international[/bold]"))
def tree_command(
    db: Path = _opt_db(),
    fen: str | None = typer.Option(None, "--fen", help="Explore from this position (FEN)."),
    moves: str | None = typer.Option(None, "--moves",
                                     help="Explore after these moves from the initial position, "
                                          "e.g. [cyan]\"32-28 19-23\"[/cyan] (move numbers "
                                          "ignored)."),
    variant: str | None = _VARIANT, event: str | None = _EVENT, player: str | None = _PLAYER,
    date_from: str | None = _FROM, date_to: str | None = _TO, min_games: int = _MIN,
    fmt: OutFormat = _FMT,
    book: bool = typer.Option(False, "--book", help="The book's view: per move the games, "
                              "+/=/- and score from the side to move, and transpositions."),
) -> None:
    """Opening explorer: the moves played next from a position, with counts and scores.

    Every game that reached the position counts, whatever its move order (transpositions
    merge). The [cyan]fen_after[/cyan] column gives the position after each move, to
    explore further with [cyan]--fen[/cyan].
    """
    from pdnkit.stats import tree

    if fen and moves:
        raise _fail("give --fen or --moves, not both")
    if not Path(db).exists():
        raise _fail(f"no database at {db} (run `pdnkit import FILES` or `pdnkit demo` first)")
    try:
        df = tree(str(db), fen=fen, moves=moves, variant=variant, event=event, player=player,
                  date_from=date_from, date_to=date_to, min_games=min_games)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if book:
        df = df[["variant", "move", "games", "side", "wins", "draws", "losses", "score",
                 "transpositions", "fen_after"]].rename(
            columns={"wins": "+", "draws": "=", "losses": "-"})
    elif fmt is OutFormat.table:
        df = df.drop(columns=["side", "wins", "losses", "score", "transpositions"])
    if fmt is OutFormat.table:
        df = df.drop(columns=["fen_after"])
    _emit(df, fmt, title="next moves")


@app.command("plot", epilog=(
    "Kinds: [cyan]openings[/cyan] (results by opening, stacked bars), [cyan]lengths[/cyan] "
    "(game length histogram per variant), [cyan]results[/cyan] (results over the years), "
    "[cyan]findings[/cyan] (findings by code), [cyan]board[/cyan] (a position: --fen, "
    "--variant), [cyan]heatmap[/cyan] (squares: --what, --variant), [cyan]endgame[/cyan] "
    "(endgame-rule verdicts).\n\n"
    "Examples:\n\n  [bold]pdnkit plot openings --variant russian --plies 4 --out openings.png[/bold]"
    "\n\n  [bold]pdnkit plot heatmap --variant international --what captured --out caps.svg[/bold]"
    "\n\n  [bold]pdnkit plot board --variant international --fen \"W:W31-50:B1-20\" "
    "--out start.png[/bold]"))
def plot_command(
    kind: PlotKind = typer.Argument(..., help="What to draw (see below)."),
    out: Path = typer.Option(..., "--out", "-o", help="Output file: .png or .svg."),
    db: Path = _opt_db(),
    variant: str | None = _VARIANT, event: str | None = _EVENT, player: str | None = _PLAYER,
    date_from: str | None = _FROM, date_to: str | None = _TO, min_games: int = _MIN,
    plies: int = typer.Option(4, "--plies", "-n", help="openings: length in half-moves."),
    top: int = typer.Option(15, "--top", help="openings: how many openings to show."),
    bin_width: int = typer.Option(10, "--bin", help="lengths: bin width in plies."),
    what: str = typer.Option("capture-landing", "--what",
                             help="heatmap: [cyan]capture-landing[/cyan], [cyan]captured[/cyan], "
                                  "[cyan]destination[/cyan], [cyan]origin[/cyan] or "
                                  "[cyan]promotion[/cyan]."),
    fen: str | None = typer.Option(None, "--fen", help="board: the position to draw."),
    dpi: int = typer.Option(120, "--dpi", help="Resolution of PNG files."),
) -> None:
    """Draw a plot from the database (or a board diagram) and write it as PNG or SVG."""
    from pdnkit.plots import plot

    suffix = out.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise _fail("--out must end in .png or .svg")
    if kind is not PlotKind.board and not Path(db).exists():
        raise _fail(f"no database at {db} (run `pdnkit import FILES` or `pdnkit demo` first)")
    try:
        fig = plot(kind.value, None if kind is PlotKind.board else str(db), variant=variant,
                   event=event, player=player, date_from=date_from, date_to=date_to,
                   min_games=min_games, plies=plies, top=top, bin_width=bin_width, what=what,
                   fen=fen)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    from pdnkit._atomic import atomic_path

    with atomic_path(out, inputs=[db]) as tmp:  # whole or not at all, never over the db
        fig.savefig(tmp, format=suffix[1:], dpi=dpi, bbox_inches="tight")
    typer.echo(f"wrote {out}")


def _run_report(kind: str, db: Path, out: Path | None, **filters: Any) -> None:
    from pdnkit.reports import report

    fmt = "md"
    if out is not None:
        suffix = out.suffix.lower()
        if suffix not in (".md", ".html", ".htm"):
            raise _fail("--out must end in .md or .html")
        fmt = "html" if suffix in (".html", ".htm") else "md"
    if not Path(db).exists():
        raise _fail(f"no database at {db} (run `pdnkit import FILES` or `pdnkit demo` first)")
    try:
        side = out.with_name(out.stem + ".games.html") if out is not None else None
        text = report(kind, str(db), fmt=fmt, view_page=side, **filters)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if out is None:
        typer.echo(text)
    else:
        from pdnkit._atomic import atomic_output

        with atomic_output(out, inputs=[db]) as fh:  # whole or not at all
            fh.write(text)
        typer.echo(f"wrote {out}")
        if side is not None and side.exists():
            typer.echo(f"wrote {side} (the games to check, in the game viewer)")


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
    db: Path = _opt_db(), out: Path | None = _OUT,
    variant: str | None = _VARIANT, event: str | None = _EVENT, player: str | None = _PLAYER,
    date_from: str | None = _FROM, date_to: str | None = _TO,
) -> None:
    """Draw and endgame rules: every game where one became active, with a verdict.

    For each activation: the rule and its article, the ply its count started, the ply it
    would have drawn at, how the game actually ended, and the verdict; then summaries per
    variant, event and rule.
    """
    _run_report("endgame", db, out, variant=variant, event=event, player=player,
                date_from=date_from, date_to=date_to)


@report_app.command("collection", epilog=(
    "Example:\n\n  [bold]pdnkit report collection --out collection.html[/bold]"))
def report_collection(
    db: Path = _opt_db(), out: Path | None = _OUT,
    variant: str | None = _VARIANT, event: str | None = _EVENT, player: str | None = _PLAYER,
    date_from: str | None = _FROM, date_to: str | None = _TO,
) -> None:
    """Validation summary: games, clean share, findings by code, the worst files and games."""
    _run_report("collection", db, out, variant=variant, event=event, player=player,
                date_from=date_from, date_to=date_to)
