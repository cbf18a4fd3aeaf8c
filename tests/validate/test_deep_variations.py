"""Variations nested to any depth replay without recursion (an explicit stack)."""

from __future__ import annotations

import time

import pytest

from tests.validate.helpers import run


def _nested(depth: int, innermost: str) -> str:
    """A game whose first move has a variation, whose first move has one ... ``depth`` deep,
    the deepest holding ``innermost``."""
    return ("1. 32-28 " + "(1. 33-29 " * depth + f"(1. {innermost}) " + ")" * depth
            + " 19-23 *")


@pytest.mark.parametrize("depth", [5_000, pytest.param(50_000, marks=pytest.mark.slow)])
def test_deeply_nested_variations_replay(depth: int) -> None:
    start = time.process_time()
    rep = run(_nested(depth, "32-22"), variant="international")
    assert time.process_time() - start < 120  # a hang check, not a timing
    assert rep.replayed_plies == 2
    assert [f.code for f in rep.findings] == ["illegal-move"]  # the deepest move only
    f = rep.findings[0]
    assert f.in_variation and f.ply == 1 and f.move == "32-22"


def test_variation_findings_come_in_depth_first_order() -> None:
    # 1. 32-28 (1. 33-29 (1. 31-22) 19-24 (19-25) ) 19-23: the nested bad move comes before
    # the bad second move of the outer variation
    rep = run("1. 32-28 (1. 33-29 (1. 31-22) 19-24 (1... 20-13)) 19-23 *",
              variant="international")
    assert [(f.code, f.move) for f in rep.findings] == [("illegal-move", "31-22"),
                                                       ("illegal-move", "20-13")]
