"""Regenerate the screenshots of docs/viewing.md: ``docs/show.png`` and ``docs/view.png``.

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
            b.close()
    print(f"wrote {DOCS / 'show.png'} and {DOCS / 'view.png'}")


if __name__ == "__main__":
    main()
