"""Ply records cut from a core replay's arrays: :class:`CorePly` (a ply record whose move and
positions are made from the arrays when first asked for) and :class:`CoreRun` (a compact
report's leading plies, as :class:`~pdnkit.validation.report.PlainRun` holds them, for the
database loader).

Both answer as the records of the Python replay do (``tests/validate``): the canonical
notation is the short form unless the core flagged that another legal move joins the same
squares (:data:`~pdnkit.core.FLAG_FULL_PATH`: then the full path), the FEN, key and counts
come from the arrays, ``move`` and the positions are made on demand.

Example:
    >>> from pdnkit.validation import validate
    >>> rep = next(validate('[GameType "20"] 1. 32-28 19-23 2. 28x19 14x23 *'))
    >>> p = rep.plies[2]
    >>> p.notation, p.captured, p.key_after == p.position_after.key()
    ('28x19', (23,), True)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from pdnkit._lazy import lazy_pattern
from pdnkit.core import (
    FLAG_ANNOTATED,
    FLAG_CAPTURE,
    FLAG_FULL_PATH,
    FLAG_KING,
    FLAG_PROMOTES,
    Replay,
    move_number,
    position_of,
)
from pdnkit.core.rowkernels import lane_notes
from pdnkit.rules.position import Move
from pdnkit.validation.report import COLOR_LETTER, PlyRecord

if TYPE_CHECKING:
    from pdnkit.pdn.record import MoveNode, UnreadLine
    from pdnkit.rules.position import Position
    from pdnkit.rules.variants import Rules

__all__ = ["CorePly", "CoreRun", "LaneFields", "NodeFields", "PlyFields", "core_move",
           "core_notation"]

#: (written, NAGs, comment, line) of a ply as its record shows it
Fields = tuple[str, list[int], "str | None", "int | None"]
#: a comment or a NAG in the text between two moves of a game the lane read
_ANNOTATION = lazy_pattern(r"\{([^{}]*)\}|\$(\d+)")


class PlyFields(Protocol):
    """Where the written side of the plies of one core replay comes from: the nodes of the
    main line (:class:`NodeFields`), or the movetext of a game the compiled lane read
    (:class:`LaneFields`)."""

    def fields(self, i: int, k: int) -> Fields:
        """(written, NAGs, comment, line) of ply ``i`` of the replay, main-line ply ``k``."""
        ...

    def columns(self, n: int) -> tuple[list[str], list[list[int] | None], list[str | None],
                                       list[int | None]]:
        """The same for plies ``0`` to ``n - 1`` as columns (no NAG: ``None``)."""
        ...

    def nodes(self) -> Sequence[MoveNode]:
        """The nodes of the replay's plies (the first is ply ``0``)."""
        ...


class NodeFields:
    """The plies' written side from the main line's nodes (``nodes[k0]`` is ply ``0``)."""

    __slots__ = ("_nodes", "_k0")

    def __init__(self, nodes: Sequence[MoveNode], k0: int) -> None:
        self._nodes = nodes
        self._k0 = k0

    def fields(self, i: int, k: int) -> Fields:
        node = self._nodes[k]
        comments = node.comments_after
        return (node.text, list(node.nags), " ".join(comments) if comments else None,
                node.line)

    def columns(self, n: int) -> tuple[list[str], list[list[int] | None], list[str | None],
                                       list[int | None]]:
        nodes = self._nodes[self._k0:self._k0 + n]
        return ([nd.text for nd in nodes], [nd.nags or None for nd in nodes],
                [" ".join(nd.comments_after) if nd.comments_after else None for nd in nodes],
                [nd.line for nd in nodes])

    def nodes(self) -> Sequence[MoveNode]:
        return self._nodes[self._k0:]


