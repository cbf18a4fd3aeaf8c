r"""A Hub engine as a child process: start, handshake, one position at a time, and an end.

The protocol is Hub version 2 as Scan 3 and the Hub GUI speak it (Fabien Letouzey,
``protocol.txt`` in the Scan sources, "Hub protocol for draughts, version 2"):

* start-up: ``hub`` -> ``id name=... version=...``, ``param name=... value=... type=...``
  lines, ``wait``; then ``set-param name=... value=...`` for each setting and ``init`` ->
  ``ready`` (an engine may print other lines on the way: they are ignored);
* a search: ``pos pos=<side and 50 squares>``, ``level depth=N`` or ``level move-time=S``,
  ``go analyze`` -> ``info depth=... score=... nodes=... pv="..."`` lines, then ``done
  move=... [ponder=...]``; the score is in men from the side to move's view;
* ``new-game`` (clear the tables) and ``ping`` -> ``pong`` before each game, ``quit`` at the
  end; an engine ends when its standard input closes.

The engine is a child that dies with pdnkit (:func:`pdnkit._children.start_child`, the
mechanism of pdnkit's worker processes: ``kill -9`` of pdnkit included). Its output is read by
the thread that waits for it (``select`` with a deadline), so every wait has a deadline: a
start that does not reach ``ready`` in time is an
:class:`~pdnkit.engines.base.EngineError` (the engine cannot be used); a position without its
``done`` in time is killed and raised as an :class:`~pdnkit.engines.base.EngineFault`
(``hang``), as is an engine that ends (``crash``) or answers what cannot be read (``garbage``:
a move that is not legal, a ``done`` without a move or score, an ``error`` line); the next
position starts a new process.

Variants: Hub describes the 10x10 board. An engine that declares a ``variant`` parameter
(Scan: ``normal killer bt frisian losing``) plays those of them pdnkit knows
(:data:`HUB_VARIANTS`), set at start-up; any other engine plays international draughts.

Example (a toy engine of seven lines, always 32-28 with a quarter of a man for White):
    >>> import sys
    >>> from pdnkit.rules import Position, get_rules
    >>> toy = ("import sys\n"
    ...        "for line in sys.stdin:\n"
    ...        "    cmd = line.split()[0]\n"
    ...        "    if cmd == 'hub': print('id name=toy version=1\\nwait', flush=True)\n"
    ...        "    elif cmd == 'init': print('ready', flush=True)\n"
    ...        "    elif cmd == 'go': print('info depth=1 score=0.25\\ndone move=32-28', flush=True)\n"
    ...        "    elif cmd == 'quit': break\n")
    >>> with HubEngine([sys.executable, "-c", toy], depth=1) as engine:
    ...     ev = engine.evaluate(Position.initial(get_rules("international")))
    >>> engine.info.label, ev.score, str(ev.best), engine.pid is None
    ('toy 1', 0.25, '32-28', True)
"""

from __future__ import annotations

import collections
import contextlib
import os
import queue
import select
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import IO, Any

from pdnkit._children import start_child
from pdnkit.engines.base import EngineError, EngineFault, EngineInfo, Evaluation
from pdnkit.engines.hubtext import (
    HubSyntaxError,
    board_of,
    format_line,
    hub_position,
    line_from_hub,
    parse_line,
    play_hub,
)
from pdnkit.errors import ArgumentError

__all__ = ["DEFAULT_DEPTH", "HUB_VARIANTS", "POSITION_TIMEOUT", "READ_SLICE", "START_TIMEOUT",
           "HubEngine"]

#: the values of a Hub engine's ``variant`` parameter that pdnkit knows (Scan's names)
HUB_VARIANTS = {"normal": "international", "frisian": "frisian", "bt": "breakthrough",
                "losing": "antidraughts"}
