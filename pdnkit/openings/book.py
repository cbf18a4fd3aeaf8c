"""Classification by position: an :class:`OpeningBook` holds a variant's tables, indexed by
the position each entry defines, and names a game from the positions it reached.

An opening is recognised when the game reaches the entry's defining position (placement and
side to move), whatever the move order, so transpositions land in the same opening. Among
the entries a game reached, the deepest wins: the one reached latest in the game, then the
one with the longest defining line, then a named entry before an unnamed one, then the
earlier row of its table. :class:`Classification` gives that ``entry`` and its ``ply``, the ``code`` of the
deepest *ballot* or *code* entry (the game's ballot or table code) and the ``name`` of the
deepest *named* entry; the two may come from different tables (``ACF 126`` and ``Old
Fourteenth``).

An entry whose line starts from a set-up position (a ``fen``: the 11-man ballots) is a
start, not a destination: a game gets it only when the game itself starts from that FEN and
plays the line, or starts from the entry's position (a ballot FEN in the file). Reached in
mid-game from the starting position, the same placement is a coincidence of exchanges, not
a ballot. Every other entry counts wherever the game reaches it.

A game is scanned from ply 0 until it has fewer pieces than the smallest table position
(pieces never come back; counted every 8th ply), so the cost per game is one dictionary
lookup per opening ply.

Example:
    >>> from pdnkit.rules import Position, get_rules, match_move
    >>> book = load_tables("english")
    >>> pos = [Position.initial(get_rules("english"))]
    >>> for text in "11-15 23-19 8-11 22-17 4-8".split():
    ...     pos.append(pos[-1].play(match_move(pos[-1], text)[0]))
    >>> c = book.classify(pos)
    >>> c.code, c.name, c.ply
    ('ACF 126', 'Old Fourteenth', 5)
"""

from __future__ import annotations

import csv
import functools
import io
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TypeVar

from pdnkit.errors import ArgumentError
from pdnkit.openings.table import (
    KINDS,
    BitsKey,
    Entry,
    OpeningTableError,
    mirror_bytes,
    mirror_position,
    read_table,
    square_bits,
    turn_bits,
)
from pdnkit.rules import Position, get_rules

__all__ = ["Classification", "Match", "OpeningBook", "classification", "load_tables",
           "load_user_table", "table_index"]

#: the tables shipped with pdnkit, as ``tables/index.csv`` lists them
INDEX = "index.csv"


@dataclass(frozen=True)
class Match:
    """An entry a game reached, at ``ply`` (0: the starting position)."""

    ply: int
    entry: Entry


@dataclass(frozen=True)
class Classification:
    """What a game's positions say about its opening.

    ``entry`` is the deepest entry the game reached and ``ply`` where; ``code`` is the full
    code of the deepest ballot or code entry (``ACF 5``, ``11-man 25``, ``I-12``), ``name``
    the name of the deepest named entry, ``translit`` its transliteration; ``matches`` every
    entry reached, in game order; ``mirrored``: the game was read with the colours swapped
    (:meth:`OpeningBook.classify`); ``plies``: the last ply looked at, and ``stopped``: the
    look stopped there because the game had fewer pieces than any table position (so it
    went on beyond every entry), else the game ended there. ``code``, ``name``, ``ply`` and
    ``entry`` are ``None`` (``matches`` empty) for a game the tables do not know.

    Example:
        >>> Classification.empty().classified
        False
    """

    code: str | None
    name: str | None
    ply: int | None
    entry: Entry | None
    translit: str | None = None
    matches: tuple[Match, ...] = field(default=())
    mirrored: bool = False
    plies: int = -1
    stopped: bool = False

    @classmethod
    def empty(cls) -> Classification:
        """The classification of a game no table knows."""
        return cls(None, None, None, None)

    @property
    def classified(self) -> bool:
        """True when the game reached at least one entry."""
        return bool(self.matches)

    def deepest(self, *, family: str | None = None, kind: str | None = None,
                named: bool = False) -> Match | None:
        """The deepest match among those of ``family`` and ``kind`` (and with a name, when
        ``named``), by the rule of the module docstring; ``None`` when there is none.

        Example:
            >>> Classification.empty().deepest(kind="ballot") is None
            True
        """
        best: Match | None = None
        for m in self.matches:
            e = m.entry
            if (family is not None and e.family != family) or (kind is not None
                                                                and e.kind != kind):
                continue
            if named and not e.name:
                continue
            if best is None or _rank(m) > _rank(best):
                best = m
        return best


