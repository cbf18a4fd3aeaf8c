"""Records of short main lines are compared only with groups that share a player with them
(:func:`pdnkit.store.copyrules.person_keys`): on seeded generated records, with names
written many ways (initials, a surname alone, Cyrillic letters, another person of the same
surname), partial dates, rounds and events, the groups are those every group compared
gives (the keys made one for every name)."""

from __future__ import annotations

import random

import pytest

from pdnkit.store import copyrules
from pdnkit.store.copyrules import Record, Tags, partition

_NAMES = ["Tinsley, M.F.", "Marion Tinsley", "Tinsley", "R. Tinsley", "Абациев Н.",
          "Abatsiev", "N. Abatsiev", "Jan Smit", "Piet Smit", "Smit", "van den Akker, J.",
          "Jeroen van den Akker", "Gérard", "GERARD", "?", None]
_DATES = ["2001.05.02", "2001.05.??", "2001", "2002.01.01", None]


def _records(seed: int, n: int) -> list[Record]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        tags = Tags.of(rng.choice(_NAMES), rng.choice(_NAMES), rng.choice(_DATES),
                       rng.choice(["1", "2", "1.1", None]), rng.choice(["Cup", "Cup 2001", None]),
                       None, rng.choice(["1-0", "0-1", "*"]))
        line, plies = rng.choice([("a", 8), ("b", 12), ("c", 30), ("d", 24)])
        out.append(Record(i, line, plies, tags.result, rng.randint(3, 9), rng.randint(0, 1),
                          "/a.pdn", i, tags))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_short_lines_group_as_when_every_group_is_compared(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    records = _records(seed, 300)
    prefixes = [("d", "c")]  # (a line of 24 plies that starts one of 30)
    got = partition(records, prefixes, different=[(0, 1)])
    monkeypatch.setattr(copyrules, "person_keys", lambda name: ("",))
    every = partition(records, prefixes, different=[(0, 1)])
    assert got == every
    assert len({a.canonical for a in got.values()}) < len(records)  # some records grouped
    assert any(a.ambiguous for a in got.values()) or seed  # (seed 0: a tie somewhere)
