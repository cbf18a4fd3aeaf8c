"""``pdnkit serve`` in Debian's Chromium through Playwright (skipped, with the reason, without
them; the browser fixture is the view tests'): a user clicks through an explorer path and
sees the counts the API and the command give; the game list opens the game at the position;
search on the board finds what the API and the command find; the statistics are the API's;
hostile tag text stays text. Every test fails on a console error or a script error, and on
any request to a host other than 127.0.0.1 (every request is watched and such a one
aborted). The server runs in a thread and is checked gone when its module ends.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest

from tests.cli.helpers import cli
from tests.serve.conftest import Served, serving
from tests.view.conftest import browser, shot  # noqa: F401  (the browser fixture)


@pytest.fixture
def page(browser: Any, served: Served) -> Iterator[Any]:  # noqa: F811
    yield from _watched(browser)


def _watched(browser: Any) -> Iterator[Any]:  # noqa: F811
    """A page whose console errors, script errors and requests to other hosts fail the
    test."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    problems: list[str] = []

    def route(r: Any) -> None:
        host = urlsplit(r.request.url).hostname
        if r.request.url.startswith(("data:", "about:")) or host == "127.0.0.1":
            r.continue_()
        else:
            problems.append(f"request to another host: {r.request.url}")
            r.abort()

    context.route("**/*", route)
    pg = context.new_page()
    pg.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
          if m.type == "error" else None)
    pg.on("pageerror", lambda e: problems.append(f"script error: {e}"))
    pg.add_init_script("for (const f of ['alert', 'confirm', 'prompt', 'open']) "
                       "window[f] = () => { document.title = 'HOOKED ' + f; };")
    yield pg
    titles = [f.evaluate("document.title") for f in pg.frames if f.url != "about:blank"]
    context.close()
    assert problems == []
    assert not any(str(t).startswith("HOOKED") for t in titles)


def _api(served: Served, path: str, **params: str) -> Any:
    return served.json(f"{path}?{urlencode({k: v for k, v in params.items() if v})}")


def _cli(*args: str | Path) -> Any:
    code, out, err = cli(*args, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def _table(pg: Any) -> list[dict[str, str]]:
    """The explorer's table as the user sees it, by the columns' names."""
    return pg.eval_on_selector_all("#ex-tree tbody tr[data-move]", """rows => rows.map(r => {
        const c = n => (r.querySelector('.c-' + n) || {}).textContent;
        return {move: r.getAttribute('data-move'), games: c('games'), share: c('share'),
                white_wins: c('white_wins'), draws: c('draws'), black_wins: c('black_wins'),
                score: c('score'), transpositions: c('transpositions'),
                opening: r.querySelector('.c-opening').textContent};
    })""")


def _pieces(frame: Any, selector: str) -> dict[int, str]:
    return {int(s): p for s, p in frame.eval_on_selector_all(
        f"{selector} circle.piece",
        "els => els.map(e => [e.getAttribute('data-square'), e.getAttribute('data-piece')])")}


def _placement_pieces(placement: str) -> dict[int, str]:
    return {i + 1: ch for i, ch in enumerate(placement) if ch != "."}


def _js(v: Any) -> str:
    """A JSON number as a script writes it (50.0 is 50)."""
    return str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)


def _as_shown(row: dict[str, Any]) -> dict[str, str]:
    """An API row as the page writes it in the table."""
    return {"move": row["move"], "games": _js(row["games"]), "share": _js(row["share"]),
            "white_wins": _js(row["white_wins"]), "draws": _js(row["draws"]),
            "black_wins": _js(row["black_wins"]),
            "score": "" if row["score"] is None else f"{_js(row['score'])}%",
            "transpositions": _js(row["transpositions"]), "opening": row["opening"] or ""}


def _wait_node(pg: Any, plies: int) -> None:
    pg.wait_for_selector(f"#ex-path .step.cur[data-ply='{plies}']")
    pg.wait_for_selector("#status:empty", state="attached")