#: the depth a search goes to when neither a depth nor a move time is given
DEFAULT_DEPTH = 6
#: seconds an engine may take from its start to ``ready`` (one that loads tables takes some)
START_TIMEOUT = 60.0
#: seconds one position may take at a fixed depth before the engine counts as hung
POSITION_TIMEOUT = 60.0
#: lines that are neither ``info`` nor ``done`` an engine may print for one position
MAX_OTHER_LINES = 10_000
#: seconds a wait for the engine's output sleeps at most before it looks whether the engine
#: was killed by another thread
READ_SLICE = 0.25
_EOF = None


class _Reader:
    """The engine's standard output, read by the thread that waits for its next line (no
    thread in between: a line costs no hand-over between threads, and a search's lines come
    in a read or two), and the last lines of its standard error (a thread). Where a pipe
    cannot be waited on with a deadline (Windows), a thread reads the output into a queue."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdout is not None
        self.fd = proc.stdout.fileno()
        self.buffer = b""
        self.ready: collections.deque[str] = collections.deque()
        self.ended = False
        self.stopping = False
        self.queue: queue.Queue[str | None] | None = None
        self.errors: collections.deque[str] = collections.deque(maxlen=8)
        self.threads = [threading.Thread(target=self._err, args=(proc.stderr,), daemon=True,
                                         name="pdnkit-engine-reader")]
        if sys.platform == "win32":  # pragma: no cover - no select() on a pipe there
            self.queue = queue.Queue()
            self.threads.append(threading.Thread(target=self._out, args=(proc.stdout,),
                                                 daemon=True, name="pdnkit-engine-reader"))
        for t in self.threads:
            t.start()

    def line(self, timeout: float) -> str | None:
        """The next line within ``timeout`` seconds (None: the output ended); raises
        ``TimeoutError`` when none came in time."""
        if self.queue is not None:  # pragma: no cover - Windows
            try:
                return self.queue.get(timeout=timeout) if timeout > 0 else \
                    self.queue.get_nowait()
            except queue.Empty:
                raise TimeoutError from None
        deadline = time.monotonic() + timeout
        while not self.ready:
            if self.ended:
                return _EOF
            left = deadline - time.monotonic()
            try:  # a slice at a time: an engine killed meanwhile is seen at once
                readable = select.select([self.fd], [], [], min(max(left, 0.0), READ_SLICE))[0]
            except (OSError, ValueError):  # the pipe was closed (the engine was killed)
                readable, self.ended = [], True
                continue
            if not readable:
                if left <= 0:
                    raise TimeoutError
                continue
            self._take()
        return self.ready.popleft()

    def _take(self) -> None:
        try:
            chunk = os.read(self.fd, 1 << 16)
        except OSError:
            chunk = b""
        if not chunk:
            self.ended = True
            chunk = b"\n" if self.buffer else b""
        *lines, self.buffer = (self.buffer + chunk).split(b"\n")
        self.ready.extend(raw.decode("utf-8", "replace").rstrip("\r") for raw in lines)

    def last_error(self) -> str | None:
        """The engine's last line on standard error, once it has ended (read to its end,
        waiting a second at most)."""
        self.threads[0].join(timeout=1.0)
        return self.errors[-1] if self.errors else None

    def _out(self, stream: IO[bytes]) -> None:  # pragma: no cover - Windows
        assert self.queue is not None
        with contextlib.suppress(OSError, ValueError):
            for raw in iter(stream.readline, b""):
                self.queue.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        self.queue.put(_EOF)

    def _err(self, stream: IO[bytes]) -> None:
        """Keep the last lines of standard error, until it ends or :meth:`stop` (a wait a
        slice at a time: the pipe may stay open in a process the engine started)."""
        if self.queue is not None:  # pragma: no cover - Windows
            with contextlib.suppress(OSError, ValueError):
                for raw in iter(stream.readline, b""):
                    self._keep(raw)
            return
        fd, rest = stream.fileno(), b""
        while not self.stopping:
            try:
                if not select.select([fd], [], [], READ_SLICE)[0]:
                    continue
                chunk = os.read(fd, 1 << 16)
            except (OSError, ValueError):
                break
            if not chunk:
                break
            *lines, rest = (rest + chunk).split(b"\n")
            for raw in lines:
                self._keep(raw)
        self._keep(rest)

    def _keep(self, raw: bytes) -> None:
        text = raw.decode("utf-8", "replace").strip()
        if text:
            self.errors.append(text[:300])

    def stop(self) -> None:
        """Stop reading standard error (before its pipe is closed), waiting a slice at most."""
        self.stopping = True
        if self.queue is None:
            self.threads[0].join(timeout=READ_SLICE * 4)


class HubEngine:
    """A Hub engine run as ``command`` (a command line, split as a shell would, or a list),
    searching every position to ``depth`` plies or for ``movetime`` seconds (neither:
    :data:`DEFAULT_DEPTH`), with the engine parameters ``params`` set (each must be one the
    engine declares). ``timeout``: seconds a position may take (default
    :data:`POSITION_TIMEOUT`, or five times the move time and ten seconds more);
    ``start_timeout``: seconds to ``ready`` (default :data:`START_TIMEOUT`). The engine
    starts here: a program that is not there or is no Hub engine raises
    :class:`~pdnkit.engines.base.EngineError`."""

    scale = "positional"

    def __init__(self, command: str | Sequence[str], *, depth: int | None = None,
                 movetime: float | None = None, params: Mapping[str, str] | None = None,
                 timeout: float | None = None, start_timeout: float | None = None,
                 variant: str = "international") -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        if not self.argv:
            raise ArgumentError("give the command line that starts the engine")
        if depth is not None and movetime is not None:
            raise ArgumentError("give a depth or a move time, not both")
        if depth is not None and not 1 <= int(depth) <= 99:
            raise ArgumentError(f"the depth must be from 1 to 99, not {depth}")
        if movetime is not None and not movetime > 0:
            raise ArgumentError(f"the move time must be above 0 seconds, not {movetime}")
        self.depth = int(depth) if depth is not None else (None if movetime else DEFAULT_DEPTH)
        self.movetime = float(movetime) if movetime is not None else None
        self.params = dict(params or {})
        self.timeout = float(timeout) if timeout else (
            POSITION_TIMEOUT if self.movetime is None else self.movetime * 5 + 10.0)
        self.start_timeout = float(start_timeout or START_TIMEOUT)
        self.starts = 0  # processes started (restarts after a fault included)
        self._proc: subprocess.Popen[bytes] | None = None
        self._reader: _Reader | None = None
        self._variant = variant
        self._info = self._start(variant)

    # ------------------------------------------------------------------ the process
    def _command(self) -> str:
        return shlex.join(self.argv)

    def _start(self, variant: str) -> EngineInfo:
        try:
            # a session of its own: a Ctrl-C at the terminal reaches pdnkit, which ends the
            # engine itself, and not the engine in the middle of a search
            proc = start_child(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
        except FileNotFoundError:
            raise EngineError(
                f"cannot start the engine {self._command()!r}: there is no program "
                f"{self.argv[0]!r} (give the command line that starts a Hub engine, e.g. "
                "--engine \"dame hub\", or --engine builtin)") from None
        except OSError as exc:
            raise EngineError(f"cannot start the engine {self._command()!r}: "
                              f"{exc.strerror or exc}") from None
        self._proc, self._reader = proc, _Reader(proc)
        self.starts += 1
        try:
            return self._handshake(variant)
        except (EngineError, EngineFault) as exc:
            self._kill()
            detail = exc.detail if isinstance(exc, EngineFault) else str(exc)
            raise EngineError(f"the engine {self._command()!r} is not a Hub engine that "
                              f"pdnkit can use: {detail}") from None

    def _handshake(self, variant: str) -> EngineInfo:
        deadline = time.monotonic() + self.start_timeout
        self._send("hub")
        ident: dict[str, str] = {}
        params: dict[str, dict[str, str]] = {}
        while True:
            cmd, args = self._next(deadline, "hub (the handshake)", self.start_timeout)
            if cmd == "id":
                ident.update(args)
            elif cmd == "param" and args.get("name"):
                params[args["name"]] = args
            elif cmd == "wait":
                break
        variants = _variants(params)
        unknown = sorted(set(self.params) - set(params))
        if unknown:
            have = ", ".join(sorted(params)) or "none"
            raise EngineError(f"it has no parameter {', '.join(map(repr, unknown))} "
                              f"(its parameters: {have})")
        for name, value in self.params.items():
            self._send(format_line("set-param", name=name, value=value))
        hub_name = next((h for h, p in HUB_VARIANTS.items() if p == variant), None)
        if "variant" in params and hub_name and params["variant"].get("value") != hub_name:
            self._send(format_line("set-param", name="variant", value=hub_name))
        self._send("init")
        while self._next(deadline, "init", self.start_timeout)[0] != "ready":
            pass
        self._variant = variant
        settings: dict[str, Any] = ({"depth": self.depth} if self.depth is not None
                                    else {"movetime": self.movetime})
        if self.params:
            settings["params"] = dict(sorted(self.params.items()))
        return EngineInfo(ident.get("name") or self.argv[0], ident.get("version", ""),
                          ident.get("author", ""), params, variants, settings)

    def _send(self, line: str) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise EngineFault("crash", "the engine is not running")
        try:
            proc.stdin.write((line + "\n").encode("utf-8"))
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineFault("crash", self._ended()) from None

    def _next(self, deadline: float, waiting: str, limit: float) -> tuple[str, dict[str, str]]:
        """The next Hub line before ``deadline`` (lines that do not read are skipped, as the
        protocol says); ``waiting`` and ``limit`` (seconds) say what for, in a fault."""
        while True:
            try:
                cmd, args = parse_line(self._line(deadline, waiting, limit))
            except HubSyntaxError:
                continue
            if cmd:
                return cmd, args

    def _line(self, deadline: float, waiting: str, limit: float) -> str:
        """The next line of the engine's output, as it came."""
        assert self._reader is not None
        try:
            line = self._reader.line(deadline - time.monotonic())
        except TimeoutError:
            raise EngineFault("hang", f"no answer to {waiting} within {limit:g} s") from None
        if line is _EOF:
            raise EngineFault("crash", self._ended())
        return line

    def _ended(self) -> str:
        proc = self._proc
        status = None
        if proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                status = proc.wait(timeout=2)
        last = self._reader.last_error() if self._reader is not None else None
        said = f" ({last})" if last else ""
        how = f"with status {status}" if status is not None else "its output"
        return f"the process ended {how}{said}"

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError):
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired, OSError):
            proc.wait(timeout=5)
        if self._reader is not None:
            self._reader.stop()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()

    # ------------------------------------------------------------------ the protocol
    @property
    def info(self) -> EngineInfo:
        """What the engine said of itself at the handshake, and the settings."""
        return self._info

    @property
    def pid(self) -> int | None:
        """The engine process's id (None while none runs)."""
        return self._proc.pid if self._proc is not None else None

    def plays(self, rules: Any) -> bool:
        """Whether the engine plays the variant ``rules`` (a 10x10 variant it declares)."""
        return board_of(rules) and rules.name in self._info.variants

    def new_game(self) -> None:
        """Tell a running engine that the next positions are of another game (``new-game``:
        it clears its tables), then ``ping`` it and wait for its ``pong``, so that a new game
        starts with an engine that answers and nothing of the last one left to read. An
        engine that does not answer is ended: the next position starts another."""
        if self._proc is None:
            return
        try:
            self._send("new-game")
            self._send("ping")
            deadline = time.monotonic() + self.start_timeout
            while self._next(deadline, "ping", self.start_timeout)[0] != "pong":
                pass
        except EngineFault:
            self._kill()

    def evaluate(self, position: Any) -> Evaluation:
        """Search ``position`` (a ``Position`` of a variant the engine plays, not a terminal
        one): the score, depth, nodes, best move and line the engine gives. Raises
        :class:`~pdnkit.engines.base.EngineFault` (and kills the process) when the engine
        crashes, hangs or answers what cannot be read."""
        rules = position.rules
        if not self.plays(rules):
            raise ArgumentError(f"{self._info.label} does not play {rules.name}")
        if self._proc is None or rules.name != self._variant:
            self._kill()
            self._info = self._start(rules.name)
        try:
            return self._search(position)
        except EngineFault:
            self._kill()
            raise

    def _search(self, position: Any) -> Evaluation:
        level = (format_line("level", depth=self.depth) if self.depth is not None
                 else format_line("level", move_time=self.movetime))
        self._send(f"{format_line('pos', pos=hub_position(position))}\n{level}\ngo analyze")
        deadline = time.monotonic() + self.timeout
        last = ""  # the last info line with a score: read whole once the search is done
        other = 0
        while True:
            line = self._line(deadline, "go analyze", self.timeout)
            head = line.lstrip()
            if head.startswith("info"):
                if " score=" in head:
                    last = head
                continue
            try:
                cmd, args = parse_line(line)
            except HubSyntaxError:
                cmd, args = "", {}
            if cmd == "done":
                break
            if cmd == "error":
                raise EngineFault("garbage", f"it said: {args.get('message', '')!r}")
            other += 1
            if other > MAX_OTHER_LINES:
                raise EngineFault("garbage", f"{other} lines that are not Hub answers")
        try:
            info = parse_line(last)[1] if last else {}
        except HubSyntaxError as exc:
            raise EngineFault("garbage", str(exc)) from None
        return _evaluation(position, info, args)

    def kill(self) -> None:
        """End the process at once, from any thread: the thread at work sees its output end
        (within :data:`READ_SLICE` seconds, even where another process holds the pipe open)
        and closes what is left; the next position starts another process."""
        proc, reader = self._proc, self._reader
        if reader is not None:
            reader.ended = True
        if proc is not None:
            with contextlib.suppress(OSError):
                proc.kill()

    def close(self) -> None:
        """Say ``quit`` and end the process (killed if it does not end within 2 s)."""
        proc = self._proc
        if proc is None:
            return
        with contextlib.suppress(EngineFault):
            self._send("quit")
        with contextlib.suppress(OSError, ValueError):
            if proc.stdin is not None:
                proc.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=2)
        self._kill()

    def __enter__(self) -> HubEngine:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _variants(params: Mapping[str, Mapping[str, str]]) -> tuple[str, ...]:
    """The pdnkit variants of an engine's ``variant`` parameter (international without one)."""
    spec = params.get("variant")
    if spec is None:
        return ("international",)
    values = (spec.get("values") or spec.get("value") or "").split()
    return tuple(dict.fromkeys(HUB_VARIANTS[v] for v in values if v in HUB_VARIANTS))


def _number(args: Mapping[str, str], name: str) -> float | None:
    text = args.get(name)
    if text is None or text == "":
        return None
    try:
        return float(text)
    except ValueError:
        raise EngineFault("garbage", f"its {name} {text!r} is not a number") from None


def _evaluation(position: Any, info: Mapping[str, str], done: Mapping[str, str]) -> Evaluation:
    """The evaluation from the last ``info`` with a score and the ``done`` line."""
    score = _number(info, "score")
    if score is None:
        raise EngineFault("garbage", "no score before its move (an info line with score=)")
    move_text = done.get("move", "").strip()
    if not move_text:
        raise EngineFault("garbage", "its done line names no move")
    try:
        best = play_hub(position, move_text)[0]
    except HubSyntaxError as exc:
        raise EngineFault("garbage", str(exc)) from None
    line, note = line_from_hub(position, info.get("pv", ""))
    if line and line[0] != best:
        note = f"its line starts with {info.get('pv', '').split()[0]!r}, not its move"
    depth, nodes = _number(info, "depth"), _number(info, "nodes")
    return Evaluation(score, int(depth) if depth is not None else None,
                      int(nodes) if nodes is not None else None, best, tuple(line), note)
