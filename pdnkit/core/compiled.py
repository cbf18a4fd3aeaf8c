"""The compiled backend of :mod:`pdnkit.core`: the C extension ``pdnkit.core._core``.

:data:`ERROR` is ``None`` when the extension loaded, else why not (an install without a C
compiler, or a build that failed). Each function takes the rules record and a
:class:`~pdnkit.core.api.State` (or a rules-engine ``Position``) and returns what the pure
backend (:mod:`pdnkit.core.pure`) returns for the same input; a rules record the core's fixed
limits cannot hold is handed to the pure backend.

Example:
    >>> from pdnkit.rules import Position, get_rules
    >>> r = get_rules("russian")
    >>> ERROR is not None or perft(Position.initial(r), 4) == 1469
    True
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pdnkit.core.api import CoreError, Replay, State, position_of, state_of
from pdnkit.errors import ArgumentError

if TYPE_CHECKING:
    from pdnkit.rules.position import Move, Position
    from pdnkit.rules.variants import Rules

__all__ = ["ERROR", "clean_game", "draw_run", "egdb_set", "extension", "has", "has_capture",
           "has_moves", "index_kernel", "key", "legal_moves", "misnumbered", "perft", "replay", "row_kernels",
           "scanner", "supports", "tactics"]

_core: Any = None
ERROR: str | None = None
#: ``PDNKIT_PURE=1``: the extension is not used even where it is built
PURE_REQUESTED = os.environ.get("PDNKIT_PURE", "").strip() == "1"
try:
    _core = importlib.import_module("pdnkit.core._core")
    _core.bind(Replay, State)  # results come as these named tuples, made in C
except ImportError as exc:  # no compiler at install time, or a failed build
    ERROR = f"the compiled core is not installed ({exc})"

#: id(rules) -> (rules, table): the last tables looked up (a dict lookup per call)
_FAST: dict[int, tuple[Any, Any]] = {}


def _table(rules: Rules) -> Any:
    hit = _FAST.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    if _core is None:
        raise CoreError(ERROR or "no compiled core")
    from pdnkit.core.pack import table_for

    table = table_for(rules, _core.table)
    _FAST[id(rules)] = (rules, table)
    return table


def has(name: str) -> bool:
    """Whether the loaded extension has the function ``name`` (one built from older sources
    may lack the newer ones)."""
    return _core is not None and hasattr(_core, name)


def misnumbered(flags: bytes, numbers: bytes, n: int, k: int, base: int, offset: int) -> int:
    """The extension's check of written move numbers (see :func:`pdnkit.core.misnumbered`)."""
    return int(_core.misnumbered(flags, numbers, n, k, base, offset))


def extension() -> Any:
    """The extension module itself (``None`` without it or with ``PDNKIT_PURE=1``), for a
    caller that makes its calls without a rules record (:mod:`pdnkit.lean.verdict`, from
    tables it keeps as data).

    Example:
        >>> ext = extension()
        >>> ext is None or hasattr(ext, "replay")
        True
    """
    return None if _core is None or PURE_REQUESTED else _core


def scanner() -> Any:
    """The extension's scanner of clean games (``scan_games``; ``None`` without the
    extension or with ``PDNKIT_PURE=1``: the Python reader reads every game)."""
    if _core is None or PURE_REQUESTED:
        return None
    return getattr(_core, "scan_games", None)  # None: an extension built before the lane


def row_kernels() -> tuple[Any, Any] | None:
    """The extension's row kernels of the import (``lane_notes``, ``spans_text``: see
    :mod:`pdnkit.core.rowkernels`); ``None`` without the extension, with ``PDNKIT_PURE=1``
    or for an extension built before them."""
    if _core is None or PURE_REQUESTED or not hasattr(_core, "spans_text"):
        return None
    return _core.lane_notes, _core.spans_text


def index_kernel() -> Any:
    """The extension's ``index_pairs`` (the position index's pairs of a batch's square
    bitboards: see :func:`pdnkit.core.rowkernels.index_pairs`); ``None`` without the
    extension, with ``PDNKIT_PURE=1`` or for an extension built before it.

    Example:
        >>> index_kernel() is None or callable(index_kernel())
        True
    """
    if _core is None or PURE_REQUESTED or not hasattr(_core, "index_pairs"):
        return None
    return _core.index_pairs


def draw_run() -> Any:
    """The extension's draw loop (``None`` without the extension or with ``PDNKIT_PURE=1``,
    where the tracker is fed one ply at a time)."""
    if _core is None or PURE_REQUESTED:
        return None
    return getattr(_core, "draw_run", None)  # None: an extension built before the loop


def clean_game(rules: Rules) -> Any:
    """The extension's one call over a clean game's main line (``clean_game``) bound to the
    table of ``rules``: ``(state, text, offset, n, numbering, spec, draws, layout) ->
    (final state, has a move, draw events, FEN) or None`` (see
    :mod:`pdnkit.validation.clean`); ``None`` without the extension, with ``PDNKIT_PURE=1``,
    for an extension built before it or where the core holds no table for ``rules``.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> run = clean_game(get_rules("international"))
        >>> run is None or callable(run)
        True
    """
    if _core is None or PURE_REQUESTED or not hasattr(_core, "clean_game"):
        return None
    table = _table(rules)
    if table is None:
        return None
    from functools import partial

    return partial(_core.clean_game, table)