def test_clicking_through_the_explorer_shows_the_counts_of_the_api_and_the_cli(
        page: Any, served: Served, tmp_path: Path) -> None:
    from pdnkit.rules import Position, get_rules, match_move
    from pdnkit.viewer.plies import placement_of

    page.goto(served.url + "#variant=international")
    _wait_node(page, 0)
    rules = get_rules("international")
    pos = Position.initial(rules)
    moves: list[str] = []
    for depth in range(4):
        shown = _table(page)
        api = _api(served, "/api/tree", variant="international", moves=" ".join(moves))
        cmd = _cli("tree", "--db", served.db, "--variant", "international",
                   *(["--moves", " ".join(moves)] if moves else []))
        assert api == cmd and shown == [_as_shown(r) for r in api] and shown
        # the board is the rules engine's position after the path
        assert _pieces(page, "#board") == _placement_pieces(placement_of(pos))
        # the game list: every game that reached the node, as many as the API says
        total = served.get("/api/games?" + urlencode(
            {"variant": "international", **({"moves": " ".join(moves)} if moves else {})}))[1]
        assert page.inner_text("#gl-count") == f"({total['x-total-count']})"
        if depth == 1:
            shot(page, tmp_path, "explorer-node.png")
        move = shown[0]["move"]  # the most played move: click it
        page.click(f"#ex-tree tbody tr[data-move='{move}']")
        moves.append(move)
        pos = pos.play(match_move(pos, move)[0])
        _wait_node(page, len(moves))
    assert "moves=" + "+".join(moves) in page.url.replace("%20", "+")
    # back goes back, and the address holds the node (a reload shows it again)
    page.click("#ex-back")
    _wait_node(page, len(moves) - 1)
    page.reload()
    _wait_node(page, len(moves) - 1)
    assert [r["move"] for r in _table(page)] == [r["move"] for r in _api(
        served, "/api/tree", variant="international", moves=" ".join(moves[:-1]))]


def test_a_move_played_on_the_board_goes_to_its_node(page: Any, served: Served) -> None:
    page.goto(served.url + "#variant=international")
    _wait_node(page, 0)
    page.click("#board rect[data-square='32']")
    assert page.get_attribute("#board rect[data-square='28']", "data-mark") == "1"
    page.click("#board rect[data-square='28']")
    _wait_node(page, 1)
    assert page.inner_text("#ex-path .step.cur") == "32-28"
    assert _pieces(page, "#board")[28] == "w" and 32 not in _pieces(page, "#board")


def test_the_game_list_opens_the_game_at_the_position(page: Any, served: Served,
                                                       tmp_path: Path) -> None:
    page.goto(served.url + "#variant=international&moves=32-28+19-23")
    _wait_node(page, 2)
    node = _pieces(page, "#board")
    first = page.locator("#gl-table tbody tr").first
    game_id, ply = first.get_attribute("data-game"), first.locator("td").nth(9).inner_text()
    rows = _api(served, "/api/games", variant="international", moves="32-28 19-23")
    assert [str(r["game_id"]) for r in rows][0] == game_id and str(rows[0]["ply"]) == ply
    first.click()
    frame = page.frame_locator("#gp-frame")
    frame.locator("#board").wait_for()
    inner = next(f for f in page.frames if "/view/" in f.url)
    assert inner.get_attribute("#board", "data-ply") == ply
    assert _pieces(inner, "#board") == node  # the game at the ply it reached the node
    assert "game " + game_id in page.inner_text("#gp-title")
    assert inner.locator("#eval").count() == 0 or inner.is_hidden("#eval")  # not analysed
    shot(page, tmp_path, "explorer-game.png")
    page.keyboard.press("Escape")
    assert page.is_hidden("#game-pane")


