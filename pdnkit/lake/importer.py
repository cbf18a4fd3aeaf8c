"""``import_lake``: PDN files into a Parquet lake, one task per chunk of each source.

The client hashes each source (sha256 and the offset and line of its first non-ASCII byte in
one pass), decides its encoding as the reader does, scans its first games for the file's
variant, plans its tasks (:func:`~pdnkit.lake.tasks.plan_chunks`), runs them on an engine and
writes the source's manifest entry last. Ids in the parts are local to their chunk, so the
tasks need no coordination, and they equal those of a DuckDB import of the same files in the
same order. A source whose sha256 is in the manifest is skipped unless ``replace``.

One difference from reading the whole file remains by design: text between games that is
neither tags nor moves (an ``ignored-text`` finding, attached to the next game) and that sits
right before a chunk's first game stays with the chunk before, where it becomes a game of its
own (``empty-game``). Chunks of megabytes make this rare; no moves are lost either way.

Example:
    >>> import tempfile, pathlib
    >>> from pdnkit.lake import is_lake, open_lake
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "a.pdn").write_text('[GameType "20"]\\n1. 32-28 19-23 *\\n')
    >>> s = import_lake([d / "a.pdn"], d / "lake", engine="local")
    >>> s.games, is_lake(d / "lake")
    (1, True)
    >>> open_lake(d / "lake").execute("SELECT count(*) FROM moves").fetchall()[0][0]
    2
"""

from __future__ import annotations

import contextlib
import errno
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pdnkit.errors import ArgumentError, PdnkitError
from pdnkit.lake.cut import scan_source, source_encoding
from pdnkit.lake.engines import Engine, make_engine
from pdnkit.lake.tasks import CHUNK_BYTES, ChunkResult, plan_chunks
from pdnkit.store import steps
from pdnkit.store.ingest import FileResult, ImportSummary
from pdnkit.store.lakeparts import (
    LOCK_NAME,
    MANIFEST,
    damaged_parts,
    filesystem,
    is_local,
    make_entry,
    read_manifest,
    remove_entry,
    write_entry,
)
from pdnkit.store.lock import StoreLock
from pdnkit.store.progress import ImportProgress
from pdnkit.validation import RunOptions
from pdnkit.validation.game import IRREGULAR
from pdnkit.validation.inputs import collect_paths
from pdnkit.validation.pipeline import check_arguments, file_guess_of

if TYPE_CHECKING:
    from pdnkit.validation.resolve import FileGuess


def _file_guess(src: str, options: RunOptions) -> FileGuess | None:
    """The file's variant from its first games (a bounded prefix: see
    :func:`pdnkit.validation.pipeline.file_guess_of`); ``None`` for a URL."""
    if "://" in src:
        return None
    return file_guess_of(Path(src), options)


def _sources(paths: Iterable[str | Path]) -> list[str]:
    """Files to import: local files and folders as ``import_files`` takes them; URLs as
    given (a URL folder: its ``*.pdn`` files)."""
    out: list[str] = []
    for p in paths:
        s = str(p)
        if "://" in s:
            fs, root = filesystem(s)
            if fs.isdir(root):
                proto = s.split("://", 1)[0]
                out += [f"{proto}://{q}" for q in sorted(fs.find(root))
                        if str(q).lower().endswith(".pdn")]
            else:
                out.append(s)
        else:
            out += [str(q) for q in collect_paths([p])]
    return out


def lake_lock(lake: str | Path) -> StoreLock:
    """The lock of the lake's writers (imports, ``lake compact``, its upgrade): a lock file
    in the lake's folder, or a lock object for a lake behind a non-local URL
    (:class:`~pdnkit.store.lock.StoreLock`: stale once its process is gone, or, remotely,
    once it was not refreshed for :data:`~pdnkit.store.lock.REMOTE_TIMEOUT` seconds)."""
    fs, root = filesystem(lake)
    return StoreLock(f"{root}/{LOCK_NAME}", f"the lake {lake}",
                     fs=None if is_local(fs) else fs)


def _total_bytes(sources: list[str]) -> int:
    total = 0
    for src in sources:
        fs, path = filesystem(src)
        with contextlib.suppress(OSError, ValueError):
            total += int(fs.size(path))
    return total


#: the errors of a disk that cannot take more: full, over quota, a file too large
_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


class LakeFullError(PdnkitError, OSError):
    """The lake's disk filled during an import (or a quota, or the file-size limit): the
    message says exactly what the lake kept and what it did not; nothing half-written is
    left in it."""


