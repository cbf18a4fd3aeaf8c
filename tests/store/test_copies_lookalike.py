"""The hidden set's look-alike (tests/copies_lookalike.py, from the shared real files):
every copy grouped with its original, no decoy grouped, the original standing for every
group, and the statistics of the database of originals and decoys equal to those of the one
with the copies too, whichever comes first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pdnkit.store import import_files
from tests.copies_kit import by_location
from tests.copies_lookalike import build
from tests.shared import shared_path


def answers(db: Path, events: list[str]) -> dict[str, object]:
    """What must not change: players, openings by name, results, and each event's
    crosstable, as JSON."""
    from pdnkit.stats import crosstable, named_openings, players, results

    def js(df: object) -> object:
        return json.loads(df.to_json(orient="records", date_format="iso"))  # type: ignore[attr-defined]

    # (whole rows: by name, every code of the name's games and their tables, in order)
    openings = named_openings(db, by="name")
    return {"players": js(players(db)), "openings": js(openings),
            "results": js(results(db, by=["variant", "event", "year"])),
            **{f"crosstable {e}": js(crosstable(db, event=e)) for e in events}}


def _first_difference(a: object, b: object) -> str:
    if isinstance(a, list) and isinstance(b, list):
        for x, y in zip(a, b, strict=False):
            if x != y:
                return f"{x} != {y}"
        return f"{len(a)} rows != {len(b)} rows"
    return "?"


def check(tmp_path: Path, *, seed: int, per_file: int) -> None:
    root = shared_path("real").parent
    la = build(root, tmp_path / "set", seed=seed, per_file=per_file)
    assert la.copy_of and la.decoy_places
    base = tmp_path / "base.duckdb"
    import_files([*la.originals, *la.decoys], db=base)
    expected = answers(base, la.events)
    problems: list[str] = []
    for first in ("variants", "originals"):
        db = tmp_path / f"{first}-first.duckdb"
        batches = ([la.variants, [*la.originals, *la.decoys]] if first == "variants" else
                   [[*la.originals, *la.decoys], la.variants])
        for batch in batches:
            import_files(batch, db=db)
        got = by_location(db)
        for copy, original in la.copy_of.items():
            if got[copy][0] != original:
                problems.append(f"{first} first: {copy} ({la.how[copy]}) -> {got[copy][0]}, "
                                f"not {original}")
        for original in set(la.copy_of.values()):
            if got[original][0] is not None:
                problems.append(f"{first} first: original {original} -> {got[original]}")
        for decoy in la.decoy_places:
            joined = [k for k, v in got.items() if v[0] == decoy]
            if got[decoy] != (None, None) or joined:
                problems.append(f"{first} first: decoy {decoy} grouped: {got[decoy]} {joined}")
        now = answers(db, la.events)
        problems += [f"{first} first: {k} differs: {_first_difference(expected[k], now[k])}"
                     for k in expected if now[k] != expected[k]]
    assert not problems, "\n".join(problems)


def test_a_small_look_alike(tmp_path: Path) -> None:
    check(tmp_path, seed=2024, per_file=5)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_larger_look_alikes(tmp_path: Path, seed: int) -> None:
    check(tmp_path, seed=seed, per_file=25)
