"""The Hub protocol as text: its lines, its positions and its moves.

Hub (version 2, Fabien Letouzey's protocol of Scan 3 and the Hub GUI: ``protocol.txt`` of the
Scan sources) is line based: every line in either direction is ``command arg=value
arg="quoted value" flag ...``; unknown commands and arguments are ignored. A position is one
letter for the side to move (``W``/``B``) and one per square in the standard order (``w``
``b`` a man, ``W`` ``B`` a king, ``e`` empty): 51 characters on the 10x10 board. A quiet
move is written ``32-28``; a capture ``from x to x captured x captured ...`` with the
captured pieces in any order (``28x19x23``, or ``47x36x14x19x31x42``): what tells two routes
of one capture apart is the set of pieces taken, and that is all a move of the rules engine
needs to be found (:func:`move_from_hub`).

Example:
    >>> parse_line('id name=Scan version=3.1 author="Fabien Letouzey"')
    ('id', {'name': 'Scan', 'version': '3.1', 'author': 'Fabien Letouzey'})
    >>> format_line("set-param", name="book", value="")
    'set-param name=book value=""'
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pdnkit.errors import ArgumentError

if TYPE_CHECKING:
    from pdnkit.rules.position import Move, Position
    from pdnkit.rules.variants import Rules

__all__ = ["HUB_SQUARES", "HubSyntaxError", "board_of", "format_line", "hub_move",
           "hub_position", "line_from_hub", "move_from_hub", "parse_line", "play_hub"]

#: squares of the board Hub describes (10x10: the only board of the protocol)
HUB_SQUARES = 50


class HubSyntaxError(ArgumentError):
    """A Hub line, position or move that cannot be read (the message quotes it)."""


_TOKEN = re.compile(r'\s*([^\s=]+)(?:=("(?:[^"\\]|\\.)*"|[^\s"]*))?')


def parse_line(line: str) -> tuple[str, dict[str, str]]:
    """``(command, {argument: value})`` of one Hub line; a flag without ``=value`` has the
    value ``""``. Raises :class:`HubSyntaxError` for an unclosed quote.

    Example:
        >>> parse_line('info depth=4 score=-0.10 pv="32-27 18-22"')
        ('info', {'depth': '4', 'score': '-0.10', 'pv': '32-27 18-22'})
        >>> parse_line("level infinite")
        ('level', {'infinite': ''})
    """
    text = line.strip()
    if not text:
        return "", {}
    if text.count('"') % 2:
        raise HubSyntaxError(f"an unclosed quote in the engine's line {line.strip()!r}")
    pos, command, args = 0, "", {}
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise HubSyntaxError(f"the engine's line {line.strip()!r} is not Hub syntax")
        pos = m.end()
        name, value = m.group(1), m.group(2)
        if not command:
            command = name if value is None else f"{name}={value}"
            continue
        if value is None:
            args[name] = ""
        elif value.startswith('"'):
            args[name] = re.sub(r"\\(.)", r"\1", value[1:-1])
        else:
            args[name] = value
    return command, args


def _value(v: object) -> str:
    text = str(v)
    if text == "" or any(c in text for c in ' \t="'):
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return text


def format_line(command: str, *flags: str, **args: object) -> str:
    """One Hub line: the command, its flags, then ``name=value`` (values quoted where they
    hold a space, ``=`` or a quote, or are empty; ``_`` in a name is written ``-``).

    Example:
        >>> format_line("level", move_time=0.5), format_line("go", "analyze")
        ('level move-time=0.5', 'go analyze')
    """
    parts = [command, *flags]
    parts += [f"{k.replace('_', '-')}={_value(v)}" for k, v in args.items()]
    return " ".join(parts)


def hub_position(position: Position) -> str:
    """The Hub form of a position of a 10x10 variant: the side to move, then every square.

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> text = hub_position(parse_fen("B:W28,K46:B19", get_rules("international")))
        >>> text[0], text[19], text[28], text[46], len(text)
        ('B', 'b', 'w', 'W', 51)
    """
    rules = position.rules
    n = rules.geometry.num_squares
    if n != HUB_SQUARES:
        raise ArgumentError(f"Hub describes the 10x10 board only; {rules.name} has {n} squares")
    cells = ["e"] * n
    sob = rules.geometry.square_of_bit
    white, black, kings = position.engine_bits
    for bits, man, king in ((white, "w", "W"), (black, "b", "B")):
        while bits:
            low = bits & -bits
            cells[sob[low.bit_length() - 1] - 1] = king if kings & low else man
            bits ^= low
    return ("B" if int(position.side) == 1 else "W") + "".join(cells)


def hub_move(move: Move) -> str:
    """A move as Hub writes it: ``32-28``, or ``from x to x captured...`` (capture order).

    Example:
        >>> from pdnkit.rules.position import Move
        >>> hub_move(Move(47, 36, (47, 38, 20, 9, 36), (42, 29, 14, 31)))
        '47x36x42x29x14x31'
    """
    if not move.captured:
        return f"{move.origin}-{move.destination}"
    return "x".join(str(s) for s in (move.origin, move.destination, *move.captured))


_MOVE = re.compile(r"\d+(?:[-x]\d+)+")


def move_from_hub(position: Position, text: str) -> Move:
    """The legal move of ``position`` that the Hub move ``text`` names: a quiet move by its
    two squares, a capture by its origin, destination and the set of pieces taken (a capture
    written with its origin and destination only is read where only one capture fits). Raises
    :class:`HubSyntaxError` when ``text`` is no move or names no legal move.

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> pos = parse_fen("W:WK47:B14,19,29,31,42", get_rules("international"))
        >>> move_from_hub(pos, "47x36x31x14x42x29").path
        (47, 38, 20, 9, 36)
    """
    raw = text.strip()
    if not _MOVE.fullmatch(raw):
        raise HubSyntaxError(f"{raw!r} is not a Hub move")
    squares = [int(s) for s in re.split(r"[-x]", raw)]
    legal = position.legal_moves()
    if "x" not in raw:
        found = [m for m in legal if not m.captured and len(squares) == 2
                 and (m.origin, m.destination) == (squares[0], squares[1])]
    else:
        o, d, taken = squares[0], squares[1], sorted(squares[2:])
        found = [m for m in legal if m.captured and (m.origin, m.destination) == (o, d)
                 and (not taken or sorted(m.captured) == taken)]
    if len(found) != 1:
        why = "names no legal move here" if not found else "fits more than one legal move"
        raise HubSyntaxError(f"the engine's move {raw!r} {why}")
    return found[0]


def play_hub(position: Position, text: str) -> tuple[Move, Position]:
    """The legal move of ``position`` that the Hub move ``text`` names (as
    :func:`move_from_hub` finds it) and the position after it. The way a recorded game is
    replayed comes first (:meth:`~pdnkit.rules.position.Position.play_written`: a few bit
    tests for a quiet move, the captures that join two squares): where it settles the move
    and, for a capture, takes the pieces ``text`` names, no list of every legal move is made;
    otherwise :func:`move_from_hub` decides (and raises :class:`HubSyntaxError` as it does).

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> pos = parse_fen("W:W28,32:B22,23", get_rules("international"))
        >>> move, after = play_hub(pos, "28x19x23")
        >>> str(move), sorted(after.black_men)
        ('28x19', [22])
    """
    raw = text.strip()
    quiet = "x" not in raw
    parts = raw.split("-") if quiet else raw.split("x")
    if len(parts) >= 2 and all(p.isdigit() and p.isascii() for p in parts) and (
            not quiet or len(parts) == 2):
        found = position.play_written(int(parts[0]), int(parts[1]))
        if found is not None:
            move, after = found
            if quiet != bool(move.captured) and (
                    quiet or len(parts) == 2
                    or sorted(move.captured) == sorted(int(p) for p in parts[2:])):
                return move, after
    move = move_from_hub(position, raw)
    return move, position.play(move)


def line_from_hub(position: Position, text: str) -> tuple[list[Move], str | None]:
    """The moves of a Hub line (a principal variation, moves separated by spaces), played one
    after the other from ``position`` (:func:`play_hub`); stops at the first move that does
    not read or is not legal there and says why (``None``: the whole line was read).

    Example:
        >>> from pdnkit.rules import Position, get_rules
        >>> start = Position.initial(get_rules("international"))
        >>> moves, why = line_from_hub(start, "32-27 18-22 27x18x22 13x22x18 99-98")
        >>> [str(m) for m in moves], why
        (['32-27', '18-22', '27x18', '13x22'], "the engine's move '99-98' names no legal move here")
    """
    moves: list[Move] = []
    pos = position
    for token in text.split():
        try:
            m, pos = play_hub(pos, token)
        except HubSyntaxError as exc:
            return moves, str(exc)
        moves.append(m)
    return moves, None


def board_of(rules: Rules) -> bool:
    """Whether Hub can describe a position of ``rules`` (the 10x10 board).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> board_of(get_rules("frisian")), board_of(get_rules("russian"))
        (True, False)
    """
    return int(rules.geometry.num_squares) == HUB_SQUARES
