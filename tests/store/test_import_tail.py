"""The import's steps after a file's rows are in (the position index, the squares, the
settling) run DuckDB on the cores ``--jobs`` grants, and the load goes back to one thread;
the database is the same whatever the threads (the index and the settling are compared with
a one-thread import, table by table), and a connection the caller opened keeps its own
settings."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pdnkit.rules import Position, get_rules
from pdnkit.rules.notation import format_move
from pdnkit.store import connect, import_files, ingest
from pdnkit.validation import costs
from tests.dbtables import tables


def _games(path: Path, seed: int, count: int) -> Path:
    """``count`` random legal international games (seeded), a tenth of them copies."""
    rng = random.Random(seed)
    rules = get_rules("international")
    texts: list[str] = []
    for i in range(count):
        if texts and rng.random() < 0.1:
            texts.append(rng.choice(texts))
            continue
        pos, words = Position.initial(rules), []
        for ply in range(rng.randint(6, 70)):
            legal = pos.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            if ply % 2 == 0:
                words.append(f"{ply // 2 + 1}.")
            words.append(format_move(move, rules))
            pos = pos.play(move)
        texts.append(f'[Event "e{i}"]\n[White "w{rng.randrange(9)}"]\n[Black "b"]\n'
                     f'[GameType "20"]\n\n{" ".join(words)} *\n')
    path.write_text("\n".join(texts), encoding="utf-8")
    return path


def _threads_seen(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Record DuckDB's threads at the index step, the settling and each batch's load."""
    seen: list[tuple[str, int]] = []

    def spy(step: str, real):  # type: ignore[no-untyped-def]
        def run(con, *args, **kwargs):  # type: ignore[no-untyped-def]
            seen.append((step, int(con.execute(
                "SELECT current_setting('threads')").fetchall()[0][0])))
            return real(con, *args, **kwargs)
        return run

    monkeypatch.setattr(ingest, "index_games", spy("index", ingest.index_games))
    monkeypatch.setattr(ingest, "_settle", spy("settle", ingest._settle))
    monkeypatch.setattr(ingest, "load_batch", spy("load", ingest.load_batch))
    return seen


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_the_steps_after_the_load_use_the_cores_granted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int) -> None:
    files = [_games(tmp_path / f"{n}.pdn", 35 + n, 40) for n in range(2)]
    seen = _threads_seen(monkeypatch)
    import_files(files, db=tmp_path / "t.duckdb", jobs=jobs)
    granted = min(jobs, costs.default_jobs())
    assert {s for s, _ in seen} == {"index", "settle", "load"}
    assert all(n == (granted if step != "load" else 1) for step, n in seen), seen


def test_more_threads_after_the_load_make_the_same_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = [_games(tmp_path / f"{n}.pdn", 71 + n, 120) for n in range(3)]
    import_files(files, db=tmp_path / "one.duckdb", jobs=1)
    monkeypatch.setattr(costs, "default_jobs", lambda: 4)  # four threads, even on two cores
    monkeypatch.setattr(costs, "could_pay", lambda *a, **k: False)  # no workers: the tail
    seen = _threads_seen(monkeypatch)
    import_files(files, db=tmp_path / "four.duckdb", jobs=4)
    assert ("index", 4) in seen
    assert tables(tmp_path / "one.duckdb") == tables(tmp_path / "four.duckdb")


def test_a_connection_of_the_caller_keeps_its_threads(tmp_path: Path) -> None:
    con = connect(tmp_path / "c.duckdb")
    con.execute("SET threads = 3")
    import_files(_games(tmp_path / "a.pdn", 5, 20), db=con, jobs=2)
    assert con.execute("SELECT current_setting('threads')").fetchall()[0][0] == 3
    con.close()
