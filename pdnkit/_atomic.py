"""Safe output files: written whole or not at all, never over one of the inputs.

:func:`atomic_output` (a file object) and :func:`atomic_path` (a path, for writers that want
one, such as ``fig.savefig`` or ``DataFrame.to_parquet``) write to a temporary file in the
output's own folder, flush it to disk (``fsync``) and rename it over the output only when the
writing succeeded: an error, a Ctrl-C or a kill leaves the old output as it was (and no
temporary file behind, except after a kill). Both first run the one output check,
:func:`check_output`: an output that *is* one of the inputs (compared by device and inode, so a
hard link, a symbolic link or another spelling of the same path is caught) or that lies inside
an input folder (symbolic links resolved) is refused with :class:`OutputIsInputError` before
anything is written.

An output that exists and is not a regular file (``/dev/stdout``, a FIFO) is written in
place: renaming over it would replace the device or pipe.

Example:
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp(); out = os.path.join(d, "out.txt")
    >>> with atomic_output(out) as fh:
    ...     _ = fh.write("hello\\n")
    >>> open(out).read()
    'hello\\n'
    >>> try:
    ...     with atomic_output(out, inputs=[d]) as fh:
    ...         _ = fh.write("lost")
    ... except OutputIsInputError as exc:
    ...     print("refused")
    refused
    >>> open(out).read()
    'hello\\n'
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from pdnkit.errors import ArgumentError, PdnkitError

PathLike = str | os.PathLike[str]


class OutputIsInputError(PdnkitError, ValueError):
    """The output file is one of the input files (same device and inode)."""


def _identity(path: PathLike) -> tuple[int, int] | None:
    """(device, inode) of an existing regular file, else ``None``."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return st.st_dev, st.st_ino


def _is_dir(path: PathLike) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):  # not there, a name too long, a NUL in the name
        return False


def _input_files(inputs: Iterable[PathLike]) -> Iterator[Path]:
    for p in inputs:
        path = Path(p)
        if _is_dir(path):
            yield from (q for q in path.rglob("*") if q.is_file())
        else:
            yield path


def local_paths(*items: object) -> list[Path]:
    """The local files and folders among ``items`` (paths, lists of paths, PDN text, open
    connections, URLs ...): what an output check compares an output with. Items that are
    not the name of something on this machine are left out.

    Example:
        >>> import tempfile
        >>> d = tempfile.mkdtemp()
        >>> [p.name == Path(d).name for p in local_paths([d, "1. 32-28 *"], None, "s3://b/x")]
        [True]
    """
    found: list[Path] = []
    for item in items:
        if isinstance(item, (list, tuple)):
            found += local_paths(*item)
        elif isinstance(item, (str, os.PathLike)):
            text = os.fspath(item)
            if isinstance(text, str) and text and "\n" not in text and "://" not in text \
                    and text != ":memory:" and _exists(text):
                found.append(Path(text))
    return found


def _exists(path: str) -> bool:
    try:
        os.stat(path)
    except (OSError, ValueError):
        return False
    return True


def check_output(out: PathLike, inputs: Iterable[PathLike]) -> None:
    """The one output check of every command and every library function that writes a file:
    raise :class:`OutputIsInputError` when ``out`` is the same file as one of ``inputs``
    (device and inode: hard and symbolic links caught) or lies inside an input folder
    (symbolic links resolved; the next run would read the output as an input). Inputs
    that do not exist (standard input ``-``, a URL) are skipped; an output that does not
    exist yet is refused only inside an input folder.

    Example:
        >>> import os, tempfile
        >>> d = tempfile.mkdtemp(); src = os.path.join(d, "src"); os.mkdir(src)
        >>> try:
        ...     check_output(os.path.join(src, "report.jsonl"), [src])
        ... except OutputIsInputError as exc:
        ...     print("inside the input folder" in str(exc))
        True
        >>> check_output(os.path.join(d, "report.jsonl"), [src]) is None
        True
    """
    inputs = list(inputs)
    check_not_input(out, inputs)  # the same file: the more precise message first
    real_out = Path(os.path.realpath(out))
    for folder in inputs:
        if _is_dir(folder):
            real_folder = Path(os.path.realpath(folder))
            if real_out == real_folder or real_folder in real_out.parents:
                raise OutputIsInputError(
                    f"the output {out} is inside the input folder {folder}: the next run "
                    "would read it as an input; refusing to write it there, choose another "
                    "--out")


