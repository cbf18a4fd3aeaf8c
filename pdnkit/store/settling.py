"""What an import stopped before its end left, settled by ``pdnkit upgrade``
(:func:`settle_marks`): the games marked for their copies, openings and novelties
(``copy_pending``, ``opening_pending``) and opening counts that do not count the games now
(:mod:`pdnkit.store.opencounts`).

Example:
    >>> import tempfile, pathlib
    >>> from pdnkit.store.db import connect
    >>> db = pathlib.Path(tempfile.mkdtemp()) / "x.duckdb"
    >>> connect(db).close()
    >>> settle_marks(db)
    0
"""

from __future__ import annotations

from pathlib import Path

from pdnkit.store import steps
from pdnkit.store.opencounts import counts_current, settle_counts
from pdnkit.store.schema import BLOCK_SIZE, DatabaseError, database_error, no_progress_bar

__all__ = ["settle_marks"]


def settle_marks(path: Path) -> int:
    """Bring what an interrupted import left up to date as the import's end would: the
    groups of copies, the openings and novelties of the games marked
    (:func:`pdnkit.store.copies.settle_copies`, then
    :func:`pdnkit.store.openingdb.settle_import`) and the opening counts
    (:func:`pdnkit.store.opencounts.settle_counts`). Returns the games that were marked."""
    import duckdb

    marks = ("SELECT count(*) FROM (SELECT game_id FROM copy_pending UNION "
             "SELECT game_id FROM opening_pending)")
    con = no_progress_bar(duckdb.connect(str(path), read_only=True))
    try:
        waiting = int(con.execute(marks).fetchall()[0][0])
        stale = not counts_current(con)  # the opening counts of games an import left
    finally:
        con.close()
    if not waiting and not stale:
        return 0
    from pdnkit.store.copies import settle_copies
    from pdnkit.store.openingdb import settle_import

    steps.reached("upgrade.settle")
    con = no_progress_bar(duckdb.connect(str(path),
                                         config={"default_block_size": str(BLOCK_SIZE)}))
    try:
        if waiting:
            settle_copies(con)
            settle_import(con)
        settle_counts(con)
        con.execute("CHECKPOINT")
    except duckdb.Error as exc:
        raise DatabaseError(
            f"{database_error(exc, str(path), 'write')}; the {waiting} games an interrupted "
            "import left marked are still marked (the next import or upgrade settles "
            "them)") from None
    finally:
        con.close()
    return waiting
