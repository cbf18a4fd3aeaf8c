"""``pdnkit egdb build|probe|info``: endgame databases from the shell.

Each command is a thin shell over one library function: :func:`pdnkit.egdb.build`,
:func:`pdnkit.egdb.probe` and :func:`pdnkit.egdb.info`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from pdnkit.cli.app import app, fail, usage_errors
from pdnkit.cli.options import Edition, Format, Out, VariantArg
from pdnkit.lean.tables import Rows, emit, output

egdb_app = typer.Typer(
    help="Endgame databases: every position of a few pieces solved by pdnkit's own move "
         "generator. [bold]build[/bold] them for a variant, [bold]probe[/bold] positions, "
         "list what is built with [bold]info[/bold].",
    no_args_is_help=True)
app.add_typer(egdb_app, name="egdb")

Dir = Annotated[Path | None, typer.Option(
    "--dir", show_default=False,
    help="The databases' folder (default: [cyan]$PDNKIT_EGDB[/cyan], else the per-user cache "
         "[cyan]~/.cache/pdnkit/egdb[/cyan]).")]


def _rows(records: list[dict[str, Any]], columns: tuple[str, ...] = ()) -> Rows:
    names = list(columns) or list(dict.fromkeys(k for r in records for k in r))
    return Rows(names, [tuple(r.get(n) for n in names) for r in records])


class _Bar:
    """The build's progress bar on standard error (a terminal only)."""

    def __init__(self, label: str, quiet: bool) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

        from pdnkit.store.progress import is_terminal

        self.progress = Progress(
            TextColumn(f"[bold]{label}[/bold]"), BarColumn(),
            TextColumn("{task.percentage:>3.0f}%  {task.fields[sig]}"), TimeRemainingColumn(),
            console=Console(stderr=True), transient=True, disable=quiet or not is_terminal())
        self.task = self.progress.add_task(label, total=1, sig="")

    def __call__(self, step: Any) -> None:
        self.progress.update(self.task, total=step.slots_total, completed=step.slots_done,
                             sig=f"{step.number}/{step.of} {step.sig.label}")


@egdb_app.command("build", epilog=(
    "Examples:\n\n"
    "  [bold]pdnkit egdb build english --pieces 4[/bold]\n\n"
    "  [bold]pdnkit egdb build international --pieces 3 --dir ~/egdb[/bold]"))
def build_command(
    variant: VariantArg,
    pieces: int = typer.Option(..., "--pieces", "-n", min=1, max=8,
                               help="Every database up to this many pieces in all."),
    directory: Dir = None,
    edition: Edition = None,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Build every endgame database of VARIANT up to --pieces pieces in all.

    Every split of the material (men and kings of both sides) is solved, fewer pieces first,
    each into a file written whole and checked when it is read. A build stopped at any moment
    and run again keeps the files already built and goes on. Values are for the side to
    move, win, draw or loss with no move-count draw rule, with the plies to the end of the
    game under best play. Frisian is refused: its king-move counters are part of a
    position. Roughly: 8x8 up to 4 pieces in seconds, 5 pieces in minutes; international up
    to 4 pieces in a few minutes.
    """
    from pdnkit.egdb import build

    bar = _Bar(f"egdb {variant}", quiet)
    with usage_errors(), bar.progress:
        rep = build(variant, pieces, directory=directory, edition=edition, progress=bar)
    for n, count in rep.positions.items():
        typer.echo(f"{n} piece(s): {count:,} positions, longest {rep.longest.get(n, 0)} plies")
    for text in rep.damaged:
        typer.echo(f"rebuilt: {text}", err=True)
    typer.echo(f"{rep.variant}: {len(rep.built)} database(s) built, {len(rep.kept)} kept, in "
               f"{rep.folder} ({rep.seconds:.1f} s, peak {rep.peak_mb:.0f} MB)")


def _read_fens(fens: list[str], fens_file: Path | None) -> list[str]:
    out = list(fens)
    if fens_file is not None:
        try:
            text = sys.stdin.read() if str(fens_file) == "-" else fens_file.read_text(
                encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise fail(f"cannot read {fens_file}: {exc}") from None
        out += [line.strip() for line in text.splitlines()
                if line.strip() and not line.lstrip().startswith("#")]
    if not out:
        raise fail("give one or more FENs, or --fens FILE")
    return out


@egdb_app.command("probe", epilog=(
    "Examples:\n\n"
    "  [bold]pdnkit egdb probe english \"W:WK10,K14:BK1\" --format json[/bold]\n\n"
    "  [bold]pdnkit egdb probe international --fens positions.txt --out values.csv[/bold]"))
def probe_command(
    variant: VariantArg,
    fens: list[str] = typer.Argument(None, help="Positions as FEN, e.g. W:WK10,K14:BK1 (a "
                                                "side may have no piece: W:WK10:B)."),
    fens_file: Path | None = typer.Option(None, "--fens", show_default=False,
                                          help="Read FENs from this file, one a line "
                                               "(- for standard input; # comments)."),
    directory: Dir = None,
    edition: Edition = None,
    fmt: Format = None,
    out: Out = None,
) -> None:
    """The value of positions in the endgame databases, with the best moves.

    One row per FEN, in order: fen, value (win, draw or loss for the side to move; empty
    where no database holds the position, and note says why and which command builds it),
    plies (to the end of the game with best play: the winner as fast, the loser as slowly as
    possible; empty for a draw) and moves (every move that keeps the value, in the variant's
    notation).
    """
    from pdnkit.egdb import probe

    sink = output(fmt, out, [fens_file] if fens_file is not None else [])
    with usage_errors():
        rows = probe(variant, _read_fens(fens or [], fens_file), directory=directory,
                     edition=edition)
    emit(_rows(rows, ("fen", "value", "plies", "moves", "note")), sink)


@egdb_app.command("info", epilog=(
    "Examples:\n\n"
    "  [bold]pdnkit egdb info[/bold]\n\n"
    "  [bold]pdnkit egdb info english --format json[/bold]\n\n"
    "  [bold]pdnkit egdb info english --signatures[/bold]"))
def info_command(
    variant: str | None = typer.Argument(None, help="Only this variant."),
    signatures: bool = typer.Option(
        False, "--signatures", help="One row per signature (two kings against one, a king "
        "and a man against two men ...) instead of per number of pieces: its positions "
        "(one side to move), wins, draws, losses, longest, bytes."),
    directory: Dir = None,
    fmt: Format = None,
    out: Out = None,
) -> None:
    """What endgame databases are built: one row per variant and number of pieces.

    signatures built (of how many), positions (one side to move: the published way of
    counting, 120 / 6,972 / 261,224 / 7,092,774 for checkers), complete, wins, draws and
    losses (for the side to move, both sides to move counted), the longest win or loss in
    plies, bytes on disk and the folder. With --signatures, one row per signature.
    """
    from pdnkit.egdb import info
    from pdnkit.egdb.catalog import COLUMNS, SIGNATURE_COLUMNS

    sink = output(fmt, out)
    with usage_errors():
        rows = info(directory, variant, by_signature=signatures)
    emit(_rows(rows, SIGNATURE_COLUMNS if signatures else COLUMNS), sink)
