"""The opening columns of one game as the import writes them: :func:`label_report` classifies
a replayed game by the tables shipped with pdnkit and checks its opening tag.

The import calls it once per game while it builds the game's rows
(:class:`pdnkit.rows.batch.ReportBatch`), from the positions the replay has already made, so
it costs one dictionary lookup per opening ply. What it gives becomes ``games.opening_code``,
``opening_name``, ``opening_ply``, ``opening_family`` and ``opening_mirrored``; a tag the
moves disagree with becomes an ``opening-tag-mismatch`` finding (``info``). Tables a user
loaded into a database (:func:`pdnkit.store.openingdb.load_opening_table`) are applied after the
rows are loaded (:mod:`pdnkit.store.openingdb`).

Example:
    >>> from pdnkit.validation import validate
    >>> rep = next(validate('[GameType "21"][Opening "Dyke"] 1. 11-15 22-17 15-19 *'))
    >>> label = label_report(rep, rep.record.tags)
    >>> label.code, label.name, label.ply, label.family, label.finding is None
    ('ACF 119', 'Dyke', 3, 'acf-3move', True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from pdnkit.openings.book import (
    Classification,
    Match,
    OpeningBook,
    classification,
    load_tables,
)
from pdnkit.openings.one_game import colours_swapped, game_bits, start_bits, start_position
from pdnkit.openings.table import mirror_bytes, turn_bits
from pdnkit.openings.tagcheck import OPENING_TAGS, tag_disagreement
from pdnkit.rules import Position, UnknownVariantError

if TYPE_CHECKING:
    from pdnkit.findings import Finding
    from pdnkit.openings.table import BitsKey, Entry
    from pdnkit.validation.report import GameReport

__all__ = ["FINDING_CODE", "OPENING_COLUMNS", "BatchOpenings", "GameOpening", "add_opening",
           "coded_family",
           "entries_label", "label_report",
           "tag_finding", "tag_line"]

#: the code of the finding for an opening tag the moves disagree with
FINDING_CODE = "opening-tag-mismatch"


@dataclass(frozen=True)
class GameOpening:
    """The opening columns of one game (``None`` where the tables know nothing) and the
    finding of its opening tag, if the moves disagree with it."""

    code: str | None = None
    name: str | None = None
    ply: int | None = None
    family: str | None = None
    mirrored: bool | None = None
    finding: Finding | None = None

    @classmethod
    def of(cls, c: Classification, finding: Finding | None = None) -> GameOpening:
        """The columns of a classification.

        Example:
            >>> GameOpening.of(Classification.empty()).code is None
            True
        """
        return cls(c.code, c.name, c.ply, coded_family(c), c.mirrored, finding)


def coded_family(c: Classification) -> str | None:
    """The table family of the classification's ``code`` (``acf-3move``, ``11man``,
    ``codes`` ...), ``None`` without a code.

    Example:
        >>> coded_family(Classification.empty()) is None
        True
    """
    if c.code is None:
        return None
    for m in reversed(c.matches):
        if m.entry.full_code == c.code and m.entry.kind in ("ballot", "code"):
            return m.entry.family
    return None


def entries_label(entries: Iterable[Entry]) -> str | None:
    """How people name a position that several entries define: each ballot or code with its
    name (``ACF 5 Dreaded Edinburgh``), each named opening by its name and transliteration
    (``Кол (Kol)``), joined by ``; `` without repeats; ``None`` for no entry.

    Example:
        >>> book = load_tables("english")
        >>> from pdnkit.rules import Position, get_rules, match_move
        >>> p = Position.initial(get_rules("english"))
        >>> for t in "11-15 23-19 8-11".split():
        ...     p = p.play(match_move(p, t)[0])
        >>> entries_label(book.lookup(p))
        'ACF 126'
    """
    out: list[str] = []
    for e in entries:
        if e.kind == "name":
            text = e.name or e.full_code
            if e.translit:
                text += f" ({e.translit})"
        else:
            text = e.full_code + (f" {e.name}" if e.name else "")
        if text not in out:
            out.append(text)
    return "; ".join(out) or None


def tag_finding(tags: Iterable[tuple[str, str]], c: Classification, book: OpeningBook, *,
                file: str | None = None, game_index: int | None = None,
                line: int | None = None) -> Finding | None:
    """The ``opening-tag-mismatch`` finding of a game whose opening tag names an entry its
    moves do not reach (:func:`~pdnkit.openings.tagcheck.tag_disagreement`), else ``None``.

    Example:
        >>> from pdnkit.openings import classify_record
        >>> from pdnkit.pdn import parse_game
        >>> rec = parse_game('[GameType "25"][Opening "Кол"] 1. cd4 dc5 2. bc3 fg5 3. cb4 *')
        >>> f = tag_finding(rec.tags, classify_record(rec), load_tables("russian"))
        >>> f.code, f.severity.value, f.details["tag"]
        ('opening-tag-mismatch', 'info', 'Opening')
    """
    check = tag_disagreement(list(tags), c, book)
    if check is None:
        return None
    from pdnkit.findings import make_finding

    return make_finding(FINDING_CODE, check.message, file=file, game_index=game_index,
                        line=line, details={"tag": check.tag, "value": check.value,
                                            "named": [e.full_code for e in check.named[:5]],
                                            "code": c.code, "name": c.name})


#: the opening columns a row batch's ``games`` table gets from :func:`add_opening`
OPENING_COLUMNS = ("opening_code", "opening_name", "opening_ply", "opening_family",
                   "opening_mirrored")

#: the shipped book of each variant name the import met (``None``: a variant pdnkit does not
#: know), and its starting position: looked up once per game
_BOOKS: dict[str, OpeningBook | None] = {}
_INITIAL: dict[str, Position] = {}
_TAG_NAMES = frozenset(t.casefold() for t in OPENING_TAGS)


def _book(variant: str) -> OpeningBook | None:
    if variant not in _BOOKS:
        try:
            _BOOKS[variant] = load_tables(variant)
        except UnknownVariantError:
            _BOOKS[variant] = None
    return _BOOKS[variant]


def _swapped(first: Position, variant: str) -> bool:
    """:func:`~pdnkit.openings.one_game.colours_swapped` with the start looked up once."""
    initial = _INITIAL.get(variant)
    if initial is None or initial.rules is not first.rules:
        initial = _INITIAL[variant] = Position.initial(first.rules)
    return first != initial and colours_swapped(first)


def _has_tag(tags: list[tuple[str, str]]) -> bool:
    """Whether any of ``tags`` is an opening tag (most games have none: no check to make)."""
    return any(k.strip().casefold() in _TAG_NAMES for k, _ in tags)


def label_report(report: GameReport, tags: Iterable[tuple[str, str]]) -> GameOpening:
    """The opening columns of a replayed game (a :class:`~pdnkit.validation.report.GameReport`,
    its positions read as the replay left them) by the shipped tables of its variant, with
    the finding of its opening tag (``tags``: the game's ``(name, value)`` pairs). A game
    recorded with the colours swapped (:func:`~pdnkit.openings.one_game.colours_swapped`) is
    read mirrored. A game without a variant or positions gets no opening.

    Example:
        >>> from pdnkit.validation import validate
        >>> rep = next(validate('[GameType "25"] 1. cd4 ba5 2. dc5 d:b4 3. a:c5 fg5 *'))
        >>> label_report(rep, []).name
        'Кол'
    """
    variant = report.variant
    book = _book(str(variant)) if variant is not None else None
    if book is None or not len(book):
        return GameOpening()
    first = start_position(report)
    if first is None:
        return GameOpening()
    # the square bitboards of each ply, read from the compiled core's arrays where it
    # replayed them: no position object per ply (a tenth of an import's time otherwise)
    c = book.classify_bits(game_bits(report), mirrored=_swapped(first, str(variant)))
    tags = list(tags)
    finding = tag_finding(tags, c, book, file=report.file, game_index=report.index,
                          line=report.line) if tags and _has_tag(tags) else None
    if finding is not None and report.record is not None:
        finding.line = tag_line(report.record.raw, report.line, finding.details["tag"])
    return GameOpening.of(c, finding)


def add_opening(games: dict[str, list[Any]], report: GameReport,
                tags: Iterable[tuple[str, str]]) -> list[Finding]:
    """Append a game's opening columns (``opening_code``, ``opening_name``, ``opening_ply``,
    ``opening_family``, ``opening_mirrored``) to the ``games`` columns of a row batch
    (:class:`pdnkit.rows.batch.ReportBatch`), by :func:`label_report`; returns the
    ``opening-tag-mismatch`` finding of a tag its moves disagree with (as a list).

    Example:
        >>> from pdnkit.validation import validate
        >>> cols: dict[str, list[Any]] = {c: [] for c in OPENING_COLUMNS}
        >>> rep = next(validate('[GameType "25"] 1. cd4 ba5 2. dc5 d:b4 3. a:c5 fg5 *'))
        >>> add_opening(cols, rep, [])
        []
        >>> cols["opening_name"]
        ['Кол']
    """
    label = label_report(report, tags)
    for col, value in zip(OPENING_COLUMNS, (label.code, label.name, label.ply, label.family,
                                            label.mirrored), strict=True):
        games[col].append(value)
    return [] if label.finding is None else [label.finding]


def tag_line(raw: str | None, first: int | None, tag: str) -> int | None:
    """The file line of the tag ``tag`` in a game's raw text whose first line is ``first``
    (``first`` itself when the text does not show it).

    Example:
        >>> tag_line('[Event "x"]\\n[Opening "Dyke"]\\n1. 11-15 *', 10, "Opening")
        11
    """
    if not raw or first is None:
        return first
    import re

    hit = re.search(r"\[\s*" + re.escape(tag.strip()) + r"\s", raw, re.IGNORECASE)
    return first if hit is None else first + raw.count("\n", 0, hit.start())


class _Queued(NamedTuple):
    """A game whose opening waits for its batch: its row in the ``games`` columns, its
    book, its start (square bitboards), the core's square bitboards after each ply
    (``wm, wk, bm, bk`` uint64s a ply), Black to move at the start, and its plies."""

    row: int
    book: OpeningBook
    start: BitsKey
    bits: bytes
    black: bool
    plies: int
    mirrored: bool


class BatchOpenings:
    """The opening columns of a row batch's games, the most of them a batch at a time.

    A game the compiled core replayed whole, from a start no set-up entry begins, without
    an opening tag to check (what nearly every game of an import is) waits for the batch
    (one recorded with the colours swapped is turned round there, a byte table at a time):
    :meth:`settle` hashes the core's square bitboards of every such game's plies with
    numpy, keeps the plies whose hash a table position has, and looks only those up, so the
    Python work is a few lookups a game instead of one a ply. Every other game is labelled at once by :func:`add_opening`. Both give the same
    columns as :func:`label_report`: the batch finds the same matches as
    :meth:`OpeningBook.classify_bits`, which stops at the piece floor only because no entry
    can follow it (pieces never come back); the batch looks at every ply instead.

    Example:
        >>> from pdnkit.validation import validate
        >>> cols: dict[str, list[Any]] = {c: [] for c in OPENING_COLUMNS}
        >>> labels = BatchOpenings()
        >>> rep = next(validate('[GameType "21"] 1. 11-15 23-19 8-11 22-17 4-8 *',
        ...                     compact=True))
        >>> labels.add(cols, rep, [])
        []
        >>> labels.settle(cols)
        >>> cols["opening_code"], cols["opening_name"], cols["opening_ply"]
        (['ACF 126'], ['Old Fourteenth'], [5])
    """

    def __init__(self) -> None:
        self._queue: list[_Queued] = []

    def __len__(self) -> int:
        """Games waiting for :meth:`settle`."""
        return len(self._queue)

    def add(self, games: dict[str, list[Any]], report: GameReport,
            tags: Iterable[tuple[str, str]]) -> list[Finding]:
        """:func:`add_opening`, or the game's place kept (its columns ``None`` until
        :meth:`settle`) when it can wait for its batch; returns the finding of its opening
        tag (a game with a tag is labelled at once)."""
        tags = list(tags)
        queued = None if tags and _has_tag(tags) else _waiting(report)
        if queued is None:
            return add_opening(games, report, tags)
        row = len(games[OPENING_COLUMNS[0]])
        for col in OPENING_COLUMNS:
            games[col].append(None)
        self._queue.append(_Queued(row, *queued))
        return []

    def forget(self, row: int) -> None:
        """Drop the waiting games from ``row`` on (their rows were taken back)."""
        self._queue = [q for q in self._queue if q.row < row]

    def extend(self, other: BatchOpenings, base: int) -> None:
        """Take over the waiting games of ``other``, whose rows now start at ``base``."""
        self._queue.extend(q._replace(row=q.row + base) for q in other._queue)
        other._queue = []

    def settle(self, games: dict[str, list[Any]]) -> None:
        """Fill the columns of every waiting game (a batch per book)."""
        by_book: dict[tuple[int, bool], list[_Queued]] = {}
        for q in self._queue:
            by_book.setdefault((id(q.book), q.mirrored), []).append(q)
        self._queue = []
        for items in by_book.values():
            for q, label in zip(items, _label_runs(items), strict=True):
                for col, value in zip(OPENING_COLUMNS, (label.code, label.name, label.ply,
                                                        label.family, label.mirrored),
                                      strict=True):
                    games[col][q.row] = value


def _waiting(report: GameReport) -> tuple[OpeningBook, BitsKey, bytes, bool, int, bool] | None:
    """What a game needs to wait for its batch (see :class:`BatchOpenings`), ``None`` when
    it is labelled at once."""
    from pdnkit.validation.coreplies import CoreRun

    plain = report.plain
    if not isinstance(plain, CoreRun) or report.variant is None or plain.rep.bits_high:
        return None  # (bits_high: squares past 64, a 12x12 board's, labelled per game)
    rep = plain.rep
    plies = report.plies
    if plies and plies[0].replayed:  # the main line goes on past the core's run
        return None
    variant = str(report.variant)
    book = _book(variant)
    if book is None or not len(book):
        return None
    start = start_bits(plain.start)
    mirrored = _swapped(plain.start, variant)
    if mirrored:
        start = turn_bits(start, mirror_bytes(book.variant))
    if book.begins(start):
        return None
    n = len(plain)
    return book, start, bytes(rep.bits[:32 * n]), bool(plain.black), n, mirrored


#: what the hash of a square bitboard is multiplied by (one odd constant a bitboard)
_MIX = (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93)
#: the hashes of each book's table positions, sorted (a book from load_tables lives on)
_HASHES: dict[int, tuple[OpeningBook, Any]] = {}


def _hashes(bits: Any, black: Any) -> Any:
    """One uint64 a position (``bits``: rows of ``wm, wk, bm, bk``; ``black``: booleans)."""
    import numpy as np

    mixed = bits * np.array(_MIX, dtype=np.uint64)  # wraps, as a hash may
    return (mixed[:, 0] ^ mixed[:, 1] ^ mixed[:, 2] ^ mixed[:, 3]
            ^ black.astype(np.uint64))


def _book_hashes(book: OpeningBook) -> Any:
    import numpy as np

    got = _HASHES.get(id(book))
    if got is None or got[0] is not book:
        keys = list(book.position_table())
        bits = np.array([k[1:] for k in keys], dtype=np.uint64).reshape(-1, 4)
        black = np.array([k[0] for k in keys], dtype=bool)
        got = _HASHES[id(book)] = (book, np.unique(_hashes(bits, black)))
    return got[1]


def _turned(bits: Any, tables: tuple[tuple[int, ...], ...]) -> Any:
    """Rows of ``wm, wk, bm, bk`` square bitboards turned round with the colours swapped
    (:func:`~pdnkit.openings.table.mirror_bytes`'s tables, a byte at a time)."""
    import numpy as np

    lut = np.array(tables, dtype=np.uint64)
    octets = np.ascontiguousarray(bits, dtype="<u8").view(np.uint8).reshape(len(bits), 4, 8)
    out = np.zeros((len(bits), 4), dtype=np.uint64)
    for k in range(len(tables)):
        out |= lut[k][octets[:, :, k]]
    return out[:, [2, 3, 0, 1]]  # white's pieces are black's turned round, and back


def _label_runs(items: list[_Queued]) -> list[GameOpening]:
    """The labels of waiting games of one book (see :class:`BatchOpenings`)."""
    import numpy as np

    book, mirrored = items[0].book, items[0].mirrored
    table = book.position_table()
    ns = np.array([q.plies for q in items], dtype=np.int64)
    firsts = np.zeros(len(items) + 1, dtype=np.int64)
    np.cumsum(ns, out=firsts[1:])
    bits = np.frombuffer(b"".join(q.bits for q in items), dtype="<u8").reshape(-1, 4)
    ply = np.arange(1, len(bits) + 1, dtype=np.int64) - np.repeat(firsts[:-1], ns)
    start_black = np.repeat(np.array([q.black for q in items], dtype=bool), ns)
    black = start_black == (ply % 2 == 0)  # Black moves after ply p when p's parity says
    if mirrored:  # the board turned round, the colours swapped (as mirror_bits does)
        bits, black = _turned(bits, mirror_bytes(book.variant)), ~black
    hits = np.flatnonzero(np.isin(_hashes(bits, black), _book_hashes(book)))
    hit_at = np.searchsorted(hits, firsts)
    out: list[GameOpening] = []
    for g, q in enumerate(items):  # every ply looked at: no piece floor to stop at
        found = [Match(0, e) for e in table.get(q.start, ())]
        for r in hits[hit_at[g]:hit_at[g + 1]].tolist():
            w = bits[r]
            entries = table.get((bool(black[r]), int(w[0]), int(w[1]), int(w[2]), int(w[3])),
                                ())
            found.extend(Match(int(ply[r]), e) for e in entries)
        out.append(GameOpening.of(classification(found, mirrored, q.plies, False)))
    return out
