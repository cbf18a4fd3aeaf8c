"""``pdnkit view`` pages in a real headless Chromium (Debian's, driven by Playwright; the
browser fixtures and the screenshot folder are in ``conftest.py``).

The board is read back from the SVG's DOM (``data-square``/``data-piece``) and compared with
the rules engine's position; findings, numbering of three boards and the lazy game list are
checked as a user would use them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pdnkit.rules import get_rules
from pdnkit.samples import sample_dir
from pdnkit.validation import validate
from pdnkit.viewer.model import game_model
from pdnkit.viewer.page import view, view_html
from tests.shared import SHARED_DATA
from tests.view.conftest import shot


def _real_international() -> Path:
    real = SHARED_DATA / "real" / "international" / "nk2003-amsterdam.pdn"
    return real if real.exists() else sample_dir() / "international.pdn"


def _board(pg: Any) -> dict[int, str]:
    return {int(sq): piece for sq, piece in pg.eval_on_selector_all(
        "#board circle.piece",
        "els => els.map(e => [e.getAttribute('data-square'), e.getAttribute('data-piece')])")}


def _engine_board(position: Any) -> dict[int, str]:
    out = {}
    for squares, ch in ((position.white_men, "w"), (position.white_kings, "W"),
                        (position.black_men, "b"), (position.black_kings, "B")):
        out.update({s: ch for s in squares})
    return out


def test_keyboard_steps_to_ply_k_and_board_equals_engine(page: Any, tmp_path: Path):
    src = _real_international()
    reports = list(validate(src))
    index, rep = next((i, r) for i, r in enumerate(reports) if r.replayed_plies >= 30)
    out = tmp_path / "real.html"
    view(src, out=out)
    page.goto(out.as_uri() + f"#g={index + 1}")   # games count from 1
    page.wait_for_selector("#board")
    assert _board(page) == _engine_board(rep.plies[0].position_before)   # ply 0: the start
    k = 27
    for _ in range(k):
        page.keyboard.press("ArrowRight")
    assert page.get_attribute("#board", "data-ply") == str(k)
    assert _board(page) == _engine_board(rep.plies[k - 1].position_after)
    page.keyboard.press("ArrowLeft")
    assert _board(page) == _engine_board(rep.plies[k - 2].position_after)
    page.keyboard.press("End")
    last = rep.replayed_plies
    assert _board(page) == _engine_board(rep.plies[last - 1].position_after)
    assert "Final position" in page.inner_text("#verdict")
    shot(page, tmp_path, "view-real.png")


def test_click_finding_jumps_to_its_ply_and_marks_the_move(page: Any, tmp_path: Path):
    flawed = sample_dir() / "flawed.pdn"
    reports = list(validate(flawed))
    index, rep = next((i, r) for i, r in enumerate(reports)
                      if any(f.code == "missed-capture" for f in r.findings))
    finding = next(f for f in rep.findings if f.code == "missed-capture")
    out = tmp_path / "flawed.html"
    view(flawed, out=out)
    page.goto(out.as_uri() + f"#g={index + 1}")
    page.wait_for_selector("#board")
    assert page.get_attribute("#board", "data-ply") == "0"
    page.click("#findings .fd.error")
    assert page.get_attribute("#board", "data-ply") == str(finding.ply)
    marked = page.eval_on_selector_all(
        "#board rect[data-mark=written]", "els => els.map(e => +e.getAttribute('data-square'))")
    model = game_model(rep)
    assert sorted(marked) == sorted(model.findings[0].written_squares) == [29, 33]
    legal = page.inner_text("#legal")
    assert all(m in legal for m in model.findings[0].legal) and "28x19" in legal
    # the board at the faulty ply is the position before the faulty move
    before = rep.plies[finding.ply - 2].position_after
    assert _board(page) == _engine_board(before)
    shot(page, tmp_path, "view-finding.png")
    # a report's link to the game and ply selects the error there
    page.goto(out.as_uri() + f"#g={index + 1}&ply={finding.ply}")
    page.reload()
    page.wait_for_selector("#board")
    assert page.get_attribute("#board", "data-ply") == str(finding.ply)
    assert "28x19" in page.inner_text("#legal")
    assert page.locator("#board rect[data-mark=written]").count() == 2


@pytest.mark.parametrize("variant,file", [("international", "international.pdn"),
                                          ("english", "english.pdn"),
                                          ("italian", "italian.pdn")])
def test_numbering_of_the_board(page: Any, tmp_path: Path, variant: str, file: str):
    out = tmp_path / f"{variant}.html"
    view(sample_dir() / file, out=out, limit=1)
    page.goto(out.as_uri())
    page.wait_for_selector("#board")
    rules = get_rules(variant)
    rects = page.eval_on_selector_all(
        "#board rect[data-square]",
        "els => els.map(e => [+e.getAttribute('data-square'), +e.getAttribute('x'), "
        "+e.getAttribute('y'), e.getAttribute('data-name')])")
    assert len(rects) == rules.geometry.num_squares
    for sq, x, y, name in rects:
        f, r = rules.geometry.square_to_coords(sq)
        assert (x // 40, rules.height - 1 - y // 40) == (f, r), sq
        assert name == str(sq)
    top_left = min(rects, key=lambda t: (t[2], t[1]))
    # international and english: square 1 is on the second file of the top row; italian,
    # on its mirrored board, in the top-left corner
    assert top_left[0] == 1 and (top_left[1] == 0) == (variant == "italian")
    shot(page, tmp_path, f"view-{variant}.png")


def test_ten_thousand_games_stay_lazy(page: Any, tmp_path: Path):
    from pdnkit.viewer.page import game_model_of

    short = game_model_of('[GameType "20"] 1. 32-28 19-23 2. 28x19 14x23 *')
    bad = game_model_of('[GameType "20"] 1. 32-28 19-23 2. 37-26 *')
    out = tmp_path / "big.html"
    out.write_text(view_html([bad if i % 10 == 0 else short for i in range(10_000)]),
                   encoding="utf-8")
    page.goto(out.as_uri(), timeout=60_000)
    page.wait_for_selector("#board")
    assert page.inner_text("#count") == "10000 of 10000 games"
    assert page.locator("#list .row").count() < 100
    page.select_option("#f-status", "error")
    assert page.inner_text("#count") == "1000 of 10000 games"
    page.eval_on_selector("#list", "e => { e.scrollTop = 26 * 900; e.dispatchEvent(new Event('scroll')); }")
    page.wait_for_selector("#list .row[data-game='9001']")   # the 9001st game: an error
    page.click("#list .row[data-game='9001']")
    assert page.get_attribute("#board", "data-ply") == "0"
    assert "illegal-move" in page.inner_text("#findings")


def test_alphanumeric_square_names_on_a_russian_board(page: Any, tmp_path: Path):
    from pdnkit.rules import square_name

    out = tmp_path / "russian.html"
    view(sample_dir() / "russian.pdn", out=out, limit=1)
    page.goto(out.as_uri())
    page.wait_for_selector("#board")
    rules = get_rules("russian")
    names = dict(page.eval_on_selector_all(
        "#board rect[data-square]",
        "els => els.map(e => [+e.getAttribute('data-square'), e.getAttribute('data-name')])"))
    assert names == {n: square_name(rules, n) for n in range(1, 33)}
    assert names[1] == "b8" and "a1" in names.values()


def test_the_page_names_the_winner(page: Any, tmp_path: Path):
    from tests.view.test_show import ENGLISH

    out = tmp_path / "english.html"
    view(ENGLISH, out=out)
    page.goto(out.as_uri())
    page.wait_for_selector("#board")
    row = page.locator("#list .row").first
    assert "Black won" in row.inner_text()
    assert row.locator("span[title='1-0 (Black won: MF Tinsley)']").count() == 1
    assert page.inner_text("#g-title").endswith(": 1-0 (Black won: MF Tinsley)")
    page.keyboard.press("End")
    assert "Result 1-0 (Black won: MF Tinsley)" in page.inner_text("#verdict")
    shot(page, tmp_path, "view-english-winner.png")


def test_page_numbers_games_as_show_does(page: Any, tmp_path: Path):
    from pdnkit.viewer import show

    flawed = sample_dir() / "flawed.pdn"
    out = tmp_path / "flawed.html"
    view(flawed, out=out)
    for n in (1, 9, 23):
        page.goto(out.as_uri() + f"#g={n}")
        page.reload()
        page.wait_for_selector("#board")
        assert page.inner_text("#g-title") == show(flawed, game=n).model.heading()
        assert page.inner_text("#list .row.sel span:first-child") == str(n)
        assert page.inner_text("#g-source").startswith(f"{flawed}, game {n} ")


def test_an_error_ply_says_what_the_board_shows(page: Any, tmp_path: Path):
    from pdnkit.viewer.page import game_model_of

    bad = game_model_of('[GameType "20"]\n1. 32-28 19-23 2. 37-26 *')
    out = tmp_path / "bad.html"
    out.write_text(view_html([bad]), encoding="utf-8")
    page.goto(out.as_uri())
    page.wait_for_selector("#board")
    page.keyboard.press("End")
    assert page.get_attribute("#board", "data-ply") == "3"
    text = page.inner_text("#verdict")
    assert "Final position" not in text
    assert text.startswith("Position after ply 2, the last ply replayed; ply 3 (37-26) was not "
                           "replayed.")
    page.click("#findings .fd.error")
    text = page.inner_text("#verdict")
    assert text.startswith("Position before ply 3 (37-26, the move with the illegal-move "
                           "finding, is not played on this board).")
    assert _board(page) == {s: ch for s, ch in enumerate(bad.placement(2), 1) if ch != "."}
    shot(page, tmp_path, "view-error-ply.png")
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#verdict").startswith("Position after ply 2.")
    page.keyboard.press("Home")
    assert page.inner_text("#verdict").startswith("Start position.")


def test_the_list_scrolls_to_the_game_opened(page: Any, tmp_path: Path):
    from pdnkit.viewer.page import game_model_of

    short = game_model_of('[GameType "20"] 1. 32-28 19-23 2. 28x19 14x23 *')
    out = tmp_path / "many.html"
    out.write_text(view_html([short] * 400), encoding="utf-8")
    for n in (250, 399, 3):
        page.goto(out.as_uri() + f"#g={n}")
        page.reload()
        page.wait_for_selector(f"#list .row.sel[data-game='{n}']")
        row = page.locator(f"#list .row[data-game='{n}']").bounding_box()
        box = page.locator("#list").bounding_box()
        assert box["y"] <= row["y"] and row["y"] + row["height"] <= box["y"] + box["height"], n
    page.keyboard.press("ArrowDown")        # the next game, also kept in view
    row = page.locator("#list .row.sel").bounding_box()
    assert page.get_attribute("#list .row.sel", "data-game") == "4"
    assert box["y"] <= row["y"] <= box["y"] + box["height"]
    page.goto(out.as_uri() + "#g=250")
    page.reload()
    page.wait_for_selector("#list .row.sel")
    shot(page, tmp_path, "view-list-scrolled.png")


def test_stepping_into_a_variation(page: Any, tmp_path: Path):
    from pdnkit.viewer.variations import variations
    from tests.view.test_variations import VAR

    found = variations(next(validate(VAR)))
    out = tmp_path / "var.html"
    view(VAR, out=out)
    page.goto(out.as_uri())
    page.wait_for_selector("#board")
    listed = page.eval_on_selector_all("#moves .mv.in-var", "els => els.length")
    assert listed == sum(len(v.plies) for v in found)
    assert page.locator("#moves .var").count() >= len(found)

    def at(line: int, k: int) -> None:
        assert page.get_attribute("#board", "data-line") == str(line)
        assert page.get_attribute("#board", "data-ply") == str(k)
        placement = found[line].plies[k - found[line].at].placement
        assert _board(page) == {s: c for s, c in enumerate(placement, 1) if c != "."}

    page.click("#moves .mv[data-line='0'][data-ply='1']")     # 1. 33-28 of the variation
    at(0, 1)
    assert page.inner_text("#ply-label") == "variation, ply 1 / 3"
    page.keyboard.press("ArrowRight")
    at(0, 2)
    page.click("#moves .mv[data-line='3'][data-ply='3']")     # nested: 2. 28x17
    at(3, 3)
    assert page.locator("#board polyline.arrow.move").count() == 1
    assert page.inner_text("#verdict").startswith("Position after ply 3 of this variation "
                                                  "(of ply 2 of another variation).")
    shot(page, tmp_path, "view-variation.png")
    page.keyboard.press("Escape")                             # back to the line it leaves
    at(0, 1)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")                          # before the variation: the start
    assert page.get_attribute("#board", "data-line") == "-1"
    assert page.get_attribute("#board", "data-ply") == "0"
    page.click("#moves .mv[data-line='4'][data-ply='6']")     # 50x1, not replayable
    text = page.inner_text("#verdict")
    assert "ply 6 (50x1) was not replayed: 50x1 is not a legal move there" in text
    page.keyboard.press("End")
    assert page.get_attribute("#board", "data-line") == "-1"
    assert "Final position" in page.inner_text("#verdict")
    # a finding about a move of a variation opens that variation
    page.click("#findings .fd:has-text('50x1')")
    assert page.get_attribute("#board", "data-line") == "4"
