"""``pdnkit import``, ``query``, ``export``, ``upgrade``, ``duplicates``, ``rule-copies``,
``merge`` and ``demo``: the game
database.

Each command is a thin shell over the library function of the same name in
:mod:`pdnkit.store`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from pdnkit.cli.app import app, fail, usage_errors, user_sql
from pdnkit.cli.options import (
    Db,
    Edition,
    Encoding,
    Format,
    Ignore,
    Irregular,
    IrregularOpt,
    JsonFormat,
    Out,
    Select,
    SourceDb,
    Variant,
    Wide,
)
from pdnkit.errors import ArgumentError
from pdnkit.lean.tables import check, emit, output, print_table, screen, terminal_safe


@app.command(
    "import",
    epilog=(
        "Examples:\n\n"
        "  [bold]pdnkit import games/[/bold]                 every *.pdn below games/\n\n"
        "  [bold]pdnkit import a.pdn b.pdn --db my.duckdb --jobs 2[/bold]\n\n"
        "  [bold]pdnkit import old.pdn --variant russian --replace[/bold]\n\n"
        "  [bold]pdnkit import big.pdn --lake games.lake --workers 2[/bold]   Parquet, on Dask"
    ),
)
def import_command(
    paths: list[Path] = typer.Argument(
        ..., help="PDN files, and folders to search for *.pdn; [cyan]-[/cyan] reads standard "
                  "input (recorded as <stdin>)."),
    db: Db = None,
    variant: Variant = None,
    edition: Edition = None,
    jobs: int = typer.Option(1, "--jobs", "-j", min=1,
                             help="Worker processes that read, replay and build the rows while "
                                  "this process loads them (on the compiled core each reads "
                                  "parts of a file's bytes and sends its rows back as Arrow): "
                                  "used only where they pay (a free core, a large input, "
                                  "the first games' measured rate; on the compiled core from "
                                  "three cores: on two the database work left to this "
                                  "process is the bound)."),
    replace: bool = typer.Option(False, "--replace",
                                 help="Reload files that are already in the database."),
    fmt: JsonFormat = None,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    encoding: Encoding = None,
    lake: str | None = typer.Option(
        None, "--lake",
        help="Write a Parquet lake in this folder (or fsspec URL) instead of a DuckDB file; "
             "read it back with --db DIR."),
    engine: str = typer.Option("dask", "--engine",
                               help="With --lake: [cyan]dask[/cyan] (a cluster) or "
                                    "[cyan]local[/cyan] (this process)."),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help="With --engine dask: the address of a running "
                                  "dask.distributed scheduler (default: a LocalCluster)."),
    workers: int | None = typer.Option(None, "--workers", min=1,
                                       help="LocalCluster worker processes (default: cores)."),
    chunk_mb: float = typer.Option(4.0, "--chunk-mb", min=0.001,
                                   help="With --lake: megabytes of a file per task."),
    irregular: IrregularOpt = Irregular.stand,
    select: Select = None,
    ignore: Ignore = None,
    openings: list[Path] | None = typer.Option(
        None, "--openings",
        help="An opening table of your own (CSV, named openings) for the games of --variant: "
             "stored in the database and used for this import and later ones (as "
             "[bold]pdnkit openings load[/bold]; repeat for more)."),
) -> None:
    """Read, replay and load PDN files into a DuckDB database (or a Parquet lake).

    Every game of every file gets a row in [cyan]games[/cyan] (even one that does not
    parse, with its raw text; its opening by position in [cyan]opening_code[/cyan],
    [cyan]opening_name[/cyan], and its novelty in [cyan]novelty_ply[/cyan]), its moves in
    [cyan]moves[/cyan], every position reached in [cyan]positions[/cyan] and every problem
    in [cyan]findings[/cyan]. Each file is loaded
    in one transaction, however large: an import stopped by Ctrl-C, a kill or a crash leaves
    every file either fully loaded or absent, and memory stays flat. Importing the same bytes
    again, under any name, loads nothing (content hash); the new name is recorded in
    [cyan]file_paths[/cyan] ([bold]pdnkit duplicates --files[/bold] lists such files). A
    file edited since its import replaces its old version. Worker processes end with the
    import, even when it is killed. A database made by an older pdnkit is upgraded first
    (a notice on standard error; the database as it was is kept as
    [cyan]NAME.schemaN.bak[/cyan], see [bold]pdnkit upgrade[/bold]). A second import into
    the same database or lake while one runs stops at once, naming it, and writes nothing.
    Then explore with [bold]pdnkit query[/bold].

    With [bold]--lake DIR[/bold] the same tables are written as Parquet files under DIR,
    one part per chunk of a file, by Dask tasks that each read their own byte range; every
    read command then takes [bold]--db DIR[/bold].
    """
    from pdnkit.store import import_files
    from pdnkit.validation import check_codes

    with usage_errors():  # an unknown code, no such file, an unknown variant
        codes = check_codes(select, ignore)
        if openings and (variant is None or lake is not None):
            raise ArgumentError("--openings needs --variant (the variant whose games the table "
                             "names) and a DuckDB database (not --lake)")
        if lake is not None:
            from pdnkit.lake import import_lake

            try:
                summary = import_lake(paths, lake, variant, edition=edition, engine=engine,
                                      scheduler=scheduler, workers=workers,
                                      chunk_bytes=int(chunk_mb * (1 << 20)), replace=replace,
                                      progress=not quiet, encoding=encoding,
                                      irregular=irregular.value)
            except ImportError as exc:  # the dask extra is missing
                raise ArgumentError(str(exc)) from None
        else:
            summary = import_files(paths, db=db, variant=variant, jobs=jobs, replace=replace,
                                   progress=not quiet, edition=edition, encoding=encoding,
                                   irregular=irregular.value, openings=openings or ())
    if codes is not None:  # the summary only: the findings table keeps every finding
        chosen, ignored = codes
        for code in list(summary.code_counts):
            if code in ignored or (chosen is not None and code not in chosen):
                summary.findings -= summary.code_counts.pop(code)
    if fmt == "json":
        typer.echo(json.dumps(summary.to_dict(), indent=2, default=str))
    else:
        typer.echo(terminal_safe(str(summary)))  # file names as the file system has them
    if summary.failed:
        raise typer.Exit(code=1)


@app.command(
    "query",
    epilog=(
        "Examples:\n\n"
        "  [bold]pdnkit query \"SELECT variant, count(*) FROM games GROUP BY ALL\"[/bold]\n\n"
        "  [bold]pdnkit query \"SELECT * FROM findings\" --out findings.csv[/bold]"
        "\n\n"
        "  [bold]pdnkit query \"SELECT * FROM moves\" --out moves.parquet[/bold]"
        "\n\n  [bold]pdnkit query --write \"DELETE FROM games WHERE status = 'unparsed'\"[/bold]"
        "\n\nTables: files, file_paths, games, moves (a view of move_rows), positions (a view "
        "of position_bits: FEN and key derived), findings, rule_events, variants, layouts, "
        "player_aliases (see docs/schema.md)."
    ),
)
def query_command(
    sql: str = typer.Argument(..., help="One SQL statement (DuckDB dialect)."),
    db: Db = None,
    fmt: Format = None,
    out: Out = None,
    limit: int = typer.Option(50, "--limit", help="Rows shown by a text table on the screen."),
    wide: Wide = False,
    write: bool = typer.Option(False, "--write",
                               help="Open a DuckDB database for writing (DELETE, UPDATE, "
                                    "CREATE ..., and files as DuckDB allows: COPY, "
                                    "read_csv, ATTACH). Without it the database is "
                                    "read-only and SQL cannot read or write files. An older "
                                    "database is upgraded first (with a notice and a "
                                    "backup). A lake refuses it."),
) -> None:
    """Run SQL on the game database and print or save the result.

    The database is opened read-only (a read-only file works, an older one is never
    rewritten) and the SQL cannot reach files ([cyan]COPY ... TO[/cyan],
    [cyan]read_csv[/cyan], [cyan]ATTACH[/cyan] are refused): write results with
    [cyan]--out[/cyan] instead. On a lake ([bold]--db DIR[/bold]) the SQL reads the lake's own
    parts and nothing else, and only queries run. [cyan]--write[/cyan] allows changes to a
    DuckDB file and gives the SQL DuckDB's file access: use it with SQL you trust. One
    statement at a time.
    """
    from pdnkit.lean.streamed import emit_stream
    from pdnkit.store import query_stream

    sink = output(fmt, out, [db], wide=wide)
    with usage_errors(), user_sql(write_hint=not write), \
            query_stream(sql, db=db, write=write) as result:  # rows written as read
        emit_stream(result, sink, limit=limit)


@app.command(
    "export",
    epilog=(
        "Examples:\n\n"
        "  [bold]pdnkit export --out all.pdn[/bold]\n\n"
        "  [bold]pdnkit export --where \"variant = 'russian' AND status = 'ok'\" "
        "--out clean.pdn[/bold]\n\n"
        "  [bold]pdnkit export --annotate --out analysed.pdn[/bold]   (after pdnkit analyse)"
    ),
)
def export_command(
    out: Path = typer.Option(..., "--out", "-o", help="The PDN file to write ('-': stdout)."),
    db: Db = None,
    where: str | None = typer.Option(
        None, "--where", "-w",
        help="SQL condition on the [cyan]games[/cyan] table, e.g. "
             "[cyan]\"year >= 2000 AND white LIKE 'Sijbrands%'\"[/cyan]."),
    annotate: bool = typer.Option(
        False, "--annotate",
        help="Write the engine analysis into the games: [cyan]{[%eval 0.35,12]}[/cyan] after "
             "each move (the score after it, men, White's view; the depth), "
             "[cyan]$4[/cyan] (??) after a blunder, [cyan]$2[/cyan] (?) after a mistake or "
             "a missed shot."),
    engine: str | None = typer.Option(
        None, "--engine", "-E",
        help="With --annotate: which analysis, where the database holds several (an "
             "engine's name, or the start of [cyan]name version depth N[/cyan])."),
    all_copies: bool = typer.Option(
        False, "--all-copies", help="Write every record, the copies of a game included "
                                    "(default: each game once, by the record that stands "
                                    "for its copies)."),
) -> None:
    """Write games from the database as canonical PDN 3.0.

    Moves are written in canonical notation where they were replayed; tags, comments,
    variations and results as read. Each game is written once (the record that stands for
    its copies, [bold]pdnkit duplicates[/bold]) unless [cyan]--all-copies[/cyan]; to write
    one record per game with the tags its copies add, see [bold]pdnkit merge[/bold].
    Importing the export gives the same games. The file
    is written whole or not at all (an existing one is replaced only at the end), the
    database is opened read-only and [cyan]--where[/cyan] cannot reach files.
    """
    from pdnkit.store import export

    to_stdout = str(out) == "-"
    if not to_stdout:
        check(out, [db])  # the one output check, before anything is read
    with usage_errors(), user_sql("--where"):
        n = export(screen() if to_stdout else out, db=db, where=where,  # a terminal: safe
                   annotate=annotate, engine=engine, all_copies=all_copies)
    typer.echo(f"{n} games -> {out}", err=True)


@app.command(
    "upgrade",
    epilog=(
        "Examples:\n\n"
        "  [bold]pdnkit upgrade --db games.duckdb[/bold]\n\n"
        "  [bold]pdnkit upgrade --db games.lake[/bold]     a lake's manifest: paths relative "
        "to the lake"
    ),
)
def upgrade_command(db: Db = None) -> None:
    """Bring a database made by an older pdnkit up to the current schema.

    The database itself is never changed: a new file is made beside it
    ([cyan]NAME.upgrading[/cyan]) from its rows, checked, flushed and renamed over it in one
    step; the database as it was is kept as [cyan]NAME.schemaN.bak[/cyan] (a hard link, so
    no space is used until the swap; delete it when you no longer need it). Stopped at any
    moment (Ctrl-C, a kill, a crash), the database is as it was, and the next upgrade starts
    again. Read commands refuse an older database and name this command; [bold]import[/bold],
    [bold]query --write[/bold] and [bold]players alias[/bold] upgrade it themselves (with a
    notice). For a lake folder, its manifest entries get paths relative to the lake.

    An import stopped before its end (Ctrl-C, a kill, a full disk) leaves its games marked:
    their copies not grouped, their openings and novelties not brought up to date. The
    upgrade settles them, as the next import would, and says how many (an up-to-date
    database too).
    """
    from pdnkit.store import upgrade

    with usage_errors():  # no such database
        result = upgrade(db)
    typer.echo(terminal_safe(str(result)))


@app.command(
    "duplicates",
    epilog=("Examples:\n\n  [bold]pdnkit duplicates --db games.duckdb[/bold]\n\n"
            "  [bold]pdnkit duplicates --db games.duckdb --format json --out groups.json[/bold]"
            "\n\nThen: [bold]pdnkit rule-copies A B --same[/bold] (or --different) for a "
            "probable copy, [bold]pdnkit merge --db games.duckdb --out merged.pdn[/bold] for "
            "one record per game."),
)
def duplicates_command(
    db: Db = None,
    fmt: Format = None,
    out: Out = None,
    limit: int = typer.Option(50, "--limit", help="Groups shown by a text table on the screen."),
    wide: Wide = False,
    files: bool = typer.Option(False, "--files",
                               help="List identical files instead: the same bytes imported "
                                    "under several paths (loaded once)."),
    rulings: bool = typer.Option(False, "--rulings",
                                 help="List the rulings made with [bold]pdnkit rule-copies"
                                      "[/bold] instead."),
) -> None:
    """List the copies of one game: each group, the record that stands for it, each copy's kind.

    A copy is the same game recorded again: the same main line ([cyan]identical[/cyan],
    other [cyan]tags[/cyan], or [cyan]annotated[/cyan] with other comments, NAGs or
    variations), or its start of at least 20 plies ([cyan]prefix[/cyan]: the last moves
    lost), whose known players, dates, rounds and results do not contradict. The record
    with the longest main line, then a real result, the most tags, the fewest errors, the
    smallest path and game number stands for the group ([cyan]canonical[/cyan]); every
    statistic, report and export counts it alone unless [cyan]--all-copies[/cyan].
    Listed apart and counted as games of their own: [cyan]same-moves[/cyan] (other games
    with the same moves: a short book line) and [cyan]probable[/cyan] (the same players,
    event, date and round, other moves: rule on them with [bold]pdnkit rule-copies[/bold]).
    In CSV, list fields (locations, kinds ...) are JSON lists. With [cyan]--files[/cyan]:
    files whose bytes were imported under more than one path, with every path.
    """
    from rich.console import Console

    from pdnkit.lean.streamed import emit_stream
    from pdnkit.lean.tables import Rows, print_notes, show_table
    from pdnkit.store import duplicates, duplicates_stream

    sink = output(fmt, out, [db], wide=wide)
    if rulings:
        from pdnkit.store import rulings as ruled

        with usage_errors():
            emit(ruled(db), sink, limit=limit, empty="no rulings")
        return
    screen = sink.format == "text" and sink.to_screen
    if files and screen:  # on the screen: one path a line
        with usage_errors():
            df = duplicates(db=db, files=True)
        shown = df.drop(columns=["sha256"]).copy()
        shown["paths"] = ["\n".join(p) for p in shown["paths"]]
        emit(shown, sink, limit=limit, empty="no identical files",
             title=f"{len(df)} file(s) imported under several paths" if len(df) else None)
        return
    with usage_errors():
        stream = duplicates_stream(db=db, files=files)
    with stream:  # a few groups at a time, written as read: memory flat, a closed pipe stops it
        if not screen:
            emit_stream(stream, sink)
            return
        # the screen: the first rows reshaped (the counts of the title known beforehand)
        head = stream.head(stream.total if limit < 0 else limit)
    rows = [(r["group"], r["relation"], r["variant"], r["plies"], r["games"],
             "\n".join(f"{Path(loc).name} ({kind})"
                       for loc, kind in zip(r["locations"], r["kinds"], strict=True)),
             "; ".join(r["players"]), ", ".join(r["differing_tags"])) for r in head]
    counts = stream.counts
    title = (f"{counts['copies']} group(s) of copies, "
             f"{counts['same-moves']} line(s) of other games with the same moves, "
             f"{counts['probable']} pair(s) of probable copies to rule on"
             ) if stream.total else None
    console = Console(highlight=False)
    hidden = show_table(Rows(["group", "relation", "variant", "plies", "games", "locations",
                              "players", "differing_tags"], rows),
                        title=title, limit=limit, wide=sink.wide, console=console)
    print_notes(console, rows=stream.total, shown=min(limit, stream.total), hidden=hidden,
                empty="no copies")


@app.command(
    "rule-copies",
    epilog=("Examples:\n\n"
            "  [bold]pdnkit rule-copies 'nk2003.pdn#33' 'archive/nk2003.pdn#12' --same[/bold]"
            "\n\n"
            "  [bold]pdnkit rule-copies 1204 1377 --different[/bold]   (game_ids)\n\n"
            "  [bold]pdnkit duplicates --rulings[/bold]   every ruling"),
)
def rule_copies_command(
    first: str = typer.Argument(..., help="A record: PATH#N as pdnkit duplicates writes it "
                                          "(the file's name will do when only one file has "
                                          "it), or a game_id."),
    second: str = typer.Argument(..., help="The other record."),
    same: bool = typer.Option(False, "--same", help="They are one game: count it once."),
    different: bool = typer.Option(False, "--different",
                                   help="They are two games: never group them."),
    forget: bool = typer.Option(False, "--forget",
                                help="Forget the ruling: the rules of copies decide again."),
    db: Db = None,
) -> None:
    """Rule on two records: one game ([cyan]--same[/cyan]) or two ([cyan]--different[/cyan]).

    Copies are grouped only on what moves and tags show; a probable copy (the same
    players, event, date and round, other moves: a [cyan]probable-copy[/cyan] finding)
    counts as a game of its own until you rule. A ruling names each record by its file's
    content and its number there, so it holds when files are renamed or imported again;
    the groups and every statistic follow at once.
    """
    from pdnkit.store import rule_copies

    chosen = [name for name, on in (("same", same), ("different", different),
                                    ("forget", forget)) if on]
    if len(chosen) != 1:
        raise fail("give one of --same, --different or --forget")
    with usage_errors():
        result = rule_copies(db, first, second, chosen[0])
    typer.echo(terminal_safe(str(result)))


@app.command(
    "merge",
    epilog=("Examples:\n\n"
            "  [bold]pdnkit merge a.pdn b.pdn archive/ --out merged.pdn --log merge.csv[/bold]"
            "\n\n  [bold]pdnkit merge --db games.duckdb --out merged.pdn --log merge.json"
            "[/bold]"),
)
def merge_command(
    paths: list[Path] | None = typer.Argument(None, help="PDN files and folders to merge "
                                                         "(or --db)."),
    out: Path = typer.Option(..., "--out", "-o", help="The PDN file to write."),
    log: Path | None = typer.Option(None, "--log",
                                    help="The merge log: [cyan].csv[/cyan] or "
                                         "[cyan].json[/cyan], a row for every record and "
                                         "every tag taken or left out."),
    db: SourceDb = None,
    variant: Variant = None,
    edition: Edition = None,
    encoding: Encoding = None,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Write one record per game: each group of copies as the record that stands for it,
    with the tags it lacks taken from its copies.

    From PDN files (imported into a temporary database first, as the import reads them)
    or a database ([cyan]--db[/cyan]). The copies are those that [bold]pdnkit
    duplicates[/bold] lists; probable copies are both written (rule on them first with the
    command [bold]pdnkit rule-copies[/bold]). A tag a copy gives otherwise stays as the
    record written has it, and the log says so. The output is canonical PDN 3.0, written
    whole or not at all, never over an input.
    """
    from pdnkit.store import merge

    if bool(paths) == (db is not None):
        raise fail("give PDN files to merge or --db DB")
    with usage_errors():
        result = merge(paths or (), db=db, out=out, log=log, variant=variant,
                       edition=edition, encoding=encoding, progress=not quiet)
    typer.echo(terminal_safe(str(result)))


