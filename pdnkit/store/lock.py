"""Locks that keep two writers off one store: a lock file next to a database (its upgrade) or
in a lake's folder (its imports, ``lake compact``, its upgrade).

A local lock is a file created with ``O_EXCL`` that holds the holder's pid, host and command,
and a kernel lock (``flock``) held while the file is: it is stale as soon as its process is
gone, however it ended (``kill -9`` included), and the next writer takes it over. A lock
whose file cannot carry a kernel lock (a file system without ``flock``) is stale when it
names this host and a pid that no longer runs. A lake behind a non-local fsspec URL (``s3://``,
``memory://`` ...) gets a lock *object* holding the same facts and a time: it is refreshed
while its writer works (:meth:`StoreLock.refresh`, after each source) and stale once it is
older than :data:`REMOTE_TIMEOUT` seconds, since no pid on another host can be checked.

Example:
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> with StoreLock(d / "x.lock", "the database x") as lock:
    ...     try:
    ...         StoreLock(d / "x.lock", "the database x").acquire()
    ...     except StoreInUseError as exc:
    ...         print(str(exc)[:44])
    the database x is in use by another process
    >>> (d / "x.lock").exists()
    False
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
import time
import uuid
from pathlib import Path
from types import TracebackType
from typing import Any

from pdnkit.store.schema import DatabaseError

__all__ = ["REMOTE_TIMEOUT", "StoreInUseError", "StoreLock", "holder_text"]

#: seconds after its last refresh when a lock object of a non-local lake counts as stale
REMOTE_TIMEOUT = 600.0


class StoreInUseError(DatabaseError):
    """Another live process holds the store's lock (an import, an upgrade, a compaction).
    The message names it (pid, host, command) and says what to do."""


def _me(token: str) -> dict[str, Any]:
    return {"pid": os.getpid(), "host": socket.gethostname(), "token": token,
            "command": " ".join(os.path.basename(a) if i == 0 else a
                                for i, a in enumerate(sys.argv[:6]))[:200],
            "started": time.time(), "refreshed": time.time()}


def holder_text(holder: dict[str, Any]) -> str:
    """``pid N on HOST: COMMAND`` for a lock's holder (what the error names).

    Example:
        >>> holder_text({"pid": 12, "host": "h", "command": "pdnkit import a.pdn"})
        'pid 12 on h: pdnkit import a.pdn'
    """
    text = f"pid {holder.get('pid', '?')}"
    if holder.get("host"):
        text += f" on {holder['host']}"
    if holder.get("command"):
        text += f": {holder['command']}"
    return text


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: it runs
        return True
    return True


class StoreLock:
    """The lock of one store at ``path`` (a local path, or a path on ``fs``, an fsspec file
    system that is not local). ``what`` names the store in the error (``the lake x``).
    Use it as a context manager, or :meth:`acquire` and :meth:`release`."""

    def __init__(self, path: str | Path, what: str, fs: Any = None,
                 timeout: float = REMOTE_TIMEOUT) -> None:
        self.path = str(path)
        self.what = what
        self.fs = fs
        self.timeout = timeout
        self.token = uuid.uuid4().hex
        self.fd: int | None = None
        self.held = False

    # -- local ----------------------------------------------------------------------------

    def _try_local(self) -> dict[str, Any] | None:
        """Take the local lock; ``None`` when taken, else the live holder's facts."""
        import fcntl

        for _ in range(20):
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                try:
                    fd = os.open(self.path, os.O_RDWR)
                except FileNotFoundError:
                    continue  # released meanwhile: create it again
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _read_fd(fd)
                os.close(fd)
                return holder
            except OSError:  # no flock here: judge by the pid it names
                holder = _read_fd(fd)
                stale = holder.get("host") == socket.gethostname() \
                    and not _alive(int(holder.get("pid", 0) or 0))
                if not stale:
                    os.close(fd)
                    return holder
            if not _same_file(fd, self.path):  # removed by its holder while we opened it
                os.close(fd)
                continue
            os.ftruncate(fd, 0)
            os.write(fd, json.dumps(_me(self.token)).encode("utf-8"))
            os.fsync(fd)
            self.fd = fd
            return None
        raise StoreInUseError(f"{self.what} is in use: its lock {self.path} keeps changing")

    # -- remote ---------------------------------------------------------------------------

    def _read_remote(self) -> dict[str, Any] | None:
        try:
            with self.fs.open(self.path, "rb") as f:
                data: dict[str, Any] = json.loads(f.read().decode("utf-8") or "{}")
                return data
        except FileNotFoundError:
            return None
        except ValueError:
            return {}

    def _write_remote(self, exclusive: bool) -> None:
        body = json.dumps(_me(self.token)).encode("utf-8")
        if exclusive:
            try:
                with self.fs.open(self.path, "xb") as f:
                    f.write(body)
                return
            except (ValueError, NotImplementedError, TypeError):
                pass  # no exclusive create here: write, then read back below
        with self.fs.open(self.path, "wb") as f:
            f.write(body)

    def _try_remote(self) -> dict[str, Any] | None:
        holder = self._read_remote()
        if holder is not None and holder.get("token") != self.token:
            fresh = time.time() - float(holder.get("refreshed", 0) or 0) < self.timeout
            if fresh:
                return holder
            with contextlib.suppress(FileNotFoundError):
                self.fs.rm(self.path)  # stale: its writer stopped refreshing it
        try:
            self._write_remote(exclusive=True)
        except FileExistsError:
            return self._read_remote() or {}
        got = self._read_remote()  # the last writer wins: is it this one?
        if got is None or got.get("token") != self.token:
            return got or {}
        return None

    # -- both -----------------------------------------------------------------------------

    def acquire(self) -> StoreLock:
        """Take the lock or raise :class:`StoreInUseError` naming its holder."""
        holder = self._try_remote() if self.fs is not None else self._try_local()
        if holder is not None:
            raise StoreInUseError(
                f"{self.what} is in use by another process ({holder_text(holder)}): wait "
                f"until it ends, then run the command again (a lock left by a process that "
                f"is gone is taken over by itself; the lock is {self.path})")
        self.held = True
        return self

    def refresh(self) -> None:
        """Say that the holder still works (a remote lock object's time; nothing locally)."""
        if self.held and self.fs is not None:
            self._write_remote(exclusive=False)

    def release(self) -> None:
        """Give the lock up (its file or object is removed)."""
        if not self.held:
            return
        self.held = False
        if self.fs is not None:
            holder = self._read_remote()
            if holder is not None and holder.get("token") == self.token:
                with contextlib.suppress(FileNotFoundError):
                    self.fs.rm(self.path)
            return
        if self.fd is not None:
            with contextlib.suppress(FileNotFoundError):
                if _same_file(self.fd, self.path):
                    os.unlink(self.path)
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> StoreLock:
        return self.acquire()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()


def _read_fd(fd: int) -> dict[str, Any]:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        data = os.read(fd, 65536)
        out: dict[str, Any] = json.loads(data.decode("utf-8") or "{}")
        return out
    except (OSError, ValueError):
        return {}


def _same_file(fd: int, path: str) -> bool:
    try:
        a, b = os.fstat(fd), os.stat(path)
    except FileNotFoundError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)
