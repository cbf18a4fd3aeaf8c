"""``pdnkit view`` pages in a real headless Chromium (Debian's, driven by Playwright).

The board is read back from the SVG's DOM (``data-square``/``data-piece``) and compared with
the rules engine's position; findings, numbering of three boards and the lazy game list are
checked as a user would use them. Screenshots go to the test's temporary folder (their path is
printed); set ``PDNKIT_SCREENSHOTS=DIR`` to keep them in DIR.

Skipped with the reason when Playwright for Python or a Chromium binary is missing
(``.ci/run`` installs Debian's ``chromium``; Playwright's own browser downloads are never used).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pdnkit.rules import get_rules
from pdnkit.samples import sample_dir
from pdnkit.validation import validate
from pdnkit.viewer.model import game_model
from pdnkit.viewer.page import view, view_html
from tests.shared import SHARED_DATA

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync"]


def _chromium() -> str | None:
    env = os.environ.get("PDNKIT_CHROMIUM")
    if env:
        return env if Path(env).exists() else None
    for name in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if Path(name).exists():
            return name
    return shutil.which("chromium")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright for Python is not installed (pip install playwright)")
    exe = _chromium()
    if exe is None:
        pytest.skip("no Chromium binary (apt-get install chromium, or set PDNKIT_CHROMIUM)")
    with sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        except Exception as exc:  # a broken browser install: say why and skip
            pytest.skip(f"Chromium at {exe} does not start: {exc}")
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    pg = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    pg.close()
    assert not errors, f"script errors on the page: {errors}"


def _shot(pg: Any, tmp_path: Path, name: str) -> Path:
    folder = Path(os.environ.get("PDNKIT_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / name
    pg.screenshot(path=str(out))
    print(f"screenshot: {out}")
    return out


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
    page.goto(out.as_uri() + f"#g={index}")
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
    _shot(page, tmp_path, "view-real.png")


def test_click_finding_jumps_to_its_ply_and_marks_the_move(page: Any, tmp_path: Path):
    flawed = sample_dir() / "flawed.pdn"
    reports = list(validate(flawed))
    index, rep = next((i, r) for i, r in enumerate(reports)
                      if any(f.code == "missed-capture" for f in r.findings))
    finding = next(f for f in rep.findings if f.code == "missed-capture")
    out = tmp_path / "flawed.html"
    view(flawed, out=out)
    page.goto(out.as_uri() + f"#g={index}")
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
    _shot(page, tmp_path, "view-finding.png")
    # a report's link to the game and ply selects the error there
    page.goto(out.as_uri() + f"#g={index}&ply={finding.ply}")
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
    _shot(page, tmp_path, f"view-{variant}.png")


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
    page.wait_for_selector("#list .row[data-game='9000']")
    page.click("#list .row[data-game='9000']")
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
