"""Square names and move text in each variant's own notation.

Square numbers are PDN square numbers (1-based) as numbered by the variant's
:class:`~pdnkit.rules.geometry.Geometry`; names are either the number itself
(numeric variants: ``"28"``) or a chess-style coordinate (alphanumeric variants:
``"c3"``, file letter from White's left, rank from White's side, RULES.md 1.8).
Every 8x8 and 10x10 variant also accepts the other form on input, so a Russian
game written with lidraughts' numeric squares (``22-18``) and an international game
written with coordinates both read.

Moves are written in the variant's short form (``32-28``, ``28x19``, ``c3-d4``,
``c3:e5``) with the capture separator of :attr:`Rules.capture_separator`; the full
landing path is written only where PDN 3.0 requires it (RULES.md 1.5 and 4.5), see
:func:`canonical_notation`. :func:`match_move` does the reverse: it finds the legal
moves a written move can mean.

Russian literature also writes a move by the file of its origin only (``cd4`` for c3-d4,
``c:e5`` or ``b:d4`` for captures): :func:`short_move_matches` finds the legal moves such a
short form can mean, and :func:`match_move` reads it too.

Example:
    >>> from pdnkit.rules import get_rules
    >>> russian = get_rules("russian")
    >>> square_name(russian, 22), parse_square(russian, "c3"), parse_square(russian, "022")
    ('c3', 22, 22)
    >>> to_numeric(russian, "c3:e5:c7"), to_alphanumeric(russian, "22-18")
    ('22:15:6', 'c3-d4')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pdnkit._lazy import lazy_pattern
from pdnkit.errors import PdnkitError

if TYPE_CHECKING:  # pragma: no cover
    from pdnkit.rules.position import Move, Position
    from pdnkit.rules.variants import Rules

__all__ = [
    "NotationError",
    "canonical_notation",
    "format_move",
    "match_move",
    "moves",
    "parse_move_text",
    "parse_square",
    "resolve_short_move",
    "short_move_matches",
    "square_name",
    "square_names",
    "to_alphanumeric",
    "to_numeric",
    "variants",
]

_FILES = "abcdefghijklmnopqrstuvwxyz"


class NotationError(PdnkitError, ValueError):
    """A square or move text that cannot be read for the given variant."""


@dataclass(frozen=True)
class SquareTables:
    """Per-variant lookup tables, built once from the variant's geometry."""

    num_squares: int
    width: int
    height: int
    alphanumeric: bool
    names: tuple[str, ...]  # index n -> variant's own name of square n (index 0 unused)
    coords: tuple[tuple[int, int], ...]  # index n -> (file, rank), 0-based
    alpha: tuple[str, ...]  # index n -> coordinate name ("c3") of square n
    by_alpha: dict[str, int]  # "c3" -> n


_CACHE: dict[int, tuple[Any, SquareTables]] = {}


def square_tables(rules: Rules) -> SquareTables:
    """The variant's square tables (names, coordinates, the engine's bits), built once per
    rules record.

    >>> from pdnkit.rules.variants import get_rules
    >>> square_tables(get_rules("russian")).num_squares
    32
    """
    entry = _CACHE.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    geo = rules.geometry
    n_sq = int(geo.num_squares)
    coords: list[tuple[int, int]] = [(-1, -1)]
    alpha: list[str] = [""]
    for n in range(1, n_sq + 1):
        f, r = geo.square_to_coords(n)
        coords.append((int(f), int(r)))
        alpha.append(f"{_FILES[f]}{r + 1}" if f < len(_FILES) else str(n))
    is_alpha = rules.notation == "alphanumeric"
    names = tuple(alpha) if is_alpha else ("",) + tuple(str(n) for n in range(1, n_sq + 1))
    tables = SquareTables(
        num_squares=n_sq,
        width=int(rules.width),
        height=int(rules.height),
        alphanumeric=is_alpha,
        names=names,
        coords=tuple(coords),
        alpha=tuple(alpha),
        by_alpha={a: n for n, a in enumerate(alpha) if n},
    )
    _CACHE[id(rules)] = (rules, tables)
    return tables


# --------------------------------------------------------------------------- squares


