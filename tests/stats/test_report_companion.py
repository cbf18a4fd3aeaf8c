"""``report collection --out X.html`` also writes ``X.games.html``, a file no option names:
it overwrote a user's file of that name, followed a symbolic link there (a notes file was
overwritten), and a kill between the two writes left a new page beside the old report. The
page now goes through the one output check and replaces only a page pdnkit wrote, never a
link; the report and its page are written whole under their names first and renamed
together, so a kill before the renames leaves both as they were. Kills are real
(``PDNKIT_KILL_AT`` at the named steps, in a child process)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pdnkit.report_files import CompanionError, check_companion, companion_of, write_report
from pdnkit.viewer.page import is_viewer_page, view
from tests.cli.helpers import cli

ROOT = Path(__file__).resolve().parents[2]

GAMES = ('[Event "Club"]\n[White "Ann"]\n[Black "Bob"]\n[GameType "20"]\n\n'
         "1. 32-28 19-23 2. 28-22 *\n\n"  # a missed capture: a game to check
         '[Event "Club"]\n[White "Cy"]\n[Black "Di"]\n[GameType "20"]\n\n'
         "1. 33-29 19-24 *\n")
NOTES = "<p>my notes: never to be overwritten</p>\n"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("report")
    (folder / "club.pdn").write_text(GAMES, encoding="utf-8")
    db = folder / "club.duckdb"
    code, _, err = cli("import", folder / "club.pdn", "--db", db, "--quiet")
    assert code in (0, 1), err
    return db


def _error_line(err: str) -> str:
    lines = [x for x in err.splitlines() if x.startswith("pdnkit: error: ")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_the_report_and_its_page_are_written_and_linked(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    code, stdout, err = cli("report", "collection", "--db", db, "--out", out)
    assert code == 0, err
    page = tmp_path / "r.games.html"
    assert f"wrote {page}" in stdout and is_viewer_page(page)
    assert re.search(r'href="\./r\.games\.html#g=1&amp;ply=\d+"', out.read_text("utf-8"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.games.html", "r.html"]
    again = out.read_text("utf-8")  # a page of ours is replaced on the next run
    code, _, err = cli("report", "collection", "--db", db, "--out", out)
    assert code == 0, err
    assert is_viewer_page(page) and out.read_text("utf-8").count("r.games.html") \
        == again.count("r.games.html")


def test_a_users_file_at_the_pages_name_is_never_replaced(db: Path, tmp_path: Path) -> None:
    notes = tmp_path / "r.games.html"
    notes.write_text(NOTES, encoding="utf-8")
    code, _, err = cli("report", "collection", "--db", db, "--out", tmp_path / "r.html")
    line = _error_line(err)
    assert code == 2 and "r.games.html exists and is not a page pdnkit wrote" in line
    assert notes.read_text(encoding="utf-8") == NOTES
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.games.html"]  # no report either


def test_a_link_at_the_pages_name_is_never_followed(db: Path, tmp_path: Path) -> None:
    notes = tmp_path / "notes.html"
    notes.write_text(NOTES, encoding="utf-8")
    (tmp_path / "r.games.html").symlink_to(notes)
    code, _, err = cli("report", "collection", "--db", db, "--out", tmp_path / "r.md")
    assert code == 2 and "is a symbolic link" in _error_line(err)
    assert notes.read_text(encoding="utf-8") == NOTES
    assert (tmp_path / "r.games.html").is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.html", "r.games.html"]
    # even a link to a page pdnkit wrote: the user never named it
    view(GAMES, out=tmp_path / "mine.html")
    (tmp_path / "r.games.html").unlink()
    (tmp_path / "r.games.html").symlink_to(tmp_path / "mine.html")
    with pytest.raises(CompanionError, match="symbolic link"):
        check_companion(tmp_path / "r.games.html")


def test_a_folder_at_the_pages_name_is_refused(db: Path, tmp_path: Path) -> None:
    (tmp_path / "r.games.html").mkdir()
    code, _, err = cli("report", "collection", "--db", db, "--out", tmp_path / "r.html")
    assert code == 2 and "is a folder" in _error_line(err)


def test_reports_without_a_page_ignore_a_file_of_that_name(db: Path, tmp_path: Path) -> None:
    """The endgame and openings reports write no page: a file named like it is not theirs
    to check, and stays."""
    notes = tmp_path / "e.games.html"
    notes.write_text(NOTES, encoding="utf-8")
    for kind in ("endgame", "openings"):
        code, _, err = cli("report", kind, "--db", db, "--out", tmp_path / "e.html")
        assert code == 0, err
    assert notes.read_text(encoding="utf-8") == NOTES


def test_the_page_is_never_the_database(db: Path, tmp_path: Path) -> None:
    """The one output check covers the page too: a report whose page would be the database
    (``club.duckdb`` named ``X.games.html``) is refused before anything is written."""
    copy = tmp_path / "x.games.html"
    copy.write_bytes(db.read_bytes())
    before = copy.read_bytes()
    with pytest.raises(Exception, match="not a page pdnkit wrote|also an input"):
        write_report("collection", tmp_path / "x.md", copy)
    assert copy.read_bytes() == before


def _report_process(db: Path, out: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pdnkit", "report", "collection", "--db",
                           str(db), "--out", str(out)], env=dict(os.environ, PYTHONPATH=str(ROOT),
                                                                 **env),
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("step", ["report.page-written", "report.written"])
def test_a_kill_before_the_renames_keeps_the_old_report_and_page(
        db: Path, tmp_path: Path, step: str) -> None:
    out = tmp_path / "r.html"
    code, _, err = cli("report", "collection", "--db", db, "--out", out)
    assert code == 0, err
    page = companion_of(out)
    old = (out.read_bytes(), page.read_bytes())
    out.write_bytes(old[0] + b"<!-- the old report -->")  # to tell them apart
    page.write_bytes(old[1] + b"<!-- the old page -->")
    before = (out.read_bytes(), page.read_bytes())
    r = _report_process(db, out, {"PDNKIT_KILL_AT": step})
    assert r.returncode == -9, r.stderr
    assert (out.read_bytes(), page.read_bytes()) == before
    leftovers = sorted(p.name for p in tmp_path.iterdir() if p.name not in ("r.html",
                                                                           "r.games.html"))
    assert all(n.startswith(".r.html.") and n.endswith(".tmp") for n in leftovers), leftovers
    r = _report_process(db, out, {})  # the next run replaces both, and its leftovers
    assert r.returncode == 0, r.stderr
    assert (out.read_bytes(), page.read_bytes()) != before
    assert b"the old" not in out.read_bytes() + page.read_bytes()


def test_the_steps_are_reached_in_order(db: Path, tmp_path: Path) -> None:
    log = tmp_path / "steps.log"
    r = _report_process(db, tmp_path / "r.html", {"PDNKIT_STEP_LOG": str(log)})
    assert r.returncode == 0, r.stderr
    assert log.read_text(encoding="utf-8").split() == ["report.page-written", "report.written"]


def test_check_companion_accepts_only_pdnkit_pages(tmp_path: Path) -> None:
    page = tmp_path / "p.games.html"
    check_companion(page)  # nothing there
    view(GAMES, out=page)
    check_companion(page)  # ours
    old = page.read_text(encoding="utf-8").replace(
        '<meta name="generator" content="pdnkit view">\n', "")
    page.write_text(old, encoding="utf-8")  # a page of an earlier version: its index
    assert is_viewer_page(page)
    check_companion(page)
    page.write_text("<!DOCTYPE html><p>pdnkit-index</p>", encoding="utf-8")
    with pytest.raises(CompanionError, match="not a page pdnkit wrote"):
        check_companion(page)


def test_atomic_paths_replaces_all_or_nothing(tmp_path: Path) -> None:
    from pdnkit._atomic import atomic_paths

    one, two = tmp_path / "one.html", tmp_path / "two.html"
    one.write_text("old one", encoding="utf-8")
    two.write_text("old two", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_paths([one, two]) as (a, b):
        a.write_text("new one", encoding="utf-8")
        b.write_text("new two", encoding="utf-8")
        raise RuntimeError("failed after both were written")
    assert (one.read_text("utf-8"), two.read_text("utf-8")) == ("old one", "old two")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.html", "two.html"]
    with atomic_paths([one, tmp_path / "sub" / "three.html"]) as (a, c):
        a.write_text("new one", encoding="utf-8")  # three is not written: nothing made
    assert one.read_text("utf-8") == "new one" and not (tmp_path / "sub" / "three.html").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.html", "sub", "two.html"]


def test_atomic_paths_refuses_a_folder_or_one_file_twice(tmp_path: Path) -> None:
    from pdnkit._atomic import OutputIsInputError, atomic_paths
    from pdnkit.errors import ArgumentError

    (tmp_path / "dir.html").mkdir()
    with pytest.raises(ArgumentError, match="not a file"), \
            atomic_paths([tmp_path / "dir.html"]):
        pass
    (tmp_path / "link.html").symlink_to(tmp_path / "a.html")
    with pytest.raises(ArgumentError, match="the same file"), \
            atomic_paths([tmp_path / "a.html", tmp_path / "link.html"]):
        pass
    src = tmp_path / "in.pdn"
    src.write_text(GAMES, encoding="utf-8")
    with pytest.raises(OutputIsInputError), atomic_paths([tmp_path / "x.html", src], [src]):
        pass
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir.html", "in.pdn", "link.html"]


def test_write_report_needs_a_report_extension(db: Path, tmp_path: Path) -> None:
    from pdnkit.errors import ArgumentError

    with pytest.raises(ArgumentError, match="must end in .md or .html"):
        write_report("collection", tmp_path / "r.txt", db)
    assert list(tmp_path.iterdir()) == []
    files = write_report("collection", tmp_path / "R.HTM", db)
    assert files.page == tmp_path / "R.games.html" and is_viewer_page(files.page)
