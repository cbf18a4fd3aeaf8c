"""``convert``: a collection rewritten as one canonical UTF-8 PDN 3.0 file.

It lives above the reader because a game without a ``GameType`` tag is written with the
GameType of the variant the validator reads it as (the file's guess), so the next reader
need not guess again.

Example:
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> src = os.path.join(d, "a.pdn")
    >>> _ = open(src, "w").write('[Event "x"]\\n01. 32-28 {unclosed\\n'
    ...                          '[Event "y"]\\n1) 32+28 19+23 *\\n')
    >>> c = convert([src], os.path.join(d, "out.pdn"))
    >>> c.games, c.written, c.copied
    (2, 1, 1)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, TextIO

from pdnkit.pdn.reader import read_games
from pdnkit.pdn.source import source_name
from pdnkit.pdn.tags import gametype_hint
from pdnkit.pdn.tools import expand_paths
from pdnkit.pdn.writer import write_game

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Iterable, Mapping

    from pdnkit.pdn.record import GameRecord
    from pdnkit.pdn.tools import PathLike

__all__ = ["ConvertSummary", "convert"]


@dataclass
class ConvertSummary:
    """What :func:`convert` did: games read, games written canonically, games copied
    unchanged because they did not parse."""

    files: int = 0
    games: int = 0
    written: int = 0
    copied: int = 0


def convert(paths: Iterable[PathLike], out: PathLike | TextIO, *,
            encoding: str | None = None) -> ConvertSummary:
    """Rewrite the games of ``paths`` as one canonical UTF-8 PDN 3.0 file ``out``
    (``encoding``, a codec name, skips encoding detection). A path is written whole or not
    at all and never over an input; a text stream (standard output) is written as the
    games are read.

    A game that does not parse is copied unchanged after a ``%`` escape line saying why,
    so nothing is lost.

    Example:
        >>> import tempfile, os
        >>> d = tempfile.mkdtemp(); src = os.path.join(d, "in.pdn")
        >>> _ = open(src, "wb").write("[White \\"Müller\\"]\\r\\n01. 32-28 2-0".encode("cp1252"))
        >>> convert([src], os.path.join(d, "out.pdn")).written
        1
        >>> print(open(os.path.join(d, "out.pdn"), encoding="utf-8").read(), end="")
        [White "Müller"]
        [GameType "20"]
        <BLANKLINE>
        1. 32-28 2-0
    """
    from pdnkit._atomic import atomic_output

    files = list(expand_paths(paths))
    if not isinstance(out, (str, os.PathLike)):
        return _convert_to(files, out, encoding)
    # written whole or not at all; an output that is one of the inputs is refused
    with atomic_output(Path(out), inputs=files) as fh:
        return _convert_to(files, fh, encoding)


def _convert_to(files: list[Path], fh: IO[str], encoding: str | None) -> ConvertSummary:
    """The games of ``files`` written canonically to ``fh`` (see :func:`convert`)."""
    summary = ConvertSummary()
    first = True
    for path in files:
        summary.files += 1
        guess = _file_guess(path, encoding)
        for rec in read_games(path, encoding=encoding, file=source_name(path)):
            if rec.file_level:  # no game: an empty file, a text that is not PDN
                note = next((f for f in rec.findings if f.code == "not-pdn"), None)
                if note is not None:
                    fh.write(f"% pdnkit convert: {path.name} holds no PDN game, not "
                             f"copied ({note.message})\n")
                continue
            summary.games += 1
            if not first:
                fh.write("\n")
            first = False
            if rec.parsed:
                game, notation = _on_the_usual_board(rec, guess)
                fh.write(write_game(game, notation=notation, gametype=gametype_hint(rec)
                                    or _guessed_gametype(rec, guess)))
                summary.written += 1
            else:
                why = next((f.message for f in rec.findings if f.code == "syntax-error"),
                           "syntax error")
                where = next((f.line for f in rec.findings if f.code == "syntax-error"), None)
                loc = f"line {where}" if where else f"game at line {rec.line}"
                fh.write(f"% pdnkit convert: game {rec.index + 1} of {path.name} copied "
                         f"unchanged, it does not parse ({loc}: {why})\n")
                raw = rec.raw.rstrip("\n")
                fh.write(raw + "\n")
                summary.copied += 1
    return summary


def _on_the_usual_board(record: GameRecord, guess: object
                        ) -> tuple[GameRecord, Mapping[int, str] | None]:
    """A game written with the first mover at the bottom of its squares (read turned round:
    :mod:`pdnkit.validation.turn`), as the variant writes it: the main line in its canonical
    notation, the variations' squares turned round; any other game as it is."""
    first = record.moves[0].squares if record.moves else ()
    if not first or not first[0][:1].isalpha():
        return record, None  # (the usual case: a look at the first square)
    from pdnkit.validation.pipeline import replay_with
    from pdnkit.validation.report import Findings
    from pdnkit.validation.resolve import resolve_rules
    from pdnkit.validation.runoptions import RunOptions
    from pdnkit.validation.start import game_start
    from pdnkit.validation.turn import turned_line

    rules = resolve_rules(record, file_guess=guess).rules  # type: ignore[arg-type]
    start = game_start(record, record.moves, rules, Findings(record)) if rules else None
    turned = turned_line(record, record.moves, start.pos) if start is not None else None
    if turned is None:
        return record, None
    by_node = {id(old): new for old, new in zip(record.moves, turned, strict=True)}
    body = [by_node.get(id(el), el) for el in record.body]
    notation = replay_with(record, RunOptions(), file_guess=guess).notation_map()  # type: ignore[arg-type]
    return replace(record, body=body, moves=turned), notation


def _file_guess(path: Path, encoding: str | None) -> object:
    """The variant ``validate`` guesses for the file's games that name none (its pre-scan:
    :func:`pdnkit.validation.pipeline.file_guess_of`)."""
    from pdnkit.validation.pipeline import file_guess_of
    from pdnkit.validation.runoptions import RunOptions

    return file_guess_of(path, RunOptions(encoding=encoding))


def _guessed_gametype(record: object, guess: object) -> int | None:
    """The GameType number of the variant ``validate`` reads a game without a ``GameType``
    tag as (the file's variant; where several fit, the one its moves replay under), which
    ``convert`` writes so the converted file says what was guessed (only Italian files got
    one before)."""
    from pdnkit.validation.pipeline import replay_with
    from pdnkit.validation.resolve import resolve_rules
    from pdnkit.validation.runoptions import RunOptions

    try:
        res = resolve_rules(record, file_guess=guess)  # type: ignore[arg-type]
        if res.alternatives:  # several variants fit the file: the replay decides
            gametype = replay_with(record, RunOptions(light=True),  # type: ignore[arg-type]
                                   file_guess=guess).gametype  # type: ignore[arg-type]
            return None if gametype is None else int(gametype)
    except ValueError:
        return None
    return None if res.rules is None else int(res.rules.gametype)
