"""The squares of each game (``game_squares``, :mod:`pdnkit.store.gamesquares`) and of each
stretch of 16 plies (``game_stretches``): a row for every game (every stretch) after an
import, a file replaced and an upgrade from schema 7 or 9, each the OR (the pieces) and AND
(the occupancy) of the positions computed here in Python; and a pattern search that reads
only the games whose stretches (or whole games) can hold the pattern (or the kings' column
first) gives exactly what the scan of every position gives, on generated patterns over the
samples, a 12x12 collection (squares past 64) and copies of a file."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import duckdb
import pandas as pd
import pytest

import pdnkit.stats.search as searching
import pdnkit.stats.searchrun as searchrun
from pdnkit.pdn import write_games
from pdnkit.samples import sample_dir
from pdnkit.samples.samples import variant_collection
from pdnkit.stats.search import search
from pdnkit.store import import_files
from pdnkit.store.gamesquares import STRETCH_PLIES, squares_ready, squares_source, stretches_ready
from tests.store.legacy import record_as

GAME = """[Event "{event}"]
[White "Ann"]
[Black "Bob"]
[Result "*"]
[GameType "20"]

1. {first} 19-23 2. 31-27 14-19 *

"""


def _whole(low: int | None, high: int | None) -> int:
    return (low or 0) | ((high or 0) << 64)


def _expected(con: duckdb.DuckDBPyConnection, plies: int | None = None
              ) -> dict[tuple[int, int], tuple[int, ...]]:
    """Each game's squares (``plies``: of each stretch of that many plies) computed in
    Python from its stored positions, by ``(game, stretch)`` (stretch 0 for a whole game)."""
    out: dict[tuple[int, int], list[int]] = {}
    for row in con.execute("SELECT game_id, ply, wm, wk, bm, bk, wm_high, wk_high, bm_high, "
                           "bk_high FROM position_bits").fetchall():
        key = (row[0], row[1] // plies if plies else 0)
        bits = [_whole(row[i], row[i + 4]) for i in range(2, 6)]
        occ = bits[0] | bits[1] | bits[2] | bits[3]
        if key not in out:
            out[key] = [*bits, occ]
        else:
            acc = out[key]
            out[key] = [acc[0] | bits[0], acc[1] | bits[1], acc[2] | bits[2],
                        acc[3] | bits[3], acc[4] & occ]
    return {k: tuple(v) for k, v in out.items()}


def _stored(con: duckdb.DuckDBPyConnection) -> dict[tuple[int, int], tuple[int, ...]]:
    rows = con.execute("SELECT game_id, 0, wm, wk, bm, bk, occ, wm_high, wk_high, "
                       "bm_high, bk_high, occ_high FROM game_squares").fetchall()
    assert len(rows) == len({r[:2] for r in rows}), "one row a game"
    return {r[:2]: tuple(_whole(r[i], r[i + 5]) for i in range(2, 7)) for r in rows}


def _stored_stretches(con: duckdb.DuckDBPyConnection
                      ) -> dict[tuple[int, int], tuple[int, ...]]:
    rows = con.execute("SELECT game_id, stretch, wm, wk, bm, bk, wm_high, wk_high, bm_high, "
                       "bk_high FROM game_stretches").fetchall()
    assert len(rows) == len({r[:2] for r in rows}), "one row a stretch"
    return {r[:2]: tuple(_whole(r[i], r[i + 4]) for i in range(2, 6)) for r in rows}


def _agrees(con: duckdb.DuckDBPyConnection) -> None:
    assert squares_ready(con) and stretches_ready(con)
    want = _expected(con)
    assert want and _stored(con) == want
    kings = {k: v[:4] for k, v in _expected(con, STRETCH_PLIES).items() if v[1] | v[3]}
    assert _stored_stretches(con) == kings  # the stretches where a king stood


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("squares")
    files = [sample_dir()]
    canadian = d / "canadian.pdn"
    write_games(variant_collection("canadian", 12), canadian)
    copy = d / "english-copy.pdn"  # the same games again: copies, counted once
    shutil.copyfile(sample_dir() / "english.pdn", copy)
    with open(copy, "a", encoding="utf-8") as f:
        f.write("\n")
    path = d / "s.duckdb"
    import_files([*files, canadian, copy], db=path)
    return path


def test_every_game_has_its_squares(db: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    _agrees(con)
    assert con.execute("SELECT count(*) FROM game_squares WHERE occ_high IS NOT NULL"
                       ).fetchall()[0][0] == 12  # the 12x12 games alone have squares past 64
    assert con.execute("SELECT count(*) FROM games WHERE duplicate_of IS NOT NULL"
                       ).fetchall()[0][0] > 0


def _pattern(rng: random.Random, row: tuple[int, ...], n: int) -> str:
    """A pattern that the position ``row`` (``wm, wk, bm, bk`` whole) meets, with some of
    its pieces and empty squares; now and then one more square, that it may not meet."""
    wm, wk, bm, bk = row
    sq = [[s for s in range(1, n + 1) if b >> (s - 1) & 1] for b in (wm, wk, bm, bk)]
    empty = [s for s in range(1, n + 1) if not (wm | wk | bm | bk) >> (s - 1) & 1]

    def pick(xs: list[int], most: int) -> list[int]:
        return rng.sample(xs, min(len(xs), rng.randint(0, most)))

    white = [str(s) for s in pick(sq[0], 2)] + [f"K{s}" for s in pick(sq[1], 1)]
    black = [str(s) for s in pick(sq[2], 2)] + [f"K{s}" for s in pick(sq[3], 1)]
    e = pick(empty, 2)
    if rng.random() < 0.3:
        white.append(f"*{rng.randint(1, n)}")
    fields = [f"W{','.join(white)}" if white else "", f"B{','.join(black)}" if black else "",
              f"E{','.join(map(str, e))}" if e else ""]
    return ":".join(f for f in fields if f) or f"E{rng.randint(1, n)}"


def _scan(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(searching, "NARROW_SHARE", -1.0)
    monkeypatch.setattr(searching, "KINGS_FIRST", False)


def _whole_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Searches read the squares of each whole game (``game_squares``), as before
    ``game_stretches``."""
    monkeypatch.setattr(searchrun, "summary_source", lambda con, kings: (squares_source(con), True))


