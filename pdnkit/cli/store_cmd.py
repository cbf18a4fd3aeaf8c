"""``pdnkit import``, ``query``, ``export``, ``duplicates`` and ``demo``: the game database.

Each command is a thin shell over the library function of the same name in
:mod:`pdnkit.store`.
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import Any

import typer

from pdnkit.cli.app import ENCODING_HELP, app
from pdnkit.cli.app import fail as _fail
from pdnkit.cli.validate_cmd import IRREGULAR_HELP, Irregular

_DB_HELP = "The DuckDB database file (default: [cyan]pdnkit.duckdb[/cyan] in the current folder)."


class QueryFormat(str, Enum):
    """Output formats of ``pdnkit query``."""

    table = "table"
    csv = "csv"
    json = "json"
    parquet = "parquet"


class ListFormat(str, Enum):
    """Output formats of ``pdnkit duplicates``."""

    table = "table"
    csv = "csv"
    json = "json"


class ImportFormat(str, Enum):
    """Output formats of ``pdnkit import``."""

    text = "text"
    json = "json"



def _print_table(df: Any, limit: int | None = None, title: str | None = None) -> None:
    """Print a DataFrame as a rich table (the first ``limit`` rows)."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    shown = df if limit is None or len(df) <= limit else df.head(limit)
    table = Table(title=title, show_lines=False, header_style="bold")
    for col in df.columns:
        table.add_column(str(col), overflow="fold")
    for row in shown.itertuples(index=False):
        table.add_row(*(_cell(v) for v in row))
    console.print(table)
    if len(shown) < len(df):
        console.print(f"[dim]... {len(df) - len(shown)} more rows (use --limit or "
                      "--format csv)[/dim]")


def _cell(v: Any) -> str:
    if v is None:
        return ""
    try:
        import pandas as pd

        if not isinstance(v, (list, tuple, dict)) and not hasattr(v, "__len__") and pd.isna(v):
            return ""
    except (TypeError, ValueError):
        pass
    if hasattr(v, "tolist"):
        v = v.tolist()
    return str(v)


def _jsonable_df(df: Any) -> list[dict[str, Any]]:
    """A DataFrame as JSON-ready records (dates as ISO text, arrays as lists)."""
    return json.loads(df.to_json(orient="records", date_format="iso", default_handler=str))


def _csv_frame(df: Any) -> Any:
    """``df`` with every list, array or map cell as JSON text (``[279, 280]``,
    ``["a.pdn#1", "b.pdn#2"]``): one CSV field each, read back with any JSON parser.

    Example:
        >>> import numpy as np, pandas as pd
        >>> _csv_frame(pd.DataFrame({"ids": [np.array([279, 280])], "n": [2]})).to_csv(
        ...     index=False).splitlines()
        ['ids,n', '"[279, 280]",2']
    """
    def cell(v: Any) -> Any:
        if hasattr(v, "tolist") and not isinstance(v, (str, bytes)) and getattr(v, "ndim", 0):
            v = v.tolist()
        if isinstance(v, (list, tuple, dict)):
            return json.dumps(_plain(v), ensure_ascii=False, default=str)
        return v

    out = df.copy()
    for col in out.columns:
        if out[col].dtype == object:
            out[col] = [cell(v) for v in out[col]]
    return out


