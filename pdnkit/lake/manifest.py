"""Writing the lake's manifest: one entry per source (``_manifest/<sha256>.json``), written
after all its parts, so its presence means the source is complete in the lake; the entry
gives each chunk its bases (first game id, first game index, lines before it), the sums over
the chunks before it in byte order. Reading it is :func:`pdnkit.store.lakeview.read_manifest`.

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

import json
import uuid
from dataclasses import asdict
from datetime import datetime
from typing import Any

from pdnkit.lake.tasks import ChunkResult, chunk_id
from pdnkit.store.lakeview import LAKE_TABLES, MANIFEST, SourceEntry


def write_entry(fs: Any, root: str, entry: SourceEntry) -> None:
    folder = f"{root}/{MANIFEST}"
    fs.makedirs(folder, exist_ok=True)
    tmp = f"{folder}/.tmp-{entry.sha256}-{uuid.uuid4().hex}"
    with fs.open(tmp, "wb") as f:
        f.write(json.dumps(asdict(entry), indent=1).encode("utf-8"))
    fs.mv(tmp, f"{folder}/{entry.sha256}.json")


def remove_entry(fs: Any, root: str, entry: SourceEntry) -> None:
    """Take a source out of the lake: its manifest entry first, then its parts."""
    fs.rm(f"{root}/{MANIFEST}/{entry.sha256}.json")
    for chunk in entry.chunks:
        for part in chunk.get("parts", {}).values():
            if fs.exists(part):
                fs.rm(part)


def make_entry(src: str, sha: str, size: int, enc: str, file_id: int, game_base: int,
           results: list[ChunkResult]) -> SourceEntry:
    """The manifest entry of a source whose chunks all came back: each chunk's bases are
    the sums over the chunks before it, in byte order."""
    from pdnkit._version import __version__

    results = sorted(results, key=lambda r: r.chunk)
    chunks = []
    games = lines = 0
    rows = {t: 0 for t in LAKE_TABLES}
    for r in results:
        chunks.append({"chunk": r.chunk, "key": chunk_id(file_id, r.chunk), "start": r.start,
                       "end": r.end, "game_base": game_base + games, "index_base": games,
                       "line_base": lines, "games": r.games, "rows": r.rows,
                       "parts": r.parts, "worker_pid": r.worker_pid,
                       "layouts": [list(x) for x in r.layouts],
                       "peak_rss_mb": round(r.peak_rss_mb, 1)})
        games += r.games
        lines += r.lines
        for t, n in r.rows.items():
            rows[t] = rows.get(t, 0) + n
    return SourceEntry(sha, src, size, enc, file_id, game_base, games,
                       datetime.now().isoformat(timespec="seconds"), __version__, chunks, rows)