def square_name(rules: Rules, n: int) -> str:
    """The name of PDN square ``n`` in the variant's own notation.

    Numeric variants give the number, alphanumeric ones (Russian, Brazilian, Czech,
    Turkish, ...) the coordinate. Raises :class:`NotationError` for a square that is not
    on the board.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> square_name(get_rules("international"), 46), square_name(get_rules("russian"), 29)
        ('46', 'a1')
    """
    t = square_tables(rules)
    if not isinstance(n, int) or not 1 <= n <= t.num_squares:
        raise NotationError(f"square {n} is off the {t.width}x{t.height} board")
    return t.names[n]


def square_names(rules: Rules) -> tuple[str, ...]:
    """The name of every square in the variant's own notation, indexed by PDN square number
    (index 0 is unused): ``square_names(rules)[n] == square_name(rules, n)``, for code that
    names many squares (one lookup instead of a call per square).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> square_names(get_rules("russian"))[29], square_names(get_rules("english"))[32]
        ('a1', '32')
    """
    return square_tables(rules).names


def alphanumeric_name(rules: Rules, n: int) -> str:
    """The coordinate name (``"b10"``, ``"c3"``) of PDN square ``n``, whatever the notation.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> alphanumeric_name(get_rules("international"), 1)
        'b10'
    """
    t = square_tables(rules)
    if not isinstance(n, int) or not 1 <= n <= t.num_squares:
        raise NotationError(f"square {n} is off the {t.width}x{t.height} board")
    return t.alpha[n]


_ALPHA_RE = lazy_pattern(r"([a-zA-Z])([0-9]{1,2})")


def parse_square(rules: Rules, text: str) -> int:
    """The PDN square number written as ``text`` (``"28"``, ``"06"``, ``"c3"``).

    Numbers may carry leading zeros. Coordinates are accepted for every variant whose
    board has at most 26 files (so for all 8x8 and 10x10 boards), numbers for every
    variant (alphanumeric variants use the lidraughts top-left numbering, RULES.md 1.8).
    Raises :class:`NotationError` naming the problem.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> intl = get_rules("international")
        >>> parse_square(intl, "05"), parse_square(intl, "a1"), parse_square(intl, "j10")
        (5, 46, 5)
    """
    t = square_tables(rules)
    s = text.strip()
    if s.isdigit():
        n = int(s)
        if not 1 <= n <= t.num_squares:
            raise NotationError(f"square {n} is off the {t.width}x{t.height} board")
        return n
    m = _ALPHA_RE.fullmatch(s)
    if m is None:
        raise NotationError(f"{text!r} is not a square")
    name = m.group(1).lower() + str(int(m.group(2)))
    n = t.by_alpha.get(name)  # type: ignore[assignment]
    if n is not None:
        return n
    f = _FILES.index(name[0])
    r = int(name[1:]) - 1
    if f >= t.width or not 0 <= r < t.height:
        raise NotationError(f"square {name} is off the {t.width}x{t.height} board")
    raise NotationError(f"square {name} is not a playing square")


# --------------------------------------------------------------------------- move text

_SEP_RE = lazy_pattern(r"\s*([-xX:\u2013\u2011\u2012\u2014])\s*")


def parse_move_text(rules: Rules, text: str) -> tuple[tuple[int, ...], bool]:
    """Split written move text into square numbers and whether it was written as a capture.

    Accepts ``-``, ``x``, ``X``, ``:`` and non-ASCII dashes as separators, squares as
    numbers (leading zeros allowed) or coordinates, and the separator-less forms
    ``3228`` and ``a3b4``. Move strength marks (``!``, ``?``, ``*``, ``+``, ``=``) at
    the end are ignored. A ``-`` between squares means "quiet" unless the text has more
    than two squares. Raises :class:`NotationError` for text that is not a move.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> parse_move_text(get_rules("international"), "32-28!"), parse_move_text(
        ...     get_rules("russian"), "c3:e5:c7")
        (((32, 28), False), ((22, 15, 6), True))
    """
    s = text.strip().rstrip("!?*+=()").strip()
    if not s:
        raise NotationError(f"{text!r} is not a move")
    parts = _SEP_RE.split(s)
    if len(parts) == 1:  # no separator: "3228", "a3b4"
        m = re.fullmatch(r"([a-zA-Z][0-9]{1,2})([a-zA-Z][0-9]{1,2})", s)
        if m:
            pieces = [m.group(1), m.group(2)]
        elif s.isdigit() and len(s) == 4:
            pieces = [s[:2], s[2:]]
        else:
            raise NotationError(f"{text!r} is not a move")
        seps: list[str] = ["-"]
    else:
        pieces = parts[0::2]
        seps = parts[1::2]
    if any(not p for p in pieces):
        raise NotationError(f"{text!r} is not a move")
    try:
        squares = tuple(parse_square(rules, p) for p in pieces)
    except NotationError as exc:
        raise NotationError(f"{text!r}: {exc}") from None
    capture = any(sep in "xX:" for sep in seps) or len(squares) > 2
    return squares, capture


