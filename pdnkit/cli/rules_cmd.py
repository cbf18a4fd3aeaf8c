"""``pdnkit variants``, ``pdnkit perft`` and ``pdnkit moves``: the rules engine from the shell.

Each command is a thin shell over one library function:
:func:`pdnkit.rules.notation.variants`, :func:`pdnkit.rules.perft` and
:func:`pdnkit.rules.notation.moves`.
"""

from __future__ import annotations

import json
import time
from enum import Enum
from typing import Any

import typer

from pdnkit.cli.app import app
from pdnkit.cli.app import fail as _fail

_FEN_HELP = (
    "Start from this FEN instead of the initial position, e.g. [cyan]\"W:W31-50:B1-20\"[/cyan] "
    "or [cyan]\"W:Wa1,c3,Kd4:Bb8\"[/cyan] (ranges, K for kings, ? as side to move, lidraughts "
    ":H/:F fields all accepted)."
)


class VariantsFormat(str, Enum):
    """Output formats of ``pdnkit variants``."""

    table = "table"
    json = "json"


class MovesFormat(str, Enum):
    """Output formats of ``pdnkit moves``."""

    text = "text"
    json = "json"



def _position(variant: str, fen: str | None) -> Any:
    from pdnkit.rules import FenError, Position, UnknownVariantError, get_rules, parse_fen

    try:
        rules = get_rules(variant)
    except UnknownVariantError as exc:
        raise _fail(f"{exc} (see `pdnkit variants`)") from None
    if fen is None:
        return Position.initial(rules)
    try:
        return parse_fen(fen, rules)
    except FenError as exc:
        raise _fail(f"bad FEN {fen!r}: {exc}") from None


@app.command(
    "variants",
    epilog=(
        "Examples:\n\n"
        "  [bold]pdnkit variants[/bold]\n\n"
        "  [bold]pdnkit variants --format json[/bold] | jq '.[].name'"
    ),
)
def variants_command(
    format: VariantsFormat = typer.Option(
        VariantsFormat.table, "--format", "-f", help="[cyan]table[/cyan] (rich) or [cyan]json[/cyan]."
    ),
) -> None:
    """List every variant pdnkit knows, with its rules in brief.

    Name, PDN GameType (number and full form), board, first mover, notation, king
    range, whether men capture backwards, the capture choice rule, promotion during a
    capture, draw rules and the rulebook edition. Use a name, an alias or a GameType
    number wherever a VARIANT is asked for.
    """
    from pdnkit.rules.notation import variants

    rows = variants()
    if format is VariantsFormat.json:
        typer.echo(json.dumps(rows, indent=1, ensure_ascii=False))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title="pdnkit variants", show_lines=True)
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
    console.print(table)


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
    variant: str = typer.Argument(..., help="Variant name, alias or GameType number."),
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
    from pdnkit.rules import perft
    from pdnkit.rules.notation import canonical_notation

    position = _position(variant, fen)
    start = time.perf_counter()
    if divide:
        legal = position.legal_moves()
        result = perft(position, depth, divide=True) if depth > 0 else {}
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
        total = int(perft(position, depth))
    elapsed = time.perf_counter() - start
    rate = total / elapsed if elapsed > 0 else float("inf")
    typer.echo(f"perft({depth}) in {elapsed:.3f} s, {rate:,.0f} nodes/s", err=True)
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
    variant: str = typer.Argument(..., help="Variant name, alias or GameType number."),
    fen: str | None = typer.Option(None, "--fen", help=_FEN_HELP),
    format: MovesFormat = typer.Option(
        MovesFormat.text,
        "--format",
        "-f",
        help="[cyan]text[/cyan] (one move a line) or [cyan]json[/cyan] (list of objects with "
        "notation, path, captured, promotes).",
    ),
) -> None:
    """List the legal moves of a position in the variant's own notation.

    Each move is written as PDN 3.0 wants it (short form, full path only when two
    captures share origin and destination), with the squares it visits, the squares
    it captures and whether it promotes.
    """
    from pdnkit.rules import FenError, UnknownVariantError
    from pdnkit.rules.notation import moves, square_name

    position = _position(variant, fen)  # validates input with one-line errors
    try:
        rows = moves(variant, fen)
    except (FenError, UnknownVariantError) as exc:  # pragma: no cover - checked above
        raise _fail(str(exc)) from None
    if format is MovesFormat.json:
        typer.echo(json.dumps(rows))
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