def _rank(m: Match) -> tuple[int, int, int, int]:
    """The order of "deeper": later in the game, longer line, named, earlier row."""
    return (m.ply, m.entry.depth, 1 if m.entry.name else 0, -m.entry.row)


class OpeningBook:
    """The opening entries of one variant, indexed by their defining positions.

    Build it with :func:`load_tables` (the shipped tables, cached), :func:`load_user_table`
    (a user's CSV table) or :meth:`combined`. Several entries may define the same position
    (a two-move ballot and a named opening); all of them are kept.

    Example:
        >>> book = load_tables("russian")
        >>> len(book) > 400, sorted(book.families())[:2]
        (True, ['basic-150', 'codes'])
    """

    def __init__(self, variant: str, entries: Iterable[Entry]) -> None:
        self.variant = get_rules(variant).name
        self.entries: tuple[Entry, ...] = tuple(entries)
        by_pos: dict[Position, list[Entry]] = {}
        by_start: dict[Position, list[Entry]] = {}
        for e in self.entries:
            if e.variant != self.variant:
                raise ArgumentError(f"entry {e.full_code} of {e.file} is for {e.variant}, "
                                 f"not {self.variant}")
            if e.fen is None:
                by_pos.setdefault(e.position, []).append(e)
            else:  # a set-up start: from its FEN, or its position as the game's start
                by_start.setdefault(e.start, []).append(e)
                if e.depth:
                    by_start.setdefault(e.position, []).append(e)
        self._by_position = {k: tuple(v) for k, v in by_pos.items()}
        self._by_start = {k: tuple(v) for k, v in by_start.items()}
        self._by_bits = {square_bits(k): v for k, v in self._by_position.items()}
        self._by_start_bits = {square_bits(k): v for k, v in self._by_start.items()}
        counts = [sum(e.position.counts().values()) for e in self.entries if e.fen is None]
        self._names: dict[str, tuple[Entry, ...]] | None = None
        #: the fewest pieces of a position reached from the starting position: a game with
        #: fewer can reach no more entries
        self.min_pieces = min(counts) if counts else 0
        #: the longest line of an entry that starts from a set-up position (a FEN): a game
        #: that starts there can reach it up to this ply, whatever its pieces
        self.start_depth = max((e.depth for e in self.entries if e.fen is not None),
                               default=0)

    def __len__(self) -> int:
        return len(self.entries)

    def __repr__(self) -> str:
        return f"OpeningBook({self.variant!r}, {len(self)} entries)"

    def families(self) -> dict[str, int]:
        """Entries per table family, in book order.

        Example:
            >>> load_tables("international").families()
            {'first-moves': 90}
        """
        out: dict[str, int] = {}
        for e in self.entries:
            out[e.family] = out.get(e.family, 0) + 1
        return out

    def combined(self, *others: OpeningBook) -> OpeningBook:
        """This book with the entries of ``others`` after its own (the same variant).

        Example:
            >>> a = load_tables("english")
            >>> len(a.combined(a)) == 2 * len(a)
            True
        """
        entries = list(self.entries)
        for o in others:
            if o.variant != self.variant:
                raise ArgumentError(f"cannot combine a {o.variant} book with a {self.variant} "
                                 "book")
            entries.extend(o.entries)
        return OpeningBook(self.variant, entries)

    def lookup(self, position: Position) -> tuple[Entry, ...]:
        """The entries whose defining position is ``position`` (placement and side to move),
        those that start from a FEN included.

        Example:
            >>> from pdnkit.rules import Position, get_rules
            >>> load_tables("english").lookup(Position.initial(get_rules("english")))
            ()
        """
        return self._by_position.get(position, ()) + tuple(
            e for e in self._by_start.get(position, ()) if e.position == position)

    def lookup_bits(self, bits: BitsKey) -> tuple[Entry, ...]:
        """The entries of a position given as the database keeps it: ``(black, wm, wk, bm,
        bk)`` square bitboards (:func:`~pdnkit.openings.table.square_bits`).

        Example:
            >>> e = load_tables("english").lookup_bits((False, 0xFFF00000, 0, 0x1EFF, 0))
            >>> [x.label() for x in e]
            ['edinburgh Edinburgh']
        """
        return self._by_bits.get(bits, ()) + tuple(
            e for e in self._by_start_bits.get(bits, ()) if e.bits == bits)

    def classify(self, positions: Iterable[Position], *,
                 mirrored: bool = False) -> Classification:
        """The opening of a game given as its positions from ply 0 (the start) on.
        ``mirrored`` reads each position with the board turned round and the colours
        swapped (:func:`~pdnkit.openings.table.mirror_position`): a game recorded with the
        other colour moving first, as some sites export English checkers.

        Example:
            >>> from pdnkit.rules import get_rules, parse_fen
            >>> book = load_tables("english")
            >>> fen = "B:W19,21,22,23,25,26,27,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12"
            >>> book.classify([parse_fen(fen, get_rules("english"))]).code
            '11-man 1'
        """
        if mirrored:
            positions = map(mirror_position, positions)
        found, ply, stopped = _scan(positions, self._by_position, self._by_start,
                                    _entry_position, _position_pieces, self.min_pieces)
        return classification(found, mirrored, ply, stopped)

    def classify_bits(self, rows: Iterable[BitsKey], *,
                      mirrored: bool = False) -> Classification:
        """:meth:`classify` for positions given as the database keeps them (``(black, wm,
        wk, bm, bk)`` per ply, from ply 0), e.g. the ``position_bits`` rows of a game or
        the compiled core's arrays. ``mirrored``: read each position with the board turned
        round and the colours swapped (:func:`~pdnkit.openings.table.mirror_bits`).

        Example:
            >>> book = load_tables("english")
            >>> book.classify_bits([(True, 0xFFF00000, 0, 0xFFF, 0),
            ...                     (False, 0xFFF00000, 0, 0x1EFF, 0)]).name
            'Edinburgh'
        """
        if mirrored:
            tables = mirror_bytes(self.variant)
            rows = (turn_bits(b, tables) for b in rows)
        found, ply, stopped = _scan(rows, self._by_bits, self._by_start_bits, _entry_bits,
                                    _bits_pieces, self.min_pieces)
        return classification(found, mirrored, ply, stopped)

    def position_table(self) -> Mapping[BitsKey, tuple[Entry, ...]]:
        """The entries reached from the variant's starting position, by their defining
        position as the database keeps it (``(black, wm, wk, bm, bk)``): what a game
        reaches at any ply (set-up starts are apart: :meth:`begins`).

        Example:
            >>> len(load_tables("international").position_table()) > 0
            True
        """
        return self._by_bits

    def begins(self, bits: BitsKey) -> tuple[Entry, ...]:
        """The set-up entries (a ``fen``: the 11-man ballots) a game starting from ``bits``
        begins: their start, or their position as the game's start (see the module doc).

        Example:
            >>> load_tables("international").begins((False, 0, 0, 0, 0))
            ()
        """
        return self._by_start_bits.get(bits, ())

    def find(self, text: str) -> list[Entry]:
        """The entries a text names: a code (with or without its table prefix), a name, a
        transliteration or a defining line, compared without case, extra spaces, or the
        difference of е and ё.

        Example:
            >>> [e.full_code for e in load_tables("russian").find("Kol")]
            ['kol']
        """
        key = normal_text(text)
        if not key:
            return []
        if self._names is None:  # built on first use: one dictionary of every naming text
            names: dict[str, list[Entry]] = {}
            for e in self.entries:
                for k in entry_keys(e):
                    names.setdefault(k, []).append(e)
            self._names = {k: tuple(v) for k, v in names.items()}
        return list(self._names.get(key, ()))

    def rows(self) -> list[tuple[str, str, str, str | None, int, bool, int, int, int, int]]:
        """One row per entry for a database table: ``(variant, family, full code, name,
        depth, black, wm, wk, bm, bk)``, the position as the ``position_bits`` columns keep
        it (whole bitboards; a board of more than 64 squares needs the split columns).

        Example:
            >>> load_tables("english").rows()[0][:5]
            ('english', 'acf-3move', 'ACF 1', None, 3)
        """
        return [(e.variant, e.family, e.full_code, e.name, e.depth, *e.bits)
                for e in self.entries]


