"""A node of the explorer: the position a move sequence (or a FEN) reaches, as the page
draws it, with the legal moves from it and the opening the tables name it.

The position is found as :func:`pdnkit.stats.tree` finds it (:func:`pdnkit.stats.positions_at`:
the rules engine plays the moves, the stored games where it cannot), so the board the page
shows is the node whose moves the tree lists. Every square and move is the rules engine's;
the page only draws them.

Example:
    >>> from pdnkit.store import connect
    >>> n = node(connect(":memory:"), moves="32-28 19-23", variant="international")
    >>> n["side"], n["placement"][27], n["placement"][22], "28x19" in [m["move"] for m in n["legal"]]
    ('W', 'w', 'b', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pdnkit.errors import ArgumentError
from pdnkit.store.session import DbLike, reading

if TYPE_CHECKING:  # pragma: no cover
    from pdnkit.rules import Position, Rules

__all__ = ["node"]


def node(db: DbLike = None, *, variant: str, moves: str | Sequence[str] | None = None,
         fen: str | None = None) -> dict[str, Any]:
    """The node of ``variant`` after ``moves`` from the initial position, at ``fen``, or
    after ``moves`` from ``fen`` (the rules engine plays them; neither: the initial
    position) as a dict: ``variant``, ``fen``, ``side`` (``W``/``B`` to
    move), ``placement`` (one character a square, square 1 first: ``w W b B .``), ``opening``
    (the ballots, codes and names of the opening tables whose position this is, as the
    tree's ``opening`` column names them; ``None`` for none), ``legal`` (each legal move:
    ``move`` in canonical notation, its ``path`` and ``captured`` squares) and ``last`` (the
    last of ``moves`` the same way, to draw it; ``None`` without moves, or where the rules
    engine did not play them: an irregular move the games hold). A move that is not legal,
    or a FEN that is no position of the variant, raises ``ValueError`` naming it.

    >>> from pdnkit.store import connect
    >>> node(connect(":memory:"), variant="english")["opening"] is None
    True
    """
    if not variant:
        raise ArgumentError("a node needs its variant")
    from pdnkit.openings.labels import entries_label
    from pdnkit.rules import Position, get_rules
    from pdnkit.stats.positions import positions_at
    from pdnkit.store.openingdb import opening_book

    rules = get_rules(variant)
    if fen and moves:  # a set-up position and moves from it: the rules engine plays them
        pos, last = _played(rules, fen, moves)
        with reading(db) as con:
            book = opening_book(con, rules.name)
        return _node_json(rules, pos, entries_label(book.lookup(pos)), last)
    with reading(db) as con:
        found = positions_at(con, fen=fen, moves=moves, variant=rules.name)
        if found.empty and (fen or moves):
            raise ArgumentError(f"no position of {rules.name} there")
        if found.empty:  # no game of the variant stored: its initial position
            pos = Position.initial(rules)
        else:
            row = found.iloc[0]
            n = int(rules.geometry.num_squares)
            squares = [[s for s in range(1, n + 1) if int(row[c]) >> (s - 1) & 1]
                       for c in ("wm", "wk", "bm", "bk")]
            pos = Position.from_squares(rules, "B" if bool(row["black"]) else "W", *squares)
        book = opening_book(con, rules.name)
    return _node_json(rules, pos, entries_label(book.lookup(pos)), _last_move(rules, fen, moves))


def _node_json(rules: Rules, pos: Position, opening: str | None,
               last: dict[str, Any] | None) -> dict[str, Any]:
    """A node as :func:`node` gives it."""
    from pdnkit.rules import write_fen
    from pdnkit.rules.notation import canonical_notation
    from pdnkit.viewer.plies import placement_of

    legal = pos.legal_moves()
    side = str(pos.side)[:1].upper()
    return {
        "variant": rules.name,
        "fen": write_fen(pos),
        "side": "B" if side == "B" else "W",
        "placement": placement_of(pos),
        "opening": opening,
        "legal": [{"move": canonical_notation(m, pos, legal), "path": list(m.path),
                   "captured": list(m.captured)} for m in legal],
        "last": last,
    }


def _played(rules: Rules, fen: str | None,
            moves: str | Sequence[str] | None) -> tuple[Position, dict[str, Any] | None]:
    """The position after ``moves`` played by the rules engine from the start (or ``fen``)
    and the last of them (canonical text, path, captured squares; ``None`` without moves).
    A move that is not one legal move there raises ``ValueError`` naming it.

    >>> from pdnkit.rules import get_rules
    >>> _played(get_rules("international"), None, "1. 32-28 19-23 2. 28x19")[1]
    {'move': '28x19', 'path': [28, 19], 'captured': [23]}
    """
    import re

    from pdnkit.rules import Position, match_move, parse_fen
    from pdnkit.rules.notation import canonical_notation

    tokens = [t for t in (re.sub(r"^\d+\.+", "", x) for x in (
        moves.split() if isinstance(moves, str) else list(moves or []))) if t]
    pos = parse_fen(fen, rules) if fen else Position.initial(rules)
    last = None
    for i, tok in enumerate(tokens):
        legal = pos.legal_moves()
        found = [m for m in legal if canonical_notation(m, pos, legal).lower() == tok.lower()]
        if not found:
            try:
                found = list(match_move(pos, tok, legal))
            except ValueError:  # text that is no move at all
                found = []
        if len(found) != 1:
            where = f"after {' '.join(tokens[:i])}" if i else (
                "in the FEN's position" if fen else "from the start")
            what = "ambiguous" if found else "not legal"
            raise ArgumentError(f"move {i + 1} {tok!r} is {what} {where} (in {rules.name})")
        m = found[0]
        last = {"move": canonical_notation(m, pos, legal), "path": list(m.path),
                "captured": list(m.captured)}
        pos = pos.play(m)
    return pos, last


def _last_move(rules: Rules, fen: str | None,
               moves: str | Sequence[str] | None) -> dict[str, Any] | None:
    """The last of ``moves`` as :func:`_played` gives it, ``None`` where the rules engine
    does not play them (an irregular move the games hold)."""
    try:
        return _played(rules, fen, moves)[1]
    except ValueError:
        return None