def _plain(v: Any) -> Any:
    """Nested lists/dicts with numpy values made plain Python (for ``json.dumps``)."""
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if hasattr(v, "tolist"):
        return _plain(v.tolist())
    return v


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
    db: Path | None = typer.Option(None, "--db", help=_DB_HELP),
    variant: str | None = typer.Option(
        None, "--variant", "-v",
        help="Rules for games without a GameType tag (a name, alias or GameType number; "
             "see [bold]pdnkit variants[/bold]). A game's own GameType tag wins."),
    edition: str | None = typer.Option(None, "--edition",
                                       help="Rules edition for draw rules (e.g. wcdf)."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1,
                             help="Worker processes that read, replay and build the rows; "
                                  "this process only loads them (faster with 2 or more)."),
    replace: bool = typer.Option(False, "--replace",
                                 help="Reload files that are already in the database."),
    format: ImportFormat = typer.Option(ImportFormat.text, "--format", "-f",
                                        help="Summary as [cyan]text[/cyan] or [cyan]json[/cyan]."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    encoding: str | None = typer.Option(
        None, "--encoding",
        help=ENCODING_HELP),
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
    irregular: Irregular = typer.Option(Irregular.stand, "--irregular", help=IRREGULAR_HELP),
    select: list[str] | None = typer.Option(
        None, "--select", help="Count only these finding codes (CODE,CODE ...) in the "
                               "summary; every finding is stored all the same."),
    ignore: list[str] | None = typer.Option(
        None, "--ignore", help="Leave these finding codes (CODE,CODE ...) out of the "
                               "summary; they are stored all the same."),
) -> None:
    """Read, replay and load PDN files into a DuckDB database (or a Parquet lake).

    Every game of every file gets a row in [cyan]games[/cyan] (even one that does not
    parse, with its raw text), its moves in [cyan]moves[/cyan], every position reached in
    [cyan]positions[/cyan] and every problem in [cyan]findings[/cyan]. Each file is loaded
    in one transaction, however large: an import stopped by Ctrl-C, a kill or a crash leaves
    every file either fully loaded or absent, and memory stays flat. Importing the same bytes
    again, under any name, loads nothing (content hash); the new name is recorded in
    [cyan]file_paths[/cyan] ([bold]pdnkit duplicates --files[/bold] lists such files). A
    file edited since its import replaces its old version. Worker processes end with the
    import, even when it is killed. Then explore with [bold]pdnkit query[/bold].

    With [bold]--lake DIR[/bold] the same tables are written as Parquet files under DIR,
    one part per chunk of a file, by Dask tasks that each read their own byte range; every
    read command then takes [bold]--db DIR[/bold].
    """
    from pdnkit.pdn.source import check_encoding
    from pdnkit.store import import_files
    from pdnkit.validation import check_codes

    try:
        codes = check_codes(select, ignore)
    except ValueError as exc:  # unknown code
        raise _fail(str(exc)) from None
    try:
        if lake is not None:
            from pdnkit.lake import import_lake

            summary = import_lake(paths, lake, variant, edition=edition, engine=engine,
                                  scheduler=scheduler, workers=workers,
                                  chunk_bytes=int(chunk_mb * (1 << 20)), replace=replace,
                                  progress=not quiet, encoding=check_encoding(encoding),
                                  irregular=irregular.value)
        else:
            summary = import_files(paths, db=db, variant=variant, jobs=jobs, replace=replace,
                                   progress=not quiet, edition=edition,
                                   encoding=check_encoding(encoding),
                                   irregular=irregular.value)
    except ImportError as exc:  # the dask extra is missing
        raise _fail(str(exc)) from None
    except FileNotFoundError as exc:
        raise _fail(str(exc)) from None
    except ValueError as exc:  # unknown variant
        raise _fail(str(exc)) from None
    if codes is not None:  # the summary only: the findings table keeps every finding
        chosen, ignored = codes
        for code in list(summary.code_counts):
            if code in ignored or (chosen is not None and code not in chosen):
                summary.findings -= summary.code_counts.pop(code)
    if format is ImportFormat.json:
        typer.echo(json.dumps(summary.to_dict(), indent=2, default=str))
    else:
        typer.echo(str(summary))
    if summary.failed:
        raise typer.Exit(code=1)


