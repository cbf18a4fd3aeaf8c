"""The replay core: one call per game, compiled (C) where it could be built, else pure Python.

:func:`replay` replays a game's main line from a start position and gives back compact
arrays (:class:`~pdnkit.core.api.Replay`): per ply the resolved move, the PDN square
bitboards after it, its position key, piece counts and flags, and where and why the replay
stopped. :func:`perft` and :func:`legal_moves` run the same generator, and :func:`tactics`
searches a position for material with it (:mod:`pdnkit.core.lookahead`). The variant reaches
the core as data (the ``Rules`` record and the rules engine's tables, :mod:`pdnkit.core.pack`).

Which core runs: the C extension ``pdnkit.core._core`` when it was built at install time and
``PDNKIT_PURE`` is not set to ``1``; else :mod:`pdnkit.core.pure`, the same procedure over the
reference engine (:mod:`pdnkit.rules`). :func:`core_in_use` says which.

Example:
    >>> from pdnkit.rules import Position, get_rules
    >>> r = get_rules("russian")
    >>> rep = replay(r, Position.initial(r), "1. c3-d4 f6-g5 2. d4-e5 *")
    >>> rep.plies, rep.code, rep.move(2)[:2], core_in_use() in ("compiled", "pure")
    (3, None, (18, 15), True)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pdnkit._lazy import lazy_exports
from pdnkit.core import compiled
from pdnkit.core.api import (
    CODES,
    FLAG_ANNOTATED,
    FLAG_BLACK_DOTS,
    FLAG_CAPTURE,
    FLAG_FULL_PATH,
    FLAG_KING,
    FLAG_MISMATCH,
    FLAG_NUMBERED,
    FLAG_PROMOTES,
    CoreError,
    PlyMove,
    Replay,
    State,
    move_number,
    number_fits,
    position_of,
    state_of,
)
from pdnkit.errors import ArgumentError

if TYPE_CHECKING:
    from pdnkit.core.lookahead import Tactics, reference_tactics, tactics
    from pdnkit.rules.position import Move, Position
    from pdnkit.rules.variants import Rules

__all__ = ["CODES", "FLAG_ANNOTATED", "FLAG_BLACK_DOTS", "FLAG_CAPTURE", "FLAG_FULL_PATH",
           "FLAG_KING", "FLAG_MISMATCH", "FLAG_NUMBERED", "FLAG_PROMOTES", "CoreError",
           "PlyMove", "Replay", "State", "Tactics", "core_in_use", "core_note", "has_moves",
           "legal_moves", "misnumbered", "move_number", "number_fits", "perft", "position_of",
           "reference_tactics", "replay", "state_of", "supports", "tactics"]

#: the tactical search, imported on first use (a replay never needs it)
__getattr__, __dir__ = lazy_exports(__name__, {"Tactics": "pdnkit.core.lookahead",
                                            "reference_tactics": "pdnkit.core.lookahead",
                                            "tactics": "pdnkit.core.lookahead"}, globals())

#: ``PDNKIT_PURE=1`` in the environment when pdnkit.core was first imported
PURE_REQUESTED = os.environ.get("PDNKIT_PURE", "").strip() == "1"
_COMPILED = compiled.ERROR is None and not PURE_REQUESTED


def core_in_use() -> str:
    """``"compiled"`` (the C extension) or ``"pure"`` (Python over the reference engine).

    Example:
        >>> core_in_use() in ("compiled", "pure")
        True
    """
    return "compiled" if _COMPILED else "pure"


def supports(rules: Rules) -> bool:
    """Whether the compiled core is in use and replays ``rules`` itself (a rules record its
    fixed limits cannot hold is replayed by the pure core).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> supports(get_rules("international")) == (core_in_use() == "compiled")
        True
    """
    return _COMPILED and compiled.supports(rules)


def misnumbered(rep: Replay, n: int, k: int, base: int, offset: int) -> int:
    """The first of the plies ``0`` to ``n - 1`` of ``rep`` (main-line plies ``k`` on,
    read from movetext) whose written move number is not ``base + (k + i + offset) // 2``
    or is written ``N...`` on the first mover's ply; -1 when every one fits.

    Example:
        >>> from pdnkit.rules import Position, get_rules
        >>> r = get_rules("international")
        >>> misnumbered(replay(r, Position.initial(r), "1. 32-28 18-23 3. 33-29 *"), 3, 0, 1, 0)
        2
    """
    if _COMPILED and compiled.has("misnumbered"):
        try:
            return int(compiled.misnumbered(rep.flags, rep.numbers, n, k, base, offset))
        except OverflowError:  # an argument beyond 64 bits: the loop below answers
            pass
    nums = memoryview(rep.numbers).cast("i")
    for i in range(n):
        fl = rep.flags[i]
        if fl & FLAG_NUMBERED and not number_fits(nums[i], bool(fl & FLAG_BLACK_DOTS), k + i,
                                                   base, offset):
            return i
    return -1


def core_note() -> str:
    """One line for ``pdnkit --version``: the core in use and, for the pure one, why.

    Example:
        >>> core_note().startswith(("replay core: compiled", "replay core: pure"))
        True
    """
    if _COMPILED:
        return "replay core: compiled (C extension)"
    why = "PDNKIT_PURE=1" if PURE_REQUESTED else compiled.ERROR
    return f"replay core: pure Python ({why})"


def replay(rules: Rules, start: State | Position, moves: str | Sequence[str],
           offset: int = 0) -> Replay:
    """Replay one game's main line in one call.

    ``start``: the position before the first move (a :class:`State` or a ``Position``).
    ``moves``: the movetext of the main line as written (move numbers, moves, comments,
    NAGs, strength marks and a result are read; anything else stops the replay with
    ``code="handover"``), or a sequence of move texts, one per ply (``MoveNode.text``).
    ``offset``: where to start (a character of the text, an item of the sequence), to go on
    after a ply the Python replay handled. Raises :class:`CoreError` for a malformed state
    or moves of another type; bad moves never raise (see :class:`Replay`).

    Example:
        >>> from pdnkit.rules import Position, get_rules
        >>> r = get_rules("international")
        >>> rep = replay(r, Position.initial(r), ["32-28", "19-23", "28x19", "14x23", "33-28"])
        >>> rep.plies, rep.code, rep.move(2).captured, rep.key(4) != rep.key(3)
        (5, None, (23,), True)
    """
    if _COMPILED:
        return compiled.replay(rules, start, moves, offset)
    from pdnkit.core import pure

    return pure.replay(rules, start, moves, offset)


def perft(position: Position, depth: int, divide: bool = False,
          keep_duplicates: bool | str = False) -> int | dict[Move, int]:
    """:func:`pdnkit.rules.perft` through the core in use (same arguments and result).

    ``keep_duplicates``: ``False`` counts captures with the same origin, destination and
    captured set once (the engine's move list, the ``drop_duplicates`` tables); ``True``
    counts every route (every list of landing squares); ``"order"`` counts once per
    origin, destination and pieces taken in that order (the ``keep_duplicates`` tables of
    dctl, where a flying king's landing squares before the same next capture are one move).

    Example:
        >>> from pdnkit.rules import Position, get_rules
        >>> perft(Position.initial(get_rules("international")), 4)
        4265
    """
    if divide:
        if not isinstance(depth, int) or depth < 0:
            raise ArgumentError(f"depth must be a non-negative integer, not {depth!r}")
        if depth == 0:
            return {}
        return {m: _count(position.play(m), depth - 1, keep_duplicates)
                for m in legal_moves(position)}
    return _count(position, depth, keep_duplicates)


def _count(position: Position, depth: int, keep_duplicates: bool | str) -> int:
    if _COMPILED:
        return compiled.perft(position, depth, keep_duplicates)
    from pdnkit.core import pure

    return pure.perft(position, depth, keep_duplicates)


def has_moves(rules: Rules, state: State) -> bool:
    """Whether the side to move in ``state`` has a legal move (``not
    Position.is_terminal()`` outside the variants won by the first king), without a
    rules-engine position on the compiled core.

    Example:
        >>> from pdnkit.rules import Position, get_rules
        >>> r = get_rules("international")
        >>> has_moves(r, state_of(Position.initial(r))), has_moves(r, State(False, 1, 0, 0, 0))
        (True, False)
    """
    if _COMPILED:
        return compiled.has_moves(rules, state)
    return bool(position_of(rules, state).legal_moves())


def legal_moves(position: Position, all_routes: bool = False) -> list[Move]:
    """:meth:`Position.legal_moves` through the core in use.

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> [str(m) for m in legal_moves(parse_fen("W:W28,32:B23", get_rules("international")))]
        ['28x19']
    """
    if _COMPILED:
        return compiled.legal_moves(position, all_routes)
    from pdnkit.core import pure

    return pure.legal_moves(position, all_routes)
