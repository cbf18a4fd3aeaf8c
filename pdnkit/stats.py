"""Statistics over a pdnkit database: openings, players, results, lengths, findings, trees.

Every function takes a DuckDB connection (or a database path, opened with
:func:`pdnkit.store.connect`) and returns a :class:`pandas.DataFrame`. Results are read
from ``games.outcome`` (``white``/``black``/``draw``/``unknown``, falling back to the
normalised ``result``); scores are White's percentage of the decided-or-drawn games
(a win is 1, a draw 1/2; games without a known result are counted in ``games`` and
``unknown`` but not in the score).

Common filters (keyword arguments of every function that reads games):

* ``variant`` -- canonical variant name (``"international"``, ``"russian"`` ...);
* ``event`` -- case-insensitive substring of the Event tag;
* ``player`` -- case-insensitive substring of the White or Black name;
* ``date_from`` / ``date_to`` -- ``"YYYY"``, ``"YYYY-MM"`` or ``"YYYY-MM-DD"`` (inclusive);
  games with only a year are compared by their year, games without a date are left out;
* ``min_games`` -- drop rows with fewer games (where a row aggregates games).

Example:
    >>> from pdnkit.stats import _memory_db, openings
    >>> con = _memory_db()            # an empty database with the pdnkit schema
    >>> openings(con, plies=2).empty
    True
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pdnkit.tables.bitboards import bits_literal, bits_source

if TYPE_CHECKING:  # pragma: no cover
    import duckdb
    import pandas as pd

__all__ = [
    "STAT_KINDS",
    "VERDICTS",
    "endgame_rules",
    "endgame_summary",
    "verdict",
    "findings",
    "lengths",
    "openings",
    "players",
    "positions_at",
    "results",
    "square_counts",
    "stats",
    "tree",
]

#: the kinds ``pdnkit stats KIND`` accepts
STAT_KINDS = ("openings", "players", "results", "lengths", "findings")

#: SQL expression: the outcome of game alias ``g`` (white | black | draw | unknown)
OUTCOME_SQL = (
    "coalesce(nullif(g.outcome, ''), CASE g.result WHEN '1-0' THEN 'white' "
    "WHEN '0-1' THEN 'black' WHEN '1/2-1/2' THEN 'draw' ELSE 'unknown' END)"
)

_SCHEMA = Path(__file__).resolve().parent / "store" / "schema.sql"


# --------------------------------------------------------------------------------------
# connections and filters
# --------------------------------------------------------------------------------------


def _memory_db() -> duckdb.DuckDBPyConnection:
    """An empty in-memory database with the pdnkit schema (for examples and tests).

    >>> _memory_db().execute("SELECT count(*) FROM games").fetchone()[0]
    0
    """
    import duckdb

    con = duckdb.connect(":memory:")
    con.execute(_SCHEMA.read_text(encoding="utf-8"))
    return con


def _con(db: Any) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection from a connection, a path or ``None`` (the default database)."""
    from pdnkit.players import ensure_names

    if db is None or isinstance(db, (str, Path)):
        from pdnkit.store import connect

        if str(db) == ":memory:":
            return connect(db)
        con = connect(db, read_only=True)
    else:
        con = db
    ensure_names(con)  # player identities (aliases) for every statistic
    return con


def _parse_bound(value: str | _dt.date | int | None, upper: bool) -> _dt.date | None:
    """``"2020"`` -> 2020-01-01 (or 2020-12-31 as an upper bound); full dates as given."""
    if value is None or value == "":
        return None
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    text = str(value).strip().replace(".", "-").replace("/", "-")
    m = re.fullmatch(r"(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?", text)
    if not m:
        raise ValueError(f"date must be YYYY, YYYY-MM or YYYY-MM-DD, got {value!r}")
    year = int(m.group(1))
    month = int(m.group(2)) if m.group(2) else (12 if upper else 1)
    if m.group(3):
        day = int(m.group(3))
    elif upper:
        nxt = _dt.date(year + (month == 12), month % 12 + 1, 1)
        day = (nxt - _dt.timedelta(days=1)).day
    else:
        day = 1
    return _dt.date(year, month, day)


def _game_filters(
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: str | _dt.date | int | None = None,
    date_to: str | _dt.date | int | None = None,
    *,
    alias: str = "g",
) -> tuple[str, list[Any]]:
    """SQL condition (``TRUE`` when empty) and parameters for the common game filters."""
    a = alias
    clauses: list[str] = []
    params: list[Any] = []
    if variant:
        clauses.append(f"lower({a}.variant) = lower(?)")
        params.append(variant)
    if event:
        clauses.append(f"{a}.event ILIKE ?")
        params.append(f"%{event}%")
    if player:  # the names as written, or the players they stand for (aliases)
        clauses.append(f"({a}.white ILIKE ? OR {a}.black ILIKE ? "
                       f"OR player_name({a}.white) ILIKE ? OR player_name({a}.black) ILIKE ?)")
        params += [f"%{player}%"] * 4
    lo = _parse_bound(date_from, upper=False)
    hi = _parse_bound(date_to, upper=True)
    if lo is not None:
        clauses.append(f"coalesce({a}.date, make_date({a}.year, 12, 31)) >= ?")
        params.append(lo)
    if hi is not None:
        clauses.append(f"coalesce({a}.date, make_date({a}.year, 1, 1)) <= ?")
        params.append(hi)
    return (" AND ".join(clauses) or "TRUE"), params


def _df(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[Any] = ()) -> pd.DataFrame:
    return con.execute(sql, list(params)).df()


def _result_columns(oc: str = "oc") -> str:
    """Aggregate SQL columns: games, white_wins, draws, black_wins, unknown, white_score."""
    return (
        "count(*)::BIGINT AS games, "
        f"count(*) FILTER (WHERE {oc} = 'white')::BIGINT AS white_wins, "
        f"count(*) FILTER (WHERE {oc} = 'draw')::BIGINT AS draws, "
        f"count(*) FILTER (WHERE {oc} = 'black')::BIGINT AS black_wins, "
        f"count(*) FILTER (WHERE {oc} NOT IN ('white', 'draw', 'black'))::BIGINT AS unknown, "
        f"round(100.0 * (count(*) FILTER (WHERE {oc} = 'white') "
        f"+ 0.5 * count(*) FILTER (WHERE {oc} = 'draw')) "
        f"/ nullif(count(*) FILTER (WHERE {oc} IN ('white', 'draw', 'black')), 0), 1) "
        "AS white_score"
    )


def score(wins: float, draws: float, losses: float) -> float | None:
    """Score percentage: a win counts 1, a draw 1/2; ``None`` without games.

    >>> score(2, 1, 1)
    62.5
    >>> score(0, 0, 0) is None
    True
    """
    n = wins + draws + losses
    return None if n == 0 else round(100.0 * (wins + 0.5 * draws) / n, 1)


# --------------------------------------------------------------------------------------
# openings
# --------------------------------------------------------------------------------------


