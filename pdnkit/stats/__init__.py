"""The read side: statistics, the opening book, search and player identities over a pdnkit
database, as pandas DataFrames.

Every function takes the database first (a path, ``None`` for ``pdnkit.duckdb`` here, or an
open DuckDB connection: :data:`~pdnkit.store.session.DbLike`); a path is opened read-only and
closed again (:func:`pdnkit.store.session.reading`). Results are read from ``games.outcome``;
scores are White's percentage of the decided-or-drawn games (a win is 1, a draw 1/2). The
common filters (``variant``, ``event``, ``player``, ``date_from``, ``date_to``, or
``filter=`` a :class:`GameFilter`) are described in :mod:`pdnkit.stats.filters`;
``min_games`` drops rows with fewer games. Result columns name White's side before Black's,
unless every game read is of a variant where Black moves first (English, pool, Thai): there
the first mover's columns lead (``black_wins`` before ``white_wins``).

The rooms (names are imported lazily from them):

* :mod:`~pdnkit.stats.explorer` -- :func:`openings` and the opening explorer :func:`tree`;
* :mod:`~pdnkit.stats.named` -- openings as the tables name them: :func:`named_openings`,
  :func:`ballots` (the ballot report), :func:`novelties` (and :func:`novelties_stream`);
* :mod:`~pdnkit.stats.positions` -- :func:`positions_at` (where a FEN or move sequence is);
* :mod:`~pdnkit.stats.gamelist` -- :func:`games` (the games, or those that reached a position);
* :mod:`~pdnkit.stats.summaries` -- :func:`players`, :func:`results`, :func:`lengths`,
  :func:`findings`, :func:`square_counts`, and :func:`stats` (``pdnkit stats KIND``);
* :mod:`~pdnkit.stats.endgame` -- :func:`endgame_rules`, :func:`endgame_summary`,
  :func:`verdict`;
* :mod:`~pdnkit.stats.endings` -- :func:`egdb_verdicts`, :func:`egdb_coverage` (endings
  judged by the endgame databases);
* :mod:`~pdnkit.stats.crosstables` -- :func:`crosstable`;
* :mod:`~pdnkit.stats.rating_lists` -- :func:`ratings` (Elo and Glicko-2 lists over time),
  on the formulas of :mod:`~pdnkit.stats.rating_systems` (with :func:`performance_rating`),
  and :func:`ratings_history_stream` (:mod:`~pdnkit.stats.ratings_stream`: the history
  written as it is computed);
* :mod:`~pdnkit.stats.identities` -- player aliases (:func:`alias`, :func:`suggest` ...);
* :mod:`~pdnkit.stats.search` -- games by position, pattern, material, manoeuvre
  (``pdnkit.search``);
* :mod:`~pdnkit.stats.filters` and :mod:`~pdnkit.stats.common` -- what they share.

:func:`stats_table`, :func:`tree_table` and :func:`search_table` give the tables of
:func:`stats`, :func:`tree` and ``pdnkit.search`` as plain tables
(:class:`pdnkit._cells.PlainTable`: the same cells, without importing pandas), as the
command line's quick forms write them; :func:`plain_tables` does the same for any of them.

Example:
    >>> from pdnkit.store import connect
    >>> from pdnkit.stats import openings
    >>> openings(connect(":memory:"), plies=2).empty
    True
"""

from __future__ import annotations

from pdnkit._lazy import lazy_exports

_API: dict[str, str] = {
    # the opening book
    "openings": "pdnkit.stats.explorer",
    "tree": "pdnkit.stats.explorer",
    "TREE_COLUMNS": "pdnkit.stats.explorer",
    "tree_table": "pdnkit.stats.explorer",
    "named_openings": "pdnkit.stats.named",
    "ballots": "pdnkit.stats.named",
    "novelties": "pdnkit.stats.named",
    "novelties_stream": "pdnkit.stats.named",
    "positions_at": "pdnkit.stats.positions",
    # the game list (of a node of the explorer)
    "games": "pdnkit.stats.gamelist",
    "GAME_COLUMNS": "pdnkit.stats.gamelist",
    "StoredPosition": "pdnkit.stats.positions",
    # tables
    "STAT_KINDS": "pdnkit.stats.summaries",
    "stats": "pdnkit.stats.summaries",
    "stats_table": "pdnkit.stats.summaries",
    "players": "pdnkit.stats.summaries",
    "results": "pdnkit.stats.summaries",
    "lengths": "pdnkit.stats.summaries",
    "findings": "pdnkit.stats.summaries",
    "square_counts": "pdnkit.stats.summaries",
    # draw and endgame rules
    "VERDICTS": "pdnkit.stats.endgame",
    "verdict": "pdnkit.stats.endgame",
    "endgame_rules": "pdnkit.stats.endgame",
    "endgame_summary": "pdnkit.stats.endgame",
    # endings judged by the endgame databases
    "egdb_verdicts": "pdnkit.stats.endings",
    "egdb_coverage": "pdnkit.stats.endings",
    # crosstables
    "TWO_POINT_RESULTS": "pdnkit.stats.crosstables",
    "crosstable": "pdnkit.stats.crosstables",
    # ratings
    "RATING_SYSTEMS": "pdnkit.stats.rating_lists",
    "RATING_PERIODS": "pdnkit.stats.rating_periods",
    "ratings": "pdnkit.stats.rating_lists",
    "ratings_history_stream": "pdnkit.stats.ratings_stream",
    "RatingList": "pdnkit.stats.rating_lists",
    "read_seed": "pdnkit.stats.rating_lists",
    "Glicko": "pdnkit.stats.rating_systems",
    "elo_update": "pdnkit.stats.rating_systems",
    "glicko2_update": "pdnkit.stats.rating_systems",
    "performance_rating": "pdnkit.stats.rating_systems",
    # player identities
    "PLACEHOLDERS": "pdnkit.stats.identities",
    "is_placeholder": "pdnkit.stats.identities",
    "alias": "pdnkit.stats.identities",
    "AliasCount": "pdnkit.stats.identities",
    "unalias": "pdnkit.stats.identities",
    "aliases": "pdnkit.stats.identities",
    "suggest": "pdnkit.stats.identities",
    # search (the function is pdnkit.search: pdnkit.stats.search is its room)
    "SearchError": "pdnkit.stats.search",
    "search_table": "pdnkit.stats.search",
    # what the rooms share
    "GameFilter": "pdnkit.stats.filters",
    "OUTCOME_SQL": "pdnkit.stats.common",
    "score": "pdnkit.stats.common",
    "plain_tables": "pdnkit.stats.common",
}

__all__ = sorted(_API)

__getattr__, __dir__ = lazy_exports(__name__, _API, globals())
