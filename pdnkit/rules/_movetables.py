"""The move generator's tables, built once per set of move rules (internal).

:func:`build_tables` reads fields of the :class:`~pdnkit.rules.variants.Rules` record (never
the variant's name) and the board's :class:`~pdnkit.rules.geometry.Geometry`, and gives every
table :class:`~pdnkit.rules._movegen.Engine` searches, as a :class:`MoveTables` record. The
steps: the directions pieces move and capture in (:class:`Directions`, RULES.md 2.0), the
per-square jump and ray tables of the capture search, the whole-board shift descriptors of the
capture test and the move count, and the direct quiet-move test.

Example:
    >>> from pdnkit.rules.variants import get_rules
    >>> t = build_tables(get_rules("english"))
    >>> len(t.king_jumps[t.board.bit_length() - 1]) > 0, t.lines is None
    (True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from pdnkit.rules.variants import Rules

#: per square (engine bit index): the short jumps ``(captured mask, landing mask, landing bit)``
Jumps = list[tuple[tuple[int, int, int], ...]]
#: per square: one ray per direction, each ``(mask, bit)`` from the next square to the edge
RayTable = list[tuple[tuple[tuple[int, int], ...], ...]]
#: a whole-board shift: ``(shift, towards bit 0?, mask of the squares it may start from)``
Shift = tuple[int, bool, int | None]

_DIAGONALS = ("up-left", "up-right", "down-left", "down-right")
_OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left",
             "up-left": "down-right", "down-right": "up-left",
             "up-right": "down-left", "down-left": "up-right"}


class LineTables(NamedTuple):
    """What :class:`~pdnkit.rules._movegen.LinesEngine` adds to an engine's tables: per square
    one ray per capture direction (``dir_rays``), each direction's opposite (``opposite``,
    index -1: none yet; -2: no opposite), the men's and kings' capture directions by index,
    and the men's quiet steps as ``(shift, left?, mask)`` per side."""

    dir_rays: list[tuple[tuple[tuple[int, int], ...], ...]]
    opposite: tuple[int, ...]
    man_dir_ids: dict[bool, tuple[int, ...]]
    king_dir_ids: tuple[int, ...]
    man_step_desc: dict[bool, tuple[tuple[int, bool, int | None], ...]]


@dataclass(frozen=True)
class MoveTables:
    """Every table of one engine (the attributes :class:`~pdnkit.rules._movegen.Engine` keeps;
    per side, ``True`` is White)."""

    board: int
    promo: tuple[int, int]
    man_jumps: dict[bool, Jumps]
    king_jumps: Jumps
    rays: RayTable
    qrays: RayTable
    man_cap_desc: dict[bool, tuple[Shift, ...]]
    king_cap_desc: tuple[Shift, ...]
    man_steps: dict[bool, tuple[int, int]]
    lines: LineTables | None
    diag_desc: tuple[Shift, ...]
    man_step_pairs: dict[bool, frozenset[tuple[int, int]]]
    king_paths: dict[tuple[int, int], int]
    men_only_precedence: int


