"""The opening counts kept at import (``tree_counts``, ``opening_counts``,
:mod:`pdnkit.store.opencounts`): after imports, a file replaced, copies grouped and
ungrouped (a copy ruling, a player alias), an upgrade from schema 7, an import killed
before its counts and one whose counts could not be written, ``tree`` and ``stats
openings`` give exactly what the scan of the games gives (the counts disabled), and the
counts are used where they are up to date.

The collections are generated (seeded): random legal games of 1 to 14 plies from the
initial position of three variants, random results, some games written twice (copies).
"""

from __future__ import annotations

import random
from pathlib import Path

import duckdb
import pandas as pd
import pytest

import pdnkit.stats.keptbook as keptbook
import pdnkit.store.opencounts as opencounts
from pdnkit.stats import openings, tree
from pdnkit.store import import_files
from pdnkit.store.opencounts import COUNTS_META, counts_ready, settle_counts
from tests.store.legacy import record_as

#: GameType and the variant's name
VARIANTS = (("20", "international"), ("21", "english"), ("25", "russian"))
RESULTS = ("1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1")
#: what the tree is asked from
TREE_ASKS: list[dict[str, object]] = [
    {}, {"variant": "international"}, {"variant": "english", "min_games": 2},
    {"moves": "32-28"}, {"moves": "32-28 18-23"}, {"moves": "32-28 18-23 37-32"},
    {"moves": "c3-d4"}, {"variant": "russian", "moves": "c3-d4 f6-g5"},
]
OPENING_ASKS: list[dict[str, object]] = [
    {"plies": 1}, {"plies": 2}, {"plies": 3}, {"plies": 4}, {"plies": 2, "min_games": 3},
    {"plies": 4, "variant": "russian"}, {"plies": 5}, {"plies": 2, "event": "e1"},
]


@pytest.fixture(autouse=True)
def _counts_kept_from_the_first_game() -> object:
    """The counts kept however few the games (the tests' collections are small); set and
    restored here, not by ``monkeypatch``, which the comparisons undo midway."""
    saved = opencounts.KEEP_FROM
    opencounts.KEEP_FROM = 0
    yield
    opencounts.KEEP_FROM = saved


def game_texts(seed: int, count: int, event: str) -> list[str]:
    """``count`` random legal games (one of three variants, 1 to 14 plies)."""
    from pdnkit.rules import Position, format_move, get_rules

    rnd = random.Random(seed)
    out = []
    for i in range(count):
        gametype, name = rnd.choice(VARIANTS)
        rules = get_rules(name)
        pos = Position.initial(rules)
        moves = []
        for _ in range(rnd.randint(1, 14)):
            legal = pos.legal_moves()
            if not legal:
                break
            m = rnd.choice(legal)
            moves.append(format_move(m, rules))
            pos = pos.play(m)
        result = rnd.choice(RESULTS)
        body = " ".join(f"{n // 2 + 1}. {m}" if n % 2 == 0 else m for n, m in enumerate(moves))
        out.append(f'[Event "{event}"]\n[Round "{i}"]\n[White "W{rnd.randint(0, 5)}"]\n'
                   f'[Black "B{rnd.randint(0, 5)}"]\n[Result "{result}"]\n'
                   f'[GameType "{gametype}"]\n\n{body} {result}\n\n')
    return out


def write(path: Path, texts: list[str]) -> Path:
    path.write_text("".join(texts), encoding="utf-8")
    return path


def outputs(db: Path) -> list[pd.DataFrame]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return ([tree(con, **ask) for ask in TREE_ASKS]  # type: ignore[arg-type]
                + [openings(con, **ask) for ask in OPENING_ASKS])  # type: ignore[arg-type]
    finally:
        con.close()


