"""Game endings judged by the endgame databases, over a pdnkit database.

:func:`egdb_verdicts` reads the main-line positions of every game whose final position the
built databases (``$PDNKIT_EGDB`` or the per-user cache, or ``directory``) can hold, and
judges them as validate and import do (:func:`pdnkit.egdb.verdicts.judge_line`): computed
here from the stored positions, so a database imported before the endgame databases were
built is judged too. :func:`egdb_coverage` says, per variant and number of pieces, how many
games end within reach of databases of that size, whether those are built and the command
that builds them.

Example:
    >>> from pdnkit.store import connect
    >>> egdb_verdicts(connect(":memory:")).empty, egdb_coverage(connect(":memory:")).empty
    (True, True)
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from pdnkit.stats.common import OUTCOME_SQL, frame
from pdnkit.stats.filters import DateBound, GameFilter
from pdnkit.store.session import DbLike, reading

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from pdnkit.egdb.prober import Egdb
    from pdnkit.rules.variants import Rules

__all__ = ["COVERAGE_COLUMNS", "VERDICT_COLUMNS", "egdb_coverage", "egdb_verdicts"]

VERDICT_COLUMNS = ("game_id", "file", "game_index", "line", "variant", "event", "white",
                   "black", "result", "code", "ply", "move", "fen", "best_moves", "message")
COVERAGE_COLUMNS = ("variant", "pieces", "games", "built", "command")
_PIECES = ("bit_count(p.wm | p.wk | p.bm | p.bk) + coalesce(bit_count(p.wm_high | p.wk_high "
           "| p.bm_high | p.bk_high), 0)")
#: the most pieces the coverage table looks at
COVERAGE_MAX = 6


def _final_pieces(con: Any, where: str, params: list[Any]) -> pd.DataFrame:
    """Per game: its variant, outcome, result and the pieces of its last stored position."""
    return frame(con, f"""
        WITH last AS (SELECT game_id, max(ply) AS ply FROM position_bits GROUP BY game_id)
        SELECT g.game_id, g.variant, g.edition, {_PIECES} AS pieces
        FROM last JOIN position_bits p USING (game_id, ply) JOIN games g USING (game_id)
        WHERE {where}""", params)


def _databases(variant: str, edition: str | None,
               directory: str | os.PathLike[str] | None) -> tuple[Rules | None, Egdb | None,
                                                                    int]:
    from pdnkit.egdb.files import EgdbError
    from pdnkit.egdb.prober import Egdb
    from pdnkit.rules.variants import UnknownVariantError, get_rules

    try:
        rules = get_rules(variant, edition if isinstance(edition, str) and edition else None)
    except UnknownVariantError:
        try:
            rules = get_rules(variant)
        except UnknownVariantError:
            return None, None, 0
    try:
        db = Egdb(rules, directory)
    except EgdbError:
        return rules, None, 0
    return rules, db, db.built_pieces()


def egdb_coverage(con: DbLike = None, *, directory: str | os.PathLike[str] | None = None,
                  variant: str | None = None, event: str | None = None,
                  player: str | None = None, date_from: DateBound = None,
                  date_to: DateBound = None, filter: GameFilter | None = None) -> pd.DataFrame:
    """Per variant and number of pieces (up to :data:`COVERAGE_MAX`, each size that reaches
    more games than the one below): ``games`` whose final position has at most that many
    pieces, whether databases of that size are ``built`` for
    the variant (every signature of that many pieces: ``pdnkit egdb info``), and the
    ``command`` that builds them. Filters as in :mod:`pdnkit.stats`.
    """
    import pandas as pd

    where, params = GameFilter.of(filter, variant=variant, event=event, player=player,
                                  date_from=date_from, date_to=date_to).sql()
    with reading(con) as c:
        df = _final_pieces(c, where, params)
    rows = []
    for variant, part in df.groupby("variant", sort=True):
        rules, db, _ = _databases(str(variant), part["edition"].iloc[0], directory)
        if rules is None or rules.king_move_limit:
            continue
        complete = db.complete_pieces() if db is not None else 0
        where_to = f" --dir {directory}" if directory is not None else ""
        before = 0
        for n in range(1, COVERAGE_MAX + 1):
            games = int((part["pieces"] <= n).sum())
            if games > before:  # only the sizes that reach more games
                before = games
                rows.append((rules.name, n, games, n <= complete,
                             f"pdnkit egdb build {rules.name} --pieces {n}{where_to}"))
    out = pd.DataFrame(rows, columns=list(COVERAGE_COLUMNS))
    return out.astype({"pieces": "int64", "games": "int64", "built": "bool"})


def _position(rules: Rules, row: tuple[Any, ...]) -> Any:
    """The position of a ``position_bits`` row ``(black, wm, wk, bm, bk, wm_high, ...)``."""
    from pdnkit.rules.position import Position

    def sq(lo: int, hi: int | None) -> list[int]:
        x = int(lo) | (int(hi) << 64 if hi is not None else 0)
        return [n for n in range(1, x.bit_length() + 1) if x >> (n - 1) & 1]

    black, wm, wk, bm, bk, wmh, wkh, bmh, bkh = row
    return Position.from_squares(rules, "B" if black else "W", sq(wm, wmh), sq(wk, wkh),
                                 sq(bm, bmh), sq(bk, bkh))


def _draw_of(con: Any, game: Any, rules: Rules) -> Any:
    from pdnkit.egdb.verdicts import DrawByRule

    if game.outcome != "draw" or not isinstance(game.draw_basis, str):
        return None
    if {r.name: r.kind for r in rules.draw_rules}.get(game.draw_basis) != "counter":
        return None
    got = con.execute("SELECT rule, article, start_ply, limit_plies, reached_ply FROM "
                      "rule_events WHERE game_id = ? AND rule = ? AND reached_ply IS NOT NULL "
                      "AND limit_plies IS NOT NULL ORDER BY reached_ply LIMIT 1",
                      [int(game.game_id), game.draw_basis]).fetchone()
    return DrawByRule(*got) if got else None


def _judge_game(con: Any, game: Any, rules: Rules, db: Egdb,
                pieces: int) -> list[dict[str, Any]]:
    from pdnkit.egdb.verdicts import judge_line

    plies = con.execute(f"""
        SELECT p.ply, p.black, p.wm, p.wk, p.bm, p.bk, p.wm_high, p.wk_high, p.bm_high,
               p.bk_high
        FROM position_bits p WHERE p.game_id = ? AND {_PIECES} <= ? ORDER BY p.ply""",
                        [int(game.game_id), pieces]).fetchall()
    line = [(int(r[0]), _position(rules, r[1:])) for r in plies]
    if not line:
        return []
    moves = dict(con.execute("SELECT ply, notation FROM moves WHERE game_id = ?",
                             [int(game.game_id)]).fetchall())
    last = int(game.replayed_plies or 0)
    out = []
    for v in judge_line(db, line, outcome=game.outcome, final_ply=last,
                        complete=last == int(game.plies or 0), draw=_draw_of(con, game, rules)):
        from pdnkit.rules.fen import write_fen

        on_final = v.code == "result-vs-egdb"
        out.append({"game_id": int(game.game_id), "code": v.code, "ply": v.ply,
                    "move": None if on_final else moves.get(v.ply),
                    "fen": write_fen(v.position), "best_moves": v.details.get("best_moves"),
                    "message": v.message})
    return out


def egdb_verdicts(con: DbLike = None, *, directory: str | os.PathLike[str] | None = None,
                  variant: str | None = None, event: str | None = None,
                  player: str | None = None, date_from: DateBound = None,
                  date_to: DateBound = None, filter: GameFilter | None = None) -> pd.DataFrame:
    """The endgame databases' verdicts on the games (see the module's text): one row per
    verdict, columns :data:`VERDICT_COLUMNS` (``fen``: the position before the move judged,
    or the final position for ``result-vs-egdb``; ``best_moves``: the moves that keep the
    value there). Filters as in :mod:`pdnkit.stats`.
    """
    import pandas as pd

    where, params = GameFilter.of(filter, variant=variant, event=event, player=player,
                                  date_from=date_from, date_to=date_to).sql()
    rows: list[dict[str, Any]] = []
    with reading(con) as c:
        finals = _final_pieces(c, where, params)
        for (variant, edition), part in finals.groupby(["variant", "edition"], dropna=False,
                                                       sort=True):
            rules, db, pieces = _databases(str(variant), edition, directory)
            ids = [int(x) for x in part.loc[part["pieces"] <= pieces, "game_id"]]
            if rules is None or db is None or not ids:
                continue
            games = c.execute(f"""
                SELECT g.game_id, fl.path AS file, g.game_index, g.line, g.variant, g.event,
                       g.white, g.black, g.result, {OUTCOME_SQL} AS outcome, g.draw_basis,
                       g.plies, g.replayed_plies
                FROM games g LEFT JOIN files fl ON fl.file_id = g.file_id
                WHERE g.game_id IN (SELECT unnest(?::BIGINT[])) ORDER BY g.game_id""",
                              [ids]).df()
            for game in games.itertuples(index=False):
                for row in _judge_game(c, game, rules, db, pieces):
                    rows.append({**game._asdict(), **row})
    df = pd.DataFrame(rows, columns=[*VERDICT_COLUMNS, "outcome"])
    return df[list(VERDICT_COLUMNS)]
