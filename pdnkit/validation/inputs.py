"""The inputs of a run: files, folders, PDN text, file objects, records.

:func:`iter_sources` is what ``validate`` reads; :func:`collect_paths` the files an import
loads (each file once, folders searched for ``*.pdn``, standard input or a FIFO as given).

Example:
    >>> list(iter_sources('[Event "x"] *'))
    ['[Event "x"] *']
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Union, cast

from pdnkit.errors import MissingFileError
from pdnkit.pdn.record import GameRecord

if TYPE_CHECKING:
    from typing_extensions import TypeIs

#: A file, PDN text or a file object: what the reader reads.
FileInput = Path | str | IO[str] | IO[bytes]

#: One input as :func:`iter_sources` yields it: a file, PDN text, a file object, a record.
Input = FileInput | GameRecord

#: What :func:`pdnkit.validation.validate` accepts: an input, a folder, or any iterable of
#: those (nested).
Source = Union[str, "os.PathLike[str]", IO[str], IO[bytes], GameRecord, Iterable["Source"]]


def is_record(src: object) -> TypeIs[GameRecord]:
    """True for an already read game record (anything with ``tags`` and ``moves``)."""
    return hasattr(src, "tags") and hasattr(src, "moves")


def iter_sources(source: Source) -> Iterator[Input]:
    """The inputs behind ``source``: PDN files (a folder is searched recursively for
    ``*.pdn``), or a string of PDN text when it is not a path.

    Example:
        >>> list(iter_sources('[Event "x"] *'))
        ['[Event "x"] *']
    """
    if isinstance(source, (str, os.PathLike)):
        text = os.fspath(source)
        maybe_path = isinstance(source, os.PathLike) or ("\n" not in text and len(text) < 4096)
        if maybe_path:
            p = Path(text)
            if p.is_dir():
                from pdnkit.pdn.source import no_input, pdn_files

                found = pdn_files(p)  # an unreadable subfolder is an error naming it
                if not found:

                    raise no_input([text])
                yield from found
                return
            if p.exists() or isinstance(source, os.PathLike) or not _looks_like_pdn(text):
                yield p
                return
        yield text
        return
    if is_record(source):  # an already read GameRecord
        yield source
        return
    if hasattr(source, "read"):  # a file object
        yield cast("IO[str] | IO[bytes]", source)
        return
    for s in source:
        yield from iter_sources(s)


#: file name endings read when a folder is given to :func:`collect_paths`
PDN_SUFFIXES = (".pdn",)


def collect_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files to import: files as given, and every ``*.pdn`` file under a folder (sorted).
    Raises ``FileNotFoundError`` for a path that does not exist.

    Example:
        >>> collect_paths([])
        []
        >>> collect_paths(["no-such.pdn"])
        Traceback (most recent call last):
        ...
        pdnkit.errors.MissingFileError: no such file or folder: no-such.pdn
    """
    from pdnkit.pdn.source import STDIN, is_regular_file, no_input, pdn_files

    out: list[Path] = []
    seen: set[Path] = set()
    given = list(paths)
    for p in given:
        path = Path(p)
        if os.fspath(p) == STDIN or (path.exists() and not path.is_dir()
                                     and not is_regular_file(path)):
            out.append(path)  # standard input, a FIFO, /dev/stdin: read once, as given
            continue
        if path.is_dir():
            found = pdn_files(path, PDN_SUFFIXES)  # an unreadable subfolder: an error
        elif path.exists():
            found = [path]
        else:
            raise MissingFileError(f"no such file or folder: {path}")
        for q in found:
            q = q.resolve()
            if q not in seen:
                seen.add(q)
                out.append(q)
    if given and not out:
        raise no_input(given)
    return out


def _looks_like_pdn(text: str) -> bool:
    """A string that is PDN text rather than a (missing) file name."""
    t = text.strip()
    return t.startswith(("[", "{", "%", ";")) or t[:1].isdigit() or t.endswith("*")
