"""Fitting a text table to the terminal's width (used by :func:`pdnkit.lean.tables.print_table`).

Each column gets a kind from its cells: *numbers* (right-aligned, never cut), *text* (a cell
with a space: names, events, move lists; wrapped at spaces, a word too long ends in an
ellipsis) or *tokens* (no space: FENs, keys, paths; cut with an ellipsis on one line). Column
names wrap at ``_``. Every column starts at its narrowest readable width; the room left is
shared out equally among the columns that want more; when even the narrowest widths do not
fit, columns are left out from the right (and named under the table by the caller). Room left
over goes to text columns first (names whole), then to tokens, then to wrapped column names.

Example:
    >>> widths, hidden = plan_widths(["player", "fen"], [["Marion Tinsley"], ["W:W" + "1," * 40]],
    ...                              [False, False], 40)
    >>> widths, hidden
    ([14, 24], [])
    >>> plan_widths(["a", "b"], [["x" * 30], ["y" * 30]], [False, False], 15)
    ([15], ['b'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.table import Table

#: columns between two columns of the table (a space of padding and the divider)
GAP = 2
#: the narrowest a text column gets before columns are left out (names of this length show
#: whole; a longer one wraps at its spaces, a word longer than this ends in an ellipsis)
TEXT_MIN = 20
#: the narrowest a cut token column (FEN, key) gets
TOKEN_MIN = 10
#: a token (or number) this wide is a key, FEN or path, cut with an ellipsis; shorter ones
#: (variant names, dates, codes) always show whole
KEY_WIDTH = 16


def _cell_len(text: str) -> int:
    from rich.cells import cell_len

    return max((cell_len(line) for line in text.split("\n")), default=0)


def header_parts(name: str) -> list[str]:
    """The pieces a column name may wrap into: split after each ``_`` and at spaces.

    Example:
        >>> header_parts("white_losses")
        ['white_', 'losses']
    """
    parts: list[str] = []
    for word in name.split(" "):
        pieces = word.split("_")
        parts += [p + "_" for p in pieces[:-1]] + [pieces[-1]]
    return [p for p in parts if p] or [name]


def header_text(name: str, width: int) -> str:
    """``name`` wrapped to ``width`` at its :func:`header_parts`.

    Example:
        >>> header_text("black_wins", 6)
        'black_\\nwins'
    """
    lines: list[str] = []
    for part in header_parts(name):
        joiner = "" if not lines or lines[-1].endswith("_") else " "
        if lines and _cell_len(lines[-1] + joiner + part) <= width:
            lines[-1] += joiner + part
        else:
            lines.append(part)
    return "\n".join(lines)


def _kind(texts: Sequence[str], numeric: bool) -> str:
    widest = max((_cell_len(t) for t in texts), default=0)
    if numeric and widest < KEY_WIDTH:
        return "number"
    if any(" " in t or "\n" in t for t in texts):
        return "text"
    return "token"


def _narrowest(name: str, texts: Sequence[str], kind: str) -> int:
    natural = max([_cell_len(name)] + [_cell_len(t) for t in texts])
    head = max(_cell_len(p) for p in header_parts(name))
    if kind == "number":
        return max([head] + [_cell_len(t) for t in texts])
    if kind == "text":
        return min(natural, max(head, TEXT_MIN))
    if natural <= KEY_WIDTH:
        return natural
    return max(head, TOKEN_MIN)


def plan_widths(names: Sequence[str], columns: Sequence[Sequence[str]],
                numeric: Sequence[bool], width: int | None) -> tuple[list[int], list[str]]:
    """The width of each shown column (in order) and the names of the columns left out, for
    a table that must fit ``width`` characters (``None``: every column at its natural
    width)."""
    plan = _plan(names, columns, numeric, width)
    return list(plan.values()), [n for i, n in enumerate(names) if i not in plan]


def _plan(names: Sequence[str], columns: Sequence[Sequence[str]], numeric: Sequence[bool],
          width: int | None) -> dict[int, int]:
    """Shown column -> its width, in order (see :func:`plan_widths`)."""
    kinds = [_kind(col, num) for col, num in zip(columns, numeric, strict=True)]
    natural = [max([_cell_len(n)] + [_cell_len(t) for t in col])
               for n, col in zip(names, columns, strict=True)]
    if width is None or sum(natural) + GAP * (len(names) - 1) <= width:
        return dict(enumerate(natural))
    low = [_narrowest(n, col, k) for n, col, k in zip(names, columns, kinds, strict=True)]
    shown = list(range(len(names)))
    # leave out cut tokens (FENs, keys) first, from the right, then any column from the right
    order = [i for i in reversed(shown) if kinds[i] == "token" and low[i] < natural[i]]
    order += [i for i in reversed(shown[1:]) if i not in order]
    for i in order:
        if sum(low[j] for j in shown) + GAP * (len(shown) - 1) <= width:
            break
        shown.remove(i)
    widths = {i: low[i] for i in shown}
    spare = width - sum(widths.values()) - GAP * (len(shown) - 1)
    for kind in ("text", "token"):  # names first, then FENs and keys, a column at a time
        while spare > 0:
            wanting = [i for i in shown if kinds[i] == kind and widths[i] < natural[i]]
            if not wanting:
                break
            for i in wanting[:spare]:
                widths[i] += 1
            spare -= min(spare, len(wanting))
    for i in shown:  # then a wrapped column name on one line, where it fits whole
        if kinds[i] == "number" and 0 < natural[i] - widths[i] <= spare:
            spare -= natural[i] - widths[i]
            widths[i] = natural[i]
    return {i: widths[i] for i in shown}


def fit_table(names: Sequence[str], columns: Sequence[Sequence[str]], numeric: Sequence[bool],
              width: int | None, *, title: str | None = None) -> tuple[Table, list[str], int]:
    """A rich table of the cell texts ``columns`` fitted to ``width`` (see the module's doc):
    (the table, the names of the columns left out, the width it needs).

    Example:
        >>> table, hidden, needed = fit_table(["a_b", "n"], [["x y"], ["1"]], [False, True], None)
        >>> hidden, needed
        ([], 6)
    """
    from rich import box
    from rich.table import Table
    from rich.text import Text

    cells = [[t.replace("\t", " ") for t in col] for col in columns]
    plan = _plan(names, cells, numeric, width)
    hidden = [n for i, n in enumerate(names) if i not in plan]
    table = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                  padding=(0, 1), collapse_padding=True, header_style="bold")
    for i, w in plan.items():
        kind = _kind(cells[i], numeric[i])
        name = names[i]
        table.add_column(Text(header_text(name, w) if _cell_len(name) > w else name),
                         justify="right" if kind == "number" else "left", width=w,
                         no_wrap=kind != "text", overflow="ellipsis")
    for r in range(len(cells[0]) if cells else 0):
        table.add_row(*(Text(cells[i][r]) for i in plan))
    needed = sum(plan.values()) + GAP * (len(plan) - 1)
    return table, hidden, needed


__all__ = ["fit_table", "header_parts", "header_text", "plan_widths"]