Key = TypeVar("Key", Position, BitsKey)


def _entry_position(e: Entry) -> Position:
    return e.position


def _entry_bits(e: Entry) -> BitsKey:
    return e.bits


def _position_pieces(p: Position) -> int:
    return sum(p.counts().values())


def _bits_pieces(b: BitsKey) -> int:
    return (b[1] | b[2] | b[3] | b[4]).bit_count()


def _scan(items: Iterable[Key], table: Mapping[Key, tuple[Entry, ...]],
          starts: Mapping[Key, tuple[Entry, ...]], key_of: Callable[[Entry], Key],
          pieces: Callable[[Key], int], floor: int) -> tuple[list[Match], int, bool]:
    """The matches of a game's positions (``items``, from ply 0), the last ply looked at,
    and whether the look stopped at the piece ``floor`` (see the module docstring)."""
    found: list[Match] = []
    begun: tuple[Entry, ...] = ()  # the set-up entries the game's start begins
    ply, stopped = -1, False
    for ply, item in enumerate(items):
        if ply == 0:
            begun = starts.get(item, ())
            found.extend(Match(0, e) for e in begun if key_of(e) == item)
        elif begun:
            found.extend(Match(ply, e) for e in begun if e.depth == ply and key_of(e) == item)
        hit = table.get(item)
        if hit:
            found.extend(Match(ply, e) for e in hit)
        elif not ply & 7 and not begun and pieces(item) < floor:
            # pieces never come back: below the floor no entry can follow (counted every
            # 8th ply, the cost of a few more lookups against a count at every ply)
            stopped = True
            break
    return found, ply, stopped


