"""Write :class:`~pdnkit.pdn.record.GameRecord` objects as canonical PDN 3.0.

Canonical form: the seven standard tags first (Event, Site, Date, Round, White, Black,
Result) where the game gives them under any name (``Bianco`` -> ``White``, see
:mod:`pdnkit.pdn.tags`), ``GameType`` (short form) when known, then every other tag in file
order (the first of a repeated tag only); values with ``\\`` and ``"`` escaped; movetext
wrapped at 80 columns (a move number stays with its move); squares without leading zeros;
``-`` for quiet moves, ``x`` (or ``:`` where written) for captures; comments in braces
(``;`` comments become brace comments); NAGs as ``$n``; the result token last (``*`` when
the record's result is not a PDN result token; the score stays in the ``Result`` tag).

Captures are written with the squares as read. Pass ``notation`` (main-line ply -> canonical
move text, e.g. from replay) to write each capture with its full path only where PDN 3.0
needs it.

Example:
    >>> from pdnkit.pdn.reader import parse_game
    >>> g = parse_game('[Result "2-0"][Event "x"]\\n01. 34-29 {ok} 06-11 (1... 19-23!) 2-0')
    >>> print(write_game(g))
    [Event "x"]
    [Result "2-0"]
    <BLANKLINE>
    1. 34-29 {ok} 6-11 (1... 19-23!) 2-0
    <BLANKLINE>
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import IO, Any

from pdnkit.pdn.record import BodyElement, CommentNode, GameRecord, MoveNode, NagNode, SetupNode
from pdnkit.pdn.tags import standard_tags

#: the PDN "seven tag roster", written first and in this order
STANDARD_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_STANDARD_LOWER = {t.lower(): i for i, t in enumerate(STANDARD_TAGS)}
#: terminators PDN 3.0 knows; the half-point forms map to 1/2-1/2
PDN_RESULTS = frozenset({"2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "*"})
_HALF = {"\u00bd-\u00bd": "1/2-1/2", "0.5-0.5": "1/2-1/2"}
WIDTH = 80


def canonical_result(token: str | None) -> str | None:
    """The PDN 3.0 terminator for a result token as read (None stays None).

    Example:
        >>> canonical_result("½-½"), canonical_result("2-0"), canonical_result("4-6")
        ('1/2-1/2', '2-0', '*')
    """
    if token is None:
        return None
    if token in PDN_RESULTS:
        return token
    return _HALF.get(token, "*")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def ordered_tags(tags: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Tags in canonical order: the seven standard tags first, then the rest as read.

    Example:
        >>> ordered_tags([("GameType", "20"), ("White", "A"), ("Event", "E")])
        [('Event', 'E'), ('White', 'A'), ('GameType', '20')]
    """
    tags = list(tags)
    std = sorted((t for t in tags if t[0].lower() in _STANDARD_LOWER),
                 key=lambda t: _STANDARD_LOWER[t[0].lower()])
    rest = [t for t in tags if t[0].lower() not in _STANDARD_LOWER]
    return std + rest


def _square(sq: str) -> str:
    return str(int(sq)) if sq.isdigit() else sq


def normal_move_text(move: MoveNode) -> str:
    """A move written from its squares: no leading zeros, ``-`` for quiet moves (also for
    moves written without separator or with another dash), ``x`` for ``x``/``X``, ``:`` kept.

    Example:
        >>> normal_move_text(MoveNode("06X17", ("06", "17"), ("X",)))
        '6x17'
        >>> normal_move_text(MoveNode("c3:e5", ("c3", "e5"), (":",)))
        'c3:e5'
    """
    if move.placeholder or not move.squares:
        return "- -" if move.text.startswith("-") or not move.text else "..."
    out = [_square(move.squares[0])]
    for sep, sq in zip(move.separators, move.squares[1:], strict=False):
        out.append(":" if sep == ":" else "x" if sep in ("x", "X") else "-")
        out.append(_square(sq))
    return "".join(out)


def _comment(text: str) -> str:
    depth = 0
    ok = True
    for ch in text:
        if ch == "{":
            depth += 1
            ok = ok and depth <= 1
        elif ch == "}":
            depth -= 1
            ok = ok and depth >= 0
    if not ok or depth != 0:  # braces that would break the comment
        text = text.replace("{", "(").replace("}", ")")
    return "{" + text + "}"


