"""Every table is the same whatever the order the games were imported in: the same
hand-written games, in two files imported A then B and B then A (and each file's games in the
opposite order), give byte-identical JSON from every table command that does not list games
by their import number.

The games hold the ties an order could decide: two games of one pairing on one date and
round with opposite results (a crosstable cell's order), two move orders reaching one
position once each (the move order ``--by position`` shows), two codes of one name once
each (``--by name``), two names of one code once each (``--by code``), a player's first games
on one day written two ways (``2003`` and ``2003.01.01``: ``first_date``), one player written
two ways (``Eve``, ``EVE``: ``players suggest``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdnkit.cli import app
from pdnkit.store import import_files

A = [  # (event, date, round, white, black, result, gametype, moves)
    ("Cup", "2003.01.01", "1", "Ann", "Bob", "2-0", "20", "1. 31-26 16-21 2. 32-28 18-22"),
    ("Cup", "2003.01.01", "1", "Bob", "Ann", "2-0", "20", "1. 32-28 18-22 2. 31-26 16-21"),
    ("Cup", "2003", "2", "Ann", "Cid", "1-1", "20", "1. 33-28 18-23"),
    ("Open", "2004.05.??", "1", "Cid", "Dan", "1-1", "20", "1. 34-30 20-25"),
]
B = [
    ("Cup", "2003.01.01", "1", "Ann", "Bob", "0-2", "20", "1. 31-27 18-22"),
    ("Cup", "2003.01.02", "3", "Cid", "Bob", "2-0", "20", "1. 31-27 19-23"),
    ("Club", "1999/00", "1", "Eve", "Fay", "1-0", "21", "1. 11-15 23-18 2. 8-11 27-23"),
    ("Club", "1999/00", "2", "Fay", "Eve", "0-1", "21", "1. 11-15 23-18 2. 12-16 18x11"),
    ("Club", "2000", "3", "Eve", "Gus", "1/2-1/2", "21", "1. 11-15 23-19 2. 8-11 22-17 3. 9-13"),
    ("Club", "2000", "4", "Gus", "EVE", "1/2-1/2", "21", "1. 11-15 23-19 2. 8-11 22-17 3. 4-8"),
]

COMMANDS = [
    ["stats", "players"],
    ["stats", "openings", "--by", "name"],
    ["stats", "openings", "--by", "code"],
    ["stats", "openings", "--by", "moves", "--plies", "2"],
    ["stats", "openings", "--by", "position", "--plies", "4"],
    ["stats", "results", "--by", "variant,event,year"],
    ["stats", "lengths"],
    ["stats", "findings"],
    ["stats", "crosstable", "--event", "Cup"],
    ["stats", "crosstable", "--event", "Club"],
    ["players", "suggest"],
    ["tree", "--variant", "international"],
]


def _write(path: Path, games: list[tuple[str, ...]]) -> Path:
    path.write_text("".join(
        f'[Event "{e}"]\n[Date "{d}"]\n[Round "{r}"]\n[White "{w}"]\n[Black "{b}"]\n'
        f'[Result "{res}"]\n[GameType "{gt}"]\n\n{moves} {res}\n\n'
        for e, d, r, w, b, res, gt, moves in games), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def databases(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("order")
    one, two = d / "one", d / "two"
    one.mkdir()
    two.mkdir()
    first = tmp_path_factory.mktemp("first")
    second = tmp_path_factory.mktemp("second")
    a1, b1 = _write(first / "a.pdn", A), _write(first / "b.pdn", B)
    a2, b2 = _write(second / "a.pdn", A[::-1]), _write(second / "b.pdn", B[::-1])
    import_files([a1, b1], db=one / "g.duckdb")
    import_files([b2, a2], db=two / "g.duckdb")
    return one / "g.duckdb", two / "g.duckdb"


def _json(db: Path, args: list[str]) -> object:
    r = CliRunner().invoke(app, [*args, "--db", str(db), "-f", "json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_table_does_not_depend_on_the_order_of_import(databases: tuple[Path, Path],
                                                       args: list[str]) -> None:
    one, two = (_json(db, args) for db in databases)
    assert one == two
    assert one  # each table has rows here


def test_the_ties_are_decided_by_what_the_games_are(databases: tuple[Path, Path]) -> None:
    one = databases[0]
    cup = {r["player"]: r for r in _json(one, ["stats", "crosstable", "--event", "Cup"])}  # type: ignore[union-attr]
    bob_column = str(next(r["rank"] for r in cup.values() if r["player"] == "Bob"))
    # Ann - Bob, round 1 on one day: her loss and her win as White, then Bob's win as White
    # (the games by White's name, then the outcome: black before white)
    assert cup["Ann"][bob_column] == "0 2 0"
    by_position = _json(one, ["stats", "openings", "--by", "position", "--plies", "4"])
    row = next(r for r in by_position if r["sequences"] == 2)  # type: ignore[union-attr]
    assert row["opening"] == "31-26 16-21 32-28 18-22"  # one game each: the first by text
    ann = next(r for r in _json(one, ["stats", "players"]) if r["player"] == "Ann")  # type: ignore[union-attr]
    assert ann["first_date"] == "2003"  # 2003 and 2003-01-01 start on one day: by the text
