"""Opening tables as data: reading one CSV table and replaying each entry to its position.

A table is a CSV file with the columns ``code, name, translit, fen, moves, flags, source``
(the header names them; their order is free, ``name``, ``translit``, ``fen`` and ``flags``
may be left out). One row is one entry:

* ``code`` -- the entry's code in its table (a ballot number, ``I-1``, ``old-fourteenth``);
* ``name`` -- the opening's name, if it has one (``translit``: its Latin transliteration
  for a Cyrillic name);
* ``fen`` -- the position the line starts from (empty: the variant's starting position);
* ``moves`` -- the line that defines the opening, as the variant writes it (``11-15 23-19``,
  ``cd4 dc5``, ``c3-d4 d6-c5``; move numbers may be written and are ignored). Empty: the
  entry *is* the ``fen`` position (an 11-man ballot);
* ``flags`` -- ``;``-separated deck or list marks (``crossboard;ctd``, ``lost``);
* ``source`` -- where the entry comes from (required: a book, a federation table, a page).

Every line is replayed with the rules engine when the table is read: a move that is illegal
or ambiguous, a FEN that does not parse, a row without code or source raises
:class:`OpeningTableError` naming the file and the row.

Example:
    >>> import io
    >>> text = "code,moves,source\\nx1,11-15 23-19,my notes\\n"
    >>> [e.line for e in read_table(io.StringIO(text), "english", family="mine")]
    [('11-15', '23-19')]
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from pdnkit.errors import ArgumentError, PdnkitError
from pdnkit.rules import Position, get_rules, match_move, parse_fen
from pdnkit.rules.notation import canonical_notation
from pdnkit.rules.squarebits import square_bits as board_bits
from pdnkit.rules.variants import Rules

__all__ = ["COLUMNS", "KINDS", "Entry", "OpeningTableError", "mirror_bits", "mirror_bytes",
           "mirror_position", "read_table", "square_bits", "turn_bits"]

#: the columns of a table, in the order the project writes them
COLUMNS = ("code", "name", "translit", "fen", "moves", "flags", "source")
#: the columns every table must have
REQUIRED = ("code", "moves", "source")
#: what a table holds: ``ballot`` (tournament ballots), ``code`` (a classification's codes),
#: ``name`` (named openings)
KINDS = ("ballot", "code", "name")

_MOVE_NUMBER = re.compile(r"^\d+\.+$|^\d+\.(?=\S)")

#: ``(black to move, white men, white kings, black men, black kings)``: square bitboards
#: (bit ``n - 1`` for square ``n``), the columns the database keeps for every position
BitsKey = tuple[bool, int, int, int, int]


class OpeningTableError(PdnkitError, ValueError):
    """An opening table that cannot be used: a missing column, a row without code or
    source, a line that does not replay. The message names the file and the row."""


@dataclass(frozen=True, eq=False)
class Entry:
    """One opening of a table, replayed to its defining position.

    ``family`` names the table, ``kind`` is one of :data:`KINDS`, ``prefix`` is put before
    the code to make it unique across tables (:attr:`full_code`); ``line`` holds the moves
    as written in the table and ``notation`` the same moves in canonical PDN notation;
    ``depth`` is the number of plies of the line; ``start`` the position it starts from
    (the ``fen``, else the variant's starting position) and ``position`` the one it reaches
    (``bits``: the same as the database stores it, :func:`square_bits`).

    Example:
        >>> import io
        >>> e = read_table(io.StringIO("code,name,moves,source\\n5,Dreaded Edinburgh,"
        ...                            "9-13 22-18 6-9,ACF\\n"), "english", family="acf",
        ...                kind="ballot", prefix="ACF ")[0]
        >>> e.full_code, e.name, e.depth, str(e.position.side)
        ('ACF 5', 'Dreaded Edinburgh', 3, 'W')
    """

    family: str
    kind: str
    code: str
    prefix: str
    name: str | None
    translit: str | None
    fen: str | None
    line: tuple[str, ...]
    notation: tuple[str, ...]
    flags: tuple[str, ...]
    source: str
    variant: str
    start: Position
    position: Position
    bits: BitsKey
    file: str
    row: int

    @property
    def full_code(self) -> str:
        """The code with its table's prefix (``ACF 101``, ``11-man 25``, ``I-1``)."""
        return self.prefix + self.code

    @property
    def depth(self) -> int:
        """Plies of the defining line (0 for an entry given as a position)."""
        return len(self.line)

    def label(self) -> str:
        """``code`` and name for people: ``ACF 5 Dreaded Edinburgh``, ``kol Кол (Kol)``.

        Example:
            >>> import io
            >>> read_table(io.StringIO("code,moves,source\\n7,11-15,x\\n"), "english",
            ...            family="f", prefix="B")[0].label()
            'B7'
        """
        text = self.full_code
        if self.name:
            text += " " + self.name
            if self.translit:
                text += f" ({self.translit})"
        return text


def square_bits(position: Position) -> BitsKey:
    """``(black to move, wm, wk, bm, bk)`` of a position: square bitboards with bit
    ``n - 1`` set for a piece on square ``n``, the ``black``, ``wm`` ... ``bk`` columns of
    the database's ``position_bits`` (whole, before their split at square 64).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> square_bits(parse_fen("W:W28,K33:B19", get_rules("international")))
        (False, 134217728, 4294967296, 262144, 0)
    """
    wm, wk, bm, bk = board_bits(position)  # from the engine's bitboards, a byte at a time
    return (int(position.side) == 1, wm, wk, bm, bk)


def _mirror_map(rules: Rules) -> dict[int, int]:
    """Square ``n`` to the square it lands on when the board is turned round."""
    geo = rules.geometry
    out = {}
    for n in range(1, geo.num_squares + 1):
        f, r = geo.square_to_coords(n)
        m = geo.coords_to_square(rules.width - 1 - f, rules.height - 1 - r)
        if m is None:
            raise ArgumentError(f"the {rules.name} board is not symmetric under a half turn")
        out[n] = m
    return out


_MIRRORS: dict[str, dict[int, int]] = {}


def mirror_position(position: Position) -> Position:
    """``position`` with the board turned round and the colours swapped: the same game seen
    by the other player (white men on the black side become black men, the side to move
    changes colour too).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> rules = get_rules("english")
        >>> p = Position.initial(rules).with_side("W")
        >>> mirror_position(p) == Position.initial(rules)
        True
    """
    rules = position.rules
    m = _MIRRORS.get(rules.name)
    if m is None:
        m = _MIRRORS[rules.name] = _mirror_map(rules)
    side = "W" if int(position.side) == 1 else "B"
    return Position.from_squares(rules, side, white_men=[m[n] for n in position.black_men],
                                 white_kings=[m[n] for n in position.black_kings],
                                 black_men=[m[n] for n in position.white_men],
                                 black_kings=[m[n] for n in position.white_kings])


def mirror_bytes(variant: str) -> tuple[tuple[int, ...], ...]:
    """The half turn of ``variant``'s board as byte tables: entry ``k`` maps the value of
    byte ``k`` of a square bitboard (squares ``8k+1`` to ``8k+8``) to the bits of the squares
    those land on, so a bitboard turns round in one lookup a byte (OR of the lookups).

    Example:
        >>> t = mirror_bytes("english")
        >>> len(t), t[0][1] == 1 << 31  # square 1 lands on square 32
        (4, True)
    """
    rules = get_rules(variant)
    got = _MIRROR_BYTES.get(rules.name)
    if got is None:
        m = _MIRRORS.get(rules.name)
        if m is None:
            m = _MIRRORS[rules.name] = _mirror_map(rules)
        squares = len(m)
        got = _MIRROR_BYTES[rules.name] = tuple(
            tuple(_turned_byte(m, k, v, squares) for v in range(256))
            for k in range((squares + 7) // 8))
    return got


def _turned_byte(m: dict[int, int], k: int, value: int, squares: int) -> int:
    out = 0
    for bit in range(8):
        n = 8 * k + bit + 1
        if value >> bit & 1 and n <= squares:
            out |= 1 << (m[n] - 1)
    return out


_MIRROR_BYTES: dict[str, tuple[tuple[int, ...], ...]] = {}


def mirror_bits(bits: BitsKey, variant: str) -> BitsKey:
    """:func:`mirror_position` for a position given as the database keeps it (``(black,
    wm, wk, bm, bk)`` square bitboards, :func:`square_bits`) on the board of ``variant``
    (a lookup a byte: :func:`mirror_bytes`).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> p = Position.initial(get_rules("english")).with_side("W")
        >>> mirror_bits(square_bits(p), "english") == square_bits(mirror_position(p))
        True
    """
    return turn_bits(bits, mirror_bytes(variant))


def turn_bits(bits: BitsKey, tables: tuple[tuple[int, ...], ...]) -> BitsKey:
    """:func:`mirror_bits` by the byte tables of the board (:func:`mirror_bytes`), looked
    up once for a whole game.

    Example:
        >>> turn_bits((False, 1, 0, 0, 0), mirror_bytes("english"))
        (True, 0, 0, 2147483648, 0)
    """
    def turned(x: int) -> int:
        out = 0
        for table in tables:
            if x & 255:
                out |= table[x & 255]
            x >>= 8
        return out

    black, wm, wk, bm, bk = bits
    return (not black, turned(bm), turned(bk), turned(wm), turned(wk))


def _tokens(moves: str) -> tuple[str, ...]:
    """The moves of a line, move numbers (``1.``, ``1...``, ``12.``) dropped."""
    out = []
    for tok in moves.split():
        tok = _MOVE_NUMBER.sub("", tok)
        if tok:
            out.append(tok)
    return tuple(out)


#: a move played from a position: the position after it and the move's canonical notation
_Steps = dict[tuple[Position, str], tuple[Position, str]]


def _replay(rules: Rules, start: Position, line: tuple[str, ...], where: str,
            steps: _Steps | None = None) -> tuple[Position, tuple[str, ...]]:
    """The position after ``line`` from ``start`` and its canonical notation. ``steps``
    keeps every move played, by position and text: a table's lines share their first moves
    (2,500 eleven-man ballots start from 64 positions), and each is then matched once."""
    steps = {} if steps is None else steps
    pos = start
    notation = []
    for k, text in enumerate(line, 1):
        done = steps.get((pos, text))
        if done is None:
            try:
                found = match_move(pos, text)
            except ValueError as exc:
                raise OpeningTableError(f"{where}: move {k} {text!r}: {exc}") from None
            if len(found) != 1:
                why = "is not legal" if not found else f"is ambiguous ({len(found)} moves)"
                raise OpeningTableError(f"{where}: move {k} {text!r} {why} in the position "
                                        f"after {' '.join(line[:k - 1]) or 'the start'}")
            done = steps[(pos, text)] = (pos.play(found[0]), canonical_notation(found[0], pos))
        pos = done[0]
        notation.append(done[1])
    return pos, tuple(notation)


def _read_rows(stream: IO[str], where: str) -> Iterator[tuple[int, dict[str, str]]]:
    """``(row number, row)`` of a table's data rows (row 1 is the header), checked for the
    required columns."""
    reader = csv.DictReader(stream)
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise OpeningTableError(f"{where}: the header lacks the column(s) "
                                f"{', '.join(missing)} (columns: {', '.join(COLUMNS)})")
    unknown = [h for h in header if h not in COLUMNS]
    if unknown:
        raise OpeningTableError(f"{where}: unknown column(s) {', '.join(unknown)} "
                                f"(columns: {', '.join(COLUMNS)})")
    reader.fieldnames = header
    for k, raw in enumerate(reader, 2):
        if None in raw:
            raise OpeningTableError(f"{where} row {k}: more fields than columns")
        yield k, {c: (raw.get(c) or "").strip() for c in COLUMNS}


def read_table(source: str | Path | IO[str], variant: str, *, family: str | None = None,
               kind: str = "name", prefix: str = "", name: str | None = None) -> list[Entry]:
    """The entries of one CSV table for ``variant``, each line replayed to its position.

    ``source`` is a path or an open text stream; ``family`` names the table (default: the
    file's stem); ``kind`` is one of :data:`KINDS`; ``prefix`` goes before every code in
    :attr:`Entry.full_code`; ``name`` is how messages name a stream. Raises :class:`OpeningTableError` (file and row named) for a
    table that cannot be used, ``UnknownVariantError`` for an unknown variant.

    Example:
        >>> import io
        >>> table = io.StringIO("code,moves,source\\nk,cd4 ba5 dc5 d:b4 a:c5,a book\\n")
        >>> e = read_table(table, "russian", family="demo")[0]
        >>> e.notation, e.depth
        (('c3-d4', 'b6-a5', 'd4-c5', 'd6:b4', 'a3:c5'), 5)
    """
    if kind not in KINDS:
        raise ArgumentError(f"kind must be one of {KINDS}, got {kind!r}")
    rules = get_rules(variant)
    if isinstance(source, (str, Path)):
        path = Path(source)
        where = name or str(path)
        try:
            with open(path, encoding="utf-8-sig", newline="") as stream:
                return _entries(stream, rules, where, family or path.stem, kind, prefix)
        except OSError as exc:
            raise OpeningTableError(f"{where}: cannot read the table: {exc}") from None
        except UnicodeDecodeError as exc:
            raise OpeningTableError(f"{where}: not UTF-8 text: {exc}") from None
    where = name or str(getattr(source, "name", None) or "<table>")
    return _entries(source, rules, where, family or "table", kind, prefix)


def _entries(stream: IO[str], rules: Rules, name: str, family: str, kind: str,
             prefix: str) -> list[Entry]:
    """The rows of ``stream`` as entries (see :func:`read_table`)."""
    initial = Position.initial(rules)
    starts: dict[str, Position] = {}
    steps: _Steps = {}
    out: list[Entry] = []
    seen: dict[str, int] = {}
    for k, row in _read_rows(stream, name):
        where = f"{name} row {k}"
        code = row["code"]
        if not code:
            raise OpeningTableError(f"{where}: the code is empty")
        if not row["source"]:
            raise OpeningTableError(f"{where} ({code}): the source is empty; say where the "
                                    "entry comes from")
        if code in seen:
            raise OpeningTableError(f"{where}: code {code!r} repeats row {seen[code]}")
        seen[code] = k
        fen = row["fen"] or None
        line = _tokens(row["moves"])
        flags = tuple(f.strip() for f in row["flags"].split(";") if f.strip())
        if fen is None and not line and "free" not in flags:
            raise OpeningTableError(f"{where} ({code}): neither moves nor a FEN "
                                    "(flag 'free' marks the starting position itself)")
        start = initial
        if fen is not None:
            start = starts.get(fen) or _start(rules, fen, where)
            starts[fen] = start
        pos, notation = _replay(rules, start, line, f"{where} ({code})", steps)
        out.append(Entry(
            family=family, kind=kind, code=code, prefix=prefix, name=row["name"] or None,
            translit=row["translit"] or None, fen=fen, line=line, notation=notation,
            flags=flags,
            source=row["source"], variant=rules.name, start=start, position=pos,
            bits=square_bits(pos), file=name, row=k))
    return out


def _start(rules: Rules, fen: str, where: str) -> Position:
    """The position of an entry's FEN."""
    try:
        return parse_fen(fen, rules)
    except ValueError as exc:
        raise OpeningTableError(f"{where}: FEN {fen!r} does not parse: {exc}") from None
