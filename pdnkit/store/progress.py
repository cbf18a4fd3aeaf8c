"""The progress bar of an import (the database's and the lake's): files, games and, for the
database, games per second, on standard error and only on a terminal.

Example:
    >>> bar = ImportProgress("import", 2)
    >>> bar.games(10); bar.file_done(); bar.close()
    >>> bar.n_games
    10
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
    """A rich progress bar: ``label``, files done of ``total_files``, games, and games/s
    when ``rate``; drawn only when :func:`is_terminal`."""

    def __init__(self, label: str, total_files: int, *, rate: bool = True) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            ProgressColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        self.start = time.perf_counter()
        self.n_games = 0
        self.rate = rate
        text = "files  {task.fields[games]} games" + ("  {task.fields[rate]} games/s"
                                                      if rate else "")
        columns: list[ProgressColumn | str] = [
            TextColumn(f"[bold]{label}[/bold]"), BarColumn(), MofNCompleteColumn(),
            TextColumn(text)]
        if rate:
            columns.append(TimeElapsedColumn())
        self.progress = Progress(*columns, console=Console(stderr=True), transient=True,
                                 disable=not is_terminal())
        self.task = self.progress.add_task(label, total=total_files, games=0, rate=0)
        self.progress.start()

    def games(self, n: int) -> None:
        """Count ``n`` more games."""
        self.n_games += n
        rate = self.n_games / max(time.perf_counter() - self.start, 1e-9)
        self.progress.update(self.task, games=self.n_games, rate=f"{rate:.0f}")

    def file_done(self) -> None:
        """Count one more file."""
        self.progress.advance(self.task)

    def close(self) -> None:
        """Stop drawing (the bar is transient: it leaves no line)."""
        self.progress.stop()


__all__ = ["ImportProgress", "is_terminal"]