class LaneFields:
    """The plies' written side from the movetext the core read (a game the compiled lane
    read, replayed from its first move): the text of each move from the replay's spans,
    its line from the lane, comments and NAGs from the text after the moves the core marked
    annotated -- what the reader's nodes hold, without reading them."""

    __slots__ = ("_record", "_rep")

    def __init__(self, record: UnreadLine, rep: Replay) -> None:
        self._record = record
        self._rep = rep

    def _annotations(self, i: int) -> tuple[list[int], str | None]:
        rep = self._rep
        spans = memoryview(rep.spans).cast("i")
        if i + 1 < rep.plies:
            stop = spans[2 * i + 2]
        elif rep.result_start >= 0:
            stop = rep.result_start
        elif rep.stop_start >= 0:
            stop = rep.stop_start
        else:
            stop = len(self._record.raw)
        nags: list[int] = []
        comments: list[str] = []
        for m in _ANNOTATION.finditer(self._record.raw, spans[2 * i + 1], stop):
            if m.group(2) is None:
                comments.append(m.group(1))
            else:
                nags.append(int(m.group(2)))
        return nags, " ".join(comments) if comments else None

    def fields(self, i: int, k: int) -> Fields:
        rep = self._rep
        spans = memoryview(rep.spans).cast("i")
        written = self._record.raw[spans[2 * i]:spans[2 * i + 1]]
        line = memoryview(self._record.move_lines).cast("i")[k]
        if rep.flags[i] & FLAG_ANNOTATED:
            nags, comment = self._annotations(i)
            return written, nags, comment, line
        return written, [], None, line

    def columns(self, n: int) -> tuple[list[str], list[list[int] | None], list[str | None],
                                       list[int | None]]:
        rep, raw = self._rep, self._record.raw
        spans = memoryview(rep.spans).cast("i")[:2 * n].tolist()
        written = [raw[a:b] for a, b in zip(spans[::2], spans[1::2], strict=True)]
        lines: list[int | None] = list(memoryview(self._record.move_lines).cast("i")[:n].tolist())
        nags: list[list[int] | None] = [None] * n
        comments: list[str | None] = [None] * n
        flags = rep.flags
        for i in _annotated(flags, n):
            got, comment = self._annotations(i)
            nags[i] = got or None
            comments[i] = comment
        return written, nags, comments, lines

    def text_columns(self, n: int) -> tuple[tuple[str, bytes, bytes],
                                            list[list[int] | None] | None,
                                            list[str | None] | None, bytes] | None:
        """:meth:`columns` without a str per ply, for a game whose text is ASCII (``None``
        for another): the written moves as ``(text, int32 starts, int32 ends)`` (spans of
        the game's ASCII text), the NAGs and comments (``None`` when no ply has one),
        the lines as int32 bytes."""
        raw = self._record.raw
        if not raw.isascii():
            return None
        rep = self._rep
        spans = memoryview(rep.spans).cast("i")[:2 * n]
        nags: list[list[int] | None] | None = None
        comments: list[str | None] | None = None
        if rep.flags.translate(_ANNOTATED).find(1, 0, n) >= 0:
            last = (rep.result_start if rep.result_start >= 0 else
                    rep.stop_start if rep.stop_start >= 0 else len(raw))
            nags, comments = lane_notes(raw, rep.spans, rep.flags, n, rep.plies, last)
            if not any(nags):
                nags = None
            if not any(comments):
                comments = None
        return ((raw, spans[::2].tobytes(), spans[1::2].tobytes()), nags,
                comments, bytes(memoryview(self._record.move_lines)[:4 * n]))

    def nodes(self) -> Sequence[MoveNode]:
        return self._record.moves


#: flags byte -> 1 where the ply is annotated
_ANNOTATED = bytes(1 if b & FLAG_ANNOTATED else 0 for b in range(256))


def _annotated(flags: bytes, n: int) -> list[int]:
    """The plies of ``0`` to ``n - 1`` whose move a comment or NAG follows."""
    marks = flags[:n].translate(_ANNOTATED)
    out = []
    i = marks.find(1)
    while i >= 0:
        out.append(i)
        i = marks.find(1, i + 1)
    return out


def core_move(rep: Replay, i: int) -> Move:
    """The rules-engine :class:`~pdnkit.rules.position.Move` of ply ``i`` of ``rep``."""
    m = rep.move(i)
    return Move(m.origin, m.destination, m.path, m.captured, m.captured_kings, m.promotes,
                m.is_king)


def core_notation(rules: Rules, rep: Replay, i: int) -> str:
    """The canonical notation of ply ``i`` of ``rep`` (RULES.md 4.5): the short form, or the
    full path where the core found another legal move joining the same squares."""
    from pdnkit.rules.notation import canonical_path, square_names

    names = square_names(rules)
    fl = rep.flags[i]
    o, d = rep.origin[i], rep.destination[i]
    if not fl & FLAG_CAPTURE:
        return f"{names[o]}-{names[d]}"
    sep = rules.capture_separator
    if fl & FLAG_FULL_PATH:
        return sep.join(names[s] for s in canonical_path(core_move(rep, i), rules))
    return f"{names[o]}{sep}{names[d]}"