@app.command(
    "query",
    epilog=(
        "Examples:\n\n"
        "  [bold]pdnkit query \"SELECT variant, count(*) FROM games GROUP BY ALL\"[/bold]\n\n"
        "  [bold]pdnkit query \"SELECT * FROM findings\" --format csv --out findings.csv[/bold]"
        "\n\n"
        "  [bold]pdnkit query \"SELECT * FROM moves\" --format parquet --out moves.parquet[/bold]"
        "\n\n  [bold]pdnkit query --write \"DELETE FROM games WHERE status = 'unparsed'\"[/bold]"
        "\n\nTables: files, file_paths, games, moves (a view of move_rows), positions (a view "
        "of position_bits: FEN and key derived), findings, rule_events, variants, layouts, "
        "player_aliases (see docs/schema.md)."
    ),
)
def query_command(
    sql: str = typer.Argument(..., help="One SQL statement (DuckDB dialect)."),
    db: Path | None = typer.Option(None, "--db", help=_DB_HELP),
    format: QueryFormat = typer.Option(
        QueryFormat.table, "--format", "-f",
        help="[cyan]table[/cyan] (rich, on screen), [cyan]csv[/cyan], [cyan]json[/cyan] "
             "(a list of objects) or [cyan]parquet[/cyan] (needs --out)."),
    out: Path | None = typer.Option(None, "--out", "-o",
                                    help="Write to this file instead of the screen."),
    limit: int = typer.Option(50, "--limit", help="Rows shown by --format table."),
    write: bool = typer.Option(False, "--write",
                               help="Open the database for writing (DELETE, UPDATE, CREATE "
                                    "...). Without it the database is read-only and SQL "
                                    "cannot read or write files."),
) -> None:
    """Run SQL on the game database and print or save the result.

    The database is opened read-only (a read-only file works) and the SQL cannot reach
    files ([cyan]COPY ... TO[/cyan], [cyan]read_csv[/cyan], [cyan]ATTACH[/cyan] are
    refused): write results with [cyan]--out[/cyan] instead. [cyan]--write[/cyan] allows
    changes. One statement at a time.
    """
    from pdnkit.store import query

    if format is QueryFormat.parquet and out is None:
        raise _fail("--format parquet needs --out FILE")
    if out is not None:
        from pdnkit._atomic import check_not_input

        check_not_input(out, [db or Path("pdnkit.duckdb")])
    try:
        df = query(sql, db=db, write=write)
    except FileNotFoundError as exc:
        raise _fail(str(exc)) from None
    except ValueError as exc:  # several statements
        raise _fail(str(exc)) from None
    except Exception as exc:  # SQL errors from DuckDB
        if type(exc).__module__.split(".")[0] in ("duckdb", "_duckdb"):
            raise _fail(_sql_error(exc, write)) from None
        raise
    _write_frame(df, format.value, out, limit, db)


def _sql_error(exc: Exception, write: bool) -> str:
    """A DuckDB error of the user's SQL, with what to do when the read-only mode refused it."""
    text = str(exc).strip()
    if not write and "read-only mode" in text:
        return text.splitlines()[0] + " (add --write to change the database)"
    if "file system operations are disabled" in text:
        return (text.splitlines()[0] + " (SQL cannot read or write files here: save a "
                "result with --out FILE --format csv|json|parquet)")
    return text


def _write_frame(df: Any, fmt: str, out: Path | None, limit: int | None,
                 db: Path | None = None) -> None:
    """Print ``df`` or write it to ``out`` (whole or not at all, never over the database)."""
    from pdnkit._atomic import atomic_output, atomic_path

    inputs = [db or Path("pdnkit.duckdb")]
    text: str | None = None
    if fmt == "parquet":
        with atomic_path(out or Path("out.parquet"), inputs) as tmp:
            df.to_parquet(tmp, index=False)  # written by pyarrow, not by SQL
    elif fmt == "csv":
        text = _csv_frame(df).to_csv(index=False)
    elif fmt == "json":
        text = json.dumps(_jsonable_df(df), indent=1, ensure_ascii=False) + "\n"
    elif out is not None:
        text = df.to_string(index=False) + "\n"
    else:
        _print_table(df, limit)
        return
    if text is not None:
        if out is None:
            sys.stdout.write(text)
        else:
            with atomic_output(out, inputs=inputs) as fh:
                fh.write(text)
    if out is not None:
        typer.echo(f"{len(df)} rows -> {out}", err=True)


