"""Replay and validation: every move, every capture rule, results and draw claims.

:func:`replay` takes one :class:`~pdnkit.pdn.record.GameRecord`, decides its rules (GameType
tag, Variant tag, the caller's ``variant``, else a guess), replays every main-line move from
the variant's starting position (or the FEN), replays each variation from its own branch
point, checks the result against the final position and runs the variant's draw rules. It
returns a :class:`GameReport`: the plies (move, captured squares, position after), the
findings (coded, located, never exceptions) and the outcome.

:func:`validate` streams one report per game over files, folders (``*.pdn``, recursively) or
PDN text, optionally in worker processes (order preserved, memory flat).

The stages, one module each (``docs/architecture.md`` section 4): :mod:`.resolve` (which
rules), :mod:`.start` (the start position), :mod:`.match` (a written move to one legal move),
:mod:`.game` (the replay of the main line and its variations), :mod:`.judge` (result and draw
verdicts), :mod:`.report` (the report and its findings), :mod:`.pipeline` (one game through
the stages), :mod:`.inputs` (the inputs), :mod:`.runoptions` (the run's options as one frozen
record), :mod:`.collect` (what a run fills: reports or rows), :mod:`.jobs` (worker processes)
:mod:`.rewrite` (:func:`convert`: a collection as canonical PDN, GameTypes guessed)
and :mod:`.flow` (:func:`run`: a source's games to results in file order, serially or on
workers; the one way in for ``validate``, the database loader and the lake).

Example:
    >>> from pdnkit.validation import validate
    >>> rep = next(validate('[GameType "20"]\\n1. 32-28 19-23 2. 28x19 14x23 *'))
    >>> rep.variant, rep.replayed_plies, rep.status, rep.plies[2].captured
    ('international', 4, 'ok', (23,))
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from pdnkit._lazy import lazy_exports
from pdnkit.errors import ArgumentError
from pdnkit.validation.collect import Reports, Rows
from pdnkit.validation.flow import run
from pdnkit.validation.game import IRREGULAR
from pdnkit.validation.inputs import Source, collect_paths, iter_sources
from pdnkit.validation.pipeline import (
    check_arguments,
    check_codes,
    keep_findings,
    replay,
    replay_with,
    restatus,
)
from pdnkit.validation.report import GameReport, PlyRecord, internal_error
from pdnkit.validation.runoptions import RunOptions

if TYPE_CHECKING:
    from pdnkit.validation.rewrite import ConvertSummary, convert

#: names imported on first use (``convert`` writes PDN: validating a file never needs it)
_LAZY: dict[str, str] = {"ConvertSummary": "pdnkit.validation.rewrite",
                         "convert": "pdnkit.validation.rewrite"}

__all__ = ["ConvertSummary", "GameReport", "PlyRecord", "Reports", "Rows", "RunOptions",
           "check_codes", "collect_paths", "convert", "internal_error", "iter_sources", "keep_findings", "replay",
           "replay_with", "restatus", "run", "validate"]


def validate(source: Source, variant: str | None = None, *, edition: str | None = None,
             jobs: int = 1, result_convention: str = "auto", strict: bool = False,
             light: bool = False, chunk_size: int = 200,
             encoding: str | None = None, irregular: str = "stand",
             select: Iterable[str] | None = None,
             ignore: Iterable[str] | None = None,
             compact: bool = False) -> Iterator[GameReport]:
    """Validate every game in ``source``: one :class:`GameReport` per game, in file order.

    ``source`` is a path, a folder (``*.pdn`` read recursively), a list of those, a file
    object, a string of PDN text, or :class:`~pdnkit.pdn.record.GameRecord` objects already
    read (replayed in this process). ``variant`` applies where the tags do not say (a tag that
    disagrees wins, with a warning). ``jobs`` > 1 replays in worker processes, ``chunk_size``
    games at a time, with the order kept. ``light`` drops records and ply lists from the
    reports (for summaries). Memory stays flat: games are read and replayed as a stream.
    ``encoding`` (a codec name) skips encoding detection; ``Path("-")`` reads standard
    input; a folder without ``*.pdn`` raises :class:`~pdnkit.pdn.source.NoInputError`.
    ``irregular``: ``"stand"`` or ``"stop"``, as for :func:`replay`.
    ``select`` / ``ignore`` (finding codes, ruff's convention) keep only the selected codes
    (all when ``None``) minus the ignored ones in each report, and its status follows what
    is kept (``ignore=["notation-mismatch"]`` makes such a game ``ok``); an unknown code
    raises ``ValueError``. Workers start only when the input is large enough to pay for
    them (:func:`~pdnkit.validation.costs.worth_workers`). ``compact`` (for the database
    loader; in this process only, ignored with workers) keeps each game's leading plain
    plies as one :class:`~pdnkit.validation.report.PlainRun`, as :func:`replay` does.

    Example:
        >>> [r.status for r in validate('1. 32-28 19-23 *\\n\\n1. 32-28 28-22 *',
        ...                             variant="international")]
        ['ok', 'error']
    """
    check_arguments(variant, edition, result_convention)
    if irregular not in IRREGULAR:
        raise ArgumentError(f"irregular must be one of {IRREGULAR}, got {irregular!r}")
    codes = check_codes(select, ignore)
    options = RunOptions(variant=variant, edition=edition, result_convention=result_convention,
                         irregular=irregular, light=light, compact=compact,
                         encoding=encoding, strict=strict, codes=codes)
    for rows in run(source, options, Reports, jobs=jobs or 1, chunk_size=chunk_size):
        for report in rows:
            yield report if codes is None else keep_findings(report, codes)


__getattr__, __dir__ = lazy_exports(__name__, _LAZY, globals())
