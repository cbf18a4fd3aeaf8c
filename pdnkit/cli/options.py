"""The options every command shares, declared once: ``Annotated`` aliases with one help text
each, and the checks that run while the command line is read (an unknown variant, encoding
or format ends the command with one ``pdnkit: error:`` line before any work is done).

A command writes ``db: Db = None`` or ``fmt: Format = None`` instead of spelling the option
out again; the alias names the flag, its short form, its help and its check.

Example:
    >>> import typer
    >>> from typer.testing import CliRunner
    >>> demo = typer.Typer()
    >>> @demo.command()
    ... def main(variant: VariantFilter = None) -> None:
    ...     print(variant)
    >>> CliRunner().invoke(demo, ["--variant", "draughts"]).output
    'international\\n'
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pdnkit.lean.tables import FORMAT_ALIASES, TABLE_FORMATS, format_name
from pdnkit.lean.usage import UsageError
from pdnkit.lean.validate import VALIDATE_FORMATS

if TYPE_CHECKING:  # pragma: no cover
    from pdnkit.stats.filters import GameFilter

#: what the help says of CSV's cells that would start a formula in a spreadsheet
CSV_FORMULA_HELP = (
    "A CSV text cell beginning with [cyan]= + - @[/cyan], a tab or a carriage return is "
    "written after a [cyan]'[/cyan], so that a spreadsheet shows it as text and never runs "
    "it as a formula (numbers stay numbers); [cyan]csv-raw[/cyan] writes every cell as "
    "stored, for programs.")


def known_variant(value: str | None) -> str | None:
    """``value`` unchanged when it names a variant (a name, an alias or a GameType number),
    else :class:`~pdnkit.rules.UnknownVariantError` with the list of known variants.

    Example:
        >>> known_variant("draughts")
        'draughts'
        >>> from pdnkit.errors import PdnkitError
        >>> try:
        ...     known_variant("internationl")
        ... except PdnkitError as exc:
        ...     print("known:" in str(exc) and "russian" in str(exc))
        True
    """
    if value is None:
        return None
    from pdnkit.rules import UnknownVariantError, get_rules, list_variants

    try:
        get_rules(value)
    except UnknownVariantError as exc:
        if "known:" in str(exc):
            raise
        names = ", ".join(sorted(r.name for r in list_variants(editions=False)))
        raise UnknownVariantError(f"{exc} (known: {names})") from None
    return value


def variant_name(value: str | None) -> str | None:
    """The canonical name of the variant ``value`` names (what the database stores), for
    the ``--variant`` filters: ``draughts`` -> ``international``.

    Example:
        >>> variant_name("checkers"), variant_name(None)
        ('english', None)
    """
    if value is None or known_variant(value) is None:
        return None
    from pdnkit.rules import get_rules

    name: str = get_rules(value).name
    return name


def known_encoding(value: str | None) -> str | None:
    """``value`` when Python has a codec of that name, else :class:`UsageError`.

    Example:
        >>> known_encoding("CP866")
        'CP866'
    """
    if value is None:
        return None
    from pdnkit.pdn.source import check_encoding

    try:
        return check_encoding(value)
    except ValueError as exc:
        raise UsageError(str(exc)) from None




def _formats(*allowed: str) -> Callable[[str | None], str | None]:
    def check(value: str | None) -> str | None:
        return format_name(value, allowed)

    return check


def _format_help(allowed: tuple[str, ...], extra: str) -> str:
    return "Output format: " + ", ".join(f"[cyan]{a}[/cyan]" for a in allowed) + ". " + extra


class Irregular(str, Enum):
    """What the replay does with an irregular move that the variant's rules let stand."""

    stand = "stand"
    stop = "stop"


DB_HELP = ("The pdnkit database: a DuckDB file made by [bold]pdnkit import[/bold] or "
           "[bold]pdnkit demo[/bold], or a lake folder (default: [cyan]pdnkit.duckdb[/cyan] "
           "in the current folder).")
VARIANT_HELP = ("Rules for games whose tags do not say (a GameType or Variant tag wins): a "
                "name, alias or GameType number such as international, russian, english, 20 "
                "(see [bold]pdnkit variants[/bold]).")
ENCODING_HELP = ("Read the input in this encoding (utf-8, cp1251, cp866, cp1252, latin-1, "
                 "utf-16 ...) instead of detecting it.")
IRREGULAR_HELP = ("stand: a move that broke a capture rule (a capture omitted, too few pieces "
                  "taken, a capture stopped early) is replayed as played where the variant's "
                  "rules let it stand once the opponent plays on (FMJD 5.7 ...); stop: replay "
                  "stops at it.")
OUT_HELP = ("Write the table to this file instead of the screen; its extension chooses the "
            "format ([cyan].txt .csv .json .jsonl .parquet[/cyan]) unless --format says.")
FORMAT_EXTRA = (
    "[cyan]json[/cyan] is a list of objects, [cyan]jsonl[/cyan] one object a line, "
    "[cyan]parquet[/cyan] needs --out. Default: from --out's extension, else a text table. "
    "In CSV, NULL is an empty field and list or map fields are JSON. " + CSV_FORMULA_HELP)

Db = Annotated[Path | None, typer.Option("--db", help=DB_HELP, show_default=False)]
SourceDb = Annotated[Path | None, typer.Option(
    "--db", show_default=False, help="Take the games from this pdnkit database (a DuckDB file "
                                     "or a lake folder) instead of PDN files.")]
