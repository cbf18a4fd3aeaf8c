"""Regenerate the screenshots of docs/viewing.md and docs/explorer.md: ``docs/show.png``,
``docs/view.png`` and ``docs/explorer.png``.

Run from the repository root (it shows games of ``data/``) with Playwright for Python and Debian's Chromium installed:
``python docs/screenshots.py`` (``--chromium PATH`` for another binary). ``show`` is drawn by
rich into an SVG and photographed by Chromium like the ``view`` page.
"""

from __future__ import annotations

import argparse
import re
import tempfile
from pathlib import Path

from rich.console import Console

from pdnkit import show, view

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
DOCS = Path(__file__).resolve().parent


def _show_page(folder: Path) -> Path:
    con = Console(width=104, record=True, file=open(folder / "null.txt", "w"))  # noqa: SIM115
    con.print(show(Path("data/flawed.pdn"), game=9))
    svg = con.export_svg(title="pdnkit show data/flawed.pdn --game 9")
    svg = re.sub(r"@font-face \{.*?\}", "", svg, flags=re.S)  # no web fonts: no network
    page = folder / "show.html"
    page.write_text('<html><body style="margin:0;background:#fff">' + svg + "</body></html>",
                    encoding="utf-8")
    return page


def _explorer_shot(browser: object, folder: Path) -> None:
    """The explorer (``pdnkit serve``) over the international samples, after 32-28,
    the pointer on the most played move."""
    import threading

    from pdnkit.serve import make_server
    from pdnkit.store import import_files

    db = folder / "games.duckdb"
    import_files([Path("data/international.pdn")], db=db)
    server = make_server(db, port=0, log=False)
    thread = threading.Thread(target=server.serve_forever)
    thread.start()
    try:
        pg = browser.new_page(viewport={"width": 1400, "height": 820})  # type: ignore[attr-defined]
        pg.goto(server.url + "#variant=international&moves=32-28")
        pg.wait_for_selector("#ex-path .step.cur[data-ply='1']")
        pg.hover("#ex-tree tbody tr[data-move] >> nth=0")
        pg.screenshot(path=str(DOCS / "explorer.png"))
    finally:
        server.close()
        thread.join()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        show_page = _show_page(folder)
        view_page = folder / "view.html"
        view([Path("data/flawed.pdn"), Path("data/international.pdn")], out=view_page)
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=args.chromium, args=ARGS)
            pg = b.new_page(viewport={"width": 1100, "height": 800})
            pg.goto(show_page.as_uri())
            box = pg.locator("svg").first.bounding_box()
            pg.screenshot(path=str(DOCS / "show.png"),
                          clip={"x": 0, "y": 0, "width": box["width"], "height": box["height"]})
            pg = b.new_page(viewport={"width": 1300, "height": 760})
            pg.goto(view_page.as_uri() + "#g=9")  # game 9, as in show --game 9
            pg.click("#findings .fd.error")
            pg.screenshot(path=str(DOCS / "view.png"))
            _explorer_shot(b, folder)
            b.close()
    print(f"wrote {DOCS / 'show.png'}, {DOCS / 'view.png'} and {DOCS / 'explorer.png'}")


if __name__ == "__main__":
    main()