def egdb_set(rules: Rules) -> Any:
    """A new endgame-database set of the extension for ``rules`` (``egdb_new``); ``None``
    without the extension (or with ``PDNKIT_PURE=1``) or when the core cannot hold the
    variant. Raises ``ValueError`` when the index cannot (king-move counters)."""
    if _core is None or PURE_REQUESTED or not hasattr(_core, "egdb_new"):
        return None
    table = _table(rules)
    if table is None:
        return None
    return _core, _core.egdb_new(table, bool(rules.losing_game))


def supports(rules: Rules) -> bool:
    """Whether the extension is loaded and holds a table for ``rules``."""
    return _core is not None and _table(rules) is not None


def _state(start: State | Position) -> tuple[Any, ...]:
    return tuple(start) if isinstance(start, State) else tuple(state_of(start))


def replay(rules: Rules, start: State | Position, moves: str | Sequence[str],
           offset: int = 0) -> Replay:
    """One game's main line through the C core (see :func:`pdnkit.core.replay`)."""
    table = _table(rules)
    if table is None:
        from pdnkit.core import pure

        return pure.replay(rules, start, moves, offset)
    kind = type(moves)
    if kind is not str and kind is not list and kind is not tuple and (
            isinstance(moves, bytes) or not isinstance(moves, (str, Sequence))):
        raise CoreError("moves must be movetext (str) or a sequence of move texts")
    try:
        out: Replay = _core.replay(table, start if isinstance(start, tuple) else _state(start),
                                   moves, offset)
    except (ValueError, TypeError) as exc:
        raise CoreError(str(exc)) from None
    return out


#: the extension's codes of the duplicate conventions (pdnkit.core.perft's keep_duplicates)
_DUPLICATES = {False: 0, True: 1, "order": 2}


def perft(position: Position, depth: int, keep_duplicates: bool | str = False) -> int:
    """Leaf count of the legal-move tree (see :func:`pdnkit.core.perft`)."""
    table = _table(position.rules)
    if table is None:
        from pdnkit.core import pure

        return pure.perft(position, depth, keep_duplicates)
    if not isinstance(depth, int) or isinstance(depth, bool) or not 0 <= depth <= 64:
        raise ArgumentError(f"depth must be an integer from 0 to 64, not {depth!r}")
    if keep_duplicates not in _DUPLICATES:
        raise ArgumentError(f"keep_duplicates is False, True or 'order', not {keep_duplicates!r}")
    try:
        return int(_core.perft(table, _state(position), depth, _DUPLICATES[keep_duplicates]))
    except ValueError as exc:
        if _beyond_bounds(exc):  # a hostile position: the pure core has no bound
            from pdnkit.core import pure

            return pure.perft(position, depth, keep_duplicates)
        raise CoreError(str(exc)) from None


def _beyond_bounds(exc: BaseException) -> bool:
    """Whether ``exc`` says that a capture search went past the extension's bounds (about a
    second of search, 250,000 routes: a hostile position, such as Turkish men placed on
    their promotion row among a lattice of pieces), where the pure core still answers."""
    limit = getattr(_core, "SearchLimit", None)
    return isinstance(limit, type) and isinstance(exc, limit)


def legal_moves(position: Position, all_routes: bool = False) -> list[Move]:
    """The legal moves of ``position`` in :meth:`Position.legal_moves`'s order and form."""
    from pdnkit.rules.position import Move

    table = _table(position.rules)
    if table is None:
        from pdnkit.core import pure

        return pure.legal_moves(position, all_routes)
    try:
        got = _core.legal_moves(table, _state(position), int(all_routes))
    except ValueError as exc:
        if _beyond_bounds(exc):  # a hostile position: the pure core has no bound
            from pdnkit.core import pure

            return pure.legal_moves(position, all_routes)
        raise CoreError(str(exc)) from None
    out = [Move(*m) for m in got]
    out.sort(key=lambda m: (m.origin, m.destination, m.path, m.captured))
    return out


def has_capture(rules: Rules, state: State) -> bool:
    """Whether the side to move has a capture."""
    table = _table(rules)
    if table is None:
        from pdnkit.core import pure

        return pure.has_capture(rules, state)
    return bool(_core.has_capture(table, tuple(state)))


def has_moves(rules: Rules, state: State) -> bool:
    """Whether the side to move has a legal move (a count of the moves one ply deep)."""
    table = _table(rules)
    if table is None:

        return bool(position_of(rules, state).legal_moves())
    return bool(_core.perft(table, tuple(state), 1, 0))


def key(rules: Rules, state: State) -> int:
    """``Position.key()`` of ``state``."""
    table = _table(rules)
    if table is None:
        from pdnkit.core import pure

        return pure.key(rules, state)
    return int(_core.key(table, tuple(state)))


def tactics(position: Position, depth: int, king_value: int, losing: bool,
            node_limit: int) -> tuple[int, int, int, list[Move]] | None:
    """The tactical search in C (see :func:`pdnkit.core.lookahead.tactics`): ``(score, depth
    completed, nodes, line)``; ``None`` where the core holds no table for the variant."""
    from pdnkit.rules.position import Move

    table = _table(position.rules)
    if table is None:
        return None
    try:
        score, done, nodes, line = _core.tactics(table, _state(position), depth, king_value,
                                                 int(losing), node_limit)
    except ValueError as exc:
        raise CoreError(str(exc)) from None
    return int(score), int(done), int(nodes), [Move(*m) for m in line]
