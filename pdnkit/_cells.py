"""Table cells as plain Python values: the one set of conventions for every table pdnkit hands
on (the command line's output layer, :mod:`pdnkit.lean.tables`, and the explorer's JSON API,
:mod:`pdnkit.serve`), so a row reads the same wherever it is written.

* **NULL** is ``None`` (NaN, NaT and pandas' NA too);
* **numbers** are Python ``int`` and ``float`` (numpy scalars converted);
* **dates** stay dates (a pandas date-and-time column whose values all fall at midnight
  gives dates: DuckDB's ``DATE`` comes back from pandas as one); JSON writes them ISO;
* **lists and maps** are Python lists and dicts with text keys.

A result read in Arrow record batches (a streamed query, :func:`arrow_values`) follows the
same conventions from the column's type, so a batch never depends on another: a ``DECIMAL``
is a ``float`` (as pandas gave it), a ``HUGEINT`` an exact ``int`` (pandas made it a float
and lost bits of a 72-square bitboard), a ``DATE`` a date and a ``TIMESTAMP`` a date and time
(pandas' whole-column rule, dates where every value is at midnight, needs the whole column;
a ``DATE`` column is read as dates by Arrow, so the rule is not needed), an ``INTERVAL`` the
text pandas gives it.

Example:
    >>> import datetime as dt
    >>> plain(float("nan")), plain((1, [2.0])), plain({1: None})
    (None, [1, [2.0]], {'1': None})
    >>> json_default(dt.date(2020, 5, 1))
    '2020-05-01'
"""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal
from typing import Any

from pdnkit.errors import ArgumentError

__all__ = ["PlainTable", "arrow_values", "column_values", "duck_table", "frame_records",
           "is_numeric", "json_default",
           "plain"]


def column_values(s: Any) -> list[object]:
    """A pandas column as plain values: NULLs as ``None``, dates as dates.

    Example:
        >>> import pandas as pd
        >>> column_values(pd.Series([1.5, None])), column_values(pd.to_datetime(
        ...     pd.Series(["2020-05-01", None])))
        ([1.5, None], [datetime.date(2020, 5, 1), None])
    """
    kind = getattr(s.dtype, "kind", "O")
    if kind in "iubf" and not s.hasnans:  # numbers without a NULL: as they are
        return list(s.tolist())
    if kind == "M":  # datetimes: dates when every value is at midnight
        stamps = [None if v is None or v != v else v for v in s.tolist()]
        if all(v is None or (v.hour, v.minute, v.second, v.microsecond) == (0, 0, 0, 0)
               for v in stamps):
            return [None if v is None else v.date() for v in stamps]
        return [None if v is None else v.to_pydatetime() if hasattr(v, "to_pydatetime")
                else v for v in stamps]
    return [plain(v) for v in s.tolist()]


def plain(v: object) -> object:
    """A cell as a plain Python value: ``None`` for every NULL (NaN, NaT, NA), numpy values
    as Python ones, arrays as lists, maps as dicts with text keys (see the module's text)."""
    if v is None or isinstance(v, (str, bool, int)):
        return v
    if isinstance(v, float):
        return None if math.isnan(v) else v
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if type(v).__name__ in ("NAType", "NaTType"):
        return None
    if isinstance(v, (dt.date, dt.time)):
        convert = getattr(v, "to_pydatetime", None)  # a pandas Timestamp
        return convert() if convert is not None else v
    if hasattr(v, "tolist"):  # a numpy scalar or array
        return plain(v.tolist())
    return v


def is_numeric(values: list[object]) -> bool:
    """Whether a column of plain values holds numbers (and NULLs) only, at least one.

    Example:
        >>> is_numeric([1, None, 2.5]), is_numeric([None]), is_numeric([True])
        (True, False, False)
    """
    seen = False
    for v in values:
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, (int, float, Decimal)):
            return False
        seen = True
    return seen


def json_default(v: object) -> object:
    """What JSON writes for a plain value it has no type for: dates and times ISO, a whole
    decimal as an integer, bytes as hex, anything else as its text."""
    if isinstance(v, (dt.date, dt.time)):
        return v.isoformat()
    if isinstance(v, Decimal):
        return int(v) if v == v.to_integral_value() else float(v)
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v).hex()
    return str(v)


def frame_records(df: Any) -> list[dict[str, object]]:
    """The rows of a pandas DataFrame as dicts of plain values, in column order: what
    ``--format json`` writes, one object a row.

    Example:
        >>> import pandas as pd
        >>> frame_records(pd.DataFrame({"a": [1, 2], "b": ["x", None]}))
        [{'a': 1, 'b': 'x'}, {'a': 2, 'b': None}]
    """
    names = [str(c) for c in df.columns]
    values = [column_values(df.iloc[:, i]) for i in range(len(names))]
    rows = len(values[0]) if values else 0
    return [{n: col[i] for n, col in zip(names, values, strict=True)} for i in range(rows)]


