"""CSV formula injection: a tag value beginning with ``=``, ``+``, ``-`` or ``@`` reached a
spreadsheet verbatim through every CSV pdnkit writes (``query``, ``stats``, ``validate``
...). A text cell that a spreadsheet would run is now written after a ``'`` (OWASP's
advice); numbers stay numbers, and ``--format csv-raw`` writes every cell as stored."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pdnkit.lean.tables import FORMULA_START, Rows, emit, output, spreadsheet_safe
from tests.cli.helpers import cli
from tests.cli.hostile_tags import FORMULA, TERMINAL, hostile_db


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return hostile_db(tmp_path_factory.mktemp("csv"))


def _table(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def _formulas(text: str) -> list[str]:
    """Every cell (header included) that a spreadsheet would read as a formula."""
    return [cell for row in csv.reader(io.StringIO(text)) for cell in row
            if len(cell) > 1 and cell.startswith(FORMULA_START) and not _plain_number(cell)]


def _plain_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def test_query_quotes_formulas_and_keeps_numbers(hostile: tuple[Path, Path]) -> None:
    _, db = hostile
    code, out, err = cli("query", "SELECT event, black, site, round, white, -5 AS n, "
                         "1.5 AS f, '-5' AS s FROM games ORDER BY game_id", "--db", db,
                         "--format", "csv")
    assert code == 0, err
    assert _formulas(out) == []
    first, second = _table(out)
    assert first["event"] == "'" + FORMULA and first["black"] == "'@SUM(1+1)"
    assert first["site"] == "'-2+3" and first["round"] == "+1"  # a number: left as it is
    assert first["white"] == TERMINAL  # text: as stored
    assert (first["n"], first["f"], first["s"]) == ("-5", "1.5", "-5")
    assert (second["white"], second["site"], second["round"]) == ("-5", "+1.5e3", "-")


def test_csv_raw_writes_every_cell_as_stored(hostile: tuple[Path, Path]) -> None:
    _, db = hostile
    code, out, err = cli("query", "SELECT event, black, site FROM games ORDER BY game_id",
                         "--db", db, "--format", "csv-raw")
    assert code == 0, err
    assert _table(out)[0] == {"event": FORMULA, "black": "@SUM(1+1)", "site": "-2+3"}


def test_a_csv_file_is_quoted_too(hostile: tuple[Path, Path], tmp_path: Path) -> None:
    """``--out x.csv`` (the format from the extension) writes the quoted cells; with
    ``--format csv-raw`` the raw ones, whatever the extension."""
    _, db = hostile
    out = tmp_path / "players.csv"
    code, _, err = cli("stats", "players", "--db", db, "--out", out)
    assert code == 0, err
    players = [r["player"] for r in _table(out.read_text(encoding="utf-8"))]
    assert "'@SUM(1+1)" in players and "-5" in players and "Bob" in players
    assert _formulas(out.read_text(encoding="utf-8")) == []
    code, _, err = cli("stats", "players", "--db", db, "--out", out, "--format", "csv-raw")
    assert code == 0, err
    assert "@SUM(1+1)" in [r["player"] for r in _table(out.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("command", [
    ["stats", "players"], ["stats", "results", "--by", "event"], ["duplicates"],
    ["players", "suggest"], ["search", "--pattern", "W28"],
    ["query", "SELECT * FROM games"], ["query", "SELECT * FROM findings"],
])
def test_no_table_command_writes_a_formula(hostile: tuple[Path, Path],
                                           command: list[str]) -> None:
    _, db = hostile
    code, out, err = cli(*command, "--db", db, "--format", "csv")
    assert code == 0, err
    assert _formulas(out) == [], out


def test_validate_csv_quotes_formulas(hostile: tuple[Path, Path]) -> None:
    """``validate --format csv`` (one row per finding, the players on each)."""
    src, _ = hostile
    bad = src.with_name("bad.pdn")
    bad.write_text(f'[White "{FORMULA}"]\n[Black "+SUM(A1)"]\n[GameType "20"]\n\n'
                   "1. 32-28 19-23 2. 28-22 *\n", encoding="utf-8")  # a missed capture
    code, out, err = cli("validate", bad, "--format", "csv")
    assert code == 1, err
    rows = _table(out)
    assert rows and all(r["white"] == "'" + FORMULA and r["black"] == "'+SUM(A1)"
                        for r in rows)
    assert _formulas(out) == []
    code, raw, _ = cli("validate", bad, "--format", "csv-raw")
    assert all(r["white"] == FORMULA for r in _table(raw))


def test_emit_quotes_header_and_cells_not_numbers() -> None:
    buf = io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(buf):
        emit(Rows(["=x", "n"], [("@a", -3), ("-1", 2.5), (None, None), ("-1+1", -0.5)]),
             output("csv", None))
    assert buf.getvalue() == "'=x,n\n'@a,-3\n-1,2.5\n,\n'-1+1,-0.5\n"


@given(st.text())
def test_spreadsheet_safe_is_safe_and_reversible(text: str) -> None:
    safe = spreadsheet_safe(text)
    assert safe == text or safe == "'" + text
    assert not safe.startswith(FORMULA_START) or _plain_number(safe) or len(safe) == 1
    if not text.startswith(FORMULA_START):
        assert safe == text


@pytest.mark.parametrize(("cell", "expected"), [
    ("=1+1", "'=1+1"), ("+1", "+1"), ("+1+1", "'+1+1"), ("-", "-"), ("@", "@"),
    ("-x", "'-x"), ("@a", "'@a"),
    ("\tx", "'\tx"), ("\rx", "'\rx"), ("-0.5", "-0.5"), ("-.5e-3", "-.5e-3"),
    ("-1e", "'-1e"), ("1-1", "1-1"), (" =1", " =1"), ("'=1", "'=1"), ("", ""),
])
def test_spreadsheet_safe_cases(cell: str, expected: str) -> None:
    assert spreadsheet_safe(cell) == expected