def assert_counts_equal_scan(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The counts are up to date as the write left them (no upgrade needed) and used, and
    every output equals the scan's (the counts disabled)."""
    con = duckdb.connect(str(db), read_only=True)
    assert counts_ready(con)
    con.close()
    used: list[str] = []
    for name in ("kept_tree", "kept_openings"):
        real = getattr(keptbook, name)

        def spy(*a: object, _real: object = real, _name: str = name) -> object:
            got = _real(*a)  # type: ignore[operator]
            if got is not None:
                used.append(_name)
            return got
        monkeypatch.setattr(f"pdnkit.stats.explorer.{name}", spy)
    kept = outputs(db)
    assert used.count("kept_tree") >= 6 and used.count("kept_openings") >= 5, used
    monkeypatch.setattr(keptbook, "counts_ready", lambda con: False)
    scan = outputs(db)
    monkeypatch.undo()
    assert sum(len(df) for df in scan) > 50
    for ask, a, b in zip(TREE_ASKS + OPENING_ASKS, kept, scan, strict=True):
        pd.testing.assert_frame_equal(a, b, obj=str(ask))


def test_imports_and_a_replaced_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every import leaves the counts current: the first makes them, the next add their
    games, a replaced file (games gone) recounts; an import of nothing new leaves them."""
    db = tmp_path / "g.duckdb"
    a = write(tmp_path / "a.pdn", game_texts(1, 120, "e1"))
    import_files([a], db=db)
    assert_counts_equal_scan(db, monkeypatch)
    import_files([a], db=db)  # already present: nothing to count
    assert_counts_equal_scan(db, monkeypatch)
    # files one by one (the counts of the games added are added), copies included
    b_games = game_texts(2, 80, "e2")
    import_files([write(tmp_path / "b.pdn", b_games)], db=db)
    import_files([write(tmp_path / "c.pdn", b_games[:30] + game_texts(3, 40, "e3"))], db=db)
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM games WHERE duplicate_of IS NOT NULL"
                       ).fetchall()[0][0] >= 30
    con.close()
    assert_counts_equal_scan(db, monkeypatch)
    # the same path with other games: replaced (its games' counts go)
    write(a, game_texts(4, 60, "e1"))
    import_files([a], db=db)
    assert_counts_equal_scan(db, monkeypatch)


def test_copies_grouped_and_ungrouped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pdnkit.stats.identities import alias, unalias
    from pdnkit.store.copyrulings import rule_copies

    db = tmp_path / "g.duckdb"
    games = game_texts(5, 60, "e5")
    a = write(tmp_path / "a.pdn", games)
    b = write(tmp_path / "b.pdn", games[:10] + game_texts(6, 20, "e6"))
    import_files([a, b], db=db)
    assert_counts_equal_scan(db, monkeypatch)
    rule_copies(db, f"{a}#1", f"{b}#1", "different")  # two games: ungrouped
    assert_counts_equal_scan(db, monkeypatch)
    rule_copies(db, f"{a}#20", f"{b}#15", "same")  # one game: grouped
    assert_counts_equal_scan(db, monkeypatch)
    alias(db, ["W1", "W2"], "Wim")  # players that are one: their games may group
    assert_counts_equal_scan(db, monkeypatch)
    unalias(db, ["W1", "W2"])
    assert_counts_equal_scan(db, monkeypatch)


def test_upgrade_from_schema_7_makes_the_counts(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from pdnkit.store import upgrade

    db = tmp_path / "seven.duckdb"
    import_files([write(tmp_path / "a.pdn", game_texts(7, 100, "e7"))], db=db)
    con = duckdb.connect(str(db))
    con.execute("DROP TABLE tree_counts")
    con.execute("DROP TABLE opening_counts")
    con.execute("DELETE FROM pdnkit_meta WHERE key = ?", [COUNTS_META])
    record_as(con, "7")
    con.close()
    result = upgrade(db, notice=None)
    assert result.upgraded and result.from_version == 7
    assert any("tree_counts" in s for s in result.fills)
    assert_counts_equal_scan(db, monkeypatch)


def test_an_import_killed_before_its_counts(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """An import killed (``SIGKILL``) after its games are settled and before its counts
    leaves counts that do not count the games now: never read (the commands scan, and
    answer as a database that never had counts); the next import brings them up to date
    by adding the games of both imports."""
    import os
    import subprocess
    import sys

    from pdnkit.store.steps import KILL_AT
    from tests.store.safety_helpers import ROOT

    db = tmp_path / "g.duckdb"
    import_files([write(tmp_path / "a.pdn", game_texts(8, 60, "e8"))], db=db)
    before = outputs(db)
    env = dict(os.environ, PYTHONPATH=str(ROOT), **{KILL_AT: "import.counts",
                                                        "PDNKIT_COUNTS_FROM": "0"})
    r = subprocess.run([sys.executable, "-m", "pdnkit", "import",
                        str(write(tmp_path / "b.pdn", game_texts(9, 60, "e9"))), "--db", str(db),
                        "--quiet"], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == -9, r.stderr
    con = duckdb.connect(str(db), read_only=True)
    assert not counts_ready(con)
    assert con.execute("SELECT count(*) FROM games").fetchall()[0][0] == 120
    con.close()
    stale = outputs(db)  # the scan's: the new games counted
    assert not all(x.equals(y) for x, y in zip(before, stale, strict=True))
    monkeypatch.setattr(keptbook, "counts_ready", lambda con: False)
    for x, y in zip(stale, outputs(db), strict=True):  # what the scan alone says
        pd.testing.assert_frame_equal(x, y)
    monkeypatch.undo()
    import_files([write(tmp_path / "c.pdn", game_texts(10, 20, "e10"))], db=db)
    assert_counts_equal_scan(db, monkeypatch)


def test_counts_that_cannot_be_written_end_the_import_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """DuckDB failing on the counts (a full disk there) keeps the games, settled, and says
    in one line that the counts wait; the commands scan until the next import."""
    from tests.store.safety_helpers import cli, one_error_line

    db = tmp_path / "g.duckdb"
    import_files([write(tmp_path / "a.pdn", game_texts(11, 40, "e11"))], db=db)

    def full(con: object) -> str:
        raise duckdb.IOException('Could not write file "g.duckdb.wal": No space left on device')
    monkeypatch.setattr("pdnkit.store.ingest.settle_counts", full)
    code, _, err = cli("import", write(tmp_path / "b.pdn", game_texts(12, 40, "e12")),
                       "--db", db, "--quiet")
    line = one_error_line(err)
    assert code == 2 and "disk is full" in line and "opening counts" in line, err
    monkeypatch.undo()
    con = duckdb.connect(str(db), read_only=True)
    assert not counts_ready(con)
    assert con.execute("SELECT count(*) FROM games").fetchall()[0][0] == 80
    assert con.execute("SELECT count(*) FROM (SELECT game_id FROM copy_pending UNION "
                       "SELECT game_id FROM opening_pending)").fetchall()[0][0] == 0
    con.close()
    from pdnkit.store import upgrade

    assert not upgrade(db, notice=None).upgraded  # settles the counts the import left
    assert_counts_equal_scan(db, monkeypatch)


def test_settle_adds_only_what_came() -> None:
    from pdnkit.store.db import connect

    con = connect(":memory:")
    assert settle_counts(con) == "rebuilt"
    assert settle_counts(con) == "current"
    con.execute("INSERT INTO games (game_id, file_id, game_index, variant, result) "
                "VALUES (5, 1, 0, 'international', '1-0')")
    assert settle_counts(con) == "added" and counts_ready(con)
    con.execute("UPDATE games SET result = '0-1' WHERE game_id = 5")
    assert not counts_ready(con)
    assert settle_counts(con) == "rebuilt" and counts_ready(con)
    con.execute("UPDATE games SET duplicate_of = 4 WHERE game_id = 5")
    assert not counts_ready(con) and settle_counts(con) == "moved" and counts_ready(con)


def test_a_small_database_keeps_no_counts_until_it_grows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Below ``KEEP_FROM`` canonical games the tables stay empty and the readers scan (the
    answers are the scan's); the import that passes it makes the counts, which are used."""
    opencounts.KEEP_FROM = 150
    db = tmp_path / "g.duckdb"
    import_files([write(tmp_path / "a.pdn", game_texts(21, 100, "e1"))], db=db)
    con = duckdb.connect(str(db), read_only=True)
    assert opencounts.counts_current(con) and not counts_ready(con)
    assert [con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0]
            for t in opencounts.COUNTS_TABLES] == [0, 0]
    con.close()
    import_files([write(tmp_path / "b.pdn", game_texts(22, 100, "e2"))], db=db)
    assert_counts_equal_scan(db, monkeypatch)