def check_not_input(out: PathLike, inputs: Iterable[PathLike]) -> None:
    """Raise :class:`OutputIsInputError` when ``out`` is the same file as one of ``inputs``
    (files, or folders standing for every file below them). An output that does not exist
    yet is never an input.

    Example:
        >>> import os, tempfile
        >>> d = tempfile.mkdtemp(); a = os.path.join(d, "a.pdn"); _ = open(a, "w").write("x")
        >>> os.link(a, os.path.join(d, "b.pdn"))
        >>> try:
        ...     check_not_input(os.path.join(d, "b.pdn"), [a])
        ... except OutputIsInputError as exc:
        ...     print("is also an input" in str(exc) and a in str(exc))
        True
        >>> check_not_input(os.path.join(d, "new.pdn"), [d]) is None
        True
    """
    target = _identity(out)
    if target is None:
        return
    for path in _input_files(inputs):
        if _identity(path) == target:
            same = "" if Path(path) == Path(out) else f"{path}, "
            raise OutputIsInputError(
                f"the output {out} is also an input ({same}same file): refusing to "
                "overwrite it; choose another --out")


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextlib.contextmanager
def atomic_path(out: PathLike, inputs: Iterable[PathLike] = ()) -> Iterator[Path]:
    """A temporary path next to ``out`` to write to; renamed to ``out`` when the block ends
    without an exception, removed otherwise. ``inputs`` are checked first
    (:func:`check_output`). A new output gets the usual permissions (``0o666`` less the
    umask), an existing one keeps its own. The folder of ``out`` is created if needed.

    Example:
        >>> import os, tempfile
        >>> d = tempfile.mkdtemp(); out = os.path.join(d, "o.bin")
        >>> with atomic_path(out) as tmp:
        ...     _ = tmp.write_bytes(b"x")
        >>> open(out, "rb").read(), sorted(os.listdir(d))
        (b'x', ['o.bin'])
    """
    check_output(out, inputs)
    target = Path(os.path.realpath(out))
    if target.exists() and not target.is_file():  # a device or a pipe: write in place
        yield target
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except OSError:
            mode = _new_file_mode()
        os.chmod(tmp, mode)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, target)
        with contextlib.suppress(OSError):  # make the rename itself durable
            dfd = os.open(target.parent, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # make the renames themselves durable
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


@contextlib.contextmanager
def atomic_paths(outs: Sequence[PathLike], inputs: Iterable[PathLike] = ()
                 ) -> Iterator[list[Path]]:
    """Paths to write several outputs that are replaced together (a report and the page it
    links to): for each of ``outs`` a path of the same name in a temporary folder beside
    it, so that what links to it by name is written as it will be read. When the block
    ends without an exception every file written there is flushed to disk, then renamed
    over its output, one rename right after the other; an output not written in the
    block is left as it was. An error, a Ctrl-C or a kill at any moment before the renames
    leaves every output as it was (and, after a kill, the temporary folder behind, named
    ``.NAME.*.tmp``). Each output gets the one output check (:func:`check_output`) first;
    symbolic links are resolved as :func:`atomic_path` resolves them.

    Example:
        >>> import os, tempfile
        >>> d = tempfile.mkdtemp()
        >>> with atomic_paths([os.path.join(d, "r.html"), os.path.join(d, "r.games.html")]
        ...                   ) as (report, page):
        ...     _ = page.write_text("games"); _ = report.write_text(f"see {page.name}")
        >>> open(os.path.join(d, "r.html")).read(), sorted(os.listdir(d))
        ('see r.games.html', ['r.games.html', 'r.html'])
    """
    inputs = list(inputs)
    for out in outs:
        check_output(out, inputs)
    targets = [Path(os.path.realpath(out)) for out in outs]
    folders: dict[Path, Path] = {}
    try:
        for target in targets:
            if target.exists() and not target.is_file():
                raise ArgumentError(f"{target} is not a file: refusing to replace it")
            if target.parent not in folders:
                target.parent.mkdir(parents=True, exist_ok=True)
                folders[target.parent] = Path(tempfile.mkdtemp(
                    prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
        temps = [folders[t.parent] / t.name for t in targets]
        if len(set(temps)) != len(temps):
            raise ArgumentError("two outputs are the same file")
        yield temps
        written = [(tmp, t) for tmp, t in zip(temps, targets, strict=True) if tmp.exists()]
        for tmp, target in written:
            try:
                mode = stat.S_IMODE(os.stat(target).st_mode)
            except OSError:
                mode = _new_file_mode()
            os.chmod(tmp, mode)
            with open(tmp, "rb+") as fh:
                os.fsync(fh.fileno())
        for tmp, target in written:  # every output whole on disk: now the renames
            os.replace(tmp, target)
        for folder in folders:
            _fsync_dir(folder)
    finally:
        for tmp_folder in folders.values():
            with contextlib.suppress(OSError):
                for leftover in tmp_folder.iterdir():
                    leftover.unlink()
            with contextlib.suppress(OSError):
                tmp_folder.rmdir()


@contextlib.contextmanager
def atomic_output(out: PathLike, mode: str = "w", inputs: Iterable[PathLike] = (),
                  encoding: str | None = "utf-8", newline: str | None = "\n") -> Iterator[IO[Any]]:
    """An open file (``mode`` ``"w"`` or ``"wb"``) whose content replaces ``out`` when the
    block ends without an exception (see :func:`atomic_path`); ``out`` is untouched
    otherwise. ``encoding`` and ``newline`` apply to text mode.

    Example:
        >>> import os, tempfile
        >>> d = tempfile.mkdtemp(); out = os.path.join(d, "keep.txt")
        >>> _ = open(out, "w").write("old")
        >>> try:
        ...     with atomic_output(out) as fh:
        ...         _ = fh.write("half")
        ...         raise RuntimeError("failed")
        ... except RuntimeError:
        ...     pass
        >>> open(out).read(), sorted(os.listdir(d))
        ('old', ['keep.txt'])
    """
    if mode not in ("w", "wb"):
        raise ArgumentError("mode must be 'w' or 'wb'")
    with atomic_path(out, inputs) as tmp:
        kwargs: dict[str, Any] = {} if mode == "wb" else {"encoding": encoding,
                                                          "newline": newline}
        with open(tmp, mode, **kwargs) as fh:
            yield fh


__all__ = ["OutputIsInputError", "atomic_output", "atomic_path", "atomic_paths",
           "check_not_input", "check_output", "local_paths"]
