"""Child processes that die with their parent.

A worker process started by ``ProcessPoolExecutor`` outlives its parent when the parent is
killed outright (``kill -9``, the out-of-memory killer): nothing tells it to stop, and it keeps
its memory and CPU for minutes. :func:`die_with_parent` is a pool *initializer* that ties a
worker's life to its parent's:

* on Linux, ``prctl(PR_SET_PDEATHSIG, SIGKILL)``: the kernel kills the worker the moment the
  thread that started it ends (so start pools from a thread that lives as long as the pool,
  normally the main thread);
* everywhere (and as a second line on Linux), a daemon thread that checks once a second that
  the parent is still the same process (``os.getppid()`` changes when a process is orphaned)
  and ends the worker with ``os._exit`` otherwise.

:func:`process_pool` makes a ``ProcessPoolExecutor`` with this initializer;
:func:`close_pool` shuts one down without waiting forever for a worker that never ends (one
stopped with SIGSTOP, or hung), and :func:`stop_workers` kills its workers at once.

Another program run as a child (an engine pdnkit talks to, :func:`start_child`) gets the same
signal: on Linux it is started through a few lines of Python that ask for
``PR_SET_PDEATHSIG`` and then ``exec`` the program, which keeps the request (the kernel clears
it only for set-user-ID programs). The parent it watches is the *thread* that started it: a
thread that starts a child must outlive it (or stop it first). Elsewhere the child is only
started; a well-behaved engine also ends when its standard input closes, as it does when
pdnkit ends.

Example:
    >>> pool = process_pool(1)
    >>> pool.submit(sum, [1, 2]).result()
    3
    >>> pool.shutdown()
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

#: seconds between two checks of the parent process by the watcher thread
WATCH_EVERY = 1.0
#: ``PR_SET_PDEATHSIG`` from ``<linux/prctl.h>``
_PR_SET_PDEATHSIG = 1


def _set_pdeathsig() -> bool:
    """Ask the Linux kernel to SIGKILL this process when its parent ends; False elsewhere."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int, every: float) -> None:
    while True:
        time.sleep(every)
        if os.getppid() != parent:
            os._exit(1)  # orphaned: nothing can read our results any more


def die_with_parent(parent: int | None = None, every: float = WATCH_EVERY) -> None:
    """Make the calling (child) process end when its parent process ends: a pool
    ``initializer``. ``parent`` is the parent's pid as the parent saw it (``os.getpid()``
    before starting the pool); a child whose parent is already gone ends at once.

    Example:
        >>> with ProcessPoolExecutor(1, initializer=die_with_parent,
        ...                          initargs=(os.getpid(),)) as pool:
        ...     pool.submit(os.getppid).result() == os.getpid()
        True
    """
    expected = os.getppid() if parent is None else parent
    _set_pdeathsig()
    if os.getppid() != expected:  # the parent ended before the signal was armed
        os._exit(1)
    threading.Thread(target=_watch, args=(os.getppid(), every), name="pdnkit-parent-watch",
                     daemon=True).start()


def stop_workers(pool: Executor) -> None:
    """Kill the worker processes of the process pool ``pool`` (nothing for another
    executor): a worker that hangs would otherwise hold the pool's shutdown forever. The
    pool is broken afterwards: every future not done fails with ``BrokenProcessPool``.

    Example:
        >>> import concurrent.futures, time
        >>> pool = process_pool(1)
        >>> fut = pool.submit(time.sleep, 600)
        >>> stop_workers(pool)
        >>> isinstance(fut.exception(timeout=60), concurrent.futures.BrokenExecutor)
        True
        >>> pool.shutdown()
    """
    kill = getattr(pool, "kill_workers", None)  # Python 3.14 and later
    if callable(kill):
        kill()
        return
    processes = getattr(pool, "_processes", None) or {}  # (earlier: the pool's own map)
    for proc in list(processes.values()):
        with contextlib.suppress(Exception):
            proc.kill()


