"""How the moves are stored compactly: the SQL that turns rows with the columns of the
``moves`` view into ``move_rows`` rows (the view, in ``schema.sql``, turns them back).

Example:
    >>> import duckdb
    >>> from pdnkit.store.db import schema_sql
    >>> con = duckdb.connect()
    >>> _ = con.execute(schema_sql())
    >>> _ = con.execute("INSERT INTO move_rows BY NAME SELECT " + MOVE_ROWS_SELECT + " FROM "
    ...     "(SELECT 1 AS game_id, 1 AS ply, 1 AS move_number, 'W' AS side, '32-28' AS notation,"
    ...     " '32-28' AS canonical, 32 AS origin, 28 AS destination, [32, 28] AS path,"
    ...     " []::INTEGER[] AS captured, false AS promotes, 'man' AS piece,"
    ...     " NULL::INTEGER[] AS nags, NULL AS comment, true AS replayed, 3 AS line)")
    >>> con.execute("SELECT number_offset, notation, canonical, path FROM move_rows").fetchall()
    [(0, None, None, None)]
    >>> con.execute("SELECT move_number, notation, canonical, path, is_capture FROM moves"
    ...             ).fetchall()
    [(1, '32-28', '32-28', [32, 28], False)]
"""

#: the ``move_rows`` columns of rows given with the columns of the ``moves`` view (the
#: loader's batches, a ``moves`` table of schema version 2): what the view derives again is
#: stored as ``NULL`` (a notation equal to the numeric form its squares spell, a canonical
#: form equal to the notation, a quiet move's path) or as an offset (the move number); a
#: canonical form that is missing or empty is stored as ``''`` (a missing notation too).
MOVE_ROWS_SELECT = (
    "game_id, ply, move_number - implied_move_number(ply, side) AS number_offset, side, "
    "CASE WHEN notation = numeric_move(origin, destination, captured) THEN NULL "
    "ELSE coalesce(notation, '') END AS notation, "
    "CASE WHEN nullif(canonical, '') IS NULL THEN '' WHEN canonical = notation "
    "THEN NULL ELSE canonical END AS canonical, origin, destination, "
    "CASE WHEN coalesce(path, []) = [origin, destination] THEN NULL "
    "ELSE coalesce(path, []) END AS path, captured, promotes, piece, nags, comment, "
    "replayed, line")