@dataclass(frozen=True)
class Directions:
    """The directions of a rule set (RULES.md 2.0): ``lines`` the pieces move along (the
    diagonals, or ranks and files in Turkish), ``king_capture`` the kings' capture directions
    (Frisian adds the orthogonals), and per side the men's quiet and capture directions.

    >>> from pdnkit.rules.variants import get_rules
    >>> d = Directions.of(get_rules("russian"))
    >>> d.man_step[True], d.man_capture[True]
    (('up-left', 'up-right'), ('up-left', 'up-right', 'down-left', 'down-right'))
    """

    lines: tuple[str, ...]
    king_capture: tuple[str, ...]
    man_step: dict[bool, tuple[str, ...]]
    man_capture: dict[bool, tuple[str, ...]]

    @staticmethod
    def of(rules: Rules) -> Directions:
        """The directions the fields of ``rules`` give."""
        ortho: tuple[str, ...] = ("up", "down", "left", "right") if rules.orthogonal_captures \
            else ()
        fwd: dict[bool, tuple[str, ...]] = {True: ("up-left", "up-right"),
                                            False: ("down-left", "down-right")}
        lines: tuple[str, ...] = _DIAGONALS
        sideways: tuple[str, ...] = ("left", "right") if rules.men_move_sideways else ()
        if rules.orthogonal_moves:
            lines = ("up", "down", "left", "right")
            fwd = {True: ("up",), False: ("down",)}
            ortho = ()
        step = {w: fwd[w] + sideways for w in (True, False)}

        def capture(white: bool) -> tuple[str, ...]:
            if rules.orthogonal_moves:  # forward and sideways, backward too if allowed
                back = fwd[not white] if rules.men_capture_backward else ()
                return step[white] + back
            dirs: tuple[str, ...] = _DIAGONALS if rules.men_capture_backward else fwd[white]
            if rules.orthogonal_captures:
                forward_orth: tuple[str, ...] = ("up",) if white else ("down",)
                dirs = dirs + (ortho if rules.men_capture_backward
                               else forward_orth + ("left", "right"))
            return dirs + sideways

        return Directions(lines, lines + ortho, step, {w: capture(w) for w in (True, False)})


def build_tables(rules: Rules) -> MoveTables:
    """Every table of the engine for ``rules`` (built once: :func:`engine_for` caches
    engines)."""
    g = rules.geometry
    sh = g.shifts
    ok = g.step_ok
    bits = sorted(g.square_of_bit)

    def nxt(i: int, d: str) -> int:
        return i + sh[d] if (ok[d] >> i) & 1 else -1

    dirs = Directions.of(rules)
    rays, qrays = _ray_tables(bits, nxt, dirs, rules.flying_kings)

    def desc(d: str) -> Shift:
        s = sh[d]
        mask = None if d in _DIAGONALS or d in ("up", "down") else ok[d]
        return (abs(s), s > 0, mask)

    lines = None
    if rules.orthogonal_moves or rules.men_move_sideways or rules.no_reversal:
        lines = _line_tables(bits, nxt, dirs, g.square_of_bit, desc)
    return MoveTables(
        board=g.board_mask,
        promo=(g.promotion_mask(0), g.promotion_mask(1)),
        man_jumps={w: _jumps(bits, nxt, dirs.man_capture[w]) for w in (True, False)},
        king_jumps=_jumps(bits, nxt, dirs.king_capture),
        rays=rays,
        qrays=qrays,
        man_cap_desc={w: tuple(_two_step(bits, nxt, desc(d), d) for d in dirs.man_capture[w])
                      for w in (True, False)},
        king_cap_desc=tuple(desc(d) for d in dirs.king_capture),
        man_steps={True: (abs(sh["up-left"]), abs(sh["up-right"])),
                   False: (sh["down-left"], sh["down-right"])},
        lines=lines,
        diag_desc=tuple(desc(d) for d in dirs.lines),
        man_step_pairs={w: _step_pairs(bits, nxt, dirs.man_step[w]) for w in (True, False)},
        king_paths=_king_paths(bits, qrays),
        men_only_precedence=_men_only_precedence(rules),
    )


def _jumps(bits: list[int], nxt: Callable[[int, str], int], dirs: tuple[str, ...]) -> Jumps:
    """Per square, the short jumps in ``dirs``: ``(captured mask, landing mask, landing)``."""
    table: Jumps = [()] * (max(bits) + 1)
    for i in bits:
        out = []
        for d in dirs:
            m = nxt(i, d)
            if m < 0:
                continue
            ln = nxt(m, d)
            if ln < 0:
                continue
            out.append((1 << m, 1 << ln, ln))
        table[i] = tuple(out)
    return table


def _walk(i: int, d: str, nxt: Callable[[int, str], int]) -> tuple[tuple[int, int], ...]:
    """The ray from square ``i`` in direction ``d``: ``(mask, bit)`` to the edge."""
    out = []
    j = nxt(i, d)
    while j >= 0:
        out.append((1 << j, j))
        j = nxt(j, d)
    return tuple(out)


