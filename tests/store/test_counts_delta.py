"""The opening counts kept right by their delta (:mod:`pdnkit.store.countdelta`): after
random sequences of imports (new games, exact copies, better records that make older games
copies), copy rulings and player aliases that group and ungroup, the kept ``tree_counts``
and ``opening_counts`` equal a count of every canonical game from scratch (the tables'
definition in one statement, the reference), table for table, and the delta is the path
taken where it can be proven ('moved'), a rebuild where it cannot.

The collections are generated (seeded) as in ``test_opening_counts``; parts of a few game
numbers make the parts and the search for a row's first game run over many parts.
"""

from __future__ import annotations

import random
from pathlib import Path

import duckdb
import pandas as pd
import pytest

import pdnkit.store.countdelta as countdelta
import pdnkit.store.ingest as ingest
import pdnkit.store.opencounts as opencounts
import pdnkit.store.settling as settling
from pdnkit.store import import_files
from pdnkit.store.countdelta import COPIES_TABLE, seq_rows, tree_rows
from pdnkit.store.opencounts import counts_ready, rebuild_counts, settle_counts
from tests.store.test_opening_counts import assert_counts_equal_scan, game_texts, write

TREE_KEYS = ["variant", "black", "wm", "wk", "bm", "bk", "open", "move", "side", "a_black",
             "a_wm", "a_wk", "a_bm", "a_bk", "a_layout"]
SEQ_KEYS = ["variant", "plies", "opening"]


@pytest.fixture(autouse=True)
def _counts_kept_from_the_first_game() -> object:
    saved = opencounts.KEEP_FROM
    opencounts.KEEP_FROM = 0
    yield
    opencounts.KEEP_FROM = saved


