"""``pdnkit lint`` and ``pdnkit convert``: PDN reading and writing from the shell.

Thin shells over :func:`pdnkit.pdn.lint` and :func:`pdnkit.pdn.convert`.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from pdnkit.cli.app import app, usage_errors
from pdnkit.cli.options import Encoding, Ignore, JsonlFormat, Select
from pdnkit.lean.tables import check, markup_safe, screen, screen_text


@app.command("lint")
def lint_cmd(
    paths: list[Path] = typer.Argument(
        ..., help="PDN files, or directories (their *.pdn files, recursively); [cyan]-[/cyan] "
                  "reads standard input.", show_default=False),
    strict: bool = typer.Option(
        False, "--strict",
        help="Report what PDN 3.0 forbids (nested comments, ';' comments, non-standard "
             "results, unquoted tags ...) as errors instead of warnings."),
    fmt: JsonlFormat = None,
    encoding: Encoding = None,
    select: Select = None,
    ignore: Ignore = None,
) -> None:
    """Check the PDN syntax of game collections, game by game.

    Every problem becomes a finding with its file, game, line and column.

    Findings: [cyan]syntax-error[/cyan] (that game cannot be read, the others still are),
    [cyan]encoding-fallback[/cyan] (the file is not UTF-8), [cyan]strict-violation[/cyan]
    (PDN 3.0 forbids it, a liberal reader accepts it).

    Exit status: 1 when an error finding exists, 0 otherwise, 2 for usage errors.

    Examples:

      pdnkit lint games.pdn

      pdnkit lint --strict collections/ --format jsonl
    """
    from pdnkit.pdn.tools import lint
    from pdnkit.validation import check_codes

    with usage_errors():  # missing path, no PDN file, unknown code
        codes = check_codes(select, ignore)
        summary = lint(paths, strict=strict, encoding=encoding)
    if codes is not None:
        chosen, ignored = codes
        summary.findings = [f for f in summary.findings if f.code not in ignored
                            and (chosen is None or f.code in chosen)]
    if fmt == "jsonl":
        for f in summary.findings:
            typer.echo(screen_text(json.dumps(f.to_dict(), ensure_ascii=False)))
    else:
        from rich.console import Console

        console = Console(highlight=False)
        colour = {"error": "red", "warning": "yellow", "info": "cyan"}
        for f in summary.findings:
            c = colour[f.severity.value]
            console.print(f"[{c}]{markup_safe(str(f))}[/{c}]", soft_wrap=True)
        state = "[green]no errors[/green]" if summary.ok else f"[red]{summary.errors} error(s)[/red]"
        console.print(f"{summary.files} file(s), {summary.games} game(s): {state}, "
                      f"{summary.warnings} warning(s)")
    if not summary.ok:
        raise typer.Exit(code=1)


@app.command("convert")
def convert_cmd(
    inputs: list[Path] = typer.Argument(
        ..., help="PDN files, or directories (their *.pdn files, recursively).",
        show_default=False),
    out: Path = typer.Option(..., "--out", "-o", help="The PDN file to write (UTF-8; "
                             "[cyan]-[/cyan]: standard output).", show_default=False),
    encoding: Encoding = None,
) -> None:
    """Rewrite game collections as one canonical UTF-8 PDN 3.0 file.

    Decodes legacy encodings (CP1252/Latin-1, CP1251), puts the standard tags first, writes
    squares without leading zeros, brace comments, PDN result tokens and movetext wrapped
    at 80 columns. Games that do not parse are copied unchanged after a [cyan]%[/cyan] line
    that says why, so nothing is lost.

    Example:

      pdnkit convert old/*.pdn --out clean.pdn

      pdnkit convert old.pdn --out - | less
    """
    from pdnkit.validation.rewrite import convert

    to_stdout = str(out) == "-"
    check(out, inputs)  # not an input, not inside an input folder ('-' is standard output)
    with usage_errors():  # missing path, no PDN file
        # a terminal gets no control character of the games' text; a pipe gets the bytes
        summary = convert(inputs, screen() if to_stdout else out, encoding=encoding)
    typer.echo(f"{summary.games} game(s) from {summary.files} file(s) -> {out}: "
               f"{summary.written} rewritten, {summary.copied} copied unchanged "
               "(they do not parse)", err=to_stdout)
