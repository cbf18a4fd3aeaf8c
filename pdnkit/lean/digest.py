"""``pdnkit validate``'s output rendered where the games are replayed: a :class:`Digest`
holds a run of games' output text (JSONL lines or CSV rows), their summary counts and, for
the text format, the reports whose findings are printed.

A worker process fills one digest for each part of a file it replays
(:func:`pdnkit.validation.flow.run` with the digest as the rows to fill), so the process
that writes the output takes back text and counts, not a report object a game, and only
joins the text in file order: the JSON encoding, the CSV quoting and the counting are the
workers' share, which two cores split. The games' indexes are the one thing a worker
cannot know (the games of the parts before its own are counted as they come back): the
text keeps each as a number counted from the part's first game, written with the part's
place (:meth:`Digest.shift_game_index`) when the text is taken (:meth:`Digest.text`). A
run in one process fills digests the same way, so ``--jobs 1`` and ``--jobs 2`` write the
same bytes.

The writer (:func:`pdnkit.lean.validate.run`) says how to count and how to write CSV rows
(a :class:`Style`), so this module needs nothing of it.

Example:
    >>> from pdnkit.lean.validate import Summary, csv_rows
    >>> from pdnkit.validation import validate
    >>> d = Digest(Style("jsonl", counter=Summary, csv_rows=csv_rows))
    >>> _ = d.add(next(validate('[GameType "20"] 1. 32-28 *', light=True)))
    >>> d.shift_game_index(4)
    >>> d.text()[:22], d.summary.games
    ('{"file": null, "index"', 1)
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import json

    from pdnkit.validation.report import GameReport


class Counts(Protocol):
    """What a digest counts its games with (:class:`pdnkit.lean.validate.Summary`)."""

    games: int
    plies: int
    by_status: dict[str, int]
    by_code: dict[tuple[str, str], int]
    worst_rank: int
    variants: dict[str, int]
    guessed: dict[str, int]
    file_findings: int

    def add(self, report: Any) -> None:
        """Count one report."""
        ...


@dataclass(frozen=True)
class Style:
    """How a digest renders: the format (``text``, ``jsonl``, ``csv``, ``csv-raw``), the
    text format's ``quiet`` and ``show_info`` switches, the class that counts
    (``counter``), the CSV rows of a report (``csv_rows(report, raw)``) and their columns
    (``fields``), the kept finding codes (:func:`pdnkit.validation.check_codes`, ``None``:
    all) and whether each game's file and line are kept (``track``: a progress bar)."""

    fmt: str
    quiet: bool = False
    show_info: bool = False
    counter: Callable[[], Counts] | None = None
    csv_rows: Callable[[Any, bool], list[dict[str, Any]]] | None = None
    fields: tuple[str, ...] = ()
    codes: tuple[frozenset[str] | None, frozenset[str]] | None = None
    track: bool = False


@cache
def _json_encoder() -> json.JSONEncoder:
    """``json.dumps(obj, ensure_ascii=False)``'s encoder, made once (``dumps`` makes one a
    call) by the first JSON line (a text or CSV run never loads ``json``)."""
    import json

    return json.JSONEncoder(ensure_ascii=False)

#: games a digest of a run in one process holds before it is written (the output streams
#: in steps of this many games; a worker's digest holds its whole part)
DIGEST_GAMES = 64