def format_move(move: Move, rules: Rules, full_path: bool = False) -> str:
    """Write ``move`` in the variant's own notation.

    Quiet moves use ``-``; captures the variant's capture separator (``x``, or ``:`` for
    Russian). With ``full_path`` every landing square of the capture is written.

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> pos = parse_fen("W:W28,32:B23", get_rules("international"))
        >>> [format_move(m, pos.rules) for m in pos.legal_moves()]
        ['28x19']
    """
    names = square_tables(rules).names
    if not move.captured:
        return f"{names[move.origin]}-{names[move.destination]}"
    sep = rules.capture_separator
    if full_path:
        return sep.join(names[s] for s in move.path)
    return f"{names[move.origin]}{sep}{names[move.destination]}"


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _direction(t: SquareTables, a: int, b: int) -> tuple[int, int]:
    (fa, ra), (fb, rb) = t.coords[a], t.coords[b]
    return _sign(fb - fa), _sign(rb - ra)


def _square_at(rules: Rules, t: SquareTables, f: int, r: int) -> int | None:
    if not (0 <= f < t.width and 0 <= r < t.height):
        return None
    sq = rules.geometry.coords_to_square(f, r)
    return int(sq) if sq else None


def _line(rules: Rules, t: SquareTables, start: int, step: tuple[int, int]) -> list[int]:
    """Playing squares after ``start`` along ``step``, up to the edge."""
    f, r = t.coords[start]
    out: list[int] = []
    for _ in range(max(t.width, t.height)):
        f += step[0]
        r += step[1]
        if not (0 <= f < t.width and 0 <= r < t.height):
            break
        sq = _square_at(rules, t, f, r)
        if sq is not None:
            out.append(sq)
    return out


def _behind(rules: Rules, t: SquareTables, captured: int, step: tuple[int, int]) -> int:
    """The playing square right behind ``captured`` along ``step``."""
    line = _line(rules, t, captured, step)
    return line[0] if line else captured


def canonical_path(move: Move, rules: Rules) -> tuple[int, ...]:
    """The squares PDN 3.0 lists for a capture written in full (RULES.md 4.5).

    Origin, then for every jump but the last the turning square (where the piece turned)
    or, when it went straight on, the square right behind the piece it took, then the
    destination.

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> pos = parse_fen("W:WK47:B14,19,29,31,42", get_rules("international"))
        >>> sorted(canonical_path(m, pos.rules) for m in pos.legal_moves())
        [(47, 38, 20, 9, 36), (47, 38, 24, 13, 36)]
    """
    path, cap = tuple(move.path), tuple(move.captured)
    if len(cap) <= 1 or len(path) != len(cap) + 1:
        return path if len(cap) > 1 else (move.origin, move.destination)
    t = square_tables(rules)
    out = [path[0]]
    for i in range(len(cap) - 1):
        d_this = _direction(t, path[i], path[i + 1])
        d_next = _direction(t, path[i + 1], path[i + 2])
        out.append(path[i + 1] if d_this != d_next else _behind(rules, t, cap[i], d_this))
    out.append(path[-1])
    return tuple(out)


def _outcome(move: Move) -> tuple[frozenset[int], bool]:
    return frozenset(move.captured), bool(move.promotes)


