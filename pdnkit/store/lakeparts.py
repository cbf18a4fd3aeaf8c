"""The lake's format, written and read in one place: what a lake's files are.

A lake is a folder (or an object store prefix) of Parquet parts, one per table
(:data:`LAKE_TABLES`) and chunk of a source, and a manifest: one entry per source
(``_manifest/<sha256>.json``, :class:`SourceEntry`), written after all its parts
(:func:`make_entry`, :func:`write_entry`), so its presence means the source is complete; the
entry gives each chunk its bases (first game id, first game index, lines before it, the sums
over the chunks before it in byte order) and its parts. Here too: reading the entries
(:func:`read_manifest`), where each part is (:func:`part_location`: relative to the lake's own
folder), whether it is whole (:func:`damaged_parts`), taking a source out
(:func:`remove_entry`), the manifest's upgrade to relative paths (:func:`upgrade_lake`), and
the tables computed over the whole lake that it keeps (:func:`read_cached`,
:func:`write_cached`: the novelties of :mod:`pdnkit.store.lakenovelties`, the copies of
:mod:`pdnkit.store.lakecopies`). The views a connection reads a lake through are
:mod:`pdnkit.store.lakeview`; the writer that cuts sources into chunks is :mod:`pdnkit.lake`,
a floor above. Of the store this uses only the schema's errors and the lock.

A manifest entry names each part by its path relative to the lake (``games/part-...``), so a
lake copied or moved elsewhere reads its own parts. Entries written before that name them by
absolute path: a path under the lake's folder is read as the relative one; a path elsewhere
(the lake was copied or moved) is read as the part of the same table and name in this
lake's folder; a part that is not there is missing, never read from outside the lake (and
nothing outside it is ever deleted: :func:`owned_part`).

Example:
    >>> part_location("/l", "games/part-1.parquet")
    '/l/games/part-1.parquet'
    >>> relative_part("/l", "/l/games/part-1.parquet")
    'games/part-1.parquet'
    >>> import tempfile
    >>> from pdnkit.lake.tasks import ChunkResult
    >>> entry = make_entry("a.pdn", "ab", 10, "utf-8", 1, 1, [ChunkResult(0, 0, 10, games=2)])
    >>> d = tempfile.mkdtemp()
    >>> write_entry(*filesystem(d), entry)
    >>> [(e.path, e.games) for e in read_manifest(d)]
    [('a.pdn', 2)]
"""

from __future__ import annotations

import json
import posixpath
import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pdnkit.store.schema import DatabaseError

if TYPE_CHECKING:
    import duckdb
    import fsspec
    from fsspec import AbstractFileSystem

__all__ = ["LAKE_TABLES", "LOCK_NAME", "MANIFEST", "ChunkReport", "DamagedPart",
           "LakeDamagedError", "SourceEntry", "chunk_id", "damaged_parts", "entry_parts",
           "filesystem", "is_lake", "make_entry", "owned_part", "part_location", "read_cached",
           "read_manifest", "relative_part", "remove_entry", "store_entry", "upgrade_lake",
           "url_of", "write_cached", "write_entry"]

#: the tables a lake holds as Parquet parts (``files`` comes from the manifest)
LAKE_TABLES = ("games", "raw_pieces", "move_rows", "position_bits", "findings", "rule_events")
#: folder of the manifest entries
MANIFEST = "_manifest"
#: the lock file (or object) of a lake's writers, in its folder
LOCK_NAME = ".pdnkit-lock"


def filesystem(url: str | Path) -> tuple[fsspec.AbstractFileSystem, str]:
    """The fsspec file system and path of ``url`` (a local path or an fsspec URL)."""
    from fsspec.core import url_to_fs

    fs, path = url_to_fs(str(url))
    return fs, str(path).rstrip("/")


def is_local(fs: fsspec.AbstractFileSystem) -> bool:
    """Whether ``fs`` is this machine's own file system."""
    protocol = fs.protocol if isinstance(fs.protocol, str) else fs.protocol[0]
    return protocol in ("file", "local")


def url_of(fs: fsspec.AbstractFileSystem, path: str) -> str:
    """``path`` as DuckDB reads it: itself on the local file system, else a URL of ``fs``
    (which the connection has registered)."""
    return path if is_local(fs) else str(fs.unstrip_protocol(path))


def is_lake(path: str | Path) -> bool:
    """Whether ``path`` is a lake folder (it holds a ``_manifest`` folder).

    Example:
        >>> is_lake("/nonexistent")
        False
    """
    try:
        fs, root = filesystem(path)
        return bool(fs.isdir(f"{root}/{MANIFEST}"))
    except (OSError, ValueError, ImportError):
        return False


