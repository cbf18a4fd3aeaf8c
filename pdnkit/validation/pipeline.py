"""One game through every stage, and a stream of games in this process.

:func:`replay` is the validator for one record: resolve its rules
(:mod:`~pdnkit.validation.resolve`), replay and judge it (:mod:`~pdnkit.validation.game`);
a guessed variant under which the game fails is traded for the next candidate that replays.
:func:`serial_reports` reads the inputs and replays every game in order, in this process
(:mod:`~pdnkit.validation.flow` cuts it into rows, or hands the games to workers).

Example:
    >>> from pdnkit.pdn import parse_game
    >>> replay(parse_game('[GameType "25"] 1. c3-d4 f6-g5 *')).variant
    'russian'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from pdnkit.errors import ArgumentError
from pdnkit.findings import Severity, make_finding, worst
from pdnkit.validation.game import IRREGULAR, replay_game
from pdnkit.validation.inputs import FileInput, Source, is_record, iter_sources
from pdnkit.validation.judge import CONVENTIONS
from pdnkit.validation.report import GameReport, finish_status, internal_error
from pdnkit.validation.resolve import (
    FileGuess,
    Resolution,
    lookup_rules,
    resolve_rules,
    scan_file,
)
from pdnkit.validation.runoptions import RunOptions

if TYPE_CHECKING:
    from pdnkit.pdn.record import GameRecord
    from pdnkit.rules.variants import Rules


def check_arguments(variant: str | None, edition: str | None, result_convention: str) -> None:
    """Raise ``ValueError`` for an unknown variant, rules edition or result convention (API
    misuse, said before any game is read)."""
    if result_convention not in CONVENTIONS:
        raise ArgumentError(f"result_convention must be one of {CONVENTIONS}")
    if variant is not None and lookup_rules(variant, edition) is None:
        raise ArgumentError(f"unknown variant {variant!r}")
    if edition is not None:
        from pdnkit.rules.variants import list_variants

        known = {r.edition for r in list_variants()}
        if edition.strip().lower() not in known:
            raise ArgumentError(f"unknown rules edition {edition!r} (known: "
                             f"{', '.join(sorted(known))})")


def check_codes(select: Iterable[str] | None, ignore: Iterable[str] | None
                ) -> tuple[frozenset[str] | None, frozenset[str]] | None:
    """``(selected codes or None for all, ignored codes)`` from ``select`` / ``ignore``
    (code names, or comma-separated lists of them), ``None`` when neither filters; raises
    ``ValueError`` naming the known codes for an unknown one.

    Example:
        >>> check_codes(["illegal-move,missed-capture"], None)[0] == {"illegal-move",
        ...                                                           "missed-capture"}
        True
        >>> check_codes(None, None) is None
        True
    """
    from pdnkit.findings import CODES

    def parse(values: Iterable[str] | None) -> frozenset[str] | None:
        if values is None:
            return None
        if isinstance(values, str):
            values = [values]
        codes = {c.strip().lower() for v in values for c in v.split(",") if c.strip()}
        unknown = sorted(codes - set(CODES))
        if unknown:
            raise ArgumentError(f"unknown finding code(s): {', '.join(unknown)}; known codes: "
                             f"{', '.join(sorted(CODES))}")
        return frozenset(codes)

    selected, ignored = parse(select), parse(ignore)
    if selected is None and not ignored:
        return None
    return selected, ignored or frozenset()


def keep_findings(report: GameReport,
                  codes: tuple[frozenset[str] | None, frozenset[str]]) -> GameReport:
    """``report`` with only the findings whose code :func:`check_codes` keeps, and its
    status recomputed from them (an unparsed game stays unparsed).

    Example:
        >>> from pdnkit.pdn import parse_game
        >>> rep = replay(parse_game('[GameType "20"] 1. 32-28 19-23 2. 28-23 *'))
        >>> keep_findings(rep, check_codes(None, ["illegal-move"])).status
        'ok'
    """
    selected, ignored = codes
    report.findings = [f for f in report.findings if f.code not in ignored
                       and (selected is None or f.code in selected)]
    if report.status != "unparsed":
        from pdnkit.findings import Severity, worst

        w = worst(report.findings)
        report.status = "ok" if w is None or w is Severity.INFO else w.value
    return report


def replay(record: GameRecord, rules: Rules | None = None, *, variant: str | None = None,
           edition: str | None = None, result_convention: str = "auto",
           light: bool = False, irregular: str = "stand",
           file_guess: FileGuess | None = None, compact: bool = False) -> GameReport:
    """Replay one game record and validate it.

    ``rules`` (a :class:`~pdnkit.rules.Rules`) forces the rules; otherwise they come from the
    ``GameType`` tag, a ``Variant`` tag, ``variant``, or a guess. ``result_convention`` says
    whom the first number of a result belongs to in variants where Black moves first:
    ``auto`` (decide from the final position, else PDN 2.0: the first mover),
    ``first-mover`` or ``white``. ``light`` drops the record and the per-ply list from the
    report (counts stay), for summaries over large collections. ``irregular``: ``"stand"``
    replays an irregular move (a capture omitted, too few pieces taken, a capture stopped
    early) as played where the variant's rules let it stand once the opponent plays on
    (RULES.md 2.0), ``"stop"`` stops the replay at it. ``file_guess`` (the file's variant,
    :func:`~pdnkit.validation.resolve.scan_file`) replaces the game's own guess. ``compact``
    keeps the leading plain plies as one :class:`~pdnkit.validation.report.PlainRun`
    (``report.plain``; ``report.plies`` then holds the plies after it), for the database
    loader. A fault of pdnkit's own code in any stage (the guess included) becomes an
    ``internal-error`` finding of this game.

    Example:
        >>> from pdnkit.pdn import parse_game
        >>> rep = replay(parse_game('[GameType "20"] 1. 32-28 19-23 2. 28-23 *'))
        >>> rep.replayed_plies, rep.status, rep.findings[0].code
        (2, 'error', 'illegal-move')
    """
    if result_convention not in CONVENTIONS:
        raise ArgumentError(f"result_convention must be one of {CONVENTIONS}, "
                         f"got {result_convention!r}")
    if irregular not in IRREGULAR:
        raise ArgumentError(f"irregular must be one of {IRREGULAR}, got {irregular!r}")
    if variant is not None and lookup_rules(variant, edition) is None:
        raise ArgumentError(f"unknown variant {variant!r}")
    options = RunOptions(variant=variant, edition=edition, result_convention=result_convention,
                         light=light, irregular=irregular, compact=compact)
    return replay_with(record, options, rules, file_guess)


def replay_with(record: GameRecord, options: RunOptions, rules: Rules | None = None,
                file_guess: FileGuess | None = None) -> GameReport:
    """:func:`replay` with its options as one record (already checked): the replay of the
    pipeline, in this process or in a worker.

    Example:
        >>> from pdnkit.pdn import parse_game
        >>> replay_with(parse_game("1. 32-28 *"), RunOptions(variant="international")).status
        'ok'
    """
    try:
        if record.file_level:
            rep = file_report(record)
        elif rules is not None:
            rep = replay_game(record, rules, [], options)
        else:
            res = resolve_rules(record, options.variant, options.edition, file_guess)
            rep = replay_game(record, res.rules, res.findings, options)
            if res.source == "guess" and rep.status == "error":
                rep = _other_guesses(record, res, options) or rep
            if rep.variant is None and res.rules is not None:  # not replayed (unparsed):
                rep.variant = res.rules.name                   # its rules all the same
                rep.gametype = res.rules.gametype
                rep.edition = options.edition or res.rules.edition
    except Exception as exc:  # noqa: BLE001 - one game never stops a collection
        rep = failed_report(record, exc, "resolving this game's variant")
    if options.light:
        rep.record = None
        rep.plies = []
        rep.final_position = None
    return rep


def restatus(report: GameReport) -> None:
    """The status of ``report`` again after findings were added to it (an unparsed game
    stays unparsed; a light report has no record to say so).

    Example:
        >>> from pdnkit.pdn import parse_game
        >>> from pdnkit.findings import Severity, make_finding, worst
        >>> rep = replay(parse_game('[GameType "20"] 1. 32-28 *'))
        >>> rep.findings.append(make_finding("encoding-fallback", "decoded as cp1252"))
        >>> restatus(rep)
        >>> rep.status
        'warning'
    """
    if report.status == "unparsed":
        return
    w = worst(report.findings)
    report.status = "ok" if w is None or w is Severity.INFO else w.value


def file_report(record: GameRecord) -> GameReport:
    """The report of a file-level record (an empty file, a file that is not PDN, notes after
    the last game): its findings, no game, no rules.

    Example:
        >>> from pdnkit.pdn.record import GameRecord
        >>> rec = GameRecord(file_level=True, findings=[make_finding("empty-file", "empty")])
        >>> rep = file_report(rec)
        >>> rep.file_level, rep.status, [f.code for f in rep.findings]
        (True, 'warning', ['empty-file'])
    """
    from pdnkit.validation.report import base_report

    report = base_report(record)
    report.file_level = True
    report.findings = list(record.findings)
    finish_status(report)
    return report


def failed_report(record: GameRecord, exc: BaseException, doing: str) -> GameReport:
    """The report of a game on which pdnkit's own code failed while ``doing`` something:
    its record's findings and an ``internal-error`` finding, nothing replayed.

    Example:
        >>> from pdnkit.pdn import parse_game
        >>> rep = failed_report(parse_game("1. 32-28 *"), KeyError("x"), "testing")
        >>> rep.status, rep.findings[-1].code
        ('error', 'internal-error')
    """
    from pdnkit.validation.report import base_report

    report = base_report(record)
    where = {"file": record.file, "game_index": record.index, "line": record.line}
    report.findings = [*record.findings,
                       internal_error(exc, doing, **where)]
    finish_status(report)
    return report


def file_guess_of(src: FileInput, options: RunOptions) -> FileGuess | None:
    """The variant of the file ``src`` for its games that name none (the pre-scan of
    :func:`~pdnkit.validation.resolve.scan_file`), or ``None``: with ``options.variant``
    given, for an input that cannot be read twice (a file object, standard input, a FIFO:
    each game is guessed on its own there), or when the scan fails."""
    from pdnkit.pdn.source import is_regular_file, open_source

    if options.variant is not None:
        return None
    if isinstance(src, Path):
        if not is_regular_file(src):
            return None
    elif not isinstance(src, str):
        return None
    try:
        opened = open_source(src, options.encoding)
        try:
            return scan_file(opened.chunks, options.edition, name=Path(src).name)
        finally:
            opened.close()
    except Exception:  # noqa: BLE001 - the replay reports what is wrong with the file
        return None


def _other_guesses(record: GameRecord, res: Resolution, options: RunOptions
                   ) -> GameReport | None:
    """The report under the first other guessed variant that replays without errors."""
    guessed = res.rules.name if res.rules is not None else None
    for name in res.alternatives:
        alt_rules = lookup_rules(name, options.edition)
        if alt_rules is None:
            continue
        fs = [f for f in res.findings if f.code != "variant-guessed"]
        note = make_finding(
            "variant-guessed",
            f"variant guessed as {alt_rules.name}: the game replays under its rules "
            f"and not under {guessed}'s",
            details={"variant": alt_rules.name, "candidates": [guessed, *res.alternatives]})
        alt = replay_game(record, alt_rules, [*fs, note], options)
        if alt.status != "error":
            return alt
    return None


def serial_reports(source: Source, options: RunOptions,
                   guess: FileGuess | None = None) -> Iterator[GameReport]:
    """The report of every game of ``source`` in file order, read and replayed in this
    process (arguments already checked). ``guess``: the file's variant decided beforehand
    (a caller reading one file in parts), else each file is pre-scanned
    (:func:`file_guess_of`). A reading fault ends its file with a report that says so;
    a missing file or an unknown encoding is raised before any game (API misuse)."""
    from pdnkit.pdn.reader import read_games
    from pdnkit.pdn.source import source_name
    from pdnkit.validation.cleanbatch import CleanBatch

    batch = CleanBatch.for_run(options)
    for src in iter_sources(source):
        if is_record(src):
            yield replay_with(src, options)
            continue
        file = source_name(src) if isinstance(src, Path) else None
        # (the file's pre-scan only once a game needs it: a clean game names its variant)
        file_guess = guess if guess is not None or batch is not None else \
            file_guess_of(src, options)
        scanned = batch is None or guess is not None
        index = 0
        try:
            for record in read_games(src, strict=options.strict, file=file,
                                     encoding=options.encoding):
                index = record.index + 1
                rep = None if batch is None else batch.report(record)
                if rep is None:
                    if not scanned:
                        file_guess, scanned = file_guess_of(src, options), True
                    rep = replay_with(record, options, file_guess=file_guess)
                yield rep
        except (OSError, ValueError) as exc:
            if index == 0 and _is_usage_error(exc):
                raise  # no such file, an unknown encoding: said before any game
            yield _reading_failed(file, index, exc, options.light)
        except Exception as exc:  # noqa: BLE001 - one file never stops a collection
            yield _reading_failed(file, index, exc, options.light)


def _is_usage_error(exc: Exception) -> bool:
    """A missing file or an unknown codec name: API misuse, raised to the caller."""
    return isinstance(exc, (FileNotFoundError, IsADirectoryError, PermissionError, LookupError,
                            NotADirectoryError))


def _reading_failed(file: str | None, index: int, exc: BaseException,
                    light: bool) -> GameReport:
    """The report standing for the rest of a file whose reading failed at game ``index``."""
    from pdnkit.pdn.record import GameRecord

    rec = GameRecord(file=file, index=index, line=1, raw="")
    rec.parsed = False
    rep = failed_report(rec, exc, "reading this file (the games after this one are lost)")
    if light:
        rep.record = None
    return rep
