"""``pdnkit show``: one game at one ply in the terminal.

:func:`show` returns a :class:`GameShow`, a rich renderable: the board at ply K (the move
played marked, or the squares of a faulty move as written), the move list around K with K
marked, the comments and NAGs at K, the game's findings, the legal moves where ply K is an
error, and at the end the result and pdnkit's verdict. Text from the file reaches the
terminal through :func:`pdnkit.viewer.text.terminal` (control characters as visible escapes)
and as :class:`rich.text.Text` (rich markup in it is printed as written).

Example:
    >>> from io import StringIO
    >>> from rich.console import Console
    >>> g = show('[GameType "20"] 1. 32-28 19-23 2. 28-23 *', game=1)
    >>> g.ply, g.model.findings[0].code
    (3, 'illegal-move')
    >>> con = Console(file=StringIO(), width=120, color_system=None)
    >>> con.print(g)
    >>> "28x19" in con.file.getvalue()
    True
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pdnkit.errors import ArgumentError
from pdnkit.viewer.model import GameModel, game_model, resolve_ply
from pdnkit.viewer.text import terminal

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console, ConsoleOptions, RenderableType, RenderResult

__all__ = ["GameShow", "show"]

_SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
#: rows of the move list shown around ply K
_WINDOW_ROWS = 22


class GameShow:
    """A game at ply ``ply`` as a rich renderable (see :func:`show`)."""

    def __init__(self, model: GameModel, ply: int) -> None:
        self.model = model
        self.ply = ply

    # ----------------------------------------------------------------------------------
    def marks(self) -> dict[int, str]:
        """Marks of the board at ply K: the move played, or the squares written."""
        m = self.model
        marks: dict[int, str] = {}
        if 1 <= self.ply <= m.last_ply:
            p = m.plies[self.ply - 1]
            if p.replayed:
                for s in p.path:
                    marks[s] = "path"
                if p.path:
                    marks[p.path[0]] = "from"
                    marks[p.path[-1]] = "to"
                for s in p.captured:
                    marks[s] = "captured"
        for f in self.errors_here():
            for path in f.legal_paths:
                for s in path:
                    marks[s] = "legal"
            for s in f.written_squares:
                marks[s] = "written"
        return marks

    def errors_here(self) -> list[Any]:
        return [f for f in self.model.findings if f.ply == self.ply and f.severity == "error"]

    def shown(self) -> str:
        """What the board shows: the start, the position after ply K, the final position,
        the position before ply K (an error there), or the last replayed position (ply K
        was not replayed).

        >>> show('[GameType "20"] 1. 32-28 19-23 2. 37-26 *', ply=3).shown()
        'the position before ply 3, where the error is (37-26 is not played on it)'
        """
        m, k = self.model, self.ply
        if k == 0:
            return "the start position"
        p = m.plies[k - 1]
        error = next((f for f in self.errors_here() if f.before), None)
        if error is not None:
            return (f"the position before ply {k}, where the error is "
                    f"({terminal(error.move or p.written)} is not played on it)")
        if not p.replayed:
            j = next((q.ply for q in reversed(m.plies[: k - 1]) if q.replayed), 0)
            last = f"the position after ply {j}, the last replayed" if j else \
                "the start position (no ply was replayed)"
            return f"{last}; ply {k} was not replayed"
        return "the final position" if k == m.last_ply else f"the position after ply {k}"

    def board(self) -> RenderableType:
        from rich.text import Text

        from pdnkit.board import Board

        m = self.model
        if m.rules is None:
            return Text("(no board: the variant is unknown)", style="italic")
        here = next((f.before for f in self.errors_here() if f.before), None)
        # an error shows the board before its move (also when the move stood and was replayed)
        return Board(m.rules, here or m.placement(self.ply), marks=self.marks())

    def _rows(self) -> list[list[Any]]:
        """The move list as rows ``[number, first mover's ply, second mover's ply]``."""
        m = self.model
        rows: list[list[Any]] = []
        for p in m.plies:
            if p.side is None:  # not replayed from a known position: alternate
                slot = 1 if p.ply % 2 else 2
            else:
                slot = 1 if p.side == m.first_mover else 2
            number = p.number if p.number is not None or not rows else rows[-1][0]
            if not rows or rows[-1][0] != number or rows[-1][slot] is not None \
                    or (slot == 1 and rows[-1][2] is not None):
                rows.append([number, None, None])
            rows[-1][slot] = p
        return rows

    def move_list(self) -> RenderableType:
        """The moves around ply K, one row a move number, each variation on its own line
        under the row of the move it replaces (bracketed, nested ones inside)."""
        from rich.console import Group
        from rich.padding import Padding
        from rich.text import Text

        from pdnkit.viewer.variations import line_text

        m = self.model
        rows = self._rows()
        at = next((i for i, r in enumerate(rows)
                   if any(x is not None and x.ply == self.ply for x in r[1:])), len(rows) - 1)
        lo = max(0, min(at - _WINDOW_ROWS // 2, len(rows) - _WINDOW_ROWS))
        hi = min(len(rows), lo + _WINDOW_ROWS)
        shown = rows[lo:hi]
        nw = max((len(f"{r[0]}.") for r in shown if r[0]), default=0)
        cells = [(self._move_cell(w), self._move_cell(b)) for _, w, b in shown]
        ww = max((w.cell_len for w, _ in cells), default=0)
        top = [v for v in range(len(m.variations)) if m.variations[v].parent is None]
        lines: list[RenderableType] = []
        if lo > 0:
            lines.append(Text(" " * (nw + 2) + f"... {lo} moves"))
        for (number, *plies), (w, b) in zip(shown, cells, strict=True):
            line = Text((f"{number}." if number else "").rjust(nw), style="dim")
            line.append("  ").append_text(w).append(" " * (ww - w.cell_len) + "  ")
            lines.append(line.append_text(b))
            for p in (x for x in plies if x is not None):
                for v in (v for v in top if m.variations[v].at == p.ply):
                    text = terminal(line_text(m.variations, v, m.first_mover))
                    lines.append(Padding(Text(text, style="italic"), (0, 0, 0, nw + 2)))
        if hi < len(rows):
            lines.append(Text(" " * (nw + 2) + f"... {len(rows) - hi} more"))
        if not rows:
            lines.append(Text("(no moves)"))
        return Group(*lines)

    def _move_cell(self, p: Any) -> Any:
        from rich.text import Text

        if p is None:
            return Text("")
        t = Text(terminal(p.written) + "".join(f" ${n}" for n in p.nags))
        bad = any(f.ply == p.ply and f.severity == "error" for f in self.model.findings)
        if not p.replayed:
            t.stylize("red" if bad else "dim")
        elif any(f.ply == p.ply and f.severity == "warning" for f in self.model.findings):
            t.stylize("yellow")
        if p.comment:
            t.append(" {...}", style="dim italic")
        if p.ply == self.ply:
            t.stylize("reverse bold")
        return t

    def details(self) -> list[RenderableType]:
        from rich.text import Text

        m = self.model
        out: list[RenderableType] = []
        k = self.ply
        where = "start position" if k == 0 else f"ply {k} of {m.last_ply}"
        if 1 <= k <= m.last_ply:
            p = m.plies[k - 1]
            t = Text(f"{where}: ", style="bold")
            t.append(terminal(p.label(m.first_mover)))
            if p.notation and p.notation != p.written:
                t.append(f" (played {p.notation})", style="dim")
            if not p.replayed:
                t.append("  not replayed", style="red")
            out.append(t)
            if p.nags:
                out.append(Text("NAGs: " + " ".join(f"${n}" for n in p.nags)))
            if p.comment:
                out.append(Text("comment: ", style="bold").append(terminal(p.comment),
                                                                  style="italic"))
        else:
            out.append(Text(where, style="bold"))
        out.append(Text(f"board: {self.shown()}", style="dim"))
        if k < len(m.evals) and m.evals[k] is not None:
            out.append(Text(terminal(f"evaluation: {m.evals[k]:+.2f} ({m.eval_by}; men, "
                                     "White's view)")))
        for f in self.errors_here():
            t = Text(f"{f.code}: ", style="bold red")
            t.append(f"move as written {terminal(f.move or '?')}; ")
            t.append(f"{len(f.legal)} legal move{'s' * (len(f.legal) != 1)} here: ", style="bold")
            t.append(", ".join(f.legal) or "none (the game was over)")
            out.append(t)
        if k == m.last_ply:
            out.append(Text(terminal(f"result {m.result_text()}; pdnkit: {m.verdict}"),
                            style="bold"))
        return out

    def findings_table(self) -> RenderableType:
        from rich.table import Table
        from rich.text import Text

        table = Table(title=f"findings ({len(self.model.findings)})", title_justify="left",
                      show_lines=False, expand=False)
        for col in ("ply", "severity", "code", "move", "message"):
            table.add_column(col, overflow="fold")
        for f in self.model.findings:
            mark = "reverse" if f.ply == self.ply and f.ply is not None else ""
            # every cell a Text: rich reads markup in plain strings, and file text has none
            table.add_row(Text("" if f.ply is None else str(f.ply), style=mark),
                          Text(f.severity, style=_SEVERITY_STYLE.get(f.severity, "")),
                          Text(f.code), Text(terminal(f.move or "")), Text(terminal(f.message)))
        return table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.table import Table
        from rich.text import Text

        m = self.model
        yield Text(terminal(m.heading()), style="bold")
        title = m.rules.title if m.rules else "unknown variant"
        yield Text(terminal(f"{m.source} · {title} · status {m.report.status}"), style="dim")
        grid = Table.grid(padding=(0, 3))
        grid.add_column(no_wrap=True)  # the board keeps its size; the move list wraps
        grid.add_column()
        grid.add_row(self.board(), self.move_list())
        yield grid
        yield from self.details()
        if m.findings:
            yield self.findings_table()
        else:
            yield Text("no findings", style="green")


def _analysis(model: GameModel, db: Any, game_id: int) -> None:
    """The database's analysis of the game (the one with the most positions), if any."""
    from pdnkit.store.evals import choose_key
    from pdnkit.store.session import reading
    from pdnkit.viewer.fetch import db_analysis
    from pdnkit.viewer.model import add_analysis

    with reading(db) as con:
        key = choose_key(con)
        if key is not None:
            evals, found = db_analysis(con, game_id, key)
            add_analysis(model, evals, key.label, found)