def openings(
    con: Any = None,
    *,
    plies: int = 4,
    by: str = "moves",
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: str | _dt.date | int | None = None,
    date_to: str | _dt.date | int | None = None,
    min_games: int = 1,
) -> pd.DataFrame:
    """Opening statistics over the first ``plies`` half-moves.

    ``by="moves"`` groups by the move sequence (canonical notation, the move as written
    where replay failed); ``by="position"`` groups by the position key after ``plies``
    half-moves, so transpositions merge (``sequences`` counts the move orders merged,
    ``moves`` shows the most frequent one). Games that start from a set-up position
    (a FEN other than the variant's initial position: ``games.start_is_initial``) and games
    shorter than ``plies`` are not counted.

    Columns: ``variant``, ``opening`` (the move sequence), [``position_key``, ``fen``,
    ``sequences``], ``games``, ``white_wins``, ``draws``, ``black_wins``, ``unknown``,
    ``white_score`` (%), ``avg_plies``.

    >>> con = _memory_db()
    >>> list(openings(con, plies=2).columns)[:4]
    ['variant', 'opening', 'games', 'white_wins']
    """
    if plies < 1:
        raise ValueError("plies must be at least 1")
    if by not in ("moves", "position"):
        raise ValueError("by must be 'moves' or 'position'")
    con = _con(con)
    where, params = _game_filters(variant, event, player, date_from, date_to)
    base = f"""
        WITH g AS (
            SELECT g.game_id, g.variant, g.plies, {OUTCOME_SQL} AS oc
            FROM games g WHERE coalesce(g.start_is_initial, g.fen IS NULL) AND {where}
        ),
        seq AS (
            SELECT m.game_id,
                   string_agg(coalesce(m.canonical, m.notation), ' ' ORDER BY m.ply) AS opening,
                   count(*) AS n
            FROM moves m JOIN g USING (game_id)
            WHERE m.ply <= ?
            GROUP BY m.game_id
        )
    """
    params = params + [plies]
    if by == "moves":
        sql = base + f"""
            SELECT g.variant, seq.opening, {_result_columns()},
                   round(avg(g.plies), 1) AS avg_plies
            FROM seq JOIN g USING (game_id)
            WHERE seq.n = ?
            GROUP BY g.variant, seq.opening
            HAVING count(*) >= ?
            ORDER BY games DESC, g.variant, seq.opening
        """
        return _df(con, sql, params + [plies, min_games])
    sql = base + f"""
        SELECT g.variant, mode(seq.opening) AS opening, any_value(p.position_key) AS position_key,
               any_value(p.fen) AS fen, count(DISTINCT seq.opening)::BIGINT AS sequences,
               {_result_columns()}, round(avg(g.plies), 1) AS avg_plies
        FROM seq JOIN g USING (game_id)
        JOIN positions p ON p.game_id = g.game_id AND p.ply = ?
        WHERE seq.n = ?
        GROUP BY g.variant, p.black, p.wm, p.wk, p.bm, p.bk
        HAVING count(*) >= ?
        ORDER BY games DESC, g.variant, opening
    """
    return _df(con, sql, params + [plies, plies, min_games])


# --------------------------------------------------------------------------------------
# players, results, lengths
# --------------------------------------------------------------------------------------


def players(
    con: Any = None,
    *,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: str | _dt.date | int | None = None,
    date_to: str | _dt.date | int | None = None,
    min_games: int = 1,
) -> pd.DataFrame:
    """Per-player record: games, wins/draws/losses as White and as Black, score, dates.

    ``player`` here selects players (substring of the name), not games. Players are
    identities: aliases (``pdnkit players alias``) are merged under the player's name, and
    placeholder names (``White``, ``Black``, ``Red``, ``?``, empty ...) are left out. Columns: ``player``, ``games``, ``wins``, ``draws``,
    ``losses``, ``unknown``, ``score`` (%), ``white_games``, ``white_wins``,
    ``white_draws``, ``white_losses``, ``black_games``, ``black_wins``, ``black_draws``,
    ``black_losses``, ``first_date``, ``last_date`` (full dates only), ``first_year``,
    ``last_year``.

    >>> players(_memory_db()).empty
    True
    """
    con = _con(con)
    where, params = _game_filters(variant, event, None, date_from, date_to)
    pwhere = "TRUE"
    if player:
        pwhere = "s.player ILIKE ?"
        params = params + [f"%{player}%"]
    sql = f"""
        WITH g AS (
            SELECT g.*, {OUTCOME_SQL} AS oc FROM games g WHERE {where}
        ),
        s AS (
            SELECT player_name(white) AS player, 'W' AS colour,
                   CASE oc WHEN 'white' THEN 'win' WHEN 'black' THEN 'loss'
                           WHEN 'draw' THEN 'draw' ELSE 'unknown' END AS r,
                   date, year FROM g
            UNION ALL
            SELECT player_name(black), 'B',
                   CASE oc WHEN 'black' THEN 'win' WHEN 'white' THEN 'loss'
                           WHEN 'draw' THEN 'draw' ELSE 'unknown' END,
                   date, year FROM g
        )
        SELECT player, count(*)::BIGINT AS games,
               count(*) FILTER (WHERE r = 'win')::BIGINT AS wins,
               count(*) FILTER (WHERE r = 'draw')::BIGINT AS draws,
               count(*) FILTER (WHERE r = 'loss')::BIGINT AS losses,
               count(*) FILTER (WHERE r = 'unknown')::BIGINT AS unknown,
               round(100.0 * (count(*) FILTER (WHERE r = 'win')
                     + 0.5 * count(*) FILTER (WHERE r = 'draw'))
                     / nullif(count(*) FILTER (WHERE r <> 'unknown'), 0), 1) AS score,
               count(*) FILTER (WHERE colour = 'W')::BIGINT AS white_games,
               count(*) FILTER (WHERE colour = 'W' AND r = 'win')::BIGINT AS white_wins,
               count(*) FILTER (WHERE colour = 'W' AND r = 'draw')::BIGINT AS white_draws,
               count(*) FILTER (WHERE colour = 'W' AND r = 'loss')::BIGINT AS white_losses,
               count(*) FILTER (WHERE colour = 'B')::BIGINT AS black_games,
               count(*) FILTER (WHERE colour = 'B' AND r = 'win')::BIGINT AS black_wins,
               count(*) FILTER (WHERE colour = 'B' AND r = 'draw')::BIGINT AS black_draws,
               count(*) FILTER (WHERE colour = 'B' AND r = 'loss')::BIGINT AS black_losses,
               min(date) AS first_date, max(date) AS last_date,
               min(year) AS first_year, max(year) AS last_year
        FROM s
        WHERE player IS NOT NULL AND {pwhere}
        GROUP BY player
        HAVING count(*) >= ?
        ORDER BY games DESC, score DESC NULLS LAST, player
    """
    return _df(con, sql, params + [min_games])


_RESULT_GROUPS = {"variant": "g.variant", "event": "g.event", "year": "g.year"}


def results(
    con: Any = None,
    *,
    by: str | Sequence[str] = "variant",
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: str | _dt.date | int | None = None,
    date_to: str | _dt.date | int | None = None,
    min_games: int = 1,
) -> pd.DataFrame:
    """Results grouped by ``variant``, ``event`` and/or ``year`` (``by="variant,year"``).

    Columns: the grouping columns, ``games``, ``white_wins``, ``draws``, ``black_wins``,
    ``unknown``, ``white_score`` (%), ``draw_rate`` (% of games with a known result),
    ``avg_plies``.

    >>> results(_memory_db(), by="year").empty
    True
    """
    keys = [k.strip() for k in (by.split(",") if isinstance(by, str) else by) if k.strip()]
    bad = [k for k in keys if k not in _RESULT_GROUPS]
    if not keys or bad:
        raise ValueError(f"by must name some of {sorted(_RESULT_GROUPS)}, got {by!r}")
    con = _con(con)
    where, params = _game_filters(variant, event, player, date_from, date_to)
    cols = ", ".join(f"{_RESULT_GROUPS[k]} AS {k}" for k in keys)
    grp = ", ".join(_RESULT_GROUPS[k] for k in keys)
    sql = f"""
        WITH g AS (SELECT g.*, {OUTCOME_SQL} AS oc FROM games g WHERE {where})
        SELECT {cols}, {_result_columns()},
               round(100.0 * count(*) FILTER (WHERE oc = 'draw')
                     / nullif(count(*) FILTER (WHERE oc IN ('white', 'draw', 'black')), 0), 1)
                     AS draw_rate,
               round(avg(g.plies), 1) AS avg_plies
        FROM g
        GROUP BY {grp}
        HAVING count(*) >= ?
        ORDER BY {", ".join(f"{k} NULLS LAST" for k in keys)}
    """
    return _df(con, sql, params + [min_games])