def canonical_notation(
    move: Move, position: Position, legal: Sequence[Move] | None = None
) -> str:
    """The PDN 3.0 way to write ``move`` in ``position`` (RULES.md 4.5).

    The short form (``28x19``, ``c3:e5``) unless another legal move has the same origin
    and destination but leads to a different position; then the full path with turning
    squares (or the square right behind the captured piece when going straight on).
    ``legal`` may pass the position's legal moves when the caller has them already.

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> pos = parse_fen("W:WK47:B14,19,29,31,42", get_rules("international"))
        >>> sorted(canonical_notation(m, pos) for m in pos.legal_moves())
        ['47x38x20x9x36', '47x38x24x13x36']
    """
    rules = position.rules
    names = square_tables(rules).names
    if not move.captured:  # a quiet move is never ambiguous
        return f"{names[move.origin]}-{names[move.destination]}"
    if legal is None:
        legal = position.legal_moves()
    if len(legal) > 1 or (legal and legal[0] is not move):  # a lone forced capture: short
        mine = _outcome(move)
        o, d = move.origin, move.destination
        if any(m.origin == o and m.destination == d and m is not move
               and _outcome(m) != mine for m in legal):
            return rules.capture_separator.join(names[s] for s in canonical_path(move, rules))
    return f"{names[move.origin]}{rules.capture_separator}{names[move.destination]}"


# --------------------------------------------------------------------------- matching


def _stretches(move: Move, rules: Rules, t: SquareTables) -> list[set[int]]:
    """For each jump but the last, the squares behind the captured piece that the piece
    stood on or crossed before its next capture (RULES.md 1.5): from right behind the
    captured piece to the landing square and, when it goes straight on, on up to the next
    captured piece."""
    path, cap = tuple(move.path), tuple(move.captured)
    out: list[set[int]] = []
    if len(path) != len(cap) + 1:
        return [{s} for s in path[1:-1]]
    for i in range(len(cap) - 1):
        landing = path[i + 1]
        stretch = {landing}
        d = _direction(t, path[i], landing)
        for sq in _line(rules, t, cap[i], d):
            stretch.add(sq)
            if sq == landing:
                break
        if _direction(t, landing, path[i + 2]) == d:
            for sq in _line(rules, t, landing, d):
                if sq == cap[i + 1]:
                    break
                stretch.add(sq)
        out.append(stretch)
    return out


def _route_matches(listed: Sequence[int], stretches: list[set[int]]) -> bool:
    j = 0
    for sq in listed:
        while j < len(stretches) and sq not in stretches[j]:
            j += 1
        if j == len(stretches):
            return False
        j += 1
    return True


def _route_captures(position: Position, squares: Sequence[int]) -> frozenset[int] | None:
    """The pieces a written landing route jumps, if every hop runs along one line over
    exactly one enemy piece (jumped pieces stay until the move ends, unless the variant
    removes them at once); else None.

    Moves with the same origin, destination and captured set are generated once, with
    one of their routes; this recognises the others.
    """
    rules = position.rules
    t = square_tables(rules)
    mover = position.piece_at(squares[0])
    if mover is None:
        return None
    taken: set[int] = set()
    gone = rules.removal == "immediate"  # a taken piece's square is free at once (Turkish)
    for a, b in zip(squares, squares[1:], strict=False):
        (fa, ra), (fb, rb) = t.coords[a], t.coords[b]
        df, dr = fb - fa, rb - ra
        if not (df == 0 or dr == 0 or abs(df) == abs(dr)) or (df, dr) == (0, 0):
            return None
        hit = None
        for sq in _line(rules, t, a, (_sign(df), _sign(dr))):
            if sq == b:
                break
            if sq == squares[0] or sq in taken:
                if sq in taken and not gone:
                    return None
                continue
            piece = position.piece_at(sq)
            if piece is None:
                continue
            if piece[0] == mover[0] or hit is not None:
                return None
            hit = sq
        else:
            return None
        if hit is None or position.piece_at(b) is not None and b != squares[0]:
            return None
        taken.add(hit)
    return frozenset(taken)


def _distinct(cands: Iterable[Move]) -> list[Move]:
    seen: dict[tuple[frozenset[int], bool], Move] = {}
    out: list[Move] = []
    for m in cands:
        key = (frozenset(m.captured), bool(m.promotes))
        if key not in seen:
            seen[key] = m
            out.append(m)
    return out


_SHORT_RE = lazy_pattern(r"([a-z])[ \t]*([-xX:\u2013]?)[ \t]*([a-z][0-9]{1,2})")


