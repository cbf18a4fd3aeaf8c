"""A variant as the compiled core reads it: the rules record and the engine's tables, packed.

:func:`pack_table` turns a :class:`~pdnkit.rules.variants.Rules` record into a flat sequence of
32-bit integers (the blob ``src/table.c`` reads and checks); :func:`table_for` gives the
compiled table of a record, built once. Nothing here or in the C code looks at a variant's
name: the fields below are all the core knows.

The blob, in order (squares are PDN numbers, 1-based; sides 0 = White, 1 = Black):

* ``MAGIC``, ``VERSION``, squares, width, height;
* flags: flying kings, king lands right behind its victim, immediate removal, promotion during
  a capture (0 pass, 1 king, 2 stop), men capture kings, king-move limit (0: none), the first
  king wins, direction-aware search (no 180-degree turn), the capture separator is ``-``;
* the precedence keys: their number, then each (:data:`PRECEDENCE_CODES`);
* per side: the number of promotion squares, then the squares;
* per square: its bit in the engine's layout; per square: file and rank (0-based);
* per side, per square: the man's jumps (count, then captured and landing square each);
* per square: the king's short jumps (the same form);
* per square: the kings' capture rays, then their quiet rays (count, then each ray's length
  and squares);
* per side, per square: the man's quiet steps (count, then the squares);
* the direction-aware search: number of directions (0: none), each one's opposite (-2: none),
  per square and direction the ray (length, squares), per side the men's directions (count,
  ids), the kings' directions (count, ids);
* ``MAGIC`` again.

Example:
    >>> from pdnkit.rules import get_rules
    >>> blob = pack_table(get_rules("international"))
    >>> blob is not None and blob[:3].tolist() == [MAGIC, VERSION, 50]
    True
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any

from pdnkit.rules.lookups import EngineTables, engine_tables

if TYPE_CHECKING:
    from pdnkit.rules.variants import Rules

__all__ = ["MAGIC", "PRECEDENCE_CODES", "VERSION", "pack_table", "table_for"]

MAGIC = 0x50444E4B
VERSION = 1
#: the capture precedence keys the core knows (pdnkit.rules.variants.CAPTURE_KEYS)
PRECEDENCE_CODES = {"max_count": 1, "max_value": 2, "king_capturer": 3, "max_kings": 4,
                    "first_king_earliest": 5}
_PROMOTION = {"pass": 0, "king": 1, "stop": 2}
#: the core's limits (src/core.h): squares, directions per square, squares per ray, board side
_MAXSQ, _MAXDIR, _MAXRAY, _MAXSIDE = 128, 8, 32, 16


class _Unsupported(Exception):
    """A rules record the core's fixed limits cannot hold (it replays in Python)."""


def _count(n: int, limit: int) -> int:
    if n > limit:
        raise _Unsupported
    return n


def _rule_fields(rules: Rules, out: array[int]) -> None:
    try:
        promotion = _PROMOTION[rules.promotion_during_capture]
        keys = [PRECEDENCE_CODES[k] for k in rules.capture_precedence]
    except KeyError:
        raise _Unsupported from None
    out.extend([int(bool(rules.flying_kings)), int(bool(rules.king_lands_behind)),
                int(rules.removal == "immediate"), promotion, int(bool(rules.men_capture_kings)),
                int(rules.king_move_limit or 0), int(bool(rules.wins_on_promotion)),
                int(bool(rules.no_reversal)), int(rules.capture_separator == "-")])
    out.append(_count(len(keys), 8))
    out.extend(keys)


def _jumps(out: array[int], per_square: Any) -> None:
    for jumps in per_square:
        out.append(_count(len(jumps), _MAXDIR))
        for captured, landing in jumps:
            out.extend((captured, landing))


def _rays(out: array[int], per_square: Any) -> None:
    for rays in per_square:
        out.append(_count(len(rays), _MAXDIR))
        for ray in rays:
            out.append(_count(len(ray), _MAXRAY))
            out.extend(ray)


def _directional(t: EngineTables, rules: Rules, out: array[int]) -> None:
    ndir = len(t.opposite) - 1 if t.opposite else 0
    if not rules.no_reversal:
        ndir = 0
    out.append(_count(ndir, _MAXDIR))
    out.extend(t.opposite[:ndir])
    if ndir:
        for rays in t.dir_rays:
            if len(rays) != ndir:
                raise _Unsupported
            for ray in rays:
                out.append(_count(len(ray), _MAXRAY))
                out.extend(ray)
    for side in (0, 1):
        dirs = t.man_dirs[side] if ndir else ()
        out.append(_count(len(dirs), _MAXDIR))
        out.extend(dirs)
    dirs = t.king_dirs if ndir else ()
    out.append(_count(len(dirs), _MAXDIR))
    out.extend(dirs)


def pack_table(rules: Rules) -> array[int] | None:
    """The core's blob for ``rules``, or ``None`` when the record does not fit the core's
    limits (more than 128 squares, a board side over 16, an unknown precedence key...).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> len(pack_table(get_rules("russian"))) > 100
        True
    """
    try:
        t = engine_tables(rules)
        g = rules.geometry
        out = array("i", [MAGIC, VERSION, _count(t.squares, _MAXSQ),
                          _count(int(rules.width), _MAXSIDE), _count(int(rules.height), _MAXSIDE)])
        _rule_fields(rules, out)
        for side in (0, 1):
            out.append(len(t.promotion[side]))
            out.extend(t.promotion[side])
        out.extend(t.engine_bits)
        for n in range(1, t.squares + 1):
            out.extend(g.square_to_coords(n))
        for side in (0, 1):
            _jumps(out, t.man_jumps[side])
        _jumps(out, t.king_jumps)
        _rays(out, t.rays)
        _rays(out, t.quiet_rays)
        for side in (0, 1):
            for steps in t.man_steps[side]:
                out.append(_count(len(steps), _MAXDIR))
                out.extend(steps)
        _directional(t, rules, out)
        out.append(MAGIC)
    except _Unsupported:
        return None
    return out


_TABLES: dict[tuple[int, int], tuple[Any, Any]] = {}


def table_for(rules: Rules, build: Any) -> Any:
    """The compiled table of ``rules`` made by ``build`` (the extension's ``table``) from
    :func:`pack_table`, cached per record; ``None`` when the record does not fit the core.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> table_for(get_rules("english"), len) > 100
        True
    """
    key = (id(rules), id(build))
    hit = _TABLES.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    blob = pack_table(rules)
    table = None if blob is None else build(blob.tobytes())
    _TABLES[key] = (rules, table)
    return table
