"""A report written to files: the report and, for the collection report, the viewer page
of its games to check beside it (``NAME.games.html``), replaced together.

The page beside the report is a file no option names, so it is written only where nothing
of the user's stands: a file of that name must be a page pdnkit wrote
(:func:`pdnkit.viewer.page.is_viewer_page`), never a symbolic link, a folder or another file
(:func:`check_companion`). Both files go through the one output check (never over the
database, never inside an input folder) and are written in full under their own names in a
temporary folder beside them, flushed to disk, and only then renamed over the old ones, one
right after the other (:func:`pdnkit._atomic.atomic_paths`): an error, a Ctrl-C or a kill
while the report is built leaves the old report and the old page as they were.

Example:
    >>> import tempfile, pathlib
    >>> from pdnkit.store import connect
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> connect(d / "g.duckdb").close()
    >>> files = write_report("collection", d / "r.html", d / "g.duckdb")
    >>> files.report.name, files.page  # no game to check: no page
    ('r.html', None)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pdnkit.errors import ArgumentError
from pdnkit.store.session import DbLike

__all__ = ["COMPANION_SUFFIX", "CompanionError", "ReportFiles", "check_companion",
           "companion_of", "write_report"]

#: what replaces the report's extension in the name of the page of its games
COMPANION_SUFFIX = ".games.html"
#: the report files' extensions and the format each means
REPORT_SUFFIXES = {".md": "md", ".html": "html", ".htm": "html"}


class CompanionError(ArgumentError):
    """The page a report writes beside it would replace something that is not a page
    pdnkit wrote (a user's file, a symbolic link, a folder); nothing was written."""


@dataclass(frozen=True)
class ReportFiles:
    """The files :func:`write_report` wrote: the report, and the page of its games to check
    (``None`` when it had none to show)."""

    report: Path
    page: Path | None


def companion_of(out: str | os.PathLike[str]) -> Path:
    """The viewer page written beside the report ``out``.

    Example:
        >>> companion_of("club/summary.html").as_posix()
        'club/summary.games.html'
    """
    path = Path(out)
    return path.with_name(path.stem + COMPANION_SUFFIX)


def check_companion(page: str | os.PathLike[str]) -> None:
    """Raise :class:`CompanionError` unless ``page`` may be written: it does not exist, or
    it is a regular file that pdnkit's viewer wrote. A symbolic link is never followed
    there (the user never named that file), whatever it points to.

    Example:
        >>> import tempfile, pathlib
        >>> d = pathlib.Path(tempfile.mkdtemp())
        >>> check_companion(d / "r.games.html") is None
        True
        >>> _ = (d / "r.games.html").write_text("my notes")
        >>> try:
        ...     check_companion(d / "r.games.html")
        ... except CompanionError as exc:
        ...     print("not a page pdnkit wrote" in str(exc))
        True
    """
    from pdnkit.viewer.page import is_viewer_page

    path = Path(page)
    if path.is_symlink():
        raise CompanionError(
            f"{path} is a symbolic link: the report's page of games is written beside it "
            "under that name, never through a link; remove the link or choose another --out")
    if not os.path.lexists(path) or is_viewer_page(path):
        return
    what = "a folder" if path.is_dir() else "not a page pdnkit wrote"
    raise CompanionError(
        f"{path} exists and is {what}: the report writes the viewer page of its games "
        "there and will not replace it; move it away or choose another --out")


def write_report(kind: str, out: str | os.PathLike[str], db: DbLike = None,
                 **filters: Any) -> ReportFiles:
    """Write the report ``kind`` (:func:`pdnkit.reports.report`) to ``out``: Markdown for
    ``.md``, one HTML page for ``.html``; the collection report also writes the viewer page
    of its games to check beside it (:func:`companion_of`), which its links open. Both are
    replaced together (see the module's doc); ``filters`` as for ``report``. Raises
    :class:`CompanionError` where the page would replace a file that is not pdnkit's, and
    :class:`pdnkit._atomic.OutputIsInputError` for an output that is the database.

    Example:
        >>> import tempfile, pathlib
        >>> from pdnkit.store import connect
        >>> d = pathlib.Path(tempfile.mkdtemp())
        >>> connect(d / "g.duckdb").close()
        >>> write_report("endgame", d / "e.md", d / "g.duckdb").report.read_text()[:16]
        '# Endgame-rule r'
    """
    from pdnkit._atomic import atomic_paths, local_paths
    from pdnkit.reports import report
    from pdnkit.store import steps
    from pdnkit.store.db import db_path

    path = Path(out)
    fmt = REPORT_SUFFIXES.get(path.suffix.lower())
    if fmt is None:
        raise ArgumentError(f"cannot write a report to {path}: its name must end in .md or "
                            ".html")
    page = companion_of(path) if kind == "collection" else None
    if page is not None:
        check_companion(page)
    inputs = local_paths(db_path(db) if db is None or isinstance(db, (str, Path)) else [])
    outs = [path] if page is None else [path, page]
    with atomic_paths(outs, inputs) as temps:
        text = report(kind, db, fmt=fmt, view_page=temps[1] if page else None, **filters)
        wrote_page = page is not None and temps[1].exists()
        if wrote_page:
            steps.reached("report.page-written")
        temps[0].write_text(text, encoding="utf-8", newline="\n")
        steps.reached("report.written")  # both whole, under their names: now the renames
    return ReportFiles(path, page if wrote_page else None)
