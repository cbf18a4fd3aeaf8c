"""Openings as players name them: ballot, code and name tables, classified by position.

The tables are data files in ``pdnkit/openings/tables`` (one CSV per family, each entry with
its source; ``tables/README.md`` says what comes from where). :func:`load_tables` builds a
variant's :class:`OpeningBook` once (every line replayed by the rules engine);
:meth:`OpeningBook.classify` names a game from the positions it reached, so transpositions
land in the same opening; :func:`classify_record` does it for a record or a report;
:func:`check_opening_tag` compares a game's ``Opening``-like tag with what its moves say;
:func:`novelties` finds where each game left the games played before it.

In a database (the store's side of openings, :mod:`pdnkit.store.openingdb`): the import
labels every game (:func:`label_report`, :mod:`~pdnkit.openings.labels`) and computes
novelties in SQL (:mod:`pdnkit.store.novelties`); :mod:`pdnkit.store.openinglist` is ``pdnkit
openings list`` and ``classify``; a lake keeps its novelties in it
(:mod:`pdnkit.store.lakenovelties`). This package reads no database: it is the floor below them.

Names are imported lazily from the submodules that define them.

Example:
    >>> from pdnkit.openings import classify_record
    >>> from pdnkit.pdn import parse_game
    >>> c = classify_record(parse_game('[GameType "21"] 1. 11-15 24-20 8-11 *'))
    >>> c.code, c.name
    ('ACF 130', 'Ayrshire Lassie')
"""

from __future__ import annotations

from pdnkit._lazy import lazy_exports

_API: dict[str, str] = {
    "Entry": "pdnkit.openings.table",
    "OpeningTableError": "pdnkit.openings.table",
    "read_table": "pdnkit.openings.table",
    "square_bits": "pdnkit.openings.table",
    "Classification": "pdnkit.openings.book",
    "Match": "pdnkit.openings.book",
    "OpeningBook": "pdnkit.openings.book",
    "load_tables": "pdnkit.openings.book",
    "load_user_table": "pdnkit.openings.book",
    "table_index": "pdnkit.openings.book",
    "classify_record": "pdnkit.openings.one_game",
    "game_bits": "pdnkit.openings.one_game",
    "game_positions": "pdnkit.openings.one_game",
    "start_position": "pdnkit.openings.one_game",
    "colours_swapped": "pdnkit.openings.one_game",
    "mirror_position": "pdnkit.openings.table",
    "mirror_bits": "pdnkit.openings.table",
    "TagCheck": "pdnkit.openings.tagcheck",
    "OPENING_TAGS": "pdnkit.openings.tagcheck",
    "check_opening_tag": "pdnkit.openings.tagcheck",
    "tag_disagreement": "pdnkit.openings.tagcheck",
    "GameLine": "pdnkit.openings.novelty",
    "Novelty": "pdnkit.openings.novelty",
    "novelties": "pdnkit.openings.novelty",
    "pdn_date": "pdnkit.openings.novelty",
    "GameOpening": "pdnkit.openings.labels",
    "label_report": "pdnkit.openings.labels",
    "entries_label": "pdnkit.openings.labels",
    "sort_date": "pdnkit.openings.novelty",
}

__all__ = sorted(_API)

__getattr__, __dir__ = lazy_exports(__name__, _API, globals())