@dataclass
class SourceEntry:
    """The manifest entry of one source: written after all its parts, so its presence
    means the source is complete in the lake. Each chunk's ``parts`` map a table to its
    part's path relative to the lake (absolute in entries written before)."""

    sha256: str
    path: str
    size: int
    encoding: str
    file_id: int
    game_base: int
    games: int
    imported_at: str
    pdnkit_version: str
    chunks: list[dict[str, Any]]
    rows: dict[str, int]


def read_manifest(lake: str | Path) -> list[SourceEntry]:
    """Every complete source of the lake, in file id order.

    Example:
        >>> read_manifest("/nonexistent")
        []
    """
    fs, root = filesystem(lake)
    folder = f"{root}/{MANIFEST}"
    if not fs.isdir(folder):
        return []
    out = []
    for name in sorted(fs.ls(folder, detail=False)):
        if not str(name).endswith(".json"):
            continue
        with fs.open(name, "rb") as f:
            out.append(SourceEntry(**json.loads(f.read().decode("utf-8"))))
    return sorted(out, key=lambda e: e.file_id)


def store_entry(fs: fsspec.AbstractFileSystem, root: str, entry: SourceEntry) -> None:
    """Write ``entry`` as ``_manifest/<sha256>.json``: a temporary object renamed into place."""
    folder = f"{root}/{MANIFEST}"
    fs.makedirs(folder, exist_ok=True)
    tmp = f"{folder}/.tmp-{entry.sha256}-{uuid.uuid4().hex}"
    with fs.open(tmp, "wb") as f:
        f.write(json.dumps(asdict(entry), indent=1).encode("utf-8"))
    fs.mv(tmp, f"{folder}/{entry.sha256}.json")


# --------------------------------------------------------------------------------------------
# where the parts are


def _absolute(recorded: str) -> bool:
    return recorded.startswith("/") or "://" in recorded or (
        len(recorded) > 2 and recorded[1] == ":" and recorded[2] in "/\\")


def relative_part(root: str, part: str) -> str:
    """The path of ``part`` (as written by a task) relative to the lake at ``root``; a path
    outside the lake stays as it is.

    Example:
        >>> relative_part("/l", "/l/move_rows/x.parquet"), relative_part("/l", "/m/x.parquet")
        ('move_rows/x.parquet', '/m/x.parquet')
    """
    prefix = root.rstrip("/") + "/"
    return part[len(prefix):] if part.startswith(prefix) else part


def part_location(root: str, recorded: str, fs: fsspec.AbstractFileSystem | None = None
                  ) -> str:
    """Where the part the manifest names ``recorded`` is in the lake at ``root``: a relative
    path under ``root``; an absolute one as it is when it lies under ``root``, else (an entry
    written before paths were relative, in a lake copied or moved since) the part of the
    same table and name under ``root``. Never a path outside the lake: :func:`owned_part`
    says whether ``recorded`` has one in it.

    Example:
        >>> part_location("/copy", "/orig/games/part-1.parquet")
        '/copy/games/part-1.parquet'
    """
    root = root.rstrip("/")
    if not _absolute(recorded):
        return f"{root}/{recorded}"
    if recorded.startswith(root + "/"):
        return recorded
    folder, name = posixpath.split(recorded.replace("\\", "/"))
    return f"{root}/{posixpath.basename(folder)}/{name}"


def owned_part(root: str, recorded: str) -> bool:
    """Whether the part ``recorded`` is the lake's own (relative, or under ``root``): a part
    named outside the lake (an entry of the lake it was copied from) is never deleted.

    Example:
        >>> owned_part("/l", "games/p.parquet"), owned_part("/l", "/orig/games/p.parquet")
        (True, False)
    """
    return not _absolute(recorded) or recorded.startswith(root.rstrip("/") + "/")


def entry_parts(root: str, entry: SourceEntry) -> list[tuple[dict[str, Any], str, str]]:
    """``(chunk, table, location)`` of every part of ``entry`` (:func:`part_location`)."""
    return [(c, t, part_location(root, p)) for c in entry.chunks
            for t, p in c.get("parts", {}).items()]


# --------------------------------------------------------------------------------------------
# whole or damaged


@dataclass(frozen=True)
class DamagedPart:
    """A part that cannot be read as the manifest says: ``location``, its ``table``, the
    ``source`` file it holds rows of, and ``why`` (missing, truncated, wrong row count)."""

    location: str
    table: str
    source: str
    why: str

    def __str__(self) -> str:
        return f"{self.location} ({self.table} of {self.source}): {self.why}"


class LakeDamagedError(DatabaseError):
    """Parts of a lake are missing or damaged (the message names them and what to run):
    raised by :func:`pdnkit.store.lakeview.open_lake` rather than read a part that is not
    whole."""