def test_generated_patterns_equal_the_scan(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT full_bits(wm, wm_high), full_bits(wk, wk_high), "
                       "full_bits(bm, bm_high), full_bits(bk, bk_high), l.squares "
                       "FROM position_bits p JOIN layouts l USING (layout) "
                       "ORDER BY game_id, ply").fetchall()
    rng = random.Random(35)
    kings = [r for r in rows if r[1] or r[3]]
    picked = rng.sample(rows, 40) + rng.sample(kings, 20)
    cases = []
    for r in picked:
        kw: dict[str, object] = {"pattern": _pattern(rng, tuple(int(x) for x in r[:4]), r[4])}
        kw["mirror"] = rng.random() < 0.3
        kw["first"] = rng.random() < 0.3
        if rng.random() < 0.2:
            kw["any_of"] = _pattern(rng, tuple(int(x) for x in rng.choice(rows)[:4]), r[4])
        if rng.random() < 0.15:
            kw["exclude"] = f"E{rng.randint(1, r[4])}"
        if rng.random() < 0.2:
            kw["side"] = rng.choice(["white", "black"])
        if rng.random() < 0.2:
            kw["limit"] = rng.choice([1, 3, 20])
        cases.append(kw)
    monkeypatch.setattr(searching, "NARROW_SHARE", 1.0)  # every search reads the candidates
    fast = [search(con, **kw) for kw in cases]  # type: ignore[arg-type]
    assert sum(len(df) > 0 for df in fast) >= 45
    assert any(len(df) for df, kw in zip(fast, cases, strict=True) if "K" in str(kw["pattern"]))
    with monkeypatch.context() as m:  # the squares of each whole game
        _whole_games(m)
        whole = [search(con, **kw) for kw in cases]  # type: ignore[arg-type]
    monkeypatch.setattr(searching, "NARROW_SHARE", -1.0)  # the kings' column first alone
    first = [search(con, **kw) for kw in cases]  # type: ignore[arg-type]
    _scan(monkeypatch)
    for kw, got, games, kings in zip(cases, fast, whole, first, strict=True):
        scan = search(con, **kw)  # type: ignore[arg-type]
        pd.testing.assert_frame_equal(got, scan, obj=str(kw))
        pd.testing.assert_frame_equal(games, scan, obj=str(kw))
        pd.testing.assert_frame_equal(kings, scan, obj=str(kw))


def test_stretches_name_fewer_games_than_whole_games(db: Path) -> None:
    """A stretch's squares are a subset of its game's: a pattern never names more games by
    its stretches."""
    con = duckdb.connect(str(db), read_only=True)
    bad = con.execute(
        "SELECT count(*) FROM game_stretches t JOIN game_squares s USING (game_id) WHERE "
        "t.layout <> s.layout OR (t.wm | s.wm) <> s.wm OR (t.wk | s.wk) <> s.wk OR "
        "(t.bm | s.bm) <> s.bm OR (t.bk | s.bk) <> s.bk").fetchall()[0][0]
    assert bad == 0
    named = con.execute(
        "SELECT (SELECT count(DISTINCT game_id) FROM game_stretches WHERE wk <> 0 AND "
        "bk <> 0), (SELECT count(*) FROM game_squares WHERE wk <> 0 AND bk <> 0)"
    ).fetchall()[0]
    assert 0 < named[0] <= named[1]


