"""Reading and writing FEN position strings (PDN 3.0 section 10, RULES.md 1.4).

Reading is liberal: numeric ranges (``W31-50``), ``K`` before a square or a range,
empty colour fields (``W:W:B1,2``), a trailing dot, ``?`` as side to move, colour
fields in either order, unsorted squares, leading zeros, spaces, coordinates
(``W:Wa1,c1,Kd4:Bb8``) and numbers for every 8x8/10x10 variant, lidraughts'
``:H<n>`` (half-move clock) and ``:F<n>`` (full-move number) fields, its Frisian
king-move counters ``:+<n><sq>+<n><sq>`` and ghost pieces (``G``/``P``, dropped),
and PDN 2.0 English FENs. What cannot be a position raises :class:`FenError` with a
message naming the problem: a square off the board, a square listed twice, a man on
the row where it would have been crowned.

Writing follows PDN 3.0: no ranges, no trailing dot, squares in the variant's own
notation.

Example:
    >>> from pdnkit.rules import get_rules
    >>> pos = parse_fen("W:W31-50:B1-20.", get_rules("international"))
    >>> len(pos.white_men), len(pos.black_men)
    (20, 20)
    >>> write_fen(parse_fen("B:WK10,15,18:B12,16,20", get_rules("english")))
    'B:WK10,15,18:B12,16,20'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pdnkit._lazy import lazy_pattern
from pdnkit.errors import PdnkitError
from pdnkit.rules.notation import NotationError, parse_square, square_tables

if TYPE_CHECKING:  # pragma: no cover
    from pdnkit.rules.position import Position
    from pdnkit.rules.variants import Color, Rules

__all__ = ["FenError", "FenInfo", "fen_squares", "parse_fen", "parse_fen_info", "split_fen",
           "write_fen", "write_fen_bits"]


class FenError(PdnkitError, ValueError):
    """A FEN string that is malformed or describes an impossible position."""


@dataclass(frozen=True)
class FenInfo:
    """Everything a FEN string says, beyond the position itself.

    ``side_known`` is False when the side to move was ``?`` (the position then has the
    variant's first mover to move; callers should warn). ``halfmove`` and ``fullmove``
    come from lidraughts' ``:H<n>`` and ``:F<n>`` fields (None when absent).
    ``frisian_counters`` is ``((white_square, n), (black_square, n))`` (the form of
    :attr:`Position.king_moves`: the king of each side that made ``n`` consecutive
    non-capturing moves, square 0 for none) from lidraughts' ``:+<n><sq>+<n><sq>``
    field, where black is written first; None when the field is absent.
    """

    position: Position
    side_known: bool = True
    halfmove: int | None = None
    fullmove: int | None = None
    frisian_counters: tuple[tuple[int, int], tuple[int, int]] | None = None


@dataclass(frozen=True)
class RawFen:
    """A FEN string split into its parts, squares still as written (see :func:`split_fen`)."""

    side: str  # "W", "B" or "?"
    white: tuple[tuple[str, bool], ...]  # (square text, is_king)
    black: tuple[tuple[str, bool], ...]
    halfmove: int | None
    fullmove: int | None
    counters: tuple[tuple[int, int], tuple[int, int]] | None  # ((white_sq, n), (black_sq, n))


_RANGE_RE = lazy_pattern(r"([0-9]+)-([0-9]+)")
_NUM_RE = lazy_pattern(r"[0-9]+")
_ALPHA_RE = lazy_pattern(r"[a-zA-Z][0-9]{1,2}")
_COUNTER_RE = lazy_pattern(r"\+([0-9])([0-9]*)\+([0-9])([0-9]*)")


def split_fen(text: str) -> RawFen:
    """Split FEN text into side, square tokens and extra fields, without a variant.

    Ranges are expanded here (``31-33`` -> ``31``, ``32``, ``33``). Raises
    :class:`FenError` for malformed text.

    Example:
        >>> raw = split_fen("B:W18,K10-11:B12:H3:F20")
        >>> raw.side, raw.white, raw.halfmove, raw.fullmove
        ('B', (('18', False), ('10', True), ('11', True)), 3, 20)
    """
    if not isinstance(text, str):
        raise TypeError(f"FEN must be a string, not {type(text).__name__}")
    s = text.strip()
    if len(s) >= 2 and s[0] == s[-1] == '"':
        s = s[1:-1].strip()
    if s.endswith("."):
        s = s[:-1].rstrip()
    if not s:
        raise FenError("empty FEN")
    fields: list[tuple[int, str]] = []
    pos = 0
    for part in s.split(":"):
        lead = len(part) - len(part.lstrip())
        fields.append((pos + lead, part.strip()))
        pos += len(part) + 1
    at, side = fields[0]
    if len(side) > 1 and side[0].upper() in "WB":
        raise FenError(
            f"the side to move is missing at position {at}: a FEN starts with W:, B: or ?:"
        )
    if len(side) != 1 or side.upper() not in "WB?":
        raise FenError(
            f"bad colour {side[:1]!r} at position {at}: a FEN starts with the side to move "
            "(W, B or ?)"
        )
    side = side.upper()
    rest = fields[1:]
    if (
        len(rest) >= 2
        and rest[0][1].upper() in ("W", "B")
        and any(f[:1].upper() == rest[0][1].upper() and len(f) > 1 for _, f in rest[1:])
    ):
        # py-draughts' legacy "W:B:W...:B..." form: the bare second token is the real side
        # to move (a colour field may not appear twice in PDN 3.0, so nothing else is lost)
        side = rest[0][1].upper()
        rest = rest[1:]
    pieces: dict[str, list[tuple[str, bool]]] = {"W": [], "B": []}
    halfmove: int | None = None
    fullmove: int | None = None
    counters = None
    for at, field in rest:
        if not field:
            continue
        head = field[0]
        if head in "WBwb" and not (head in "wb" and _ALPHA_RE.fullmatch(field)):
            _squares(field[1:], at + 1, pieces[head.upper()])
        elif head in "HF" and field[1:].isdigit():
            if head == "H":
                halfmove = int(field[1:])
            else:
                fullmove = int(field[1:])
        elif head == "+":
            m = _COUNTER_RE.fullmatch(field.replace(" ", ""))
            if m is None:
                raise FenError(f"bad king-move counter field {field!r} at position {at}")
            b_count, b_sq, w_count, w_sq = m.groups()
            counters = (
                (int(w_sq or 0), int(w_count)),
                (int(b_sq or 0), int(b_count)),
            )
        else:
            raise FenError(f"bad colour {head!r} at position {at}")
    return RawFen(
        side=side,
        white=tuple(pieces["W"]),
        black=tuple(pieces["B"]),
        halfmove=halfmove,
        fullmove=fullmove,
        counters=counters,
    )


#: digits of the largest square number a FEN may name (the largest board has 72 squares;
#: leading zeros allowed): longer numbers are refused before any conversion or expansion
_SQUARE_DIGITS = 3


def _shown(tok: str) -> str:
    return repr(tok if len(tok) <= 20 else tok[:17] + "...")


def _squares(body: str, at: int, out: list[tuple[str, bool]]) -> None:
    offset = at
    for raw in body.split(","):
        tok = raw.strip()
        here = offset + len(raw) - len(raw.lstrip())
        offset += len(raw) + 1
        if not tok:
            continue
        king = False
        if tok[0] in "GP" and len(tok) > 1:
            continue  # lidraughts ghost piece: already captured mid-sequence, gone at rest
        if tok[0] == "K" and len(tok) > 1:
            king = True
            tok = tok[1:].strip()
        m = _RANGE_RE.fullmatch(tok.replace(" ", ""))
        if m:
            # bounds first: a range is expanded only when both ends can be squares of a board
            if max(len(m.group(1)), len(m.group(2))) > _SQUARE_DIGITS:
                raise FenError(f"square range {_shown(tok)} at position {here} is off any board")
            lo, hi = int(m.group(1)), int(m.group(2))
            if lo > hi:
                raise FenError(f"bad square range {tok!r} at position {here}")
            out.extend((str(n), king) for n in range(lo, hi + 1))
        elif _NUM_RE.fullmatch(tok):
            if len(tok) > _SQUARE_DIGITS:
                raise FenError(f"square {_shown(tok)} at position {here} is off any board")
            out.append((tok, king))
        elif _ALPHA_RE.fullmatch(tok):
            out.append((tok, king))
        else:
            raise FenError(f"bad square {tok!r} at position {here}")


def parse_fen_info(text: str, rules: Rules) -> FenInfo:
    """Read a FEN string for a variant, with side-to-move knowledge and extra fields.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> info = parse_fen_info("?:W29,13,11:B22,4,2", get_rules("english"))
        >>> info.side_known, str(info.position.side)
        (False, 'B')
        >>> parse_fen_info("W:W31-50:B1-20:H0:F1", get_rules("international")).fullmove
        1
    """
    from pdnkit.rules.position import Position
    from pdnkit.rules.variants import Color

    raw = split_fen(text)
    t = square_tables(rules)
    seen: dict[int, str] = {}
    sets: dict[tuple[str, bool], set[int]] = {
        ("W", False): set(),
        ("W", True): set(),
        ("B", False): set(),
        ("B", True): set(),
    }
    for colour, tokens in (("W", raw.white), ("B", raw.black)):
        for tok, king in tokens:
            try:
                n = parse_square(rules, tok)
            except NotationError as exc:
                raise FenError(str(exc)) from None
            if n in seen:
                raise FenError(f"square {t.names[n]} is listed twice")
            seen[n] = colour
            sets[(colour, king)].add(n)
    geo = rules.geometry
    for colour, color in (("W", Color.WHITE), ("B", Color.BLACK)):
        crown = set(geo.promotion_squares(color))
        bad = sorted(sets[(colour, False)] & crown)
        if bad:
            who = "white" if colour == "W" else "black"
            raise FenError(
                f"{who} man on {t.names[bad[0]]} stands on its promotion row (it would be a king)"
            )
    side_known = raw.side != "?"
    side: Color = rules.first_mover if not side_known else (
        Color.WHITE if raw.side == "W" else Color.BLACK
    )
    counters = raw.counters
    if counters is not None:
        for sq, _count in counters:
            if sq and not 1 <= sq <= t.num_squares:
                raise FenError(f"square {sq} is off the {t.width}x{t.height} board")
    try:
        position = Position.from_squares(
            rules,
            side,
            white_men=sorted(sets[("W", False)]),
            white_kings=sorted(sets[("W", True)]),
            black_men=sorted(sets[("B", False)]),
            black_kings=sorted(sets[("B", True)]),
            king_moves=counters,
        )
    except ValueError as exc:  # pragma: no cover - every check above comes first
        raise FenError(str(exc)) from None
    return FenInfo(
        position=position,
        side_known=side_known,
        halfmove=raw.halfmove,
        fullmove=raw.fullmove,
        frisian_counters=counters,
    )


def parse_fen(text: str, rules: Rules) -> Position:
    """Read a FEN string into a :class:`~pdnkit.rules.position.Position` of ``rules``.

    Raises :class:`FenError` naming what is wrong for malformed or impossible FENs.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> pos = parse_fen("W:Wa1,c1,Kd4:Bb8", get_rules("russian"))
        >>> sorted(pos.white_men), sorted(pos.white_kings), sorted(pos.black_men)
        ([29, 30], [18], [1])
        >>> parse_fen("W:W51:B1", get_rules("international"))
        Traceback (most recent call last):
        ...
        pdnkit.rules.fen.FenError: square 51 is off the 10x10 board
    """
    return parse_fen_info(text, rules).position


def write_fen(position: Position) -> str:
    """The PDN 3.0 FEN of ``position``: no ranges, no trailing dot, variant's notation.

    Squares are listed in board order (by number, or by file then rank for coordinates)
    with ``K`` before kings.

    Example:
        >>> from pdnkit.rules import get_rules, Position
        >>> write_fen(Position.initial(get_rules("russian")))[:30]
        'W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,'
    """
    from pdnkit.rules.position import Position

    if not isinstance(position, Position):  # a position-like object: its square sets
        return _write_fen_sets(position)
    w, b, k = position.engine_bits
    if type(w) is not int or type(b) is not int or type(k) is not int:  # (numpy integers)
        return _write_fen_sets(position)
    groups = _fen_groups(position.rules)
    return ":".join((str(position.side), "W" + _fen_field(groups, w & ~k, w & k),
                     "B" + _fen_field(groups, b & ~k, b & k)))


def write_fen_bits(rules: Rules, black: bool, wm: int, wk: int, bm: int, bk: int) -> str:
    """:func:`write_fen` of a position given as square bitboards (bit ``n - 1`` for square
    ``n``: men and kings of each side), without a :class:`Position`.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> write_fen_bits(get_rules("international"), False, 1 << 27, 0, 0, 1 << 18)
        'W:W28:BK19'
    """
    groups = _square_groups(rules)
    return ":".join(("B" if black else "W", "W" + _fen_field(groups, wm, wk),
                     "B" + _fen_field(groups, bm, bk)))


def fen_squares(rules: Rules) -> bytes:
    """The squares of ``rules``' board in the order :func:`write_fen_bits` writes them, as
    the compiled core's FEN writer reads them: for each, its square index (square ``n`` is
    ``n - 1``), the length of its name and the name in ASCII.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> fen_squares(get_rules("international"))[:6]
        b'\\x00\\x011\\x01\\x012'
    """
    out = bytearray()
    for g in _square_groups(rules):
        for bit, name in g.squares:
            raw = name.encode("ascii")
            out += bytes((bit, len(raw))) + raw
    return bytes(out)


_SQUARE_GROUPS: dict[int, tuple[Rules, tuple[_FenGroup, ...]]] = {}


def _square_groups(rules: Rules) -> tuple[_FenGroup, ...]:
    """:func:`_fen_groups` over square bits (bit ``n - 1`` for square ``n``)."""
    entry = _SQUARE_GROUPS.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    t = square_tables(rules)
    order = list(range(1, t.num_squares + 1))
    if t.alphanumeric:
        order.sort(key=lambda n: t.coords[n])
    bits = [(n - 1, t.names[n]) for n in order]
    groups = tuple(_FenGroup(bits[i:i + _GROUP], t.num_squares)
                   for i in range(0, len(bits), _GROUP))
    _SQUARE_GROUPS[id(rules)] = (rules, groups)
    return groups


#: squares per group of :func:`_fen_groups` (3**7 = 2187 contents at most per group)
_GROUP = 7
_GROUP_CACHE: dict[int, tuple[Rules, tuple[_FenGroup, ...]]] = {}


class _FenGroup:
    """A run of consecutive squares in board order, with the FEN text of each content seen
    (memoised: men and kings bits of the group -> ``"31,K32,33"``)."""

    __slots__ = ("mask", "shift", "squares", "memo")

    def __init__(self, squares: list[tuple[int, str]], shift: int) -> None:
        self.squares = tuple(squares)  # (bit, name) in board order
        self.mask = 0
        for bit, _ in squares:
            self.mask |= 1 << bit
        self.shift = shift
        self.memo: dict[int, str] = {}

    def text(self, men: int, kings: int) -> str:
        return ",".join(("K" if kings >> bit & 1 else "") + name
                        for bit, name in self.squares if (men | kings) >> bit & 1)


def _fen_groups(rules: Rules) -> tuple[_FenGroup, ...]:
    """The squares of ``rules``' board in FEN order, cut into groups of ``_GROUP``."""
    entry = _GROUP_CACHE.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    t = square_tables(rules)
    geo = rules.geometry
    order = list(range(1, t.num_squares + 1))
    if t.alphanumeric:
        order.sort(key=lambda n: t.coords[n])
    bits = [(int(geo.bit_of[n]), t.names[n]) for n in order]
    shift = max(bit for bit, _ in bits) + 1
    groups = tuple(_FenGroup(bits[i:i + _GROUP], shift) for i in range(0, len(bits), _GROUP))
    _GROUP_CACHE[id(rules)] = (rules, groups)
    return groups