@app.command(
    "export",
    epilog=(
        "Examples:\n\n"
        "  [bold]pdnkit export --out all.pdn[/bold]\n\n"
        "  [bold]pdnkit export --where \"variant = 'russian' AND status = 'ok'\" "
        "--out clean.pdn[/bold]"
    ),
)
def export_command(
    out: Path = typer.Option(..., "--out", "-o", help="The PDN file to write ('-': stdout)."),
    db: Path | None = typer.Option(None, "--db", help=_DB_HELP),
    where: str | None = typer.Option(
        None, "--where", "-w",
        help="SQL condition on the [cyan]games[/cyan] table, e.g. "
             "[cyan]\"year >= 2000 AND white LIKE 'Sijbrands%'\"[/cyan]."),
) -> None:
    """Write games from the database as canonical PDN 3.0.

    Moves are written in canonical notation where they were replayed; tags, comments,
    variations and results as read. Importing the export gives the same games. The file
    is written whole or not at all (an existing one is replaced only at the end), the
    database is opened read-only and [cyan]--where[/cyan] cannot reach files.
    """
    from pdnkit.store import export

    try:
        if str(out) == "-":
            n = export(sys.stdout, db=db, where=where)
        else:
            n = export(out, db=db, where=where)
    except FileNotFoundError as exc:
        raise _fail(str(exc)) from None
    except Exception as exc:
        if type(exc).__module__.split(".")[0] in ("duckdb", "_duckdb"):
            raise _fail(_sql_error(exc, False)) from None
        raise
    typer.echo(f"{n} games -> {out}", err=True)


@app.command(
    "duplicates",
    epilog="Example:\n\n  [bold]pdnkit duplicates --db games.duckdb --format csv[/bold]",
)
def duplicates_command(
    db: Path | None = typer.Option(None, "--db", help=_DB_HELP),
    format: ListFormat = typer.Option(ListFormat.table, "--format", "-f",
                                      help="[cyan]table[/cyan], [cyan]csv[/cyan] or "
                                           "[cyan]json[/cyan]."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Write to this file."),
    limit: int = typer.Option(50, "--limit", help="Groups shown by --format table."),
    files: bool = typer.Option(False, "--files",
                               help="List identical files instead: the same bytes imported "
                                    "under several paths (loaded once)."),
) -> None:
    """List groups of games with identical moves (same variant, start and main line).

    For each group: how many games, where they are ([cyan]path#game-number[/cyan]), the
    players, and whether their tags differ (and which). Like pgn-extract's duplicate
    detection for chess. With [cyan]--files[/cyan]: files whose bytes were imported under
    more than one path, with every path. In CSV, list fields (game_ids, locations, paths
    ...) are JSON lists such as [cyan]"[279, 280]"[/cyan].
    """
    from pdnkit.store import duplicates

    try:
        df = duplicates(db=db, files=files)
    except FileNotFoundError as exc:
        raise _fail(str(exc)) from None
    if files and format is ListFormat.table and out is None:
        if df.empty:
            typer.echo("no identical files")
            return
        shown = df.drop(columns=["sha256"]).copy()
        shown["paths"] = ["\n".join(p) for p in shown["paths"]]
        _print_table(shown, limit, title=f"{len(df)} file(s) imported under several paths")
        return
    if format is ListFormat.table and out is None:
        if df.empty:
            typer.echo("no duplicate games")
            return
        shown = df.drop(columns=["moves_hash", "game_ids"]).copy()
        shown["locations"] = [", ".join(Path(loc).name for loc in locs)
                              for locs in shown["locations"]]
        shown["differing_tags"] = [", ".join(t) for t in shown["differing_tags"]]
        shown["players"] = ["; ".join(p) for p in shown["players"]]
        _print_table(shown, limit, title=f"{len(df)} group(s) of games with identical moves")
        return
    _write_frame(df, format.value, out, limit, db)


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
    from rich.console import Console

    from pdnkit.store import demo

    result = demo(out, jobs=jobs, progress=True)
    console = Console()
    typer.echo(f"pdnkit demo: {len(result.files)} sample files "
               f"({sample_dir_text(result.files)}) -> {result.db}\n")
    typer.echo(str(result.summary))
    for title, df in result.tables.items():
        _print_table(df, 30, title=title)
    console.print("\n[bold]Try next[/bold]")
    for line in result.next_steps():
        typer.echo(f"  {line}")


def sample_dir_text(files: list[Path]) -> str:
    """The folder of the sample files, for the demo's first line."""
    return str(files[0].parent) if files else "no samples"