class Digest:
    """Validate's output of a run of games, rendered in ``style`` (see the module doc)."""

    #: a digest crosses from a worker process cheaply: text and counts
    TRAVELS_LIGHT = True

    def __init__(self, style: Style) -> None:
        if style.counter is None:
            from pdnkit.errors import ArgumentError

            raise ArgumentError("a digest needs a counter (Style.counter)")
        self.style = style
        self.summary = style.counter()
        #: the output text in pieces: strings, and each game's index as an int counted
        #: from ``base``
        self.pieces: list[str | int] = []
        #: the text format's reports with findings to print
        self.shown: list[GameReport] = []
        #: each game's file and first line (``track`` only)
        self.places: list[tuple[str | None, int | None]] = []
        self.base = 0
        self.count = 0
        self._heads: dict[object, str] = {}
        self._buffer: io.StringIO | None = None

    @property
    def games_count(self) -> int:
        """The reports added (as :class:`~pdnkit.validation.collect.Reports` counts them)."""
        return self.count

    def full(self) -> bool:
        """True once it holds :data:`DIGEST_GAMES` reports."""
        return self.count >= DIGEST_GAMES

    def add(self, report: GameReport) -> int:
        """Count and render ``report`` (its findings first kept to ``codes``)."""
        style = self.style
        if style.codes is not None:
            from pdnkit.validation import keep_findings

            keep_findings(report, style.codes)
        self.summary.add(report)
        if style.fmt == "jsonl":
            self._jsonl(report)
        elif style.fmt in ("csv", "csv-raw"):
            self._csv(report)
        elif not style.quiet and any(f.severity.rank >= 1 or style.show_info
                                     for f in report.findings):
            self.shown.append(report)
        if style.track:
            self.places.append((report.file, report.line))
        self.count += 1
        return self.count - 1

    def shift_game_index(self, base: int) -> None:
        """Number the games from ``base`` on (they hold 0, 1, 2, ...)."""
        from pdnkit.validation.collect import renumber

        self.base += base
        for report in self.shown:
            if report.index is not None:
                renumber(report, report.index + base, old=report.index)

    def text(self) -> str:
        """The output text, each game's index written at its place in the file."""
        base = self.base
        return "".join([p if p.__class__ is str else str(p + base)  # type: ignore[operator]
                        for p in self.pieces])

    def _numbered(self, text: str, head: str, index: int) -> None:
        """Keep ``text``, which begins with ``head`` and then ``index``, with the index as a
        number (text of another shape is kept as it is: its index is the one it has)."""
        digits = str(index)
        after = len(head) + len(digits)
        if self.base == 0 and text.startswith(head) and text[len(head):after] == digits \
                and text[after:after + 1] == ",":
            self.pieces += (head, index, text[after:])
        else:
            self.pieces.append(text)

    def _jsonl(self, report: GameReport) -> None:
        text = _json_encoder().encode(report.to_dict()) + "\n"
        if report.file_level:
            self.pieces.append(text)
            return
        head = self._heads.get(report.file)
        if head is None:
            head = self._heads[report.file] = (
                '{"file": ' + _json_encoder().encode(report.file) + ', "index": ')
        self._numbered(text, head, report.index)

    def _csv(self, report: GameReport) -> None:
        import csv  # loaded by a CSV run alone

        style = self.style
        assert style.csv_rows is not None, "a CSV digest needs Style.csv_rows"
        rows = style.csv_rows(report, style.fmt == "csv-raw")
        if not rows:
            return
        if self._buffer is None:
            self._buffer = io.StringIO()
        buf = self._buffer
        writer = csv.DictWriter(buf, fieldnames=style.fields)
        for row in rows:
            buf.seek(0)
            buf.truncate()
            writer.writerow(row)
            text = buf.getvalue()
            if row["index"] is None:
                self.pieces.append(text)
                continue
            cell = row["file"]
            head = self._heads.get(cell)
            if head is None:
                buf.seek(0)
                buf.truncate()
                csv.writer(buf).writerow([cell, 0])
                head = self._heads[cell] = buf.getvalue()[:-len("0\r\n")]
            self._numbered(text, head, report.index)

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state["_heads"] = {}
        state["_buffer"] = None
        return state


def merge(into: Counts, part: Counts) -> None:
    """Add the counts of ``part`` to ``into`` (as if ``into`` had counted its reports).

    Example:
        >>> from pdnkit.lean.validate import Summary
        >>> a, b = Summary(), Summary()
        >>> b.games, b.by_status["ok"] = 2, 2
        >>> merge(a, b)
        >>> a.games, a.by_status["ok"]
        (2, 2)
    """
    into.games += part.games
    into.plies += part.plies
    into.file_findings += part.file_findings
    into.worst_rank = max(into.worst_rank, part.worst_rank)
    for mine, theirs in ((into.by_status, part.by_status), (into.variants, part.variants),
                         (into.guessed, part.guessed)):
        for key, n in theirs.items():
            mine[key] = mine.get(key, 0) + n
    for code, n in part.by_code.items():
        into.by_code[code] = into.by_code.get(code, 0) + n


def digests(paths: list[Path], style: Style, *, variant: str | None, edition: str | None,
            jobs: int, result_convention: str, strict: bool, encoding: str | None,
            select: list[str] | None, ignore: list[str] | None, irregular: str
            ) -> Iterator[Digest]:
    """The digests of ``paths``' games in file order, rendered in ``style``, validated as
    :func:`pdnkit.validation.validate` validates them with these arguments and light
    reports (workers fill them where ``jobs`` > 1 and workers pay). A usage error (an
    unknown edition, no such file) is raised when the first digest is asked for.

    Example:
        >>> from pdnkit.lean.validate import Summary
        >>> [d.summary.games for d in digests([], Style("text", counter=Summary),
        ...  variant=None, edition=None, jobs=1, result_convention="auto", strict=False,
        ...  encoding=None, select=None, ignore=None, irregular="stand")]
        []
    """
    from pdnkit.errors import ArgumentError
    from pdnkit.validation import RunOptions, check_codes, run
    from pdnkit.validation.flow import CHUNK_GAMES
    from pdnkit.validation.game import IRREGULAR
    from pdnkit.validation.pipeline import check_arguments

    check_arguments(variant, edition, result_convention)
    if irregular not in IRREGULAR:
        raise ArgumentError(f"irregular must be one of {IRREGULAR}, got {irregular!r}")
    codes = check_codes(select, ignore)
    options = RunOptions(variant=variant, edition=edition, result_convention=result_convention,
                         irregular=irregular, light=True, encoding=encoding, strict=strict,
                         codes=codes)
    rows = partial(Digest, dataclasses.replace(style, codes=codes))
    yield from run(list(paths), options, rows, jobs=jobs or 1, chunk_size=CHUNK_GAMES)


__all__ = ["DIGEST_GAMES", "Counts", "Digest", "Style", "digests", "merge"]