def lengths(
    con: Any = None,
    *,
    bin_width: int = 10,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: str | _dt.date | int | None = None,
    date_to: str | _dt.date | int | None = None,
) -> pd.DataFrame:
    """Distribution of game lengths (plies in the main line) per variant.

    Rows are bins ``[plies_from, plies_to)`` of width ``bin_width``; ``games`` counts the
    games in the bin and ``share`` is their percentage within the variant. Empty bins
    between the shortest and the longest game are listed with 0 games.

    >>> lengths(_memory_db()).empty
    True
    """
    if bin_width < 1:
        raise ValueError("bin_width must be at least 1")
    con = _con(con)
    where, params = _game_filters(variant, event, player, date_from, date_to)
    sql = f"""
        WITH g AS (
            SELECT g.variant, (g.plies // ?) * ? AS lo
            FROM games g WHERE g.plies IS NOT NULL AND {where}
        ),
        span AS (SELECT variant, min(lo) AS a, max(lo) AS b, count(*) AS total
                 FROM g GROUP BY variant),
        bins AS (SELECT span.variant, unnest(range(span.a, span.b + 1, ?)) AS lo, total
                 FROM span)
        SELECT bins.variant, bins.lo::INTEGER AS plies_from, (bins.lo + ?)::INTEGER AS plies_to,
               count(g.lo)::BIGINT AS games,
               round(100.0 * count(g.lo) / any_value(bins.total), 1) AS share
        FROM bins LEFT JOIN g ON g.variant IS NOT DISTINCT FROM bins.variant AND g.lo = bins.lo
        GROUP BY bins.variant, bins.lo
        ORDER BY bins.variant NULLS LAST, bins.lo
    """
    return _df(con, sql, [bin_width, bin_width] + params + [bin_width, bin_width])


# --------------------------------------------------------------------------------------
# findings
# --------------------------------------------------------------------------------------

_STATUS_COLUMNS = (
    "count(*)::BIGINT AS games, "
    "count(*) FILTER (WHERE g.status = 'ok')::BIGINT AS ok, "
    "count(*) FILTER (WHERE g.status = 'warning')::BIGINT AS warning, "
    "count(*) FILTER (WHERE g.status = 'error')::BIGINT AS error, "
    "count(*) FILTER (WHERE g.status = 'unparsed')::BIGINT AS unparsed, "
    "round(100.0 * count(*) FILTER (WHERE g.status = 'ok') / nullif(count(*), 0), 1) "
    "AS clean_share"
)


def findings(
    con: Any = None,
    *,
    by: str = "code",
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: str | _dt.date | int | None = None,
    date_to: str | _dt.date | int | None = None,
    min_games: int = 1,
) -> pd.DataFrame:
    """Findings by ``code``, ``file``, ``event`` or ``game``: which sources are dirty.

    * ``by="code"``: one row per code and severity (a code whose findings were stored with
      different severities, e.g. an ``ambiguous-move`` error and warnings, has a row for
      each): ``code``, ``severity``, ``findings``, ``games`` (games with the code at that
      severity), ``files``, ``summary`` (from the code registry);
    * ``by="file"`` / ``by="event"``: ``path`` or ``event``, ``games``, game counts per
      status (``ok``, ``warning``, ``error``, ``unparsed``), ``clean_share`` (% ok),
      ``findings``, ``errors``, ``warnings``, ``infos``; dirtiest first;
    * ``by="game"``: one row per game with findings (``game_id``, ``path``,
      ``game_index``, ``white``, ``black``, ``status``, counts, ``codes``); worst first.

    File-level findings (no game) count for ``code`` and ``file`` unless a game filter is
    given. ``min_games`` applies to the ``file`` and ``event`` rows.

    >>> findings(_memory_db(), by="file").empty
    True
    """
    con = _con(con)
    where, params = _game_filters(variant, event, player, date_from, date_to)
    filtered = where != "TRUE"
    fcount = (
        "count(f.code)::BIGINT AS findings, "
        "count(f.code) FILTER (WHERE f.severity = 'error')::BIGINT AS errors, "
        "count(f.code) FILTER (WHERE f.severity = 'warning')::BIGINT AS warnings, "
        "count(f.code) FILTER (WHERE f.severity = 'info')::BIGINT AS infos"
    )
    if by == "code":
        gcond = f"(f.game_id IS NOT NULL AND {where})" if filtered else "TRUE"
        sql = f"""
            SELECT f.code, f.severity,
                   count(*)::BIGINT AS findings,
                   count(DISTINCT f.game_id)::BIGINT AS games,
                   count(DISTINCT f.file_id)::BIGINT AS files
            FROM findings f LEFT JOIN games g ON g.game_id = f.game_id
            WHERE {gcond}
            GROUP BY f.code, f.severity
            ORDER BY findings DESC, f.code,
                     CASE f.severity WHEN 'error' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END
        """
        df = _df(con, sql, params if filtered else [])
        from pdnkit.findings import CODES

        df["summary"] = [CODES[c].summary if c in CODES else "" for c in df["code"]]
        return df
    if by in ("file", "event"):
        key = "fl.path" if by == "file" else "g.event"
        name = "path" if by == "file" else "event"
        joinfile = "JOIN files fl ON fl.file_id = g.file_id" if by == "file" else ""
        sql = f"""
            WITH g AS (SELECT g.* FROM games g WHERE {where}),
            st AS (
                SELECT {key} AS {name}, {_STATUS_COLUMNS}
                FROM g {joinfile} GROUP BY {key}
            ),
            fc AS (
                SELECT {key} AS {name}, {fcount}
                FROM findings f
                {"JOIN files fl ON fl.file_id = f.file_id LEFT JOIN g ON g.game_id = f.game_id"
                 if by == "file" else "JOIN g ON g.game_id = f.game_id"}
                WHERE {"f.game_id IS NULL OR g.game_id IS NOT NULL" if by == "file"
                       and not filtered else "g.game_id IS NOT NULL"}
                GROUP BY {key}
            )
            SELECT st.*, coalesce(fc.findings, 0)::BIGINT AS findings,
                   coalesce(fc.errors, 0)::BIGINT AS errors,
                   coalesce(fc.warnings, 0)::BIGINT AS warnings,
                   coalesce(fc.infos, 0)::BIGINT AS infos
            FROM st LEFT JOIN fc ON st.{name} IS NOT DISTINCT FROM fc.{name}
            WHERE st.games >= ?
            ORDER BY st.clean_share ASC NULLS LAST, errors DESC, st.{name}
        """
        return _df(con, sql, params + [min_games])
    if by == "game":
        sql = f"""
            SELECT g.game_id, fl.path, g.game_index, g.line, g.event, g.white, g.black,
                   g.status, {fcount},
                   string_agg(DISTINCT f.code, ', ' ORDER BY f.code) AS codes
            FROM games g JOIN findings f ON f.game_id = g.game_id
            JOIN files fl ON fl.file_id = g.file_id
            WHERE {where}
            GROUP BY ALL
            ORDER BY errors DESC, warnings DESC, findings DESC, g.game_id
        """
        return _df(con, sql, params)
    raise ValueError("by must be 'code', 'file', 'event' or 'game'")


