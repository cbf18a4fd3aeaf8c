"""The game list (``pdnkit.stats.games``, ``pdnkit games``) on hand-made games whose answers
are known by construction:

* game 1 (1-0, Ann v Bob, 2019): ``1. 31-26 20-25 2. 32-27`` -> position P3 at ply 3;
* game 2 (0-1, Cid v Ann, 2020): ``1. 32-27 20-25 2. 31-26`` -> the same P3 by another road;
* game 3 (0-1, Bob v Cid, 2021): ``1. 31-26 20-25 2. 33-28``;
* game 4 (1/2-1/2, Ann v Cid, 2021): ``1. 31-26 19-24``;
* game 5 (an illegal second move: status error, Dan v Eve, 2022): ``1. 31-26 20-25 2. 31-22``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pdnkit.stats import games, tree
from tests.cli.helpers import cli

GAMES = [("1-0", "Ann", "Bob", "2019.03.01", "1. 31-26 20-25 2. 32-27"),
         ("0-1", "Cid", "Ann", "2020.04.02", "1. 32-27 20-25 2. 31-26"),
         ("0-1", "Bob", "Cid", "2021.05.03", "1. 31-26 20-25 2. 33-28"),
         ("1/2-1/2", "Ann", "Cid", "2021.06.04", "1. 31-26 19-24"),
         ("*", "Dan", "Eve", "2022.07.05", "1. 31-26 20-25 2. 31-22")]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    from pdnkit.store import import_files

    d = tmp_path_factory.mktemp("gamelist")
    f = d / "g.pdn"
    f.write_text("\n".join(
        f'[Event "{"Open" if i < 3 else "Cup"}"]\n[White "{w}"]\n[Black "{b}"]\n'
        f'[Date "{date}"]\n[GameType "20"]\n[Result "{r}"]\n\n{m} {r}\n'
        for i, (r, w, b, date, m) in enumerate(GAMES)), encoding="utf-8")
    path = d / "g.duckdb"
    import_files([f], db=path)
    return str(path)


def test_every_game_without_a_position(db: str) -> None:
    df = games(db)
    assert list(df.game_id) == [1, 2, 3, 4, 5] and df.attrs["total"] == 5
    assert df.ply.isna().all()
    assert list(df.white) == [g[1] for g in GAMES]
    assert list(df.outcome) == ["white", "black", "black", "draw", "unknown"]
    assert list(df.game) == [1, 2, 3, 4, 5] and set(df.file) == {str(Path(db).parent / "g.pdn")}
    assert list(df.status)[:4] == ["ok"] * 4 and df.status.iloc[4] == "error"
    from pdnkit.store import query

    counted = dict(query("SELECT game_id, count(*) AS n FROM findings GROUP BY ALL",
                         db=db).itertuples(index=False))
    assert list(df.findings) == [counted.get(g, 0) for g in df.game_id]
    assert df.findings.iloc[4] >= 1 and df.findings.iloc[:3].sum() == 0


def test_a_position_by_any_move_order_and_the_ply_it_was_reached(db: str) -> None:
    p3 = games(db, moves="31-26 20-25 32-27")
    assert list(p3.game_id) == [1, 2] and list(p3.ply) == [3, 3]
    after = games(db, moves="31-26")
    assert list(after.game_id) == [1, 3, 4, 5] and set(after.ply) == {1}
    after = games(db, moves="31-26 20-25")  # game 2's 32-27 20-25 is another position
    assert list(after.game_id) == [1, 3, 5]
    # every game that went on from a node is in its list (and the tree counts those)
    node = tree(db, moves="31-26")
    assert int(node.games.sum()) == len(games(db, moves="31-26"))


def test_a_fen_finds_the_same_games_as_its_moves(db: str) -> None:
    fen = tree(db, moves="31-26 20-25").set_index("move").loc["32-27", "fen_after"]
    assert list(games(db, fen=fen).game_id) == [1, 2]


def test_status_and_the_filters(db: str) -> None:
    assert list(games(db, status="error").game_id) == [5]
    assert list(games(db, status="ok, error", moves="31-26").game_id) == [1, 3, 4, 5]
    assert list(games(db, status=["warning"]).game_id) == []
    assert list(games(db, player="ann").game_id) == [1, 2, 4]
    assert list(games(db, event="cup").game_id) == [4, 5]
    assert list(games(db, date_from="2020", date_to="2021-05").game_id) == [2, 3]
    assert list(games(db, variant="international", player="cid", moves="31-26").game_id) == [3, 4]
    assert games(db, variant="russian").empty
    with pytest.raises(ValueError, match="unknown status 'broken'"):
        games(db, status="broken")
    with pytest.raises(ValueError, match="not legal"):
        games(db, moves="31-26 50-45")


def test_pages_and_the_total(db: str) -> None:
    page = games(db, limit=2, offset=1)
    assert list(page.game_id) == [2, 3] and page.attrs["total"] == 5
    last = games(db, limit=2, offset=4, moves="31-26")
    assert last.empty and last.attrs["total"] == 4
    with pytest.raises(ValueError):
        games(db, offset=-1)


def test_the_command_writes_the_library_rows(db: str) -> None:
    code, out, _ = cli("games", "--db", db, "--moves", "31-26", "--status", "ok",
                       "--format", "json")
    assert code == 0
    rows = json.loads(out)
    assert [r["game_id"] for r in rows] == [1, 3, 4]
    assert rows[0]["ply"] == 1 and rows[0]["white"] == "Ann" and rows[0]["outcome"] == "white"
    code, out, _ = cli("games", "--db", db, "--limit", "1", "--offset", "1")
    assert code == 0 and "games (2-2 of 5)" in out and "Cid" in out
    code, _, err = cli("games", "--db", db, "--moves", "31-26", "--fen", "W:W31:B20")
    assert code == 2 and "not both" in err
    code, _, err = cli("games", "--db", db, "--status", "lost")
    assert code == 2 and err.count("\n") == 1 and "unknown status 'lost'" in err
