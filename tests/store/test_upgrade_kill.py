"""Issue 26 point 1: an upgrade cannot lose a database. A real ``pdnkit upgrade`` process is
killed (``SIGKILL``) at every step it names (``PDNKIT_KILL_AT``) and at a few random moments;
after each kill the file opens with DuckDB alone, as the old or the new schema, with every row,
and a second upgrade completes. A read command never rewrites an older database; a write
command upgrades it with a notice and the backup."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from pdnkit.store import connect, import_files, upgrade
from pdnkit.store.db import SCHEMA_VERSION
from pdnkit.store.upgrades import LOCK_SUFFIX, UPGRADING_SUFFIX, needs_upgrade
from tests.store.legacy import (
    schema_version_of,
    table_columns,
    table_rows,
    version_4_database,
)
from tests.store.safety_helpers import GAME_A, ROOT, cli, one_error_line

#: random moments of the timed kills (seconds into a run, scaled by its measured length)
TIMED_KILLS = 4


@pytest.fixture(scope="module")
def v4(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, dict, str]:
    """A version-4 database, its columns and rows (read with DuckDB alone), how it was made."""
    db, how = version_4_database(tmp_path_factory.mktemp("v4"))
    columns = table_columns(db)
    return db, columns, table_rows(db, columns), how


def _copy(db: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "games.duckdb"
    shutil.copyfile(db, target)
    return target


def _start(db: Path, **env: str) -> subprocess.Popen[bytes]:
    """``pdnkit upgrade --db DB`` in a process of its own (this worktree's pdnkit)."""
    full = dict(os.environ, PYTHONPATH=str(ROOT), **env)
    return subprocess.Popen([sys.executable, "-m", "pdnkit", "upgrade", "--db", str(db)],
                            env=full, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _steps(v4db: Path, folder: Path) -> tuple[list[str], float]:
    """Every step an upgrade names, in order, and how long a whole run takes."""
    db = _copy(v4db, folder)
    log = folder / "steps.txt"
    start = time.perf_counter()
    proc = _start(db, PDNKIT_STEP_LOG=str(log))
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err.decode()
    return log.read_text(encoding="utf-8").split(), time.perf_counter() - start


def _run_all(runs: list[tuple[Path, dict[str, str], float | None]]) -> list[int]:
    """Start the runs (at most four at a time); a run with a delay is killed then."""
    codes: list[int] = []
    for i in range(0, len(runs), 4):
        procs = []
        for db, env, delay in runs[i:i + 4]:
            procs.append((_start(db, **env), delay, time.perf_counter()))
        for proc, delay, started in procs:
            if delay is not None:
                left = delay - (time.perf_counter() - started)
                try:
                    proc.wait(timeout=max(left, 0.0))
                except subprocess.TimeoutExpired:
                    proc.send_signal(signal.SIGKILL)
            proc.communicate(timeout=300)
            codes.append(proc.returncode)
    return codes


def _assert_whole(db: Path, columns: dict, rows: dict, label: str) -> int:
    """The database opens with DuckDB alone, old or new, with the same rows."""
    version = schema_version_of(db)
    assert version in (4, SCHEMA_VERSION), label
    assert table_rows(db, columns) == rows, label
    return version


#: the steps every default run kills at: the first and the moments around the swap (the
#: others are sampled; the slow run kills at every step)
KEY_STEPS = ("upgrade.locked", "upgrade.checked", "upgrade.flushed", "upgrade.backup",
             "upgrade.swapped", "upgrade.done")
#: steps sampled besides the key ones in the default run
SAMPLED_STEPS = 3


def _kill_and_check(v4: tuple[Path, dict, dict, str], tmp_path: Path, every_step: bool,
                    timed: int) -> None:
    v4db, columns, rows, how = v4
    steps, seconds = _steps(v4db, tmp_path / "probe")
    assert len(steps) >= 16 and steps[0] == "upgrade.locked" and "upgrade.swapped" in steps
    rng = random.Random(26)
    chosen = steps
    if not every_step:
        others = [s for s in steps if s not in KEY_STEPS]
        sample = set(rng.sample(others, min(SAMPLED_STEPS, len(others))))
        chosen = [s for s in steps if s in KEY_STEPS or s in sample]
        assert set(KEY_STEPS) <= set(chosen), (KEY_STEPS, steps)
    runs: list[tuple[Path, dict[str, str], float | None]] = []
    labels = []
    for n, step in enumerate(chosen):
        runs.append((_copy(v4db, tmp_path / f"k{n}"), {"PDNKIT_KILL_AT": step}, None))
        labels.append(f"killed at {step}")
    for n in range(timed):
        delay = rng.uniform(0.3, 1.0) * seconds
        runs.append((_copy(v4db, tmp_path / f"t{n}"), {}, delay))
        labels.append(f"killed after {delay:.2f} s")
    codes = _run_all(runs)
    seen = set()
    for (db, env, _), code, label in zip(runs, codes, labels, strict=True):
        if "PDNKIT_KILL_AT" in env:
            assert code == -signal.SIGKILL, (label, code)
        version = _assert_whole(db, columns, rows, label)
        seen.add((version, code == -signal.SIGKILL))
        # a second upgrade completes (a leftover copy removed, a stale lock taken over)
        result = upgrade(db, notice=None)
        assert result.upgraded == (version == 4), label
        assert _assert_whole(db, columns, rows, label) == SCHEMA_VERSION
        left = sorted(p.name for p in db.parent.iterdir())
        assert left in (["games.duckdb", "games.duckdb.schema4.bak"],), (label, left)
        assert table_rows(db.parent / "games.duckdb.schema4.bak", columns) == rows, label
    # the kills fell before and after the swap
    assert (4, True) in seen and (SCHEMA_VERSION, True) in seen, (how, seen)


def test_an_upgrade_killed_at_its_key_moments_loses_nothing(v4, tmp_path: Path) -> None:
    """The first step, the steps around the swap and a sample of the others, and two
    random moments."""
    _kill_and_check(v4, tmp_path, every_step=False, timed=2)


@pytest.mark.slow
def test_an_upgrade_killed_at_any_moment_loses_nothing(v4, tmp_path: Path) -> None:
    """Every step the upgrade names, and a few random moments."""
    _kill_and_check(v4, tmp_path, every_step=True, timed=TIMED_KILLS)


def test_a_read_command_never_rewrites_an_older_database(v4, tmp_path: Path) -> None:
    v4db, columns, rows, _ = v4
    db = _copy(v4db, tmp_path)
    before = db.read_bytes()
    for command in (["stats", "results"], ["query", "SELECT count(*) FROM games"],
                    ["export", "--out", tmp_path / "x.pdn"], ["duplicates"],
                    ["search", "--pattern", "W28"], ["view", "--out", tmp_path / "v.html"]):
        code, _, err = cli(*command, "--db", db)
        line = one_error_line(err)
        assert code == 2 and f"pdnkit upgrade --db {db}" in line, (command, line)
        assert "schema version 4" in line
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.duckdb"]


@pytest.mark.parametrize("command", [
    ["import", "{src}", "--quiet"],
    ["query", "--write", "UPDATE games SET site = 'here' WHERE game_id = 1"],
    ["players", "alias", "A. Player", "--as", "Ann Player"],
])
def test_a_write_command_upgrades_with_a_notice_and_a_backup(v4, tmp_path: Path,
                                                             command: list[str]) -> None:
    v4db, columns, rows, _ = v4
    db = _copy(v4db, tmp_path / "db")
    src = tmp_path / "new.pdn"
    src.write_text(GAME_A, encoding="utf-8")
    before = db.read_bytes()
    code, out, err = cli(*[a.format(src=src) for a in command], "--db", db)
    assert code == 0, err
    backup = db.with_name("games.duckdb.schema4.bak")
    assert f"upgrading the database {db} from schema version 4 to {SCHEMA_VERSION}" in err
    assert str(backup) in err
    assert backup.read_bytes() == before
    assert needs_upgrade(db) is None


def test_upgrade_keeps_what_the_user_added_and_fills_the_new_columns(v4, tmp_path: Path
                                                                     ) -> None:
    v4db, columns, rows, how = v4
    db = _copy(v4db, tmp_path)
    code, out, err = cli("upgrade", "--db", db)
    assert code == 0, err
    assert f"upgraded from schema version 4 to {SCHEMA_VERSION}" in out
    assert "games.duckdb.schema4.bak" in out
    assert "table my_notes" in out and "column games.my_flag" in out and \
        "view my_long_games" in out
    assert table_rows(db, columns) == rows
    con = connect(db, read_only=True)
    try:
        # every game with a result as written says where it comes from
        assert con.execute("SELECT count(*) FROM games WHERE result_raw IS NOT NULL AND "
                           "result_source IS NULL").fetchall()[0][0] == 0
        assert con.execute("SELECT count(*) FROM games WHERE result_source = 'tag'"
                           ).fetchall()[0][0] > 100
        # no alias of a player to itself is left
        assert con.execute("SELECT alias, name FROM player_aliases").fetchall() == [
            ("A. Player", "Ann Player")]
    finally:
        con.close()
    code, out, err = cli("upgrade", "--db", db)
    assert code == 0 and "up to date" in out


def test_the_upgrade_fills_result_source_as_an_import_does(tmp_path: Path) -> None:
    """The fill step's ``result_source`` (from the tags) is what the validator gives at
    import, on every sample game."""
    pytest.importorskip("pdnkit.validation.report")
    from pdnkit.samples import sample_dir
    from pdnkit.store.upgrades import fill_result_source
    from pdnkit.validation.report import GameReport

    if "result_source" not in GameReport.__dataclass_fields__:
        pytest.skip("the validator does not give result_source yet (the reader's work)")
    db = tmp_path / "g.duckdb"
    import_files([sample_dir()], db=db)
    con = duckdb.connect(str(db))
    imported = con.execute("SELECT game_id, result_source FROM games ORDER BY 1").fetchall()
    con.execute("UPDATE games SET result_source = NULL")
    fill_result_source(con)
    assert con.execute("SELECT game_id, result_source FROM games ORDER BY 1").fetchall() \
        == imported
    con.close()


def test_two_upgrades_at_once_one_waits_for_the_other(v4, tmp_path: Path) -> None:
    """A second upgrade while one runs is refused with the first one's pid; the database
    is then upgraded once."""
    v4db, columns, rows, _ = v4
    db = _copy(v4db, tmp_path)
    marker = tmp_path / "paused"
    first = _start(db, PDNKIT_PAUSE_AT=f"upgrade.copy.games={marker}")
    deadline = time.monotonic() + 60
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marker.exists(), first.communicate()[1].decode()
    second = _start(db)
    _, err = second.communicate(timeout=120)
    line = one_error_line(err.decode())
    assert second.returncode == 2 and f"pid {first.pid}" in line and "in use" in line
    marker.unlink()
    _, err = first.communicate(timeout=120)
    assert first.returncode == 0, err.decode()
    assert schema_version_of(db) == SCHEMA_VERSION and table_rows(db, columns) == rows
    assert not Path(str(db) + LOCK_SUFFIX).exists()
    assert not Path(str(db) + UPGRADING_SUFFIX).exists()
