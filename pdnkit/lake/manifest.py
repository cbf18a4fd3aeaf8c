"""Writing the lake's manifest: one entry per source (``_manifest/<sha256>.json``), written
after all its parts, so its presence means the source is complete in the lake; the entry
gives each chunk its bases (first game id, first game index, lines before it), the sums over
the chunks before it in byte order, and its parts by their paths relative to the lake.
Reading it is :func:`pdnkit.store.lakeparts.read_manifest`.

Example:
    >>> import tempfile
    >>> from pdnkit.lake.tasks import ChunkResult
    >>> from pdnkit.store.lakeview import filesystem, read_manifest
    >>> entry = make_entry("a.pdn", "ab", 10, "utf-8", 1, 1, [ChunkResult(0, 0, 10, games=2)])
    >>> d = tempfile.mkdtemp()
    >>> write_entry(*filesystem(d), entry)
    >>> [(e.path, e.games) for e in read_manifest(d)]
    [('a.pdn', 2)]
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pdnkit.lake.tasks import ChunkResult, chunk_id
from pdnkit.store.lakeparts import (
    LAKE_TABLES,
    MANIFEST,
    SourceEntry,
    owned_part,
    part_location,
    relative_part,
    store_entry,
)


def write_entry(fs: Any, root: str, entry: SourceEntry) -> None:
    """Write ``entry`` (a temporary object renamed into place), its parts named relative to
    the lake."""
    for chunk in entry.chunks:
        parts = chunk.get("parts", {})
        for table, part in list(parts.items()):
            parts[table] = relative_part(root, part)
    store_entry(fs, root, entry)


def remove_entry(fs: Any, root: str, entry: SourceEntry) -> list[str]:
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
               results: list[ChunkResult], root: str | None = None) -> SourceEntry:
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