def test_search_on_the_board_finds_what_the_api_and_the_cli_find(page: Any, served: Served,
                                                                 tmp_path: Path) -> None:
    page.goto(served.url + "#tab=search&variant=international")
    page.wait_for_selector("#search-board")
    for tool, square in (("w", 28), ("b", 19), ("e", 23)):
        page.click(f"#se-palette button[data-tool='{tool}']")
        page.click(f"#search-board rect[data-square='{square}']")
    assert page.input_value("#se-pattern") == "W28:B19:E23"
    page.click("#se-go")
    page.wait_for_selector("#se-table tbody tr[data-game]")
    shown = page.eval_on_selector_all("#se-table tbody tr[data-game]", "rows => rows.map(r => "
                                      "[+r.getAttribute('data-game'), +r.getAttribute('data-ply')])")
    api = _api(served, "/api/search", pattern="W28:B19:E23", variant="international",
               side="any", first="1", limit="200")
    cmd = _cli("search", "--db", served.db, "--pattern", "W28:B19:E23", "--variant",
               "international", "--side", "any", "--first", "--limit", "200")
    assert api == cmd and shown == [[r["game_id"], r["ply"]] for r in api] and shown
    assert page.inner_text("#se-count") == f"({len(api)} in {len(api)} games)"
    shot(page, tmp_path, "explorer-search.png")
    # a hit opens its game at the ply: the pattern stands on the board there
    page.click("#se-table tbody tr[data-game] >> nth=3")
    page.frame_locator("#gp-frame").locator("#board").wait_for()
    inner = next(f for f in page.frames if "/view/" in f.url)
    pieces = _pieces(inner, "#board")
    assert pieces.get(28) == "w" and pieces.get(19) == "b" and 23 not in pieces


def test_the_statistics_are_the_apis(page: Any, served: Served, tmp_path: Path) -> None:
    page.goto(served.url + "#tab=stats&variant=russian&kind=players")
    page.wait_for_selector("#st-table tbody tr")
    api = _api(served, "/api/stats", kind="players", variant="russian")
    assert page.locator("#st-table tbody tr").count() == len(api) > 3
    head = page.eval_on_selector_all("#st-table thead th", "els => els.map(e => e.textContent)")
    assert head == list(api[0])
    first = page.eval_on_selector_all("#st-table tbody tr:first-child td",
                                      "els => els.map(e => e.textContent)")
    assert first == ["" if v is None else _js(v) for v in api[0].values()]
    # a player's name opens the explorer for the player's games
    name = api[0]["player"]
    page.click("#st-table tbody tr:first-child td.link")
    _wait_node(page, 0)
    assert page.input_value("#f-player") == name
    total = served.get("/api/games?" + urlencode({"variant": "russian", "player": name}))[1]
    assert page.inner_text("#gl-count") == f"({total['x-total-count']})"
    page.goto(served.url + "#tab=stats&variant=russian&kind=players")
    page.wait_for_selector("#st-table tbody tr")
    page.select_option("#st-kind", "results")
    page.wait_for_selector("#st-by:not([disabled])")
    page.select_option("#st-by", "year")
    page.wait_for_selector("#st-table thead th:text-is('year')")
    years = _api(served, "/api/stats", kind="results", by="year", variant="russian")
    assert page.locator("#st-table tbody tr").count() == len(years)
    shot(page, tmp_path, "explorer-stats.png")