def short_move_matches(
    position: Position, text: str, legal: Sequence[Move] | None = None
) -> list[Move] | None:
    """The legal moves the Russian short form ``text`` can mean, one per resulting position;
    ``None`` when ``text`` is not a short form.

    A short form names the file of the moving piece and the destination square: ``cd4``
    (c3-d4, or any legal move from the c-file to d4), ``c:e5`` / ``cxe5`` (a capture from
    the c-file ending on e5), ``c-d4`` (a non-capturing move). An empty list means no legal
    move fits; more than one means the short form is ambiguous here.

    Example:
        >>> from pdnkit.rules import Position, get_rules, parse_fen
        >>> pos = Position.initial(get_rules("russian"))
        >>> [format_move(m, pos.rules) for m in short_move_matches(pos, "cd4")]
        ['c3-d4']
        >>> pos = parse_fen("W:Wc3,c7:Bd4,d6", get_rules("russian"))
        >>> sorted(format_move(m, pos.rules) for m in short_move_matches(pos, "c:e5"))
        ['c3:e5', 'c7:e5']
    """
    m = _SHORT_RE.fullmatch(text.strip().rstrip("!?*+=()").strip())
    if m is None:
        return None
    t = square_tables(position.rules)
    f = _FILES.index(m.group(1))
    sep = m.group(2)
    try:
        dest = parse_square(position.rules, m.group(3))
    except NotationError:
        return []
    if legal is None:
        legal = position.legal_moves()
    capture = sep in ("x", "X", ":") if sep else None  # None: either
    found = [mv for mv in legal if mv.destination == dest and t.coords[mv.origin][0] == f
             and (capture is None or bool(mv.captured) == capture)]
    seen: dict[tuple[int, frozenset[int], bool], Move] = {}
    for mv in found:  # one per resulting position (the origin counts: several pieces)
        seen.setdefault((mv.origin, frozenset(mv.captured), bool(mv.promotes)), mv)
    return list(seen.values())


def resolve_short_move(position: Position, text: str) -> list[int] | str | None:
    """For a replay: the squares (origin, then the landing squares) of the one legal move the
    short form ``text`` means; a message when it means none or several (the message of an
    ambiguous one starts with ``"ambiguous"``); ``None`` when ``text`` is not a short form.

    Example:
        >>> from pdnkit.rules import Position, get_rules, parse_fen
        >>> pos = Position.initial(get_rules("russian"))
        >>> resolve_short_move(pos, "cd4"), resolve_short_move(pos, "c3-d4") is None
        ([22, 18], True)
        >>> resolve_short_move(parse_fen("W:Wc3,c7:Bd4,d6", pos.rules), "c:e5")
        'ambiguous short move c:e5: c3:e5, c7:e5'
    """
    found = short_move_matches(position, text)
    if found is None:
        return None
    rules = position.rules
    if len(found) == 1:
        return list(found[0].path)
    if not found:
        return f"no legal move fits the short move {text.strip()}"
    names = ", ".join(sorted(format_move(m, rules) for m in found))
    return f"ambiguous short move {text.strip()}: {names}"


def match_move(
    position: Position, text_or_squares: str | Sequence[int], legal: Sequence[Move] | None = None
) -> list[Move]:
    """The legal moves a written move can mean, one per distinct resulting position.

    ``text_or_squares`` is move text (``"47x38x24x13x36"``, ``"c3:e5"``) or the square
    numbers as written. Origin and destination must match; listed intermediate squares
    must lie, in order, on the route (landing squares, or for flying kings any square
    of the stretch the king crossed between two captures — RULES.md 1.5). When that
    finds nothing, the "captured squares listed" forms are tried: ``from x to x
    captured...`` (Hub) and ``from x captured... x to``. An empty list means illegal,
    more than one means ambiguous. Russian short forms (``cd4``, ``c:e5``) are read as
    :func:`short_move_matches` reads them.

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> pos = parse_fen("W:WK47:B14,19,29,31,42", get_rules("international"))
        >>> len(match_move(pos, "47x36")), len(match_move(pos, "47x38x24x13x36"))
        (2, 1)
    """
    if isinstance(text_or_squares, str):
        short = short_move_matches(position, text_or_squares, legal)
        if short is not None:
            return short
        squares, _ = parse_move_text(position.rules, text_or_squares)
    else:
        squares = tuple(int(s) for s in text_or_squares)
    if len(squares) < 2:
        return []
    if legal is None:
        legal = position.legal_moves()
    origin, dest, middle = squares[0], squares[-1], squares[1:-1]
    same_ends = [m for m in legal if m.origin == origin and m.destination == dest]
    rules = position.rules
    if not middle:
        cands = _distinct(same_ends)
        if len(cands) > 1:  # "f8:b4" is also the full path of a single jump
            single = [m for m in cands if len(m.captured) == 1 and len(m.path) == 2]
            if len(single) == 1:
                return single
        return cands
    found = [
        m
        for m in same_ends
        if m.captured and (tuple(m.path[1:-1]) == middle or canonical_path(m, rules)[1:-1] == middle)
    ]
    if found:
        return _distinct(found)
    t = square_tables(rules)
    found = [m for m in same_ends if m.captured and _route_matches(middle, _stretches(m, rules, t))]
    if found:
        return _distinct(found)
    taken = _route_captures(position, squares)
    if taken is not None:  # another route of a move that was generated once
        found = [m for m in same_ends if frozenset(m.captured) == taken]
        if found:
            return _distinct(found)
    listed = set(middle)
    found = [m for m in same_ends if m.captured and listed == set(m.captured)]
    if found:
        return _distinct(found)
    if len(squares) >= 3:
        hub_dest, hub_caps = squares[1], set(squares[2:])
        found = [
            m
            for m in legal
            if m.origin == origin and m.destination == hub_dest and hub_caps == set(m.captured)
        ]
        if found:
            return _distinct(found)
    return []