# --------------------------------------------------------------------------------------
# positions and the opening tree
# --------------------------------------------------------------------------------------

_MOVE_NUMBER = re.compile(r"^\d+\.+")


def _move_tokens(moves: str | Sequence[str]) -> list[str]:
    """Split a move sequence, dropping move numbers: ``"1. 32-28 19-23"`` -> two moves.

    >>> _move_tokens("1. 32-28 19-23 2.37-32")
    ['32-28', '19-23', '37-32']
    """
    raw = moves.split() if isinstance(moves, str) else list(moves)
    out = []
    for tok in raw:
        tok = _MOVE_NUMBER.sub("", tok.strip())
        if tok and tok not in ("...", "..") and not re.fullmatch(r"\d+\.*", tok):
            out.append(tok.lower())
    return out


#: a position as the database stores it: (variant, Black to move, (wm, wk, bm, bk))
StoredPosition = tuple[str, bool, tuple[int, int, int, int]]


def _engine_positions(variants: list[str], fen: str | None, tokens: list[str]
                 ) -> tuple[list[StoredPosition], list[tuple[int, str, str]]]:
    """Positions computed by the rules engine (FEN, or moves from the start), and for
    each variant where that fails ``(how far it got, variant, why)``: ``-1`` for a FEN it
    cannot read, else the number of moves played before the one that is not legal.

    >>> _engine_positions(["international"], None, ["32-28", "99-23"])[1]
    [(1, 'international', "move 2 '99-23' is not legal after 32-28")]
    """
    try:
        from pdnkit.rules import Position, format_move, get_rules, match_move, parse_fen
    except ImportError:  # pragma: no cover - engine not available
        return [], []
    from pdnkit.tables.bitboards import square_bits

    out: list[StoredPosition] = []
    failed: list[tuple[int, str, str]] = []
    for v in variants:
        try:
            rules = get_rules(v)
        except Exception:  # an unknown variant name in the database
            continue
        try:
            pos = parse_fen(fen, rules) if fen else Position.initial(rules)
        except Exception as exc:
            failed.append((-1, v, f"--fen {fen!r} is not a FEN ({exc})"))
            continue
        for i, tok in enumerate(tokens):
            legal = pos.legal_moves()
            cands = [m for m in legal
                     if tok in (format_move(m, rules).lower(),
                                format_move(m, rules, full_path=True).lower())]
            if not cands:
                try:
                    cands = match_move(pos, tok, legal)
                except Exception:  # text that is no move at all
                    cands = []
            if len(cands) != 1:
                after = f" after {' '.join(tokens[:i])}" if i else " from the start"
                if fen and not i:
                    after = " in the --fen position"
                what = "ambiguous" if cands else "not legal"
                failed.append((i, v, f"move {i + 1} {tok!r} is {what}{after}"))
                break
            pos = pos.play(cands[0])
        else:
            out.append((v, str(pos.side)[:1].upper() == "B", square_bits(pos)))
    return out, failed


def positions_at(
    con: Any = None,
    *,
    fen: str | None = None,
    moves: str | Sequence[str] | None = None,
    variant: str | None = None,
) -> pd.DataFrame:
    """Where a position occurs: ``variant``, ``position_key`` and the square bitboards
    (``black``, ``wm``, ``wk``, ``bm``, ``bk``) of the position given by a FEN or by a move
    sequence from the initial position (no argument: the initial position of each
    variant), matched in the database first and with the rules engine when no stored game
    has that exact move order. A FEN no variant in scope can read, or a move that is not
    legal (or ambiguous) there, raises ``ValueError`` naming the move.

    >>> "international" in set(positions_at(_memory_db(), moves="32-28").variant)
    True
    """
    import pandas as pd

    from pdnkit.tables.bitboards import bits_key

    con = _con(con)
    if fen and moves:
        raise ValueError("give a FEN or a move sequence, not both")
    found: set[StoredPosition] = set()
    tokens = _move_tokens(moves) if moves else []
    if fen:  # the FEN's square bitboards, read on the board of every variant stored
        from pdnkit.rules import get_rules
        from pdnkit.tables.bitboards import fen_bits

        for v in _stored_variants(con, variant):
            try:
                black, bits = fen_bits(fen.strip(), get_rules(v))
            except ValueError:  # not a position of this variant's board
                continue
            if con.execute(
                    f"""SELECT 1 FROM {bits_source(con)} p JOIN games g USING (game_id)
                       WHERE p.wm = ? AND p.wk = ? AND p.bm = ? AND p.bk = ?
                       AND p.black = ? AND g.variant = ? LIMIT 1""",
                    [*bits, black, v]).fetchall():
                found.add((v, black, bits))
    elif tokens:  # the rules engine plays them; the stored games where it cannot
        engine, failed = _engine_positions(_stored_variants(con, variant), None, tokens)
        found.update(engine)
        if failed:
            found.update(_stored_after_moves(con, tokens, variant))
    else:  # each variant's initial position (of every edition its games use)
        found.update(_initial_positions(con, variant))
    if not found and (fen or tokens):
        variants = _stored_variants(con, variant)
        if not variants:  # an empty database: any variant the FEN or moves may belong to
            from pdnkit.rules import list_variants

            variants = sorted({r.name for r in list_variants(editions=False)})
        engine, failed = _engine_positions(variants, fen, tokens)
        if not engine and failed:  # no variant takes this start: say why (the furthest)
            depth = max(f[0] for f in failed)
            worst = [f for f in failed if f[0] == depth]
            names = ", ".join(sorted({f[1] for f in worst}))
            raise ValueError(f"{worst[0][2]} (in {names})")
        found.update(engine)
    return pd.DataFrame(
        [(v, bits_key(b, black), black, *b) for v, black, b in sorted(found)],
        columns=["variant", "position_key", "black", "wm", "wk", "bm", "bk"])


def _stored_after_moves(con: Any, tokens: list[str], variant: str | None
                        ) -> list[StoredPosition]:
    """The positions stored after ``tokens`` in games that played exactly those moves
    from the initial position (as written or in canonical form)."""
    vwhere, vparams = _game_filters(variant)
    vals = ", ".join("(?, ?)" for _ in tokens)
    flat: list[Any] = [x for i, t in enumerate(tokens, 1) for x in (i, t)]
    rows = con.execute(
        f"""
        WITH want(ply, tok) AS (VALUES {vals}),
        hit AS (
            SELECT m.game_id FROM moves m JOIN want w ON m.ply = w.ply
            JOIN games g ON g.game_id = m.game_id
            WHERE coalesce(g.start_is_initial, g.fen IS NULL) AND {vwhere}
              AND (lower(m.canonical) = w.tok OR lower(m.notation) = w.tok)
            GROUP BY m.game_id HAVING count(*) = ?
        )
        SELECT DISTINCT g.variant, p.black, p.wm, p.wk, p.bm, p.bk
        FROM hit JOIN games g USING (game_id)
        JOIN {bits_source(con)} p ON p.game_id = hit.game_id AND p.ply = ?
        """,
        flat + vparams + [len(tokens), len(tokens)],
    ).fetchall()
    return _stored(rows)


