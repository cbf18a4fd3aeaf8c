"""A file that holds no game gives no game (point 5 of the issue "The next exporters and the
next attacks"): a text that is not PDN is one ``not-pdn`` finding for the file, an empty file
is 0 games with its ``empty-file`` finding, each a file-level record (no game number, no
``games`` row) in the reader, the validator, the command line and the database."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from pdnkit.cli import app
from pdnkit.pdn import read_games
from pdnkit.store import import_files
from pdnkit.validation import validate

runner = CliRunner()

#: a project's README saved as .pdn: its numbered list and "12-16" read like moves
README = """pdnkit-tools
============

This is a README, not a game collection.

Install
-------
1. Run pip install pdnkit-tools
2. Open a shell; type 12-16 to see squares 12 to 16
3. See the manual, chapters 4-6

* Bugs: see the tracker
* Licence: MIT
"""


def test_a_readme_is_one_not_pdn_finding(tmp_path: Path) -> None:
    p = tmp_path / "README.pdn"
    p.write_text(README)
    (rec,) = read_games(p)
    assert rec.file_level and rec.index == 0 and rec.raw == ""
    (f,) = rec.findings
    assert (f.code, f.line, f.game_index, f.file) == ("not-pdn", 1, None, str(p))
    assert "it begins 'pdnkit-tools" in f.message
    assert f.details["junk"] > f.details["moves"] > 0  # "12-16" and "4-6" read as moves
    reports = list(validate(p))
    assert [(r.file_level, r.finding_codes()) for r in reports] == [(True, ["not-pdn"])]


def test_text_input_that_is_not_pdn_too() -> None:
    (rec,) = read_games(README)
    assert rec.file_level and [f.code for f in rec.findings] == ["not-pdn"]


@pytest.mark.parametrize("text", [
    "1. 32-28 19-23 2. 28x19 14x23 *\n",  # movetext alone is a game
    "1.\t10-15\t22-18\n2.\t15x22\t25x18\n",  # a tab-separated move list, no result
    "{a comment}\n1. 32-28 *\n\nsome words after the game\n",
    '[Event "only tags"]\n',
])
def test_pdn_without_tags_or_with_a_note_stays_pdn(text: str) -> None:
    games = list(read_games(text))
    assert games and not any(g.file_level for g in games)
    assert "not-pdn" not in [f.code for g in games for f in g.findings]


def test_an_empty_file_is_zero_games(tmp_path: Path) -> None:
    empty = tmp_path / "empty.pdn"
    empty.write_bytes(b"")
    (rec,) = read_games(empty)
    assert rec.file_level and [(f.code, f.game_index) for f in rec.findings] == [
        ("empty-file", None)]
    r = runner.invoke(app, ["validate", str(empty)])
    assert r.exit_code == 0, r.output
    assert "empty.pdn, line 1: warning empty-file" in r.output and "game 1" not in r.output
    assert re.search(r"│ games +│ +0 │", r.output)
    assert re.search(r"│ file findings +│ +1 \(about files, not games\) │", r.output)
    r = runner.invoke(app, ["validate", str(empty), "--format", "jsonl"])
    (obj,) = [json.loads(x) for x in r.stdout.splitlines()]
    assert obj["file_level"] is True and obj["index"] is None
    assert [f["code"] for f in obj["findings"]] == ["empty-file"]


def test_the_database_holds_the_files_findings_and_no_game(tmp_path: Path) -> None:
    readme = tmp_path / "README.pdn"
    readme.write_text(README)
    empty = tmp_path / "empty.pdn"
    empty.write_bytes(b"")
    game = tmp_path / "one.pdn"
    game.write_text('[Event "x"]\n1. 32-28 19-23 *\n' + "\0" * 70)  # NUL bytes on end
    db = tmp_path / "t.duckdb"
    summary = import_files([readme, empty, game], db=db)
    assert summary.games == 1
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT path, games FROM files ORDER BY path").fetchall() == [
        (str(readme), 0), (str(empty), 0), (str(game), 1)]
    rows = con.execute("SELECT fl.path, f.game_index, f.code FROM findings f JOIN files fl "
                       "USING (file_id) WHERE f.game_id IS NULL ORDER BY fl.path").fetchall()
    assert rows == [(str(readme), None, "not-pdn"), (str(empty), None, "empty-file"),
                    (str(game), None, "binary-data")]
    assert con.execute("SELECT count(*) FROM games").fetchall() == [(1,)]


def test_workers_give_what_one_process_gives(tmp_path: Path) -> None:
    readme = tmp_path / "README.pdn"
    readme.write_text(README)
    big = tmp_path / "big.pdn"
    big.write_text("".join(f'[Event "{i}"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n'
                           for i in range(6000)))

    def view(jobs: int) -> list[tuple[object, ...]]:
        return [(r.file, r.file_level, r.index, r.finding_codes())
                for r in validate([readme, big], "international", jobs=jobs, chunk_size=50)]

    one = view(1)
    assert one[0] == (str(readme), True, 0, ["not-pdn"]) and len(one) == 6001
    assert view(2) == one


def test_convert_notes_a_file_that_is_not_pdn_and_writes_no_game_of_it(tmp_path: Path) -> None:
    from pdnkit.validation import convert

    readme, game, out = tmp_path / "README.pdn", tmp_path / "one.pdn", tmp_path / "out.pdn"
    readme.write_text(README)
    game.write_text('[Event "x"]\n1. 32-28 19-23 *\n')
    done = convert([readme, game], out)
    assert (done.games, done.written) == (1, 1)
    text = out.read_text()
    assert text.startswith("% pdnkit convert: README.pdn holds no PDN game, not copied")
    assert [g.tag("Event") for g in read_games(out)] == ["x"]


def test_a_game_commented_without_braces_after_every_move_is_games() -> None:
    # forum style: text around every move, more pieces of text (72) than moves (48)
    words = "a fine move, the only one here"
    moves = ["32-28", "19-23", "28x19", "14x23", "37-32", "10-14", "41-37", "5-10", "34-29",
             "23x34", "40x29", "20-24", "29x20", "15x24", "44-40", "10-15", "40-34", "4-10",
             "45-40", "17-21", "31-26", "21-27", "32x21", "16x27"]
    text = " ".join(f"{i // 2 + 1}. White: {m} {words}" if i % 2 == 0 else f"Black: {m} {words}"
                    for i, m in enumerate(moves * 2)) + " *\n"
    games = list(read_games(text))
    assert len(games) == 1 and not games[0].file_level and len(games[0].moves) == 48
