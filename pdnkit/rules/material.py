"""Material conditions of the draw rules: which pieces must be on the board for a counting
rule to run (:data:`MATERIAL_CONDITIONS`, each also as data, :class:`CountPattern`, for the
compiled core's draw loop), and the main road of a board. :mod:`pdnkit.rules.draw` holds the
tracker that uses them (and gives these names too).

>>> MATERIAL_CONDITIONS["kings-only-1-vs-1"](
...     {"white_men": 0, "white_kings": 1, "black_men": 0, "black_kings": 1})
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from pdnkit.errors import ArgumentError

if TYPE_CHECKING:  # pragma: no cover - typing only
    from pdnkit.rules.variants import Rules

__all__ = ["ANY", "LONE_KING", "MATERIAL_CONDITIONS", "WITH_KING", "Counts", "CountPattern",
           "MaterialCondition", "Placement", "main_road_squares", "material_holds"]

Counts = Mapping[str, int]


class Placement(Protocol):
    """What a material condition may read of a position besides its counts: the rules
    record, the squares of each kind and the piece counts (a :class:`~pdnkit.rules.Position`,
    or the compiled replay's light position of a ply)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def white_men(self) -> frozenset[int]: ...
    @property
    def white_kings(self) -> frozenset[int]: ...
    @property
    def black_men(self) -> frozenset[int]: ...
    @property
    def black_kings(self) -> frozenset[int]: ...
    def counts(self) -> dict[str, int]: ...

# --------------------------------------------------------------------------------------------
# Material conditions
# --------------------------------------------------------------------------------------------


def main_road_squares(rules: Rules) -> frozenset[int]:
    """The squares of the board's long diagonal made of playing squares (the "main road",
    a1-h8 on a Russian board), as PDN square numbers.

    Derived from the geometry: of the two corner-to-corner diagonals of a square board, the
    one whose corners are playing squares. Empty for boards without one.

    >>> from pdnkit.rules import get_rules
    >>> sorted(main_road_squares(get_rules("russian")))  # h8 g7 f6 e5 d4 c3 b2 a1
    [4, 8, 11, 15, 18, 22, 25, 29]
    """
    cached = _MAIN_ROAD_CACHE.get(id(rules))
    if cached is not None and cached[0] is rules:
        return cached[1]
    geo = rules.geometry
    width, height = int(rules.width), int(rules.height)
    squares: frozenset[int] = frozenset()
    if width == height:
        for diagonal in (
            [(i, i) for i in range(width)],
            [(width - 1 - i, i) for i in range(width)],
        ):
            numbers = [geo.coords_to_square(f, r) for f, r in diagonal]
            if all(n is not None for n in numbers):
                squares = frozenset(int(n) for n in numbers if n is not None)
                break
    _MAIN_ROAD_CACHE[id(rules)] = (rules, squares)
    return squares


_MAIN_ROAD_CACHE: dict[int, tuple[Any, frozenset[int]]] = {}


def _split(c: Counts) -> tuple[tuple[int, int], tuple[int, int]]:
    """((white men, white kings), (black men, black kings))."""
    return (c["white_men"], c["white_kings"]), (c["black_men"], c["black_kings"])


def _lone_king_against(c: Counts, strong_ok: Callable[[int, int], bool]) -> bool:
    """One side has exactly one piece, a king; the other side's (men, kings) pass
    ``strong_ok``."""
    w, b = _split(c)
    return (w == (0, 1) and strong_ok(*b)) or (b == (0, 1) and strong_ok(*w))


def _any(c: Counts, p: Placement | None) -> bool:
    return True


def _both_have_kings(c: Counts, p: Placement | None) -> bool:
    return c["white_kings"] >= 1 and c["black_kings"] >= 1


def _total(c: Counts) -> int:
    return c["white_men"] + c["white_kings"] + c["black_men"] + c["black_kings"]


def _lone_vs_3_with_king(c: Counts, p: Placement | None) -> bool:
    return _lone_king_against(c, lambda men, kings: kings >= 1 and men + kings == 3)


def _lone_vs_2_with_king(c: Counts, p: Placement | None) -> bool:
    return _lone_king_against(c, lambda men, kings: kings >= 1 and men + kings <= 2)


def _lone_vs_3plus_kings(c: Counts, p: Placement | None) -> bool:
    return _lone_king_against(c, lambda men, kings: men == 0 and kings >= 3)


def _lone_on_main_road_vs_3(c: Counts, p: Placement | None) -> bool:
    if not _lone_vs_3_with_king(c, p):
        return False
    if p is None:
        raise TypeError("lone-king-on-main-road-vs-3 needs a Position, not piece counts")
    road = main_road_squares(p.rules)
    # The lone king is the side whose only piece is a king; with 1 v 3 the sides differ.
    lone, others = (
        (p.white_kings, p.black_men | p.black_kings)
        if c["white_men"] + c["white_kings"] == 1
        else (p.black_kings, p.white_men | p.white_kings)
    )
    # lidraughts reading of Russian 7.2.7: the lone king holds the main road alone.
    return bool(lone & road) and not (others & road)


def _both_kings_pieces(low: int, high: int) -> Callable[[Counts, Placement | None], bool]:
    def test(c: Counts, p: Placement | None) -> bool:
        return _both_have_kings(c, p) and low <= _total(c) <= high

    return test


def _kings_only(strong: int, weak: int) -> Callable[[Counts, Placement | None], bool]:
    def test(c: Counts, p: Placement | None) -> bool:
        w, b = _split(c)
        return (w == (0, strong) and b == (0, weak)) or (w == (0, weak) and b == (0, strong))

    return test


#: no upper bound in a :class:`CountPattern`
ANY = 255


class CountPattern(tuple[tuple[int, ...], tuple[int, ...], tuple[int, int], bool]):
    """A material condition as data (what the compiled core reads): ``(side, other,
    total, road)``. ``side`` and ``other`` are ``(men_lo, men_hi, kings_lo, kings_hi,
    pieces_lo, pieces_hi)`` bounds (inclusive, :data:`ANY` for none) for one side and the
    other, ``total`` bounds the pieces on the board, and the pattern holds when one colour
    fits ``side`` and the other ``other`` (either way round). ``road``: moreover the lone
    king of ``side`` stands on the main road with no other piece on it
    (:func:`main_road_squares`). ``tests/rules`` holds every pattern to its condition's
    function on every count of pieces up to 13 a kind.

    >>> LONE_KING
    (0, 0, 1, 1, 1, 1)
    """

    __slots__ = ()

    def __new__(cls, side: tuple[int, ...], other: tuple[int, ...],
                total: tuple[int, int] = (0, ANY), road: bool = False) -> CountPattern:
        return super().__new__(cls, (side, other, total, road))

    def holds(self, c: Counts) -> bool:
        """Whether the counts fit (the ``road`` part aside).

        >>> MATERIAL_CONDITIONS["kings-only-2-vs-1"].pattern.holds(
        ...     {"white_men": 0, "white_kings": 1, "black_men": 0, "black_kings": 2})
        True
        """
        side, other, total, _ = self
        w, b = _split(c)
        if not total[0] <= w[0] + w[1] + b[0] + b[1] <= total[1]:
            return False
        return (_fits(w, side) and _fits(b, other)) or (_fits(b, side) and _fits(w, other))


def _fits(mk: tuple[int, int], bounds: tuple[int, ...]) -> bool:
    men, kings = mk
    return (bounds[0] <= men <= bounds[1] and bounds[2] <= kings <= bounds[3]
            and bounds[4] <= men + kings <= bounds[5])


#: a side whose only piece is a king
LONE_KING = (0, 0, 1, 1, 1, 1)
#: a side with at least one king
WITH_KING = (0, ANY, 1, ANY, 0, ANY)


class MaterialCondition:
    """A named material condition, callable with a ``Position`` or with a counts mapping
    (``white_men``, ``white_kings``, ``black_men``, ``black_kings``); ``pattern`` is the same
    condition as data (:class:`CountPattern`, ``None`` for ``any``).

    >>> MATERIAL_CONDITIONS["both-have-kings"](
    ...     {"white_men": 4, "white_kings": 1, "black_men": 0, "black_kings": 1})
    True
    """

    __slots__ = ("name", "description", "needs_position", "needs_kings", "always", "_test",
                 "pattern")

    def __init__(
        self,
        name: str,
        test: Callable[[Counts, Placement | None], bool],
        description: str,
        needs_position: bool = False,
        needs_kings: bool = True,
        always: bool = False,
        pattern: CountPattern | None = None,
    ) -> None:
        self.name = name
        self.description = description
        self.needs_position = needs_position
        #: the condition can only hold with at least one king on the board (lets the tracker
        #: skip counting pieces while there is none)
        self.needs_kings = needs_kings
        #: the condition holds for every position
        self.always = always
        self._test = test
        self.pattern = pattern

    def test(self, counts: Counts, position: Placement | None = None) -> bool:
        """Evaluate on already computed counts (and the position when one is needed)."""
        return self._test(counts, position)

    def __call__(self, position_or_counts: Placement | Counts) -> bool:
        if isinstance(position_or_counts, Mapping):
            return self._test(position_or_counts, None)
        return self._test(position_or_counts.counts(), position_or_counts)

    def __repr__(self) -> str:
        return f"MaterialCondition({self.name!r})"


def _mc(
    name: str,
    test: Callable[[Counts, Placement | None], bool],
    description: str,
    pattern: CountPattern | None,
    needs_position: bool = False,
) -> MaterialCondition:
    # every condition but "any" involves a king of some side
    always = test is _any
    return MaterialCondition(name, test, description, needs_position, needs_kings=not always,
                             always=always, pattern=pattern)


#: Material conditions by name (docs/architecture.md section 6). Each is true after a move
#: when the rule using it should be counting. "Lone king" = a side whose only piece is a king;
#: either colour may be the lone side.
MATERIAL_CONDITIONS: dict[str, MaterialCondition] = {
    m.name: m
    for m in [
        _mc("any", _any, "always", None),
        _mc("both-have-kings", _both_have_kings, "each side has at least one king",
            CountPattern(WITH_KING, WITH_KING)),
        _mc("lone-king-vs-3-with-king", _lone_vs_3_with_king,
            "a lone king against exactly 3 pieces including at least one king (FMJD 6.3)",
            CountPattern(LONE_KING, (0, ANY, 1, ANY, 3, 3))),
        _mc("lone-king-vs-2-with-king", _lone_vs_2_with_king,
            "a lone king against 1 or 2 pieces including at least one king "
            "(FMJD 6.4, Russian 7.2.8)",
            CountPattern(LONE_KING, (0, ANY, 1, ANY, 0, 2))),
        _mc("lone-king-vs-3plus-kings", _lone_vs_3plus_kings,
            "a lone king against 3 or more kings and no men (Russian 7.2.4)",
            CountPattern(LONE_KING, (0, 0, 3, ANY, 0, ANY))),
        _mc("lone-king-on-main-road-vs-3", _lone_on_main_road_vs_3,
            "a lone king standing on the main road, with no other piece on it, against exactly "
            "3 pieces including at least one king (Russian 7.2.7, lidraughts reading)",
            CountPattern(LONE_KING, (0, ANY, 1, ANY, 3, 3), road=True), needs_position=True),
        _mc("both-kings-4-5-pieces", _both_kings_pieces(4, 5),
            "each side has a king and there are 4 or 5 pieces on the board (Russian 7.2.6)",
            CountPattern(WITH_KING, WITH_KING, (4, 5))),
        _mc("both-kings-6-7-pieces", _both_kings_pieces(6, 7),
            "each side has a king and there are 6 or 7 pieces on the board (Russian 7.2.6)",
            CountPattern(WITH_KING, WITH_KING, (6, 7))),
        _mc("kings-only-2-vs-1", _kings_only(2, 1),
            "two kings against one king, no men (Frisian art. 18)",
            CountPattern((0, 0, 2, 2, 2, 2), LONE_KING)),
        _mc("kings-only-1-vs-1", _kings_only(1, 1),
            "one king against one king, no men (Frisian art. 21.1)",
            CountPattern(LONE_KING, LONE_KING)),
        _mc("kings-only-3-vs-1", _kings_only(3, 1),
            "three kings against one king, no men (Canadian, American pool)",
            CountPattern((0, 0, 3, 3, 3, 3), LONE_KING)),
    ]
}


def material_holds(name: str, position: Placement | Counts) -> bool:
    """Whether the named material condition holds for a position (or piece counts).

    Raises ``ValueError`` for an unknown condition name.

    >>> material_holds("kings-only-1-vs-1",
    ...                {"white_men": 0, "white_kings": 1, "black_men": 0, "black_kings": 1})
    True
    """
    try:
        cond = MATERIAL_CONDITIONS[name]
    except KeyError:
        raise ArgumentError(
            f"unknown material condition {name!r}; known: {', '.join(sorted(MATERIAL_CONDITIONS))}"
        ) from None
    return cond(position)
