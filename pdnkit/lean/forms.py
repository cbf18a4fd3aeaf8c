"""The quick forms of the table commands (:mod:`pdnkit.launch`): a ``query`` line in its
common shapes runs here without the argument parser (Typer, click and the command modules),
calling the library function the command calls and writing through the same output layer
(:mod:`pdnkit.lean.tables`, :mod:`pdnkit.lean.streamed`), so it prints exactly what the Typer
command prints.

A quick form reads only the options listed for it, each spelled as the command's help spells
it (``--db X`` or ``--db=X``); any other option, a second positional argument, ``--help``, a
value the option would refuse, or standard output a terminal (a table fitted to its width)
leaves the line to :mod:`pdnkit.cli`, which reads it as always.

=================================================  =========================================
quick form                                         does
=================================================  =========================================
``pdnkit query SQL``                               :func:`pdnkit.store.query_stream`, written
                                                   as read; with ``--db``, ``--format``/``-f``,
                                                   ``--out``/``-o``, ``--limit``, ``--wide``
``pdnkit stats openings|results``                  :func:`pdnkit.stats.stats` (:func:`run_stats`),
                                                   with ``--db``, ``--format``, ``--out``,
                                                   ``--wide``
``pdnkit tree``                                    :func:`pdnkit.stats.tree` (:func:`run_tree`),
                                                   with those, ``--fen`` or ``--moves``,
                                                   ``--book``
``pdnkit search --fen F`` (or ``--pattern P``)     :func:`pdnkit.stats.search.search`
                                                   (:func:`run_search`), with those,
                                                   ``--side``, ``--mirror``, ``--first``,
                                                   ``--limit``
``pdnkit show FILE`` (or ``--db DB --game-id N``)  :func:`pdnkit.viewer.show`
                                                   (:func:`run_show`), with ``--game``/``-g``,
                                                   ``--ply``/``-p``, ``--width``
=================================================  =========================================

The command bodies they share with the Typer commands are here too (:func:`run_stats`,
:func:`run_tree`, :func:`run_search`): the Typer command reads its whole line and calls one,
the quick form reads its shape and calls the same one (``run_stats`` and ``run_tree`` with
``plain=True``: the statistic's plain table, :func:`pdnkit.stats.stats_table` or
:func:`pdnkit.stats.tree_table`, the same cells without importing pandas, in place of its
DataFrame, but for Parquet, written from the DataFrame's column types; ``run_search`` writes
the same stream either way).

Example:
    >>> command_line(["SELECT 1", "--db", "x.duckdb", "-f", "csv"], QUERY)
    (['SELECT 1'], {'db': 'x.duckdb', 'fmt': 'csv'})
    >>> command_line(["SELECT 1", "--write"], QUERY) is None   # not read here: Typer's
    True
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pdnkit.stats.filters import GameFilter

#: a quick form's runner: it does the command and returns the exit status
Runner = Callable[[], int]


@dataclass(frozen=True)
class Options:
    """The options a quick form reads: flags (spelling -> key) and options with a value
    (spelling -> key), and how many positional arguments it takes."""

    flags: Mapping[str, str]
    values: Mapping[str, str]
    positional: int


#: ``pdnkit query``'s options read here (the rest, ``--write`` among them, are Typer's)
QUERY = Options(flags={"--wide": "wide"},
                values={"--db": "db", "--format": "fmt", "-f": "fmt", "--out": "out",
                        "-o": "out", "--limit": "limit"},
                positional=1)


def command_line(args: Sequence[str], options: Options
                 ) -> tuple[list[str], dict[str, object]] | None:
    """The positional arguments and the options of a command line that ``options`` reads
    whole, else ``None`` (an option it does not read, a value that looks like an option, too
    many or too few positional arguments). A repeated option keeps its last value, as the
    command line does."""
    positional: list[str] = []
    read: dict[str, object] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg in options.flags:
            read[options.flags[arg]] = True
            continue
        name, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if name in options.values:
            if not eq:
                if i >= len(args):
                    return None
                value, i = args[i], i + 1
            if not value or value.startswith("-"):
                return None
            read[options.values[name]] = value
            continue
        if not arg or arg.startswith("-"):  # --help, -, --, an option not read here
            return None
        positional.append(arg)
    return (positional, read) if len(positional) == options.positional else None


def _format(value: object) -> str | None | bool:
    """The format a ``--format`` value names (``None``: not given), ``False`` when the
    command line would refuse it (Typer's check then says why)."""
    if value is None:
        return None
    from pdnkit.lean.tables import format_name
    from pdnkit.lean.usage import UsageError

    try:
        return format_name(str(value))
    except UsageError:
        return False


def query_form(args: Sequence[str]) -> Runner | None:
    """``query SQL`` with the options of :data:`QUERY`, standard output no terminal."""
    line = command_line(args, QUERY)
    if line is None or sys.stdout.isatty():
        return None
    (sql,), opts = line
    fmt = _format(opts.get("fmt"))
    limit = str(opts.get("limit", "50"))
    if fmt is False or not (limit.isascii() and limit.isdigit()):
        return None

    def run() -> int:
        from pdnkit.lean.streamed import emit_stream
        from pdnkit.lean.tables import output
        from pdnkit.lean.usage import usage_errors, user_sql

        db = Path(str(opts["db"])) if "db" in opts else None
        out = Path(str(opts["out"])) if "out" in opts else None
        sink = output(str(fmt) if fmt else None, out, [db], wide=bool(opts.get("wide")))
        from pdnkit.store import query_stream

        with usage_errors(), user_sql(write_hint=True), \
                query_stream(sql, db=db) as result:  # rows written as read
            emit_stream(result, sink, limit=int(limit))
        return 0

    return guarded(run)


def guarded(run: Runner) -> Runner:
    """``run``, ending as the command line's group ends a command: an error
    :func:`pdnkit.lean.usage.error_message` knows is one ``pdnkit: error:`` line and
    status 2; anything else (an output that cannot be written among them) is raised."""

    def guarded_run() -> int:
        try:
            return run()
        except Exception as exc:
            from pdnkit.lean.usage import write_error

            if not write_error(exc):
                raise
            return 2

    return guarded_run


#: where a table form's result goes (every table command's options)
_SINK = {"--db": "db", "--format": "fmt", "-f": "fmt", "--out": "out", "-o": "out"}
#: ``pdnkit stats KIND``'s options read here, and the kinds (the default grouping of each)
STATS = Options(flags={"--wide": "wide"}, values=_SINK, positional=1)
STATS_KINDS: dict[str, dict[str, Any]] = {"openings": {"plies": None, "by": "code"}, "results": {"by": "variant"}}
#: ``pdnkit tree``'s options read here
TREE = Options(flags={"--wide": "wide", "--book": "book"},
               values={**_SINK, "--fen": "fen", "--moves": "moves"}, positional=0)
#: ``pdnkit search``'s options read here
SEARCH = Options(flags={"--wide": "wide", "--mirror": "mirror", "--first": "first"},
                 values={**_SINK, "--fen": "fen", "--pattern": "pattern", "--side": "side",
                         "--limit": "limit"}, positional=0)
#: the filters' defaults, as the table commands give them without a filter option
NO_FILTER: dict[str, Any] = {"variant": None, "event": None, "player": None, "filter": None,
                             "date_from": None, "date_to": None}


def _path(value: object) -> Path | None:
    return None if value is None else Path(str(value))


def _sink_form(args: Sequence[str], options: Options,
               ) -> tuple[list[str], dict[str, object], str | None] | None:
    """The positional arguments, options and format of a table form's line, or ``None``
    (not this shape, a format the command refuses, standard output a terminal)."""
    line = command_line(args, options)
    if line is None or sys.stdout.isatty():
        return None
    fmt = _format(line[1].get("fmt"))
    if fmt is False:
        return None
    return line[0], line[1], str(fmt) if fmt else None


def run_stats(kind: str, db: Path | None, fmt: str | None, out: Path | None, wide: bool,
              *, plain: bool = False, **options: Any) -> None:
    """``pdnkit stats KIND``: :func:`pdnkit.stats.stats` written where the options say
    (``plain``: its plain table, :func:`pdnkit.stats.stats_table`, without pandas, but for
    Parquet, which is written from the DataFrame)."""
    from pdnkit.lean.tables import emit, output
    from pdnkit.lean.usage import usage_errors

    sink = output(fmt, out, [db], wide=wide)
    from pdnkit.stats import stats, stats_table

    with usage_errors():  # no database, a bad date
        df = (stats_table if _plain(plain, sink.format) else stats)(kind, db, **options)
    emit(df, sink, title=f"{kind} ({len(df)} rows)")


def _plain(plain: bool, fmt: str) -> bool:
    """Whether a table command reads its plain table: asked for, and not for Parquet (whose
    column types are the DataFrame's)."""
    return plain and fmt != "parquet"


def stats_form(args: Sequence[str]) -> Runner | None:
    """``stats openings|results`` with ``--db``, ``--format``, ``--out``, ``--wide``."""
    read = _sink_form(args, STATS)
    if read is None or read[0][0] not in STATS_KINDS:
        return None
    (kind,), opts, fmt = read

    def run() -> int:
        run_stats(kind, _path(opts.get("db")), fmt, _path(opts.get("out")),
                  bool(opts.get("wide")), plain=True, **STATS_KINDS[kind], **NO_FILTER,
                  min_games=1)
        return 0

    return guarded(run)


def run_tree(db: Path | None, fmt: str | None, out: Path | None, wide: bool, book: bool,
             *, fen: str | None, moves: str | None, min_games: int,
             filter: GameFilter | None, plain: bool = False,  # noqa: A002
             **filters: Any) -> None:
    """``pdnkit tree``: :func:`pdnkit.stats.tree` written where the options say (a text
    table with fewer columns, the opening's name beside the move; ``book``: the book's
    view; ``plain``: its plain table, :func:`pdnkit.stats.tree_table`, but for Parquet)."""
    from pdnkit.lean.tables import emit, output
    from pdnkit.lean.usage import UsageError, usage_errors

    if fen and moves:
        raise UsageError("give --fen or --moves, not both")
    sink = output(fmt, out, [db], wide=wide)
    from pdnkit.stats import tree, tree_table

    with usage_errors():  # a bad FEN or move, no database
        df: Any = (tree_table if _plain(plain, sink.format) else tree)(
            db, fen=fen, moves=moves, min_games=min_games, filter=filter, **filters)
    text = sink.format == "text"  # the human view: fewer columns
    if book:
        df = df[["variant", "move", "games", "side", "wins", "draws", "losses", "score",
                 "transpositions", "fen_after", "opening"]].rename(
            columns={"wins": "+", "draws": "=", "losses": "-"})
    elif text:
        df = df.drop(columns=["side", "wins", "losses", "score", "transpositions"])
    if text:  # the opening's name beside the move
        df = df[["variant", "move", "opening", *[c for c in df.columns
                                                 if c not in ("variant", "move", "opening")]]]
    if text:
        df = df.drop(columns=["fen_after"])
    emit(df, sink, title="next moves")


def tree_form(args: Sequence[str]) -> Runner | None:
    """``tree`` with ``--db``, ``--format``, ``--out``, ``--wide``, ``--fen`` or
    ``--moves``, ``--book``."""
    read = _sink_form(args, TREE)
    if read is None:
        return None
    _, opts, fmt = read

    def run() -> int:
        fen, moves = opts.get("fen"), opts.get("moves")
        run_tree(_path(opts.get("db")), fmt, _path(opts.get("out")), bool(opts.get("wide")),
                 bool(opts.get("book")), fen=None if fen is None else str(fen),
                 moves=None if moves is None else str(moves), min_games=1, plain=True,
                 **NO_FILTER)
        return 0

    return guarded(run)


#: a search of at most this many hits writes them as one table (no Arrow to import: a
#: fresh ``--limit 20`` took 0.50 s so, 0.62 s streamed); more are streamed
WHOLE_ROWS = 20_000


def run_search(db: Path | None, fmt: str | None, out: Path | None, wide: bool,
               **criteria: Any) -> None:
    """``pdnkit search``: :func:`pdnkit.stats.searchstream.search_stream` written where the
    options say as its rows are read (a text table on the screen without the FEN). This
    process searches once and ends: the hits are found with a small buffer pool
    (:func:`pdnkit.store.session.read_once`: reading a million games' positions, a pool
    that keeps every block costs a page fault a 4 KB), their rows made with the default one
    (:func:`pdnkit.store.session.widen`); a search that needs more memory before its first
    row is out runs again with the default pool."""
    import duckdb

    from pdnkit.lean.streamed import emit_stream
    from pdnkit.lean.tables import emit, output
    from pdnkit.lean.usage import usage_errors
    from pdnkit.store.schema import DatabaseError

    sink = output(fmt, out, [db], wide=wide)
    from pdnkit.stats.searchstream import search_stream
    from pdnkit.store.session import read_once, widen
    from pdnkit.store.stream import ReadAhead

    with_fen = not (sink.format == "text" and sink.to_screen)

    def write(con: duckdb.DuckDBPyConnection) -> int:
        with usage_errors():  # a bad pattern, FEN, date
            stream = search_stream(con, with_fen=with_fen, **criteria)
        with stream:  # memory flat whatever the hits, a closed pipe stops it
            widen(con)  # the hits are found: their rows may sort millions
            if stream.total <= WHOLE_ROWS and sink.format != "parquet":
                emit(stream.plain(), sink, limit=50)
                return stream.total
            ahead = ReadAhead(stream)  # (out of memory up to here: read again, whole)
            try:
                return emit_stream(ahead, sink, limit=50)
            except duckdb.OutOfMemoryException as exc:  # rows are out: not read again
                raise DatabaseError(f"out of memory while writing the hits: {exc}") from None

    with usage_errors():  # no database
        read_once(db, write)


def search_form(args: Sequence[str]) -> Runner | None:
    """``search --fen F`` or ``--pattern P``, with ``--db``, ``--format``, ``--out``,
    ``--wide``, ``--side``, ``--mirror``, ``--first``, ``--limit``."""
    read = _sink_form(args, SEARCH)
    if read is None:
        return None
    _, opts, fmt = read
    limit = opts.get("limit")
    if not (opts.get("fen") or opts.get("pattern")) or (
            limit is not None and not (str(limit).isascii() and str(limit).isdigit())):
        return None
    criteria: dict[str, Any] = {key: None if opts.get(key) is None else str(opts[key])
                                for key in ("fen", "pattern", "side")}

    def run() -> int:
        run_search(_path(opts.get("db")), fmt, _path(opts.get("out")), bool(opts.get("wide")),
                   **criteria, exclude=None, any_of=None, mirror=bool(opts.get("mirror")),
                   material=None, manoeuvre=None, captures=None, promotes=None, before=None,
                   after=None, first=bool(opts.get("first")),
                   limit=None if limit is None else int(str(limit)), **NO_FILTER)
        return 0

    return guarded(run)


def run_show(file: Path | None, game: int, db: Path | None, game_id: int | None,
             ply: str | None, variant: str | None, width: int | None) -> None:
    """``pdnkit show``: :func:`pdnkit.viewer.show` printed with rich, the file's text
    escaped (:func:`pdnkit.lean.tables.print_safe`); a file or a database missing, or a game
    or ply that does not exist, is one ``pdnkit: error:`` line."""
    from pdnkit.lean.usage import UsageError, usage_errors

    if (file is None) == (db is None):
        raise UsageError("give a PDN file, or --db DB with --game-id ID")
    if db is not None and game_id is None:
        raise UsageError("--db needs --game-id")
    if file is not None and not file.exists():
        raise UsageError(f"no such file: {file}")
    from rich.console import Console

    from pdnkit.lean.tables import print_safe
    from pdnkit.viewer import show

    with usage_errors():  # no database, no such game or ply
        shown = show(file, game=game, db=str(db) if db else None, game_id=game_id, ply=ply,
                     variant=variant)
    print_safe(Console(width=width, highlight=False), shown)


#: ``pdnkit show``'s options read here (``--variant``, whose name Typer checks, is not)
SHOW = Options(flags={}, values={"--db": "db", "--game": "game", "-g": "game",
                                 "--game-id": "game_id", "--ply": "ply", "-p": "ply",
                                 "--width": "width"}, positional=1)


def _count(value: object, least: int) -> int | None:
    """``value`` as the whole number an option takes, ``None`` when the command line would
    refuse it (not digits, or below ``least``)."""
    text = str(value)
    return int(text) if text.isascii() and text.isdigit() and int(text) >= least else None


def show_form(args: Sequence[str]) -> Runner | None:
    """``show FILE`` or ``show --db DB --game-id N``, with ``--game``, ``--ply``,
    ``--width``, standard output no terminal (a terminal gets rich's colours)."""
    line = command_line(args, SHOW) or command_line(args, replace(SHOW, positional=0))
    if line is None or sys.stdout.isatty():
        return None
    positional, opts = line
    game = _count(opts.get("game", "1"), 1)
    game_id = None if "game_id" not in opts else _count(opts["game_id"], 0)
    width = None if "width" not in opts else _count(opts["width"], 1)
    if game is None or ("game_id" in opts and game_id is None) or (
            "width" in opts and width is None):
        return None
    ply = None if opts.get("ply") is None else str(opts["ply"])

    def run() -> int:
        run_show(_path(positional[0]) if positional else None, game, _path(opts.get("db")),
                 game_id, ply, None, width)
        return 0

    return guarded(run)


#: the quick form of each command named here
FORMS: dict[str, Callable[[Sequence[str]], Runner | None]] = {
    "query": query_form, "stats": stats_form, "tree": tree_form, "search": search_form,
    "show": show_form}

__all__ = ["FORMS", "NO_FILTER", "QUERY", "SEARCH", "STATS", "STATS_KINDS", "TREE", "WHOLE_ROWS",
           "Options",
           "Runner", "SHOW", "command_line", "guarded", "query_form", "run_search", "run_show",
           "run_stats", "run_tree", "search_form", "show_form", "stats_form", "tree_form"]
