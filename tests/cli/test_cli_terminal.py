"""Issue 23 point 3 and issue 26 point 7: tables on the screen fit the terminal's width
(long cells cut with an ellipsis, names wrapped at spaces, --wide shows everything), and no
control character from a file reaches the terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.cells import cell_len

from pdnkit.demo import DEMO_DB
from tests.cli.helpers import cli

WIDTH = 100
#: what a terminal acts on: ESC, BEL, CR, backspace, a C1 control, bidi overrides
CONTROLS = ("\x1b", "\x07", "\r", "\x08", "\x9b", "\u202e", "\u2066")


@pytest.fixture(scope="module")
def demo(demo_folder: Path) -> Path:
    """The demo database (shared, read only: tests/conftest.py): 27 players, events of 23
    players, long FENs."""
    return demo_folder / DEMO_DB


@pytest.fixture
def columns(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    return WIDTH


def _fits(text: str, width: int) -> None:
    lines = text.splitlines()
    assert lines, "no output"
    widest = max(cell_len(line) for line in lines)
    assert widest <= width, f"{widest} columns:\n{text}"


def _rows(db: Path, *command: str) -> list[dict[str, object]]:
    code, out, err = cli(*command, "--db", db, "-f", "json")
    assert code == 0, err
    return json.loads(out)


def test_stats_players_fits_100_columns(demo: Path, columns: int) -> None:
    code, out, err = cli("stats", "players", "--db", demo)
    assert code == 0, err
    _fits(out, columns)
    players = _rows(demo, "stats", "players")
    words = set(out.split())
    for p in players:  # every name whole: wrapped at its spaces, never cut
        assert set(str(p["player"]).split()) <= words, p["player"]
    assert "more column(s):" in out and "last_year" in out and "--wide" in out
    for head in ("player", "games", "wins", "draws", "losses", "score"):
        assert head in words


def test_stats_crosstable_fits_100_columns(demo: Path, columns: int) -> None:
    event = "International"
    code, out, err = cli("stats", "crosstable", "--event", event, "--db", demo)
    assert code == 0, err
    _fits(out, columns)
    table = _rows(demo, "stats", "crosstable", "--event", event)
    assert len(table) > 20  # wider than 100 columns when every opponent is shown
    lines = out.splitlines()
    for row in table:  # one line per player starts with its rank and name
        assert any(line.split()[:2] == [str(row["rank"]), str(row["player"]).split()[0]]
                   for line in lines if line.split()), row["player"]
    assert "more column(s):" in out and f"{len(table)} (--wide shows them)" in out


def test_stats_openings_by_position_fits_100_columns(demo: Path, columns: int) -> None:
    code, out, err = cli("stats", "openings", "--by", "position", "--plies", "2", "--db", demo)
    assert code == 0, err
    _fits(out, columns)
    for head in ("variant", "opening", "games", "score", "plies"):  # every count shown
        assert head in out
    assert "position_key, fen (--wide shows them)" in out


def test_wide_shows_every_column_and_cell_whole(demo: Path, columns: int) -> None:
    code, out, err = cli("stats", "openings", "--by", "position", "--plies", "2", "--db", demo,
                         "--wide")
    assert code == 0, err
    assert "more column(s)" not in out and "…" not in out
    fens = [r["fen"] for r in _rows(demo, "stats", "openings", "--by", "position", "--plies",
                                    "2")]
    assert all(fen in out for fen in fens)
    assert max(cell_len(line) for line in out.splitlines()) > columns


def test_long_cells_end_in_an_ellipsis_and_names_wrap_at_spaces(demo: Path,
                                                                 monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    monkeypatch.setenv("COLUMNS", "44")
    sql = ("SELECT 'Jan Willem van den Bergh-Hoogendijk' AS name, fen, 7 AS n "
           "FROM positions LIMIT 2")
    code, out, err = cli("query", sql, "--db", demo)
    assert code == 0, err
    _fits(out, 44)
    assert "…" in out  # the FEN is cut, on one line
    fen_lines = [line for line in out.splitlines() if "…" in line]
    assert fen_lines and all(":W" in line or ":B" in line or "W:" in line for line in fen_lines)
    words = out.split()
    for word in ("Jan", "Willem", "van", "den", "Bergh-Hoogendijk"):
        assert word in words  # wrapped between words, no word broken


def test_a_pipe_without_columns_gets_whole_cells(demo: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    code, out, err = cli("stats", "players", "--db", demo)
    assert code == 0, err
    assert "more column(s)" not in out and "last_year" in out


EVIL = ('[Event "Cup \x1b]0;pwned\x07"]\n[White "Evil\x1b[2J Name"]\n[Black "B\u202eidi"]\n'
        '[Result "2-0"]\n[GameType "20"]\n\n1. 32-28 {note \x1b[31mred\x9b} 19-23 2. 28x19 '
        '14x23 2-0\n')


@pytest.fixture
def evil(tmp_path: Path) -> Path:
    path = tmp_path / "evil.pdn"
    path.write_text(EVIL, encoding="utf-8")
    return path


def _clean(text: str) -> None:
    for c in CONTROLS:
        assert c not in text, (repr(c), text)


def test_show_escapes_control_characters_of_the_file(evil: Path) -> None:
    code, out, err = cli("show", evil, "--ply", "1")
    assert code == 0, err
    _clean(out + err)
    assert "Evil\\x1b[2J Name" in out and "B\\u202eidi" in out and "\\x1b[31mred" in out


def test_tables_escape_control_characters_of_the_file(evil: Path, tmp_path: Path) -> None:
    db = tmp_path / "evil.duckdb"
    assert cli("import", evil, "--db", db, "--quiet")[0] == 0
    for command in (["query", "SELECT white, black, event FROM games"], ["stats", "players"],
                    ["search", "--pattern", "W28"], ["stats", "crosstable", "--event", "Cup"]):
        code, out, err = cli(*command, "--db", db)
        assert code == 0, err
        _clean(out + err)
        assert "\\x1b" in out or "\\u202e" in out, command
    code, out, _ = cli("query", "SELECT white FROM games", "--db", db, "-f", "json")
    assert json.loads(out) == [{"white": "Evil\x1b[2J Name"}]  # data formats keep the text


def test_validate_text_and_error_lines_escape_control_characters(evil: Path,
                                                                 tmp_path: Path) -> None:
    code, out, err = cli("validate", evil, "--info")
    _clean(out + err)
    bad = tmp_path / "no\x1b[2Jsuch.pdn"
    code, out, err = cli("validate", bad)
    assert code == 2
    _clean(out + err)
    assert "no\\x1b[2Jsuch.pdn" in err
