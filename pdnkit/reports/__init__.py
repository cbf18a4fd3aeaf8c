"""Reports: the endgame-rule report, the collection (validation) report and the openings
(ballot) report.

Each is built from a pdnkit database and comes out as Markdown or as one self-contained
HTML page with the plots embedded (base64 PNG): :func:`report` makes the one named
(:data:`REPORT_KINDS`). The rooms: :mod:`pdnkit.reports.document` (the document a report is
written into, rendered to Markdown or HTML, and the parts the reports share),
:mod:`pdnkit.reports.endgamerules`, :mod:`pdnkit.reports.collection` and
:mod:`pdnkit.reports.openings` (one report each). The data behind them are ordinary
DataFrames: :func:`endgame_rules` (one row per draw/endgame rule that became active in a
game, with a verdict), :func:`endgame_summary` and :func:`games_to_check`.

The verdicts (:data:`VERDICTS`: ``ended-in-time``, ``drawn-by-rule``, ``played-past-limit``,
``result-contradicts-rule``) are explained in :mod:`pdnkit.stats.endgame`, which computes them.

Example:
    >>> verdict(automatic=True, start_ply=40, limit_plies=30, reached_ply=70, end_ply=70,
    ...         plies=75, outcome="white", result="1-0")[0]
    'played-past-limit'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pdnkit.errors import ArgumentError
from pdnkit.reports.collection import collection_report, games_to_check
from pdnkit.reports.endgamerules import NEEDS_A_PERSON, endgame_report
from pdnkit.reports.openings import openings_report
from pdnkit.stats.endgame import VERDICTS, endgame_rules, endgame_summary, verdict
from pdnkit.stats.filters import DateBound, GameFilter
from pdnkit.store.session import DbLike

if TYPE_CHECKING:  # pragma: no cover
    import os

__all__ = [
    "NEEDS_A_PERSON",
    "REPORT_KINDS",
    "VERDICTS",
    "collection_report",
    "endgame_report",
    "endgame_rules",
    "endgame_summary",
    "games_to_check",
    "openings_report",
    "report",
    "verdict",
]

REPORT_KINDS = ("endgame", "collection", "openings")


def report(
    kind: str,
    con: DbLike = None,
    *,
    fmt: str = "md",
    view_page: str | os.PathLike[str] | None = None,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    filter: GameFilter | None = None,
) -> str:
    """The report ``kind`` (``endgame``, ``collection`` or ``openings``) as Markdown or HTML
    text.

    ``fmt`` is ``"md"`` or ``"html"`` (one self-contained page, plots embedded).
    ``None`` filters are ignored. ``view_page`` (collection report): write a ``pdnkit view``
    page of the games with errors there and link each game to it.

    >>> from pdnkit.store import connect
    >>> report("endgame", connect(":memory:"), fmt="html").startswith("<!DOCTYPE html>")
    True
    """
    if fmt not in ("md", "html"):
        raise ArgumentError("fmt must be 'md' or 'html'")
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    if kind == "endgame":
        return endgame_report(con, fmt=fmt, filter=gf)
    if kind == "collection":
        return collection_report(con, fmt=fmt, view_page=view_page, filter=gf)
    if kind == "openings":
        return openings_report(con, fmt=fmt, filter=gf)
    raise ArgumentError(f"unknown report {kind!r}; choose from {', '.join(REPORT_KINDS)}")