def _initial_positions(con: Any, variant: str | None) -> list[StoredPosition]:
    """The initial position of each variant and edition of the games that start from it
    (the rules engine's; the stored starts of a variant it does not know)."""
    from pdnkit.rules import Position, get_rules
    from pdnkit.tables.bitboards import square_bits

    vwhere, vparams = _game_filters(variant)
    start = "coalesce(g.start_is_initial, g.fen IS NULL)"
    out: list[StoredPosition] = []
    unknown = []
    for v, edition in con.execute(
            f"SELECT DISTINCT variant, edition FROM games g WHERE variant IS NOT NULL "
            f"AND {start} AND {vwhere} ORDER BY ALL", vparams).fetchall():
        try:
            rules = get_rules(v, edition) if edition else get_rules(v)
            pos = Position.initial(rules)
        except Exception:  # a variant the engine does not know: read from the games
            unknown.append(v)
            continue
        out.append((v, str(pos.side)[:1].upper() == "B", square_bits(pos)))
    if unknown:
        marks = ", ".join("?" for _ in unknown)
        out += _stored(con.execute(
            f"""SELECT DISTINCT g.variant, p.black, p.wm, p.wk, p.bm, p.bk FROM {bits_source(con)} p
                JOIN games g USING (game_id) WHERE p.ply = 0 AND {start}
                AND g.variant IN ({marks})""", unknown).fetchall())
    return out


def _stored_variants(con: Any, variant: str | None) -> list[str]:
    """``[variant]``, or every variant of the database's games."""
    if variant:
        return [variant]
    return [r[0] for r in con.execute(
        "SELECT DISTINCT variant FROM games WHERE variant IS NOT NULL ORDER BY 1").fetchall()]


def _stored(rows: list[tuple[Any, ...]]) -> list[StoredPosition]:
    """``(variant, black, wm, wk, bm, bk)`` rows as stored positions."""
    return [(str(v), bool(black), (int(wm), int(wk), int(bm), int(bk)))
            for v, black, wm, wk, bm, bk in rows]


def _bits_match(positions: list[tuple[bool, int, int, int, int]], a: str,
                exact: bool = True) -> str:
    """SQL: the position ``a`` (a ``position_bits`` row) is one of ``positions`` (``(black,
    wm, wk, bm, bk)``), written as constants: each bitboard among its values (tests the scan
    applies column by column), then, for several positions, which combinations (not with
    ``exact=False``: a superset, for a scan whose few rows are checked afterwards).

    Example:
        >>> _bits_match([(False, 3, 0, 12, 0)], "p")
        'p.wm = 3::UBIGINT AND p.bm = 12::UBIGINT AND p.wk = 0::UBIGINT AND p.bk = 0::UBIGINT AND NOT p.black'
    """
    chosen = sorted(set(positions))
    if not chosen:
        return "FALSE"
    parts = []
    for col, i in (("wm", 1), ("bm", 3), ("wk", 2), ("bk", 4)):
        values = sorted({int(p[i]) for p in chosen})
        if len(values) == 1:
            parts.append(f"{a}.{col} = {bits_literal(values[0])}")
        else:
            parts.append(f"{a}.{col} IN ({', '.join(bits_literal(v) for v in values)})")
    sides = {p[0] for p in chosen}
    if len(sides) == 1:
        parts.append(f"{a}.black" if sides.pop() else f"NOT {a}.black")
    if len(chosen) > 1 and exact:
        parts.append("(" + " OR ".join(
            f"({'' if black else 'NOT '}{a}.black AND {a}.wm = {bits_literal(wm)} AND "
            f"{a}.wk = {bits_literal(wk)} AND {a}.bm = {bits_literal(bm)} AND "
            f"{a}.bk = {bits_literal(bk)})" for black, wm, wk, bm, bk in chosen) + ")")
    return " AND ".join(parts)


def tree(
    con: Any = None,
    *,
    fen: str | None = None,
    moves: str | Sequence[str] | None = None,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: str | _dt.date | int | None = None,
    date_to: str | _dt.date | int | None = None,
    min_games: int = 1,
) -> pd.DataFrame:
    """Opening explorer: the moves played next from a position, with counts and scores.

    The position is given by a FEN, by a move sequence from the initial position
    (``"32-28 19-23"``; move numbers are ignored) or, with neither, is the initial
    position. Games are matched by position (the stored bitboards and side to move), so
    every game that reached the position counts, whatever its move order (transpositions
    merge). A game counts once, with the move it played the first time it reached the
    position.

    Columns: ``variant``, ``move`` (canonical), ``games``, ``share`` (% of the games that
    continued from the position), ``white_wins``, ``draws``, ``black_wins``, ``unknown``,
    ``white_score`` (%), ``avg_plies``, then the book's view from the side to move
    (``side``: ``W``/``B``): ``wins`` (+), ``draws`` (=), ``losses`` (-), ``score`` (%), and
    ``transpositions`` (games that reached the position after the move by another road),
    and ``fen_after`` (to continue exploring).

    >>> tree(_memory_db(), moves="32-28").empty
    True
    """
    con = _con(con)
    start = positions_at(con, fen=fen, moves=moves, variant=variant)
    where, params = _game_filters(variant, event, player, date_from, date_to)
    cols = ["variant", "move", "games", "share", "white_wins", "draws", "black_wins",
            "unknown", "white_score", "avg_plies", "side", "wins", "losses", "score",
            "transpositions", "fen_after"]
    if start.empty:
        import pandas as pd

        return pd.DataFrame(columns=cols)
    # in steps through temporary tables: one scan of the positions finds the games at the
    # position and at every position one legal move away (the rules engine lists them), so
    # the games, their next moves and the transpositions come from that small table
    import uuid

    tag = uuid.uuid4().hex[:12]
    names = {part: f"_pdnkit_tree_{part}_{tag}"
             for part in ("seen", "targets", "hit", "nxt", "book", "unlisted")}
    nxt, book = names["nxt"], names["book"]
    try:
        targets = _tree_targets(start)
        _tree_seen(con, names, targets, where, params)
        _tree_next(con, names)
        con.execute(f"""
            CREATE TEMP TABLE {book} AS
                SELECT nxt.variant, nxt.move, {_result_columns()},
                       round(100.0 * count(*) / sum(count(*)) OVER (PARTITION BY nxt.variant),
                             1) AS share,
                       round(avg(nxt.plies), 1) AS avg_plies, mode(nxt.side) AS side,
                       count(*) FILTER (WHERE oc = CASE nxt.side WHEN 'W' THEN 'white'
                                                  ELSE 'black' END)::BIGINT AS wins,
                       count(*) FILTER (WHERE oc = CASE nxt.side WHEN 'W' THEN 'black'
                                                  ELSE 'white' END)::BIGINT AS losses,
                       -- the position after the move (a target; NULL where the engine did
                       -- not list it: looked up below in a game that played the move)
                       arg_min(nxt.after, nxt.game_id) FILTER (WHERE nxt.after IS NOT NULL)
                           AS after,
                       arg_min(nxt.after_layout, nxt.game_id)
                           FILTER (WHERE nxt.after IS NOT NULL) AS after_layout,
                       min({{'game_id': nxt.game_id, 'ply': nxt.ply + 1}}) AS example
                FROM temp.{nxt} nxt
                GROUP BY nxt.variant, nxt.move
                HAVING count(*) >= ?""", [min_games])
        _tree_unlisted(con, names, where, params)
        return _df(con, _tree_book_sql(names))[cols]
    finally:
        for t in names.values():
            con.execute(f"DROP TABLE IF EXISTS temp.{t}")


#: a stored position: (Black to move, wm, wk, bm, bk)
_Bits5 = tuple[bool, int, int, int, int]
#: a tree's positions in one variant: the start(s), the positions one move away and the
#: move to each (``None``: the games say)
_Targets = tuple[list[_Bits5], list[_Bits5], dict[_Bits5, str | None]]


