"""Memory stays flat while a 100,000-game file is validated (slow: about a minute)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pdnkit.validation import validate


def _rss_mb() -> float:
    """Resident memory of this process in MB (Linux /proc; 0 elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0.0
    import os

    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm")
def test_memory_flat_on_100000_games(tmp_path: Path) -> None:
    game = ('[Event "m"]\n[GameType "20"]\n[Result "*"]\n\n'
            "1. 32-28 19-23 2. 28x19 14x23 3. 37-32 {a comment} 10-14 *\n\n")
    path = tmp_path / "big.pdn"
    with path.open("w", encoding="utf-8") as fh:
        for _ in range(100_000):
            fh.write(game)
    samples: dict[int, float] = {}
    n = 0
    for rep in validate(path, light=True):
        assert rep.status == "ok"
        n += 1
        if n in (10_000, 100_000):
            samples[n] = _rss_mb()
    assert n == 100_000
    # after warm-up, 90,000 more games may not grow memory by more than a few MB
    assert samples[100_000] - samples[10_000] < 25, samples