def close_pool(pool: Executor, grace: float) -> None:
    """Shut down ``pool`` without waiting forever: the calls not started are cancelled, its
    worker processes get ``grace`` seconds to end, and any still there then (a worker
    stopped with SIGSTOP, or hung in a call) is killed (:func:`stop_workers`). A worker
    that is stopped never reads the pool's request to end, and ``shutdown(wait=True)``
    would wait for it for ever. Another executor is shut down as usual.

    Example:
        >>> import signal
        >>> pool = process_pool(1)
        >>> pid = pool.submit(os.getpid).result()
        >>> os.kill(pid, signal.SIGSTOP)
        >>> close_pool(pool, grace=0.5)  # returns: the stopped worker is killed
        >>> _alive(pid)
        False
    """
    processes = list((getattr(pool, "_processes", None) or {}).values())  # (the pool's map)
    if not processes:
        pool.shutdown(wait=True, cancel_futures=True)
        return
    pool.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + max(0.0, grace)
    for proc in processes:
        proc.join(max(0.0, deadline - time.monotonic()))
    left = [proc for proc in processes if proc.is_alive()]
    for proc in left:
        with contextlib.suppress(Exception):
            proc.kill()
    for proc in left:
        proc.join()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def process_pool(jobs: int, initializer: Callable[..., Any] | None = None,
                 initargs: tuple[Any, ...] = ()) -> ProcessPoolExecutor:
    """A ``ProcessPoolExecutor`` of ``jobs`` workers that die with this process (see
    :func:`die_with_parent`); ``initializer(*initargs)`` runs after that in each worker.

    Example:
        >>> with process_pool(2) as pool:
        ...     pool.submit(max, 3, 4).result()
        4
    """
    return ProcessPoolExecutor(max_workers=jobs, initializer=_init,
                               initargs=(os.getpid(), initializer, initargs))


def _init(parent: int, initializer: Callable[..., Any] | None,
          initargs: tuple[Any, ...]) -> None:
    # with the fork start method the worker's parent is the pool's process; with a
    # forkserver in between it is the server (which ends with the pool's process), and the
    # watcher follows the direct parent; a worker whose pool process is gone ends at once
    direct = os.getppid()
    if direct != parent and not _alive(parent):
        os._exit(1)
    die_with_parent(direct)
    if initializer is not None:
        with contextlib.suppress(KeyboardInterrupt):
            initializer(*initargs)


#: what the launcher runs (``python -S -c``) before the program: ``argv[1]`` is the pid of
#: the process that started it, ``argv[2:]`` the program's command line
_LAUNCH = (
    "import ctypes,os,signal,sys\n"
    "try:\n"
    " ctypes.CDLL(None,use_errno=True).prctl(1,int(signal.SIGKILL),0,0,0)\n"
    "except (OSError,AttributeError):\n"
    " pass\n"
    "if os.getppid()!=int(sys.argv[1]):\n"
    " os._exit(1)\n"
    "try:\n"
    " os.execvp(sys.argv[2],sys.argv[2:])\n"
    "except OSError as e:\n"
    " sys.stderr.write(f'cannot run {sys.argv[2]}: {e.strerror}\\n');os._exit(127)\n")


def find_program(name: str) -> str | None:
    """The file ``name`` runs (a path, or a name looked up on ``PATH``), or ``None`` when
    there is no such program to run.

    Example:
        >>> find_program(sys.executable) == sys.executable, find_program("no-such-program-x")
        (True, None)
    """
    if os.sep in name or (os.altsep and os.altsep in name):
        return name if os.path.isfile(name) and os.access(name, os.X_OK) else None
    return shutil.which(name)


def start_child(argv: Sequence[str], **popen: Any) -> subprocess.Popen[Any]:
    """Start the program ``argv`` (a command line as a list) as a child process that ends
    when this process (the calling thread, on Linux) ends, even by ``kill -9``; ``popen`` are
    ``subprocess.Popen``'s other arguments. Raises :class:`~pdnkit.errors.MissingFileError`
    (a ``FileNotFoundError``) when ``argv[0]`` is no program to run.

    Example:
        >>> import subprocess
        >>> child = start_child([sys.executable, "-c", "print(6 * 7)"], stdout=subprocess.PIPE)
        >>> child.communicate()[0].strip(), child.returncode
        (b'42', 0)
    """
    from pdnkit.errors import MissingFileError

    argv = [str(a) for a in argv]
    if not argv or find_program(argv[0]) is None:
        raise MissingFileError(f"no such program: {argv[0] if argv else '(empty command)'}")
    if sys.platform.startswith("linux"):
        argv = [sys.executable, "-S", "-c", _LAUNCH, str(os.getpid()), *argv]
    return subprocess.Popen(argv, **popen)


__all__ = ["WATCH_EVERY", "close_pool", "die_with_parent", "find_program", "process_pool",
           "start_child", "stop_workers"]