class CorePly(PlyRecord):
    """A ply record of a ply the core resolved (see the module doc). Pickles as a plain
    :class:`~pdnkit.validation.report.PlyRecord` with its lazy fields computed."""

    __slots__ = ("_rep", "_i", "_rules", "_black", "_first", "_dropped")

    _rep: Replay
    _i: int
    _rules: Rules
    _black: bool
    _first: Position | None
    _dropped: bool

    @classmethod
    def of(cls, rules: Rules, rep: Replay, i: int, fields: PlyFields, k: int, base_num: int,
           offset: int, start_black: bool, first: Position) -> CorePly:
        """The record of ply ``i`` of ``rep``, the main line's ply ``k`` (0-based), written
        as ``fields`` say; ``first``: the position before ply 0 of ``rep``."""
        p = cls.blank()
        fl = rep.flags[i]
        m = rep.move(i)
        p.written, p.nags, p.comment, p.line = fields.fields(i, k)
        p.ply = k + 1
        p.move_number = move_number(k, base_num, offset)
        p.side = COLOR_LETTER[start_black != (i % 2 == 1)]
        p.origin = m.origin
        p.destination = m.destination
        p.path = m.path
        p.captured = m.captured
        p.promotes = bool(fl & FLAG_PROMOTES)
        p.piece = "king" if fl & FLAG_KING else "man"
        p.replayed = True
        p._rep = rep
        p._i = i
        p._rules = rules
        p._black = start_black
        p._first = first
        p._dropped = False
        return p

    # the move and the positions, made from the arrays on first use ------------------------

    @property
    def move(self) -> Move | None:
        if self._dropped:
            return None
        return core_move(self._rep, self._i)

    @move.setter
    def move(self, value: Move | None) -> None:
        self._dropped = True

    @property
    def position_after(self) -> Position | None:
        if self._dropped:
            return None
        return position_of(self._rules, self._rep.position(self._i, self._black))

    @property
    def position_before(self) -> Position | None:
        if self._dropped:
            return None
        if self._i == 0:
            return self._first
        return position_of(self._rules, self._rep.position(self._i - 1, self._black))

    def drop_positions(self) -> None:
        self._dropped = True

    @property
    def notation(self) -> str | None:
        if self._notation is None and not self._dropped:
            self._notation = core_notation(self._rules, self._rep, self._i)
        return self._notation

    @property
    def key_after(self) -> int | None:
        if self._key is None and not self._dropped:
            self._key = self._rep.key(self._i)
        return self._key

    @property
    def counts_after(self) -> dict[str, int] | None:
        if self._counts is None and not self._dropped:
            c = self._rep.counts[4 * self._i:4 * self._i + 4]
            self._counts = {"white_men": c[0], "white_kings": c[1], "black_men": c[2],
                            "black_kings": c[3]}
        return self._counts

    def __reduce__(self) -> tuple[Any, ...]:
        return (PlyRecord.from_state, (self.__getstate__(),))


class CoreRun:
    """A compact report's leading plies as the core resolved them: what
    :class:`~pdnkit.validation.report.PlainRun` holds, read from the arrays (``rep``, plies
    ``0`` to ``len(self) - 1``) and the nodes they were read from. :meth:`records` gives the
    records a full replay makes of them, :meth:`notations` their canonical forms; the
    database loader cuts its columns from the arrays
    (:meth:`pdnkit.rows.batch.ReportBatch.add`)."""

    __slots__ = ("rules", "start", "fields", "rep", "plies", "base_num", "offset", "black")

    def __init__(self, rules: Rules, start: Position, fields: PlyFields, rep: Replay,
                 plies: int, base_num: int, offset: int, black: bool) -> None:
        self.rules = rules
        #: the position before the first ply
        self.start = start
        #: where the written side of the plies comes from
        self.fields = fields
        self.rep = rep
        self.plies = plies
        #: the number of the first move and the numbering offset (as in PlainRun)
        self.base_num = base_num
        self.offset = offset
        #: Black moved first
        self.black = black

    def __len__(self) -> int:
        return self.plies

    @property
    def start_side(self) -> int:
        """The colour to move first (0 White, 1 Black)."""
        return int(self.black)

    @property
    def nodes(self) -> Sequence[MoveNode]:
        """The nodes of the run's plies (read, for a game the lane read)."""
        return self.fields.nodes()

    @property
    def moves(self) -> list[Move]:
        """The engine's moves of the run (made from the arrays)."""
        return [core_move(self.rep, i) for i in range(self.plies)]

    @property
    def afters(self) -> list[Position]:
        """The positions after each ply of the run (made from the arrays)."""
        return list(self.iter_afters())

    def iter_afters(self) -> Iterator[Position]:
        """:attr:`afters` one at a time, made only as far as they are read (the opening
        classifier reads a game's first plies, not all of them)."""
        rules, rep, black = self.rules, self.rep, self.black
        for i in range(self.plies):
            yield position_of(rules, rep.position(i, black))

    def notations(self) -> list[str]:
        """The canonical notation of every ply of the run."""
        rules, rep = self.rules, self.rep
        return [core_notation(rules, rep, i) for i in range(self.plies)]

    def records(self) -> list[PlyRecord]:
        """The :class:`~pdnkit.validation.report.PlyRecord` of every ply of the run."""
        return [CorePly.of(self.rules, self.rep, i, self.fields, i, self.base_num,
                           self.offset, self.black, self.start) for i in range(self.plies)]