def show(source: Any = None, *, game: int = 1, db: Any = None, game_id: int | None = None,
         ply: str | int | None = None, variant: str | None = None) -> GameShow:
    """One game at one ply, ready to print with rich (``rich.print(show(...))``).

    Give a PDN file (or text) and the 1-based ``game`` number, or a database ``db`` and a
    ``game_id``. ``ply`` is a number, ``end``, or a finding code (the first ply with that
    finding); by default the first error's ply, else the end. Raises ``ValueError`` for a
    game or ply that does not exist.
    """
    if db is not None:
        if game_id is None:
            raise ArgumentError("give game_id with db")
        from pdnkit.store.session import reading
        from pdnkit.viewer.fetch import db_games

        with reading(db) as con:  # opened once for the game and its analysis
            found = next(iter(db_games(con, game_id=game_id)), None)
            if found is None:
                raise ArgumentError(f"the database has no game with game_id {game_id}")
            _, label, report = found
            model = game_model(report, source=label)
            _analysis(model, con, game_id)
    else:
        if source is None:
            raise ArgumentError("give a PDN file or a database")
        if isinstance(source, str) and not Path(source).suffix and "\n" not in source \
                and Path(source).exists():
            source = Path(source)
        from pdnkit.viewer.fetch import file_game

        report = file_game(source, game, variant=variant)
        model = game_model(report)
    return GameShow(model, resolve_ply(model, ply))
