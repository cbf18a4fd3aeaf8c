"""The explorer's JSON API against the command line and the library, on the demo database,
through a real server bound to 127.0.0.1: every endpoint answers with the rows the command
writes with ``--format json``; the board of a node is the rules engine's position; a game is
the view page's model of it.
"""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from tests.cli.helpers import cli
from tests.serve.conftest import Served, serving


def _cli_json(*args: str | Path) -> Any:
    code, out, err = cli(*args, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def _q(**params: str) -> str:
    return urlencode({k.rstrip("_"): v for k, v in params.items()})


@pytest.mark.parametrize("variant,moves", [
    ("international", ""), ("international", "32-28"), ("international", "32-28 19-23"),
    ("english", "11-15"), ("russian", "c3-d4"), ("italian", ""),
])
def test_tree_answers_the_rows_of_the_command(served: Served, variant: str, moves: str) -> None:
    from pdnkit._cells import frame_records
    from pdnkit.stats import tree

    api = served.json(f"/api/tree?{_q(variant=variant, moves=moves)}")
    args = ["tree", "--db", served.db, "--variant", variant] + (["--moves", moves] if moves else [])
    assert api == _cli_json(*args)
    assert api == frame_records(tree(served.db, variant=variant, moves=moves or None))
    assert api, "the demo games reach every node asked here"


def test_filters_reach_the_library(served: Served) -> None:
    api = served.json("/api/tree?" + _q(variant="international", player="Flaw", from_="2024"))
    assert api == _cli_json("tree", "--db", served.db, "--variant", "international",
                            "--player", "Flaw", "--from", "2024")
    every = served.json("/api/tree?variant=international")
    assert sum(r["games"] for r in api) < sum(r["games"] for r in every)


def test_games_answers_the_rows_of_the_command_with_the_total(served: Served) -> None:
    for params in ({"variant": "international", "moves": "32-28"},
                   {"variant": "international", "moves": "32-28", "status": "warning"},
                   {"variant": "english", "limit": "5", "offset": "3"},
                   {"status": "error"}):
        status, headers, body = served.get(f"/api/games?{urlencode(params)}")
        assert status == 200
        args: list[str | Path] = ["games", "--db", served.db]
        for k, v in params.items():
            args += [f"--{k}", v]
        assert json.loads(body) == _cli_json(*args)
        from pdnkit.stats import games

        full = games(served.db, **{k: (int(v) if k in ("limit", "offset") else v)
                                   for k, v in params.items()})  # type: ignore[arg-type]
        assert int(headers["x-total-count"]) == full.attrs["total"]
    node = served.json("/api/games?variant=international&moves=32-28")
    tree = served.json("/api/tree?variant=international&moves=32-28")
    assert len(node) == sum(r["games"] for r in tree) == 15  # every game here went on
    assert {r["ply"] for r in node} == {1}


def test_every_record_with_all_copies(served: Served) -> None:
    """Each game counts once, as the command counts it; ``all_copies=1`` is
    ``--all-copies`` (the demo holds one copy of an international game)."""
    for flag, extra in (({}, []), ({"all_copies": "1"}, ["--all-copies"])):
        q = urlencode({"variant": "international", **flag})
        assert served.json(f"/api/tree?{q}") == _cli_json(
            "tree", "--db", served.db, "--variant", "international", *extra)
        assert served.json(f"/api/stats?kind=players&{q}") == _cli_json(
            "stats", "players", "--db", served.db, "--variant", "international", *extra)
        assert served.json(f"/api/games?{q}") == _cli_json(
            "games", "--db", served.db, "--variant", "international", *extra)
    totals = [int(served.get(f"/api/games?variant=international{x}")[1]["x-total-count"])
              for x in ("", "&all_copies=0", "&all_copies=1")]
    assert totals == [52, 52, 53]
    assert served.get("/api/games?all_copies=maybe")[0] == 400


def test_search_answers_the_rows_of_the_command(served: Served) -> None:
    api = served.json("/api/search?" + _q(pattern="W28:B19:E23", variant="international",
                                          first="1"))
    assert api == _cli_json("search", "--db", served.db, "--pattern", "W28:B19:E23",
                            "--variant", "international", "--first")
    assert len(api) == len({r["game_id"] for r in api}) > 10
    mirrored = served.json("/api/search?" + _q(pattern="W28:B19", mirror="on"))
    assert mirrored == _cli_json("search", "--db", served.db, "--pattern", "W28:B19",
                                 "--mirror")


@pytest.mark.parametrize("kind,extra", [
    ("players", []), ("results", ["--by", "year"]), ("lengths", ["--bin", "20"]),
    ("findings", ["--by", "file"]), ("openings", []), ("openings", ["--plies", "2"]),
    ("openings", ["--by", "name"]), ("novelties", []),
    ("crosstable", ["--event", "pdnkit sample: Russian"]),
])
def test_stats_answers_the_rows_of_the_command(served: Served, kind: str,
                                                extra: list[str]) -> None:
    params = {"kind": kind}
    for name, value in zip(extra[::2], extra[1::2], strict=True):
        params[name.lstrip("-")] = value
    variant = [] if kind == "crosstable" else ["--variant", "russian"]
    if variant:
        params["variant"] = "russian"
    api = served.json(f"/api/stats?{urlencode(params)}")
    assert api == _cli_json("stats", kind, "--db", served.db, *variant, *extra)
    assert api


def test_a_node_is_the_rules_engines_position(served: Served) -> None:
    from pdnkit.rules import Position, canonical_notation, get_rules, match_move
    from pdnkit.viewer.plies import placement_of

    rules = get_rules("international")
    pos = Position.initial(rules)
    for text in ("32-28", "19-23"):
        pos = pos.play(match_move(pos, text)[0])
    n = served.json("/api/node?variant=international&moves=32-28+19-23")
    assert n["placement"] == placement_of(pos) and n["side"] == "W"
    assert n["last"] == {"move": "19-23", "path": [19, 23], "captured": []}
    legal = pos.legal_moves()
    assert [m["move"] for m in n["legal"]] == [canonical_notation(m, pos, legal) for m in legal]
    assert [m["move"] for m in n["legal"]] == ["28x19"]  # a capture is compulsory
    assert n["legal"][0]["path"] == [28, 19] and n["legal"][0]["captured"] == [23]
    # the opening of a node is the one the tree names after the move that leads there
    parent = {r["move"]: r for r in served.json("/api/tree?variant=international&moves=32-28")}
    assert n["opening"] == parent["19-23"]["opening"] and "32-28" in n["opening"]
    assert n["fen"] == parent["19-23"]["fen_after"]
    # by FEN, the same node
    assert served.json("/api/node?" + _q(variant="international", fen=n["fen"]))["placement"] \
        == n["placement"]
    # moves from a set-up position: the rules engine plays them
    start = served.json("/api/node?variant=international&moves=32-28")["fen"]
    from_fen = served.json("/api/node?" + _q(variant="international", fen=start, moves="19-23"))
    assert {k: from_fen[k] for k in ("placement", "fen", "side", "last", "legal", "opening")} \
        == {k: n[k] for k in ("placement", "fen", "side", "last", "legal", "opening")}
    status, _, body = served.get("/api/node?" + _q(variant="international", fen=start,
                                                   moves="19-23 28-22"))
    assert status == 400 and "move 2 '28-22' is not legal after 19-23" in json.loads(body)["error"]
    english = served.json("/api/node?variant=english")
    assert english["side"] == "B" and english["placement"][:12] == "b" * 12
    assert english["last"] is None


def test_a_game_is_the_view_pages_model(served: Served) -> None:
    from pdnkit.viewer.fetch import db_games
    from pdnkit.viewer.model import game_model

    flawed = served.json("/api/games?" + _q(event="encoding-fallback"))
    assert len(flawed) == 1 and flawed[0]["status"] == "warning"
    gid = flawed[0]["game_id"]
    got = served.json(f"/api/game?id={gid}")
    (_, label, report), = list(db_games(served.db, game_id=gid))
    assert got["model"] == json.loads(json.dumps(game_model(report, source=label).to_json()))
    # the finding its import stored (the file's encoding) is the view's too: the same status
    assert got["model"]["status"] == "warning"
    assert [f["code"] for f in got["model"]["findings"]] == ["encoding-fallback"]
    assert got["layout"]["w"] == 10 and got["evals"] == []
    status, headers, body = served.get(f"/view/{gid}?embed=1")
    assert status == 200 and headers["content-type"].startswith("text/html")
    page = body.decode()
    assert 'id="pdnkit-g-1"' in page and "#list-pane{display:none}" in page
    assert "encoding-fallback" in page
    assert served.get("/view/999999")[0] == 404
    assert served.get("/api/game?id=999999")[0] == 400


def test_evaluations_are_shown_when_the_game_was_analysed(demo_db: Path,
                                                         tmp_path: Path) -> None:
    import duckdb

    db = tmp_path / "analysed.duckdb"
    shutil.copy(demo_db, db)
    con = duckdb.connect(str(db))
    rows = [(110, k, (-1) ** k * 0.25 * k, 8, "32-28", "32-28 19-23", 1000 + k, "fake 1.0",
             '{"depth":8}') for k in range(0, 5)]
    con.executemany("INSERT INTO evals (game_id, ply, score, depth, best, pv, nodes, engine, "
                    "settings, engine_version, scale) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '1.0', "
                    "'positional')", rows)
    con.close()
    with serving(db) as s:
        got = s.json("/api/game?id=110")
        assert [(e["ply"], e["score"], e["best"], e["engine"]) for e in got["evals"]] == [
            (k, score, best, engine) for _, k, score, _, best, _, _, engine, _ in rows]
        assert s.json("/api/game?id=111")["evals"] == []


@pytest.mark.parametrize("path,needle", [
    ("/api/tree?variant=international&moves=32-29", "move 1 '32-29' is not legal"),
    ("/api/tree?variat=international", "unknown parameter 'variat'"),
    ("/api/tree?variant=internationl", "unknown variant 'internationl'"),
    ("/api/games?status=lost", "unknown status 'lost'"),
    ("/api/games?limit=ten", "limit must be a whole number"),
    ("/api/search?variant=international", "nothing to search for"),
    ("/api/search?pattern=W99x&variant=international", ""),
    ("/api/stats?kind=elo", "kind must be one of"),
    ("/api/tree?from=yesterday", "date must be YYYY"),
    ("/api/node?moves=32-28", "node needs a variant"),
])
def test_bad_questions_get_the_commands_one_line(served: Served, path: str,
                                                  needle: str) -> None:
    status, headers, body = served.get(path)
    assert status == 400 and headers["content-type"].startswith("application/json")
    message = json.loads(body)["error"]
    assert needle in message and "\n" not in message and "Traceback" not in message


def test_the_cli_says_the_same_as_the_api_for_a_bad_move(served: Served) -> None:
    code, _, err = cli("tree", "--db", served.db, "--variant", "international", "--moves",
                       "32-29")
    message = json.loads(served.get("/api/tree?variant=international&moves=32-29")[2])["error"]
    assert code == 2 and err.strip() == f"pdnkit: error: {message}"


def test_answers_in_parallel_equal_answers_in_turn(served: Served) -> None:
    paths = [f"/api/tree?{_q(variant=v, moves=m)}" for v, m in (
        ("international", ""), ("international", "32-28"), ("english", "11-15"),
        ("russian", ""), ("brazilian", ""), ("italian", ""))]
    paths += ["/api/games?variant=english&limit=10", "/api/stats?kind=players"]
    alone = {p: served.json(p) for p in paths}
    got: dict[str, Any] = {}

    def ask(p: str) -> None:
        got[p] = served.json(p)

    threads = [threading.Thread(target=ask, args=(p,)) for p in paths * 2]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == alone


def test_info_lists_the_variants_by_games(served: Served) -> None:
    from pdnkit.store import query

    info = served.json("/api/info")  # each game once: the demo's one copy left out
    counts = query("SELECT variant, count(*) AS n FROM games WHERE variant IS NOT NULL "
                   "AND duplicate_of IS NULL GROUP BY ALL ORDER BY n DESC, variant",
                   db=served.db)
    assert [(v["variant"], v["games"]) for v in info["variants"]] == \
        list(counts.itertuples(index=False, name=None))
    assert info["database"] == "pdnkit-demo.duckdb" and info["games"] == 199
    assert served.get("/api/info?x=1")[0] == 400


def test_a_lake_is_served_as_its_database_is(tmp_path: Path) -> None:
    from pdnkit.lake import import_lake
    from pdnkit.samples import sample_dir
    from pdnkit.store import import_files

    files = [sample_dir() / "international.pdn", sample_dir() / "english.pdn"]
    import_lake(files, tmp_path / "lake", engine="local", progress=False)
    import_files(files, db=tmp_path / "same.duckdb")
    with serving(tmp_path / "lake") as lake, serving(tmp_path / "same.duckdb") as db:
        for path in ("/api/tree?variant=international&moves=32-28", "/api/tree?variant=english",
                     "/api/games?variant=english&moves=11-15",
                     "/api/search?pattern=W28:B19&variant=international"):
            assert lake.json(path) == db.json(path), path


def test_a_question_asked_again_is_answered_from_memory(demo_db: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import pdnkit.serve.endpoints as api
    from pdnkit.serve import Explorer

    asked: list[str] = []
    real = api.answer

    def counting(path: str, query: Any, con: Any) -> Any:
        asked.append(path)
        return real(path, query, con)

    monkeypatch.setattr(api, "answer", counting)
    for cache, computed in ((64 * 2 ** 20, 2), (0, 4)):
        asked.clear()
        app = Explorer(demo_db, log=False, cache_bytes=cache)
        try:
            answers = [app.respond("GET", target, {}).body for target in (
                "/api/tree?variant=english&moves=11-15", "/api/tree?moves=11-15&variant=english",
                "/api/tree?variant=english&moves=11-15", "/api/tree?variant=russian")]
        finally:
            app.close()
        assert answers[0] == answers[1] == answers[2] != answers[3]
        assert len(asked) == computed
    # a refusal is never kept: asked again, asked again
    app = Explorer(demo_db, log=False)
    asked.clear()
    for _ in range(2):
        assert app.respond("GET", "/api/tree?variant=english&moves=11-19", {}).status == 400
    app.close()
    assert len(asked) == 2
