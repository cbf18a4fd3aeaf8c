"""What every engine gives: its identity (:class:`EngineInfo`), one evaluation
(:class:`Evaluation`), the :class:`Engine` protocol, and the two ways an engine fails.

:class:`EngineError` is an engine that cannot be used at all (no such program, no Hub
handshake, a parameter it does not have): the command line prints it as one line.
:class:`EngineFault` is one position an engine did not evaluate (it crashed, hung past its
time, or answered something that cannot be read): the analysis records it as a finding on the
game and goes on with a new engine process.

Example:
    >>> info = EngineInfo("dame", "0.2.0", settings={"depth": 6})
    >>> info.label, info.settings_key
    ('dame 0.2.0', '{"depth":6}')
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pdnkit.errors import PdnkitError

if TYPE_CHECKING:
    from pdnkit.rules.position import Move, Position
    from pdnkit.rules.variants import Rules

__all__ = ["SCALES", "Engine", "EngineError", "EngineFault", "EngineInfo", "Evaluation"]

#: how an engine's score reads: ``positional`` (an engine's judgement in men, as Hub engines
#: give it) or ``material`` (the built-in search: the material balance, exactly)
SCALES = ("positional", "material")


class EngineError(PdnkitError):
    """An engine that cannot be used: the message says which and why."""


class EngineFault(PdnkitError):
    """One position an engine did not evaluate. ``kind``: ``crash`` (the process ended),
    ``hang`` (no answer in time: the process was killed), ``garbage`` (an answer that cannot
    be read, or an ``error`` line of the engine).

    Example:
        >>> str(EngineFault("hang", "no answer within 2.0 s"))
        'the engine hung: no answer within 2.0 s'
    """

    WHAT = {"crash": "crashed", "hang": "hung", "garbage": "answered what cannot be read"}

    def __init__(self, kind: str, detail: str) -> None:
        self.kind = kind
        self.detail = detail
        super().__init__(f"the engine {self.WHAT.get(kind, kind)}: {detail}")


@dataclass(frozen=True)
class EngineInfo:
    """Who the engine is: ``name`` and ``version`` (as the engine says), ``author``, the
    ``params`` it declares (name -> its ``param`` line's arguments), the ``variants`` it plays
    (pdnkit names) and the ``settings`` pdnkit runs it with (depth or move time, parameters
    set). ``label`` and ``settings_key`` are what the ``evals`` table keeps."""

    name: str
    version: str = ""
    author: str = ""
    params: dict[str, dict[str, str]] = field(default_factory=dict)
    variants: tuple[str, ...] = ()
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """``name version``."""
        return f"{self.name} {self.version}".strip()

    @property
    def settings_key(self) -> str:
        """The settings as compact JSON with sorted keys (the analysis key's third part)."""
        return json.dumps(self.settings, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Evaluation:
    """One position evaluated: ``score`` in men from the side to move's view (on the
    engine's ``scale``), the ``depth`` searched and ``nodes`` visited (None: not said), the
    ``best`` move and the principal variation ``line`` (its first move is ``best`` where the
    engine's line starts with it) as moves of the rules engine, and ``note``: why the line
    stops early (a move that does not read), or None."""

    score: float
    depth: int | None
    nodes: int | None
    best: Move | None
    line: tuple[Move, ...] = ()
    note: str | None = None


class Engine(Protocol):
    """An engine the analysis can run: one position at a time, in one thread."""

    @property
    def info(self) -> EngineInfo:
        """Who it is and how it runs."""

    @property
    def scale(self) -> str:
        """How its scores read (:data:`SCALES`)."""

    def plays(self, rules: Rules) -> bool:
        """Whether it plays the variant ``rules``."""

    def new_game(self) -> None:
        """The next positions are of another game (a Hub engine clears its tables)."""

    def evaluate(self, position: Position) -> Evaluation:
        """Evaluate one position (not a terminal one); raises :class:`EngineFault`."""

    def close(self) -> None:
        """End the engine (its process, if any); it can be used no more."""
