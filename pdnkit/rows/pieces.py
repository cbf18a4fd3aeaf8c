"""A game's text too long for one row, stored in pieces (``raw_pieces``).

DuckDB holds a string longer than a storage block (64 KB) in memory of its own until the
transaction that wrote it commits, so one game of 80 MB (a huge comment: the reader keeps such
a game whole, with a ``too-large`` finding) could not be loaded under the import's memory
limit, and failed its whole file. A text longer than :data:`RAW_ROW_CHARS` characters is
therefore cut into pieces of :data:`PIECE_CHARS` characters (under 32 KB each, even in UTF-8
of four bytes a character), which DuckDB stores and spills like any short row:
``games.raw_pdn`` is then NULL and ``games.raw_pieces`` says how many pieces there are.
``pdnkit export`` joins them again; in SQL, ``string_agg(text, '' ORDER BY piece)``.

Example:
    >>> import pyarrow as pa
    >>> games = pa.table({"game_id": [0, 1], "raw_pdn": ["short", "x" * (RAW_ROW_CHARS + 1)]})
    >>> games, pieces = split_long_texts(games)
    >>> games["raw_pdn"].to_pylist()[0], games["raw_pieces"].to_pylist()
    ('short', [None, 123])
    >>> pieces.num_rows, "".join(pieces["text"].to_pylist()) == "x" * (RAW_ROW_CHARS + 1)
    (123, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["PIECE_CHARS", "RAW_ROW_CHARS", "join_pieces", "split_long_texts"]

#: the longest text ``games.raw_pdn`` holds itself (characters)
RAW_ROW_CHARS = 1_000_000
#: characters of one ``raw_pieces`` row
PIECE_CHARS = 8192


def split_long_texts(games: pa.Table) -> tuple[pa.Table, pa.Table | None]:
    """``games`` (a batch's games: ``game_id``, ``raw_pdn`` ...) with every text longer than
    :data:`RAW_ROW_CHARS` taken out of ``raw_pdn`` (NULL) and counted in a ``raw_pieces``
    column, and the ``raw_pieces`` rows (``game_id``, ``piece``, ``text``) holding them, or
    ``None`` when no text is that long (``games`` then is returned as it was)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if games.num_rows == 0 or "raw_pdn" not in games.column_names:
        return games, None
    raw = games["raw_pdn"]
    long = pc.fill_null(pc.greater(pc.utf8_length(raw), RAW_ROW_CHARS), False)
    if not pc.any(long).as_py():
        return games, None
    ids: list[int] = []
    numbers: list[int] = []
    texts: list[str] = []
    counts: list[int | None] = []
    for gid, text, is_long in zip(games["game_id"].to_pylist(), raw.to_pylist(),
                                  long.to_pylist(), strict=True):
        if not is_long or text is None:
            counts.append(None)
            continue
        n = 0
        for start in range(0, len(text), PIECE_CHARS):
            ids.append(gid)
            numbers.append(n)
            texts.append(text[start:start + PIECE_CHARS])
            n += 1
        counts.append(n)
    games = games.set_column(games.column_names.index("raw_pdn"), "raw_pdn",
                             pc.if_else(long, pa.scalar(None, pa.string()), raw))
    games = games.append_column("raw_pieces", pa.array(counts, pa.int32()))
    pieces = pa.table({"game_id": pa.array(ids, pa.int64()),
                       "piece": pa.array(numbers, pa.int32()),
                       "text": pa.array(texts, pa.string())})
    return games, pieces


def join_pieces(con: object, game_ids: list[int]) -> dict[int, str]:
    """The whole text of each game of ``game_ids`` stored in pieces, joined in Python (never
    one DuckDB string of many megabytes). ``con`` is a DuckDB connection.

    Example:
        >>> import duckdb
        >>> from pdnkit.store.db import connect
        >>> con = connect(":memory:")
        >>> _ = con.execute("INSERT INTO raw_pieces VALUES (7, 1, 'b'), (7, 0, 'a')")
        >>> join_pieces(con, [7])
        {7: 'ab'}
    """
    if not game_ids:
        return {}
    ids = ", ".join(str(int(g)) for g in game_ids)
    parts: dict[int, list[str]] = {}
    cur = con.execute(  # type: ignore[attr-defined]
        f"SELECT game_id, text FROM raw_pieces WHERE game_id IN ({ids}) ORDER BY game_id, piece")
    while rows := cur.fetchmany(1024):
        for gid, text in rows:
            parts.setdefault(int(gid), []).append(text)
    return {g: "".join(p) for g, p in parts.items()}
