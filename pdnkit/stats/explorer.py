"""The opening book: opening statistics (:func:`openings`) and the opening explorer
(:func:`tree`: the moves played next from a position, transpositions merged).

Example:
    >>> from pdnkit.store import connect
    >>> con = connect(":memory:")
    >>> openings(con, plies=2).empty, tree(con, moves="32-28").empty
    (True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeAlias

from pdnkit.errors import ArgumentError
from pdnkit.rows.bitboards import bits_source
from pdnkit.stats.common import (
    OUTCOME_SQL,
    first_mover_first,
    frame,
    plain_form,
    result_columns,
    table_of,
)
from pdnkit.stats.filters import DateBound, GameFilter, SqlParam
from pdnkit.stats.keptbook import kept_openings, kept_tree
from pdnkit.stats.positions import Bits5, bits_match, positions_at
from pdnkit.store.posindex import position_source
from pdnkit.store.session import DbLike, reading

if TYPE_CHECKING:  # pragma: no cover
    import duckdb
    import pandas as pd

__all__ = ["TREE_COLUMNS", "openings", "tree", "tree_table"]


def openings(
    con: DbLike = None,
    *,
    plies: int = 4,
    by: str = "moves",
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    min_games: int = 1,
    filter: GameFilter | None = None,
) -> pd.DataFrame:
    """Opening statistics: by the opening's name or code, or over the first ``plies``
    half-moves.

    ``by="code"`` and ``by="name"`` group the games by the ballot or code and by the
    named opening their positions reached (the tables of :mod:`pdnkit.openings`; ``plies``
    is not used): :func:`pdnkit.stats.named.named_openings` gives those columns.
    ``by="moves"`` groups by the move sequence (canonical notation, the move as written
    where replay failed); ``by="position"`` groups by the position key after ``plies``
    half-moves, so transpositions merge (``sequences`` counts the move orders merged,
    ``moves`` shows the most frequent one, ties broken by the text). Games that start from
    a set-up position (a FEN other than the variant's initial position:
    ``games.start_is_initial``) and games whose first ``plies`` plies were not all replayed
    (shorter games, placeholder moves such as ``- -``, a move that could not be read) are not
    counted.

    Columns: ``variant``, ``opening`` (the move sequence), [``position_key``, ``fen``,
    ``sequences``], ``games``, ``white_wins``, ``draws``, ``black_wins``, ``unknown``,
    ``white_score`` (%), ``avg_plies`` (``black_wins`` first where every game read is of a
    variant Black begins: English, pool, Thai).

    >>> from pdnkit.store import connect
    >>> list(openings(connect(":memory:"), plies=2).columns)[:4]
    ['variant', 'opening', 'games', 'white_wins']
    """
    if by in ("code", "name"):
        from pdnkit.stats.named import named_openings

        return named_openings(con, by=by, variant=variant, event=event, player=player,
                              date_from=date_from, date_to=date_to, min_games=min_games,
                              filter=filter)
    if plies < 1:
        raise ArgumentError("plies must be at least 1")
    if by not in ("moves", "position"):
        raise ArgumentError("by must be 'code', 'name', 'moves' or 'position'")
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    base = f"""
        WITH g AS (
            SELECT g.game_id, g.variant, g.plies, {OUTCOME_SQL} AS oc
            -- from the variant's start, every one of the first N plies replayed (placeholder
            -- moves "- -" or a move that could not be read open no opening)
            FROM games g WHERE coalesce(g.start_is_initial, g.fen IS NULL)
                AND coalesce(g.replayed_plies, 0) >= {int(plies)} AND {{where}}
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
    with reading(con) as c:
        kept = kept_openings(c, gf, plies, min_games) if by == "moves" else None
        if kept is not None:  # the counts kept at import answer
            df = kept
        else:
            where, params = gf.sql(con=c)
            df = _openings(c, by, base.replace("{where}", where), params + [plies], plies,
                           min_games)
    return first_mover_first(df, [gf.variant] if gf.variant else df["variant"])


