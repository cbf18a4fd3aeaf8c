"""One game of the database as the explorer shows it: the view page of ``pdnkit view`` for
that game (:func:`view_page`), and the same game as JSON with its engine evaluations
(:func:`game_data`).

The game is replayed from its stored text by the viewer (:func:`pdnkit.viewer.game_model`), so
the board, the moves, the findings and pdnkit's verdict are those ``pdnkit view --db`` writes.

Example:
    >>> from pdnkit.store import connect
    >>> view_page(connect(":memory:"), 1) is None
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import duckdb

    from pdnkit.viewer.model import GameModel

__all__ = ["EMBEDDED_CSS", "evals_of", "game_data", "view_page"]

#: the view page in the explorer's game pane shows one game: its game list is left out
EMBEDDED_CSS = "#list-pane{display:none}main{padding-top:.2em}header{display:none}"


def _model(con: duckdb.DuckDBPyConnection, game_id: int) -> GameModel | None:
    """The game as ``pdnkit view --db`` shows it, its engine analysis included."""
    from pdnkit.viewer.page import db_models

    return next(iter(db_models(con, game_id=game_id)), None)


def view_page(con: duckdb.DuckDBPyConnection, game_id: int, *,
              embedded: bool = False) -> str | None:
    """The view page of game ``game_id`` (``None`` when there is no such game): the page
    ``pdnkit view`` writes, holding this one game (``#g=1&ply=K`` opens it at ply K);
    ``embedded`` leaves out its game list and header, for the explorer's game pane."""
    from pdnkit.viewer.page import view_html

    model = _model(con, game_id)
    if model is None:
        return None
    page = view_html([model], title=f"pdnkit explorer: game {game_id}")
    if embedded:
        page = page.replace("</head>", f"<style>{EMBEDDED_CSS}</style>\n</head>", 1)
    return page


def evals_of(con: duckdb.DuckDBPyConnection, game_id: int) -> list[dict[str, object]]:
    """The engine evaluations of a game (the ``evals`` table, by ply), every column the
    table has; none where the database has no such table (nothing was analysed).

    >>> from pdnkit.store import connect
    >>> evals_of(connect(":memory:"), 1)
    []
    """
    found = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'evals' "
        "AND table_catalog = current_database()").fetchall()[0][0]
    if not found:
        return []
    from pdnkit._cells import frame_records

    return frame_records(con.execute("SELECT * FROM evals WHERE game_id = ? ORDER BY ALL",
                             [game_id]).df())


def game_data(con: duckdb.DuckDBPyConnection, game_id: int) -> dict[str, Any]:
    """Game ``game_id`` as JSON: ``game_id``, ``model`` (the object the view page reads for
    it: title, source, tags, every ply with its placement, variations, findings, result and
    verdict), ``layout`` (its board, :func:`pdnkit.viewer.page.layout`) and ``evals`` (the
    rows of the ``evals`` table for the game, by ply; empty where nothing was analysed).
    No such game raises ``ValueError``."""
    from pdnkit.errors import ArgumentError
    from pdnkit.viewer.page import layout

    model = _model(con, game_id)
    if model is None:
        raise ArgumentError(f"no game with game_id {game_id} in the database")
    return {"game_id": game_id, "model": model.to_json(),
            "layout": layout(model.rules) if model.rules is not None else None,
            "evals": evals_of(con, game_id)}