def _tree_targets(start: pd.DataFrame) -> dict[str, _Targets]:
    """Per variant: the positions of ``start`` (:func:`positions_at`), every position one
    legal move away from them (the rules engine's; none where it cannot set a position up)
    and the move that leads to each, in canonical notation (as the import stores it)."""
    from pdnkit.rules import Position, get_rules
    from pdnkit.rules.notation import canonical_notation
    from pdnkit.tables.bitboards import square_bits

    out: dict[str, _Targets] = {}
    for v, black, wm, wk, bm, bk in start[["variant", "black", "wm", "wk", "bm",
                                            "bk"]].itertuples(index=False):
        here, after, texts = out.setdefault(v, ([], [], {}))
        here.append((bool(black), int(wm), int(wk), int(bm), int(bk)))
        try:
            rules = get_rules(v)
            n = int(rules.geometry.num_squares)
            sq = [[s for s in range(1, n + 1) if int(x) >> (s - 1) & 1] for x in (wm, wk, bm, bk)]
            pos = Position.from_squares(rules, "B" if black else "W", *sq)
            legal = pos.legal_moves()
            for m in legal:
                a = pos.play(m)
                bits = (str(a.side)[:1].upper() == "B", *square_bits(a))
                after.append(bits)
                text = canonical_notation(m, pos, legal)
                # one text per position after a move: where two differ, read the games'
                texts[bits] = text if texts.get(bits, text) == text else None
        except Exception:  # a stored position the engine cannot set up: looked up instead
            continue
    return out


def _tree_next(con: Any, names: dict[str, str]) -> None:
    """The temporary table ``nxt``: each game at the position (its first time there), the
    move it played next and the position after it (``after``: a target number). The move is
    known from the position after it where the engine listed that position; the games' own
    moves are read only for the others (a move not replayed or irregular, a position the
    engine cannot set up)."""
    seen, tg, hit, nxt = names["seen"], names["targets"], names["hit"], names["nxt"]
    con.execute(f"""
        CREATE TEMP TABLE {hit} AS
        WITH first AS (
            SELECT game_id, min(ply) AS ply, arg_min(target, ply) AS target
            FROM temp.{seen} WHERE at_start GROUP BY game_id)
        SELECT first.game_id, first.ply, t0.variant, g.plies, {OUTCOME_SQL} AS oc,
               CASE WHEN t0.black THEN 'B' ELSE 'W' END AS side, t.move,
               s.target AS after, s.layout AS after_layout
        FROM first JOIN temp.{tg} t0 ON t0.target = first.target
        JOIN games g ON g.game_id = first.game_id
        LEFT JOIN temp.{seen} s ON s.game_id = first.game_id AND s.ply = first.ply + 1
        LEFT JOIN temp.{tg} t ON t.target = s.target""")
    games = [g for (g,) in con.execute(
        f"SELECT game_id FROM temp.{hit} WHERE move IS NULL ORDER BY 1").fetchall()]
    if not games:
        con.execute(f"ALTER TABLE temp.{hit} RENAME TO {nxt}")
        return
    # the games' own moves: by game number when few (the scan skips the other row groups)
    only = (f"AND m.game_id IN ({', '.join(str(int(g)) for g in games)})"
            if len(games) <= 2000 else "")
    con.execute(f"""
        CREATE TEMP TABLE {nxt} AS
        SELECT * FROM temp.{hit} WHERE move IS NOT NULL
        UNION ALL BY NAME
        SELECT h.* REPLACE (move_text(m.canonical, m.notation, m.origin, m.destination,
                                      m.captured) AS move, m.side AS side)
        FROM temp.{hit} h JOIN move_rows m ON m.game_id = h.game_id AND m.ply = h.ply + 1
        WHERE h.move IS NULL {only}""")


def _tree_seen(con: Any, names: dict[str, str], targets: dict[str, _Targets], where: str,
               params: list[Any]) -> None:
    """The temporary tables ``targets`` (each position looked for, numbered: its bitboards,
    whether it is the start, the move that leads to it) and ``seen``: every stored position
    (of the games ``where`` selects) that is a target of its game's variant, with the
    target's number: one scan of ``position_bits``."""
    rows: list[tuple[int, str, bool, _Bits5, str | None]] = []
    for v, (here, after, texts) in sorted(targets.items()):
        for bits in dict.fromkeys(here):
            rows.append((len(rows), v, True, bits, None))
        for bits in dict.fromkeys(after):
            if bits not in here:
                rows.append((len(rows), v, False, bits, texts.get(bits)))
    _tree_target_table(con, names["targets"], rows)
    every = _bits_match([r[3] for r in rows], "p", exact=False)
    # the bitboard tests first, on the scan alone (then the few rows meet their games)
    con.execute(f"""
        CREATE TEMP TABLE {names["seen"]} AS
        WITH g AS (SELECT g.game_id, g.variant FROM games g WHERE {where}),
        p AS MATERIALIZED (SELECT game_id, ply, black, wm, wk, bm, bk, layout
                           FROM {bits_source(con)} p WHERE {every}),
        SELECT p.game_id, p.ply, p.layout, t.target, t.at_start
        FROM p JOIN g USING (game_id)
        JOIN temp.{names["targets"]} t ON t.variant = g.variant AND t.black = p.black
             AND t.wm = p.wm AND t.wk = p.wk AND t.bm = p.bm AND t.bk = p.bk""",
                params)


def _tree_target_table(con: Any, name: str,
                       rows: list[tuple[int, str, bool, _Bits5, str | None]]) -> None:
    """The temporary table of a tree's targets (created when missing, rows appended)."""
    con.execute(f"CREATE TEMP TABLE IF NOT EXISTS {name} (target INTEGER, variant VARCHAR, "
                "at_start BOOLEAN, black BOOLEAN, wm HUGEINT, wk HUGEINT, bm HUGEINT, "
                "bk HUGEINT, move VARCHAR)")
    if rows:
        con.executemany(
            f"INSERT INTO temp.{name} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(n, v, st, b[0], str(b[1]), str(b[2]), str(b[3]), str(b[4]), text)
             for n, v, st, b, text in rows])


def _tree_unlisted(con: Any, names: dict[str, str], where: str, params: list[Any]) -> None:
    """Positions after a book move that the engine did not list (an irregular move that
    stood, a position it cannot set up): read from a game that played the move, added to
    the targets (``book.after``), and the games that reached them counted in the temporary
    table ``unlisted``."""
    book, tg = names["book"], names["targets"]
    rows = con.execute(f"SELECT variant, example.game_id, example.ply FROM temp.{book} "
                       "WHERE after IS NULL").fetchall()
    con.execute(f"CREATE TEMP TABLE {names['unlisted']} (game_id BIGINT, variant VARCHAR, "
                "target INTEGER)")
    if not rows:
        return
    pairs = " OR ".join(f"(game_id = {int(g)} AND ply = {int(p)})" for _, g, p in rows)
    found = {(int(g), int(p)): (bool(b), int(wm), int(wk), int(bm), int(bk), int(lay))
             for g, p, b, wm, wk, bm, bk, lay in con.execute(
                 f"SELECT game_id, ply, black, wm, wk, bm, bk, layout FROM {bits_source(con)} "
                 f"AS p WHERE {pairs}").fetchall()}
    base = con.execute(f"SELECT count(*) FROM temp.{tg}").fetchall()[0][0]
    new: list[tuple[int, str, bool, _Bits5, str | None]] = []
    for v, g, p in rows:
        pos = found.get((int(g), int(p)))
        if pos is None:  # the move was not replayed: no position after it
            continue
        n = base + len(new)
        new.append((n, v, False, pos[:5], None))
        con.execute(f"UPDATE temp.{book} SET after = ?, after_layout = ? WHERE variant = ? "
                    "AND example.game_id = ? AND example.ply = ?", [n, pos[5], v, g, p])
    if not new:
        return
    _tree_target_table(con, tg, new)
    con.execute(f"""
        INSERT INTO temp.{names['unlisted']}
        WITH g AS (SELECT g.game_id, g.variant FROM games g WHERE {where})
        SELECT p.game_id, g.variant, t.target
        FROM {bits_source(con)} p JOIN g USING (game_id)
        JOIN temp.{tg} t ON t.target >= {int(base)} AND t.variant = g.variant
             AND t.black = p.black AND t.wm = p.wm AND t.wk = p.wk AND t.bm = p.bm
             AND t.bk = p.bk
        WHERE {_bits_match([r[3] for r in new], 'p')}""", params)


