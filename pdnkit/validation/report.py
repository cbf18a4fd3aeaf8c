"""The validator's output: :class:`GameReport` (one per game), :class:`PlyRecord` (one per
main-line ply) and :class:`Findings`, the collector every stage adds its findings to.

This module owns the shape of ``pdnkit validate --format jsonl`` (``GameReport.to_dict``) and
of a ply row (``PlyRecord.to_dict``); it knows nothing of how a game is replayed.

Example:
    >>> GameReport(file=None, index=0, line=1).status
    'ok'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar

from pdnkit.core import move_number
from pdnkit.findings import Finding, Severity, make_finding, worst
from pdnkit.rules.notation import canonical_notation

if TYPE_CHECKING:
    from pdnkit.pdn.record import GameRecord, MoveNode
    from pdnkit.rules.draw import RuleEvent
    from pdnkit.rules.position import Move, Position
    from pdnkit.rules.variants import Rules

__all__ = ["Findings", "GameReport", "LeadingRun", "PlainRun", "PlyRecord", "internal_error"]

#: the side letter of a colour index (0 White, 1 Black)
COLOR_LETTER = ("W", "B")


_Ply = TypeVar("_Ply", bound="PlyRecord")


class Numbering(NamedTuple):
    """How a main line numbers its moves at a point of its replay: ``base``, the number of
    the first move; ``offset``, 1 when the other side than the variant's first mover began
    (:func:`pdnkit.core.move_number`); ``checked``: whether a written number that does not
    fit its ply is left to the general loop (until the game's one move-number finding).

    Example:
        >>> Numbering(1, 0, True).offset
        0
    """

    base: int
    offset: int
    checked: bool


class PlyRecord:
    """One ply of the main line as recorded, and what replay made of it.

    Fields: ``ply`` (1-based), ``move_number``, ``side`` (``"W"``/``"B"``), ``written`` (as in
    the file), ``notation`` (canonical PDN 3.0 form, ``None`` if not replayed), ``origin``,
    ``destination``, ``path``, ``captured`` (capture order), ``promotes``, ``piece``
    (``"man"``/``"king"``/``None``), ``nags``, ``comment``, ``line``, ``replayed``,
    ``fen_after``, ``key_after`` (int64), ``counts_after`` (the four piece counts).
    ``notation``, ``fen_after``, ``key_after`` and ``counts_after`` are computed on first use;
    ``move`` is the engine's :class:`~pdnkit.rules.Move` (``None`` once the record has been
    pickled, e.g. from a worker process).

    Example:
        >>> p = PlyRecord(1, 1, "W", "32-28")
        >>> p.replayed, p.notation, p.fen_after
        (False, None, None)
    """

    __slots__ = ("ply", "move_number", "side", "written", "origin", "destination", "path",
                 "captured", "promotes", "piece", "nags", "comment", "line", "replayed",
                 "move", "_before", "_after", "_legal", "_notation", "_fen", "_key", "_counts")

    def __init__(self, ply: int, move_number: int | None, side: str | None, written: str,
                 *, nags: Sequence[int] = (), comment: str | None = None,
                 line: int | None = None) -> None:
        self.ply = ply
        self.move_number = move_number
        self.side = side
        self.written = written
        self.origin: int | None = None
        self.destination: int | None = None
        self.path: tuple[int, ...] = ()
        self.captured: tuple[int, ...] = ()
        self.promotes = False
        self.piece: str | None = None
        self.nags = list(nags)
        self.comment = comment
        self.line = line
        self.replayed = False
        self.move: Move | None = None
        self._before: Position | None = None
        self._after: Position | None = None
        self._legal: Sequence[Move] | None = None
        self._notation: str | None = None
        self._fen: str | None = None
        self._key: int | None = None
        self._counts: dict[str, int] | None = None

    def set_replayed(self, move: Move, before: Position, after: Position,
                     legal: Sequence[Move] | None = None) -> None:
        """Record that this ply was replayed as ``move`` from ``before`` to ``after``
        (``legal``: the legal moves at ``before``, where the replay listed them)."""
        self.replayed = True
        self.move = move
        self.origin = move.origin
        self.destination = move.destination
        self.path = tuple(move.path)
        self.captured = tuple(move.captured)
        self.promotes = bool(move.promotes)
        self.piece = "king" if move.is_king else "man"
        self._before = before
        self._after = after
        self._legal = legal

    def set_unmoved(self, position: Position) -> None:
        """Record that this ply was read as played without a move of the board (a
        continuation the replay accepts as it stands): ``position`` before and after it."""
        self.replayed = True
        self._before = self._after = position

    @classmethod
    def blank(cls: type[_Ply]) -> _Ply:
        """A record of this class with no field set but the lazily computed ones (empty):
        how a subclass that fills its fields itself starts one."""
        p = cls.__new__(cls)
        p._legal = p._notation = p._fen = p._key = p._counts = None
        return p

    def drop_positions(self) -> None:
        """Forget the engine's move, the positions and the legal moves (what pickling and
        :meth:`materialize` drop once the lazy fields are computed)."""
        self.move = self._before = self._after = self._legal = None

    @property
    def is_capture(self) -> bool:
        """True when the replayed move captured something."""
        return bool(self.captured)

    @property
    def position_after(self) -> Position | None:
        """The :class:`~pdnkit.rules.Position` after this ply (``None`` if not replayed)."""
        return self._after

    @property
    def position_before(self) -> Position | None:
        """The position before this ply (``None`` if not replayed)."""
        return self._before

    @property
    def notation(self) -> str | None:
        """Canonical PDN 3.0 notation of the move (short form unless ambiguous)."""
        if self._notation is None and self.replayed and self.move is not None:
            before = self.position_before
            if before is not None:
                legal = self._legal if self.captured else None
                self._notation = canonical_notation(self.move, before, legal)
        return self._notation

    @property
    def fen_after(self) -> str | None:
        """FEN of the position after this ply."""
        if self._fen is None and self.replayed:
            after = self.position_after
            if after is not None:
                from pdnkit.rules.fen import write_fen

                self._fen = write_fen(after)
        return self._fen

    @property
    def key_after(self) -> int | None:
        """Position key (signed 64-bit) after this ply."""
        if self._key is None and self.replayed:
            after = self.position_after
            if after is not None:
                self._key = int(after.key())
        return self._key

    @property
    def counts_after(self) -> dict[str, int] | None:
        """Piece counts after this ply (``white_men``, ``white_kings``, ``black_men``,
        ``black_kings``)."""
        if self._counts is None and self.replayed:
            after = self.position_after
            if after is not None:
                self._counts = dict(after.counts())
        return self._counts

    def materialize(self) -> PlyRecord:
        """Compute every lazy field and drop the position objects (for pickling/storage)."""
        if self.replayed:
            _ = self.notation, self.fen_after, self.key_after, self.counts_after
        move = self.move
        self.drop_positions()
        self.move = move
        return self

    _STATE = ("ply", "move_number", "side", "written", "origin", "destination", "path",
              "captured", "promotes", "piece", "nags", "comment", "line", "replayed",
              "_notation", "_fen", "_key", "_counts")

    def __getstate__(self) -> tuple[object, ...]:
        # compact: lazy fields computed, positions and the engine Move dropped
        self.materialize()
        return tuple(getattr(self, k) for k in self._STATE)

    def __setstate__(self, state: tuple[object, ...]) -> None:
        for k, v in zip(self._STATE, state, strict=True):
            object.__setattr__(self, k, v)
        PlyRecord.drop_positions(self)

    @classmethod
    def from_state(cls, state: tuple[object, ...]) -> PlyRecord:
        """A record from what :meth:`__getstate__` gives (how a ply record of another
        kind pickles as a plain one).

        Example:
            >>> PlyRecord.from_state(PlyRecord(1, 1, "W", "32-28").__getstate__()).written
            '32-28'
        """
        p = cls.__new__(cls)
        p.__setstate__(state)
        return p

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of every field (the ``moves`` row shape plus the position after)."""
        return {
            "ply": self.ply, "move_number": self.move_number, "side": self.side,
            "written": self.written, "notation": self.notation, "origin": self.origin,
            "destination": self.destination, "path": list(self.path),
            "captured": list(self.captured), "promotes": self.promotes, "piece": self.piece,
            "nags": list(self.nags), "comment": self.comment, "line": self.line,
            "replayed": self.replayed, "fen_after": self.fen_after,
            "key_after": self.key_after, "counts_after": self.counts_after,
        }

    def __repr__(self) -> str:
        return (f"PlyRecord(ply={self.ply}, side={self.side!r}, written={self.written!r}, "
                f"replayed={self.replayed})")