def classification(found: list[Match], mirrored: bool, plies: int,
                   stopped: bool) -> Classification:
    """The classification of a game's matches (``found``, in ply order; see the module
    docstring): ``plies`` the last ply looked at, ``stopped`` whether the look stopped at
    the piece floor.

    Example:
        >>> classification([], False, 0, False).classified
        False
    """
    if not found:
        return Classification(None, None, None, None, mirrored=mirrored, plies=plies,
                              stopped=stopped)
    matches = tuple(found)
    # the deepest match, the deepest with a code, the deepest with a name: one pass, each
    # rank computed once (the first of equal ranks wins, as in Classification.deepest)
    best = coded = named = None
    rb = rc = rn = None
    for m in matches:
        r = _rank(m)
        if rb is None or r > rb:
            best, rb = m, r
        if m.entry.kind in ("ballot", "code") and (rc is None or r > rc):
            coded, rc = m, r
        if m.entry.name and (rn is None or r > rn):
            named, rn = m, r
    assert best is not None
    return Classification(
        code=coded.entry.full_code if coded else None,
        name=named.entry.name if named else None,
        ply=best.ply, entry=best.entry,
        translit=named.entry.translit if named else None, matches=matches,
        mirrored=mirrored, plies=plies, stopped=stopped)


def normal_text(text: str) -> str:
    """``text`` folded for comparison: no case, ``ё`` as ``е``, spaces collapsed, move
    numbers and surrounding quotes dropped.

    Example:
        >>> normal_text("  «Обратный  Перекрёсток» "), normal_text("1. cd4 dc5")
        ('обратный перекресток', 'cd4 dc5')
    """
    t = text.strip().strip("\"'«»“”").casefold().replace("ё", "е")
    words = [w for w in t.split() if not w.rstrip(".").isdigit() or not w.endswith(".")]
    return " ".join(words)