def _tree_book_sql(names: dict[str, str]) -> str:
    """The final query of :func:`tree`: the book rows with score, transpositions (games
    that reached the position after the move, less those that played the move) and FEN."""
    book, seen, tg, extra = names["book"], names["seen"], names["targets"], names["unlisted"]
    return f"""
        WITH reach AS (
            SELECT target, count(DISTINCT game_id) AS n
            FROM (SELECT game_id, target FROM temp.{seen}
                  UNION SELECT game_id, target FROM temp.{extra}) GROUP BY ALL
        )
        SELECT book.* EXCLUDE (after, after_layout, example),
               round(100.0 * (wins + 0.5 * draws) / nullif(wins + draws + losses, 0), 1)
                   AS score,
               greatest(coalesce(reach.n, 0) - games, 0)::BIGINT AS transpositions,
               CASE WHEN t.black THEN 'B' ELSE 'W' END || ':W'
                   || fen_field(l.fen_order, l.names, t.wm, t.wk) || ':B'
                   || fen_field(l.fen_order, l.names, t.bm, t.bk) AS fen_after
        FROM temp.{book} book
        LEFT JOIN reach ON reach.target = book.after
        LEFT JOIN temp.{tg} t ON t.target = book.after
        LEFT JOIN layouts l ON l.layout = book.after_layout
        ORDER BY book.variant, games DESC, book.move
    """


def square_counts(
    con: Any = None,
    *,
    what: str = "capture-landing",
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: str | _dt.date | int | None = None,
    date_to: str | _dt.date | int | None = None,
) -> pd.DataFrame:
    """How often each square plays a part, for board heatmaps.

    ``what``: ``capture-landing`` (destination of capturing moves), ``captured`` (squares
    where pieces were taken), ``destination``, ``origin``, ``promotion`` (where men were
    crowned). Only replayed moves count. Columns: ``variant``, ``square``, ``count``.

    >>> square_counts(_memory_db(), what="captured").empty
    True
    """
    exprs = {
        "capture-landing": ("m.destination", "m.is_capture"),
        "destination": ("m.destination", "TRUE"),
        "origin": ("m.origin", "TRUE"),
        "promotion": ("m.destination", "m.promotes"),
        "captured": ("unnest(m.captured)", "m.is_capture"),
    }
    if what not in exprs:
        raise ValueError(f"what must be one of {sorted(exprs)}")
    expr, cond = exprs[what]
    con = _con(con)
    where, params = _game_filters(variant, event, player, date_from, date_to)
    sql = f"""
        WITH s AS (
            SELECT g.variant, {expr} AS square
            FROM moves m JOIN games g USING (game_id)
            WHERE m.replayed AND {cond} AND {where}
        )
        SELECT variant, square::INTEGER AS square, count(*)::BIGINT AS count
        FROM s WHERE square IS NOT NULL
        GROUP BY variant, square ORDER BY variant, square
    """
    return _df(con, sql, params)


# --------------------------------------------------------------------------------------
# dispatcher for the CLI
# --------------------------------------------------------------------------------------


def stats(kind: str, con: Any = None, **options: Any) -> pd.DataFrame:
    """Run the statistic ``kind`` (one of :data:`STAT_KINDS`) with its options.

    Options that a statistic does not take (``None`` values included) are ignored, so the
    CLI can pass its full set of filters.

    >>> stats("results", _memory_db(), by="variant", plies=4).empty
    True
    """
    import inspect

    funcs = {"openings": openings, "players": players, "results": results,
             "lengths": lengths, "findings": findings}
    if kind not in funcs:
        raise ValueError(f"unknown statistic {kind!r}; choose from {', '.join(STAT_KINDS)}")
    fn = funcs[kind]
    accepted = inspect.signature(fn).parameters
    kw = {k: v for k, v in options.items() if k in accepted and v is not None}
    return fn(con, **kw)


#: verdicts on a draw/endgame rule activation, see :func:`verdict`
VERDICTS = ("ended-in-time", "drawn-by-rule", "played-past-limit", "result-contradicts-rule")


# --------------------------------------------------------------------------------------
# endgame rules: one verdict per rule activation (the reports and plots read these)
# --------------------------------------------------------------------------------------


def _isnull(v: Any) -> bool:
    """True for None, NaN, NaT and pandas' NA."""
    if v is None:
        return True
    try:
        import pandas as pd

        return bool(pd.isna(v))
    except (TypeError, ValueError):
        return False


def _int(v: Any) -> int | None:
    return None if _isnull(v) else int(v)


def verdict(
    *,
    automatic: bool | None,
    start_ply: int | None,
    limit_plies: int | None,
    reached_ply: int | None,
    end_ply: int | None,
    plies: int | None,
    outcome: str | None,
    result: str | None = None,
    deadline_ply: int | None = None,
) -> tuple[str, str]:
    """The verdict on one rule activation and a sentence explaining it.

    ``plies`` is the length of the game's main line; ``outcome`` is ``white``,
    ``black``, ``draw`` or ``unknown``. A rule with unknown ``automatic`` is treated as
    automatic.

    >>> verdict(automatic=True, start_ply=40, limit_plies=30, reached_ply=70, end_ply=70,
    ...         plies=70, outcome="draw", result="1/2-1/2")
    ('drawn-by-rule', 'drawn by the rule at ply 70')
    >>> verdict(automatic=False, start_ply=10, limit_plies=80, reached_ply=90, end_ply=95,
    ...         plies=120, outcome="white", result="1-0")[1]
    'a draw could be claimed from ply 90 (a claim, so play could go on); the game went on to ply 120 and ended 1-0'
    """
    auto = True if _isnull(automatic) else bool(automatic)
    start, limit, reached = _int(start_ply), _int(limit_plies), _int(reached_ply)
    end, last, deadline = _int(end_ply), _int(plies), _int(deadline_ply)
    if deadline is None and start is not None and limit is not None:
        deadline = start + limit
    if last is None:
        last = end if reached is None else max(reached, end or 0)
    decisive = outcome in ("white", "black")
    res = result if not _isnull(result) and result not in ("", "*") else None
    ended = f"ended {res}" if res else "has no result"
    if reached is None:
        if end is not None and last is not None and end < last:
            left = f", {deadline - end} plies before the limit" if deadline is not None else ""
            return "ended-in-time", f"the count stopped at ply {end}{left}"
        left = (f", {deadline - last} plies before the limit"
                if deadline is not None and last is not None else "")
        return "ended-in-time", f"the game {ended} at ply {last}{left}"
    assert last is not None
    if auto:
        if last > reached:
            return ("played-past-limit",
                    f"the rule drew the game at ply {reached}; the record goes on to ply "
                    f"{last} and {ended}")
        if decisive:
            return ("result-contradicts-rule",
                    f"the rule drew the game at ply {reached}, but it is scored {res}")
        return ("drawn-by-rule", f"drawn by the rule at ply {reached}"
                + ("" if outcome == "draw" else " (no result recorded)"))
    still_open = end is None or end >= last
    if outcome == "draw" and still_open:
        return ("drawn-by-rule",
                f"a draw could be claimed from ply {reached}; the game was drawn at ply {last}")
    return ("played-past-limit",
            f"a draw could be claimed from ply {reached} (a claim, so play could go on); "
            f"the game went on to ply {last} and {ended}")


