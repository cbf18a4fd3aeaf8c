"""What a run builds from its reports: the :class:`Rows` protocol and the validator's own
:class:`Reports`.

:func:`pdnkit.validation.flow.run` maps a source's games to reports and hands them, in file
order, to objects the caller chooses: :class:`Reports` (the reports themselves, for
``validate``) or :class:`pdnkit.rows.batch.ReportBatch` (the database rows, for the store
and the lake). Either is filled one report at a time with :meth:`Rows.add`; in a worker
process one object takes a whole batch of games, numbered from 0, and the parent moves it to
its place in the file with :meth:`Rows.shift_game_index`. The class itself is what the
caller passes (it pickles by reference), so workers build the same thing.

Example:
    >>> from pdnkit.validation import validate
    >>> rows = Reports()
    >>> _ = rows.add(next(validate("1. 32-28 *", "international")))
    >>> rows.games_count, rows.full()
    (1, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, TypeVar

from pdnkit.validation.report import GameReport


class Rows(Protocol):
    """What :func:`~pdnkit.validation.flow.run` fills with reports (see the module doc)."""

    @property
    def games_count(self) -> int:
        """The games added so far."""
        ...

    def add(self, report: GameReport) -> object:
        """Take the next game's report (numbered as it is to stay)."""
        ...

    def full(self) -> bool:
        """True when the serial run should hand this object on and start a new one."""
        ...

    def shift_game_index(self, base: int) -> None:
        """Add ``base`` to every game index (a worker numbered its games from 0)."""
        ...


#: the rows a caller asks a run for
RowsT = TypeVar("RowsT", bound=Rows)


def renumber(report: GameReport, index: int, old: int = -1) -> None:
    """Give ``report`` the game index ``index``: the report, its record and every finding
    that carries ``old`` (a provisional index) as its game index.

    Example:
        >>> from pdnkit.validation import validate
        >>> rep = next(validate("1. 32-28 *", "international"))
        >>> renumber(rep, 7, old=0)
        >>> rep.index, rep.record.index
        (7, 7)
    """
    report.index = index
    if report.record is not None:
        report.record.index = index
        for f in report.record.findings:
            if f.game_index == old:
                f.game_index = index
    for f in report.findings:
        if f.game_index == old:
            f.game_index = index


def travel_light(report: GameReport) -> GameReport:
    """``report`` ready to cross to another process: no final position, every ply record
    computed (its engine move and positions dropped)."""
    report.final_position = None
    for p in report.plies:
        p.materialize()
    return report


def batched(reports: Iterable[GameReport], rows: Callable[[], RowsT]) -> Iterator[RowsT]:
    """``reports`` put into rows objects made by ``rows``, each handed on as soon as it is
    ``full()``, the last one when it holds a game.

    Example:
        >>> from pdnkit.validation import validate
        >>> [len(r) for r in batched(validate('[GameType "20"] 1. 32-28 *'), Reports)]
        [1]
    """
    batch = rows()
    added = False
    for report in reports:
        batch.add(report)
        added = True
        if batch.full():
            yield batch
            batch = rows()
            added = False
    if added:  # (a file-level report may be all it holds: findings, no game)
        yield batch


class Reports(list[GameReport]):
    """The reports themselves, as :func:`pdnkit.validation.validate` yields them: handed on
    one at a time by a serial run (a stream), a batch at a time from a worker, whose
    reports travel materialised (:func:`travel_light`, when pickled)."""

    @property
    def games_count(self) -> int:
        """The reports held."""
        return len(self)

    def add(self, report: GameReport) -> int:
        """Append ``report``; returns its place in this list."""
        self.append(report)
        return len(self) - 1

    def full(self) -> bool:
        """Always, once it holds a report: a serial run streams."""
        return len(self) > 0

    def shift_game_index(self, base: int) -> None:
        """Renumber the reports from ``base`` on (they hold 0, 1, 2, ...)."""
        for i, report in enumerate(self):
            renumber(report, base + i, old=i)

    def __reduce__(self) -> tuple[Any, ...]:
        # each report as the tuple of its fields' values (in the order of FIELDS): a
        # worker's reports cross as rows, not as objects each with its field names
        return (_unpack, (_pack(self),))


#: the fields of a :class:`GameReport` in the order its ``__dict__`` holds them
FIELDS = tuple(GameReport(file=None, index=0, line=None).__dict__)


def _pack(reports: Iterable[GameReport]) -> list[tuple[object, ...] | GameReport]:
    """The reports made light for the crossing, each as its fields' values (a report with
    other attributes than :data:`FIELDS`, in another order, goes whole)."""
    out: list[tuple[object, ...] | GameReport] = []
    for r in reports:
        travel_light(r)
        d = r.__dict__
        out.append(tuple(d.values()) if tuple(d) == FIELDS else r)
    return out


def _unpack(rows: list[tuple[object, ...] | GameReport]) -> Reports:
    """The :class:`Reports` of :func:`_pack`'s rows.

    Example:
        >>> import pickle
        >>> from pdnkit.validation import validate
        >>> rows = Reports(validate('[White "A"] 1. 32-28 *', "international"))
        >>> back = pickle.loads(pickle.dumps(rows))
        >>> type(back).__name__, back[0].to_dict() == rows[0].to_dict(), back[0].white
        ('Reports', True, 'A')
    """
    out = Reports()
    new = object.__new__
    for row in rows:
        if isinstance(row, GameReport):
            out.append(row)
        else:
            r = new(GameReport)
            r.__dict__.update(zip(FIELDS, row, strict=True))
            out.append(r)
    return out


__all__ = ["FIELDS", "Reports", "Rows", "RowsT", "batched", "renumber", "travel_light"]