@pytest.fixture
def settles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What every settle of the counts answered, in order (the import's, a ruling's, an
    alias's)."""
    got: list[str] = []
    real = opencounts.settle_counts

    def spy(con: duckdb.DuckDBPyConnection) -> str:
        got.append(real(con))
        return got[-1]
    for module in (opencounts, ingest, settling):
        monkeypatch.setattr(module, "settle_counts", spy)
    return got


def _sorted(df: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    return df.sort_values(keys, na_position="first").reset_index(drop=True)


def assert_counts_are_a_recount(db: Path | duckdb.DuckDBPyConnection) -> None:
    """The kept tables equal, table for table, every canonical game counted from scratch in
    one statement (the counts' definition), and they are current."""
    con = duckdb.connect(str(db), read_only=True) if isinstance(db, Path) else db
    try:
        assert counts_ready(con)
        for table, rows, keys in (("tree_counts", tree_rows, TREE_KEYS),
                                  ("opening_counts", seq_rows, SEQ_KEYS)):
            kept = _sorted(con.execute(f"SELECT * FROM {table}").df(), keys)
            ref = _sorted(con.execute(f"SELECT * FROM ({rows('true')})").df(), keys)
            ref = ref[list(kept.columns)].astype(kept.dtypes.to_dict())
            assert len(ref) > 0
            pd.testing.assert_frame_equal(kept, ref, obj=table)
    finally:
        if isinstance(db, Path):
            con.close()


def better(texts: list[str]) -> list[str]:
    """Better records of games already loaded (one tag more): the older records become
    their copies."""
    return [t.replace("[Round", '[Annotator "A"]\n[Round', 1) for t in texts]


def copies_now(db: Path) -> set[int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {g for (g,) in con.execute(
            "SELECT game_id FROM games WHERE duplicate_of IS NOT NULL").fetchall()}
    finally:
        con.close()


def counted_up_to(db: Path) -> int:
    """The highest canonical game number (the last the counts counted), -1 for none."""
    if not db.exists():
        return -1
    con = duckdb.connect(str(db), read_only=True)
    try:
        got = con.execute("SELECT max(game_id) FROM games WHERE duplicate_of IS NULL"
                          ).fetchall()[0][0]
        return -1 if got is None else int(got)
    finally:
        con.close()


def test_games_that_stop_being_counted_are_taken_away(tmp_path: Path, settles: list[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """An import of better records of older games (the first game loaded among them, the
    first game of every row at the initial position) takes those games away from the
    counts, by the delta: the result is the recount, and the scan's answers."""
    monkeypatch.setattr(countdelta, "PART_GAMES", 16)
    searched: list[int] = []
    real = countdelta.repair_first_games
    monkeypatch.setattr(countdelta, "repair_first_games",
                        lambda con: searched.append(real(con)) or searched[-1])
    db = tmp_path / "g.duckdb"
    games = game_texts(31, 120, "e1")
    import_files([write(tmp_path / "a.pdn", games)], db=db)
    assert settles == ["rebuilt"]
    assert_counts_are_a_recount(db)
    picked = [0, 1, 2, 7, 40, 41, 90, 119]
    import_files([write(tmp_path / "b.pdn", better([games[i] for i in picked])
                        + game_texts(32, 30, "e2"))], db=db)
    assert settles[-1] == "moved"
    assert searched[-1] >= 1  # rows whose first game went were looked up again
    assert {i + 1 for i in picked} <= copies_now(db)
    assert_counts_are_a_recount(db)
    assert_counts_equal_scan(db, monkeypatch)


def test_games_counted_again_when_their_copies_are_ungrouped(tmp_path: Path,
                                                             settles: list[str]) -> None:
    """A ruling that two records are different games counts the copy again (added back),
    one that they are the same takes one away: both by the delta."""
    from pdnkit.store.copyrulings import rule_copies

    db = tmp_path / "g.duckdb"
    games = game_texts(33, 60, "e5")
    a = write(tmp_path / "a.pdn", games)
    b = write(tmp_path / "b.pdn", games[:10] + game_texts(34, 20, "e6"))
    import_files([a], db=db)
    import_files([b], db=db)
    assert settles == ["rebuilt", "added"]
    rule_copies(db, f"{a}#1", f"{b}#1", "different")
    assert settles[-1] == "moved"
    assert_counts_are_a_recount(db)
    rule_copies(db, f"{a}#20", f"{b}#15", "same")
    assert settles[-1] == "moved"
    assert_counts_are_a_recount(db)


@pytest.mark.parametrize("seed", [1, 2, pytest.param(3, marks=pytest.mark.slow),
                                  pytest.param(4, marks=pytest.mark.slow)])
def test_random_imports_rulings_and_aliases_keep_the_recount(tmp_path: Path, seed: int,
                                                             settles: list[str],
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    from pdnkit.stats.identities import alias, unalias
    from pdnkit.store.copyrulings import rule_copies

    rnd = random.Random(seed)
    monkeypatch.setattr(countdelta, "PART_GAMES", rnd.choice([5, 16, 50_000]))
    db = tmp_path / "g.duckdb"
    loaded: list[tuple[Path, int, str]] = []  # file, game number in it, text
    aliased: list[list[str]] = []
    moved = 0
    for step in range(7):
        kind = "import" if step < 2 else rnd.choice(["import", "import", "ruling", "alias"])
        before = copies_now(db) if db.exists() else set()
        last = counted_up_to(db)
        if kind == "import":
            texts = game_texts(1000 * seed + step, rnd.randint(10, 40), f"e{step}")
            if loaded:
                old = rnd.sample(loaded, min(len(loaded), rnd.randint(2, 12)))
                texts += better([t for _, _, t in old[: len(old) // 2]])
                texts += [t for _, _, t in old[len(old) // 2:]]  # exact copies
            rnd.shuffle(texts)
            path = write(tmp_path / f"f{step}.pdn", texts)
            import_files([path], db=db)
            loaded += [(path, i + 1, t) for i, t in enumerate(texts)]
        elif kind == "ruling":
            (pa, ia, _), (pb, ib, _) = rnd.sample(loaded, 2)
            rule_copies(db, f"{pa}#{ia}", f"{pb}#{ib}", rnd.choice(["same", "different"]))
        elif aliased and rnd.random() < 0.5:
            unalias(db, aliased.pop())
        else:
            names = rnd.sample([f"W{i}" for i in range(6)], 2)
            alias(db, names, f"P{step}")
            aliased.append(names)
        after = copies_now(db)
        if step and {g for g in before if g <= last} != {g for g in after if g <= last}:
            moved += 1
            assert settles[-1] == "moved", (step, kind, settles)
        assert "rebuilt" not in settles[1:], settles
        assert_counts_are_a_recount(db)
    assert moved >= 1


def test_a_change_the_delta_cannot_prove_rebuilds(tmp_path: Path, settles: list[str]) -> None:
    """A result edited by hand, a game deleted, the copies' record lost or altered: the
    counts are counted again (and equal the recount)."""
    db = tmp_path / "g.duckdb"
    import_files([write(tmp_path / "a.pdn", game_texts(41, 80, "e1"))], db=db)
    con = duckdb.connect(str(db))
    con.execute("UPDATE games SET duplicate_of = 3 WHERE game_id = 2")
    con.execute("UPDATE games SET result = '*', outcome = NULL WHERE game_id = 1")
    assert settle_counts(con) == "rebuilt"
    assert_counts_are_a_recount(con)
    con.execute("UPDATE games SET duplicate_of = NULL WHERE game_id = 2")
    assert settle_counts(con) == "moved"
    assert_counts_are_a_recount(con)
    for change in (f"DROP TABLE {COPIES_TABLE}", f"INSERT INTO {COPIES_TABLE} VALUES (5)",
                   "DELETE FROM games WHERE game_id = 7"):
        con.execute("UPDATE games SET duplicate_of = 1 WHERE game_id = 4")
        con.execute(change)
        assert settle_counts(con) == "rebuilt", change
        assert_counts_are_a_recount(con)
        con.execute("UPDATE games SET duplicate_of = NULL WHERE game_id = 4")
        assert settle_counts(con) == "moved"
        assert_counts_are_a_recount(con)
    con.close()


def test_counts_settled_before_the_copies_were_kept_take_games_added(tmp_path: Path) -> None:
    """Counts recorded without the copies (an older pdnkit) still take the games added; a
    game counted then that is a copy now is not provable and rebuilds."""
    import json

    db = tmp_path / "g.duckdb"
    import_files([write(tmp_path / "a.pdn", game_texts(42, 60, "e1"))], db=db)
    con = duckdb.connect(str(db))

    def forget_copies() -> None:
        (value,) = con.execute("SELECT value FROM pdnkit_meta WHERE key = ?",
                               [opencounts.COUNTS_META]).fetchall()[0]
        got = json.loads(value)
        del got["copies"]
        con.execute("UPDATE pdnkit_meta SET value = ? WHERE key = ?",
                    [json.dumps(got), opencounts.COUNTS_META])
        con.execute(f"DELETE FROM {COPIES_TABLE}")  # (upgraded: the table is there, empty)
    forget_copies()
    con.execute("UPDATE games SET duplicate_of = 1 WHERE game_id = 60")
    assert settle_counts(con) == "rebuilt"  # 60 counted then, a copy now: not provable
    forget_copies()
    con.close()
    import_files([write(tmp_path / "b.pdn", game_texts(43, 30, "e2"))], db=db)
    con = duckdb.connect(str(db))
    assert con.execute(f"SELECT count(*) FROM {COPIES_TABLE}").fetchall()[0][0] >= 1
    assert_counts_are_a_recount(con)
    con.close()


def test_rebuild_in_parts_equals_one_statement(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Counting every game part by part (parts of 3 and of 7 game numbers) gives the
    recount in one statement."""
    db = tmp_path / "g.duckdb"
    games = game_texts(44, 100, "e1")
    import_files([write(tmp_path / "a.pdn", games + games[:20])], db=db)
    con = duckdb.connect(str(db))
    for part in (3, 7):
        monkeypatch.setattr(countdelta, "PART_GAMES", part)
        con.execute("DELETE FROM tree_counts")
        rebuild_counts(con)
        assert_counts_are_a_recount(con)
    con.close()


def _one_statement(con: duckdb.DuckDBPyConnection) -> None:
    """The recount of before: every game's rows in one statement a table."""
    con.execute("BEGIN")
    try:
        con.execute(f"INSERT INTO tree_counts BY NAME {tree_rows('true')}")
        con.execute(f"INSERT INTO opening_counts BY NAME {seq_rows('true')}")
    finally:
        con.execute("ROLLBACK")


@pytest.mark.slow
def test_recount_in_parts_keeps_to_a_small_memory_limit(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A generated database of 40,000 games (``counts_upkeep.py make``: 500 random games
    repeated): under a memory limit the recount of every game in one statement cannot
    keep to, the recount in parts of 5,000 game numbers does, at 20,000 games and at twice
    as many, and gives the recount of one statement (made without the limit); so does the
    delta of games taken away all over the database."""
    import subprocess
    import sys

    pytest.importorskip("pdnkit.core.compiled")
    root = Path(__file__).resolve().parent.parent.parent
    db = tmp_path / "c.duckdb"
    subprocess.run([sys.executable, str(root / "benchmarks" / "counts_upkeep.py"), "make",
                    str(db), "--games", "40000", "--base", "500", "--seed", "7"],
                   check=True, capture_output=True)
    monkeypatch.setattr(countdelta, "PART_GAMES", 5000)
    con = duckdb.connect(str(db))
    con.execute("SET threads = 2")
    con.execute("SET memory_limit = '40MB'")
    with pytest.raises(duckdb.OutOfMemoryException):
        _one_statement(con)  # the limit is one the recount of before cannot keep to
    for games in (20000, 40000):
        con.execute("UPDATE games SET duplicate_of = CASE WHEN game_id > "
                    f"{games} THEN 1 END")
        con.execute("DELETE FROM tree_counts")
        rebuild_counts(con)
        con.execute("SET memory_limit = '1GB'")
        assert_counts_are_a_recount(con)
        con.execute("SET memory_limit = '40MB'")
    rnd = random.Random(7)
    moved = rnd.sample(range(1, 40000), 300)
    con.execute("UPDATE games SET duplicate_of = game_id + 1 WHERE game_id IN "
                f"({', '.join(map(str, moved))})")
    assert settle_counts(con) == "moved"
    con.execute("SET memory_limit = '1GB'")
    assert_counts_are_a_recount(con)
    con.close()


def test_tables_that_disagree_with_the_games_are_counted_again(tmp_path: Path) -> None:
    """Counts whose stamp is right but whose rows were altered (a row counting more games,
    or fewer, than the games give it) are caught by the delta that touches them: a row
    would count fewer than no game, or keep games no game gives it; both recount."""
    db = tmp_path / "g.duckdb"
    import_files([write(tmp_path / "a.pdn", game_texts(45, 80, "e1"))], db=db)
    con = duckdb.connect(str(db))
    only = ("SELECT first_game FROM tree_counts WHERE games = 1 AND first_game > 1 "
            "ORDER BY first_game LIMIT 1")
    for change in ("games = 0", "games = games + 1"):
        (game,) = con.execute(only).fetchall()[0]
        con.execute(f"UPDATE tree_counts SET {change} WHERE games = 1 AND first_game = {game}")
        con.execute(f"UPDATE games SET duplicate_of = 1 WHERE game_id = {game}")
        assert settle_counts(con) == "rebuilt", change
        assert_counts_are_a_recount(con)
        con.execute(f"UPDATE games SET duplicate_of = NULL WHERE game_id = {game}")
        assert settle_counts(con) == "moved"
        assert_counts_are_a_recount(con)
    con.close()


def test_a_replaced_file_whose_games_keep_their_numbers_is_counted_again(
        tmp_path: Path, settles: list[str]) -> None:
    """The newest file replaced gives its games the same numbers again: a game edited there
    with the same length and result hashes as before, so the files loaded are part of the
    stamp; the counts are counted again and equal the recount."""
    import re

    def shape(text: str) -> tuple[str, ...]:
        head, body = text.split("\n\n")[:2]
        return (*re.findall(r'(?:GameType|Result) "([^"]+)"', head), str(len(body.split())))

    db = tmp_path / "g.duckdb"
    games = game_texts(46, 30, "e1")
    path = write(tmp_path / "a.pdn", games)
    import_files([path], db=db)
    other = next(t for t in game_texts(47, 400, "e1") if shape(t) == shape(games[5])
                 and t.split("\n\n")[1] != games[5].split("\n\n")[1])
    games[5] = games[5].split("\n\n")[0] + "\n\n" + other.split("\n\n")[1] + "\n\n"
    write(path, games)
    import_files([path], db=db)
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT min(game_id), max(game_id) FROM games").fetchall() == [(1, 30)]
    con.close()
    assert settles == ["rebuilt", "rebuilt"]
    assert_counts_are_a_recount(db)
