"""Classifying one game as the reader or the validator gives it: a
:class:`~pdnkit.pdn.record.GameRecord` (replayed here) or a
:class:`~pdnkit.validation.report.GameReport` (its replayed positions read).

Example:
    >>> from pdnkit.validation import validate
    >>> rep = next(validate('[GameType "25"] 1. cd4 ba5 2. dc5 d:b4 3. a:c5 fg5 *'))
    >>> c = classify_record(rep)
    >>> c.name, c.translit, c.ply
    ('Кол', 'Kol', 5)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from pdnkit.openings.book import Classification, OpeningBook, load_tables
from pdnkit.openings.table import BitsKey, mirror_position, square_bits
from pdnkit.rules import Position, Rules, get_rules, parse_fen

if TYPE_CHECKING:
    from pdnkit.pdn.record import GameRecord
    from pdnkit.validation.report import GameReport

__all__ = ["classify_record", "colours_swapped", "game_bits", "game_positions", "start_bits",
           "start_position"]


def start_position(report: GameReport) -> Position | None:
    """The position the report's main line starts from (read through ``getattr``: a
    stand-in record may lack what it does not use); None for a game without a variant or a
    start the rules cannot read.

    Example:
        >>> from pdnkit.validation import validate
        >>> rep = next(validate('[GameType "20"] 1. 32-28 19-23 *'))
        >>> start_position(rep) == Position.initial(get_rules("international"))
        True
    """
    plain = report.plain
    if plain is not None:
        return plain.start
    plies = report.plies
    if plies and plies[0].position_before is not None:
        return plies[0].position_before
    if report.variant is None:
        return None
    try:
        rules = get_rules(report.variant, report.edition)
    except ValueError:
        return None
    if report.start_fen:
        try:
            return parse_fen(report.start_fen, rules)
        except ValueError:
            return None
    return Position.initial(rules)


def game_positions(report: GameReport) -> Iterator[Position]:
    """The positions of a report's main line from ply 0, as far as it was replayed (a
    report from a worker process, which keeps FEN only, is read from its FENs; a ``light``
    report has only its start).

    Example:
        >>> from pdnkit.validation import validate
        >>> rep = next(validate('[GameType "20"] 1. 32-28 19-23 2. 28x19 *'))
        >>> len(list(game_positions(rep)))
        4
    """
    start = start_position(report)
    if start is None:
        return
    yield start
    plain = report.plain
    if plain is not None:
        yield from plain.iter_afters()  # made only as far as the classifier reads
    yield from _replayed_after(report, start.rules)


def _replayed_after(report: GameReport, rules: Rules) -> Iterator[Position]:
    """The positions after each replayed ply of ``report.plies`` (the plies after a compact
    report's leading run), ending at the first that was not replayed or cannot be read."""
    for ply in report.plies:
        if not ply.replayed:
            return
        after = ply.position_after
        if after is None:
            fen = ply.fen_after
            if not fen:
                return
            try:
                after = parse_fen(fen, rules)
            except ValueError:  # a FEN the rules cannot read: the positions end here
                return
        yield after


#: the bitboards of the starts seen (most games start from the variant's initial position)
_START_BITS: dict[tuple[str, Position], BitsKey] = {}


def start_bits(start: Position) -> BitsKey:
    """:func:`~pdnkit.openings.table.square_bits` of a game's start, remembered (most games
    start from the variant's initial position).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> start_bits(Position.initial(get_rules("english")))[0]
        True
    """
    key = (start.rules.name, start)
    bits = _START_BITS.get(key)
    if bits is None:
        if len(_START_BITS) > 256:  # set-up positions (11-man ballots...): keep it small
            _START_BITS.clear()
        bits = _START_BITS[key] = square_bits(start)
    return bits


def game_bits(report: GameReport) -> Iterator[BitsKey]:
    """:func:`game_positions` as the database keeps them (``(black, wm, wk, bm, bk)``
    square bitboards, :func:`~pdnkit.openings.table.square_bits`): the plies the compiled
    core replayed are read from its arrays, without a position object per ply (what the
    import's opening classification reads).

    Example:
        >>> from pdnkit.validation import validate
        >>> rep = next(validate('[GameType "20"] 1. 32-28 19-23 2. 28x19 *'))
        >>> [square_bits(p) for p in game_positions(rep)] == list(game_bits(rep))
        True
    """
    from pdnkit.validation.coreplies import CoreRun

    plain = report.plain
    if not isinstance(plain, CoreRun):  # the pure core, a worker's report, a full replay
        yield from map(square_bits, game_positions(report))
        return
    rep = plain.rep
    yield start_bits(plain.start)
    black = plain.black
    for i in range(len(plain)):
        state = rep.position(i, black)  # (black, wm, wk, bm, bk, king_moves)
        yield (state[0], state[1], state[2], state[3], state[4])
    # the rest of the main line (from a stop ply on, read in Python)
    yield from map(square_bits, _replayed_after(report, plain.start.rules))


def colours_swapped(start: Position) -> bool:
    """True when ``start`` is the variant's starting position seen from the other side (the
    starting placement with the other colour to move, as PlayStrategy's English checkers
    exports have it): the game is then read with the colours swapped.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> p = Position.initial(get_rules("english"))
        >>> colours_swapped(p), colours_swapped(p.with_side("W"))
        (False, True)
    """
    initial = Position.initial(start.rules)
    return bool(start != initial and mirror_position(start) == initial)


def classify_record(game: GameRecord | GameReport,
                    book: OpeningBook | None = None) -> Classification:
    """The opening of one game: a report's replayed positions, or a record replayed first
    (its rules from its tags, as :func:`pdnkit.validation.replay` decides them). ``book``
    defaults to the shipped tables of the game's variant. A game that starts from the
    starting placement with the other colour to move is read with the colours swapped
    (:func:`colours_swapped`; ``Classification.mirrored`` says so).

    Example:
        >>> from pdnkit.pdn import parse_game
        >>> classify_record(parse_game('[GameType "21"] 1. 9-13 22-18 6-9 *')).name
        'Dreaded Edinburgh'
    """
    from pdnkit.validation.report import GameReport

    if isinstance(game, GameReport):
        report = game
    else:
        from pdnkit.validation import replay

        report = replay(game)
    if report.variant is None:
        return Classification.empty()
    if book is None:
        book = load_tables(report.variant)
    elif book.variant != get_rules(report.variant).name:
        return Classification.empty()
    positions = list(game_positions(report))
    mirrored = bool(positions) and colours_swapped(positions[0])
    return book.classify(positions, mirrored=mirrored)