def test_hostile_tag_text_stays_text(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    from pdnkit.store import import_files
    from tests.view.test_hostile import BIDI, BIDI_CHARS, HOSTILE, IMG, SCRIPT, SVG

    src = tmp_path / "hostile.pdn"
    src.write_text(HOSTILE, encoding="utf-8")
    db = tmp_path / "hostile.duckdb"
    import_files([src], db=db)
    with serving(db) as s:
        for pg in _watched(browser):
            pg.goto(s.url + "#variant=international")
            _wait_node(pg, 0)
            cells = pg.eval_on_selector_all("#gl-table tbody td",
                                            "els => els.map(e => e.textContent)")
            assert IMG in cells and SCRIPT in cells and SVG in cells
            assert not any(c in "".join(cells) for c in BIDI_CHARS)
            assert BIDI.translate({ord(c): None for c in BIDI_CHARS}) in cells  # as written
            pg.click("#gl-table tbody tr >> nth=0")
            pg.frame_locator("#gp-frame").locator("#board").wait_for()
            for frame in pg.frames:
                handlers = frame.eval_on_selector_all(
                    "*", "els => els.filter(e => [...e.attributes].some(a => "
                    "a.name.startsWith('on') || /javascript:/i.test(a.value))).length")
                assert handlers == 0
                assert frame.locator("img").count() == 0
            inner = next(f for f in pg.frames if "/view/" in f.url)
            assert IMG in inner.inner_text("#g-title")


def test_evaluations_are_drawn_when_the_game_was_analysed(browser: Any, demo_db: Path,  # noqa: F811
                                                          tmp_path: Path) -> None:
    """The game pane is the view page: an analysed game shows its evaluation graph there,
    one point per position the table holds, and a click on it steps the board."""
    import duckdb

    db = tmp_path / "analysed.duckdb"
    shutil.copy(demo_db, db)
    con = duckdb.connect(str(db))
    con.executemany("INSERT INTO evals (game_id, ply, engine, engine_version, settings, scale, "
                    "score, depth, best) VALUES (?, ?, 'fake', '1.0', '{\"depth\":12}', "
                    "'positional', ?, 12, '32-28')",
                    [(110, k, 0.5 * k - 2) for k in range(0, 9)])
    con.close()
    with serving(db) as s:
        for pg in _watched(browser):
            pg.goto(s.url + "#variant=international")
            _wait_node(pg, 0)
            pg.evaluate("window.pdnkitExplorer.openGame(110, 0, 'A', 'B')")
            pg.frame_locator("#gp-frame").locator("#eval").wait_for()
            inner = next(f for f in pg.frames if "/view/" in f.url)
            assert inner.get_attribute("#eval", "data-points") == "9"
            box = inner.query_selector("#eval").bounding_box()
            pg.mouse.click(box["x"] + box["width"] * 0.5, box["y"] + box["height"] / 2)
            assert inner.get_attribute("#board", "data-ply") != "0"
            shot(pg, tmp_path, "explorer-evals.png")


def test_a_set_up_position_is_explored_from_its_fen(page: Any, served: Served) -> None:
    fen = _api(served, "/api/node", variant="international", moves="32-28 19-23")["fen"]
    page.goto(served.url + "#" + urlencode({"variant": "international", "fen": fen}))
    _wait_node(page, 0)
    assert page.inner_text("#ex-path .step.cur") == "set-up position"
    api = _api(served, "/api/tree", variant="international", fen=fen)
    # the same position by its moves: transpositions merge, the same rows
    assert api == _api(served, "/api/tree", variant="international", moves="32-28 19-23")
    assert _table(page) == [_as_shown(r) for r in api]
    page.click("#ex-tree tbody tr[data-move='28x19']")
    _wait_node(page, 1)
    after = "32-28 19-23 28x19"
    assert _table(page) == [_as_shown(r) for r in _api(
        served, "/api/tree", variant="international", moves=after)]
    node = _api(served, "/api/node", variant="international", moves=after)
    assert _pieces(page, "#board") == _placement_pieces(node["placement"])
    page.click("#ex-initial")
    _wait_node(page, 0)
    assert page.inner_text("#ex-opening") == "initial position"


def test_the_searchs_position_is_explored_from_the_search(page: Any, served: Served) -> None:
    page.goto(served.url + "#variant=international&moves=32-28")
    _wait_node(page, 1)
    page.click("nav .tab[data-tab='search']")
    page.click("#se-load")
    page.click("#se-explore")
    _wait_node(page, 0)
    assert _table(page) == [_as_shown(r) for r in _api(
        served, "/api/tree", variant="international", moves="32-28")]


def test_all_copies_counts_every_record(page: Any, served: Served) -> None:
    """The filter bar's "all copies" box asks for every record (the demo holds one copy of
    an international game), and the address keeps it."""
    page.goto(served.url + "#variant=international")
    _wait_node(page, 0)
    once = served.get("/api/games?variant=international")[1]["x-total-count"]
    every = served.get("/api/games?variant=international&all_copies=1")[1]["x-total-count"]
    assert int(every) == int(once) + 1
    page.wait_for_selector(f"#gl-count:text-is('({once})')")
    page.check("#f-copies")
    page.wait_for_selector(f"#gl-count:text-is('({every})')")
    assert "all_copies=1" in page.url
    page.click("#f-clear")
    page.wait_for_selector(f"#gl-count:text-is('({once})')")
    assert not page.is_checked("#f-copies")