class NoPly(PlyRecord):
    """Stands for the ply record when none is kept (light reports): setting a move on it
    does nothing."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(0, None, None, "")

    def set_replayed(self, move: Move, before: Position, after: Position,
                     legal: Sequence[Move] | None = None) -> None:
        pass


#: the one :class:`NoPly` a light replay hands around
NO_PLY = NoPly()


class PlainRun:
    """The leading plain plies of a main line, as a compact replay keeps them (for the
    database loader, which turns them into columns): the engine's moves and the positions
    after them, with the nodes they were read from, instead of one :class:`PlyRecord` each.
    Every ply of a run was replayed, is numbered as expected, and its canonical notation is
    the short form (``origin``, separator, ``destination``). :meth:`records` gives the
    records a full replay makes of them.

    Example:
        >>> from pdnkit.pdn import parse_game
        >>> from pdnkit.rules import get_rules
        >>> from pdnkit.validation.game import replay_game
        >>> from pdnkit.validation.runoptions import RunOptions
        >>> rec = parse_game("1. 32-28 19-23 2. 28x19 14x23 *")
        >>> run = replay_game(rec, get_rules("international"), (), RunOptions(compact=True)).plain
        >>> len(run), run.records()[2].notation
        (4, '28x19')
    """

    __slots__ = ("rules", "start", "nodes", "base_num", "offset", "moves", "afters")

    def __init__(self, rules: Rules, start: Position, nodes: Sequence[MoveNode],
                 base_num: int, offset: int) -> None:
        self.rules = rules
        self.start = start
        #: the main line's nodes (the run is the first ``len(self)`` of them)
        self.nodes = nodes
        #: the number of the first move, and 1 when the other side than the first mover
        #: starts (the move number of ply ``k``, 0-based, is ``base_num + (k + offset) // 2``)
        self.base_num = base_num
        self.offset = offset
        self.moves: list[Move] = []
        self.afters: list[Position] = []

    def iter_afters(self) -> Iterator[Position]:
        """The positions after each ply, one at a time (as the compiled run gives them)."""
        return iter(self.afters)

    def __len__(self) -> int:
        return len(self.moves)

    @property
    def start_side(self) -> int:
        """The colour to move first (0 White, 1 Black)."""
        return int(self.start.side)

    def notations(self) -> list[str]:
        """The canonical notation of every ply of the run: its short form, as a run's capture
        is the only legal capture joining its two squares (what :meth:`records` give as
        ``notation``, without building them).

        Example:
            >>> from pdnkit.validation import validate
            >>> rep = next(validate('[GameType "25"] 1. c3-d4 f6-e5 2. d4:f6 *', compact=True))
            >>> rep.plain.notations()
            ['c3-d4', 'f6-e5', 'd4:f6']
        """
        from pdnkit.rules.notation import square_names

        names = square_names(self.rules)
        take = self.rules.capture_separator
        return [f"{names[m.origin]}{take if m.captured else '-'}{names[m.destination]}"
                for m in self.moves]

    def records(self) -> list[PlyRecord]:
        """The :class:`PlyRecord` of every ply of the run, as a full replay makes them."""
        out: list[PlyRecord] = []
        before = self.start
        nodes = self.nodes[:len(self.moves)]
        for k, (node, move, after) in enumerate(zip(nodes, self.moves, self.afters,
                                                    strict=True)):
            comments = node.comments_after
            prec = PlyRecord(k + 1, move_number(k, self.base_num, self.offset),
                             COLOR_LETTER[int(before.side)], node.text, nags=node.nags,
                             comment=" ".join(comments) if comments else None,
                             line=node.line)
            prec.set_replayed(move, before, after, (move,) if move.captured else None)
            out.append(prec)
            before = after
        return out


class LeadingRun(Protocol):
    """What a compact report keeps of its leading plies (:class:`PlainRun`, or on the
    compiled core :class:`pdnkit.validation.coreplies.CoreRun`)."""

    rules: Rules
    start: Position
    base_num: int
    offset: int

    def __len__(self) -> int: ...

    @property
    def nodes(self) -> Sequence[MoveNode]: ...

    @property
    def start_side(self) -> int: ...

    @property
    def moves(self) -> list[Move]: ...

    @property
    def afters(self) -> list[Position]: ...

    def iter_afters(self) -> Iterator[Position]: ...

    def notations(self) -> list[str]: ...

    def records(self) -> list[PlyRecord]: ...


@dataclass
class GameReport:
    """The validation of one game (see ``docs/architecture.md`` section 4).

    ``status`` is ``ok`` (no warning or error), ``warning``, ``error`` or ``unparsed``;
    ``result`` is the normalised White-first result (``1-0``, ``0-1``, ``1/2-1/2``, ``*``,
    or ``None`` for an unreadable score); ``outcome`` is ``white``/``black``/``draw``/
    ``unknown``; ``draw_basis`` the draw rule that backs a drawn result.

    Example:
        >>> GameReport(file=None, index=0, line=1).to_dict()["status"]
        'ok'
    """

    file: str | None
    index: int
    line: int | None
    record: GameRecord | None = None
    variant: str | None = None
    gametype: int | None = None
    edition: str | None = None
    start_fen: str | None = None
    plies: list[PlyRecord] = field(default_factory=list)
    replayed_plies: int = 0
    findings: list[Finding] = field(default_factory=list)
    status: str = "ok"
    result: str | None = None
    result_raw: str | None = None
    #: where ``result_raw`` comes from: ``"tag"`` (the Result tag under any name),
    #: ``"terminator"`` (the movetext's result token) or ``None``
    result_source: str | None = None
    outcome: str = "unknown"
    draw_basis: str | None = None
    final_fen: str | None = None
    rule_events: list[RuleEvent] = field(default_factory=list)
    white: str | None = None
    black: str | None = None
    ply_count: int = 0
    start_key: int | None = None
    start_counts: dict[str, int] | None = None
    final_position: Position | None = None
    #: a compact replay's leading plain plies (:class:`PlainRun`, or on the compiled core a
    #: :class:`~pdnkit.validation.coreplies.CoreRun`); ``plies`` then holds only the plies
    #: after them
    plain: LeadingRun | None = None
    #: the report of a file-level record (:attr:`pdnkit.pdn.record.GameRecord.file_level`):
    #: findings about the file, no game (not counted as one, no ``games`` row)
    file_level: bool = False

    def finding_codes(self) -> list[str]:
        """The codes of the findings, in order.

        Example:
            >>> GameReport(file=None, index=0, line=1).finding_codes()
            []
        """
        return [f.code for f in self.findings]

    def notation_map(self) -> dict[int, str]:
        """Canonical notation of every replayed main-line ply, ``{ply: text}``: the
        ``notation`` argument of :func:`pdnkit.pdn.write_game`.

        Example:
            >>> from pdnkit.validation import validate
            >>> next(validate('[GameType "20"] 1. 32-28 19-23 2. 28x19 *')).notation_map()
            {1: '32-28', 2: '19-23', 3: '28x19'}
        """
        out: dict[int, str] = dict(enumerate(self.plain.notations(), 1)) if self.plain else {}
        for p in self.plies:
            text = p.notation
            if text is not None:
                out[p.ply] = text
        return out

    def errors(self) -> list[Finding]:
        """The error findings."""
        return [f for f in self.findings if f.severity is Severity.ERROR]

    def to_dict(self) -> dict[str, Any]:
        """The ``pdnkit validate --format jsonl`` object (DESIGN.md section 4); a file-level
        report (no game) has ``"file_level": true`` and its ``index`` is ``null``."""
        out = {
            "file": self.file,
            "index": self.index,
            "line": self.line,
            "variant": self.variant,
            "gametype": self.gametype,
            "edition": self.edition,
            "white": self.white,
            "black": self.black,
            "result": self.result,
            "result_raw": self.result_raw,
            "result_source": self.result_source,
            "outcome": self.outcome,
            "draw_basis": self.draw_basis,
            "plies": self.ply_count,
            "replayed_plies": self.replayed_plies,
            "status": self.status,
            "final_fen": self.final_fen,
            "findings": [
                {"code": f.code, "severity": f.severity.value, "ply": f.ply, "line": f.line,
                 "move": f.move, "fen": f.fen, "message": f.message,
                 "in_variation": f.in_variation,
                 "details": f.details}
                for f in self.findings
            ],
        }
        if self.file_level:
            out["index"] = None
            out["file_level"] = True
        return out


class Findings:
    """The findings of one game's replay, located in its file as they are added.

    Example:
        >>> fs = Findings(None)
        >>> fs.add("draw-unsupported", ply=3).ply, len(fs.items)
        (3, 1)
    """

    __slots__ = ("items", "file", "index")

    def __init__(self, record: GameRecord | None) -> None:
        self.items: list[Finding] = []
        self.file: str | None = record.file if record is not None else None
        self.index: int = record.index if record is not None else 0

    def add(self, code: str, message: str | None = None, *, node: MoveNode | None = None,
            ply: int | None = None, pos: Position | None = None, in_variation: bool = False,
            severity: str | None = None, details: Mapping[str, object] | None = None,
            **more: object) -> Finding:
        """Add the finding ``code`` at ``node`` (its line, column and move text), ``ply`` and
        ``pos`` (its FEN); ``details`` and the other keywords go to the finding's details."""
        fen = None
        if pos is not None:
            from pdnkit.rules.fen import write_fen

            fen = write_fen(pos)
        f = make_finding(
            code, message, severity=severity, file=self.file, game_index=self.index,
            line=node.line if node is not None else None,
            ply=ply, move=node.text if node is not None else None, fen=fen,
            column=node.column if node is not None else None,
            in_variation=in_variation, details={**details, **more} if details else more)
        self.items.append(f)
        return f


