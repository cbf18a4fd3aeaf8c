"""Crosstables: the players of an event against each other, ranked by points.

Example:
    >>> from pdnkit.store import connect
    >>> crosstable(connect(":memory:"), event="x").empty
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from pdnkit.errors import ArgumentError
from pdnkit.stats.common import OUTCOME_SQL
from pdnkit.stats.filters import DateBound, GameFilter
from pdnkit.store.session import DbLike, reading

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["TWO_POINT_RESULTS", "crosstable"]

#: results written with two points for a win (RULES.md 1.6: the international result type)
TWO_POINT_RESULTS = ("2-0", "0-2", "1-1")


def crosstable(
    db: DbLike = None,
    *,
    event: str | None = None,
    variant: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    scoring: str = "auto",
    filter: GameFilter | None = None,
) -> pd.DataFrame:
    """Players x players of an event (``event``: case-insensitive substring), ranked by
    points: ``rank``, ``player``, ``games``, ``wins``, ``draws``, ``losses``, ``points``,
    ``opp_rating`` and ``performance`` (below), then one column per opponent (by rank: ``1``, ``2`` ...) with the points scored in each
    game against them (``x`` on the diagonal). ``scoring`` is ``2`` (2 for a win, 1 for a
    draw: the international result type, used where the event's results are written
    ``2-0``/``1-1``/``0-2``), ``1`` (1 and 1/2) or ``auto`` (``2`` when the event's file
    writes two-point results). Players are identities (aliases merged, placeholder names
    and games without a decided or drawn result left out).

    ``performance`` is the player's performance rating in the event by the table method
    of the FIDE Rating Regulations (:func:`pdnkit.stats.rating_systems.performance_of`):
    ``opp_rating``, the average rating of the opponents as the games' rating tags give it
    (``WhiteElo``, ``BlackRating`` ...), plus the rating difference of the score against
    them (a win 1, a draw 1/2, whatever ``scoring``); games against an opponent without a
    rating tag do not count in either; empty where no opponent was rated.

    Example:
        >>> from pdnkit.store import connect
        >>> crosstable(connect(":memory:"), event="x").empty
        True
    """
    import pandas as pd

    if scoring not in ("auto", "1", "2"):
        raise ArgumentError("scoring must be auto, 1 or 2")
    gf = GameFilter.of(filter, variant=variant, event=event, date_from=date_from,
                       date_to=date_to)
    with reading(db) as con:
        where, params = gf.sql(con=con)
        rows: list[_Game] = con.execute(rf"""
            SELECT player_name(g.white) AS w, player_name(g.black) AS b,
                   {OUTCOME_SQL} AS oc, g.result_raw, g.white_rating, g.black_rating
            FROM games g WHERE {where}
            -- a cell lists its games in the order they were played, whatever the order
            -- of import: by date, round (its number first), then what the game is
            ORDER BY g.date_first NULLS LAST, g.date_last NULLS LAST,
                     TRY_CAST(regexp_extract(g.round, '^\s*(\d+)', 1) AS INTEGER) NULLS LAST,
                     g.round NULLS LAST, w NULLS LAST, b NULLS LAST, oc, g.result_raw NULLS LAST,
                     g.moves_hash NULLS LAST, g.game_id""", params).fetchall()
    games = [r for r in rows if r[0] and r[1] and r[0] != r[1]
             and r[2] in ("white", "black", "draw")]
    if scoring == "auto":
        two = any((r[3] or "").strip() in TWO_POINT_RESULTS for r in games)
    else:
        two = scoring == "2"
    out = _rows(games, *((2.0, 1.0) if two else (1.0, 0.5)))
    if not out:
        return pd.DataFrame(columns=["rank", "player", "games", "wins", "draws", "losses",
                                     "points", "opp_rating", "performance"])
    df = pd.DataFrame(out)
    df["opp_rating"] = df["opp_rating"].astype("Int64")
    df["performance"] = df["performance"].astype("Int64")
    return df


#: a game of a crosstable: White's player, Black's, the outcome, the result as written, the
#: players' rating tags
_Game: TypeAlias = "tuple[str | None, str | None, str, str | None, int | None, int | None]"


def _points(x: float) -> str:
    """Points as a crosstable writes them: ``1``, ``½``, ``2``."""
    return str(int(x)) if x == int(x) else ("½" if x == 0.5 else f"{x:g}")


def _rows(games: list[_Game], win: float, draw: float
          ) -> list[dict[str, str | int | float | None]]:
    """The crosstable's rows, ranked by points, then wins, then name."""
    from pdnkit.stats.rating_systems import performance_rating

    tally: dict[str, list[float]] = {}
    cells: dict[tuple[str, str], list[float]] = {}
    rated: dict[str, list[tuple[float, float]]] = {}  # (opponent's rating tag, score)
    for w, b, oc, _, wr, br in games:
        pw = win if oc == "white" else draw if oc == "draw" else 0.0
        pb = win if oc == "black" else draw if oc == "draw" else 0.0
        for me, other, pts, opp in ((str(w), str(b), pw, br), (str(b), str(w), pb, wr)):
            t = tally.setdefault(me, [0, 0, 0, 0, 0.0])
            t[0] += 1
            t[1 if pts == win else 2 if pts == draw else 3] += 1
            t[4] += pts
            cells.setdefault((me, other), []).append(pts)
            if opp is not None and opp > 0:
                rated.setdefault(me, []).append((float(opp), pts / win))
    order = sorted(tally, key=lambda p: (-tally[p][4], -tally[p][1], p))
    out = []
    for i, p in enumerate(order, 1):
        n, won, drawn, lost, pts = tally[p]
        opps = rated.get(p, [])
        row: dict[str, str | int | float | None] = {
            "rank": i, "player": p, "games": int(n), "wins": int(won), "draws": int(drawn),
            "losses": int(lost), "points": pts,
            "opp_rating": round(sum(r for r, _ in opps) / len(opps)) if opps else None,
            "performance": performance_rating([r for r, _ in opps], sum(s for _, s in opps))}
        for j, q in enumerate(order, 1):
            row[str(j)] = "x" if p == q else " ".join(_points(x) for x in cells.get((p, q), []))
        out.append(row)
    return out
