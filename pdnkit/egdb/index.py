"""The index of the endgame databases: material signatures, their positions, value codes.

A *signature* is the material on the board: White's men and kings, Black's men and kings
(:class:`Signature`). Its positions are numbered per side to move (a *half* each, White to
move first) as the compiled core numbers them (``pdnkit/core/src/egdb.h``): the white men
on the squares a white man may stand on (:func:`man_squares`: every square a white man can
reach from the start but White's promotion squares, where a man would have been crowned;
Turkish men, which start one rank up and never step back, never stand on their own back
rank), then the black men on Black's, then the white kings on the
squares the men left free, then the black kings on what is left; each set of squares by the
combinatorial number system in square order. A slot where a white and a black man share a
square is a gap, not a position: :meth:`Layout.positions` counts the positions exactly, the
figure published for checkers (Schaeffer et al., "Checkers Is Solved", Science 2007, table
1; OEIS A055213).

A value is one *code* for the side to move: ``0`` a draw, else ``1 + 2 * plies + win``
(:func:`decode_code`), ``plies`` the length of the game to its end with best play.

Example:
    >>> from pdnkit.rules import get_rules
    >>> lay = Layout(get_rules("english"))
    >>> [sum(lay.positions(s) for s in signatures(n)) for n in (1, 2, 3)]
    [120, 6972, 261224]
    >>> decode_code(4), decode_code(0)
    (('win', 1), ('draw', None))
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from functools import cache
from math import comb
from typing import TYPE_CHECKING, NamedTuple

from pdnkit.errors import ArgumentError

if TYPE_CHECKING:
    from pdnkit.rules.variants import Rules

__all__ = ["MAX_PIECES", "Layout", "Signature", "build_order", "decode_code", "encode",
           "layout_of", "leads_to", "man_squares", "signatures"]

#: the most pieces a signature may hold (the compiled core's EG_MAXP)
MAX_PIECES = 8


class Signature(NamedTuple):
    """The material of a position: White's men and kings, Black's men and kings."""

    wm: int
    wk: int
    bm: int
    bk: int

    @property
    def pieces(self) -> int:
        """The number of pieces on the board."""
        return self.wm + self.wk + self.bm + self.bk

    @property
    def men(self) -> int:
        """The number of men on the board."""
        return self.wm + self.bm

    @property
    def name(self) -> str:
        """The name of its file, ``wm1wk0bm0bk2``."""
        return f"wm{self.wm}wk{self.wk}bm{self.bm}bk{self.bk}"

    @property
    def label(self) -> str:
        """Readable: ``"2K v K"``, ``"K+M v 2M"``, ``"K v -"``.

        Example:
            >>> Signature(1, 2, 2, 0).label
            '2K+M v 2M'
        """
        def side(men: int, kings: int) -> str:
            parts = [f"{n if n > 1 else ''}{c}" for n, c in ((kings, "K"), (men, "M")) if n]
            return "+".join(parts) or "-"

        return f"{side(self.wm, self.wk)} v {side(self.bm, self.bk)}"

    @classmethod
    def parse(cls, text: str) -> Signature:
        """A signature from its :attr:`name` (``wm1wk0bm0bk2``); ``ValueError`` otherwise.

        Example:
            >>> Signature.parse("wm0wk2bm0bk1")
            Signature(wm=0, wk=2, bm=0, bk=1)
        """
        import re

        m = re.fullmatch(r"wm(\d)wk(\d)bm(\d)bk(\d)", text)
        if not m:
            raise ArgumentError(f"not a signature name: {text!r}")
        return cls(*(int(g) for g in m.groups()))


def signatures(pieces: int) -> list[Signature]:
    """Every signature of ``pieces`` pieces, in the order they are built: fewest men first
    (a promotion leads to a signature with one man fewer and one king more), then by name.

    Example:
        >>> [s.label for s in signatures(1)]
        ['- v K', 'K v -', '- v M', 'M v -']
    """
    out = [Signature(wm, wk, bm, pieces - wm - wk - bm)
           for wm in range(pieces + 1) for wk in range(pieces + 1 - wm)
           for bm in range(pieces + 1 - wm - wk)]
    return sorted(out, key=lambda s: (s.men, s))


def build_order(pieces: int) -> list[Signature]:
    """Every signature of 1 to ``pieces`` pieces, in the order they are built.

    Example:
        >>> len(build_order(2)), build_order(2)[-1].label
        (14, '2M v -')
    """
    return [s for n in range(1, pieces + 1) for s in signatures(n)]


def leads_to(sig: Signature) -> list[Signature]:
    """Every signature a game from ``sig`` can reach (``sig`` included), in build order:
    pieces are only taken off and men only crowned, never the reverse.

    Example:
        >>> [s.label for s in leads_to(Signature(0, 2, 0, 1))]
        ['- v K', 'K v -', 'K v K', '2K v -', '2K v K']
    """
    return [s for s in build_order(sig.pieces)
            if s.wm <= sig.wm and s.bm <= sig.bm and s.wm + s.wk <= sig.wm + sig.wk
            and s.bm + s.bk <= sig.bm + sig.bk]


def encode(value: str, plies: int | None) -> int:
    """The code of a value (see the module's text).

    Example:
        >>> encode("loss", 0), encode("win", 1), encode("draw", None)
        (1, 4, 0)
    """
    if value == "draw":
        return 0
    if plies is None or plies < 0:
        raise ArgumentError("a win or a loss has a number of plies")
    return 1 + 2 * plies + (value == "win")


def decode_code(code: int) -> tuple[str, int | None]:
    """``(value, plies)`` of a code: ``"win"``, ``"draw"`` or ``"loss"`` for the side to move,
    and the plies to the end of the game (``None`` for a draw).

    Example:
        >>> decode_code(1), decode_code(5)
        (('loss', 0), ('loss', 2))
    """
    if code == 0:
        return "draw", None
    return ("win" if (code - 1) & 1 else "loss"), (code - 1) >> 1


@cache
def _binom(n: int) -> tuple[tuple[int, ...], ...]:
    """``_binom(n)[a][k]`` is C(a, k) for a up to n and k up to MAX_PIECES."""
    return tuple(tuple(comb(a, k) for k in range(MAX_PIECES + 1)) for a in range(n + 1))


def _unrank(x: int, k: int, pool: list[int], binom: tuple[tuple[int, ...], ...]) -> list[int]:
    """The ``k`` members of the sorted ``pool`` whose combinatorial rank is ``x``."""
    out = []
    c = len(pool) - 1
    for i in range(k, 0, -1):
        while binom[c][i] > x:
            c -= 1
        x -= binom[c][i]
        out.append(pool[c])
        c -= 1
    out.reverse()
    return out


def man_squares(rules: Rules, side: int) -> list[int]:
    """The squares a man of ``side`` (0 White, 1 Black) may stand on in a game: those of the
    start and every square a man's steps and jumps reach from them (the rules record's
    tables, never the variant's name), less the side's promotion squares.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> len(man_squares(get_rules("english"), 0)), len(man_squares(get_rules("turkish"), 0))
        (28, 48)
        >>> min(man_squares(get_rules("turkish"), 1)), max(man_squares(get_rules("turkish"), 1))
        (9, 56)
    """
    from pdnkit.rules.lookups import engine_tables
    from pdnkit.rules.position import Position

    start = Position.initial(rules)
    t = engine_tables(rules)
    seen = set(start.black_men if side else start.white_men)
    todo = list(seen)
    while todo:  # a man on a promotion square mid-capture may go on: expand from it too
        o = todo.pop()
        for d in (*t.man_steps[side][o - 1], *(land for _, land in t.man_jumps[side][o - 1])):
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return sorted(seen - set(t.promotion[side]))


class Layout:
    """The index of one variant's board (see the module's text), in PDN square numbers.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> lay = Layout(get_rules("international"))
        >>> lay.half(Signature(0, 1, 0, 1)), len(lay.man_squares[0])
        (2450, 45)
    """

    def __init__(self, rules: Rules) -> None:
        g = rules.geometry
        self.squares = g.num_squares
        self.man_squares: tuple[list[int], list[int]] = (man_squares(rules, 0),
                                                         man_squares(rules, 1))
        #: every square but the promotion squares: the index of format 1 (digest, files)
        self.all_squares = all(
            len(self.man_squares[c]) == self.squares - len(g.promotion_squares(c))
            for c in (0, 1))
        self._rank = tuple({n: i for i, n in enumerate(sq)} for sq in self.man_squares)
        self._binom = _binom(self.squares)
        self._halves: dict[Signature, int] = {}

    def half(self, sig: Signature) -> int:
        """Slots per side to move, gaps included."""
        hit = self._halves.get(sig)
        if hit is None:
            free = self.squares - sig.wm - sig.bm
            hit = 0 if free < sig.wk + sig.bk else (
                comb(len(self.man_squares[0]), sig.wm) * comb(len(self.man_squares[1]), sig.bm)
                * comb(free, sig.wk) * comb(free - sig.wk, sig.bk))
            self._halves[sig] = hit
        return hit

    def positions(self, sig: Signature) -> int:
        """Positions of the signature, one side to move: the slots less the gaps."""
        white, black = (set(x) for x in self.man_squares)
        shared = len(white & black)
        men = sum(comb(len(white) - shared, a) * comb(shared, sig.wm - a)
                  * comb(len(black) - (sig.wm - a), sig.bm) for a in range(sig.wm + 1))
        free = self.squares - sig.wm - sig.bm
        return men * comb(free, sig.wk) * comb(max(free - sig.wk, 0), sig.bk)

    def index(self, wm: Sequence[int], wk: Sequence[int], bm: Sequence[int],
              bk: Sequence[int]) -> tuple[Signature, int] | None:
        """The signature and the index (in its half) of a placement (each list of squares
        sorted); ``None`` when a man stands on a square not in :attr:`man_squares`."""
        rank_w, rank_b, binom = self._rank[0], self._rank[1], self._binom
        iw = ib = ikw = ikb = 0
        try:
            for i, n in enumerate(wm, 1):
                iw += binom[rank_w[n]][i]
            for i, n in enumerate(bm, 1):
                ib += binom[rank_b[n]][i]
        except KeyError:
            return None
        men = sorted((*wm, *bm)) if wm and bm else (wm or bm)
        for i, n in enumerate(wk, 1):  # a king's rank: its square less the men below it
            ikw += binom[n - 1 - bisect_left(men, n)][i]
        taken = sorted((*men, *wk)) if wk else men
        for i, n in enumerate(bk, 1):
            ikb += binom[n - 1 - bisect_left(taken, n)][i]
        sig = Signature(len(wm), len(wk), len(bm), len(bk))
        free = self.squares - sig.wm - sig.bm
        idx = (((iw * binom[len(rank_b)][sig.bm] + ib) * binom[free][sig.wk] + ikw)
               * binom[free - sig.wk][sig.bk] + ikb)
        return sig, idx

    def decode(self, sig: Signature, idx: int) -> tuple[list[int], ...] | None:
        """``(white men, white kings, black men, black kings)`` at an index, each sorted;
        ``None`` for a gap."""
        binom = self._binom
        free_n = self.squares - sig.wm - sig.bm
        idx, ikb = divmod(idx, binom[free_n - sig.wk][sig.bk])
        idx, ikw = divmod(idx, binom[free_n][sig.wk])
        iw, ib = divmod(idx, binom[len(self.man_squares[1])][sig.bm])
        wm = _unrank(iw, sig.wm, self.man_squares[0], binom)
        bm = _unrank(ib, sig.bm, self.man_squares[1], binom)
        if set(wm) & set(bm):
            return None
        men = set(wm) | set(bm)
        free = [n for n in range(1, self.squares + 1) if n not in men]
        wk = _unrank(ikw, sig.wk, free, binom)
        bk = _unrank(ikb, sig.bk, [n for n in free if n not in wk], binom) if sig.bk else []
        return wm, wk, bm, bk


_LAYOUTS: dict[int, tuple[Rules, Layout]] = {}


def layout_of(rules: Rules) -> Layout:
    """The :class:`Layout` of a rules record, made once.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> layout_of(get_rules("english")) is layout_of(get_rules("english"))
        True
    """
    hit = _LAYOUTS.get(id(rules))
    if hit is None or hit[0] is not rules:
        hit = _LAYOUTS[id(rules)] = (rules, Layout(rules))
    return hit[1]