def _ray_tables(bits: list[int], nxt: Callable[[int, str], int], dirs: Directions,
                flying: bool) -> tuple[RayTable, RayTable]:
    """Per square, the kings' capture rays (the non-empty ones, in the order of
    ``dirs.king_capture``) and their quiet rays (along the lines only; the first square
    only for short kings)."""
    rays: RayTable = [()] * (max(bits) + 1)
    qrays: RayTable = [()] * (max(bits) + 1)
    for i in bits:
        per_dir = []
        qper = []
        for d in dirs.king_capture:
            ray = _walk(i, d, nxt)
            if ray:
                per_dir.append(ray)
                if d in dirs.lines:
                    qper.append(ray if flying else ray[:1])
        rays[i] = tuple(per_dir)
        qrays[i] = tuple(qper)
    return rays, qrays


def _line_tables(bits: list[int], nxt: Callable[[int, str], int], dirs: Directions,
                 squares: dict[int, int], desc: Callable[[str], Shift]) -> LineTables:
    """The direction-aware search's tables (:class:`LineTables`): per square one ray per
    capture direction (empty off the board), each direction's opposite (-2: none; index
    -1: no jump yet), the men's capture directions and quiet steps."""
    kc = dirs.king_capture
    dir_rays = [tuple(_walk(i, d, nxt) for d in kc) if i in squares else ()
                for i in range(max(bits) + 1)]
    opposite = tuple(kc.index(_OPPOSITE[d]) if _OPPOSITE[d] in kc else -2 for d in kc) + (-2,)
    man_dir_ids = {w: tuple(kc.index(d) for d in dirs.man_capture[w]) for w in (True, False)}
    return LineTables(dir_rays, opposite, man_dir_ids, tuple(range(len(kc))),
                      {w: tuple(desc(d) for d in dirs.man_step[w]) for w in (True, False)})


def _two_step(bits: list[int], nxt: Callable[[int, str], int], shift: Shift, d: str) -> Shift:
    """A man's capture shift: ``shift`` with the mask of the squares from which two steps
    in ``d`` stay in the row (where the row matters: sideways shifts)."""
    s, left, mask = shift
    if mask is not None:
        m2 = 0
        for i in bits:
            if nxt(i, d) >= 0 and nxt(nxt(i, d), d) >= 0:
                m2 |= 1 << i
        mask = m2
    return (s, left, mask)


def _step_pairs(bits: list[int], nxt: Callable[[int, str], int],
                dirs: tuple[str, ...]) -> frozenset[tuple[int, int]]:
    """Every (origin, destination) of a man's quiet step."""
    pairs = set()
    for i in bits:
        for d in dirs:
            j = nxt(i, d)
            if j >= 0:
                pairs.add((i, j))
    return frozenset(pairs)


def _king_paths(bits: list[int], qrays: RayTable) -> dict[tuple[int, int], int]:
    """For a king's quiet move (origin, destination): the mask of every square from the
    origin (exclusive) to the destination (inclusive), which must be empty."""
    king_paths: dict[tuple[int, int], int] = {}
    for i in bits:
        for ray in qrays[i]:
            acc = 0
            for m, j in ray:
                acc |= m
                king_paths[(i, j)] = acc
    return king_paths


def _men_only_precedence(rules: Rules) -> int:
    """How ``Position._play_capture`` ranks a capture when no king is on the board: 0 =
    use ``captures()``; 1 = no key ranks captures of men alone; 2 = only the number of
    pieces taken does (``king_capturer`` and ``max_kings`` rank nothing without a king)."""
    keys = set(rules.capture_precedence or ())
    if rules.promotion_during_capture == "king" or keys - {"max_count", "max_value",
                                                           "king_capturer", "max_kings"}:
        return 0
    if keys & {"max_count", "max_value"}:
        return 2
    return 1
