"""``pdnkit analyse``: evaluate every position of a collection with an engine.

A thin shell over :func:`pdnkit.analysis.analyse`; the findings it leaves are printed as
``validate`` prints its own (text), or written as rows (JSONL, CSV).
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any

import typer

from pdnkit.cli.app import app, fail, usage_errors, user_sql
from pdnkit.cli.options import VALIDATE_FORMATS, Db, Variant, format_name
from pdnkit.lean.tables import Safe, markup_safe, output

ENGINE_HELP = ("[cyan]builtin[/cyan] (the built-in tactical check: exact material, every "
               "variant), or the command line of a Hub engine in quotes: [cyan]\"dame "
               "hub\"[/cyan], [cyan]\"/opt/scan/scan hub\"[/cyan] (10x10 variants).")


def _params(values: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for text in values or []:
        name, eq, value = text.partition("=")
        if not eq or not name.strip():
            raise fail(f"--param takes NAME=VALUE, not {text!r}")
        out[name.strip()] = value
    return out


@app.command("analyse", epilog=(
    "Examples:\n\n"
    "  [bold]pdnkit analyse games.pdn --db club.duckdb --engine builtin --depth 6[/bold]\n\n"
    "  [bold]pdnkit analyse games/ --db club.duckdb --engine \"dame hub\" --depth 8 --jobs 2"
    "[/bold]\n\n"
    "  [bold]pdnkit analyse --db club.duckdb --engine \"scan hub\" --movetime 0.5 --where "
    "\"event ILIKE '%Championship%'\"[/bold]\n\n"
    "  [bold]pdnkit analyse --db club.duckdb --engine builtin --blunder 2 -f csv -o m.csv"
    "[/bold]   (findings again, other thresholds: nothing is searched twice)\n\n"
    "Running it again evaluates only what is missing (a second run, or the rest after "
    "Ctrl-C). Read the scores with [bold]pdnkit query \"SELECT * FROM evals\"[/bold], the "
    "players with [bold]pdnkit stats accuracy[/bold], a game's graph with [bold]pdnkit "
    "view --db[/bold], the annotated games with [bold]pdnkit export --annotate[/bold]."))
def analyse_cmd(
    paths: list[Path] | None = typer.Argument(
        None, show_default=False,
        help="PDN files or folders: imported first where the database does not hold them "
             "(same bytes: nothing is read again); only their games are analysed. Without "
             "any: the database's games (or those --where selects)."),
    db: Db = None,
    engine: str = typer.Option("builtin", "--engine", "-E", help=ENGINE_HELP),
    depth: int | None = typer.Option(
        None, "--depth", "-d", min=1,
        help="Plies each position is searched to (default 6; the built-in check goes on "
             "while captures are pending)."),
    movetime: float | None = typer.Option(
        None, "--movetime", min=0.001, help="Seconds per position instead of a depth (Hub "
                                            "engines)."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1,
                             help="Engines at work at once, one game each."),
    timeout: float | None = typer.Option(
        None, "--timeout", min=0.1,
        help="Seconds a Hub engine may take for one position before it counts as hung and is "
             "killed (default 60, or five times --movetime and 10 more)."),
    param: list[str] | None = typer.Option(
        None, "--param", help="Set a parameter the Hub engine declares: NAME=VALUE "
                              "(repeat it; part of the analysis's key)."),
    where: str | None = typer.Option(None, "--where",
                                     help="Only the games this SQL condition on the games "
                                          "table selects."),
    variant: Variant = None,
    all_copies: bool = typer.Option(
        False, "--all-copies",
        help="Analyse every record, the copies of a game included ([bold]pdnkit duplicates"
             "[/bold] lists them). By default each game is analysed once, as the record that "
             "stands for its copies."),
    mistake: float | None = typer.Option(
        None, "--mistake", min=0.01, help="Loss in men from which a move is a mistake "
                                          "(default 0.5)."),
    blunder: float | None = typer.Option(
        None, "--blunder", min=0.01, help="Loss in men from which a move is a blunder "
                                          "(default 1.0)."),
    shot: float | None = typer.Option(
        None, "--shot", min=0.01, help="Material in men a missed win must have been worth "
                                       "to be a missed shot (default 1.0)."),
    fmt: str | None = typer.Option(
        None, "--format", "-f", metavar="FORMAT", show_default=False,
        help="[cyan]text[/cyan] (the findings as validate prints them, then a summary), "
             "[cyan]jsonl[/cyan] or [cyan]csv[/cyan] (one finding a row; summary on "
             "stderr). Default: from --out's extension, else text."),
    out: Path | None = typer.Option(None, "--out", "-o", show_default=False,
                                    help="Write the findings to this file."),
    quiet: bool = typer.Option(False, "--quiet", "-q",
                               help="Text: the summary only; no progress bar."),
) -> None:
    """Evaluate every position of every game with an engine, keep the scores in the
    [cyan]evals[/cyan] table, and name the mistakes.

    Each position of each main line (the start and the position after every ply) is searched once per engine and settings; the score (men, White's view), depth, the engine's move and line as PDN in the game's notation, and nodes are stored. Then every move is judged by the scores before and after it: [bold]blunder[/bold] (a loss of a man or more), [bold]mistake[/bold] (half a man), [bold]missed-shot[/bold] (a win of material let go) become findings of the game. The built-in check is material, not positional judgement; a Hub engine's score is its own.

    Each game is analysed once: a copy of a game ([bold]pdnkit duplicates[/bold]) is analysed as the record that stands for it, whose scores and findings are the copy's; [bold]--all-copies[/bold] analyses every record.

    Engines run as child processes that end with pdnkit; a crash, a hang (--timeout) or an answer that cannot be read is an engine-failed finding, the next position gets a new engine. Games of variants the engine does not play are left out with a note.
    """
    from pdnkit.analysis import analyse
    from pdnkit.analysis.thresholds import THRESHOLDS

    chosen = format_name(fmt, VALIDATE_FORMATS) if fmt else None
    sink = output(chosen, out, list(paths or []) + ([db] if db else []),
                  allowed=VALIDATE_FORMATS, unknown_suffix="text")
    if depth is not None and movetime is not None:
        raise fail("give --depth or --movetime, not both")
    with usage_errors():
        scale = "material" if engine.strip().lower() == "builtin" else "positional"
        thresholds = THRESHOLDS[scale].with_values(mistake, blunder, shot)
    notes = _Notes()
    try:
        with usage_errors(), user_sql("--where"):
            summary = analyse([str(p) for p in paths] if paths else None, db, engine=engine,
                              depth=depth, movetime=movetime, params=_params(param),
                              timeout=timeout, jobs=jobs, where=where, variant=variant,
                              thresholds=thresholds, progress=not quiet, note=notes.say,
                              all_copies=all_copies)
    except KeyboardInterrupt:
        typer.echo("pdnkit: interrupted: the positions evaluated so far are kept; run the "
                   "same command again to go on", err=True)
        raise typer.Exit(130) from None
    _report(summary, db, sink, quiet)
    if summary.games == 0 and not summary.skipped:
        typer.echo("pdnkit: no game to analyse (no game with positions in the database, or "
                   "none that --where selects)", err=True)


class _Notes:
    """What the analysis says on the way: a line on standard error each."""

    def say(self, text: str) -> None:
        typer.echo(f"pdnkit: {text}", err=True)


def _report(summary: Any, db: Path | None, sink: Any, quiet: bool) -> None:
    """The findings of the games analysed (as the sink's format), then the summary."""
    from rich.console import Console

    from pdnkit.analysis.thresholds import stored_findings
    from pdnkit.store.session import reading

    with reading(db) as con:
        df = stored_findings(con, summary.key, *summary.scope) if summary.key else None
    with contextlib.ExitStack() as stack:
        from pdnkit._atomic import atomic_output

        stream = (stack.enter_context(atomic_output(sink.path, inputs=sink.inputs, newline=""))
                  if sink.path is not None else sys.stdout)
        if df is not None and sink.format in ("jsonl", "csv"):
            body = df.drop(columns=["col"])
            if sink.format == "csv":
                body.to_csv(stream, index=False)
            else:
                body.to_json(stream, orient="records", lines=True, force_ascii=False)
        elif df is not None and not quiet:
            text = Console(file=stream, highlight=False, soft_wrap=True, width=10_000)
            for r in df.itertuples(index=False):
                style = "yellow" if r.severity == "warning" else "dim"
                text.print(f"[{style}]{markup_safe(_line(r))}[/{style}]")
    to_stderr = sink.format != "text" or sink.path is not None
    Console(stderr=to_stderr, highlight=False, soft_wrap=True).print(Safe(str(summary)))


def _line(r: Any) -> str:
    """One finding as ``validate`` writes it: file, game, line, ply, code, move, message."""
    import pandas as pd

    where = [str(r.path), f"game {int(r.game_index) + 1}"]
    if not pd.isna(r.line):
        where.append(f"line {int(r.line)}")
    if not pd.isna(r.ply):
        where.append(f"ply {int(r.ply)}")
    move = f" [{r.move}]" if isinstance(r.move, str) and r.move else ""
    return f"{', '.join(where)}: {r.severity} {r.code}{move}: {r.message}"