class FenLayout:
    """How :func:`write_fen` lays out a board of at most 64 engine bits, as data the
    database loader turns into SQL (``pdnkit.rows.batch``): ``order`` lists the engine bit of
    every square in FEN order, ``names`` the square name of every bit (``None`` for bits
    that are no square). Equal layouts compare equal (every variant on the same board with
    the same notation shares one).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> lay = fen_layout(get_rules("russian"))
        >>> [lay.names[b] for b in lay.order[:3]]
        ['a1', 'a3', 'a5']
        >>> fen_layout(get_rules("russian")) == fen_layout(get_rules("czech"))
        True
    """

    __slots__ = ("order", "names", "_hash")

    def __init__(self, order: tuple[int, ...], names: tuple[str | None, ...]) -> None:
        self.order = order
        self.names = names
        self._hash = hash((order, names))

    def __eq__(self, other: object) -> bool:
        return (self is other or isinstance(other, FenLayout) and self._hash == other._hash
                and self.order == other.order and self.names == other.names)

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[FenLayout], tuple[tuple[int, ...], tuple[str | None, ...]]]:
        return FenLayout, (self.order, self.names)


_LAYOUT_CACHE: dict[int, tuple[Rules, FenLayout | None]] = {}


def fen_layout(rules: Rules) -> FenLayout | None:
    """The :class:`FenLayout` of ``rules``' board, or ``None`` when its engine bitboards
    need more than 64 bits (12x12 boards).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> fen_layout(get_rules("international")).order[:3]
        (0, 1, 2)
        >>> fen_layout(get_rules("canadian")) is None
        True
    """
    entry = _LAYOUT_CACHE.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    bits = [(bit, name) for g in _fen_groups(rules) for bit, name in g.squares]
    layout: FenLayout | None = None
    if max(bit for bit, _ in bits) < 64:
        names: list[str | None] = [None] * (max(bit for bit, _ in bits) + 1)
        for bit, name in bits:
            names[bit] = name
        layout = FenLayout(tuple(bit for bit, _ in bits), tuple(names))
    _LAYOUT_CACHE[id(rules)] = (rules, layout)
    return layout


def _fen_field(groups: tuple[_FenGroup, ...], men: int, kings: int) -> str:
    parts = []
    for g in groups:
        gm = g.mask
        m = men & gm
        kk = kings & gm
        if m or kk:
            key = m | kk << g.shift
            text = g.memo.get(key)
            if text is None:
                text = g.memo[key] = g.text(m, kk)
            parts.append(text)
    return ",".join(parts)


def _write_fen_sets(position: Position) -> str:
    """:func:`write_fen` through the public square sets (any position-like object)."""
    rules = position.rules
    t = square_tables(rules)

    def field(letter: str, men: frozenset[int], kings: frozenset[int]) -> str:
        items = [(n, False) for n in men] + [(n, True) for n in kings]
        if t.alphanumeric:
            items.sort(key=lambda it: t.coords[it[0]])
        else:
            items.sort()
        return letter + ",".join(("K" if k else "") + t.names[n] for n, k in items)

    return ":".join(
        (
            str(position.side),
            field("W", position.white_men, position.white_kings),
            field("B", position.black_men, position.black_kings),
        )
    )
