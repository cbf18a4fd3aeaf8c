"""The pure-Python reference solver: one signature, over the rules engine's own moves.

It computes what the compiled solver (``pdnkit/core/src/egdb.c``) computes, code for code,
another way: every position of the signature is made a :class:`~pdnkit.rules.Position`, its
legal moves come from the reference engine (:meth:`Position.legal_moves`), each child is
located by the Python index (:mod:`pdnkit.egdb.index`), and the values are propagated
backwards over the explicit graph of moves inside the signature (no move is taken back).
A position without a legal move takes its value from :meth:`Position.winner`. It is slow
(tens of microseconds a position): made for the small sizes the tests compare, and for an
install without the compiled core.

Example:
    >>> from pdnkit.rules import get_rules
    >>> from pdnkit.egdb.index import Signature, decode_code
    >>> r = get_rules("english")
    >>> codes = solve(r, Signature(0, 1, 0, 0), lambda p: encode("loss", 0))
    >>> [decode_code(c) for c in codes[::32]]  # White to move; Black, without a piece
    [('win', 1), ('loss', 0)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pdnkit.egdb.index import Layout, Signature, encode, layout_of
from pdnkit.rules.position import Move, Position
from pdnkit.rules.variants import Rules

__all__ = ["Lookup", "Placement", "after", "locate", "lookup_in", "placement_of", "solve"]

#: a position as lists of squares: (side to move, white men, white kings, black men, black
#: kings), each list sorted
Placement = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
#: the code of a position of another signature (a capture or a promotion led to it)
Lookup = Callable[[Placement], int]
_GAP = -1


def placement_of(position: Position) -> Placement:
    """The :data:`Placement` of a position.

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> placement_of(parse_fen("B:W18,K3:BK2", get_rules("english")))
        (1, (18,), (3,), (), (2,))
    """
    return (int(position.side), tuple(sorted(position.white_men)),
            tuple(sorted(position.white_kings)), tuple(sorted(position.black_men)),
            tuple(sorted(position.black_kings)))


def after(placement: Placement, move: Move) -> Placement:
    """The placement after ``move`` (from :meth:`Position.legal_moves`): the piece from its
    origin to its destination, crowned if it promotes, the captured pieces removed.

    Example:
        >>> from pdnkit.rules import get_rules, parse_fen
        >>> p = parse_fen("W:W10:B7", get_rules("english"))
        >>> after(placement_of(p), p.legal_moves()[0])
        (1, (), (3,), (), ())
    """
    side, *lists = placement
    pieces = [list(x) for x in lists]
    own_m, own_k, opp_m, opp_k = pieces if side == 0 else pieces[2:] + pieces[:2]
    if move.is_king:
        own_k.remove(move.origin)
        own_k.append(move.destination)
    else:
        own_m.remove(move.origin)
        (own_k if move.promotes else own_m).append(move.destination)
    for c in move.captured:
        (opp_k if c in opp_k else opp_m).remove(c)
    wm, wk, bm, bk = (tuple(sorted(x)) for x in pieces)
    return 1 - side, wm, wk, bm, bk


def locate(rules: Rules, placement: Placement,
           lay: Layout | None = None) -> tuple[Signature, int] | None:
    """The signature and the slot (``side * half + index``) of a placement; ``None`` when a
    man stands where the index has no place for it (its promotion row, or a square
    no man of its side reaches from the start).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> locate(get_rules("english"), (1, (), (1,), (), (2,)))
        (Signature(wm=0, wk=1, bm=0, bk=1), 992)
    """
    lay = lay or layout_of(rules)
    side, wm, wk, bm, bk = placement
    found = lay.index(wm, wk, bm, bk)
    if found is None:
        return None
    sig, idx = found
    return sig, side * lay.half(sig) + idx


def _terminal(position: Position) -> int:
    return encode("win" if position.winner() == position.side else "loss", 0)


class _Graph:
    """The positions of one signature and the moves between them."""

    def __init__(self, n: int) -> None:
        self.val = [0] * n
        self.rem = [0] * n
        self.nolose = [False] * n
        self.preds: list[list[int]] = [[] for _ in range(n)]
        self.win_at = [0] * n
        self.dec_at = [0] * n
        self.frontier: list[int] = []


def _look(rules: Rules, sig: Signature, slot: int, g: _Graph, lookup: Lookup) -> None:
    lay = layout_of(rules)
    half = lay.half(sig)
    side, idx = divmod(slot, half)
    placed = lay.decode(sig, idx)
    if placed is None:
        g.val[slot] = _GAP
        return
    wm, wk, bm, bk = placed
    p = Position.from_squares(rules, side, white_men=wm, white_kings=wk, black_men=bm,
                              black_kings=bk)
    moves = p.legal_moves()
    if not moves:
        g.val[slot] = _terminal(p)
        g.frontier.append(slot)
        return
    here: Placement = (side, tuple(wm), tuple(wk), tuple(bm), tuple(bk))
    inside = 0
    for m in moves:
        child = after(here, m)
        at = locate(rules, child, lay)
        if at is not None and at[0] == sig:
            inside += 1
            g.preds[at[1]].append(slot)
            continue
        code = lookup(child)
        if code == 0:
            g.nolose[slot] = True
        elif (code - 1) & 1:  # the child wins: this move loses
            g.dec_at[slot] = max(g.dec_at[slot], ((code - 1) >> 1) + 1)
        else:
            g.nolose[slot] = True
            at_ply = ((code - 1) >> 1) + 1
            g.win_at[slot] = at_ply if not g.win_at[slot] else min(g.win_at[slot], at_ply)
    g.rem[slot] = inside + (1 if g.dec_at[slot] else 0)

def _decided(g: _Graph, slot: int, child_won: bool, ply: int, out: list[int]) -> None:
    if g.val[slot]:
        return
    if not child_won:
        g.val[slot] = encode("win", ply)
        out.append(slot)
        return
    g.rem[slot] -= 1
    if g.rem[slot] == 0 and not g.nolose[slot]:
        g.val[slot] = encode("loss", ply)
        out.append(slot)


def solve(rules: Rules, sig: Signature, lookup: Lookup) -> list[int]:
    """The codes of every slot of ``sig`` (White to move, then Black; ``0`` for a gap as
    for a draw). ``lookup`` gives the code of a position of another signature.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> r = get_rules("russian")
        >>> len(solve(r, Signature(0, 0, 0, 1), lambda p: 0))
        64
    """
    half = layout_of(rules).half(sig)
    g = _Graph(2 * half)
    for slot in range(2 * half):
        _look(rules, sig, slot, g, lookup)
    events: dict[int, list[tuple[int, bool]]] = {}
    for slot in range(2 * half):
        if g.win_at[slot]:
            events.setdefault(g.win_at[slot], []).append((slot, False))
        if g.dec_at[slot]:
            events.setdefault(g.dec_at[slot], []).append((slot, True))
    last = max(events, default=0)
    ply = 0
    while g.frontier or ply < last:
        ply += 1
        new: list[int] = []
        for slot in g.frontier:
            child_won = bool((g.val[slot] - 1) & 1)
            for pred in g.preds[slot]:
                _decided(g, pred, child_won, ply, new)
        for slot, child_won in events.get(ply, ()):
            _decided(g, slot, child_won, ply, new)
        g.frontier = new
    return [0 if v == _GAP else v for v in g.val]


def lookup_in(rules: Rules, tables: dict[Signature, Sequence[int]]) -> Lookup:
    """A :data:`Lookup` over solved signatures (their codes by slot).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> look = lookup_in(get_rules("english"), {Signature(0, 1, 0, 0): [4] * 32 + [1] * 32})
        >>> look((1, (), (5,), (), ()))
        1
    """
    def look(placement: Placement) -> int:
        at = locate(rules, placement)
        if at is None or at[0] not in tables:
            raise KeyError(f"no solved signature holds {placement!r}")
        return tables[at[0]][at[1]]

    return look
