"""What the statistics share: the outcome of a game in SQL, the result columns, a query to a
DataFrame, and missing values.

Results are read from ``games.outcome`` (``white``/``black``/``draw``/``unknown``, falling back
to the normalised ``result``); scores are White's percentage of the decided-or-drawn games (a
win is 1, a draw 1/2; games without a known result are counted in ``games`` and ``unknown`` but
not in the score).

Example:
    >>> score(2, 1, 1), is_missing(float("nan")), as_int(3.0)
    (62.5, True, 3)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, ParamSpec, SupportsInt, cast

from pdnkit._cells import PlainTable, duck_table

if TYPE_CHECKING:  # pragma: no cover
    import duckdb
    import pandas as pd

    from pdnkit.stats.filters import SqlParam

__all__ = ["OUTCOME_SQL", "as_int", "black_moves_first", "first_mover_first", "frame",
           "is_missing", "plain_tables", "result_columns", "score", "table_of", "variants_of"]

#: SQL expression: the outcome of game alias ``g`` (white | black | draw | unknown)
OUTCOME_SQL = (
    "coalesce(nullif(g.outcome, ''), CASE g.result WHEN '1-0' THEN 'white' "
    "WHEN '0-1' THEN 'black' WHEN '1/2-1/2' THEN 'draw' ELSE 'unknown' END)"
)


#: whether :func:`frame` and :func:`table_of` give plain tables (:func:`plain_tables`)
_PLAIN: ContextVar[bool] = ContextVar("pdnkit_plain_tables", default=False)


@contextmanager
def plain_tables() -> Iterator[None]:
    """Within it, the statistics built on :func:`frame` and :func:`table_of` return a
    :class:`pdnkit._cells.PlainTable` (cells as the DataFrame's would be written) in place
    of a DataFrame: pandas is not imported. What the command line's quick forms use.

    Example:
        >>> import duckdb
        >>> with plain_tables():
        ...     type(frame(duckdb.connect(), "SELECT 1 AS a")).__name__
        'PlainTable'
    """
    token = _PLAIN.set(True)
    try:
        yield
    finally:
        _PLAIN.reset(token)


#: the parameters of a statistic that :func:`plain_form` makes plain
P = ParamSpec("P")


def plain_form(statistic: Callable[P, pd.DataFrame], name: str
               ) -> Callable[P, PlainTable]:
    """``statistic`` (a function that returns a DataFrame built on :func:`frame` and
    :func:`table_of`) as the function ``name`` that takes the same arguments and returns the
    same columns and cells as a :class:`pdnkit._cells.PlainTable`, run within
    :func:`plain_tables`: without pandas.

    Example:
        >>> import duckdb
        >>> def one(con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
        ...     return frame(con, "SELECT 1 AS a")
        >>> one_table = plain_form(one, "one_table")
        >>> one_table(duckdb.connect()).columns, one_table.__name__
        (['a'], 'one_table')
    """
    import functools

    @functools.wraps(statistic)
    def plain(*args: P.args, **kwargs: P.kwargs) -> PlainTable:
        with plain_tables():
            return cast(PlainTable, statistic(*args, **kwargs))

    import inspect

    plain.__name__ = plain.__qualname__ = name
    del plain.__wrapped__  # its own signature: the statistic's arguments, a plain table back
    plain.__signature__ = inspect.signature(statistic).replace(  # type: ignore[attr-defined]
        return_annotation="PlainTable")
    plain.__doc__ = (f":func:`{statistic.__module__}.{statistic.__name__}` as a "
                     ":class:`pdnkit._cells.PlainTable`, without pandas: the same columns and "
                     "cells (:func:`pdnkit.stats.common.plain_form`).")
    return plain


def frame(con: duckdb.DuckDBPyConnection, sql: str,
          params: Sequence[SqlParam] = ()) -> pd.DataFrame:
    """The rows of ``sql`` (with ``params``) as a DataFrame (a plain table within
    :func:`plain_tables`)."""
    result = con.execute(sql, list(params))
    if _PLAIN.get():
        return cast("pd.DataFrame", duck_table(result))
    return result.df()


def table_of(rows: Sequence[tuple[object, ...]], columns: Sequence[str]) -> pd.DataFrame:
    """A table of Python ``rows`` (no row: ``columns`` only): a DataFrame, or a plain table
    within :func:`plain_tables`.

    Example:
        >>> list(table_of([(1, "x")], ["a", "b"]).columns)
        ['a', 'b']
    """
    if _PLAIN.get():
        return cast("pd.DataFrame", PlainTable.of_rows(list(columns), list(rows)))
    import pandas as pd

    return pd.DataFrame(list(rows), columns=list(columns))


def result_columns(oc: str = "oc") -> str:
    """Aggregate SQL columns: games, white_wins, draws, black_wins, unknown, white_score.

    Example:
        >>> result_columns().split(", ")[0]
        'count(*)::BIGINT AS games'
    """
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


def black_moves_first(variants: Iterable[str | None]) -> bool:
    """True when there are variants and Black moves first in every one (English, pool,
    Thai); a name the rules engine does not know counts as White first.

    Example:
        >>> black_moves_first(["english"]), black_moves_first(["english", "russian"])
        (True, False)
    """
    from pdnkit.rules import Color, get_rules

    names = {v for v in variants if v}
    if not names:
        return False
    for v in names:
        try:
            if get_rules(v).first_mover is not Color.BLACK:
                return False
        except ValueError:  # a variant the engine does not know
            return False
    return True


def variants_of(con: duckdb.DuckDBPyConnection, where: str,
                params: Sequence[SqlParam]) -> list[str]:
    """The variants of the games ``where`` (a condition on ``games g``) selects."""
    return [str(v) for (v,) in con.execute(
        f"SELECT DISTINCT g.variant FROM games g WHERE g.variant IS NOT NULL AND {where}",
        list(params)).fetchall()]


def first_mover_first(df: pd.DataFrame, variants: Iterable[str | None]) -> pd.DataFrame:
    """``df`` with each ``black_...`` column in the place of its ``white_...`` column and
    the other way round when Black moves first in every one of ``variants``
    (:func:`black_moves_first`): the first mover's columns lead, as the players of those
    variants read a result. Otherwise ``df`` as it is.

    Example:
        >>> import pandas as pd
        >>> df = pd.DataFrame(columns=["games", "white_wins", "draws", "black_wins"])
        >>> list(first_mover_first(df, ["english"]).columns)
        ['games', 'black_wins', 'draws', 'white_wins']
    """
    if not black_moves_first(variants):
        return df
    cols = [str(c) for c in df.columns]
    where = {c: i for i, c in enumerate(cols)}
    order = list(cols)
    for c in cols:
        twin = "black_" + c[len("white_"):]
        if c.startswith("white_") and twin in where:
            order[where[c]], order[where[twin]] = twin, c
    return df[order]


def score(wins: float, draws: float, losses: float) -> float | None:
    """Score percentage: a win counts 1, a draw 1/2; ``None`` without games.

    >>> score(2, 1, 1)
    62.5
    >>> score(0, 0, 0) is None
    True
    """
    n = wins + draws + losses
    return None if n == 0 else round(100.0 * (wins + 0.5 * draws) / n, 1)


def is_missing(v: object) -> bool:
    """True for None, NaN, NaT and pandas' NA (a cell a DataFrame leaves empty).

    Example:
        >>> is_missing(None), is_missing(""), is_missing(0)
        (True, False, False)
    """
    if v is None:
        return True
    if isinstance(v, float):
        return v != v
    if isinstance(v, (str, int)):
        return False
    try:
        import pandas as pd

        return bool(pd.isna(v))
    except (TypeError, ValueError):
        return False


def as_int(v: object) -> int | None:
    """``v`` as an int, ``None`` where it is missing.

    Example:
        >>> as_int(None), as_int("7")
        (None, 7)
    """
    return None if is_missing(v) else int(cast("SupportsInt | str", v))