def import_lake(paths: Iterable[str | Path] | str | Path, lake: str | Path,
                variant: str | None = None, *, edition: str | None = None,
                engine: str | Engine = "dask", scheduler: str | None = None,
                workers: int | None = None, chunk_bytes: int = CHUNK_BYTES,
                replace: bool = False, encoding: str | None = None,
                progress: bool = False, irregular: str = "stand") -> ImportSummary:
    """Import PDN files into the lake ``lake`` (a folder or fsspec URL), one task per chunk.

    ``engine``: ``"dask"`` (the cluster at ``scheduler``, else a ``LocalCluster`` of
    ``workers`` processes), ``"local"`` (this process) or an :class:`Engine`. A source whose
    sha256 is in the manifest is skipped (``replace`` reloads it; so is one whose parts are
    missing or damaged); ``encoding`` and ``irregular`` as for ``import_files``. One import
    writes to a lake at a time (:func:`lake_lock`: a second one raises
    :class:`~pdnkit.store.lock.StoreInUseError` naming the first). A disk that fills raises
    :class:`LakeFullError`, saying which files the lake kept (those in it before, those
    this import added) and which it did not (the parts of the file being written are
    removed). Returns the same :class:`~pdnkit.store.ingest.ImportSummary` as
    ``import_files``.

    Example:
        >>> import tempfile, pathlib
        >>> d = pathlib.Path(tempfile.mkdtemp())
        >>> _ = (d / "g.pdn").write_text('[GameType "25"]\\n1. c3-d4 f6-g5 *\\n')
        >>> import_lake(d / "g.pdn", d / "lake", engine="local").plies
        2
    """
    start_time = time.perf_counter()
    if isinstance(paths, (str, Path)):
        paths = [paths]
    if variant is not None:
        from pdnkit.rules import get_rules

        get_rules(variant)
    check_arguments(variant, edition, "auto")
    if irregular not in IRREGULAR:
        raise ArgumentError(f"irregular must be one of {IRREGULAR}, got {irregular!r}")
    options = RunOptions(variant=variant, edition=edition, irregular=irregular, compact=True)
    sources = _sources(paths)
    fs, root = filesystem(lake)
    fs.makedirs(f"{root}/{MANIFEST}", exist_ok=True)
    summary = ImportSummary(db=str(lake))
    lock = lake_lock(lake)
    with lock:  # one writer at a time: ids are taken from the manifest as it is now
        steps.reached("lake.locked")
        run = _LakeRun(lake, fs, root, options, replace, encoding, chunk_bytes, summary)
        eng = make_engine(engine, scheduler, workers) if isinstance(engine, str) else engine
        bar = ImportProgress("lake import", len(sources), rate=False,
                             total_bytes=_total_bytes(sources)) if progress else None
        try:
            for n, src in enumerate(sources):
                try:
                    run.source(src, eng, bar)
                except OSError as exc:
                    if exc.errno not in _FULL:
                        raise
                    raise run.full(exc, src, sources[n + 1:]) from None
                lock.refresh()
            # the lake's groups of copies and novelties (every game's depends on all the
            # others), kept for its readers, who never write into the lake
            from pdnkit.store.lakeview import keep_copies, keep_novelties

            try:
                keep_copies(lake)
                keep_novelties(lake)
            except OSError as exc:
                if exc.errno not in _FULL:
                    raise
                raise run.full(exc, None, []) from None
        finally:
            if bar:
                bar.close()
            if isinstance(engine, str):
                eng.close()
    summary.seconds = time.perf_counter() - start_time
    return summary


