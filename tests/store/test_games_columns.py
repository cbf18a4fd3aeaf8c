"""The games table through the tag mapping: players, event, date and year under any tag name,
the first of a repeated tag, start_is_initial, findings per severity, tree argument checks,
export's standard tags, and every real file imported without --variant."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from pdnkit import stats
from pdnkit.cli import app
from pdnkit.pdn import read_games
from pdnkit.pdn.tags import TAG_NAMES
from pdnkit.store import export, import_files
from tests.shared import ITALIAN, shared_path

runner = CliRunner()


INITIAL_FEN = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12."
RUSSIAN = f"""[Event "R1"]
[White "Ivanov"]
[Black "Petrov"]
[Date "25.11.2000"]
[GameType "25"]
[FEN "{INITIAL_FEN}"]
[Result "1-0"]

1. c3-d4 f6-g5 2. b2-c3 g7-f6 1-0

[Event "R2"]
[White "Sidorov"]
[Black "Ivanov"]
[Date "2004.10.27 - 2004.11.01"]
[GameType "25"]
[FEN "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12."]
[Result "0-1"]

1. f6-g5 c3-d4 0-1

[Event "R3"]
[White "Petrov"]
[Black "Sidorov"]
[Event "R3 again"]
[GameType "25"]
[Result "1/2-1/2"]

1. c3-d4 f6-g5 2. b2-c3 g7-f6 1/2-1/2
"""


def _import(tmp_path: Path, name: str, text: str, **kw: object) -> duckdb.DuckDBPyConnection:
    src = tmp_path / name
    src.write_text(text, encoding="utf-8")
    db = tmp_path / "g.duckdb"
    import_files([src], db=db, **kw)  # type: ignore[arg-type]
    return duckdb.connect(str(db), read_only=True)


def test_italian_tags_reach_the_games_table(tmp_path: Path) -> None:
    con = _import(tmp_path, "it.pdn", ITALIAN, variant="italian")
    row = con.execute("SELECT white, black, event, round, year, opening, result, plies "
                      "FROM games").fetchone()
    assert row == ("Rossi, M.", "Bianchi, L.", "69° ASSOLUTO 1° TURNO", "1", 1990, "12",
                   "1-0", 3)
    players = stats.players(con)
    assert set(players["player"]) == {"Rossi, M.", "Bianchi, L."}
    con.close()
    out = tmp_path / "out.pdn"
    export(out, db=tmp_path / "g.duckdb")
    [g] = list(read_games(out))
    assert (g.tag("White"), g.tag("Black"), g.tag("Result")) == ("Rossi, M.", "Bianchi, L.",
                                                                 "1-0")
    assert g.tag("GameType") == "22" and g.tag("Nero") == "Bianchi, L."


def test_russian_initial_fen_is_the_initial_position(tmp_path: Path) -> None:
    con = _import(tmp_path, "ru.pdn", RUSSIAN)
    rows = con.execute("SELECT event, fen, start_is_initial, date, year, tags['Event'] "
                       "FROM games ORDER BY game_index").fetchall()
    assert rows[0] == ("R1", INITIAL_FEN, True, dt.date(2000, 11, 25), 2000, "R1")
    # Black to move is not the initial position: side to move included
    assert rows[1][1:5] == (rows[1][1], False, dt.date(2004, 10, 27), 2004)
    assert rows[2] == ("R3", None, True, None, None, "R3")  # the first Event wins
    codes = con.execute("SELECT game_index, code, severity FROM findings "
                        "WHERE code IN ('duplicate-tag', 'bad-date')").fetchall()
    assert codes == [(2, "duplicate-tag", "warning")]
    # openings, tree and duplicates treat game 1 as starting from the initial position
    op = stats.openings(con, plies=4, variant="russian")
    assert dict(zip(op["opening"], op["games"], strict=True)) == {
        "c3-d4 f6-g5 b2-c3 g7-f6": 2}
    tree = stats.tree(con, moves="c3-d4 f6-g5", variant="russian")
    assert tree["games"].tolist() == [2]
    dup = con.execute("SELECT count(DISTINCT moves_hash) FROM games "
                      "WHERE event IN ('R1', 'R3')").fetchone()
    assert dup == (1,)


def test_stats_findings_one_row_per_code_and_severity(tmp_path: Path) -> None:
    con = _import(tmp_path, "ru.pdn", RUSSIAN)
    con.close()
    rw = duckdb.connect(str(tmp_path / "g.duckdb"))
    gid, fid = rw.execute("SELECT game_id, file_id FROM games LIMIT 1").fetchone()
    for sev in ("error", "error", "warning", "warning", "warning"):
        rw.execute("INSERT INTO findings (game_id, file_id, game_index, code, severity) "
                   "VALUES (?, ?, 0, 'ambiguous-move', ?)", [gid, fid, sev])
    df = stats.findings(rw, by="code")
    amb = df[df["code"] == "ambiguous-move"]
    assert dict(zip(amb["severity"], amb["findings"], strict=True)) == {"error": 2, "warning": 3}
    rw.close()


def test_tree_rejects_a_bad_fen_or_an_illegal_move(tmp_path: Path) -> None:
    _import(tmp_path, "ru.pdn", RUSSIAN).close()
    db = str(tmp_path / "g.duckdb")
    r = runner.invoke(app, ["tree", "--db", db, "--moves", "c3-d4 99-23"])
    assert r.exit_code == 2, r.output
    assert "move 2 '99-23'" in r.output and "after c3-d4" in r.output
    r = runner.invoke(app, ["tree", "--db", db, "--fen", "garbage"])
    assert r.exit_code == 2 and "garbage" in r.output, r.output
    with pytest.raises(ValueError, match="move 1 'c3-c5'"):
        stats.tree(db, moves="c3-c5", variant="russian")
    # a legal position no game reached is an empty tree, not an error
    r = runner.invoke(app, ["tree", "--db", db, "--moves", "a3-b4", "--variant", "russian"])
    assert r.exit_code == 0 and "no rows" in r.output, r.output


def _file_names_players(path: Path) -> bool:
    names = {n.lower() for n in (*TAG_NAMES["white"], *TAG_NAMES["black"], "p1", "p2")}
    text = path.read_bytes().decode("utf-8", errors="replace")
    return any(m.group(1).lower() in names and m.group(2).strip()
               for m in re.finditer(r'\[\s*([^\s"\]]+)\s+"([^"]*)"', text))


@pytest.mark.slow
def test_every_real_file_imported_without_variant_has_its_players(tmp_path: Path) -> None:
    root = shared_path("real")
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".pdn", ".txt"))
    db = tmp_path / "real.duckdb"
    import_files(files, db=db)
    con = duckdb.connect(str(db), read_only=True)
    for path in files:
        rows = con.execute(
            "SELECT g.white, g.black, g.event, g.date_raw, g.date, g.year, g.tags "
            "FROM games g JOIN files f USING (file_id) WHERE f.path = ? "
            "ORDER BY g.game_index", [str(path.resolve())]).fetchall()
        assert rows, path
        if _file_names_players(path):
            assert any(w or b for w, b, *_ in rows), path
        for white, black, event, date_raw, date, year, tags in rows:
            lower = {k.strip().lower(): v.strip() for k, v in tags.items()}
            if lower.get("white") or lower.get("p1") or lower.get("bianco"):
                assert white or black, path
            if lower.get("event"):
                assert event == lower["event"], path
            if date is not None:
                assert date.year == year, path
            if date_raw and re.fullmatch(r"\d{4}\.\d\d\.\d\d", date_raw.strip()):
                assert date == dt.date(*map(int, date_raw.strip().split("."))), path
