"""Board geometry: PDN square numbering, physical coordinates and the internal bit layout.

Only the playing (dark) squares exist for the engine. Every board is stored internally on a
*padded* ("ghost square") bit layout so that one diagonal step is a constant shift:

* internal rows ``ir`` run from White's far side (``ir = 0``) to White's own back row;
* each row holds ``w = width // 2`` playing squares, indexed ``k`` from White's left on an
  internal board whose bottom-left square is dark (boards with a light bottom-left corner,
  Italian/Spanish/Portuguese, are mirrored file-wise; the game is the same);
* bit of ``(ir, k)`` = ``ir * w + k + ir // 2``: after every pair of rows one bit is left
  empty (the ghost square), so down-left is ``+w``, down-right ``+w + 1``, up-right ``-w`` and
  up-left ``-(w + 1)`` on every square, and a step off the left/right edge lands on a ghost.

Boards on which every square is a playing square (Turkish, RULES.md 2.13; ``all_squares``)
use one ghost column instead: bit of ``(ir, c)`` = ``ir * (width + 1) + c``, so ``up`` is
``-(width + 1)``, ``left``/``right`` are ``-1``/``+1`` and the diagonals ``-(width + 1) +- 1``;
a step off the left or right edge again lands on a ghost.

Numbering schemes (RULES.md 1.8, PDN 3.0 section 11):

* ``"top-left"``: squares counted from the top-left playing square as seen by White, left to
  right, row by row downwards (international/frisian/canadian N2; English/pool N1 where 1 = b8;
  the lidraughts numeric squares of Russian/Brazilian/Czech; Italian on its mirrored board,
  where 1 = a8).
* ``"bottom-right"``: from White's bottom-right playing square, right to left, row by row
  upwards (Spanish/Portuguese ``N1,1``: 1 = h1, 32 = a8).
* ``"bottom-left"``: from White's bottom-left square, left to right, row by row upwards
  (Turkish on all 64 squares: 1 = a1, 8 = h1, 64 = h8, as pydraughts numbers them).

Example:
    >>> g = Geometry.get(10, 10)
    >>> g.num_squares, g.square_to_coords(1), g.square_to_coords(46)
    (50, (1, 9), (0, 0))
    >>> g.coords_to_square(0, 0), g.coords_to_square(1, 0)
    (46, None)
"""

from __future__ import annotations

from functools import cache

from pdnkit.errors import ArgumentError

__all__ = ["Geometry", "DIAGONALS", "ORTHOGONALS"]

#: Direction names. Diagonals are used by every variant; orthogonals by Frisian captures.
DIAGONALS: tuple[str, ...] = ("up-left", "up-right", "down-left", "down-right")
ORTHOGONALS: tuple[str, ...] = ("up", "down", "left", "right")


