"""Helpers of the endgame-database tests: both solvers over the same signatures, and an
independent solver that knows nothing of the index."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from pdnkit.egdb.backend import CompiledBackend, PureBackend, backend_for, codes_of
from pdnkit.egdb.files import Table
from pdnkit.egdb.index import Signature, build_order, decode_code, layout_of, leads_to
from pdnkit.rules import Position
from pdnkit.rules.variants import Rules, list_variants


def egdb_variants() -> list[Rules]:
    """Every rules record the databases take: one per distinct set of move rules (editions
    that play the same moves share their databases), Frisian's refused."""
    from pdnkit.egdb.files import rules_digest

    seen: dict[bytes, Rules] = {}
    for r in list_variants():
        if not r.king_move_limit:
            seen.setdefault(rules_digest(r), r)
    return list(seen.values())


def compiled(rules: Rules) -> CompiledBackend:
    b = backend_for(rules)
    if not isinstance(b, CompiledBackend):
        pytest.skip("the compiled core is not in use")
    return b


def solve_all(backend: CompiledBackend | PureBackend,
              sigs: Iterable[Signature]) -> dict[Signature, Table]:
    """Solve ``sigs`` and everything they lead to, in build order."""
    wanted = {s for sig in sigs for s in leads_to(sig)}
    out = {}
    for sig in build_order(max(s.pieces for s in wanted)):
        if sig in wanted:
            out[sig] = backend.solve(sig)
            backend.add(sig, out[sig])
    return out


def naive_values(rules: Rules, sigs: Iterable[Signature]) -> dict[Position, tuple[str, int | None]]:
    """Every position of ``sigs`` and of what they lead to, solved by value iteration over the
    rules engine's positions themselves (no index, no counting, no move taken back): at pass t
    a position is a win in t plies if a move leads to a loss in t - 1, a loss in t plies if
    every move leads to a win decided before and one of them in t - 1; a position without a
    move takes its value from Position.winner(). Undecided at the fixpoint: a draw."""
    lay = layout_of(rules)
    positions = []
    for sig in {s for target in sigs for s in leads_to(target)}:
        for idx in range(lay.half(sig)):
            placed = lay.decode(sig, idx)
            if placed is None:
                continue
            wm, wk, bm, bk = placed
            for side in "WB":
                positions.append(Position.from_squares(rules, side, wm, wk, bm, bk))
    children = {p: [p.play(m) for m in p.legal_moves()] for p in positions}
    value: dict[Position, tuple[str, int | None]] = {}
    for p, kids in children.items():
        if not kids:
            value[p] = ("win" if p.winner() == p.side else "loss", 0)
    t = 0
    while True:
        t += 1
        new = {}
        for p, kids in children.items():
            if p in value:
                continue
            got = [value.get(c) for c in kids]
            if any(g is not None and g[0] == "loss" and g[1] == t - 1 for g in got):
                new[p] = ("win", t)
            elif all(g is not None and g[0] == "win" for g in got) and any(
                    g is not None and g[1] == t - 1 for g in got):
                new[p] = ("loss", t)
        if not new:
            break
        value.update(new)
    return {p: value.get(p, ("draw", None)) for p in positions}


def table_value(tables: dict[Signature, Table], position: Position) -> tuple[str, int | None]:
    """A position's value in solved tables (through the Python index)."""
    lay = layout_of(position.rules)
    found = lay.index(sorted(position.white_men), sorted(position.white_kings),
                      sorted(position.black_men), sorted(position.black_kings))
    assert found is not None
    sig, idx = found
    return decode_code(codes_of(tables[sig])[int(position.side) * lay.half(sig) + idx])
