"""The replay's Python strategy for plain plies (:class:`~pdnkit.validation.plainline.
PlainLine`) changes nothing but speed: every report -- status, findings, plies with their
notation and FEN, draw-rule events -- is the same as the general loop alone makes, on every
shared game file and on hand-made edge cases. Both runs take the Python strategy, whatever
core is in use (the compiled core's strategy has its own differential tests)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pdnkit.pdn import read_games
from pdnkit.validation import coreline, replay
from pdnkit.validation.plainline import PlainLine
from tests.shared import shared_path


def _report(rec: Any, general_only: bool, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    with monkeypatch.context() as m:
        m.setattr(coreline, "usable", lambda rules: False)  # the Python strategy
        if general_only:
            m.setattr(PlainLine, "take", lambda self, k, pos, *a: (0, pos))
        rep = replay(rec)
    out = rep.to_dict()
    out["findings"] = [(f.code, f.severity.value, f.ply, f.line, f.message, f.details)
                       for f in rep.findings]
    out["plies"] = [p.to_dict() for p in rep.plies]
    out["events"] = [e.to_dict() for e in rep.rule_events]
    out["start"] = (rep.start_fen, rep.start_key, rep.start_counts)
    return out


def _compare(text_or_path: Any, monkeypatch: pytest.MonkeyPatch, limit: int = 60) -> int:
    n = 0
    for rec in read_games(text_or_path):
        if n >= limit:
            break
        assert _report(rec, False, monkeypatch) == _report(rec, True, monkeypatch), \
            (rec.file, rec.index)
        n += 1
    return n


@pytest.mark.parametrize("text", [
    '[GameType "20"] 1. 32-28 19-23 2. 28x19 14x23 *',
    '[GameType "20"] 1. 32-28 19-23 2. 28-19 14x23 *',  # a capture written with '-'
    '[GameType "20"] 1. 32x28 19-23 *',  # a quiet move written as a capture
    '[GameType "20"] 1. 32-28 19-23 3. 28x19 *',  # a wrong move number
    '[GameType "20"] 1. 32-28 1... 19-23 *',
    '[GameType "20"] 1. 32-28 19-23 2. 33-29 *',  # a missed capture
    '[GameType "20"] /FEN "W:W32,K46:B19,18"/ 1. 32-28 19-23 2. 28x17 *',
    '[GameType "20"] [FEN "W:W32:B19"] 1. 32-28 /FEN "B:W33:B18"/ 18-22 *',
    '[GameType "25"] 1. 22-18 11-15 2. 18x11 8x15 3. 25-22 *',
    '[GameType "21"] 1. 22-18 11-15 2. 18x11 8x15 1-0',
    '[GameType "20"] 1. 32-28 19-23 (1... 18-23 2. 33-29) 2. 28x19 14x23 *',
    "[GameType \"20\"] 1. 32-28 19-23 2. 28x19 14x23 {c} 3. 37-32 $1 *",
    '[GameType "20"] [FEN "W:WK46:BK5"] 1. 46-37 5-14 2. 37-46 14-5 3. 46-37 5-14 '
    '4. 37-46 14-5 5. 46-37 1/2-1/2',
])
def test_edge_cases(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _compare(text, monkeypatch) == 1


@pytest.mark.slow
@pytest.mark.parametrize("folder", ["real", "syntax"])
def test_shared_files(folder: str, monkeypatch: pytest.MonkeyPatch) -> None:
    base = shared_path(folder)
    files = sorted(p for p in base.rglob("*") if p.is_file() and p.suffix.lower() == ".pdn")
    total = sum(_compare(Path(p), monkeypatch, limit=40) for p in files)
    assert total > (50 if folder == "real" else 5)


def test_the_plain_strategy_takes_the_plies_and_hands_back_after_a_diagnosis(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Both runs above really differ in who replays: the plain loop takes the plain plies,
    the general loop the one it stops at (a wrong move number), and the plain loop goes on."""
    taken: list[tuple[int, int]] = []
    real = PlainLine.take

    def spy(self: PlainLine, k: int, pos: Any, *a: Any) -> Any:
        n, after = real(self, k, pos, *a)
        taken.append((k, n))
        return n, after

    monkeypatch.setattr(coreline, "usable", lambda rules: False)
    monkeypatch.setattr(PlainLine, "take", spy)
    rep = replay(next(read_games('[GameType "20"] 1. 32-28 19-23 3. 28x19 14x23 3. 37-32 *')))
    assert rep.replayed_plies == 5 and "move-number-mismatch" in rep.finding_codes()
    assert taken == [(0, 2), (3, 2)]  # ply 3 (k=2) is the general loop's