def _units(line: list[BodyElement], notation: Mapping[int, str] | None,
           ply: list[int] | None) -> list[str]:
    """The movetext of one line as unbreakable units (variations inside it included).
    Iterative, with an explicit stack of open lines: nesting depth costs no recursion."""
    units: list[str] = []
    # open lines: [elements left, index of the line's first unit (None until it has one)]
    stack: list[list[Any]] = [[iter(line), 0]]
    while stack:
        top = stack[-1]
        el = next(top[0], None)
        if el is None:
            stack.pop()
            if stack:  # a variation ends: bracket its units
                first = top[1]
                if first is None:
                    units.append("()")
                else:
                    units[first] = "(" + units[first]
                    units[-1] = units[-1] + ")"
            continue
        if top[1] is None:
            top[1] = len(units)
        if isinstance(el, MoveNode):
            main = len(stack) == 1
            _move_units(el, units, notation if main else None, ply if main else None)
            for var in reversed(el.variations):  # the first variation is written first
                stack.append([iter(var), None])
        elif isinstance(el, CommentNode):
            units.append(_comment(el.text))
        elif isinstance(el, SetupNode):
            units.append(f'/FEN "{el.fen}"/')
        elif isinstance(el, NagNode):
            units.append(f"${el.value}")
    return units


def _move_units(el: MoveNode, units: list[str], notation: Mapping[int, str] | None,
                ply: list[int] | None) -> None:
    """A move's units: setup, comments before, the move with its number and strength, NAGs
    and comments after."""
    if el.setup_before is not None:
        units.append(f'/FEN "{el.setup_before}"/')
    units.extend(_comment(c) for c in el.comments_before)
    text = None
    if ply is not None:
        ply[0] += 1
        if notation is not None:
            text = notation.get(ply[0])
    if text is None:
        text = normal_move_text(el)
    if el.strength:
        text += el.strength
    if el.number is not None:
        text = f"{el.number}{'...' if el.black_dots else '.'} {text}"
    units.append(text)
    units.extend(f"${n}" for n in el.nags)
    units.extend(_comment(c) for c in el.comments_after)


def _wrap(units: list[str], width: int = WIDTH) -> str:
    lines: list[str] = []
    cur = ""
    for u in units:
        if not cur:
            cur = u
        elif len(cur) + 1 + len(u) <= width:
            cur += " " + u
        else:
            lines.append(cur)
            cur = u
    if cur:
        lines.append(cur)
    return "\n".join(lines)


def write_game(record: GameRecord, notation: Mapping[int, str] | None = None, *,
               gametype: int | str | None = None, variant: str | None = None) -> str:
    """One game as canonical PDN 3.0 text (ends with a newline).

    ``notation`` maps main-line ply (1-based, in record order) to the move text to write
    instead of the move as read (e.g. the validator's canonical notation).

    The header holds the standard tags the game's tags give a value under any name
    (:func:`pdnkit.pdn.tags.standard_tags`: ``Bianco`` -> ``White``, ``Risultato`` ->
    ``Result`` ...), ``GameType`` in its short form when ``gametype`` is given
    and the game has none, then every original tag (the first of a repeated one).
    ``variant`` says who ``P1`` is in PlayStrategy files.

    Example:
        >>> from pdnkit.pdn.reader import parse_game
        >>> g = parse_game("1. 28x19x10 2-0")
        >>> write_game(g, notation={1: "28x10"})
        '1. 28x10 2-0\\n'
        >>> print(write_game(parse_game('[Nero "B"][Bianco "W"][Risultato "1-0"] 1. 22-18 1-0'),
        ...                  gametype=22))
        [White "W"]
        [Black "B"]
        [Result "1-0"]
        [GameType "22"]
        [Nero "B"]
        [Bianco "W"]
        [Risultato "1-0"]
        <BLANKLINE>
        1. 22-18 1-0
        <BLANKLINE>
    """
    tags = standard_tags(record, gametype=gametype, variant=variant)
    head = "".join(f'[{k} "{_escape(v)}"]\n' for k, v in ordered_tags(tags))
    units = _units(record.body, notation, [0])
    result = canonical_result(record.result)
    if result is not None:
        units.append(result)
    body = _wrap(units)
    if head and body:
        return head + "\n" + body + "\n"
    return head + (body + "\n" if body else "")


def write_games(records: Iterable[GameRecord], out: str | os.PathLike[str] | IO[str],
                notation: Callable[[GameRecord], Mapping[int, str] | None] | None = None) -> int:
    """Write games to ``out`` (a path, written as UTF-8, whole or not at all:
    :func:`pdnkit._atomic.atomic_output`; or a text file object), one blank line between
    games. ``notation`` optionally gives each record's per-ply move texts. Returns the
    number of games written.

    Example:
        >>> import io
        >>> from pdnkit.pdn.reader import read_games
        >>> buf = io.StringIO()
        >>> write_games(read_games("1. 32-28 2-0 1. 33-29 0-2"), buf)
        2
        >>> buf.getvalue()
        '1. 32-28 2-0\\n\\n1. 33-29 0-2\\n'
    """
    if isinstance(out, (str, os.PathLike)):
        from pdnkit._atomic import atomic_output

        with atomic_output(Path(out)) as fh:  # the one output check; whole or not at all
            return write_games(records, fh, notation)
    n = 0
    for rec in records:
        if n:
            out.write("\n")
        out.write(write_game(rec, notation(rec) if notation else None))
        n += 1
    return n


__all__ = ["STANDARD_TAGS", "canonical_result", "normal_move_text", "ordered_tags",
           "write_game", "write_games"]