def test_a_pattern_no_game_can_hold_reads_no_position(db: Path) -> None:
    """White kings on squares 1 and 2 and a black man on 3 together: no game's squares."""
    con = duckdb.connect(str(db), read_only=True)
    assert search(con, pattern="WK1,K2:B3:E4").empty


def test_a_replaced_file_and_later_imports(tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    f = tmp_path / "a.pdn"
    f.write_text("".join(GAME.format(event=f"e{i}", first="32-28") for i in range(6)),
                 encoding="utf-8")
    import_files([f], db=db)
    # the same path with other games: replaced; its six numbers are given again
    f.write_text("".join(GAME.format(event=f"e{i}", first="33-28") for i in range(5)),
                 encoding="utf-8")
    import_files([f], db=db)
    for i in range(3):
        g = tmp_path / f"b{i}.pdn"
        g.write_text("".join(GAME.format(event=f"b{i}-{j}", first=("32-28", "34-29")[j % 2])
                             for j in range(3)), encoding="utf-8")
        import_files([g], db=db)
    con = duckdb.connect(str(db), read_only=True)
    _agrees(con)
    assert con.execute("SELECT count(*) FROM game_squares").fetchall()[0][0] == 14
    # W28 after 32-28 (ply 1): the b files' games 0 and 2; the replaced 32-28 games are gone
    assert len(search(con, pattern="W28:E32:B19", first=True)) == 6


def _as_before(db: Path, table: str, version: str) -> None:
    """Take ``table`` (a summary made whole, with its ready mark) out of the database at
    ``db`` and record it as of schema ``version``, the one before the table came."""
    con = duckdb.connect(str(db))
    con.execute(f"DROP TABLE {table}")
    con.execute("DELETE FROM pdnkit_meta WHERE key = ?", [f"{table}_ready"])
    record_as(con, version)
    con.close()


def test_upgrade_from_schema_7_makes_the_squares(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from pdnkit.store import upgrade

    db = tmp_path / "seven.duckdb"
    import_files([sample_dir() / "international.pdn", sample_dir() / "english.pdn"], db=db)
    _as_before(db, "game_squares", "7")
    result = upgrade(db, notice=None)
    assert result.upgraded and result.from_version == 7
    assert any("game_squares" in s for s in result.fills)
    con = duckdb.connect(str(db), read_only=True)
    _agrees(con)
    monkeypatch.setattr(searching, "NARROW_SHARE", 1.0)
    got = search(con, pattern="W28:B19", mirror=True)
    assert len(got)
    _scan(monkeypatch)
    pd.testing.assert_frame_equal(got, search(con, pattern="W28:B19", mirror=True))


def test_upgrade_from_schema_9_makes_the_stretches(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A schema-9 database (today's file with what version 10 added taken away: the
    stretches, and the copies the counts left out made on demand) upgrades to the same
    stretches, the same searches, and keeps its copies' record."""
    from pdnkit.store import upgrade

    db = tmp_path / "nine.duckdb"
    copy = tmp_path / "english-copy.pdn"
    shutil.copyfile(sample_dir() / "english.pdn", copy)
    with open(copy, "a", encoding="utf-8") as f:
        f.write("\n")
    import_files([sample_dir() / "international.pdn", sample_dir() / "english.pdn", copy],
                 db=db)
    cases = [{"pattern": "W28:B19", "mirror": True}, {"pattern": "W28", "first": True},
             {"pattern": "W28:B19:E23", "limit": 5, "side": "white"}]
    con = duckdb.connect(str(db), read_only=True)
    before = [search(con, **kw) for kw in cases]  # type: ignore[arg-type]
    copies = con.execute("SELECT game_id FROM counts_copies ORDER BY 1").fetchall()
    con.close()
    _as_before(db, "game_stretches", "9")
    result = upgrade(db, notice=None)
    assert result.upgraded and result.from_version == 9
    assert any("game_stretches" in s for s in result.fills)
    con = duckdb.connect(str(db), read_only=True)
    _agrees(con)
    assert con.execute("SELECT game_id FROM counts_copies ORDER BY 1").fetchall() == copies
    monkeypatch.setattr(searching, "NARROW_SHARE", 1.0)
    for kw, want in zip(cases, before, strict=True):
        got = search(con, **kw)  # type: ignore[arg-type]
        pd.testing.assert_frame_equal(got, want, obj=str(kw))
    assert len(before[0]) and len(before[1])
    con.close()


def test_a_lake_like_connection_reads_every_position() -> None:
    """Where ``position_bits`` is a view (a lake's parts), the squares are not used."""
    from pdnkit.store.db import connect

    con = connect(":memory:")
    assert squares_ready(con)
    con.execute("DROP TABLE position_bits")
    con.execute("CREATE VIEW position_bits AS SELECT 1::BIGINT AS game_id")
    assert not squares_ready(con)


def test_generated_limits_equal_the_head_of_the_whole_result(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``limit`` reads spans of game numbers until it has its rows: the first rows (by game
    and ply) of the whole result, whatever the first span (one game: every span but the
    last short of rows; past every game: one read), with ``first``, ``mirror``, material
    and a player's games."""
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT full_bits(wm, wm_high), full_bits(wk, wk_high), "
                       "full_bits(bm, bm_high), full_bits(bk, bk_high), l.squares "
                       "FROM position_bits p JOIN layouts l USING (layout) "
                       "ORDER BY game_id, ply").fetchall()
    rng = random.Random(36)
    cases: list[dict[str, object]] = []
    for r in rng.sample(rows, 30):
        kw: dict[str, object] = {"pattern": _pattern(rng, tuple(int(x) for x in r[:4]), r[4]),
                                 "mirror": rng.random() < 0.3, "first": rng.random() < 0.3,
                                 "limit": rng.choice([0, 1, 2, 5, 17, 60, 10_000])}
        cases.append(kw)
    cases += [{"material": "* v *", "limit": 7}, {"material": "* v *", "limit": 40,
                                                   "first": True},
              {"pattern": "W28", "limit": 3, "player": "Ann"}]
    seen = 0
    for kw in cases:
        limit = int(str(kw["limit"]))
        whole = search(con, **{k: v for k, v in kw.items() if k != "limit"})
        want = whole.head(limit).reset_index(drop=True)
        seen += 0 < limit < len(whole)
        for span in (1, 3, 10**9, 0):
            monkeypatch.setattr(searching, "LIMIT_SPAN", span)
            got = search(con, **kw)  # type: ignore[arg-type]
            if want.empty:  # (an empty frame's column types are those of no row)
                assert got.empty and list(got.columns) == list(want.columns)
            else:
                pd.testing.assert_frame_equal(got, want, obj=f"{kw} span {span}")
    assert seen >= 10  # most cases cut the whole result short


def test_filtered_games_patterns_equal_the_scan(db: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A pattern with the games' filter (a variant, a player, an event; copies counted
    once): generated patterns with filters drawn from the stored games give the same rows
    when only the candidate games' positions are read as when every position is, and each
    row's game meets a variant filter."""
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT p.game_id, full_bits(wm, wm_high), full_bits(wk, wk_high), "
                       "full_bits(bm, bm_high), full_bits(bk, bk_high), l.squares, g.variant, "
                       "g.white, g.event FROM position_bits p JOIN layouts l USING (layout) "
                       "JOIN games g USING (game_id) ORDER BY p.game_id, p.ply").fetchall()
    rng = random.Random(37)
    cases: list[dict[str, object]] = []
    for r in rng.sample(rows, 30) + rng.sample([r for r in rows if r[2] or r[4]], 10):
        kw: dict[str, object] = {"pattern": _pattern(rng, tuple(int(x) for x in r[1:5]), r[5]),
                                 "mirror": rng.random() < 0.3, "first": rng.random() < 0.3}
        other = rng.choice(rows)  # now and then another game's: few rows or none
        src = other if rng.random() < 0.2 else r
        key = rng.choice(["variant", "player", "event"])
        value = {"variant": src[6], "player": src[7], "event": src[8]}[key]
        if value:
            kw[key] = value
        if rng.random() < 0.2:
            kw["limit"] = rng.choice([1, 4])
        cases.append(kw)
    monkeypatch.setattr(searching, "NARROW_SHARE", 1.0)  # every search reads the candidates
    fast = [search(con, **kw) for kw in cases]  # type: ignore[arg-type]
    assert sum(len(df) > 0 for df in fast) >= 25
    _scan(monkeypatch)
    for kw, got in zip(cases, fast, strict=True):
        pd.testing.assert_frame_equal(got, search(con, **kw), obj=str(kw))  # type: ignore[arg-type]
        if "variant" in kw:
            assert set(got["variant"]) <= {kw["variant"]}
