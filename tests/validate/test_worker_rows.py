"""What a worker sends back: the reports as rows of their fields' values, the same reports
once loaded; and the worker's garbage-collector settings, in a real worker process."""

from __future__ import annotations

import gc
import pickle

from pdnkit._children import process_pool
from pdnkit.validation import validate
from pdnkit.validation.collect import FIELDS, Reports
from pdnkit.validation.parts import WORKER_GC_THRESHOLD, worker_start
from pdnkit.validation.report import GameReport

GAMES = (
    '[Event "a"]\n[White "Kees"]\n[Black "Piet"]\n[Result "2-0"]\n[GameType "20"]\n\n'
    "1. 32-28 19-23 2. 28x19 14x23 3. 33-28 {good} 23x32 4. 37x28 2-0\n\n"
    '[White "X"]\n[GameType "20"]\n\n1. 32-28 19-23 2. 28-23 *\n'
)


def _round_trip(reports: list[GameReport]) -> Reports:
    back = pickle.loads(pickle.dumps(Reports(reports)))
    assert type(back) is Reports
    return back


def test_light_reports_cross_unchanged() -> None:
    reps = list(validate(GAMES, light=True))
    want = [r.to_dict() for r in reps]
    back = _round_trip(reps)
    assert [r.to_dict() for r in back] == want
    assert back[1].findings[0].code == "illegal-move"  # (a finding crosses as itself)
    assert [r.start_fen for r in back] == [r.start_fen for r in reps]
    assert all(type(r) is GameReport and tuple(r.__dict__) == FIELDS for r in back)


def test_full_reports_cross_with_their_plies() -> None:
    reps = list(validate(GAMES))
    want = [(r.to_dict(), [p.to_dict() for p in r.plies]) for r in reps]
    back = _round_trip(reps)
    assert [(r.to_dict(), [p.to_dict() for p in r.plies]) for r in back] == want
    assert back[0].plies[2].notation == "28x19"
    assert back[0].record is not None and back[0].record.tag("White") == "Kees"


def test_a_report_with_other_attributes_crosses_whole() -> None:
    rep = next(validate(GAMES, light=True))
    rep.extra = "kept"  # type: ignore[attr-defined]
    back = _round_trip([rep])
    assert back[0].extra == "kept"  # type: ignore[attr-defined]
    assert back[0].to_dict() == rep.to_dict()


def _settings() -> tuple[int, int]:
    return gc.get_threshold()[0], gc.get_freeze_count()


def test_workers_collect_rarely_and_leave_the_inherited_objects_alone() -> None:
    with process_pool(1, worker_start) as pool:
        threshold, frozen = pool.submit(_settings).result()
    assert threshold == WORKER_GC_THRESHOLD
    assert frozen > 1000  # the modules the worker imported or inherited
    assert gc.get_threshold()[0] != WORKER_GC_THRESHOLD  # this process: untouched