class Geometry:
    """One board layout: size, colour of the bottom-left corner and the numbering scheme.

    Obtain instances with :meth:`Geometry.get` (cached) or as ``rules.geometry``.

    Example:
        >>> g = Geometry.get(8, 8)           # English / Russian numeric (1 = b8)
        >>> g.square_to_coords(1), g.square_to_coords(29), g.square_to_coords(32)
        ((1, 7), (0, 0), (6, 0))
        >>> it = Geometry.get(8, 8, a1_dark=False)   # Italian (1 = a8, 32 = h1)
        >>> it.square_to_coords(1), it.square_to_coords(32)
        ((0, 7), (7, 0))
        >>> sp = Geometry.get(8, 8, a1_dark=False, numbering="bottom-right")  # Spanish
        >>> sp.square_to_coords(1), sp.square_to_coords(4), sp.square_to_coords(32)
        ((7, 0), (1, 0), (0, 7))
    """

    __slots__ = (
        "width",
        "height",
        "a1_dark",
        "numbering",
        "num_squares",
        "per_row",
        "_coords",
        "_by_coords",
        "bit_of",
        "square_of_bit",
        "board_mask",
        "row_of_bit",
        "shifts",
        "step_ok",
        "_promo",
        "main_diagonal",
        "all_squares",
    )

    def __init__(
        self, width: int, height: int, a1_dark: bool = True, numbering: str = "top-left",
        all_squares: bool = False,
    ) -> None:
        if width % 2 or height % 2 or width < 4 or height < 4:
            raise ArgumentError(f"unsupported board {width}x{height}: both sides must be even >= 4")
        if numbering not in ("top-left", "bottom-right", "bottom-left"):
            raise ArgumentError(f"unknown numbering scheme {numbering!r}")
        self.width = width
        self.height = height
        self.a1_dark = a1_dark
        self.numbering = numbering
        self.all_squares = all_squares
        w = width if all_squares else width // 2
        self.per_row = w
        self.num_squares = w * height
        # physical playing squares in numbering order
        dark = [
            (f, r)
            for r in range(height)
            for f in range(width)
            if all_squares or ((f + r) % 2 == 0) == a1_dark
        ]
        if numbering == "top-left":
            dark.sort(key=lambda fr: (-fr[1], fr[0]))
        elif numbering == "bottom-left":
            dark.sort(key=lambda fr: (fr[1], fr[0]))
        else:
            dark.sort(key=lambda fr: (fr[1], -fr[0]))
        self._coords: tuple[tuple[int, int], ...] = ((-1, -1), *dark)
        self._by_coords: dict[tuple[int, int], int] = {fr: i + 1 for i, fr in enumerate(dark)}
        bit_of = [-1]
        square_of_bit: dict[int, int] = {}
        row_of_bit: dict[int, int] = {}
        col_of_bit: dict[int, int] = {}
        board = 0
        for n, (f, r) in enumerate(dark, start=1):
            ir = height - 1 - r
            ic = f if a1_dark or all_squares else width - 1 - f  # internal a1 is dark
            bit = ir * (width + 1) + ic if all_squares else ir * w + ic // 2 + ir // 2
            bit_of.append(bit)
            square_of_bit[bit] = n
            row_of_bit[bit] = ir
            col_of_bit[bit] = ic
            board |= 1 << bit
        self.bit_of: tuple[int, ...] = tuple(bit_of)
        self.square_of_bit = square_of_bit
        self.row_of_bit = row_of_bit
        self.board_mask = board
        # signed shift per direction (positive = towards White's side = left shift), and
        # the step on the internal board it makes: (columns, rows); an orthogonal neighbour
        # is two squares away when only the dark squares play
        if all_squares:
            row = width + 1
            self.shifts: dict[str, int] = {
                "up-left": -(row + 1), "up-right": -(row - 1),
                "down-left": row - 1, "down-right": row + 1,
                "up": -row, "down": row, "left": -1, "right": 1,
            }
        else:
            self.shifts = {
                "up-left": -(w + 1),
                "up-right": -w,
                "down-left": w,
                "down-right": w + 1,
                "up": -(2 * w + 1),
                "down": 2 * w + 1,
                "left": -1,
                "right": 1,
            }
        o = 1 if all_squares else 2
        steps = {"up-left": (-1, -1), "up-right": (1, -1), "down-left": (-1, 1),
                 "down-right": (1, 1), "up": (0, -o), "down": (0, o), "left": (-o, 0),
                 "right": (o, 0)}
        # squares from which one step in a direction stays on the board (no wrap-around)
        step_ok: dict[str, int] = {}
        for name, s in self.shifts.items():
            dc, dr = steps[name]
            mask = 0
            for bit, ir in row_of_bit.items():
                t = bit + s
                if t in square_of_bit and row_of_bit[t] == ir + dr \
                        and col_of_bit[t] == col_of_bit[bit] + dc:
                    mask |= 1 << bit
            step_ok[name] = mask
        self.step_ok = step_ok
        top = 0
        bottom = 0
        for bit, ir in row_of_bit.items():
            if ir == 0:
                top |= 1 << bit
            elif ir == height - 1:
                bottom |= 1 << bit
        self._promo = (top, bottom)  # White promotes on the far (top) row, Black on the bottom
        # the long diagonal from White's near dark corner (a1-h8 on a1-dark boards, h1-a8 on
        # mirrored ones): internally always from the bottom-left square going up-right
        main = []
        bit = (height - 1) * (width + 1) if all_squares else (height - 1) * w + (height - 1) // 2
        while True:
            main.append(square_of_bit[bit])
            if not (step_ok["up-right"] >> bit) & 1:
                break
            bit += self.shifts["up-right"]
        self.main_diagonal: tuple[int, ...] = tuple(main)

    @staticmethod
    @cache
    def get(
        width: int, height: int, a1_dark: bool = True, numbering: str = "top-left",
        all_squares: bool = False,
    ) -> Geometry:
        """The cached geometry for a board layout.

        >>> Geometry.get(12, 12).num_squares
        72
        >>> t = Geometry.get(8, 8, numbering="bottom-left", all_squares=True)   # Turkish
        >>> t.num_squares, t.square_to_coords(1), t.square_to_coords(64)
        (64, (0, 0), (7, 7))
        """
        return Geometry(width, height, a1_dark, numbering, all_squares)

    def __repr__(self) -> str:
        extra = ", all_squares=True" if self.all_squares else ""
        return (
            f"Geometry({self.width}x{self.height}, a1_dark={self.a1_dark}, "
            f"numbering={self.numbering!r}{extra})"
        )

    def is_square(self, n: int) -> bool:
        """True when ``n`` is a square number of this board.

        >>> Geometry.get(8, 8).is_square(33)
        False
        """
        return isinstance(n, int) and 1 <= n <= self.num_squares

    def square_to_coords(self, n: int) -> tuple[int, int]:
        """``(file, rank)`` of square ``n``, 0-based from White's bottom-left on the physical board.

        >>> Geometry.get(10, 10).square_to_coords(50)
        (8, 0)
        """
        if not self.is_square(n):
            raise ArgumentError(f"square {n!r} is not on a {self.width}x{self.height} board")
        return self._coords[n]

    def coords_to_square(self, file: int, rank: int) -> int | None:
        """Square number at ``(file, rank)``, or ``None`` for a non-playing or off-board square.

        >>> Geometry.get(8, 8).coords_to_square(2, 2)   # c3
        22
        """
        return self._by_coords.get((file, rank))

    def promotion_squares(self, color: int) -> frozenset[int]:
        """Squares where a man of ``color`` (0 = White, 1 = Black) is crowned.

        >>> sorted(Geometry.get(10, 10).promotion_squares(0))
        [1, 2, 3, 4, 5]
        """
        mask = self._promo[int(color)]
        return frozenset(self.square_of_bit[b] for b in iter_bits(mask))

    def promotion_mask(self, color: int) -> int:
        """Internal bitboard of :meth:`promotion_squares`."""
        return self._promo[int(color)]

    def mask_of(self, squares: object) -> int:
        """Internal bitboard of an iterable of square numbers (raises ``ValueError`` if off-board).

        >>> g = Geometry.get(8, 8)
        >>> sorted(g.squares_of(g.mask_of([1, 32])))
        [1, 32]
        """
        m, bit_of, top = 0, self.bit_of, self.num_squares
        for n in squares:  # type: ignore[attr-defined]
            if not (isinstance(n, int) and 0 < n <= top):  # is_square, inlined: a hot loop
                raise ArgumentError(f"square {n!r} is not on a {self.width}x{self.height} board")
            m |= 1 << bit_of[n]
        return m

    def squares_of(self, mask: int) -> list[int]:
        """Square numbers of the set bits of an internal bitboard, in bit order."""
        sob = self.square_of_bit
        return [sob[b] for b in iter_bits(mask)]


def iter_bits(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, lowest first.

    >>> iter_bits(0b10110)
    [1, 2, 4]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
