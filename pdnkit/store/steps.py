"""Named steps of the commands that rewrite a store (an upgrade, an import), where a test
can stop the process for real: the kill and concurrency tests run ``pdnkit`` in a child
process with an environment variable naming a step.

* ``PDNKIT_KILL_AT=STEP``: the process kills itself (``SIGKILL``, nothing cleaned up) when it
  reaches ``STEP``; ``STEP#N`` at the Nth time.
* ``PDNKIT_PAUSE_AT=STEP=FILE``: at ``STEP`` the process writes ``FILE`` (its pid) and waits
  until ``FILE`` is removed (at most a minute), so a test can act while it holds a lock.
* ``PDNKIT_STEP_LOG=FILE``: every step reached is added to ``FILE``, one a line (how a test
  learns the steps of a run).

Unset (always, outside tests), :func:`reached` is a dictionary lookup.

Example:
    >>> reached("upgrade.start")  # no variable set: nothing happens
"""

from __future__ import annotations

import os
import signal
import time
from collections import Counter

__all__ = ["KILL_AT", "PAUSE_AT", "STEP_LOG", "reached"]

#: the environment variable naming the step where the process kills itself
KILL_AT = "PDNKIT_KILL_AT"
#: the environment variable naming a step where the process waits (``STEP=FILE``)
PAUSE_AT = "PDNKIT_PAUSE_AT"
#: the environment variable naming the file that lists the steps reached
STEP_LOG = "PDNKIT_STEP_LOG"

_SEEN: Counter[str] = Counter()


def reached(step: str) -> None:
    """Mark ``step`` as reached: kill or pause this process there when a test asks for it."""
    kill = os.environ.get(KILL_AT)
    pause = os.environ.get(PAUSE_AT)
    log = os.environ.get(STEP_LOG)
    if not kill and not pause and not log:
        return
    _SEEN[step] += 1
    if log:
        with open(log, "a", encoding="utf-8") as f:
            f.write(step + "\n")
    if kill:
        name, _, nth = kill.partition("#")
        if name == step and _SEEN[step] == int(nth or 1):
            os.kill(os.getpid(), signal.SIGKILL)
    if pause:
        name, _, marker = pause.partition("=")
        if name == step and marker and _SEEN[step] == 1:
            with open(marker, "w", encoding="utf-8") as f:
                f.write(str(os.getpid()))
            deadline = time.monotonic() + 60
            while os.path.exists(marker) and time.monotonic() < deadline:
                time.sleep(0.02)
