"""``pdnkit variants``, ``pdnkit perft`` and ``pdnkit moves``: the rules engine from the shell.

Each command is a thin shell over one library function:
:func:`pdnkit.rules.notation.variants`, :func:`pdnkit.core.perft` (the compiled core where
it is built, else the pure one) and
:func:`pdnkit.rules.notation.moves`.
"""

from __future__ import annotations

import time
from typing import Any

import typer

from pdnkit.cli.app import app, fail
from pdnkit.cli.options import Format, Out, VariantArg
from pdnkit.lean.tables import Rows, emit, output, print_safe
from pdnkit.rules.counting import perft_line

_FEN_HELP = (
    "Start from this FEN instead of the initial position, e.g. [cyan]\"W:W31-50:B1-20\"[/cyan] "
    "or [cyan]\"W:Wa1,c3,Kd4:Bb8\"[/cyan] (ranges, K for kings, ? as side to move, lidraughts "
    ":H/:F fields all accepted)."
)


def _rows(records: list[dict[str, Any]]) -> Rows:
    """Rows of dicts (every key of every record, first seen first) as a table."""
    names: dict[str, None] = {}
    for r in records:
        names.update(dict.fromkeys(r))
    return Rows(list(names), [tuple(r.get(n) for n in names) for r in records])


def _position(variant: str, fen: str | None) -> Any:
    from pdnkit.rules import Position, get_rules

    rules = get_rules(variant)  # known: checked while the command line was read
    if fen is None:
        return Position.initial(rules)
    from pdnkit.rules import FenError, parse_fen

    try:
        return parse_fen(fen, rules)
    except FenError as exc:
        raise fail(f"bad FEN {fen!r}: {exc}") from None


@app.command(
    "variants",
    epilog=(
        "Examples:\n\n"
        "  [bold]pdnkit variants[/bold]\n\n"
        "  [bold]pdnkit variants --format json[/bold] | jq '.[].name'"
    ),
)
def variants_command(fmt: Format = None, out: Out = None) -> None:
    """List every variant pdnkit knows, with its rules in brief.

    Name, PDN GameType (number and full form), board, first mover, notation, king
    range, whether men capture backwards, the capture choice rule, promotion during a
    capture, draw rules and the rulebook edition. Use a name, an alias or a GameType
    number wherever a VARIANT is asked for.
    """
    from pdnkit.rules.notation import variants

    sink = output(fmt, out)
    rows = variants()
    if not (sink.format == "text" and sink.to_screen):  # every field, as every table
        emit(_rows(rows), sink)
        return
    from rich.console import Console
    from rich.table import Table

    from pdnkit.core import core_note

    table = Table(title="pdnkit variants", caption=core_note(), show_lines=True)
    for col in (
        "variant",
        "GameType",
        "board",
        "first",
        "notation",
        "kings",
        "men take back",
        "capture choice",
        "promotion in capture",
        "draw rules",
        "edition",
    ):
        table.add_column(col, overflow="fold")
    for r in rows:
        back = r.get("men_capture_backward")
        draws = str(r.get("draw_rules") or "-").replace("), ", ")\n")
        table.add_row(
            f"{r['name']}\n[dim]{r.get('title', '')}[/dim]"
            + ("\n[yellow]no move = win[/yellow]" if r.get("losing_game") else ""),
            f"{r['gametype']}\n[dim]{r['gametype_full']}[/dim]",
            str(r.get("board", "?")),
            str(r.get("first_mover", "?")),
            f"{r.get('notation', '?')} ({r.get('capture_separator', '?')})",
            str(r.get("kings", "?")),
            "?" if back is None else ("yes" if back else "no"),
            str(r.get("captures", "?")),
            str(r.get("promotion_during_capture", "?")),
            draws,
            str(r.get("edition", "?")),
        )
    console = Console()
    if not console.is_terminal:
        console = Console(width=180)
    print_safe(console, table)


@app.command(
    "perft",
    epilog=(
        "Examples:\n\n"
        "  [bold]pdnkit perft international 5[/bold]   (leaf count on the last line)\n\n"
        "  [bold]pdnkit perft russian 4 --divide[/bold]\n\n"
        "  [bold]pdnkit perft 20 3 --fen \"W:WK47:B14,19,29,31,42\"[/bold]"
    ),
)
def perft_command(
    variant: VariantArg,
    depth: int = typer.Argument(..., min=0, help="Depth in plies."),
    fen: str | None = typer.Option(None, "--fen", help=_FEN_HELP),
    divide: bool = typer.Option(
        False, "--divide", help="First print each root move with its own leaf count."
    ),
) -> None:
    """Count the leaf positions DEPTH plies below a position (move-generator check).

    Captures with the same origin, destination and captured set count once. The leaf
    count is always the LAST line of standard output; the speed goes to standard error.
    """
    from pdnkit.core import perft  # the compiled core where it is built

    position = _position(variant, fen)
    start = time.perf_counter()
    if divide:
        from pdnkit.rules.notation import canonical_notation

        legal = position.legal_moves()
        result = perft(position, depth, divide=True) if depth > 0 else {}
        assert isinstance(result, dict)  # divide=True: a count per root move
        total = 0
        lines = []
        for move, count in result.items():
            total += count
            lines.append((canonical_notation(move, position, legal), count))
        for text, count in sorted(lines):
            typer.echo(f"{text}: {count}")
        if depth == 0:
            total = 1
    else:
        leaves = perft(position, depth)
        assert isinstance(leaves, int)
        total = leaves
    elapsed = time.perf_counter() - start
    typer.echo(perft_line(depth, total, elapsed), err=True)
    typer.echo(str(total))


@app.command(
    "moves",
    epilog=(
        "Examples:\n\n"
        "  [bold]pdnkit moves russian[/bold]\n\n"
        "  [bold]pdnkit moves international --fen \"W:WK23:B8,9,10,17,20,28,29,31,38,39,40\"[/bold]\n\n"
        "  [bold]pdnkit moves english --fen \"B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29\" "
        "--format json[/bold]"
    ),
)
def moves_command(
    variant: VariantArg,
    fen: str | None = typer.Option(None, "--fen", help=_FEN_HELP),
    fmt: Format = None,
    out: Out = None,
) -> None:
    """List the legal moves of a position in the variant's own notation.

    Each move is written as PDN 3.0 wants it (short form, full path only when two
    captures share origin and destination), with the squares it visits, the squares
    it captures and whether it promotes.
    """
    from pdnkit.rules.notation import moves, square_name

    sink = output(fmt, out)
    position = _position(variant, fen)  # validates input with one-line errors
    rows = moves(variant, fen)
    if not (sink.format == "text" and sink.to_screen):  # one row per move
        emit(_rows(rows), sink)
        return
    rules = position.rules
    if not rows:
        typer.echo("no legal move (the side to move has lost)" if not getattr(
            rules, "losing_game", False) else "no legal move (the side to move has won)")
        return
    for r in rows:
        extra = []
        if len(r["path"]) > 2:
            extra.append(
                "path " + rules.capture_separator.join(square_name(rules, s) for s in r["path"])
            )
        if r["captured"]:
            extra.append(
                f"takes {len(r['captured'])}: "
                + ",".join(square_name(rules, s) for s in r["captured"])
            )
        if r["promotes"]:
            extra.append("promotes")
        typer.echo(r["notation"] + (f"  ({'; '.join(extra)})" if extra else ""))
