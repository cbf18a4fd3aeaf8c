"""``pdnkit show`` and ``pdnkit view``: see a game's board in the terminal or in a browser.

Thin shells over :func:`pdnkit.viewer.show` and :func:`pdnkit.viewer.view`.
"""

from __future__ import annotations

from pathlib import Path

import typer

from pdnkit.cli.app import app, fail, usage_errors, user_sql
from pdnkit.cli.options import SourceDb, Variant
from pdnkit.lean.tables import check


@app.command("show", epilog=(
    "Examples:\n\n"
    "  [bold]pdnkit show games.pdn --game 37[/bold]              (at its first error)\n\n"
    "  [bold]pdnkit show games.pdn --game 37 --ply 61[/bold]\n\n"
    "  [bold]pdnkit show games.pdn --game 37 --ply not-max-capture[/bold]\n\n"
    "  [bold]pdnkit show --db club.duckdb --game-id 120 --ply end[/bold]"))
def show_cmd(
    file: Path | None = typer.Argument(None, help="A PDN file.", show_default=False),
    game: int = typer.Option(1, "--game", "-g", min=1,
                             help="Game number in the file, 1-based as validate prints it."),
    db: SourceDb = None,
    game_id: int | None = typer.Option(None, "--game-id", help="games.game_id (with --db)."),
    ply: str | None = typer.Option(
        None, "--ply", "-p",
        help="A ply number (0 = start), [cyan]end[/cyan], or a finding code (its first ply). "
             "Default: the first error's ply, else the end."),
    variant: Variant = None,
    width: int | None = typer.Option(None, "--width", help="Terminal width to draw for."),
) -> None:
    """A game at one ply in the terminal: board, moves, comments, findings, legal moves.

    The board is drawn as the variant numbers it (Italian on its mirrored board), White at
    the bottom; the move of the ply is marked, and at an error the squares of the move as
    written are red and the legal moves there are listed.
    """
    from pdnkit.lean.forms import run_show

    run_show(file, game, db, game_id, ply, variant, width)  # as the quick form runs it


@app.command("view", epilog=(
    "Examples:\n\n"
    "  [bold]pdnkit view games.pdn --out games.html[/bold]\n\n"
    "  [bold]pdnkit view --db club.duckdb --where \"status = 'error'\" --out broken.html[/bold]"
    "\n\nOpen the page in any browser; it needs no network. [cyan]page.html#g=N&ply=K[/cyan] "
    "opens game N (counted from 1, as show --game counts) at ply K."))
def view_cmd(
    paths: list[Path] | None = typer.Argument(None, help="PDN files or folders.",
                                              show_default=False),
    out: Path = typer.Option(Path("games.html"), "--out", "-o", help="The HTML page to write."),
    db: SourceDb = None,
    where: str | None = typer.Option(None, "--where",
                                     help="SQL condition on the games table (with --db)."),
    variant: Variant = None,
    limit: int | None = typer.Option(None, "--limit", min=1, help="At most this many games."),
    engine: str | None = typer.Option(
        None, "--engine", "-E",
        help="With --db: whose analysis to graph where the database holds several (an "
             "engine's name, or the start of [cyan]name version depth N[/cyan]; default: "
             "the one with the most positions)."),
    all_copies: bool = typer.Option(
        False, "--all-copies", help="With --db: every record, the copies of a game included "
                                    "([bold]pdnkit duplicates[/bold] lists them). By default "
                                    "each game once, by the record that stands for its "
                                    "copies."),
) -> None:
    """One self-contained HTML game viewer: game list, board, moves, findings, and the engine's evaluation graph where the games were analysed.

    The page lists the games (filter by status, finding code, text), draws each position on
    the variant's board with its numbering, steps through the plies with buttons or the arrow
    keys, draws captures as arrows and, for every finding, jumps to its ply, marks the move as
    written and lists the legal moves there. Every position is computed by pdnkit.
    """
    from pdnkit.viewer import view

    if (not paths) == (db is None):
        raise fail("give PDN files, or --db DB (with --where to choose games)")
    if where is not None and db is None:
        raise fail("--where needs --db")
    if all_copies and db is None:
        raise fail("--all-copies needs --db")
    for p in paths or []:
        if not p.exists():
            raise fail(f"no such file or folder: {p}")
    if out.suffix.lower() not in (".html", ".htm"):
        raise fail("--out must end in .html")
    check(out, [*(paths or []), db] if db is not None else list(paths or []))
    with usage_errors(), user_sql("--where"):  # no database, no PDN file in a folder
        summary = view([str(p) for p in paths] if paths else None, out=out,
                       db=str(db) if db else None, where=where, variant=variant, limit=limit,
                       engine=engine, all_copies=all_copies)
    typer.echo(f"wrote {summary.path}: {summary.games} games, {summary.errors} with errors")
