"""``players suggest`` counts each game once: a name written in a copy of a game counts the game
it copies, a name written in a game and in its copies counts it once, as every statistic does;
``--all-copies`` counts every record. Checked on a hand-written tournament, its copies as
another archive holds them (the names written otherwise) and an exact copy of the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pdnkit.stats.identities import suggest
from pdnkit.store import import_files
from tests.cli.helpers import cli
from tests.copies_kit import OTHER_SPELLING, tournament, tournament_copies, tournament_games

SIJBRANDS = "Sijbrands, Ton"


def played(name: str) -> int:
    """The tournament's games ``name`` played, counted from the games written by hand."""
    return sum(1 for _, _, t in tournament_games() if name in (t["white"], t["black"]))


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tournament, its copies written otherwise, and the same file again in other bytes:
    every game three records."""
    tmp = tmp_path_factory.mktemp("suggest")
    original = tournament(tmp / "a")
    again = tmp / "c" / "originals.pdn"
    again.parent.mkdir()
    again.write_bytes(original.read_bytes().replace(b"\n", b"\r\n"))
    path = tmp / "g.duckdb"
    import_files([original, tournament_copies(tmp / "b"), again], db=path)
    return path


def row(df: object, a: str, b: str) -> dict[str, object]:
    rows = [r for r in df.to_dict("records")  # type: ignore[attr-defined]
            if {r["name_a"], r["name_b"]} == {a, b}]
    assert len(rows) == 1, (a, b)
    r = rows[0]
    return {a: r["games_a"] if r["name_a"] == a else r["games_b"],
            b: r["games_b"] if r["name_a"] == a else r["games_a"]}


def test_each_game_counts_once(db: Path) -> None:
    n = played(SIJBRANDS)
    assert n >= 2
    other = OTHER_SPELLING[SIJBRANDS]
    # written in the game and its exact copy: once; written in the other archive's copies
    # only: the games they copy
    assert row(suggest(db), SIJBRANDS, other) == {SIJBRANDS: n, other: n}


def test_all_copies_counts_every_record(db: Path) -> None:
    n = played(SIJBRANDS)
    other = OTHER_SPELLING[SIJBRANDS]
    assert row(suggest(db, all_copies=True), SIJBRANDS, other) == {SIJBRANDS: 2 * n, other: n}


def test_the_command_line(db: Path) -> None:
    n = played(SIJBRANDS)
    other = OTHER_SPELLING[SIJBRANDS]
    for extra, want in (([], n), (["--all-copies"], 2 * n)):
        code, out, err = cli("players", "suggest", "--db", db, "-f", "json", *extra)
        assert code == 0, err
        rows = [r for r in json.loads(out) if {r["name_a"], r["name_b"]} == {SIJBRANDS, other}]
        assert len(rows) == 1
        r = rows[0]
        assert (r["games_a"] if r["name_a"] == SIJBRANDS else r["games_b"]) == want
