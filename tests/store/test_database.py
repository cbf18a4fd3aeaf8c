"""The database with the real reader, validator and engine: bundled samples, the flawed
collection, export round trips, published final positions and real files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pytest

from pdnkit.demo import DEMO_DB
from pdnkit.samples import sample_dir
from pdnkit.samples.flawed import FLAW_CODES
from pdnkit.store import duplicates, export, import_files, query
from tests.shared import shared_path

SAMPLES = sample_dir()
RANDOM = sorted(p for p in SAMPLES.glob("*.pdn") if not p.name.startswith("flawed"))


def _games_in(path: Path) -> int:
    return path.read_text(encoding="utf-8").count("[Event ")


@pytest.fixture(scope="module")
def demo_db(demo_folder: Path) -> Path:
    """The shared demo database (tests/conftest.py), read only."""
    return demo_folder / DEMO_DB


def test_demo_loads_every_sample_game(demo_db: Path) -> None:
    con = duckdb.connect(str(demo_db), read_only=True)
    rows = dict(con.execute("SELECT f.path, count(g.game_id) FROM files f "
                            "LEFT JOIN games g USING (file_id) GROUP BY ALL").fetchall())
    for p in RANDOM:
        assert rows[str(p.resolve())] == _games_in(p), p.name
    assert len(rows) == len(list(SAMPLES.glob("*.pdn")))
    # the random games are legal: every move replayed, no warning or error
    bad = con.execute("SELECT count(*) FROM games g JOIN files f USING (file_id) "
                      "WHERE f.path NOT LIKE '%flawed%' AND (status NOT IN ('ok') "
                      "OR replayed_plies <> plies)").fetchall()[0][0]
    assert bad == 0
    con.close()


def test_start_positions_follow_the_rulebooks(demo_db: Path) -> None:
    # initial set-ups: 20 men each on 10x10 (FMJD 3.2), 12 each on 8x8 (EDA, Russian, FID)
    df = query("""SELECT g.variant, p.white_men, p.black_men, p.white_kings, p.black_kings,
                         count(DISTINCT p.position_key) AS keys, min(p.side) AS side
                  FROM positions p JOIN games g USING (game_id)
                  WHERE p.ply = 0 AND g.fen IS NULL AND g.status = 'ok'
                  GROUP BY ALL ORDER BY g.variant""", db=demo_db)
    men = {"international": 20, "frisian": 20, "english": 12, "russian": 12, "italian": 12,
           "brazilian": 12, "czech": 12}
    for row in df.itertuples():
        assert (row.white_men, row.black_men) == (men[row.variant], men[row.variant])
        assert (row.white_kings, row.black_kings, row.keys) == (0, 0, 1)
    # English: Black moves first (EDA rules); the others: White
    sides = dict(zip(df["variant"], df["side"], strict=True))
    assert sides["english"] == "B" and sides["international"] == "W"
    # a position row for the start of every game with a known start, and for every
    # replayed ply
    counts = query("""SELECT
        (SELECT count(*) FROM positions) AS rows,
        (SELECT count(*) FROM positions WHERE ply = 0) AS starts,
        (SELECT sum(replayed_plies) FROM games) AS replayed,
        (SELECT count(*) FROM games WHERE variant IS NOT NULL AND status <> 'unparsed'
           AND game_id NOT IN (SELECT game_id FROM findings WHERE code = 'bad-fen'))
           AS known_starts""", db=demo_db).iloc[0]
    assert counts["starts"] == counts["known_starts"]
    assert counts["rows"] == counts["replayed"] + counts["starts"]


def test_captures_are_stored_with_their_squares(demo_db: Path) -> None:
    df = query("SELECT canonical, path, captured, captured_count, is_capture, origin, "
               "destination FROM moves WHERE replayed AND captured_count >= 2 "
               "ORDER BY game_id, ply LIMIT 50", db=demo_db)
    assert len(df) > 0
    for row in df.itertuples():
        assert row.is_capture and len(row.captured) == row.captured_count
        assert row.path[0] == row.origin and row.path[-1] == row.destination


@pytest.mark.parametrize("code", [c for c in FLAW_CODES
                                  if c not in ("bad-date", "unknown-tag-syntax", "empty-game")])
def test_flawed_game_shows_its_code(demo_db: Path, code: str) -> None:
    codes = query(f"""SELECT list(f.code) AS codes FROM games g
                      LEFT JOIN findings f USING (game_id)
                      WHERE g.event = 'flawed: {code}'""", db=demo_db)["codes"][0]
    assert code in list(codes)


def test_flawed_collection_keeps_every_game(demo_db: Path) -> None:
    df = query("""SELECT g.status, g.raw_pdn, g.white, f.encoding FROM games g
                  JOIN files f USING (file_id) WHERE f.path LIKE '%flawed%'""", db=demo_db)
    assert (df["status"] == "unparsed").sum() == 1  # the syntax error
    syntax = df[df["status"] == "unparsed"].iloc[0]["raw_pdn"]
    assert "28+19 14+23" in syntax  # raw text kept exactly
    legacy = df[df["encoding"] == "cp1252"]
    assert legacy["white"].tolist() == ["Müller, Frédéric"]
    # the draw-rule games: the rule is recorded with the ply where it was reached
    ev = query("""SELECT e.rule, e.automatic, e.reached_ply, g.plies FROM rule_events e
                  JOIN games g USING (game_id) WHERE g.event = 'flawed: draw-by-rule'
                  AND e.reached_ply IS NOT NULL""", db=demo_db)
    assert len(ev) >= 1 and (ev["reached_ply"] == ev["plies"]).any()


def test_duplicate_sample_is_found(demo_db: Path) -> None:
    d = duplicates(db=demo_db)
    intl = d[d["locations"].map(lambda locs: all("international.pdn" in x for x in locs))]
    assert len(intl) == 1
    row = intl.iloc[0]
    assert row["games"] == 2 and list(row["differing_tags"]) == ["Event"]


def test_export_then_import_gives_the_same_games(demo_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "export.pdn"
    n = export(out, db=demo_db, where="status = 'ok'", all_copies=True)  # every record
    expected = query("SELECT count(*) AS n FROM games WHERE status = 'ok'", db=demo_db)["n"][0]
    assert n == expected and out.read_text(encoding="utf-8").count("[Event ") == n
    db2 = tmp_path / "again.duckdb"
    import_files([out], db=db2)
    cols = "variant, moves_hash, white, black, result, plies, date_raw, fen"
    a = query(f"SELECT {cols} FROM games WHERE status = 'ok' ORDER BY ALL", db=demo_db)
    b = query(f"SELECT {cols} FROM games ORDER BY ALL", db=db2)
    assert a.equals(b)
    c = query("SELECT list(DISTINCT status) AS s FROM games", db=db2)["s"][0]
    assert list(c) == ["ok"]


def test_export_writes_canonical_moves(tmp_path: Path) -> None:
    src = tmp_path / "padded.pdn"
    src.write_text('[GameType "20"]\n[Result "*"]\n01. 32-28 19-23 02. 28X19 14x23 *\n',
                   encoding="utf-8")
    db = tmp_path / "p.duckdb"
    import_files([src], db=db)
    out = tmp_path / "out.pdn"
    export(out, db=db)
    text = out.read_text(encoding="utf-8")
    assert re.search(r"1\. 32-28 19-23 2\. 28x19 14x23", text), text
    assert query("SELECT notation FROM moves WHERE ply = 3", db=db)["notation"][0] == "28X19"


@pytest.mark.slow
def test_final_positions_match_the_published_ones(tmp_path: Path) -> None:
    pdn = shared_path("bench", "intl_2000.pdn")
    finals = json.loads(shared_path("bench", "intl_2000.final.json").read_text())
    n = 300
    games = pdn.read_text(encoding="utf-8").split("\n\n[Event ")
    part = tmp_path / "part.pdn"
    part.write_text("\n\n[Event ".join(games[:n]).strip() + "\n", encoding="utf-8")
    db = tmp_path / "f.duckdb"
    s = import_files([part], db=db)
    assert s.games == n
    df = query("""SELECT g.game_index, g.plies, g.replayed_plies, g.result, p.side,
                         p.fen, p.white_men, p.white_kings, p.black_men, p.black_kings
                  FROM games g JOIN positions p ON p.game_id = g.game_id
                   AND p.ply = g.replayed_plies ORDER BY g.game_index""", db=db)
    assert len(df) == n
    from pdnkit.rules import get_rules, parse_fen

    rules = get_rules("international")
    norm = {"2-0": "1-0", "0-2": "0-1", "1-1": "1/2-1/2"}
    for row, want in zip(df.itertuples(), finals[:n], strict=True):
        f = want["final"]
        assert (row.plies, row.replayed_plies) == (want["plies"], want["plies"])
        assert row.result == norm.get(want["result"], want["result"])
        assert row.side == f["turn"]
        assert (row.white_men, row.white_kings, row.black_men, row.black_kings) == (
            len(f["wm"]), len(f["wk"]), len(f["bm"]), len(f["bk"]))
        pos = parse_fen(row.fen, rules)
        assert sorted(pos.white_men) == f["wm"] and sorted(pos.black_kings) == f["bk"]


def test_real_files_with_legacy_encoding(tmp_path: Path) -> None:
    folder = shared_path("real", "russian")
    db = tmp_path / "r.duckdb"
    s = import_files([folder], db=db)
    files = query("SELECT path, encoding, games FROM files ORDER BY path", db=db)
    enc = dict(zip(files["path"].map(lambda p: Path(p).name), files["encoding"], strict=True))
    assert enc["abatsiev.cp1251.pdn"] == "cp1251"
    assert enc["abatsiev.pdn"].startswith("utf-8")
    # the two Abatsiev files hold the same games: same names, same moves
    g = query("""SELECT f.path LIKE '%cp1251%' AS legacy, g.white, g.moves_hash
                 FROM games g JOIN files f USING (file_id)
                 WHERE f.path LIKE '%abatsiev%' ORDER BY g.game_index""", db=db)
    utf8, legacy = g[~g["legacy"]], g[g["legacy"]]
    assert len(utf8) == len(legacy) > 0
    assert utf8["white"].tolist() == legacy["white"].tolist()
    assert utf8["moves_hash"].tolist() == legacy["moves_hash"].tolist()
    assert any(re.search("[А-Яа-я]", w or "") for w in utf8["white"])
    assert s.games == query("SELECT count(*) AS n FROM games", db=db)["n"][0]


_ROWS_SQL = ("SELECT path, g.game_index, g.variant, g.status, g.plies, g.moves_hash, "
             "g.final_fen, "
             "(SELECT count(*) FROM findings f WHERE f.game_id = g.game_id) AS findings, "
             "(SELECT count(*) FROM positions p WHERE p.game_id = g.game_id) AS positions "
             "FROM games g JOIN files USING (file_id) {where} ORDER BY path, game_index")


def test_worker_processes_load_the_same_rows(demo_db: Path, tmp_path: Path) -> None:
    db2 = tmp_path / "jobs.duckdb"
    files = sorted(p for p in SAMPLES.glob("*.pdn") if "cp1252" not in p.name)
    s = import_files(files, db=db2, jobs=2)
    assert s.games > 0
    sql = _ROWS_SQL.format(where="WHERE path NOT LIKE '%cp1252%'")
    assert query(sql, db=demo_db).equals(query(sql, db=db2))


def test_worker_processes_keep_the_status_of_legacy_files(demo_db: Path,
                                                          tmp_path: Path) -> None:
    db2 = tmp_path / "jobs.duckdb"
    import_files([SAMPLES / "flawed-cp1252.pdn"], db=db2, jobs=2)
    sql = _ROWS_SQL.format(where="WHERE path LIKE '%cp1252%'")
    assert query(sql, db=demo_db).equals(query(sql, db=db2))


def test_an_import_writes_the_variants_table_only_when_the_rules_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening a database for an import does not re-derive what it already stores: the
    ``variants`` table is written again only when the rules records' digest changed."""
    from pdnkit.store import schema as dbmod

    writes: list[int] = []
    real = dbmod.refresh_variants

    def counted(con, rows=None):  # type: ignore[no-untyped-def]
        writes.append(1)
        return real(con, rows)

    monkeypatch.setattr(dbmod, "refresh_variants", counted)
    f = tmp_path / "a.pdn"
    f.write_text('[GameType "20"]\n1. 32-28 *\n', encoding="utf-8")
    db = tmp_path / "v.duckdb"
    import_files([f], db=db)
    first = len(writes)
    assert first >= 1
    import_files([f], db=db)  # same rules: nothing written
    assert len(writes) == first
    rows = dbmod.variant_rows()
    rows[0] = dict(rows[0], title="a renamed variant")
    monkeypatch.setattr(dbmod, "variant_rows", lambda: rows)
    import_files([f], db=db)  # a rules record changed: written again
    assert len(writes) == first + 1
    name = rows[0]["name"]
    assert query(f"SELECT title FROM variants WHERE name = '{name}'",
                 db=db)["title"].tolist() == ["a renamed variant"]