def _openings(con: duckdb.DuckDBPyConnection, by: str, base: str, params: list[SqlParam],
              plies: int, min_games: int) -> pd.DataFrame:
    """The query of :func:`openings` after its common part ``base``."""
    if by == "moves":
        sql = base + f"""
            SELECT g.variant, seq.opening, {result_columns()},
                   round(avg(g.plies), 1) AS avg_plies
            FROM seq JOIN g USING (game_id)
            WHERE seq.n = ?
            GROUP BY g.variant, seq.opening
            HAVING count(*) >= ?
            ORDER BY games DESC, g.variant, seq.opening
        """
        return frame(con, sql, params + [plies, min_games])
    # the move order shown is the most frequent one, ties broken by the text (the same
    # games give the same row whatever the order of import)
    sql = base + f"""
        , reached AS (
            SELECT g.*, seq.opening, p.position_key, p.fen, p.black AS p_black, p.wm, p.wk,
                   p.bm, p.bk,
                   count(*) OVER (PARTITION BY g.variant, p.black, p.wm, p.wk, p.bm, p.bk,
                                  seq.opening) AS order_games
            FROM seq JOIN g USING (game_id)
            JOIN positions p ON p.game_id = g.game_id AND p.ply = ?
            WHERE seq.n = ?
        )
        SELECT g.variant, first(g.opening ORDER BY g.order_games DESC, g.opening) AS opening,
               min(g.position_key) AS position_key, min(g.fen) AS fen,
               count(DISTINCT g.opening)::BIGINT AS sequences,
               {result_columns()}, round(avg(g.plies), 1) AS avg_plies
        FROM reached g
        GROUP BY g.variant, g.p_black, g.wm, g.wk, g.bm, g.bk
        HAVING count(*) >= ?
        ORDER BY games DESC, g.variant, opening
    """
    return frame(con, sql, params + [plies, plies, min_games])


#: the columns of :func:`tree`
TREE_COLUMNS = ["variant", "move", "games", "share", "white_wins", "draws", "black_wins",
                "unknown", "white_score", "avg_plies", "side", "wins", "losses", "score",
                "transpositions", "opening", "fen_after"]


