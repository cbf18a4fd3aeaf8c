"""What the core differential tests share: the whole of a report as plain data, and running
the validator with the compiled core or with the Python replay alone in one process.

:func:`dump` writes every field a user or the loader can read from a report (the jsonl
object, every finding's fields, the rule events, the start and final positions, every ply
record with its move and positions, a compact report's run with its records); two runs are
the same when their dumps are equal. :func:`pure_core` switches this process to the pure
core (what ``PDNKIT_PURE=1`` does at import time), so the Python replay runs every ply.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from typing import Any

import pdnkit.core
from pdnkit.rules.fen import write_fen
from pdnkit.validation import validate
from pdnkit.validation.report import GameReport, PlyRecord

COMPILED = pdnkit.core.core_in_use() == "compiled"


@contextlib.contextmanager
def pure_core() -> Iterator[None]:
    """Run the validator on the pure core within the block (every ply replayed in Python)."""
    was = pdnkit.core._COMPILED
    pdnkit.core._COMPILED = False
    try:
        yield
    finally:
        pdnkit.core._COMPILED = was


def _ply(p: PlyRecord, deep: bool) -> dict[str, Any]:
    d = p.to_dict()
    if deep:
        m = p.move
        d["move"] = None if m is None else dataclasses.astuple(m)
        before, after = p.position_before, p.position_after
        d["before"] = None if before is None else (write_fen(before), before.king_moves)
        d["after"] = None if after is None else (write_fen(after), after.king_moves)
        d["capture"] = p.is_capture
    return d


def dump(rep: GameReport, deep: bool = True) -> dict[str, Any]:
    """Every field of ``rep`` as plain data (``deep``: the plies' moves and positions too)."""
    out = rep.to_dict()
    out["findings"] = [f.to_dict() for f in rep.findings]
    out["rule_events"] = [dataclasses.asdict(e) for e in rep.rule_events]
    out.update(start_fen=rep.start_fen, start_key=rep.start_key, start_counts=rep.start_counts,
               ply_count=rep.ply_count,
               final=None if rep.final_position is None else (
                   write_fen(rep.final_position), rep.final_position.king_moves))
    out["notation_map"] = rep.notation_map()
    # a compact report's run may end at another ply on the core (it takes every ply it
    # resolves): what it and the records after it hold together is compared
    run = rep.plain
    plies = list(rep.plies)
    if run is not None:
        records = run.records()
        assert len(records) == len(run) == len(run.notations()) == len(run.moves)
        assert [p.notation for p in records] == run.notations()
        assert [dataclasses.astuple(m) for m in run.moves] == [
            dataclasses.astuple(p.move) for p in records if p.move is not None]
        assert [write_fen(a) for a in run.afters] == [p.fen_after for p in records]
        plies = records + plies
    out["plies"] = [_ply(p, deep) for p in plies]
    return out


def dumps(source: Any, deep: bool = True, **options: Any) -> list[dict[str, Any]]:
    """The dumps of every report of ``validate(source, **options)``."""
    return [dump(r, deep) for r in validate(source, **options)]


def first_difference(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> str | None:
    """Where two runs' dumps first differ (``None``: they are equal)."""
    if len(a) != len(b):
        return f"{len(a)} reports against {len(b)}"
    for x, y in zip(a, b, strict=True):
        if x == y:
            continue
        where = f"{x.get('file')}#{x.get('index')}"
        for key in x:
            if x[key] != y.get(key):
                if isinstance(x[key], list) and isinstance(y.get(key), list):
                    for i, (u, v) in enumerate(zip(x[key], y[key], strict=False)):
                        if u != v:
                            return f"{where} {key}[{i}]: {u!r:.1500} != {v!r:.1500}"
                return f"{where} {key}: {x[key]!r:.1500} != {y.get(key)!r:.1500}"
        return f"{where}: keys differ"
    return None