def record_tag(record: GameRecord | None, name: str) -> str | None:
    """The value of tag ``name`` of ``record`` (``None`` when absent or without a record)."""
    return record.tag(name) if record is not None else None


def base_report(record: GameRecord) -> GameReport:
    """An empty report for ``record``: its place, players and number of plies."""
    from pdnkit.pdn.tags import players

    white, black = players(record)
    # GameReport(...) with these fields, the others at their defaults (one dict update
    # instead of the generated constructor's two dozen assignments)
    report: GameReport = object.__new__(GameReport)
    report.__dict__.update(REPORT_DEFAULTS)
    report.plies, report.findings, report.rule_events = [], [], []
    report.file, report.index = record.file, record.index
    report.line, report.record = record.line, record
    report.white, report.black, report.ply_count = white, black, record.move_count
    return report


def _report_defaults() -> dict[str, object]:
    """The defaults of :class:`GameReport`'s fields (the lists are made per report)."""
    from dataclasses import MISSING, fields

    # in field order, as the constructor fills an instance's dict (placeholders for file,
    # index, line and the lists: base_report sets them)
    out: dict[str, object] = {f.name: None if f.default is MISSING else f.default
                              for f in fields(GameReport)}
    lists = {f.name for f in fields(GameReport) if f.default_factory is not MISSING}
    if lists != {"plies", "findings", "rule_events"}:  # base_report makes these three
        raise TypeError(f"base_report does not make GameReport's lists {sorted(lists)}")
    return out