# --------------------------------------------------------------------------- conversion


def _convert(rules: Rules, text: str, alpha: bool) -> str:
    t = square_tables(rules)
    squares, _ = parse_move_text(rules, text)
    s = text.strip()
    seps = _SEP_RE.findall(s)
    if not seps:
        seps = ["-"]
    seps = [("x" if sep == "X" else sep) if sep in "xX:" else "-" for sep in seps]
    table = t.alpha if alpha else tuple(str(n) for n in range(t.num_squares + 1))
    out = table[squares[0]]
    for sep, sq in zip(seps, squares[1:], strict=False):
        out += sep + table[sq]
    return out


def to_alphanumeric(rules: Rules, text: str) -> str:
    """Rewrite move text with coordinate squares (``22-18`` -> ``c3-d4`` on 8x8).

    Separators are kept; a square already written as a coordinate is normalised.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> to_alphanumeric(get_rules("international"), "32x21")
        'd4xb6'
    """
    return _convert(rules, text, alpha=True)


def to_numeric(rules: Rules, text: str) -> str:
    """Rewrite move text with PDN square numbers (``c3:e5`` -> ``22:15`` for Russian).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> to_numeric(get_rules("russian"), "c3-d4")
        '22-18'
    """
    return _convert(rules, text, alpha=False)


# --------------------------------------------------------------------------- CLI backers


def moves(variant: str | int, fen: str | None = None) -> list[dict[str, Any]]:
    """Legal moves of a position, as the ``pdnkit moves --format json`` objects.

    Each object has ``notation`` (canonical PDN form in the variant's notation),
    ``path`` (squares visited, origin first), ``captured`` (in capture order) and
    ``promotes``. ``fen`` defaults to the variant's initial position. Raises
    :class:`~pdnkit.rules.variants.UnknownVariantError` or
    :class:`~pdnkit.rules.fen.FenError` for bad input.

    Example:
        >>> [m["notation"] for m in moves("international", "W:W28,32:B23")]
        ['28x19']
    """
    from pdnkit.rules import Position, get_rules, parse_fen

    rules = get_rules(variant)
    position = Position.initial(rules) if fen is None else parse_fen(fen, rules)
    legal = position.legal_moves()
    out = [
        {
            "notation": canonical_notation(m, position, legal),
            "path": list(m.path),
            "captured": list(m.captured),
            "promotes": bool(m.promotes),
        }
        for m in legal
    ]
    return out


def variants() -> list[dict[str, Any]]:
    """One summary row per registered variant and edition (what ``pdnkit variants`` shows).

    Each row is :meth:`Rules.describe` (name, title, GameType number and full form,
    edition, board, first mover, notation, king range, men capture backward, capture
    choice rule, promotion during a capture, draw rules, aliases, ...) plus the
    ``capture_separator``.

    Example:
        >>> rows = variants()
        >>> next(r for r in rows if r["name"] == "russian")["board"]
        '8x8'
    """
    from pdnkit.rules import list_variants

    rows: list[dict[str, Any]] = []
    for r in list_variants():
        row = dict(r.describe())
        row.setdefault("capture_separator", r.capture_separator)
        rows.append(row)
    return rows
