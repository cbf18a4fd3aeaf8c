"""Issue 26 points 4, 6a, 12 and 13: one output check for every command (the database given
with --db, an input, inside an input folder, symbolic links resolved), pages written whole or
not at all, an unknown variant refused by every command with the list, no traceback."""

from __future__ import annotations

import os
import resource
from pathlib import Path

import pytest

from tests.cli.helpers import build, cli
from tests.store.safety_helpers import GAME_A, cli_process, one_error_line


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("cup"))


@pytest.mark.parametrize("command", [
    ["search", "--pattern", "W28:B19"],
    ["players", "aliases"],
    ["players", "suggest"],
    ["stats", "crosstable", "--event", "Cup"],
    ["stats", "players"],
    ["tree"],
    ["query", "SELECT 1 AS x"],
    ["duplicates"],
])
def test_no_table_output_over_the_database_given_with_db(tmp_path: Path, db: Path,
                                                         command: list[str]) -> None:
    """These compared the output with ``pdnkit.duckdb``, not with the --db given, and
    wrote CSV over the user's database."""
    mine = tmp_path / "club.duckdb"
    mine.write_bytes(db.read_bytes())
    before = mine.read_bytes()
    link = tmp_path / "club-link.csv"
    os.link(mine, link)
    for out in (["--format", "csv", "--out", mine], ["--out", link]):
        code, _, err = cli(*command, "--db", mine, *out)
        assert code == 2 and "is also an input" in one_error_line(err), (command, out, err)
        assert mine.read_bytes() == before


def test_no_table_output_inside_a_lake_or_input_folder(tmp_path: Path, db: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "a.pdn").write_text(GAME_A, encoding="utf-8")
    code, _, err = cli("view", folder, "--out", folder / "v.html")
    assert code == 2 and "inside the input folder" in one_error_line(err)
    assert sorted(p.name for p in folder.iterdir()) == ["a.pdn"]


def test_view_never_replaces_a_game_file_through_a_symbolic_link(tmp_path: Path) -> None:
    game = tmp_path / "in.pdn"
    game.write_text(GAME_A, encoding="utf-8")
    link = tmp_path / "link.html"
    link.symlink_to(game)
    code, _, err = cli("view", game, "--out", link)
    assert code == 2 and "is also an input" in one_error_line(err)
    assert game.read_text(encoding="utf-8") == GAME_A and link.is_symlink()


def test_view_never_writes_over_its_database(tmp_path: Path) -> None:
    game = tmp_path / "in.pdn"
    game.write_text(GAME_A, encoding="utf-8")
    db = tmp_path / "v.html"  # a database that happens to have the page's name
    assert cli("import", game, "--db", db, "--quiet")[0] == 0
    before = db.read_bytes()
    code, _, err = cli("view", "--db", db, "--out", db)
    assert code == 2 and "is also an input" in one_error_line(err)
    assert db.read_bytes() == before


def _full_disk() -> None:
    """The file-size limit stands in for a full disk (as in the store's safety tests)."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))


def test_view_on_a_full_disk_keeps_the_old_page(tmp_path: Path) -> None:
    game = tmp_path / "in.pdn"
    game.write_text(GAME_A, encoding="utf-8")
    page = tmp_path / "games.html"
    page.write_text("old page\n", encoding="utf-8")
    r = cli_process("view", game, "--out", page, preexec=_full_disk)
    line = one_error_line(r.stderr)
    assert r.returncode == 2 and "cannot write" in line and "nothing was written" in line
    assert page.read_text(encoding="utf-8") == "old page\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.html", "in.pdn"]


def test_report_games_page_on_a_full_disk_keeps_the_old_page(tmp_path: Path, db: Path) -> None:
    """The collection report writes the games to check beside it (``r.games.html``); on a
    full disk that page was left truncated while the message said nothing was written."""
    side = tmp_path / "r.games.html"
    assert cli("view", db.parent / "src" / "cup.pdn", "--out", side)[0] == 0
    old = side.read_text(encoding="utf-8")  # a page pdnkit wrote: the report may replace it
    r = cli_process("report", "collection", "--db", db, "--out", tmp_path / "r.md",
                    preexec=_full_disk)
    line = one_error_line(r.stderr)
    assert r.returncode == 2 and "cannot write" in line
    assert side.read_text(encoding="utf-8") == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.games.html"]
    code, _, err = cli("report", "collection", "--db", db, "--out", tmp_path / "r.md")
    assert code == 0, err
    assert "pdnkit-index" in side.read_text(encoding="utf-8")


def test_view_of_a_folder_without_games_is_one_line(tmp_path: Path) -> None:
    empty = tmp_path / "emptydir"
    empty.mkdir()
    code, _, err = cli("view", empty, "--out", tmp_path / "v.html")
    assert code == 2 and "no PDN files" in one_error_line(err)
    assert not (tmp_path / "v.html").exists()


@pytest.mark.parametrize("command", [
    ["tree"], ["stats", "openings"], ["stats", "players"], ["stats", "results"],
    ["stats", "crosstable", "--event", "Cup"], ["search", "--pattern", "W28"],
    ["plot", "lengths", "--out", "{tmp}/p.png"], ["report", "endgame"],
    ["moves", "internationl"], ["perft", "internationl", "1"],
    ["validate", "{game}"], ["import", "{game}", "--db", "{tmp}/new.duckdb"],
    ["show", "{game}"], ["view", "{game}", "--out", "{tmp}/v.html"],
])
def test_a_misspelled_variant_is_refused_with_the_list(tmp_path: Path, db: Path,
                                                       command: list[str]) -> None:
    """``tree`` and ``stats openings`` printed "(no rows)" and exited 0; validate's message
    did not list the variants."""
    game = tmp_path / "in.pdn"
    game.write_text(GAME_A, encoding="utf-8")
    args = [a.format(tmp=tmp_path, game=game) for a in command]
    if "internationl" not in args:
        args += ["--variant", "internationl"]
    if command[0] in ("tree", "stats", "search", "plot", "report"):
        args += ["--db", str(db)]
    code, out, err = cli(*args)
    line = one_error_line(err)
    assert code == 2 and "'internationl'" in line, (args, out, err)
    assert "known:" in line and "international" in line and "russian" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.pdn"]


def test_a_variant_filter_takes_aliases(db: Path) -> None:
    code, out, _ = cli("stats", "results", "--db", db, "--variant", "draughts", "-f", "csv")
    assert code == 0 and out.splitlines()[1].startswith("international,")


def test_a_missing_database_is_one_line_from_every_reader(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.duckdb"
    for command in (["stats", "players"], ["tree"], ["search", "--pattern", "W28"],
                    ["players", "aliases"], ["players", "alias", "A", "--as", "B"],
                    ["query", "SELECT 1"], ["duplicates"], ["report", "endgame"],
                    ["plot", "lengths", "--out", tmp_path / "p.png"],
                    ["show", "--game-id", "1"], ["view", "--out", tmp_path / "v.html"]):
        code, _, err = cli(*command, "--db", missing)
        line = one_error_line(err)
        assert code == 2 and f"no pdnkit database at {missing}" in line, (command, err)
    assert list(tmp_path.iterdir()) == []
