"""Collection tools over the reader: :func:`lint` (``convert``, which needs the validator's
variant guess, is :func:`pdnkit.validation.rewrite.convert`).

Example:
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> src = os.path.join(d, "a.pdn")
    >>> _ = open(src, "w").write('[Event "x"]\\n01. 32-28 {unclosed\\n'
    ...                          '[Event "y"]\\n1) 32+28 19+23 *\\n')
    >>> s = lint([src])
    >>> s.games, s.errors, s.warnings, [f.code for f in s.findings]
    (2, 1, 2, ['unclosed-comment', 'missing-terminator', 'syntax-error'])
    >>> lint([src], strict=True).errors
    3
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pdnkit.errors import MissingFileError
from pdnkit.findings import Finding, Severity
from pdnkit.pdn.reader import read_games
from pdnkit.pdn.source import source_name

PathLike = str | os.PathLike[str]


def expand_paths(paths: Iterable[PathLike]) -> Iterator[Path]:
    """Files named by ``paths``; a directory stands for its ``*.pdn`` files (recursively,
    sorted); ``-`` is standard input, a FIFO or ``/dev/stdin`` is read as it is. Missing
    paths raise ``FileNotFoundError``, paths that hold no PDN file at all
    :class:`~pdnkit.pdn.source.NoInputError`, a folder that cannot be listed
    :class:`~pdnkit.pdn.source.UnreadableFolderError` (API misuse, not bad data).

    Example:
        >>> list(expand_paths([]))
        []
    """
    from pdnkit.pdn.source import STDIN, no_input, pdn_files

    given = list(paths)
    found = 0
    for p in given:
        path = Path(p)
        if os.fspath(p) == STDIN:
            found += 1
            yield path
        elif path.is_dir():
            files = pdn_files(path)
            found += len(files)
            yield from files
        elif path.exists():
            found += 1
            yield path
        else:
            raise MissingFileError(f"no such file or directory: {path}")
    if given and not found:
        raise no_input(given)


@dataclass
class LintSummary:
    """What :func:`lint` found: counts and every reading finding in file order."""

    files: int = 0
    games: int = 0
    findings: list[Finding] = field(default_factory=list)

    @property
    def errors(self) -> int:
        """Number of error findings."""
        return sum(1 for f in self.findings if f.severity == Severity.ERROR)

    @property
    def warnings(self) -> int:
        """Number of warning findings."""
        return sum(1 for f in self.findings if f.severity == Severity.WARNING)

    @property
    def ok(self) -> bool:
        """True when no error finding exists."""
        return self.errors == 0


def lint(paths: Iterable[PathLike], strict: bool = False, *,
         encoding: str | None = None) -> LintSummary:
    """Read every game of ``paths`` and collect the reading findings (syntax errors,
    encoding fallbacks, unreadable text kept as comments, unclosed comments and variations,
    missing game terminators, constructs PDN 3.0 forbids).

    ``strict=True`` reads as the PDN 3.0 reading grammar does: everything it rejects (a
    missing result before the next game's tags, an identifier among the moves, a nested
    comment, a ``;`` comment ...) is an error; the moves are still read.
    ``encoding`` (a codec name) skips detection; an empty file gives ``empty-file`` and a
    text that is not PDN ``not-pdn``, each a finding about the file (no game counted).

    Example:
        >>> lint([]).ok
        True
    """
    summary = LintSummary()
    for path in expand_paths(paths):
        summary.files += 1
        for rec in read_games(path, strict=strict, encoding=encoding, file=source_name(path)):
            summary.games += not rec.file_level  # (an empty file, a text that is not PDN)
            summary.findings.extend(rec.findings)
    return summary


__all__ = ["LintSummary", "expand_paths", "lint"]