@app.command(
    "demo",
    epilog="Then try:  [bold]pdnkit query \"SELECT * FROM findings\" --db "
           "pdnkit-demo/pdnkit-demo.duckdb[/bold]",
)
def demo_command(
    out: Path = typer.Option(Path("pdnkit-demo"), "--out", "-o",
                             help="Folder for the demo database [cyan]pdnkit-demo.duckdb[/cyan]."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Worker processes."),
) -> None:
    """Import the bundled sample collections and show what pdnkit makes of them.

    The samples are games of several variants played by a small seeded search of pdnkit's
    rules engine, and a deliberately flawed collection with one game per finding code. The
    demo validates them into a fresh DuckDB file, writes a game viewer page beside it, prints
    the validation summary and a few statistics, and says what to try next.
    """
    import shutil

    from pdnkit.demo import demo, program_name

    result = demo(out, jobs=jobs, progress=True)  # type: ignore[operator, unused-ignore]
    typer.echo(terminal_safe(result.headline()) + "\n")
    typer.echo(str(result.summary))
    for title, df in result.tables.items():
        print_table(df, limit=30, title=title)
    program = program_name(sys.argv[0], shutil.which("pdnkit"))
    typer.secho("\nTry next", bold=True)  # on the stream the lines above went to
    if program != "pdnkit" and program.endswith("/pdnkit"):
        typer.echo(f"  (or first `. {Path(program).parent}/activate`, then type pdnkit alone)")
    for line in result.next_steps(program):
        typer.echo(f"  {line}")