def _footer_ok(fs: fsspec.AbstractFileSystem, location: str) -> str | None:
    """Why the file at ``location`` is not a whole Parquet file, or ``None``: it must end
    with a footer (its length and ``PAR1``) that fits in it."""
    try:
        size = int(fs.size(location))
    except FileNotFoundError:
        return "missing"
    if size < 12:
        return f"truncated ({size} bytes)"
    with fs.open(location, "rb") as f:
        f.seek(size - 8)
        tail = f.read(8)
        f.seek(0)
        head = f.read(4)
    if head != b"PAR1" or tail[4:] != b"PAR1":
        return f"truncated or not Parquet ({size:,} bytes, no Parquet footer at its end)"
    if int.from_bytes(tail[:4], "little") + 12 > size:
        return f"truncated ({size:,} bytes, shorter than its footer says)"
    return None


def damaged_parts(lake: str | Path, entries: list[SourceEntry] | None = None, *,
                  deep: bool = False) -> list[DamagedPart]:
    """The parts of ``lake`` that are missing or damaged: each must be there and end with a
    Parquet footer; ``deep`` also reads each footer and compares its row count with the
    manifest's (what ``pdnkit lake info`` does).

    Example:
        >>> damaged_parts("/nonexistent")
        []
    """
    fs, root = filesystem(lake)
    entries = read_manifest(lake) if entries is None else entries
    out = []
    for e in entries:
        for chunk, table, loc in entry_parts(root, e):
            why = _footer_ok(fs, loc)
            if why is None and deep:
                why = _rows_differ(fs, loc, chunk, table)
            if why is not None:
                out.append(DamagedPart(url_of(fs, loc), table, e.path, why))
    return out


def _rows_differ(fs: fsspec.AbstractFileSystem, location: str, chunk: dict[str, Any],
                 table: str) -> str | None:
    import pyarrow.parquet as pq

    try:
        with fs.open(location, "rb") as f:
            rows = pq.ParquetFile(f).metadata.num_rows
    except Exception as exc:  # noqa: BLE001 - any unreadable footer is damage
        return f"unreadable footer ({type(exc).__name__}: {str(exc)[:120]})"
    want = chunk.get("rows", {}).get(table)
    if want is not None and int(want) != rows:
        return f"{rows:,} rows, the manifest says {int(want):,}"
    return None


def upgrade_lake(lake: str | Path) -> int:
    """Rewrite the manifest entries that name parts by absolute path with paths relative to
    the lake (a path outside it stays, for ``pdnkit lake info`` to report as missing when the
    lake has no part of that name); returns the entries rewritten. Takes the lake's lock.

    Example:
        >>> import tempfile
        >>> upgrade_lake(tempfile.mkdtemp())
        0
    """
    from pdnkit.store.lock import StoreLock

    fs, root = filesystem(lake)
    lock = StoreLock(f"{root}/{LOCK_NAME}", f"the lake {lake}",
                     fs=None if is_local(fs) else fs)
    n = 0
    with lock:
        for e in read_manifest(lake):
            changed = False
            for c in e.chunks:
                parts = c.get("parts", {})
                for table, recorded in list(parts.items()):
                    if not _absolute(recorded):
                        continue
                    loc = part_location(root, recorded)
                    if owned_part(root, recorded) or fs.exists(loc):
                        parts[table] = relative_part(root, loc)
                        changed = True
            if changed:
                store_entry(fs, root, e)
                n += 1
    return n


# --------------------------------------------------------------------------------------
# writing the manifest
# --------------------------------------------------------------------------------------


def chunk_id(file_id: int, chunk: int) -> int:
    """The key that ties a chunk's rows to its manifest entry.

    Example:
        >>> chunk_id(3, 2)
        3145730
    """
    return (int(file_id) << 20) | int(chunk)


class ChunkReport(Protocol):
    """What the lake's writer knows of one chunk once its task came back
    (:class:`pdnkit.lake.tasks.ChunkResult`): its cut range, games, lines, rows and parts."""

    chunk: int
    start: int
    end: int
    games: int
    lines: int
    rows: dict[str, int]
    parts: dict[str, str]
    worker_pid: int
    peak_rss_mb: float
    layouts: list[tuple[int, int, list[str], list[int]]]


def write_entry(fs: fsspec.AbstractFileSystem, root: str, entry: SourceEntry) -> None:
    """Write ``entry`` (a temporary object renamed into place), its parts named relative to
    the lake."""
    for chunk in entry.chunks:
        parts = chunk.get("parts", {})
        for table, part in list(parts.items()):
            parts[table] = relative_part(root, part)
    store_entry(fs, root, entry)


