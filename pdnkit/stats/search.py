"""Finding games by position, pattern, material and manoeuvre (``pdnkit.search``).

Positions are stored as square bitboards (``position_bits``: bit ``n - 1`` of ``wm``, ``wk``,
``bm``, ``bk`` for a white man, white king, black man, black king on square ``n``), so every
search here is a handful of bitwise SQL tests over one table:

* a **pattern** (``"W28,K33:B19:E23"``): ``W``/``B`` lists of pieces that must stand there
  (``K`` before a square: a king, ``*``: a man or a king), an ``E`` list of squares that must
  be empty; ``exclude`` (same form): pieces that must not stand there; ``any`` (same form): at
  least one of the listed pieces;
* an exact position (``fen``), matched by its stored bitboards and side to move;
* **material** (``"2K+1 v 1K"``: White's men and kings, then Black's);
* a **manoeuvre** (``"bK46x02"``: colour ``w``/``b``, piece ``M``/``K``, from, ``-`` quiet or
  ``x`` capture, to; ``?`` anywhere is a wildcard), with the number of pieces it takes, whether
  it promotes, and patterns before and after it.

``mirror`` also finds the colour-reversed search: colours swapped and the board turned (square
``n`` becomes ``N + 1 - n`` on a board of ``N`` squares), side to move swapped.

Example:
    >>> p = parse_pattern("W28,K33:B19:E23")
    >>> sorted(p.white_men), sorted(p.white_kings), sorted(p.black_men), sorted(p.empty)
    ([28], [33], [19], [23])
    >>> sorted(parse_pattern("W28").mirrored(50).black_men)
    [23]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from pdnkit.errors import ArgumentError, PdnkitError
from pdnkit.rows.bitboards import bits_literal
from pdnkit.stats.common import plain_form
from pdnkit.stats.filters import DateBound, GameFilter
from pdnkit.stats.positions import Bits5, bits_match
from pdnkit.stats.searchrun import COLUMNS, SearchPlan, SearchTuning, run_search
from pdnkit.store.posindex import position_source
from pdnkit.store.session import DbLike, reading

if TYPE_CHECKING:  # pragma: no cover
    import duckdb
    import pandas as pd

    from pdnkit.rules import Rules

__all__ = ["COLUMNS", "Manoeuvre", "Material", "Pattern", "SearchCriteria",
           "SearchError", "parse_captures", "parse_manoeuvre", "parse_material",
           "parse_pattern", "search", "search_plan", "search_table", "tuning"]

class SearchError(PdnkitError, ValueError):
    """A search that cannot be run: an unreadable pattern, material or manoeuvre."""


@dataclass(frozen=True)
class Pattern:
    """Sets of squares (PDN numbers): pieces by colour and kind (``white_any``: a man or a
    king), and squares that must be empty.

    Example:
        >>> Pattern(white_men=frozenset({28})).is_empty()
        False
    """

    white_men: frozenset[int] = frozenset()
    white_kings: frozenset[int] = frozenset()
    white_any: frozenset[int] = frozenset()
    black_men: frozenset[int] = frozenset()
    black_kings: frozenset[int] = frozenset()
    black_any: frozenset[int] = frozenset()
    empty: frozenset[int] = frozenset()

    def is_empty(self) -> bool:
        """True when the pattern names no square."""
        return not any((self.white_men, self.white_kings, self.white_any, self.black_men,
                        self.black_kings, self.black_any, self.empty))

    def squares(self) -> frozenset[int]:
        """Every square the pattern names."""
        return (self.white_men | self.white_kings | self.white_any | self.black_men
                | self.black_kings | self.black_any | self.empty)

    def pieces(self) -> frozenset[int]:
        """The squares where the pattern places a piece (every square but the ``E`` ones)."""
        return self.squares() - self.empty

    def on_board(self, n_squares: int) -> Pattern:
        """The pattern without the squares a board of ``n_squares`` does not have.

        Example:
            >>> sorted(parse_pattern("W28,K33:E40").on_board(32).squares())
            [28]
        """
        def keep(s: frozenset[int]) -> frozenset[int]:
            return frozenset(x for x in s if x <= n_squares)

        return Pattern(keep(self.white_men), keep(self.white_kings), keep(self.white_any),
                       keep(self.black_men), keep(self.black_kings), keep(self.black_any),
                       keep(self.empty))

    def mirrored(self, n_squares: int) -> Pattern:
        """Colours swapped and the board turned (square ``n`` -> ``n_squares + 1 - n``).

        Example:
            >>> m = parse_pattern("W28,K33:B19").mirrored(50)
            >>> sorted(m.black_men), sorted(m.black_kings), sorted(m.white_men)
            ([23], [18], [32])
        """
        def t(s: frozenset[int]) -> frozenset[int]:
            return frozenset(n_squares + 1 - n for n in s)

        return Pattern(t(self.black_men), t(self.black_kings), t(self.black_any),
                       t(self.white_men), t(self.white_kings), t(self.white_any), t(self.empty))


_ITEM = re.compile(r"^(K|\*)?([A-Za-z]?\d+)(?:-([A-Za-z]?\d+))?$")


def _square(text: str, rules: Rules | None) -> int:
    if text.isdigit():
        return int(text)
    if rules is None:
        raise SearchError(f"square {text!r}: give square numbers (or --variant for names)")
    from pdnkit.rules.notation import NotationError, parse_square

    try:
        return int(parse_square(rules, text))
    except NotationError as exc:
        raise SearchError(str(exc)) from None


def parse_pattern(text: str, rules: Rules | None = None) -> Pattern:
    """Read a pattern: ``:``-separated fields, each a colour letter (``W``, ``B``) or ``E``
    (empty squares) followed by comma-separated squares; in a colour field ``K`` before a
    square means a king, ``*`` a man or a king, nothing a man; ranges ``31-35`` are allowed.
    Square names (``c3``) are read with ``rules``. Raises :class:`SearchError`.

    Example:
        >>> p = parse_pattern("W*28,31-32:BK5:E1")
        >>> sorted(p.white_any), sorted(p.white_men), sorted(p.black_kings), sorted(p.empty)
        ([28], [31, 32], [5], [1])
        >>> parse_pattern("X1")
        Traceback (most recent call last):
        ...
        pdnkit.stats.search.SearchError: pattern field 'X1': starts with W, B or E
    """
    sets: dict[str, set[int]] = {k: set() for k in ("wm", "wk", "w*", "bm", "bk", "b*", "e")}
    text = (text or "").strip()
    if not text:
        raise SearchError("empty pattern")
    for fld in (f.strip() for f in text.split(":")):
        if not fld:
            continue
        head = fld[0].upper()
        if head not in "WBE":
            raise SearchError(f"pattern field {fld!r}: starts with W, B or E")
        for item in (i.strip() for i in fld[1:].split(",")):
            if not item:
                continue
            m = _ITEM.match(item)
            if m is None:
                raise SearchError(f"pattern item {item!r} in {fld!r}: a square, K or * and a "
                                  "square, or a range like 31-35")
            kind, a, b = m.groups()
            if head == "E" and kind:
                raise SearchError(f"pattern item {item!r}: the E field lists bare squares")
            lo = _square(a, rules)
            hi = _square(b, rules) if b else lo
            if lo < 1 or hi < lo:
                raise SearchError(f"pattern item {item!r}: bad square or range")
            key = "e" if head == "E" else head.lower() + {"K": "k", "*": "*", None: "m"}[kind]
            sets[key].update(range(lo, hi + 1))
    return Pattern(*(frozenset(sets[k]) for k in ("wm", "wk", "w*", "bm", "bk", "b*", "e")))


@dataclass(frozen=True)
class Material:
    """Men and kings of each side (``None``: any number).

    Example:
        >>> parse_material("2K+1 v 1K")
        Material(white_men=1, white_kings=2, black_men=0, black_kings=1)
    """

    white_men: int | None
    white_kings: int | None
    black_men: int | None
    black_kings: int | None

    def mirrored(self) -> Material:
        """Colours swapped."""
        return Material(self.black_men, self.black_kings, self.white_men, self.white_kings)


_TERM = re.compile(r"^(\d*)([KkMm]?)$")


def parse_material(text: str) -> Material:
    """Read material as ``WHITE v BLACK``, each a ``+``-separated list of terms ``nK``
    (kings), ``nM`` or ``n`` (men); ``K`` alone is one king, ``0`` or ``-`` nothing, ``*``
    any number of men and kings.

    Example:
        >>> parse_material("3 v 1K+1")
        Material(white_men=3, white_kings=0, black_men=1, black_kings=1)
        >>> parse_material("* v K")
        Material(white_men=None, white_kings=None, black_men=0, black_kings=1)
    """
    parts = re.split(r"\s*(?:\bvs?\b\.?|/)\s*", (text or "").strip(), flags=re.I)
    if len(parts) != 2 or not all(parts):
        raise SearchError(f"material {text!r}: write White's pieces v Black's, e.g. 2K+1 v 1K")
    counts: list[int | None] = []
    for side in parts:
        side = side.strip()
        if side == "*":
            counts += [None, None]
            continue
        men = kings = 0
        for term in (t.strip() for t in side.split("+")):
            if term in ("0", "-", ""):
                continue
            m = _TERM.match(term)
            if m is None or (not m.group(1) and not m.group(2)):
                raise SearchError(f"material term {term!r}: nK (kings), nM or n (men)")
            n = int(m.group(1)) if m.group(1) else 1
            if m.group(2).upper() == "K":
                kings += n
            else:
                men += n
        counts += [men, kings]
    return Material(*counts)


@dataclass(frozen=True)
class Manoeuvre:
    """A move pattern: ``colour`` (``W``/``B``/``None``), ``piece`` (``man``/``king``/
    ``None``), ``origin``/``destination`` as written (digits, ``?`` wildcards), ``capture``
    (``True``/``False``/``None``).

    Example:
        >>> parse_manoeuvre("bK46x02")
        Manoeuvre(colour='B', piece='king', origin='46', destination='02', capture=True)
    """

    colour: str | None
    piece: str | None
    origin: str
    destination: str
    capture: bool | None

    def squares(self, which: str, n_squares: int) -> list[int] | None:
        """The squares of a board of ``n_squares`` that ``which`` (``origin`` or
        ``destination``) matches (``None``: any).

        Example:
            >>> parse_manoeuvre("w4?-?").squares("origin", 50)
            [40, 41, 42, 43, 44, 45, 46, 47, 48, 49]
        """
        text = getattr(self, which)
        if set(text) <= {"?"}:
            return None
        rx = re.compile(text.replace("?", r"\d"))
        w = len(text)
        return [n for n in range(1, n_squares + 1) if rx.fullmatch(str(n).zfill(w))]


_MANOEUVRE = re.compile(r"^([wb?])([mk?]?)([\d?]+)([-x:?])([\d?]+)$", re.I)


def parse_manoeuvre(text: str) -> Manoeuvre:
    """Read a manoeuvre: colour (``w``, ``b``, ``?``), piece (``M``, ``K``, ``?``, or
    nothing: any), from-square, ``-`` (quiet), ``x`` (capture) or ``?``, to-square; digits
    of the squares may be ``?``.

    Example:
        >>> parse_manoeuvre("w32-28")
        Manoeuvre(colour='W', piece=None, origin='32', destination='28', capture=False)
        >>> parse_manoeuvre("?K??x??").capture
        True
    """
    m = _MANOEUVRE.match((text or "").strip())
    if m is None:
        raise SearchError(f"manoeuvre {text!r}: colour (w/b/?), piece (M/K/?), from, - or x, "
                          "to, e.g. bK46x02 or w32-28")
    colour, piece, orig, sep, dest = m.groups()
    return Manoeuvre(
        None if colour == "?" else colour.upper(),
        {"m": "man", "k": "king"}.get(piece.lower()) if piece else None,
        orig, dest, {"-": False, "x": True, ":": True}.get(sep))


# --------------------------------------------------------------------------------------
# SQL building


def _lit(mask: int) -> str:
    return bits_literal(mask)


def _mask(squares: frozenset[int]) -> int:
    out = 0
    for n in squares:
        out |= 1 << (n - 1)
    return out


def _fields(p: Pattern, a: str) -> list[tuple[str, int]]:
    """(column expression, mask) for each non-empty set of the pattern."""
    cols = [(f"{a}.wm", p.white_men), (f"{a}.wk", p.white_kings),
            (f"({a}.wm | {a}.wk)", p.white_any), (f"{a}.bm", p.black_men),
            (f"{a}.bk", p.black_kings), (f"({a}.bm | {a}.bk)", p.black_any)]
    return [(c, _mask(s)) for c, s in cols if s]


def _occupied(a: str) -> str:
    return f"({a}.wm | {a}.wk | {a}.bm | {a}.bk)"


def pattern_sql(p: Pattern, a: str = "p", mode: str = "must", occupied: str | None = None
                ) -> str:
    """SQL condition on the bitboards of alias ``a``: ``mode`` ``must`` (every listed piece
    there, every ``E`` square empty), ``exclude`` (none of the listed pieces there, no ``E``
    square empty) or ``any`` (at least one listed piece there or ``E`` square empty);
    ``occupied``: the SQL of the occupied squares (default: the four bitboards OR-ed).

    Example:
        >>> pattern_sql(parse_pattern("W28:E23"))
        '(p.wm & 134217728::UBIGINT) = 134217728::UBIGINT AND (p.wm | p.wk | p.bm | p.bk) & 4194304::UBIGINT = 0'
    """
    parts: list[str] = []
    e = _mask(p.empty)
    occ = occupied or _occupied(a)
    if mode == "must":
        parts = [f"({c} & {_lit(m)}) = {_lit(m)}" for c, m in _fields(p, a)]
        if e:
            parts.append(f"{occ} & {_lit(e)} = 0")
        return " AND ".join(parts) or "TRUE"
    if mode == "exclude":
        parts = [f"({c} & {_lit(m)}) = 0" for c, m in _fields(p, a)]
        if e:
            parts.append(f"({occ} & {_lit(e)}) = {_lit(e)}")
        return " AND ".join(parts) or "TRUE"
    if mode == "any":
        parts = [f"({c} & {_lit(m)}) <> 0" for c, m in _fields(p, a)]
        if e:
            parts.append(f"({occ} & {_lit(e)}) <> {_lit(e)}")
        return "(" + (" OR ".join(parts) or "FALSE") + ")"
    raise ArgumentError(f"mode must be must, exclude or any, not {mode!r}")


def material_sql(m: Material, a: str = "p") -> str:
    """SQL condition on the piece counts of alias ``a``.

    Example:
        >>> material_sql(parse_material("1 v K"))
        'bit_count(p.wm) = 1 AND bit_count(p.wk) = 0 AND bit_count(p.bm) = 0 AND bit_count(p.bk) = 1'
    """
    parts = [f"bit_count({a}.{c}) = {int(n)}"
             for c, n in zip(("wm", "wk", "bm", "bk"), (m.white_men, m.white_kings, m.black_men,
                                                         m.black_kings), strict=True)
             if n is not None]
    return " AND ".join(parts) or "TRUE"


def _side_sql(side: str, a: str) -> str:
    return {"white": f"NOT {a}.black", "black": f"{a}.black", "any": "TRUE"}[side]


def _other(side: str) -> str:
    return {"white": "black", "black": "white", "any": "any"}[side]


@dataclass
class _Query:
    """The conditions of one search, for one orientation (as given, or mirrored)."""

    pattern: Pattern | None = None
    exclude: Pattern | None = None
    any_of: Pattern | None = None
    material: Material | None = None
    side: str = "any"
    manoeuvre: Manoeuvre | None = None
    before: Pattern | None = None
    after: Pattern | None = None
    #: exact positions (``--fen``): ``(black, wm, wk, bm, bk)``
    exact: list[Bits5] = field(default_factory=list)

    def on_board(self, n: int) -> _Query | None:
        """This search on a board of ``n`` squares, where a square past the board is one no
        piece stands on (``None``: nothing on that board can match). A pattern that places
        a piece there cannot match; an ``E`` square there is empty, an excluded piece
        absent; ``exclude`` that wants such a square occupied cannot match, ``any_of``
        with such an ``E`` square always does."""
        def off(squares: frozenset[int]) -> bool:
            return any(s > n for s in squares)

        musts = [p for p in (self.pattern, self.before, self.after) if p is not None]
        if any(off(p.pieces()) for p in musts) or (
                self.exclude is not None and off(self.exclude.empty)):
            return None
        any_of = self.any_of
        if any_of is not None:
            if off(any_of.empty):
                any_of = None  # one of its squares is always empty: always met
            else:
                any_of = any_of.on_board(n)
                if any_of.is_empty():
                    return None

        def fit(p: Pattern | None) -> Pattern | None:
            return None if p is None else p.on_board(n)

        return replace(self, pattern=fit(self.pattern), exclude=fit(self.exclude),
                       any_of=any_of, before=fit(self.before), after=fit(self.after))

    def mirrored(self, n: int) -> _Query:
        def mp(x: Pattern | None) -> Pattern | None:
            return None if x is None else x.mirrored(n)

        man = self.manoeuvre
        if man is not None:
            man = replace(man, colour={"W": "B", "B": "W"}.get(man.colour or ""))
        return _Query(mp(self.pattern), mp(self.exclude), mp(self.any_of),
                      None if self.material is None else self.material.mirrored(),
                      _other(self.side), man, mp(self.before), mp(self.after), [])

    def game_sql(self, a: str) -> str | None:
        """A condition on the squares of a game or of a stretch of its plies with a king
        (``game_squares``, ``game_stretches``: alias ``a``) that every game or stretch with a
        position of this search meets (a piece listed must have stood there once, an ``E``
        square been empty once), or ``None`` when the search lists no piece
        or square to test there."""
        occ = f"{a}.occ"
        parts = [pattern_sql(p, a, mode, occ) for p, mode in (
            (self.pattern, "must"), (self.any_of, "any")) if p is not None]
        parts = [p for p in parts if p != "TRUE"]
        return " AND ".join(parts) if parts else None

    def king_sql(self, a: str) -> tuple[str, str] | None:
        """The pattern's kings of one colour as ``(column, condition)``: one column's test
        that a scan can apply before it reads the others (``None``: the pattern lists no
        king)."""
        p = self.pattern
        if p is None:
            return None
        col, squares = max((("wk", p.white_kings), ("bk", p.black_kings)),
                           key=lambda x: len(x[1]))
        if not squares:
            return None
        m = _lit(_mask(squares))
        return col, f"({a}.{col} & {m}) = {m}"

    def position_sql(self, a: str) -> str:
        parts = [_side_sql(self.side, a)]
        if self.pattern is not None:
            parts.append(pattern_sql(self.pattern, a))
        if self.exclude is not None:
            parts.append(pattern_sql(self.exclude, a, "exclude"))
        if self.any_of is not None:
            parts.append(pattern_sql(self.any_of, a, "any"))
        if self.material is not None:
            parts.append(material_sql(self.material, a))
        return " AND ".join(p for p in parts if p != "TRUE") or "TRUE"


def parse_captures(value: int | str | None) -> tuple[int | None, int | None]:
    """``(pieces, kings)`` a capture must take: ``2`` (two pieces), ``"1+1K"`` (a man and a
    king), ``"2K"`` (two kings); ``None`` where not said.

    Example:
        >>> parse_captures(3), parse_captures("1+1K"), parse_captures("2K")
        ((3, None), (2, 1), (2, 2))
    """
    if value is None:
        return None, None
    if isinstance(value, int) or str(value).strip().isdigit():
        return int(value), None
    men = kings = 0
    for term in str(value).replace(" ", "").split("+"):
        m = _TERM.match(term)
        if m is None or (not m.group(1) and not m.group(2)):
            raise SearchError(f"captures {value!r}: a number, or terms like 1+1K")
        k = int(m.group(1)) if m.group(1) else 1
        if m.group(2).upper() == "K":
            kings += k
        else:
            men += k
    return men + kings, kings


def _manoeuvre_sql(q: _Query, n: int, mirror: bool, captures: int | str | None,
                   promotes: bool | None, moves_only: bool = False) -> str:
    """Conditions on move ``m`` (and, unless ``moves_only``, on the positions ``p`` before
    and ``pa`` after it) on a board of ``n`` squares."""
    man = q.manoeuvre
    parts: list[str] = []
    if man is not None:
        if man.colour:
            parts.append(f"m.side = '{man.colour}'")
        if man.piece:
            parts.append(f"m.piece = '{man.piece}'")
        for col, which in (("m.origin", "origin"), ("m.destination", "destination")):
            sq = man.squares(which, n)
            if sq is not None:
                if mirror:
                    sq = [n + 1 - s for s in sq]
                parts.append(f"{col} IN ({', '.join(map(str, sq))})" if sq else "FALSE")
        if man.capture is not None:
            parts.append("m.is_capture" if man.capture else "NOT m.is_capture")
    total, kings = parse_captures(captures)
    if total is not None:
        parts.append(f"m.captured_count = {total}")
    if promotes is not None:
        parts.append("m.promotes" if promotes else "NOT m.promotes")
    if moves_only:
        return " AND ".join(parts) or "TRUE"
    if kings is not None:  # kings among the captured pieces: the opponent's, before the move
        parts.append("len(list_filter(m.captured, lambda s: ((CASE WHEN m.side = 'W' THEN "
                     f"p.bk ELSE p.wk END) >> (s - 1)) & 1 = 1)) = {kings}")
    if q.before is not None:
        parts.append(pattern_sql(q.before, "p"))
    if q.after is not None:
        parts.append(pattern_sql(q.after, "pa"))
    return " AND ".join(parts) or "TRUE"


# --------------------------------------------------------------------------------------
# running a search


def _check_db(con: duckdb.DuckDBPyConnection) -> None:
    kind = con.execute("SELECT table_type FROM information_schema.tables "
                       "WHERE table_name = 'positions'").fetchall()
    if kind and kind[0][0] == "BASE TABLE":
        raise SearchError("this database stores positions as FEN text (made by an older "
                          "pdnkit): import its files into a new database to search it")


def _boards(con: duckdb.DuckDBPyConnection) -> dict[int, list[int]]:
    """Board size (squares) -> the layout numbers of that size in the database."""
    out: dict[int, list[int]] = {}
    for lay, n in con.execute("SELECT layout, squares FROM layouts ORDER BY 1").fetchall():
        out.setdefault(int(n), []).append(int(lay))
    return out


def _fen_positions(con: duckdb.DuckDBPyConnection, fen: str, variant: str | None,
                   side: str | None, mirror: bool) -> list[Bits5]:
    """The stored form (``(black, wm, wk, bm, bk)``) of ``fen`` (its own side to move, or as
    ``side`` says; with ``mirror`` also the mirrored position, other side to move) in every
    variant of the database that reads it (or ``variant``)."""
    from pdnkit.rows.bitboards import square_bits
    from pdnkit.rules import Position, get_rules, parse_fen

    variants = [variant] if variant else [r[0] for r in con.execute(
        "SELECT DISTINCT variant FROM games WHERE variant IS NOT NULL").fetchall()]
    keys: set[Bits5] = set()
    for v in variants:
        try:
            rules = get_rules(v)
            pos = parse_fen(fen, rules)
        except Exception:  # not a position of this variant
            continue
        own = {"white": ["W"], "black": ["B"], "any": ["W", "B"]}.get(side or "",
                                                                    [str(pos.side)])
        cands = [(pos, own)]
        if mirror:
            n = rules.geometry.num_squares
            t = [frozenset(n + 1 - s for s in x) for x in (
                pos.white_men, pos.white_kings, pos.black_men, pos.black_kings)]
            cands.append((Position.from_squares(rules, "W", t[2], t[3], t[0], t[1]),
                          ["B" if s == "W" else "W" for s in own]))
        for c, sides in cands:
            for s in sides:
                keys.add((s == "B", *square_bits(c)))
    if not keys:
        raise SearchError(f"FEN {fen!r} is no position of "
                          + (variant or "any variant in the database"))
    return sorted(keys)


def search(
    db: DbLike = None,
    *,
    fen: str | None = None,
    pattern: str | None = None,
    exclude: str | None = None,
    any_of: str | None = None,
    side: str | None = None,
    mirror: bool = False,
    material: str | None = None,
    manoeuvre: str | None = None,
    captures: int | str | None = None,
    promotes: bool | None = None,
    before: str | None = None,
    after: str | None = None,
    first: bool = False,
    limit: int | None = None,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    filter: GameFilter | None = None,
) -> pd.DataFrame:
    """Games in the database by position, pattern, material or manoeuvre, one row per hit.

    Position searches (``fen``, ``pattern``/``exclude``/``any_of``, ``material``, with
    ``side`` ``white``/``black``/``any`` to move: default the FEN's own side, any side for
    the others) give one row per matching position
    (``ply``: the position after that many half-moves, ``move``: the move played from it).
    A manoeuvre search (``manoeuvre``, ``captures``: pieces taken, ``3`` or ``"2+1K"`` with
    the kings among them, ``promotes``, ``before``/``after``
    patterns of the positions around the move; position conditions apply to the position
    before the move) gives one row per matching move (``ply``: the position it was played
    from). ``mirror`` adds the colour-reversed search; ``first`` keeps the first hit of each
    game; ``limit`` the first rows (by game and ply); ``variant``/``event``/``player``/
    ``date_from``/``date_to`` filter the games as in :mod:`pdnkit.stats`.

    Columns: ``game_id``, ``ply``, ``side`` (to move), ``variant``, ``white``, ``black``,
    ``event``, ``date``, ``result``, ``move``, ``fen``.

    Example:
        >>> from pdnkit.store import connect
        >>> search(connect(":memory:"), pattern="W28:B19").empty
        True
    """
    criteria = SearchCriteria(
        fen=fen, pattern=pattern, exclude=exclude, any_of=any_of, side=side, mirror=mirror,
        material=material, manoeuvre=manoeuvre, captures=captures, promotes=promotes,
        before=before, after=after, first=first, limit=limit,
        filter=GameFilter.of(filter, variant=variant, event=event, player=player,
                             date_from=date_from, date_to=date_to))
    with reading(db) as con:
        plan = search_plan(con, criteria)
        if plan is None:
            from pdnkit.stats.common import table_of

            return table_of([], COLUMNS)
        return run_search(con, plan, tuning())


@dataclass(frozen=True)
class SearchCriteria:
    """What :func:`search` is asked (its arguments; ``filter``: the games' filter, every
    filter argument in it)."""

    fen: str | None = None
    pattern: str | None = None
    exclude: str | None = None
    any_of: str | None = None
    side: str | None = None
    mirror: bool = False
    material: str | None = None
    manoeuvre: str | None = None
    captures: int | str | None = None
    promotes: bool | None = None
    before: str | None = None
    after: str | None = None
    first: bool = False
    limit: int | None = None
    filter: GameFilter = field(default_factory=GameFilter)


def search_plan(con: duckdb.DuckDBPyConnection, criteria: SearchCriteria
                ) -> SearchPlan | None:
    """The search ``criteria`` ask as SQL on the database of ``con``
    (:class:`pdnkit.stats.searchrun.SearchPlan`), or ``None`` where no board of the
    database can hold it (no row). An unreadable criterion raises :class:`SearchError`.

    Example:
        >>> from pdnkit.store import connect
        >>> search_plan(connect(":memory:"), SearchCriteria(pattern="W28")) is None
        True
    """
    c = criteria
    fen, side, mirror, captures, promotes = c.fen, c.side, c.mirror, c.captures, c.promotes
    if side not in (None, "white", "black", "any"):
        raise SearchError(f"side must be white, black or any, not {side!r}")
    gf = c.filter
    rules = None
    if gf.variant:
        from pdnkit.rules import get_rules

        rules = get_rules(gf.variant)
    pattern, exclude, any_of, before, after = c.pattern, c.exclude, c.any_of, c.before, c.after
    q = _Query(
        pattern=parse_pattern(pattern, rules) if pattern else None,
        exclude=parse_pattern(exclude, rules) if exclude else None,
        any_of=parse_pattern(any_of, rules) if any_of else None,
        material=parse_material(c.material) if c.material else None,
        side="any" if fen else (side or "any"),
        manoeuvre=parse_manoeuvre(c.manoeuvre) if c.manoeuvre else None,
        before=parse_pattern(before, rules) if before else None,
        after=parse_pattern(after, rules) if after else None)
    moving = (q.manoeuvre is not None or captures is not None or promotes is not None
              or q.before is not None or q.after is not None)
    if not (fen or moving or q.pattern or q.exclude or q.any_of or q.material):
        raise SearchError("nothing to search for: give a FEN, a pattern, material or a "
                          "manoeuvre")
    _check_db(con)
    if fen:
        q.exact = _fen_positions(con, fen, gf.variant, side, mirror)
    branches, move_branches, game_branches = [], [], []
    kings: list[tuple[str, str] | None] = []
    for n, lays in sorted(_boards(con).items()):
        fitted = q.on_board(n)  # squares past a smaller board (33 on English's 32)
        if fitted is None:
            continue
        for flip in ([False, True] if mirror else [False]):
            qq = fitted.mirrored(n) if flip else fitted
            layouts = ", ".join(map(str, lays))
            cond = [f"p.layout IN ({layouts})", qq.position_sql("p")]
            game_branches.append(f"(s.layout IN ({layouts}) AND "
                                 f"{qq.game_sql('s') or 'TRUE'})")
            kings.append(qq.king_sql("p"))
            if q.exact:
                cond.append(bits_match(q.exact, "p"))
            if moving:
                cond.append(_manoeuvre_sql(qq, n, flip, captures, promotes))
                move_branches.append(_manoeuvre_sql(qq, n, flip, captures, promotes, True))
            branches.append("(" + " AND ".join(c for c in cond if c != "TRUE") + ")")
    if not branches:
        return None
    where, params = gf.sql(con=con)
    # an exact position: the first plies and the blocks of games the index names
    source = position_source(con, q.exact) if q.exact and not moving else None
    # a pattern: the positions of the games whose squares can hold it
    narrow = (not moving and not q.exact and (q.pattern or q.any_of) is not None)
    tests = [k for k in kings if k is not None]
    one_column = bool(tests) and len(tests) == len(kings) and len(
        {col for col, _ in tests}) == 1
    return SearchPlan(
        " OR ".join(branches), move_branches, q.after is not None, where, params, c.first,
        c.limit, source, " OR ".join(game_branches) if narrow and source is None else None,
        " OR ".join(t for _, t in tests) if one_column else None,
        bool(tests) and len(tests) == len(kings))


#: :func:`search` as a :class:`pdnkit._cells.PlainTable`, without pandas (the quick forms'):
#: ``search_table(connect(":memory:"), pattern="W21").columns == COLUMNS``
search_table = plain_form(search, "search_table")


#: a pattern with kings tests the kings' column alone first (``False``: every position's
#: bitboards together, as a scan)
KINGS_FIRST = True
#: the share of the games past which a pattern reads every position rather than those of
#: the games whose squares can hold it (reading a game's positions by its number costs
#: more per row than the scan; below 0: never)
NARROW_SHARE = 0.05


#: with a ``limit``, the first span of game numbers read (then spans each
#: :data:`~pdnkit.stats.searchrun.SPAN_GROWTH` times longer; 0: every position at once)
LIMIT_SPAN = 4096


def tuning() -> SearchTuning:
    """How :func:`search` reads (:data:`NARROW_SHARE`, :data:`KINGS_FIRST`,
    :data:`LIMIT_SPAN`, read when a search runs).

    Example:
        >>> tuning().span == LIMIT_SPAN
        True
    """
    return SearchTuning(NARROW_SHARE, KINGS_FIRST, LIMIT_SPAN)