#: every field of :class:`GameReport` at its default, in field order (``None`` for
#: ``file``, ``index``, ``line`` and the lists: a fast constructor sets them)
REPORT_DEFAULTS = _report_defaults()


def move_numbers(start_side: int, first_mover: int, fullmove: int | None, k: int
                 ) -> tuple[int, bool]:
    """(expected move number, is the second mover's move) for the k-th ply (0-based).

    Example:
        >>> move_numbers(0, 0, None, 3), move_numbers(1, 0, 7, 0)
        ((2, True), (7, True))
    """
    base = fullmove or 1
    if start_side == first_mover:
        return base + k // 2, k % 2 == 1
    return base + (k + 1) // 2, k % 2 == 0


def unreplayed_plies(report: GameReport, nodes: Sequence[MoveNode], start: int,
                     start_side: int | None = None, first_mover: int | None = None,
                     fullmove: int | None = None) -> None:
    """Add the plies ``nodes[start:]`` to ``report`` as written, not replayed (numbered and
    coloured when the start side is known)."""
    for k in range(start, len(nodes)):
        node = nodes[k]
        side = None
        number = node.number
        if start_side is not None and first_mover is not None:
            number = move_numbers(start_side, first_mover, fullmove, k)[0]
            side = COLOR_LETTER[(start_side + k) % 2]
        report.plies.append(PlyRecord(
            k + 1, number, side, node.text, nags=node.nags,
            comment=" ".join(node.comments_after) or None, line=node.line))


def finish_status(report: GameReport) -> None:
    """Set ``report.status`` from its findings (``unparsed`` for a record the reader could
    not parse)."""
    w = worst(report.findings)
    if report.record is not None and not report.record.parsed:
        report.status = "unparsed"
    elif w is None or w is Severity.INFO:
        report.status = "ok"
    else:
        report.status = w.value


def internal_error(exc: BaseException, doing: str, **where: object) -> Finding:
    """The ``internal-error`` finding for a fault of pdnkit's own code met while ``doing``
    something with one game: the exception and the place it was raised.

    Example:
        >>> internal_error(KeyError("x"), "replaying this game").message[:60]
        "pdnkit failed while replaying this game: KeyError: 'x'"
    """
    import traceback  # (only a fault of pdnkit's own code needs it)

    frames = traceback.extract_tb(exc.__traceback__)
    at = f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    return make_finding(
        "internal-error", f"pdnkit failed while {doing}: {type(exc).__name__}: {exc}{at}",
        details={"exception": type(exc).__name__, "text": str(exc),
                 "where": [f"{Path(f.filename).name}:{f.lineno} {f.name}"
                           for f in frames[-5:]]}).located(**where)
