"""``import --jobs 2`` on the compiled core with its workers forced (each reads parts of a
file's bytes, replays them and sends its rows back as Arrow) makes the database one process
makes: every table row for row (times apart), on generated files of messy games (findings,
records that cannot be read, stray text between games, comments and variations, set-ups,
several variants, a file not in UTF-8, a file already in the database before).

The parts are cut tiny here so that every file is read by the workers in many parts, stray
text falls at part ends (the part after it is then read again in this process), and the
test counts the parts the workers did read, so that a run that quietly fell back to one
process fails."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import pdnkit
from pdnkit import core
from pdnkit.rules import Position, get_rules
from pdnkit.rules.fen import write_fen
from pdnkit.rules.notation import format_move
from pdnkit.validation import costs, jobs, parts
from tests.dbtables import tables

duckdb = pytest.importorskip("duckdb")
pytestmark = pytest.mark.skipif(core.core_in_use() != "compiled",
                                reason="the compiled core is not built")

#: variants of the generated files (a 12x12 board among them)
VARIANTS = ("international", "russian", "english", "brazilian", "frisian", "canadian")


def _game(rng: random.Random, variant: str, index: int) -> str:
    """One random game of ``variant`` as PDN, spoiled one way or another by ``rng``."""
    rules = get_rules(variant)
    pos = start = Position.initial(rules)
    moves: list[str] = []
    for _ in range(rng.randint(0, 60)):
        legal = pos.legal_moves()
        if not legal:
            break
        m = rng.choice(legal)
        moves.append(format_move(m, pos.rules))
        pos = pos.play(m)
    kind = rng.randrange(10)
    if kind == 1 and len(moves) > 4:  # an illegal move
        a, b = moves[2].replace("x", "-").replace(":", "-").split("-")[:2]
        moves[3] = f"{b}-{a}"
    text: list[str] = []
    for i, mv in enumerate(moves):
        if i % 2 == 0:
            text.append(f"{i // 2 + 1 + (3 if kind == 2 and i == 4 else 0)}.")
        text.append(mv)
        if kind == 3 and i % 4 == 1:
            text.append(rng.choice(["{a comment}", "!", "$2", "(1. 32-28 19-23)", "?!"]))
    result = rng.choice(["*", "2-0", "0-2", "1-1", "1-0", "0-1", "1/2-1/2"])
    tags = [f'[Event "Gen {index}"]', f'[White "W{index % 5}"]', '[Black "B"]',
            f'[GameType "{rules.gametype}"]', f'[Result "{result}"]']
    if kind == 4:
        tags.append(f'[FEN "{write_fen(start)}"]')
    if kind == 5:
        tags.append('[Date "2019.??.1x"]')
    body = "\n".join(tags) + "\n\n" + " ".join([*text, result]) + "\n\n"
    if kind == 6:  # stray text after the game
        body += "stray text between games\n\n"
    if kind == 7:  # a record that cannot be read
        body += '[Event "broken\n1. 32-28 {never closed\n\n'
    if kind == 8:  # a game without tags
        body += " ".join(text[:6]) + " *\n\n"
    return body


def _files(tmp: Path, count: int, seed: int) -> list[Path]:
    rng = random.Random(seed)
    out = []
    for k in range(count):
        variant = VARIANTS[k % len(VARIANTS)]
        path = tmp / f"gen{seed}-{k}-{variant}.pdn"
        games = "".join(_game(rng, rng.choice([variant, variant, "russian"]), i)
                        for i in range(rng.randint(20, 60)))
        path.write_text(games, encoding="utf-8")
        out.append(path)
    return out


def _forced(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Workers forced on for every file, parts of a few games; returns the counts of parts
    the workers read and of parts handed back (filled as the import runs)."""
    monkeypatch.setattr(costs, "workers_pay", lambda *a, **k: True)
    monkeypatch.setattr(costs.Probe, "busy", lambda self, a, b: None)
    monkeypatch.setattr(costs.Probe, "slower", lambda self, g, s: False)
    monkeypatch.setattr(costs, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(costs, "PROBE_WARMUP", 0)
    monkeypatch.setattr(costs, "PROBE_GAMES", 1)
    monkeypatch.setattr(costs, "PROBE_SECONDS", 0.0)
    monkeypatch.setattr(jobs, "PROBE_SPANS", (400,))
    monkeypatch.setattr(jobs, "PACKED_SPAN_BYTES", 1500)
    count = {"parts": 0, "back": 0}
    deliver = jobs.deliver

    def counted(*args: Any, **kwargs: Any) -> Iterator[Any]:
        for got in deliver(*args, **kwargs):
            count["parts" if isinstance(got, parts.Part) else "back"] += 1
            yield got

    monkeypatch.setattr(jobs, "deliver", counted)
    return count


_SPAN_WORK = parts.span_work


def _flaky(span: Any, ctx: Any) -> Any:
    """A worker's part work that fails on every part starting at a multiple of 3 bytes (the
    workers are forked with it: a function of this module, pickled by name)."""
    if span.start % 3 == 0:
        raise RuntimeError("a fault in a worker")
    return _SPAN_WORK(span, ctx)


def _same(a: Path, b: Path) -> None:
    ta, tb = tables(a), tables(b)
    assert ta.keys() == tb.keys()
    assert ta["games"] and ta["move_rows"] and ta["findings"]
    for name in ta:
        assert ta[name] == tb[name], name


def test_forced_workers_make_the_database_of_one_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = _files(tmp_path, 6, seed=35)
    before = _files(tmp_path, 1, seed=7)  # in both databases first: game ids go on from it
    latin = tmp_path / "latin.pdn"  # not UTF-8: read in this process, never in parts
    latin.write_bytes('[Event "Café"]\n[GameType "20"]\n\n1. 32-28 19-23 *\n'.encode("latin-1"))
    one, two = tmp_path / "one.duckdb", tmp_path / "two.duckdb"
    for db in (one, two):
        pdnkit.import_files(before, db)
    got = pdnkit.import_files([*files, latin], one, jobs=1)
    count = _forced(monkeypatch)
    forced = pdnkit.import_files([*files, latin], two, jobs=2)
    assert count["parts"] >= 2 * len(files), count  # the workers read the files
    assert (forced.games, forced.plies, forced.findings) == (got.games, got.plies, got.findings)
    assert forced.status_counts == got.status_counts and forced.code_counts == got.code_counts
    _same(one, two)
    con = duckdb.connect(str(two), read_only=True)
    try:  # the messy games are there
        codes = {r[0] for r in con.execute("select distinct code from findings").fetchall()}
    finally:
        con.close()
    assert {"illegal-move", "ignored-text"} <= codes, codes


def test_a_failing_worker_hands_its_part_back(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    files = _files(tmp_path, 2, seed=3)
    one, two = tmp_path / "one.duckdb", tmp_path / "two.duckdb"
    pdnkit.import_files(files, one, jobs=1)
    count = _forced(monkeypatch)
    monkeypatch.setattr(parts, "span_work", _flaky)
    pdnkit.import_files(files, two, jobs=2)
    assert count["parts"] and count["back"], count
    _same(one, two)


@pytest.mark.slow
def test_forced_workers_on_the_shared_real_files(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.shared import shared_path

    files = sorted(shared_path("real").rglob("*.pdn"))
    assert files
    one, two = tmp_path / "one.duckdb", tmp_path / "two.duckdb"
    pdnkit.import_files(files, one, jobs=1)
    count = _forced(monkeypatch)
    monkeypatch.setattr(jobs, "PACKED_SPAN_BYTES", 8192)
    pdnkit.import_files(files, two, jobs=2)
    assert count["parts"] >= len(files), count
    _same(one, two)