#: DuckDB's whole-number types that Arrow carries as ``decimal128(38, 0)``
_WHOLE = ("HUGEINT", "UHUGEINT")


def arrow_values(column: Any, duck_type: str = "") -> list[object]:
    """An Arrow array (or chunked array) of a query's result as plain values, by its type
    (see the module's text); ``duck_type`` is the column's DuckDB type, which tells a
    ``HUGEINT`` (an ``int``) from a ``DECIMAL`` (a ``float``).

    Example:
        >>> from pdnkit._arrow import pyarrow_module
        >>> pa = pyarrow_module()
        >>> arrow_values(pa.array([1.5, float("nan"), None]))
        [1.5, None, None]
        >>> arrow_values(pa.array([[(1, "a")]], pa.map_(pa.int32(), pa.string())))
        [{'1': 'a'}]
        >>> import decimal
        >>> arrow_values(pa.array([decimal.Decimal("-5")], pa.decimal128(38, 0)), "HUGEINT")
        [-5]
    """
    values: list[object] = column.to_pylist()
    convert = _converter(column.type, duck_type.upper() in _WHOLE)
    if convert is None:
        return values
    return [None if v is None else convert(v) for v in values]


def _converter(t: Any, whole: bool = False) -> Any:
    """The function that makes a non-NULL value of Arrow type ``t`` plain, or ``None`` where
    ``to_pylist`` gives it plain already (numbers, text, booleans, dates, times)."""
    from pdnkit._arrow import pyarrow_module

    types = pyarrow_module().types
    if types.is_floating(t):
        return _no_nan
    if types.is_decimal(t):
        return int if whole else float
    if types.is_dictionary(t):
        return _converter(t.value_type)
    if types.is_map(t):
        key, item = _converter(t.key_type), _converter(t.item_type)
        return lambda v: {str(k if key is None or k is None else key(k)):
                          _apply(item, x) for k, x in v}
    if types.is_list(t) or types.is_large_list(t) or types.is_fixed_size_list(t):
        inner = _converter(t.value_type)
        return None if inner is None else lambda v: [_apply(inner, x) for x in v]
    if types.is_struct(t):
        fields = {t.field(i).name: _converter(t.field(i).type) for i in range(t.num_fields)}
        if all(f is None for f in fields.values()):
            return None
        return lambda v: {k: _apply(fields.get(k), x) for k, x in v.items()}
    if types.is_timestamp(t):
        return _datetime
    if types.is_interval(t):
        return _interval
    if (types.is_integer(t) or types.is_string(t) or types.is_large_string(t)
            or types.is_boolean(t) or types.is_date(t) or types.is_time(t)
            or types.is_null(t) or types.is_binary(t) or types.is_large_binary(t)):
        return None
    return plain


def _apply(convert: Any, v: object) -> object:
    return v if v is None or convert is None else convert(v)


def _no_nan(v: float) -> float | None:
    return None if v != v else v


def _datetime(v: Any) -> object:
    convert = getattr(v, "to_pydatetime", None)  # a nanosecond timestamp read by pandas
    return convert() if convert is not None else v


def _interval(v: Any) -> object:
    """An Arrow month-day-nano interval as the text pandas gives the same value (a month
    counted as 30 days, as DuckDB's conversion to pandas counts it): ``3 days 00:00:00``."""
    import pandas as pd  # only for a result with an INTERVAL column

    days = v.months * 30 + v.days
    return str(pd.Timedelta(days=days, microseconds=v.nanoseconds // 1000,
                            nanoseconds=v.nanoseconds % 1000))


