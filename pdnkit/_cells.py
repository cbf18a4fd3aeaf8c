"""Table cells as plain Python values: the one set of conventions for every table pdnkit hands
on (the command line's output layer, :mod:`pdnkit.cli.output`, and the explorer's JSON API,
:mod:`pdnkit.serve`), so a row reads the same wherever it is written.

* **NULL** is ``None`` (NaN, NaT and pandas' NA too);
* **numbers** are Python ``int`` and ``float`` (numpy scalars converted);
* **dates** stay dates (a pandas date-and-time column whose values all fall at midnight
  gives dates: DuckDB's ``DATE`` comes back from pandas as one); JSON writes them ISO;
* **lists and maps** are Python lists and dicts with text keys.

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

__all__ = ["column_values", "frame_records", "is_numeric", "json_default", "plain"]


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
