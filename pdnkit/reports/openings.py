"""The openings (ballot) report: for each variant the ballots played and which were decisive,
then the most played openings by code and by name; and the sentence both this report and the
collection report give of how many games the opening tables name.

Example:
    >>> from pdnkit.store import connect
    >>> classified_text(connect(":memory:"), GameFilter())
    'No game to name.'
"""

from __future__ import annotations

from pdnkit.reports.document import SHOWN, Doc, filters_text
from pdnkit.stats.common import first_mover_first
from pdnkit.stats.filters import DateBound, GameFilter
from pdnkit.store.session import DbLike, reading

__all__ = ["OPENING_COLUMNS", "classified_text", "openings_report"]

#: the columns of an opening table in a report
OPENING_COLUMNS = ("variant", "code", "name", "translit", "games", "black_wins", "white_wins",
                   "draws", "white_score", "black_score", "draw_rate")


def classified_text(con: DbLike, gf: GameFilter) -> str:
    """How many games the opening tables name, per variant (``gf`` chooses the games).

    >>> classified_text(":memory:", GameFilter(variant="english"))
    'No game to name.'
    """
    with reading(con) as c:
        where, params = gf.sql(con=c)
        rows = c.execute(f"""
            SELECT g.variant, count(*), count(g.opening_code), count(g.opening_name)
            FROM games g WHERE g.variant IS NOT NULL AND {where}
            GROUP BY 1 ORDER BY 2 DESC, 1""", params).fetchall()
    parts = [f"{v}: {c} of {n} games with a ballot or code, {m} with a name"
             for v, n, c, m in rows]
    return ("By position (transpositions merged): " + "; ".join(parts) + ".") if parts \
        else "No game to name."


def openings_report(
    con: DbLike = None,
    *,
    fmt: str = "md",
    top: int = 30,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    filter: GameFilter | None = None,
) -> str:
    """The openings report as Markdown or self-contained HTML: for each variant, the
    ballots played (:func:`pdnkit.stats.named.ballots`: games, wins by side, draws, the
    decisive ones; the English three-move ballots with their deck), which ballots were
    decisive, then the ``top`` openings by code and by name.

    >>> from pdnkit.store import connect
    >>> openings_report(connect(":memory:")).splitlines()[0]
    '# Openings report'
    """
    from pdnkit.stats.named import ballots, named_openings

    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    doc = Doc("Openings report")
    with reading(con) as c:
        doc.p(filters_text(gf) + " " + classified_text(c, gf))
        played = ballots(c, filter=gf)
        # White's columns first again (ballots() put Black's first for a --variant Black
        # begins), then each variant's first mover first
        cols = [c for c in played.columns if c != "view_where"]
        for side in ("wins", "score"):
            if f"white_{side}" in cols and f"black_{side}" in cols:
                i, j = cols.index(f"white_{side}"), cols.index(f"black_{side}")
                cols[min(i, j)], cols[max(i, j)] = f"white_{side}", f"black_{side}"
        for v in dict.fromkeys(played["variant"]):
            rows = first_mover_first(played.loc[played["variant"] == v, cols], [v])
            decisive = rows[rows["decisive"] > 0]
            doc.h(f"Ballots played: {v}")
            doc.p(f"{len(rows)} ballots in {int(rows['games'].sum())} games; "
                  f"{len(decisive)} produced a decisive game, {len(rows) - len(decisive)} "
                  "only draws (or results not known). Every game of a ballot counts, "
                  "whichever colour played it.")
            doc.table(rows.head(SHOWN * 4))
            doc.folded(f"{len(rows) - SHOWN * 4} more ballots", rows.iloc[SHOWN * 4:])
        if played.empty:
            doc.h("Ballots played")
            doc.p("No game of the database is a ballot of the tables.")
        for by in ("code", "name"):
            df = named_openings(c, by=by, filter=gf)
            doc.h(f"Openings by {by}")
            doc.table(df[[x for x in df.columns if x in OPENING_COLUMNS]].head(top),
                      "No game reached a table's opening.")
    return doc.html() if fmt == "html" else doc.markdown()
