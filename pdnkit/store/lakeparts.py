"""A lake's manifest and its parts: the entries (:func:`read_manifest`), where each part is
(:func:`part_location`: relative to the lake's own folder), whether it is whole
(:func:`damaged_parts`), and the manifest's upgrade to relative paths (:func:`upgrade_lake`).
On the store's floor, below the lake's writer; of the store it uses only the schema's errors
and the lock.

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
"""

from __future__ import annotations

import json
import posixpath
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pdnkit.store.schema import DatabaseError

if TYPE_CHECKING:
    import fsspec

__all__ = ["LAKE_TABLES", "LOCK_NAME", "MANIFEST", "DamagedPart", "LakeDamagedError",
           "SourceEntry", "damaged_parts", "entry_parts", "filesystem", "is_lake",
           "owned_part", "part_location", "read_manifest", "relative_part", "store_entry",
           "upgrade_lake", "url_of"]

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
