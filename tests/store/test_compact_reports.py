"""The loader's compact replay (``compact=True``: a game's leading plain plies kept as one
``PlainRun`` instead of a ply record each, loaded from per-run rows) gives the records and the
database rows of a full replay: every ply record, every row of every table, on hand-made games
at the edges of a run, the bundled samples and the shared real files."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from pdnkit.rows.batch import ReportBatch
from pdnkit.rows.load import load_batch
from pdnkit.samples import sample_dir
from pdnkit.store.db import connect
from pdnkit.validation import validate
from tests.shared import shared_path

#: games whose plain run ends, or never starts, or is numbered and coloured unusually
EDGES = {
    # every ply plain, a capture among them, comments and NAGs inside the run
    "all plain": '[GameType "20"]\n1. 32-28 19-23 {a comment} 2. 28x19 $1 14x23 *',
    # the run stops at a variation; the rest is replayed as records
    "variation": '[GameType "20"]\n1. 32-28 19-23 2. 28x19 (2. 37-32 14-19) 14x23 '
                 '3. 33-28 *',
    # the run stops at a wrong move number
    "numbers": '[GameType "20"]\n1. 32-28 19-23 5. 28x19 14x23 *',
    # no run at all: the first move is illegal
    "illegal first": '[GameType "20"]\n1. 32-26 19-23 *',
    # Black first (English), then a capture written with its full path
    "english": '[GameType "21"]\n1. 11-15 23-19 2. 8-11 22-17 3. 15x24 28x19 *',
    # Russian squares and separators; White's second move is a capture
    "russian": '[GameType "25"]\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 *',
    # a set-up with Black to move: the run starts with Black's half of move 1
    "setup": '[GameType "20"][FEN "B:W38,43:B12,17"][SetUp "1"]\n1... 17-22 2. 38-33 12-18 *',
    # a 12x12 board (square bitboards computed in Python)
    "canadian": '[GameType "27"]\n1. 42-37 19-24 2. 37-31 24-29 *',
}


def _batch(source: str | Path, compact: bool) -> ReportBatch:
    batch = ReportBatch()
    for rep in validate(source, compact=compact):
        batch.add(rep)
    return batch


#: every stored table, in a fixed order
DUMPS = {
    "games": "SELECT * EXCLUDE (file_id) FROM games ORDER BY game_id",
    "moves": "SELECT * FROM moves ORDER BY game_id, ply",
    "move_rows": "SELECT * FROM move_rows ORDER BY game_id, ply",
    "position_bits": "SELECT * FROM position_bits ORDER BY game_id, ply",
    "findings": "SELECT * FROM findings ORDER BY ALL",
    "rule_events": "SELECT * FROM rule_events ORDER BY ALL",
    "layouts": "SELECT * FROM layouts ORDER BY 1",
}


def _stored(batch: ReportBatch) -> dict[str, list[tuple[object, ...]]]:
    """What the loader stores of ``batch`` in a new database."""
    con = connect(":memory:")
    load_batch(con, batch.to_arrow(), 1, 0, batch.layouts)
    return {name: con.execute(sql).fetchall() for name, sql in DUMPS.items()}


def _assert_same_rows(sources: Iterable[str | Path]) -> int:
    """Load the full and the compact replay of each source; every table must hold the same
    rows. Returns the plain-run plies compared."""
    run_plies = 0
    for src in sources:
        full, compact = _batch(src, False), _batch(src, True)
        assert (compact.games_count, compact.plies_count) == (full.games_count,
                                                              full.plies_count)
        a, b = _stored(full), _stored(compact)
        for name in DUMPS:
            assert a[name] == b[name], (src, name)
        run_plies += sum(compact.runs["plies"])
    return run_plies
@pytest.mark.parametrize("name", sorted(EDGES))
def test_a_compact_replay_gives_the_records_of_a_full_one(name: str) -> None:
    text = EDGES[name]
    (full,) = validate(text)
    (compact,) = validate(text, compact=True)
    run = compact.plain.records() if compact.plain else []
    assert [p.to_dict() for p in run + compact.plies] == [p.to_dict() for p in full.plies]
    assert compact.to_dict() == full.to_dict()
    assert compact.final_fen == full.final_fen


def test_where_the_run_ends() -> None:
    """The run holds the leading plain plies and nothing after them."""
    runs = {name: next(validate(text, compact=True)) for name, text in EDGES.items()}
    assert len(runs["all plain"].plain) == 4 and runs["all plain"].plies == []
    assert len(runs["variation"].plain) == 2
    assert [p.ply for p in runs["variation"].plies] == [3, 4, 5]
    assert len(runs["numbers"].plain) == 2
    assert runs["illegal first"].plain is None
    assert runs["english"].plain.start_side == 1
    setup = runs["setup"].plain.records()
    assert [(p.move_number, p.side) for p in setup] == [(1, "B"), (2, "W"), (2, "B")]


@pytest.mark.parametrize("name", sorted(EDGES))
def test_compact_rows_equal_full_ones_at_the_edges(name: str) -> None:
    assert _assert_same_rows([EDGES[name]]) == len(next(validate(EDGES[name],
                                                                 compact=True)).plain or ())


def test_compact_rows_equal_full_ones_on_the_samples() -> None:
    assert _assert_same_rows(sorted(sample_dir().glob("*.pdn"))) > 3_000


def test_batches_built_apart_and_joined_load_as_one() -> None:
    """Worker processes build batches apart and the parent joins them (``extend``): the
    runs' games and layouts are renumbered with the rest."""
    text = "\n\n".join(EDGES[name] for name in ("canadian", "russian", "all plain",
                                                   "variation", "english"))
    whole = _batch(text, True)
    joined = ReportBatch()
    for rep in validate(text, compact=True):
        part = ReportBatch()
        part.add(rep)
        joined.extend(part)
    assert _stored(joined) == _stored(whole)


@pytest.mark.slow
def test_compact_rows_equal_full_ones_on_the_real_files() -> None:
    files = sorted(shared_path("real").rglob("*.pdn"))
    assert _assert_same_rows(files) > 20_000


def test_a_compact_report_maps_every_notation() -> None:
    """``notation_map`` (what the PDN writer uses) covers the plain run too."""
    text = EDGES["variation"]
    assert next(validate(text, compact=True)).notation_map() == next(
        validate(text)).notation_map()