def endgame_rules(
    con: Any = None,
    *,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: str | _dt.date | int | None = None,
    date_to: str | _dt.date | int | None = None,
) -> pd.DataFrame:
    """Every draw or endgame rule that became active in a game, with its verdict.

    Columns: ``game_id``, ``file``, ``game_index``, ``line``, ``variant``, ``event``,
    ``white``, ``black``, ``rule``, ``article``, ``automatic``, ``start_ply``,
    ``limit_plies``, ``deadline_ply``, ``reached_ply``, ``end_ply``, ``plies``,
    ``result``, ``outcome``, ``draw_basis``, ``ended`` (how the game actually ended),
    ``verdict`` and ``explanation``. Filters as in :mod:`pdnkit.stats`.

    >>> endgame_rules(_memory_db()).empty
    True
    """
    con = _con(con)
    where, params = _game_filters(variant, event, player, date_from, date_to)
    df = con.execute(f"""
        SELECT g.game_id, fl.path AS file, g.game_index, g.line, g.variant, g.event,
               g.white, g.black, r.rule, r.article, r.automatic, r.start_ply, r.limit_plies,
               coalesce(r.deadline_ply, r.start_ply + r.limit_plies) AS deadline_ply,
               r.reached_ply, r.end_ply, g.plies, g.result, {OUTCOME_SQL} AS outcome,
               g.draw_basis
        FROM rule_events r JOIN games g ON g.game_id = r.game_id
        LEFT JOIN files fl ON fl.file_id = g.file_id
        WHERE {where}
        ORDER BY g.game_id, r.start_ply, r.rule
    """, params).df()
    ended, verdicts, texts = [], [], []
    for row in df.itertuples(index=False):
        res = None if _isnull(row.result) else row.result
        ended.append(f"{res or 'no result'} after {'?' if _isnull(row.plies) else int(row.plies)}"
                     " plies")
        v, t = verdict(automatic=row.automatic, start_ply=row.start_ply,
                       limit_plies=row.limit_plies, reached_ply=row.reached_ply,
                       end_ply=row.end_ply, plies=row.plies, outcome=row.outcome,
                       result=res, deadline_ply=row.deadline_ply)
        verdicts.append(v)
        texts.append(t)
    df["ended"] = ended
    df["verdict"] = verdicts
    df["explanation"] = texts
    return df


def endgame_summary(rules_df: pd.DataFrame, by: str = "rule") -> pd.DataFrame:
    """Verdict counts per ``rule``, ``variant`` or ``event`` from :func:`endgame_rules`.

    Columns: the ``by`` column (plus ``article`` and ``automatic`` per rule),
    ``activations``, ``games``, then one column per verdict.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"game_id": [1, 2], "rule": ["r", "r"], "article": ["A", "A"],
    ...     "automatic": [True, True], "verdict": ["drawn-by-rule", "played-past-limit"]})
    >>> endgame_summary(df).iloc[0].to_dict()["played-past-limit"]
    1
    """
    import pandas as pd

    if by not in ("rule", "variant", "event"):
        raise ValueError("by must be 'rule', 'variant' or 'event'")
    keys = [by] + (["article", "automatic"] if by == "rule" else [])
    cols = keys + ["activations", "games", *VERDICTS]
    if rules_df.empty:
        return pd.DataFrame(columns=cols)
    d = rules_df.copy()
    for k in keys:
        d[k] = d[k].astype(object).where(d[k].notna(), "(none)")
    g = d.groupby(keys, sort=True, dropna=False)
    out = g.agg(activations=("verdict", "size"), games=("game_id", "nunique")).reset_index()
    counts = pd.crosstab([d[k] for k in keys], d["verdict"]).reset_index()
    out = out.merge(counts, on=keys, how="left")
    for v in VERDICTS:
        out[v] = out[v].fillna(0).astype(int) if v in out else 0
    return out[cols].sort_values(["activations", by], ascending=[False, True],
                                 kind="stable").reset_index(drop=True)


# --------------------------------------------------------------------------------------
# crosstables

#: results written with two points for a win (RULES.md 1.6: the international result type)
TWO_POINT_RESULTS = ("2-0", "0-2", "1-1")


def crosstable(
    db: Any = None,
    *,
    event: str | None = None,
    variant: str | None = None,
    date_from: str | _dt.date | int | None = None,
    date_to: str | _dt.date | int | None = None,
    scoring: str = "auto",
) -> pd.DataFrame:
    """Players x players of an event (``event``: case-insensitive substring), ranked by
    points: ``rank``, ``player``, ``games``, ``wins``, ``draws``, ``losses``, ``points``,
    then one column per opponent (by rank: ``1``, ``2`` ...) with the points scored in each
    game against them (``x`` on the diagonal). ``scoring`` is ``2`` (2 for a win, 1 for a
    draw: the international result type, used where the event's results are written
    ``2-0``/``1-1``/``0-2``), ``1`` (1 and 1/2) or ``auto`` (``2`` when the event's file
    writes two-point results). Players are identities (aliases merged, placeholder names
    and games without a decided or drawn result left out).

    Example:
        >>> from pdnkit.stats import _memory_db
        >>> crosstable(_memory_db(), event="x").empty
        True
    """
    import pandas as pd


    if scoring not in ("auto", "1", "2"):
        raise ValueError("scoring must be auto, 1 or 2")
    con = _con(db)
    where, params = _game_filters(variant, event, None, date_from, date_to)
    rows = con.execute(f"""
        SELECT g.game_id, player_name(g.white) AS w, player_name(g.black) AS b,
               {OUTCOME_SQL} AS oc, g.result_raw, g.round, g.date
        FROM games g WHERE {where}
        ORDER BY g.date NULLS LAST, g.round, g.game_id""", params).fetchall()
    games = [r for r in rows if r[1] and r[2] and r[1] != r[2]
             and r[3] in ("white", "black", "draw")]
    if scoring == "auto":
        two = any((r[4] or "").strip() in TWO_POINT_RESULTS for r in games)
    else:
        two = scoring == "2"
    win, draw = (2.0, 1.0) if two else (1.0, 0.5)
    tally: dict[str, list[float]] = {}
    cells: dict[tuple[str, str], list[float]] = {}
    for _gid, w, b, oc, *_ in games:
        pw = win if oc == "white" else draw if oc == "draw" else 0.0
        pb = win if oc == "black" else draw if oc == "draw" else 0.0
        for me, other, pts in ((w, b, pw), (b, w, pb)):
            t = tally.setdefault(me, [0, 0, 0, 0, 0.0])
            t[0] += 1
            t[1 if pts == win else 2 if pts == draw else 3] += 1
            t[4] += pts
            cells.setdefault((me, other), []).append(pts)
    order = sorted(tally, key=lambda p: (-tally[p][4], -tally[p][1], p))
    if not order:
        return pd.DataFrame(columns=["rank", "player", "games", "wins", "draws", "losses",
                                     "points"])

    def fmt(x: float) -> str:
        return str(int(x)) if x == int(x) else ("½" if x == 0.5 else f"{x:g}")

    out = []
    for i, p in enumerate(order, 1):
        g, w, d, lo, pts = tally[p]
        row: dict[str, Any] = {"rank": i, "player": p, "games": g, "wins": w, "draws": d,
                               "losses": lo, "points": pts}
        for j, q in enumerate(order, 1):
            row[str(j)] = "x" if p == q else " ".join(fmt(x) for x in cells.get((p, q), []))
        out.append(row)
    return pd.DataFrame(out)
