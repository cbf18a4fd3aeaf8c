"""The options of a run, as one frozen record: what every internal signature takes instead of
a row of positional flags.

The public functions (:func:`pdnkit.validation.validate`, :func:`pdnkit.validation.replay`,
:func:`pdnkit.store.import_files`, :func:`pdnkit.lake.import_lake`) keep their keyword
arguments, check them, and build one :class:`RunOptions` that travels unchanged through the
pipeline, into worker processes and into the lake's tasks (it pickles).

Example:
    >>> opts = RunOptions(variant="russian", irregular="stop")
    >>> opts.variant, opts.edition, opts.codes
    ('russian', None, None)
    >>> opts.but(compact=True).compact
    True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

#: the finding-code filter of ``select`` / ``ignore``: (the selected codes, ``None`` for all;
#: the ignored codes), as :func:`pdnkit.validation.pipeline.check_codes` returns it
CodeFilter = tuple["frozenset[str] | None", "frozenset[str]"]


@dataclass(frozen=True)
class RunOptions:
    """How games are read and replayed (the arguments already checked by the public
    function that built it).

    * ``variant`` / ``edition``: the rules for games whose tags name none (a tag that
      disagrees wins, with a warning); ``edition`` also picks the rules edition.
    * ``result_convention``: ``auto``, ``first-mover`` or ``white`` (whom a result's first
      number belongs to where Black moves first).
    * ``irregular``: ``stand`` (an irregular move stands where the rules let it) or ``stop``.
    * ``light``: reports without records and ply lists (counts and findings stay).
    * ``compact``: a game's leading plain plies as one ``PlainRun`` (the database loader).
    * ``encoding``: a codec name that skips encoding detection; ``strict``: what PDN 3.0
      forbids is an error, not a warning.
    * ``codes``: the ``select`` / ``ignore`` filter of the findings (``None``: keep all).
    """

    variant: str | None = None
    edition: str | None = None
    result_convention: str = "auto"
    irregular: str = "stand"
    light: bool = False
    compact: bool = False
    encoding: str | None = None
    strict: bool = False
    codes: CodeFilter | None = None

    def but(self, **changes: Any) -> RunOptions:
        """A copy with ``changes`` (``dataclasses.replace``).

        Example:
            >>> RunOptions().but(light=True).light
            True
        """
        return dataclasses.replace(self, **changes)


__all__ = ["CodeFilter", "RunOptions"]