def remove_entry(fs: fsspec.AbstractFileSystem, root: str, entry: SourceEntry) -> list[str]:
    """Take a source out of the lake: its manifest entry first, then its parts (the lake's
    own only: a part an older entry names outside the lake, e.g. in the lake this one was
    copied from, is never deleted). Returns the parts left alone outside the lake."""
    fs.rm(f"{root}/{MANIFEST}/{entry.sha256}.json")
    outside = []
    for chunk in entry.chunks:
        for part in chunk.get("parts", {}).values():
            loc = part_location(root, part)
            if fs.exists(loc):
                fs.rm(loc)
            if not owned_part(root, part) and loc != part:
                outside.append(part)
    return outside


def make_entry(src: str, sha: str, size: int, enc: str, file_id: int, game_base: int,
               results: Sequence[ChunkReport], root: str | None = None) -> SourceEntry:
    """The manifest entry of a source whose chunks all came back: each chunk's bases are
    the sums over the chunks before it, in byte order; parts named relative to the lake at
    ``root``."""
    from pdnkit._version import __version__

    results = sorted(results, key=lambda r: r.chunk)
    chunks = []
    games = lines = 0
    rows = {t: 0 for t in LAKE_TABLES}
    for r in results:
        chunks.append({"chunk": r.chunk, "key": chunk_id(file_id, r.chunk), "start": r.start,
                       "end": r.end, "game_base": game_base + games, "index_base": games,
                       "line_base": lines, "games": r.games, "rows": r.rows,
                       "parts": {t: relative_part(root, p) if root else p
                                 for t, p in r.parts.items()},
                       "worker_pid": r.worker_pid,
                       "layouts": [list(x) for x in r.layouts],
                       "peak_rss_mb": round(r.peak_rss_mb, 1)})
        games += r.games
        lines += r.lines
        for t, n in r.rows.items():
            rows[t] = rows.get(t, 0) + n
    return SourceEntry(sha, src, size, enc, file_id, game_base, games,
                       datetime.now().isoformat(timespec="seconds"), __version__, chunks, rows)


# --------------------------------------------------------------------------------------
# tables computed over the whole lake, kept in it
# --------------------------------------------------------------------------------------


def read_cached(con: duckdb.DuckDBPyConnection, fs: AbstractFileSystem, path: str,
                table: str) -> bool:
    """Load the table a lake keeps at ``path`` into ``table`` of ``con``; False when there
    is none (or it cannot be read: a half-written file of another reader).

    Example:
        >>> import duckdb, fsspec
        >>> read_cached(duckdb.connect(), fsspec.filesystem("file"), "/nowhere.parquet", "t")
        False
    """
    import pyarrow.parquet as pq

    try:
        if not fs.exists(path):
            return False
        with fs.open(path, "rb") as f:
            data = pq.read_table(f)
    except (OSError, ValueError):  # unreadable (a half-written file of another reader)
        return False
    con.from_arrow(data).create(table)
    return True


def write_cached(con: duckdb.DuckDBPyConnection, fs: AbstractFileSystem, folder: str,
                 path: str, table: str, prefix: str) -> None:
    """Keep ``table`` of ``con`` at ``path`` in the lake's ``folder`` (written under a
    temporary name, then renamed; the older files of the folder whose names start with
    ``prefix`` removed); a lake that cannot be written keeps none. For the lake's writer,
    under its lock.

    Example:
        >>> import duckdb, fsspec, tempfile
        >>> con = duckdb.connect(); _ = con.execute("CREATE TABLE t AS SELECT 1 AS x")
        >>> d = tempfile.mkdtemp()
        >>> write_cached(con, fsspec.filesystem("file"), d, d + "/x-1.parquet", "t", "x-")
        >>> read_cached(con, fsspec.filesystem("file"), d + "/x-1.parquet", "u")
        True
    """
    import pyarrow.parquet as pq

    data = con.sql(f"SELECT * FROM {table}").arrow()
    if hasattr(data, "read_all"):  # a RecordBatchReader in newer DuckDB releases
        data = data.read_all()
    tmp = f"{folder}/.tmp-{uuid.uuid4().hex}"
    try:
        fs.makedirs(folder, exist_ok=True)
        with fs.open(tmp, "wb") as f:
            pq.write_table(data, f, compression="zstd")
        fs.mv(tmp, path)
        for old in fs.ls(folder, detail=False):
            name = str(old).rsplit("/", 1)[-1]
            if name.startswith(prefix) and str(old).rstrip("/") != path:
                fs.rm(old)
    except OSError:  # a read-only lake: computed again at the next open
        try:
            if fs.exists(tmp):
                fs.rm(tmp)
        except OSError:
            pass