def entry_keys(entry: Entry) -> set[str]:
    """Every text that names ``entry`` (:func:`normal_text` forms): its full code, its code
    (unless a bare number, which names different openings in different lists), name,
    transliteration and line (as written and in canonical notation).

    Example:
        >>> e = load_tables("english").find("Old Fourteenth")[0]
        >>> sorted(entry_keys(e))[:2]
        ['11-15 23-19 8-11 22-17 4-8', 'old fourteenth']
    """
    out = {entry.full_code, " ".join(entry.line), " ".join(entry.notation)}
    if not entry.code.isdigit():
        out.add(entry.code)
    for extra in (entry.name, entry.translit):
        if extra:
            out.add(extra)
    return {normal_text(x) for x in out if x}


@dataclass(frozen=True)
class TableInfo:
    """One row of the shipped tables' index: the file, the variants it serves, its
    family, kind, code prefix and description."""

    file: str
    variants: tuple[str, ...]
    family: str
    kind: str
    prefix: str
    description: str


def _tables_dir() -> resources.abc.Traversable:
    """The package folder holding the shipped tables."""
    return resources.files("pdnkit.openings").joinpath("tables")


@functools.lru_cache(maxsize=1)
def table_index() -> tuple[TableInfo, ...]:
    """The shipped tables, as ``tables/index.csv`` lists them.

    Example:
        >>> [t.family for t in table_index() if "english" in t.variants]
        ['acf-3move', '2move', '11man', 'names']
    """
    text = _tables_dir().joinpath(INDEX).read_text(encoding="utf-8")
    out = []
    for row in csv.DictReader(io.StringIO(text)):
        kind = row["kind"]
        if kind not in KINDS:
            raise OpeningTableError(f"{INDEX}: {row['file']}: unknown kind {kind!r}")
        out.append(TableInfo(row["file"], tuple(row["variants"].split(";")), row["family"],
                             kind, row["prefix"], row["description"]))
    return tuple(out)


@functools.cache
def _load(variant: str) -> OpeningBook:
    """The shipped tables of a canonical variant name (cached)."""
    entries: list[Entry] = []
    folder = _tables_dir()
    for info in table_index():
        if variant not in info.variants:
            continue
        text = folder.joinpath(info.file).read_text(encoding="utf-8")
        entries.extend(read_table(io.StringIO(text, newline=""), variant, family=info.family,
                                  kind=info.kind, prefix=info.prefix,
                                  name=f"tables/{info.file}"))
    return OpeningBook(variant, entries)


def load_tables(variant: str) -> OpeningBook:
    """The opening book of ``variant`` from the tables shipped with pdnkit: built once per
    process (every line replayed by the rules engine) and cached. A variant without tables
    has an empty book.

    Example:
        >>> book = load_tables("english")
        >>> book is load_tables("21"), book.families()["acf-3move"]
        (True, 174)
    """
    return _load(get_rules(variant).name)


def load_user_table(path: str | Path, variant: str, *, kind: str = "name",
                    family: str | None = None, prefix: str = "") -> OpeningBook:
    """A book of one user's CSV table (the columns of the shipped tables, see
    :mod:`pdnkit.openings.table`); every row validated, every line replayed. Combine it
    with the shipped book: ``load_tables(v).combined(load_user_table(path, v))``.

    Example:
        >>> import tempfile, os
        >>> with tempfile.TemporaryDirectory() as d:
        ...     p = os.path.join(d, "club.csv")
        ...     with open(p, "w", encoding="utf-8") as f:
        ...         _ = f.write("code,name,moves,source\\nc1,Club line,32-28 18-23 37-32,"
        ...                     "our club book\\n")
        ...     load_user_table(p, "international").entries[0].label()
        'c1 Club line'
    """
    return OpeningBook(variant, read_table(path, variant, family=family, kind=kind,
                                           prefix=prefix))


def by_code(book: OpeningBook) -> Mapping[str, Entry]:
    """The entries of ``book`` by full code (the last one wins where codes repeat).

    Example:
        >>> by_code(load_tables("english"))["ACF 5"].name
        'Dreaded Edinburgh'
    """
    return {e.full_code: e for e in book.entries}
