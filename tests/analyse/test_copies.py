"""``analyse`` on a database holding copies: each game analysed once by default, as the record
that stands for its copies (its scores and findings are the copies'), whichever of the copies
the run names; ``--all-copies`` analyses every record. Checked with the scripted Hub engine (a
real process that logs every search) and on the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdnkit.analysis import analyse
from pdnkit.store import import_files
from tests.analyse.conftest import GAMES
from tests.analyse.test_run import ALL_POSITIONS, EVALS, script, table
from tests.cli.helpers import cli
from tests.engines.helpers import game_text, positions_of

#: the games copied: the two from the start (the third, from a set-up position, is not
#: grouped with anything)
COPIED = GAMES[:2]
COPIED_POSITIONS = [p for moves, fen in COPIED for p in positions_of(moves, fen)]
SEARCHED = sum(1 for p in COPIED_POSITIONS if not p.is_terminal())


@pytest.fixture
def copied(collection: Path, tmp_path: Path) -> tuple[Path, Path]:
    """The collection and its first two games in other bytes (CRLF line ends, another
    folder): every game of the second file a copy of one of the first."""
    copy = tmp_path / "archive" / "games.pdn"
    copy.parent.mkdir()
    text = "".join(game_text(m, f, f"G{i}") for i, (m, f) in enumerate(COPIED))
    copy.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    return collection, copy


def searches(tmp: Path) -> int:
    log = tmp / "log.txt"
    return log.read_text().count("go analyze") if log.exists() else 0


def test_each_game_once_whichever_copy_is_named(copied: tuple[Path, Path],
                                                tmp_path: Path) -> None:
    original, copy = copied
    db = tmp_path / "a.duckdb"
    import_files([original, copy], db=db)
    groups = table(db, "SELECT f.path, g.duplicate_of IS NULL FROM games g JOIN files f "
                       "USING (file_id) ORDER BY g.game_id")
    assert groups == [(str(original), True)] * len(GAMES) + [(str(copy), False)] * len(COPIED)
    engine, _ = script(tmp_path)
    heard: list[str] = []
    # naming the copies analyses the games they copy, once
    s = analyse([copy], db, engine=engine, depth=7, note=heard.append)
    assert (s.games, s.positions, s.already) == (len(COPIED), len(COPIED_POSITIONS), 0)
    assert searches(tmp_path) == SEARCHED
    assert heard == [f"{len(COPIED)} copies of games analysed as the record standing for "
                     "them (--all-copies: every record)"]
    assert table(db, "SELECT DISTINCT f.path FROM evals e JOIN games g USING (game_id) "
                     "JOIN files f USING (file_id)") == [(str(original),)]
    # the originals and the copies together: only the game without a copy is left
    again = analyse([original, copy], db, engine=engine, depth=7)
    assert (again.games, again.positions, again.already) == (
        len(GAMES), len(ALL_POSITIONS) - len(COPIED_POSITIONS), len(COPIED_POSITIONS))
    # the whole database: nothing more
    assert analyse(db=db, engine=engine, depth=7).positions == 0
    assert table(db, "SELECT count(*) FROM evals e JOIN games g USING (game_id) "
                     "WHERE g.duplicate_of IS NOT NULL") == [(0,)]


def test_all_copies_analyses_every_record_with_the_same_scores(
        copied: tuple[Path, Path], tmp_path: Path) -> None:
    original, copy = copied
    db = tmp_path / "a.duckdb"
    engine, _ = script(tmp_path)
    first = analyse([original, copy], db, engine=engine, depth=7)
    assert first.positions == len(ALL_POSITIONS)
    once = searches(tmp_path)
    every = analyse(db=db, engine=engine, depth=7, all_copies=True)
    assert (every.games, every.positions, every.already) == (
        len(GAMES) + len(COPIED), len(COPIED_POSITIONS), len(ALL_POSITIONS))
    assert searches(tmp_path) == once + SEARCHED
    rows = table(db, EVALS.replace("SELECT g.game_index,", "SELECT f.path, g.game_index,")
                 .replace("JOIN games g USING (game_id)",
                          "JOIN games g USING (game_id) JOIN files f USING (file_id)"))
    of_copy = [r[1:] for r in rows if r[0] == str(copy)]
    assert len(of_copy) == len(COPIED_POSITIONS)
    assert of_copy == [r[1:] for r in rows if r[0] == str(original) and r[1] < len(COPIED)]


def test_the_command_line_analyses_each_game_once_or_every_record(
        copied: tuple[Path, Path], tmp_path: Path) -> None:
    original, copy = copied
    db = tmp_path / "a.duckdb"
    code, out, err = cli("analyse", original, copy, "--db", db, "--depth", "2", "-q")
    assert code == 0, err
    assert f"{len(COPIED)} copies of games analysed as the record standing for them" in err
    assert f": {len(GAMES)} games, {len(ALL_POSITIONS)} positions evaluated now" in out
    code, out, err = cli("analyse", "--db", db, "--depth", "2", "-q", "--all-copies")
    assert code == 0, err
    assert "copies of games" not in err
    assert (f": {len(GAMES) + len(COPIED)} games, {len(COPIED_POSITIONS)} positions "
            f"evaluated now") in out and f"{len(ALL_POSITIONS)} already done" in out