class _LakeRun:
    """One import into a lake, source by source, under its lock: the manifest as read
    once, the next ids, and what to say if the disk fills."""

    def __init__(self, lake: str | Path, fs: Any, root: str, options: RunOptions,
                 replace: bool, encoding: str | None, chunk_bytes: int,
                 summary: ImportSummary) -> None:
        self.lake, self.fs, self.root, self.options = lake, fs, root, options
        self.replace, self.encoding, self.chunk_bytes = replace, encoding, chunk_bytes
        self.summary = summary
        self.entries = {e.sha256: e for e in read_manifest(lake)}
        self.before = len(self.entries)
        self.damaged = {sha for sha, e in self.entries.items() if damaged_parts(lake, [e])}
        self.next_file = max((e.file_id for e in self.entries.values()), default=0) + 1
        self.next_game = max((e.game_base + e.games for e in self.entries.values()),
                             default=1)
        self.removed_old = False  # the source being written replaced an entry, removed

    def source(self, src: str, eng: Engine, bar: ImportProgress | None) -> None:
        """Import one source (or skip it), its manifest entry written last."""
        self.removed_old = False
        sfs, spath = filesystem(src)
        sha, first, first_line = scan_source(sfs, spath)
        old = self.entries.get(sha)
        if old is not None and not self.replace and sha not in self.damaged:
            self.summary.files.append(FileResult(src, "skipped", sha, old.file_id))
            if bar:
                bar.file_done(int(sfs.size(spath)))
            return
        note = ""
        if old is not None:
            outside = remove_entry(self.fs, self.root, old)
            self.entries.pop(sha)
            self.removed_old = True
            if sha in self.damaged:
                note = "its parts in the lake were damaged: reloaded"
            if outside:
                note += (("; " if note else "") + f"{len(outside)} part(s) named "
                         "outside the lake left untouched")
        size = int(sfs.size(spath))
        enc, fallback = source_encoding(sfs, spath, self.encoding, first, first_line)
        tasks = plan_chunks(str(self.lake), src, size, self.next_file, enc, self.chunk_bytes,
                            self.options, fallback, whole=self.encoding is None,
                            file_guess=_file_guess(src, self.options.but(
                                encoding=self.encoding)))
        results = []
        for res in eng.map(tasks):
            results.append(res)
            if bar:
                bar.games(res.games, res.end - res.start)
        entry = make_entry(src, sha, size, enc, self.next_file, self.next_game, results,
                           self.root)
        steps.reached("lake.parts-written")
        write_entry(self.fs, self.root, entry)
        self.entries[sha] = entry
        self.summary.files.append(FileResult(src, "replaced" if old else "imported", sha,
                                             self.next_file, entry.games,
                                             sum(r.plies for r in results), message=note))
        _add_totals(self.summary, results)
        self.next_file += 1
        self.next_game += entry.games
        if bar:
            bar.file_done()

    def full(self, exc: OSError, src: str | None, later: list[str]) -> LakeFullError:
        """The error to raise where the disk filled while ``src`` was written (``None``:
        after every source, writing the novelties), ``later`` the sources not reached:
        the parts of ``src`` written so far removed, and the message saying exactly what
        the lake kept."""
        why = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is exceeded",
               errno.EFBIG: "a file is too large for the file system or its limits"}
        added = [f.path for f in self.summary.files if f.status in ("imported", "replaced")]
        kept = [f"the {self.before} source(s) it held before"] if self.before else []
        if added:
            kept.append(f"the {len(added)} file(s) this import added ({_names(added)})")
        text = (f"cannot write the lake {self.lake}: {why.get(exc.errno or 0, 'no space')} "
                f"({exc.strerror}). The lake keeps {' and '.join(kept) or 'no source'}")
        if src is None:
            text += ("; only its table of novelties could not be kept (readers compute it "
                     "while it is missing)")
        else:
            left = _drop_parts(self.fs, self.root, self.next_file)
            text += (f"; {_names([src])} was not added"
                     + (" (the parts written for it were removed)" if left == 0 else
                        f" ({left} part(s) written for it could not be removed)"))
            if self.removed_old:
                text += ", and its earlier version was taken out of the lake before"
            if later:
                text += f"; {len(later)} later file(s) were not imported ({_names(later)})"
        return LakeFullError(text + ". Free some space and run the import again: the files "
                             "kept are skipped.")


def _names(paths: list[str], most: int = 3) -> str:
    shown = ", ".join(paths[:most])
    return shown + (f" and {len(paths) - most} more" if len(paths) > most else "")


def _drop_parts(fs: Any, root: str, file_id: int) -> int:
    """Remove every part (and temporary part) of the source numbered ``file_id``, which no
    manifest entry names; returns how many could not be removed."""
    from pdnkit.lake.tasks import part_name
    from pdnkit.store.lakeview import LAKE_TABLES

    stem = part_name(file_id, 0).rsplit("-", 1)[0]  # part-0000000N
    left = 0
    for table in LAKE_TABLES:
        for pattern in (f"{root}/{table}/{stem}-*", f"{root}/{table}/.tmp-{stem}-*"):
            try:
                found = fs.glob(pattern)
            except OSError:
                continue
            for part in found:
                try:
                    fs.rm(part)
                except OSError:
                    left += 1
    return left


def _add_totals(summary: ImportSummary, results: list[ChunkResult]) -> None:
    for r in results:
        summary.games += r.games
        summary.plies += r.plies
        summary.replayed_plies += r.replayed_plies
        summary.findings += r.findings
        summary.status_counts.update(r.status_counts)
        summary.code_counts.update(r.code_counts)