Variant = Annotated[str | None, typer.Option("--variant", "-v", help=VARIANT_HELP,
                                             callback=known_variant)]
VariantFilter = Annotated[str | None, typer.Option(
    "--variant", "-v", callback=variant_name,
    help="Only games of this variant (a name, alias or GameType number).")]
VariantArg = Annotated[str, typer.Argument(help="Variant name, alias or GameType number.",
                                           callback=known_variant)]
Edition = Annotated[str | None, typer.Option(
    "--edition", "-e", help="Rules edition where sources disagree, e.g. wcdf or eda-1991 for "
                            "English, lidraughts or cbd for Brazilian, fid-40 for Italian.")]
Encoding = Annotated[str | None, typer.Option("--encoding", help=ENCODING_HELP,
                                              callback=known_encoding)]
IrregularOpt = Annotated[Irregular, typer.Option("--irregular", help=IRREGULAR_HELP)]
Select = Annotated[list[str] | None, typer.Option(
    "--select", help="Only these finding codes (CODE,CODE ...) count: in what is reported, "
                     "in a game's status and in the exit status (import stores every finding "
                     "all the same).")]
Ignore = Annotated[list[str] | None, typer.Option(
    "--ignore", help="Leave these finding codes (CODE,CODE ...) out of what is reported and "
                     "of a game's status and the exit status (import stores them all the "
                     "same).")]
Out = Annotated[Path | None, typer.Option("--out", "-o", help=OUT_HELP, show_default=False)]
def _format_option(allowed: tuple[str, ...], extra: str) -> Any:
    """``--format``/``-f`` choosing among ``allowed`` (checked while the line is read)."""
    return typer.Option("--format", "-f", metavar="FORMAT", callback=_formats(*allowed),
                        show_default=False, help=_format_help(allowed, extra))


Format = Annotated[str | None, _format_option(TABLE_FORMATS, FORMAT_EXTRA)]
ValidateFormat = Annotated[str | None, _format_option(VALIDATE_FORMATS, (
    "text: findings and a summary; jsonl: one JSON object per game (file, index, line, "
    "variant, white, black, result, plies, replayed_plies, status, findings), summary on "
    "stderr; csv: one row per finding. Default: from --output's extension, else text. "
    + CSV_FORMULA_HELP))]
JsonFormat = Annotated[str | None, _format_option(("text", "json"), "Default: text.")]
JsonlFormat = Annotated[str | None, _format_option(("text", "jsonl"), (
    "jsonl: one JSON object per finding (code, severity, message, file, game_index, line, "
    "column ...). Default: text."))]
Wide = Annotated[bool, typer.Option(
    "--wide", help="Show every column and every cell whole, however wide (default: a table "
                   "fits the terminal, long cells end in an ellipsis).")]

# the filters of the read commands (stats, tree, plot, report, search)
Event = Annotated[str | None, typer.Option("--event", "-e",
                                           help="Event contains this text (case-insensitive).")]
Player = Annotated[str | None, typer.Option(
    "--player", "-p", help="White or Black contains this text (case-insensitive), or is an "
                           "alias of it.")]
Match = Annotated[bool, typer.Option(
    "--match", help="With --player: the games of every name the player can be written as "
                    "(case, accents, Surname, Given or Given Surname, initials, Cyrillic or "
                    "Latin, another transliteration), not a substring: [cyan]--player "
                    "Abatsiev --match[/cyan] finds Абациев Н.")]
DateFrom = Annotated[str | None, typer.Option("--from",
                                              help="From this date: YYYY, YYYY-MM or YYYY-MM-DD.")]
DateTo = Annotated[str | None, typer.Option("--to", help="Up to this date (inclusive): YYYY, "
                                                         "YYYY-MM or YYYY-MM-DD.")]
MinGames = Annotated[int, typer.Option("--min-games", "-m", help="Drop rows with fewer games.")]
AllCopies = Annotated[bool, typer.Option(
    "--all-copies", help="Count every record, the copies of a game included ([bold]pdnkit "
                         "duplicates[/bold] lists them). By default each game counts once, "
                         "by the record that stands for its copies.")]


__all__ = [
    "CSV_FORMULA_HELP", "DB_HELP", "ENCODING_HELP", "FORMAT_ALIASES", "IRREGULAR_HELP", "SourceDb",
    "TABLE_FORMATS", "VALIDATE_FORMATS", "AllCopies", "DateFrom", "DateTo", "Db", "Edition",
    "Encoding", "Event", "Format", "Ignore", "Irregular", "IrregularOpt", "JsonFormat",
    "JsonlFormat", "Match", "MinGames", "Out", "Player", "Select", "UsageError",
    "ValidateFormat", "Variant", "VariantArg", "VariantFilter", "Wide", "format_name",
    "known_encoding", "known_variant", "read_filter", "variant_name",
]


def read_filter(match: bool = False, all_copies: bool = False) -> GameFilter | None:
    """The ``filter=`` a read command gives the library functions for ``--match`` (a
    player matched by name) and ``--all-copies`` (every record, the copies of a game
    included); ``None`` without either (a substring of a name, each game once).

    Example:
        >>> read_filter(match=True).match, read_filter(all_copies=True).all_copies
        (True, True)
        >>> read_filter() is None
        True
    """
    if not (match or all_copies):
        return None
    from pdnkit.stats.filters import GameFilter

    return GameFilter(match=match, all_copies=all_copies)