def tree(
    con: DbLike = None,
    *,
    fen: str | None = None,
    moves: str | Sequence[str] | None = None,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    min_games: int = 1,
    filter: GameFilter | None = None,
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
    ``white_score`` (%), ``avg_plies`` (Black's first in a variant Black begins), then the
    book's view from the side to move
    (``side``: ``W``/``B``): ``wins`` (+), ``draws`` (=), ``losses`` (-), ``score`` (%), and
    ``transpositions`` (games that reached the position after the move by another road),
    ``opening`` (the ballots, codes and names of the opening tables whose position the
    move reaches: :mod:`pdnkit.openings`, the tables loaded into the database included)
    and ``fen_after`` (to continue exploring).

    >>> from pdnkit.store import connect
    >>> tree(connect(":memory:"), moves="32-28").empty
    True
    """
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    with reading(con) as c:
        start = positions_at(c, fen=fen, moves=moves, variant=gf.variant)
        if start.empty:
            return table_of([], TREE_COLUMNS)
        df = _tree_book(c, start, gf, min_games)
    return first_mover_first(df, [gf.variant] if gf.variant else df["variant"])


#: :func:`tree` as a :class:`pdnkit._cells.PlainTable`, without pandas (the quick forms'):
#: ``tree_table(connect(":memory:"), moves="32-28").columns == TREE_COLUMNS``
tree_table = plain_form(tree, "tree_table")


def _tree_book(con: duckdb.DuckDBPyConnection, start: pd.DataFrame, gf: GameFilter,
               min_games: int) -> pd.DataFrame:
    """The rows of :func:`tree` from the start positions ``start`` (not empty): from the
    counts kept at import where they answer (:func:`pdnkit.stats.keptbook.kept_tree`), else
    by a scan."""
    targets = _tree_targets(start)
    starts = [(v, b) for v, (here, _, _) in sorted(targets.items()) for b in here]
    afters = [b for _, (_, after, _) in sorted(targets.items()) for b in after]
    kept = kept_tree(con, starts, afters, gf, min_games)
    if kept is not None:
        kept["opening"] = _tree_openings(con, kept)
        return kept[TREE_COLUMNS]
    where, params = gf.sql(con=con)
    # in steps through temporary tables: one scan of the positions finds the games at the
    # position and at every position one legal move away (the rules engine lists them), so
    # the games, their next moves and the transpositions come from that small table
    import uuid

    tag = uuid.uuid4().hex[:12]
    names = {part: f"_pdnkit_tree_{part}_{tag}"
             for part in ("seen", "targets", "hit", "nxt", "book", "unlisted")}
    nxt, book = names["nxt"], names["book"]
    try:
        _tree_seen(con, names, targets, where, params)
        _tree_next(con, names)
        con.execute(f"""
            CREATE TEMP TABLE {book} AS
                SELECT nxt.variant, nxt.move, {result_columns()},
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
        df = frame(con, _tree_book_sql(names))
        df["opening"] = _tree_openings(con, df)
        return df[TREE_COLUMNS]
    finally:
        for t in names.values():
            con.execute(f"DROP TABLE IF EXISTS temp.{t}")


def _tree_openings(con: duckdb.DuckDBPyConnection, df: pd.DataFrame) -> list[str | None]:
    """The opening name of the position after each move of a tree (``fen_after``), as the
    database's opening tables name it (:func:`pdnkit.openings.labels.entries_label`)."""
    from pdnkit.openings.labels import entries_label
    from pdnkit.rules import get_rules, parse_fen
    from pdnkit.store.openingdb import opening_book

    out: list[str | None] = []
    books = {}
    for v, fen in df[["variant", "fen_after"]].itertuples(index=False):
        try:
            if v not in books:
                books[v] = opening_book(con, v)
            out.append(entries_label(books[v].lookup(parse_fen(fen, get_rules(v)))))
        except (ValueError, TypeError):  # an unknown variant, no position after the move
            out.append(None)
    return out


#: a tree's positions in one variant: the start(s), the positions one move away and the
#: move to each (``None``: the games say)
_Targets: TypeAlias = "tuple[list[Bits5], list[Bits5], dict[Bits5, str | None]]"


def _tree_targets(start: pd.DataFrame) -> dict[str, _Targets]:
    """Per variant: the positions of ``start`` (:func:`positions_at`), every position one
    legal move away from them (the rules engine's; none where it cannot set a position up)
    and the move that leads to each, in canonical notation (as the import stores it)."""
    from pdnkit.rows.bitboards import square_bits
    from pdnkit.rules import Position, get_rules
    from pdnkit.rules.notation import canonical_notation

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


def _tree_next(con: duckdb.DuckDBPyConnection, names: dict[str, str]) -> None:
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


def _tree_seen(con: duckdb.DuckDBPyConnection, names: dict[str, str],
               targets: dict[str, _Targets], where: str, params: list[SqlParam]) -> None:
    """The temporary tables ``targets`` (each position looked for, numbered: its bitboards,
    whether it is the start, the move that leads to it) and ``seen``: every stored position
    (of the games ``where`` selects) that is a target of its game's variant, with the
    target's number: one scan of ``position_bits``."""
    rows: list[tuple[int, str, bool, Bits5, str | None]] = []
    for v, (here, after, texts) in sorted(targets.items()):
        for bits in dict.fromkeys(here):
            rows.append((len(rows), v, True, bits, None))
        for bits in dict.fromkeys(after):
            if bits not in here:
                rows.append((len(rows), v, False, bits, texts.get(bits)))
    _tree_target_table(con, names["targets"], rows)
    every = bits_match([r[3] for r in rows], "p", exact=False)
    # the first plies and the blocks of games the index names (else every position)
    source = position_source(con, [r[3] for r in rows]) or bits_source(con)
    # the bitboard tests first, on the scan alone (then the few rows meet their games)
    con.execute(f"""
        CREATE TEMP TABLE {names["seen"]} AS
        WITH g AS (SELECT g.game_id, g.variant FROM games g WHERE {where}),
        p AS MATERIALIZED (SELECT game_id, ply, black, wm, wk, bm, bk, layout
                           FROM {source} p WHERE {every}),
        SELECT p.game_id, p.ply, p.layout, t.target, t.at_start
        FROM p JOIN g USING (game_id)
        JOIN temp.{names["targets"]} t ON t.variant = g.variant AND t.black = p.black
             AND t.wm = p.wm AND t.wk = p.wk AND t.bm = p.bm AND t.bk = p.bk""",
                params)


def _tree_target_table(con: duckdb.DuckDBPyConnection, name: str,
                       rows: list[tuple[int, str, bool, Bits5, str | None]]) -> None:
    """The temporary table of a tree's targets (created when missing, rows appended)."""
    con.execute(f"CREATE TEMP TABLE IF NOT EXISTS {name} (target INTEGER, variant VARCHAR, "
                "at_start BOOLEAN, black BOOLEAN, wm HUGEINT, wk HUGEINT, bm HUGEINT, "
                "bk HUGEINT, move VARCHAR)")
    if rows:
        con.executemany(
            f"INSERT INTO temp.{name} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(n, v, st, b[0], str(b[1]), str(b[2]), str(b[3]), str(b[4]), text)
             for n, v, st, b, text in rows])


def _tree_unlisted(con: duckdb.DuckDBPyConnection, names: dict[str, str], where: str,
                   params: list[SqlParam]) -> None:
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
    new: list[tuple[int, str, bool, Bits5, str | None]] = []
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
    source = position_source(con, [r[3] for r in new]) or bits_source(con)
    con.execute(f"""
        INSERT INTO temp.{names['unlisted']}
        WITH g AS (SELECT g.game_id, g.variant FROM games g WHERE {where})
        SELECT p.game_id, g.variant, t.target
        FROM {source} p JOIN g USING (game_id)
        JOIN temp.{tg} t ON t.target >= {int(base)} AND t.variant = g.variant
             AND t.black = p.black AND t.wm = p.wm AND t.wk = p.wk AND t.bm = p.bm
             AND t.bk = p.bk
        WHERE {bits_match([r[3] for r in new], 'p')}""", params)


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

