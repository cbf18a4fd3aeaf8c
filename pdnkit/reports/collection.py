"""The collection (validation) report: games, files and the clean share, the games with an
error first (the position before the faulty move, the move as written, the legal moves there,
a link into a viewer page of these games), then games by variant, openings, ratings,
findings by code, the dirtiest files, games and events, engine analysis and game lengths.

Example:
    >>> from pdnkit.store import connect
    >>> list(games_to_check(connect(":memory:")).columns[:3])
    ['game_id', 'file', 'game_index']
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from pdnkit.reports.document import Doc, check_board, escaped, filters_text
from pdnkit.reports.openings import OPENING_COLUMNS, classified_text
from pdnkit.stats.common import frame, is_missing
from pdnkit.stats.filters import DateBound, GameFilter
from pdnkit.store.session import DbLike, reading
from pdnkit.viewer.model import players, result_text
from pdnkit.viewer.text import markdown, markdown_code

if TYPE_CHECKING:  # pragma: no cover
    import os

    import duckdb
    import pandas as pd

__all__ = ["collection_report", "games_to_check"]


def games_to_check(
    con: DbLike = None,
    *,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    filter: GameFilter | None = None,
) -> pd.DataFrame:
    """The games with an error, one row each with its first error in the main line.

    Columns: ``game_id``, ``file``, ``game_index``, ``variant``, ``white``, ``black``,
    ``event``, ``result_raw`` (as written), ``outcome``, ``status``, ``code``, ``message``,
    ``ply``, ``move`` (as written), ``fen`` (the position before the move), ``line``. Filters
    as in :mod:`pdnkit.stats`.

    >>> from pdnkit.store import connect
    >>> games_to_check(connect(":memory:")).empty
    True
    """
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    sql = """
        WITH f AS (
            SELECT *, row_number() OVER (PARTITION BY game_id
                                         ORDER BY ply NULLS FIRST, line, code) AS rn
            FROM findings WHERE severity = 'error' AND NOT coalesce(in_variation, FALSE))
        SELECT g.game_id, fl.path AS file, g.game_index, g.variant, g.white, g.black,
               g.event, g.result_raw, g.outcome, g.status, f.code, f.message, f.ply, f.move,
               f.fen, f.line
        FROM games g JOIN f ON f.game_id = g.game_id AND f.rn = 1
        LEFT JOIN files fl ON fl.file_id = g.file_id
        WHERE {where}
        ORDER BY g.game_id"""
    with reading(con) as c:
        where, params = gf.sql(con=c)
        return frame(c, sql.replace("{where}", where), params)


def _check_card(row: Any, link: str | None) -> tuple[str, str]:
    """One game to check as (HTML with a board, Markdown). Text from the file is escaped in
    both (and without bidi controls: :mod:`pdnkit.viewer.text`)."""
    from pathlib import Path

    where = (f"{Path(str(row.file)).name if not is_missing(row.file) else '?'}, game "
             f"{int(row.game_index) + 1}" + ("" if is_missing(row.ply) else f", ply {int(row.ply)}"))
    names = players(row.white, row.black) + (
        f" ({row.event})" if not is_missing(row.event) and row.event else "")
    names += ": " + result_text(None if is_missing(row.result_raw) else row.result_raw,
                                row.outcome, row.white, row.black)
    move = None if is_missing(row.move) else str(row.move)
    svg, legal = check_board(row, move)
    legal_text = ", ".join(legal) if legal else ("none (the game was over)" if svg else "n/a")
    link_html = (f' &middot; <a href="{html.escape(link)}">open in the viewer</a>'
                 if link else "")
    body = (f"<h3>{escaped(where)}: {escaped(str(row.code))}</h3>"
            f"<p>{escaped(names)}{link_html}</p>"
            f"<p>{escaped(str(row.message))}</p>"
            + (f"<p>Move as written: <code>{escaped(move)}</code> (red squares)</p>"
               if move else "")
            + (f'<p class="legal">Legal moves there (blue arrows): '
               f'{"".join(f"<code>{escaped(m)}</code>" for m in legal) or legal_text}</p>'
               if svg else ""))
    card = f'<div class="check">{svg}<div>{body}</div></div>'
    md = (f"- **{markdown(where)}**: {markdown_code(str(row.code))} {markdown(names)}. "
          f"{markdown(str(row.message))}"
          + (f" Move as written: {markdown_code(move)}." if move else "")
          + (f" Legal moves: {markdown(legal_text)}." if svg else "")
          + (f" [Open in the viewer]({link})" if link else ""))
    return card, md


def _view_link(view_page: Any, number: int, ply: Any) -> str:
    """The relative link to game ``number`` (from 1) and ``ply`` of the viewer
    page ``view_page``: ``./`` and the name URL-quoted, so no file name reads as a scheme
    (``javascript:``) or breaks the link.

    >>> _view_link("/tmp/javascript:x.games.html", 2, 5)
    './javascript%3Ax.games.html#g=2&ply=5'
    """
    from pathlib import Path
    from urllib.parse import quote

    at = "" if is_missing(ply) else f"&ply={max(0, int(ply))}"
    return f"./{quote(Path(str(view_page)).name)}#g={number}{at}"


def _write_view(con: duckdb.DuckDBPyConnection, ids: list[int],
                path: str | os.PathLike[str]) -> dict[int, int]:
    """Write the viewer page of the games ``ids`` to ``path``; ``game_id -> the game's
    number in the page`` (from 1, as ``#g=N`` counts)."""
    from pathlib import Path

    from pdnkit.viewer.page import view

    ordered = sorted(set(ids))
    if not ordered:
        return {}
    view(db=con, where="g.game_id IN (" + ",".join(str(int(i)) for i in ordered) + ")",
         out=Path(path), title="games to check")
    return {gid: i for i, gid in enumerate(ordered, 1)}


def collection_report(
    con: DbLike = None,
    *,
    fmt: str = "md",
    worst: int = 10,
    boards: int = 12,
    view_page: str | os.PathLike[str] | None = None,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    filter: GameFilter | None = None,
) -> str:
    """The validation summary of a database as Markdown or self-contained HTML.

    Opens with the games that have errors: for the first ``boards`` of them the position
    before the faulty move (an SVG board in HTML), the move as written and the legal moves
    there, and, when ``view_page`` (a path) is given, a link to that game and ply in a
    ``pdnkit view`` page of these games written there. Then games, clean share, findings by
    code, the ``worst`` files and games, the players' Elo ratings, and (HTML) plots.

    >>> from pdnkit.store import connect
    >>> "0 games" in collection_report(connect(":memory:"))
    True
    """
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    doc = Doc("Collection report")
    with reading(con) as c:
        _collection_head(doc, c, gf)
        _games_to_check(doc, c, gf, boards, view_page)
        _collection_tables(doc, c, gf, fmt, worst)
    return doc.html() if fmt == "html" else doc.markdown()


def _collection_head(doc: Doc, con: duckdb.DuckDBPyConnection, gf: GameFilter) -> None:
    """The collection report's first paragraph: games, files, clean share, plies."""
    where, params = gf.sql(con=con)
    row = con.execute(f"""
        SELECT count(*), count(*) FILTER (WHERE status = 'ok'),
               count(*) FILTER (WHERE status = 'warning'),
               count(*) FILTER (WHERE status = 'error'),
               count(*) FILTER (WHERE status = 'unparsed'),
               count(DISTINCT file_id), coalesce(sum(plies), 0),
               coalesce(sum(replayed_plies), 0)
        FROM games g WHERE {where}""", params).fetchone() or (0,) * 8
    games, ok, warn, err, unparsed, files, plies, replayed = (int(x or 0) for x in row)
    share = f"{100.0 * ok / games:.1f}%" if games else "n/a"
    doc.p(filters_text(gf) + f" {games} games from {files} files; {share} clean "
          f"(no finding above info): {ok} ok, {warn} with warnings, {err} with errors, "
          f"{unparsed} unparsed. {replayed} of {plies} recorded plies replayed.")


def _games_to_check(doc: Doc, con: duckdb.DuckDBPyConnection, gf: GameFilter, boards: int,
                    view_page: str | os.PathLike[str] | None) -> None:
    """The section of the games with an error: a card (board, move, legal moves) for the
    first ``boards``, each linked to its game in the viewer page ``view_page`` if given."""
    from pathlib import Path

    check = games_to_check(con, filter=gf)
    doc.h("Games to check")
    if check.empty:
        doc.p("No game has an error.")
        return
    index: dict[int, int] = {}
    if view_page is not None:
        index = _write_view(con, [int(g) for g in check["game_id"]], view_page)
    shown = check.head(boards)
    doc.p(f"{len(check)} games have an error; the first error of each"
          + (f" (boards for the first {len(shown)})" if len(check) > len(shown) else "")
          + ", with the position before the faulty move."
          + (f" Every one is in the viewer page `{Path(str(view_page)).name}`."
             if view_page is not None else ""))
    for r in shown.itertuples(index=False):
        gid = int(r.game_id)
        link = _view_link(view_page, index[gid], r.ply) if gid in index else None
        card, md = _check_card(r, link)
        doc.raw(card, md)
    doc.folded(f"all {len(check)} games with errors", check.drop(columns=["fen"]))


def _collection_tables(doc: Doc, con: duckdb.DuckDBPyConnection, gf: GameFilter, fmt: str,
                       worst: int) -> None:
    """The collection report's tables (and, in HTML, plots): results by variant, findings
    by code, the dirtiest files, games and events, game lengths."""
    from pdnkit import plots
    from pdnkit.stats.summaries import findings, lengths, results

    doc.h("Games by variant")
    doc.table(results(con, by="variant", filter=gf))
    _openings_section(doc, con, gf, worst)
    _ratings_section(doc, con, gf, fmt)
    codes = findings(con, by="code", filter=gf)
    doc.h("Findings by code")
    doc.table(codes, "No findings.")
    if fmt == "html":
        doc.figure(plots.findings_by_code(codes), "findings by code")
    doc.h(f"The {worst} dirtiest files")
    doc.table(findings(con, by="file", filter=gf).head(worst))
    doc.h(f"The {worst} games with the most problems")
    bad = findings(con, by="game", filter=gf)
    doc.table(bad.head(worst), "No game has findings.")
    doc.h("By event")
    events = findings(con, by="event", filter=gf)
    doc.table(events.head(worst * 2))
    doc.folded(f"{len(events) - worst * 2} more events", events.iloc[worst * 2:])
    _analysis_section(doc, con, gf, worst)
    if fmt == "html":
        doc.h("Game lengths")
        doc.figure(plots.length_histogram(lengths(con, filter=gf)), "game lengths")


def _analysis_section(doc: Doc, con: duckdb.DuckDBPyConnection, gf: GameFilter,
                      top: int) -> None:
    """The engine analysis, where the database holds one (``pdnkit analyse``): the games
    with the most missed shots, blunders and mistakes, and the players by accuracy."""
    from pdnkit.analysis.figures import accuracy, worst_games
    from pdnkit.store.evals import choose_key

    key = choose_key(con)
    if key is None:
        return
    games = worst_games(con, key, gf)
    doc.h(f"Engine analysis: {key.label}")
    doc.p(f"{len(games)} games analysed ({key.scale} scale: "
          + ("exact material, not positional judgement" if key.scale == "material"
             else "the engine's judgement in men") + "). A blunder loses a man or more, a "
          "mistake half a man, a missed shot lets a win of material go (`pdnkit explain "
          "blunder`); scores are White's.")
    doc.table(games.head(top).drop(columns=["game_id"]), "No game was analysed.")
    doc.folded("the players by the engine's judgement",
               accuracy(con, engine=key.label, filter=gf).drop(columns=["engine"]))


def _openings_section(doc: Doc, con: duckdb.DuckDBPyConnection, gf: GameFilter,
                      top: int) -> None:
    """The collection report's openings: the share named, the most played codes."""
    from pdnkit.stats.named import named_openings

    doc.h("Openings")
    doc.p(classified_text(con, gf))
    codes = named_openings(con, by="code", filter=gf)
    doc.table(codes[[c for c in codes.columns if c in OPENING_COLUMNS]].head(top),
              "No game reached a table's opening.")


def _ratings_section(doc: Doc, con: duckdb.DuckDBPyConnection, gf: GameFilter,
                     fmt: str) -> None:
    """The collection report's ratings: the leaders of each variant's Elo list (``pdnkit
    ratings``' defaults) and, in HTML, the ratings over time of the most active players."""
    from pdnkit import plots
    from pdnkit.stats.rating_lists import ratings

    rated = ratings(con, filter=gf.without_player())
    doc.h("Ratings")
    doc.p(f"Elo ratings from these games (K 20, everyone from 1500, by month: `pdnkit "
          f"ratings` computes Glicko-2 and other periods): {rated.note}.")
    table = rated.table.drop(columns=["start"])
    doc.table(table[table["rank"] <= 5], "No game could be rated.")  # each list's leaders
    doc.folded(f"all {len(table)} rated players", table)
    if fmt == "html" and len(table):
        doc.figure(plots.rating_history(rated.history, top=3, title="Elo ratings of the "
                                        "most active players"), "ratings over time")