class PlainTable:
    """A table result without pandas: column names and columns of plain Python values, with
    the few DataFrame operations the statistics use on their results (a column by name, a
    choice of columns, a new column, ``drop``, ``rename``, ``itertuples``), so one body of
    code builds a table either way. :func:`pdnkit.stats.common.plain_tables` makes the
    statistics return one; :meth:`to_frame` gives the DataFrame.

    Example:
        >>> t = PlainTable(["a", "b"], [[1, 2], ["x", None]])
        >>> len(t), t["a"], t[["b", "a"]].columns, list(t.itertuples(index=False))
        (2, [1, 2], ['b', 'a'], [(1, 'x'), (2, None)])
        >>> t["c"] = [True, False]
        >>> t.drop(columns=["a"]).rename(columns={"b": "B"}).columns
        ['B', 'c']
    """

    def __init__(self, columns: list[str], values: list[list[object]]) -> None:
        if len(columns) != len(values):
            raise ArgumentError("one list of values per column")
        self.columns: list[str] = list(columns)
        self.values: list[list[object]] = [list(v) for v in values]

    @classmethod
    def of_rows(cls, columns: list[str], rows: list[tuple[object, ...]]) -> PlainTable:
        """A table from rows (tuples in column order).

        Example:
            >>> PlainTable.of_rows(["a", "b"], [(1, 2), (3, 4)])["b"]
            [2, 4]
        """
        return cls(columns, [[r[i] for r in rows] for i in range(len(columns))])

    def __len__(self) -> int:
        return len(self.values[0]) if self.values else 0

    @property
    def empty(self) -> bool:
        """Whether the table has no row (or no column)."""
        return len(self) == 0 or not self.columns

    def __getitem__(self, key: str | list[str]) -> Any:
        if isinstance(key, str):
            return self.values[self._index(key)]
        return PlainTable(list(key), [self.values[self._index(k)] for k in key])

    def __setitem__(self, key: str, values: Any) -> None:
        column = list(values)
        if self.columns and len(column) != len(self):
            raise ArgumentError(f"column {key!r} has {len(column)} values for {len(self)} rows")
        if key in self.columns:
            self.values[self._index(key)] = column
        else:
            self.columns.append(key)
            self.values.append(column)

    def _index(self, key: str) -> int:
        try:
            return self.columns.index(key)
        except ValueError:
            raise KeyError(key) from None

    def copy(self) -> PlainTable:
        """A copy (its columns' lists copied too)."""
        return PlainTable(self.columns, self.values)

    def drop(self, *, columns: list[str]) -> PlainTable:
        """The table without ``columns``."""
        kept = [c for c in self.columns if c not in columns]
        return PlainTable(kept, [self.values[self._index(c)] for c in kept])

    def rename(self, *, columns: dict[str, str]) -> PlainTable:
        """The table with the columns ``columns`` names renamed."""
        return PlainTable([columns.get(c, c) for c in self.columns], self.values)

    def itertuples(self, index: bool = False) -> Any:
        """The rows as tuples in column order (``index`` must be ``False``: no index)."""
        if index:
            raise ArgumentError("a plain table has no index")
        return zip(*self.values, strict=True) if self.values else iter(())

    def to_frame(self) -> Any:
        """The table as a pandas DataFrame (pandas imported here)."""
        import pandas as pd

        return pd.DataFrame(dict(zip(self.columns, self.values, strict=True)),
                            columns=self.columns)


#: DuckDB types whose values pandas gives as floats (a ``HUGEINT`` bitboard, a ``DECIMAL``)
_AS_FLOAT = ("HUGEINT", "UHUGEINT", "DECIMAL")


def duck_table(result: Any) -> PlainTable:
    """A DuckDB result (a connection after ``execute``) as a :class:`PlainTable` whose cells
    are what :func:`column_values` gives of the DataFrame ``result.df()`` would be: a
    ``HUGEINT`` or ``DECIMAL`` a float, NaN ``None``, a ``TIMESTAMP`` column whose values all
    fall at midnight dates, without pandas.

    Example:
        >>> import duckdb
        >>> t = duck_table(duckdb.connect().execute(
        ...     "SELECT 1::HUGEINT AS h, 2 AS i, 'nan'::DOUBLE AS d"))
        >>> t["h"], t["i"], t["d"]
        ([1.0], [2], [None])
    """
    names = [str(d[0]) for d in result.description]
    types = [str(d[1]).upper() for d in result.description]
    rows = result.fetchall()
    values = [[r[i] for r in rows] for i in range(len(names))]
    for i, kind in enumerate(types):
        values[i] = _as_pandas_gives(values[i], kind)
    return PlainTable(names, values)


def _as_pandas_gives(column: list[object], kind: str) -> list[object]:
    """One column of :func:`duck_table` as pandas gives it (see there)."""
    if kind.startswith(_AS_FLOAT):
        return [None if v is None else float(v) for v in column]  # type: ignore[arg-type]
    if kind in ("DOUBLE", "FLOAT", "REAL"):
        return [None if v is None or v != v else v for v in column]
    if kind.startswith("TIMESTAMP") and all(
            v is None or (isinstance(v, dt.datetime)
                          and (v.hour, v.minute, v.second, v.microsecond) == (0, 0, 0, 0))
            for v in column):
        return [v.date() if isinstance(v, dt.datetime) else v for v in column]
    return column
