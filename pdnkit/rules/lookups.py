"""The move generator's tables as plain data in PDN square numbers (for the compiled core).

:func:`engine_tables` reads the tables that :mod:`pdnkit.rules._movegen` builds for a rules
record and gives them back square by square, in the order the generator uses them (that
order decides which route of a capture the generator lists first, so a second generator
that walks the same lists in the same order finds the same moves). Everything is a tuple of
ints; nothing here depends on a variant's name.

Example:
    >>> from pdnkit.rules import get_rules
    >>> t = engine_tables(get_rules("international"))
    >>> t.squares, t.man_jumps[0][31], t.man_steps[0][31]     # square 32
    (50, ((27, 21), (28, 23), (37, 41), (38, 43)), (27, 28))
"""

from __future__ import annotations

from dataclasses import dataclass

from pdnkit.rules._movegen import engine_for
from pdnkit.rules.variants import Rules

__all__ = ["EngineTables", "engine_tables"]

#: per square (index = square - 1): a tuple of squares
PerSquare = tuple[tuple[int, ...], ...]
#: per square: a tuple of (captured square, landing square) jumps
Jumps = tuple[tuple[tuple[int, int], ...], ...]
#: per square: a tuple of rays, each the squares from the next one to the edge
Rays = tuple[tuple[tuple[int, ...], ...], ...]


@dataclass(frozen=True)
class EngineTables:
    """The generator's tables for one rules record, in PDN square numbers.

    Per side, index 0 is White and 1 Black; per square, index ``n - 1`` is square ``n``.
    ``man_jumps``/``king_jumps``: the short jumps (captured, landing) in search order;
    ``rays``: the kings' capture rays (flying kings), ``quiet_rays``: the kings' quiet
    rays (the first square only for short kings); ``man_steps``: a man's quiet steps;
    ``dir_rays``/``opposite``/``man_dirs``/``king_dirs``: the direction-aware search of
    ``Rules.no_reversal`` (one ray per direction, empty ones kept; the opposite of each
    direction, -2 for none); ``promotion``: the squares where each side crowns;
    ``engine_bits``: the bit of each square in the engine's own layout (what
    :func:`pdnkit.rules.position.position_key` mixes).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> t = engine_tables(get_rules("english"))
        >>> t.king_jumps[21]                # square 22 (short kings)
        ((17, 13), (18, 15), (25, 29), (26, 31))
        >>> t.quiet_rays[21]
        ((17,), (18,), (25,), (26,))
    """

    squares: int
    man_jumps: tuple[Jumps, Jumps]
    king_jumps: Jumps
    rays: Rays
    quiet_rays: Rays
    man_steps: tuple[PerSquare, PerSquare]
    dir_rays: Rays
    opposite: tuple[int, ...]
    man_dirs: tuple[tuple[int, ...], tuple[int, ...]]
    king_dirs: tuple[int, ...]
    promotion: tuple[tuple[int, ...], tuple[int, ...]]
    engine_bits: tuple[int, ...]


def engine_tables(rules: Rules) -> EngineTables:
    """The tables of the generator for ``rules`` (see :class:`EngineTables`).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> t = engine_tables(get_rules("turkish"))
        >>> t.squares, len(t.dir_rays[0]), t.opposite
        (64, 4, (1, 0, 3, 2, -2))
    """
    eng = engine_for(rules)
    g = eng.geometry
    sob = g.square_of_bit
    n = int(g.num_squares)
    bits = [int(g.bit_of[s]) for s in range(1, n + 1)]

    def jumps(table: list[tuple[tuple[int, int, int], ...]]) -> Jumps:
        return tuple(tuple((sob[m.bit_length() - 1], sob[li]) for m, _lm, li in table[b])
                     for b in bits)

    def rays(table: list[tuple[tuple[tuple[int, int], ...], ...]]) -> Rays:
        return tuple(tuple(tuple(sob[j] for _m, j in ray) for ray in table[b]) for b in bits)

    def steps(white: bool) -> PerSquare:
        by_origin: dict[int, list[int]] = {}
        for i, j in eng.man_step_pairs[white]:  # one pass over the pairs, not one a square
            by_origin.setdefault(i, []).append(sob[j])
        return tuple(tuple(sorted(by_origin.get(b, ()))) for b in bits)

    lines = eng.lines
    dir_rays: Rays = ()
    opposite: tuple[int, ...] = ()
    man_dirs: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    king_dirs: tuple[int, ...] = ()
    if lines is not None:
        dir_rays = rays(lines.dir_rays)
        opposite = tuple(int(x) for x in lines.opposite)
        man_dirs = (tuple(lines.man_dir_ids[True]), tuple(lines.man_dir_ids[False]))
        king_dirs = tuple(lines.king_dir_ids)
    return EngineTables(
        squares=n,
        man_jumps=(jumps(eng.man_jumps[True]), jumps(eng.man_jumps[False])),
        king_jumps=jumps(eng.king_jumps),
        rays=rays(eng.rays),
        quiet_rays=rays(eng.qrays),
        man_steps=(steps(True), steps(False)),
        dir_rays=dir_rays,
        opposite=opposite,
        man_dirs=man_dirs,
        king_dirs=king_dirs,
        promotion=(tuple(sorted(g.promotion_squares(0))), tuple(sorted(g.promotion_squares(1)))),
        engine_bits=tuple(bits),
    )
