"""``pdnkit.search`` on hand-made games whose answers are known by construction, and a
cross-check of pattern searches against the replayed positions' own square sets.

The three games (international draughts):

* game 1 (Ann-Bob, Alpha, 1-0): ``1. 32-28 19-23 2. 28x19 14x23``;
* game 2 (Bob-Ann, Alpha, 0-1): ``1. 33-29 19-23 2. 29-24 20x29``;
* game 3 (Cid-Dan, Beta, draw) from ``W:W32,45:B19,28,K5``: ``1. 32x14 5x23`` (a double
  capture by a white man, then a black king's single capture).

``W28:B19:E23`` holds after ply 1 of game 1 only (a white man has just come to 28, 19 is
still on, 23 still empty). Its mirror (colours swapped, square n -> 51 - n) is
``B23:W32:E28``: game 2 from ply 2 on (19-23 played, 32 and 28 untouched).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdnkit.stats.search import SearchError, parse_manoeuvre, parse_material, search

GAMES = """[Event "Alpha"]
[White "Ann"]
[Black "Bob"]
[Result "1-0"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 1-0

[Event "Alpha"]
[White "Bob"]
[Black "Ann"]
[Result "0-1"]
[GameType "20"]

1. 33-29 19-23 2. 29-24 20x29 0-1

[Event "Beta"]
[White "Cid"]
[Black "Dan"]
[Result "1/2-1/2"]
[GameType "20"]
[FEN "W:W32,45:B19,28,K5"]

1. 32x14 5x23 1/2-1/2
"""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    from pdnkit.store import import_files

    d = tmp_path_factory.mktemp("search")
    f = d / "games.pdn"
    f.write_text(GAMES, encoding="utf-8")
    path = d / "g.duckdb"
    summary = import_files([f], db=path)
    assert summary.games == 3 and summary.status_counts.get("ok") == 3
    return str(path)


def hits(db: str, **kw: object) -> list[tuple[int, int]]:
    df = search(db, **kw)
    return [(int(g), int(p)) for g, p in zip(df["game_id"], df["ply"], strict=True)]


def test_pattern_at_known_plies(db: str) -> None:
    assert hits(db, pattern="W28:B19:E23") == [(1, 1)]
    assert hits(db, pattern="W28") == [(1, 1), (1, 2)]
    assert hits(db, pattern="W28", side="black") == [(1, 1)]
    assert hits(db, pattern="W28", side="white") == [(1, 2)]
    assert hits(db, pattern="W28", first=True) == [(1, 1)]
    assert hits(db, pattern="W19") == [(1, 3)]


def test_mirror_finds_the_colour_reversed_positions(db: str) -> None:
    assert hits(db, pattern="B23:W32:E28") == [(2, 2), (2, 3), (2, 4)]
    assert hits(db, pattern="W28:B19:E23", mirror=True) == [(1, 1), (2, 2), (2, 3), (2, 4)]


def test_kings_exclude_and_any(db: str) -> None:
    assert hits(db, pattern="BK5") == [(3, 0), (3, 1)]
    assert hits(db, pattern="BK23") == [(3, 2)]
    assert hits(db, pattern="B23") == [(1, 2), (1, 4), (2, 2), (2, 3), (2, 4)]
    assert hits(db, pattern="B*23") == [(1, 2), (1, 4), (2, 2), (2, 3), (2, 4), (3, 2)]
    # exclude: no black man on 14 -> game 1 after 14x23 (ply 4), game 3 throughout
    assert hits(db, pattern="B23", exclude="B14") == [(1, 4)]
    # any: a white man on 28 or on 29
    assert hits(db, any_of="W28,29") == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert hits(db, pattern="W45", exclude="E14", event="Beta") == [(3, 1)]  # 14 occupied


def test_exact_position(db: str) -> None:
    start = "W:W31-50:B1-20"
    assert hits(db, fen=start) == [(1, 0), (2, 0)]
    assert hits(db, fen="B:W31-50:B1-20") == []
    assert hits(db, fen="B:W31-50:B1-20", side="any") == [(1, 0), (2, 0)]
    # game 3's last position, colours swapped and board turned (23 -> 28, 45 -> 6)
    assert hits(db, fen="B:WK28:B6") == []
    assert hits(db, fen="B:WK28:B6", mirror=True) == [(3, 2)]
    assert hits(db, fen="W:WK28:B6", mirror=True) == []


def test_material(db: str) -> None:
    assert parse_material("2K+1 v 1K").white_kings == 2
    assert hits(db, material="2 v K") == [(3, 1)]
    assert hits(db, material="1 v K") == [(3, 2)]
    assert hits(db, material="* v 2+K") == [(3, 0)]
    assert hits(db, material="K v 1", mirror=True) == [(3, 2)]


def test_manoeuvres_with_capture_counts(db: str) -> None:
    assert hits(db, manoeuvre="w32x14", captures=2) == [(3, 0)]
    assert hits(db, manoeuvre="w32x14", captures=1) == []
    assert hits(db, manoeuvre="b??x??", captures=1) == [(1, 3), (2, 3), (3, 1)]
    assert hits(db, manoeuvre="bK??x??") == [(3, 1)]
    assert hits(db, manoeuvre="bM??x??") == [(1, 3), (2, 3)]
    assert hits(db, manoeuvre="bK5x23") == [(3, 1)]
    assert hits(db, manoeuvre="w3?-2?") == [(1, 0), (2, 0)]
    assert hits(db, manoeuvre="w?-?") == [(1, 0), (2, 0), (2, 2)]  # 28x19 is no quiet move
    assert hits(db, manoeuvre="w??x??", captures=1) == [(1, 2)]
    # mirrored: white's 32-28 is black's 19-23 (51 - 32, 51 - 28) with colours swapped
    assert hits(db, manoeuvre="w32-28") == [(1, 0)]
    assert hits(db, manoeuvre="w32-28", mirror=True) == [(1, 0), (1, 1), (2, 1)]
    # patterns around the move
    assert hits(db, manoeuvre="b??x??", after="B23") == [(1, 3), (2, 3)]
    assert hits(db, manoeuvre="b??x??", after="BK23") == [(3, 1)]
    assert hits(db, manoeuvre="b??x??", before="W24") == [(2, 3)]
    assert hits(db, manoeuvre="w?-?", promotes=True) == []
    assert parse_manoeuvre("bK46x02").capture is True
    # men and kings among the captured: 32x14 takes two men, the king's 5x23 one man
    assert hits(db, manoeuvre="w??x??", captures="2") == [(3, 0)]
    assert hits(db, manoeuvre="w??x??", captures="2+0K") == [(3, 0)]
    assert hits(db, manoeuvre="w??x??", captures="1+1K") == []
    assert hits(db, manoeuvre="bK??x??", captures="1") == [(3, 1)]
    assert hits(db, manoeuvre="bK??x??", captures="K") == []


def test_rows_carry_the_game_and_the_next_move(db: str) -> None:
    df = search(db, pattern="W28:B19:E23")
    row = df.iloc[0]
    assert (row.white, row.black, row.event, row.result, row.move, row.side) == (
        "Ann", "Bob", "Alpha", "1-0", "19-23", "B")
    assert row.fen.startswith("B:W28,31,33")
    df = search(db, manoeuvre="w32x14")
    assert df.iloc[0].move == "32x14"


def test_game_filters_and_limit(db: str) -> None:
    assert hits(db, pattern="B*23", event="beta") == [(3, 2)]
    assert hits(db, pattern="B*23", player="ann") == [(1, 2), (1, 4), (2, 2), (2, 3), (2, 4)]
    assert hits(db, pattern="B*23", limit=2) == [(1, 2), (1, 4)]
    assert hits(db, pattern="B*23", variant="russian") == []


def test_bad_searches_are_named(db: str) -> None:
    with pytest.raises(SearchError, match="starts with W, B or E"):
        search(db, pattern="X28")
    with pytest.raises(SearchError, match="nothing to search for"):
        search(db)
    with pytest.raises(SearchError, match="manoeuvre"):
        search(db, manoeuvre="b28")
    with pytest.raises(SearchError, match="material"):
        search(db, material="2K")


def test_cli_search(db: str, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pdnkit.cli import app

    r = CliRunner().invoke(app, ["search", "--db", db, "--pattern", "W28:B19:E23",
                                 "--mirror", "-f", "csv"])
    assert r.exit_code == 0, r.output
    lines = r.output.strip().splitlines()
    assert lines[0].startswith("game_id,ply,side")
    assert [tuple(x.split(",")[:2]) for x in lines[1:]] == [
        ("1", "1"), ("2", "2"), ("2", "3"), ("2", "4")]
    out = tmp_path / "h.parquet"
    r = CliRunner().invoke(app, ["search", "--db", db, "--manoeuvre", "bK??x??", "-f",
                                 "parquet", "-o", str(out)])
    assert r.exit_code == 0 and out.exists()
    r = CliRunner().invoke(app, ["search", "--db", db, "--pattern", "Q1"])
    assert r.exit_code == 2 and "pdnkit: error: pattern field" in r.output


@pytest.mark.parametrize("name", ["international", "russian", "english", "canadian"])
def test_patterns_agree_with_the_replayed_positions(name: str, tmp_path: Path) -> None:
    """On a sample collection (12x12 Canadian included: squares past 64 bits), every position
    where a pattern holds (checked on the engine's square sets, position by position) and
    nothing else is found. The pattern is taken from a position of the collection: its two
    highest white men, lowest black man and highest empty square."""
    from pdnkit.pdn import write_games
    from pdnkit.rules import get_rules, parse_fen
    from pdnkit.samples import sample_dir
    from pdnkit.samples.samples import variant_collection
    from pdnkit.store import import_files
    from pdnkit.validation import validate

    if name == "canadian":
        f = tmp_path / "canadian.pdn"
        write_games(variant_collection("canadian", 10), f)
    else:
        f = sample_dir() / f"{name}.pdn"
    path = tmp_path / "s.duckdb"
    import_files([f], db=path)
    seen = []
    for gid, rep in enumerate(validate(f), 1):
        rules = get_rules(rep.variant)
        if rep.start_fen:
            seen.append((gid, 0, parse_fen(rep.start_fen, rules)))
        seen += [(gid, p.ply, p.position_after) for p in rep.plies
                 if p.position_after is not None]
    model = seen[len(seen) // 3][2]
    n_sq = model.rules.geometry.num_squares
    occupied = model.white_men | model.white_kings | model.black_men | model.black_kings
    wm = sorted(model.white_men)[-2:]
    bm = sorted(model.black_men)[:1]
    empty = max(set(range(1, n_sq + 1)) - occupied)
    pattern = f"W{','.join(map(str, wm))}:B{','.join(map(str, bm))}:E{empty}"
    want = []
    for gid, ply, a in seen:
        occ = a.white_men | a.white_kings | a.black_men | a.black_kings
        if set(wm) <= a.white_men and set(bm) <= a.black_men and empty not in occ:
            want.append((gid, ply))
    assert want
    assert hits(str(path), pattern=pattern) == want
    if name == "canadian":
        assert max(wm) > 64 or empty > 64


def test_captured_kings_are_counted(tmp_path: Path) -> None:
    """``1. 32x14`` from ``W:W32:BK28,19``: a white man takes a king (28) and a man (19)."""
    from pdnkit.store import import_files

    f = tmp_path / "k.pdn"
    f.write_text('[GameType "20"]\n[FEN "W:W32:BK28,19,1"]\n\n1. 32x14 *\n', encoding="utf-8")
    db = str(tmp_path / "k.duckdb")
    assert import_files([f], db=db).status_counts.get("ok") == 1
    assert hits(db, manoeuvre="w32x14", captures="1+1K") == [(1, 0)]
    assert hits(db, manoeuvre="w32x14", captures="2K") == []
    assert hits(db, manoeuvre="w??x??", captures=2) == [(1, 0)]


def test_a_database_with_fen_text_positions_asks_for_a_new_import(tmp_path: Path) -> None:
    """A database made before the bitboards (``positions`` a table of FEN text) is named as
    such instead of failing in SQL."""
    import duckdb

    from pdnkit.store import connect

    path = tmp_path / "old.duckdb"
    connect(path).close()  # every table of today, then positions as the old FEN table
    con = duckdb.connect(str(path))
    con.execute("DROP VIEW positions")
    con.execute("CREATE TABLE positions (game_id BIGINT, ply INTEGER, fen VARCHAR)")
    con.close()
    from pdnkit.store import UpgradeNeededError, upgrade
    from pdnkit.store.db import DatabaseError

    with pytest.raises(UpgradeNeededError, match="older pdnkit"):  # a read never rewrites
        search(str(path), pattern="W28")
    with pytest.raises(DatabaseError, match="FEN text"):  # and no upgrade can convert it
        upgrade(path, notice=None)


def test_the_readme_mirror_example_runs_on_boards_of_every_size(tmp_path: Path) -> None:
    """``--pattern "W28,K33:B19:E23" --mirror`` with an English game (32 squares) stored:
    square 33 is past that board, so English games cannot match (and the mirrored square
    is no square at all: it failed with 'negative shift count'); the international game set
    up as the pattern mirrored (black men 23, king 18, white man 32, 28 empty) is found."""
    from typer.testing import CliRunner

    from pdnkit.cli import app
    from pdnkit.store import import_files

    f = tmp_path / "two.pdn"
    f.write_text('[GameType "21"]\n\n1. 11-15 *\n\n'
                 '[GameType "20"]\n[FEN "W:W32,45:BK18,23,5"]\n\n1. 45-40 *\n',
                 encoding="utf-8")
    db = str(tmp_path / "two.duckdb")
    assert import_files([f], db=db).status_counts.get("ok") == 2
    assert hits(db, pattern="W28,K33:B19:E23", mirror=True) == [(2, 0), (2, 1)]
    assert hits(db, pattern="W28,K33:B19:E23") == []
    # past the English board: an excluded piece is absent, an E square empty, so English
    # games match as they would without that square
    assert hits(db, pattern="B15", exclude="B40") == [(1, 1)]
    assert hits(db, any_of="W24:E40") == [(1, 0), (1, 1), (2, 0)]
    assert hits(db, pattern="B15", exclude="E40") == []  # 40 occupied: never on English
    assert hits(db, pattern="W32,45") == [(2, 0)]
    res = CliRunner().invoke(app, ["search", "--pattern", "W28,K33:B19:E23", "--mirror",
                                   "--db", db])
    assert res.exit_code == 0, res.output
    assert "negative shift" not in res.output
