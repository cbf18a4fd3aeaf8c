"""The progress bars of an import (the database's and the lake's: how far through the input
it is, in bytes, so one large file moves the bar too, files done, games and, for the
database, games per second) and of ``validate`` (lines of the input read, games): on
standard error and only on a terminal, never in the output itself.

Example:
    >>> bar = ImportProgress("import", 2, total_bytes=100)
    >>> bar.games(10, 40); bar.file_done(); bar.close()
    >>> bar.n_games, bar.files_done
    (10, 1)
"""

from __future__ import annotations

import os
import sys
import time


def is_terminal() -> bool:
    """Whether standard error is a terminal that draws a progress bar.

    Example:
        >>> isinstance(is_terminal(), bool)
        True
    """
    return sys.stderr.isatty() and os.environ.get("TERM") != "dumb"


class ImportProgress:
    """A rich progress bar: ``label``, the part of the input read (``total_bytes`` of it:
    the bar moves within a file as its games are loaded), files done of ``total_files``,
    games, and games/s when ``rate``; drawn only when :func:`is_terminal`. Without
    ``total_bytes`` the bar counts files."""

    def __init__(self, label: str, total_files: int, *, rate: bool = True,
                 total_bytes: int | None = None) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            MofNCompleteColumn,
            Progress,
            ProgressColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        self.start = time.perf_counter()
        self.n_games = 0
        self.files_done = 0
        self.total_files = total_files
        self.rate = rate
        self.by_bytes = bool(total_bytes)
        self.file_start = 0  # bytes of the files done
        self.in_file = 0  # bytes read of the file being read (its games' text)
        text = ("{task.fields[files]} files  " if self.by_bytes else "files  ") \
            + "{task.fields[games]} games" + ("  {task.fields[rate]} games/s" if rate else "")
        columns: list[ProgressColumn | str] = [
            TextColumn(f"[bold]{label}[/bold]"), BarColumn(),
            DownloadColumn() if self.by_bytes else MofNCompleteColumn(), TextColumn(text)]
        if rate:
            columns.append(TimeElapsedColumn())
        self.progress = Progress(*columns, console=Console(stderr=True), transient=True,
                                 disable=not is_terminal())
        self.task = self.progress.add_task(
            label, total=total_bytes if self.by_bytes else total_files, games=0, rate=0,
            files=f"0/{total_files}")
        self.progress.start()

    def games(self, n: int, nbytes: int = 0) -> None:
        """Count ``n`` more games, which took ``nbytes`` of the file being read."""
        self.n_games += n
        rate = self.n_games / max(time.perf_counter() - self.start, 1e-9)
        fields: dict[str, object] = {"games": self.n_games, "rate": f"{rate:.0f}"}
        if self.by_bytes and nbytes:
            self.in_file += nbytes
            fields["completed"] = self.file_start + self.in_file
        self.progress.update(self.task, **fields)  # type: ignore[arg-type]

    def file_done(self, size: int | None = None) -> None:
        """Count one more file, of ``size`` bytes (default: what its games took)."""
        self.files_done += 1
        if self.by_bytes:
            self.file_start += self.in_file if size is None else size
            self.in_file = 0
            self.progress.update(self.task, completed=self.file_start,
                                 files=f"{self.files_done}/{self.total_files}")
        else:
            self.progress.advance(self.task)

    def close(self) -> None:
        """Stop drawing (the bar is transient: it leaves no line)."""
        self.progress.stop()


#: input of at most this many bytes has its lines counted first, so that ``validate``'s bar
#: can say how far through it is (about 1 GB/s); a larger input gets a count of games
COUNT_LINES_BYTES = 1 << 30


def count_lines(paths: list[str], limit: int = COUNT_LINES_BYTES) -> dict[str, int] | None:
    """``{path: lines}`` of regular files, or ``None`` when one is not a regular file or
    all are larger than ``limit`` bytes together.

    Example:
        >>> import tempfile
        >>> with tempfile.NamedTemporaryFile("w", delete=False) as f:
        ...     _ = f.write("a\\nb\\n")
        >>> count_lines([f.name])[f.name]
        2
    """
    sizes = {}
    for p in paths:
        if not os.path.isfile(p):
            return None
        sizes[p] = os.path.getsize(p)
    if sum(sizes.values()) > limit:
        return None
    out = {}
    for p in paths:
        n = 0
        with open(p, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                n += block.count(b"\n")
        out[p] = max(n, 1)
    return out


class LineProgress:
    """The progress of ``validate``: a bar of the input's lines read (each game's first line
    tells; files counted by :func:`count_lines`), games and the time; a spinner with the
    games alone when the lines are not counted. Drawn only when :func:`is_terminal`.

    Example:
        >>> bar = LineProgress("validating", {"a.pdn": 10})
        >>> bar.game("a.pdn", 5); bar.close()
        >>> bar.n_games, bar.done
        (1, 5)
    """

    def __init__(self, label: str, lines: dict[str, int] | None) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            Progress,
            ProgressColumn,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        self.lines = lines
        self.base: dict[str, int] = {}  # the lines before each file, by its absolute path
        self.names: dict[str, str] = {}  # a report's file name -> its absolute path
        if lines:
            total = 0
            for p, n in lines.items():
                self.base[os.path.abspath(p)] = total
                total += n
        self.n_games = 0
        self.done = 0
        columns: list[ProgressColumn | str] = [SpinnerColumn(), TextColumn(label)]
        if lines:
            columns += [BarColumn(), TextColumn("{task.percentage:>3.0f}%")]
        columns += [TextColumn("{task.fields[games]} games"), TimeElapsedColumn()]
        self.progress = Progress(*columns, console=Console(stderr=True), transient=True,
                                 disable=not is_terminal())
        self.task = self.progress.add_task(label, total=sum(lines.values()) if lines else None,
                                           games=0)
        self.progress.start()

    def game(self, file: str | None, line: int | None) -> None:
        """One more game, which starts at ``line`` of ``file``."""
        self.n_games += 1
        fields: dict[str, object] = {"games": self.n_games}
        if self.lines and file and line:
            path = self.names.get(file)
            if path is None:
                path = self.names[file] = os.path.abspath(file)
            if path in self.base:
                self.done = max(self.done, self.base[path] + int(line))
                fields["completed"] = self.done
        self.progress.update(self.task, **fields)  # type: ignore[arg-type]

    def close(self) -> None:
        """Stop drawing (the bar leaves no line)."""
        self.progress.stop()


__all__ = ["COUNT_LINES_BYTES", "ImportProgress", "LineProgress", "count_lines",
           "is_terminal"]
