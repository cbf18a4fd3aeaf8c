"""Hostile text from a PDN file in every HTML output, in a real headless Chromium.

Player names, events, tag values, comments and the file's own name carry markup
(``<img onerror>``, ``</script>``, ``"><svg onload>``), ``javascript:`` links and bidi overrides.
The ``view`` page (from the file and from a database), both reports as HTML and the Markdown
reports rendered by a CommonMark renderer (raw HTML passes through Markdown; links are not
filtered, as in renderers that trust their input) are opened in Chromium with ``alert``,
``confirm``, ``prompt`` and ``window.open`` hooked; nothing may fire, no element may carry an
``on*`` attribute or a ``javascript:`` URL, no bidi control may reach the page's text, and the
hostile text must be shown as written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.view.conftest import shot

IMG = "<img src=x onerror=alert(1)>"
SCRIPT = "</script><script>alert(2)</script>"
SVG = '"><svg onload=alert(3)>'
LINKS = '[click](javascript:alert(4)) <a href="javascript:alert(5)">a</a> <javascript:alert(7)>'
BIDI = "\u202egnp.exe\u202c Smith \u2067x\u2069"
FILE_NAME = "<img src=x onerror=alert(6)>.pdn"
BIDI_CHARS = "".join(map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]))


def _tag(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


#: a game with an illegal move (a card in the collection report), an English game that
#: activates a draw rule (a row of the endgame report), a tagless game with an error and a
#: game with an error, an event and no players
HOSTILE = f"""[Event "{_tag(SVG)}"]
[White "{_tag(IMG)}"]
[Black "{_tag(SCRIPT)}"]
[Site "{_tag(BIDI)}"]
[Round "{_tag(LINKS)}"]
[GameType "20"]
[Result "*"]

1. 32-28 {{{IMG} {LINKS}}} (1. 33-28 {{{SCRIPT}}} 18-22 {{{BIDI}}}) 19-23 2. 37-26 *

[Event "{_tag(LINKS)}"]
[White "{_tag(BIDI)}"]
[Black "{_tag(SVG)}"]
[Result "1-0"]
[GameType "21"]
[FEN "B:W13,19,25,29,30,31,32:B1,2,3,4,9,10,12"]

1. 3-8 {{{SCRIPT}}} 13x6 2. 2x9 31-27 3. 8-11 27-24 4. 11-16 24-20 5. 16x23 32-28 6. 10-14
25-22 7. 9-13 22-18 8. 1-5 18x9 9. 5x14 28-24 10. 13-17 29-25 11. 17-21 24-19
12. 23-26 30x23 13. 21x30 20-16 14. 4-8 23-18 15. 14x23 19-15 16. 12x19 15-10
17. 23-27 10-7 18. 27-31 7-2 19. 8-11 2-6 20. 19-23 1-0

1. 32-28 {{{BIDI}}} 19-23 2. 37-26 *

[Event "{_tag(BIDI)}"]
[GameType "20"]

1. 32-28 19-23 2. 37-26 *
"""

#: records every dialog and window.open before the page's own script runs
HOOKS = """
window.__fired = [];
for (const name of ["alert", "confirm", "prompt", "print"]) {
  window[name] = function (m) { window.__fired.push(name + ":" + m); };
}
window.open = function (u) { window.__fired.push("open:" + u); return null; };
"""

#: every on* attribute, javascript: URL, foreign element and bidi control in the DOM
SCAN = r"""() => {
  const bad = [], bidi = new RegExp("[" + arguments[0] + "]");
  const all = document.querySelectorAll("*");
  for (const e of all) {
    for (const a of e.attributes) {
      const v = a.value.replace(/[\s\u0000-\u001f]/g, "").toLowerCase();
      if (/^on/i.test(a.name)) bad.push("attr " + e.tagName + " " + a.name);
      if (/^(javascript|vbscript|data:text)/.test(v) && a.name !== "content") bad.push("url " + a.name + "=" + a.value);
      if (bidi.test(a.value)) bad.push("bidi in attr " + a.name);
    }
    if (/^(IFRAME|OBJECT|EMBED|FORM|BASE|META)$/.test(e.tagName) && !(e.tagName === "META" && !e.httpEquiv)) bad.push("element " + e.tagName);
    if (e.tagName === "IMG" && !/^data:image\/png;base64,/.test(e.getAttribute("src") || "")) bad.push("img " + e.getAttribute("src"));
  }
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const t = walker.currentNode;
    const inScript = t.parentElement && t.parentElement.tagName === "SCRIPT";
    if (!inScript && bidi.test(t.data)) bad.push("bidi in text: " + JSON.stringify(t.data.slice(0, 60)));
  }
  if (bidi.test(document.title)) bad.push("bidi in the title");
  return bad;
}"""


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The hostile file, its database, and every page made of them."""
    import pdnkit
    from pdnkit.reports import report

    root = tmp_path_factory.mktemp("hostile")
    src = root / FILE_NAME
    src.write_text(HOSTILE, encoding="utf-8")
    db = root / "h.duckdb"
    pdnkit.import_files([src], db=db)
    out: dict[str, Path] = {"db": db, "src": src}
    out["view"] = pdnkit.view(src, out=root / "view.html").path
    out["view-db"] = pdnkit.view(db=db, out=root / "view-db.html").path
    for kind in ("collection", "endgame"):
        for fmt in ("html", "md"):
            page = root / f"{kind}.{fmt}"
            side = root / f"{kind}-{fmt}.games.html" if kind == "collection" else None
            page.write_text(report(kind, str(db), fmt=fmt, view_page=side), encoding="utf-8")
            out[f"{kind}.{fmt}"] = page
            if side is not None:
                out[f"{kind}-{fmt}.games"] = side
    return out


def _commonmark(md_text: str) -> str:
    """Markdown rendered as a CommonMark renderer does, raw HTML allowed and links unfiltered."""
    mdit = pytest.importorskip("markdown_it", reason="markdown-it-py is not installed")
    md = mdit.MarkdownIt("commonmark").enable(["table", "strikethrough"])
    md.validateLink = lambda url: True  # a renderer that trusts its input
    body = md.render(md_text)
    return f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>md</title></head>' \
           f"<body>{body}</body></html>"


def _open(page: Any, path: Path) -> list[str]:
    """Load ``path`` with the hooks; the hooks' calls and dialogs seen."""
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.add_init_script(HOOKS)
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    page.wait_for_timeout(150)  # let a broken image fire its onerror
    return dialogs


def _fired(page: Any, dialogs: list[str]) -> list[str]:
    return dialogs + page.evaluate("() => window.__fired || []")


def _scan(page: Any) -> list[str]:
    return page.evaluate(SCAN.replace("arguments[0]", repr(BIDI_CHARS)))


def _walk_every_game(page: Any) -> int:
    """Open every game of a viewer page, step through each ply and select every finding."""
    return page.evaluate("""() => {
      const v = window.pdnkitViewer, games = JSON.parse(
        document.getElementById("pdnkit-index").textContent).games;
      let steps = 0;
      for (const g of games) {
        v.open(g.i, null);
        for (let k = 0; k <= v.state.data.plies.length; k++) { v.go(k); steps++; }
        v.state.data.findings.forEach((f, idx) => v.selectFinding(idx));
      }
      return steps;
    }""")


@pytest.mark.parametrize("name", ["view", "view-db", "collection-html.games"])
def test_viewer_pages_run_no_text_from_the_file(page: Any, hostile: dict[str, Path],
                                                tmp_path: Path, name: str):
    dialogs = _open(page, hostile[name])
    page.wait_for_selector("#board")
    assert _walk_every_game(page) > (5 if name.endswith("games") else 40)
    page.evaluate("() => window.pdnkitViewer.open(JSON.parse(document.getElementById("
                  "'pdnkit-index').textContent).games[0].i, 2)")
    page.wait_for_timeout(150)
    assert _fired(page, dialogs) == []
    assert _scan(page) == []
    # shown as written, not dropped: the names in the list and the heading, the comment
    listed = page.inner_text("#list")
    assert IMG in page.inner_text("#g-title") and SCRIPT in page.inner_text("#g-title")
    assert IMG in listed and SVG in listed
    assert "gnp.exe Smith x" in listed           # the bidi controls stripped, the text kept
    assert page.evaluate("() => document.scripts.length") == page.evaluate(
        "() => document.querySelectorAll('script[type=\"application/json\"]').length + 1")
    shot(page, tmp_path, f"hostile-{name}.png")


@pytest.mark.parametrize("name", ["collection.html", "endgame.html"])
def test_html_reports_run_no_text_from_the_file(page: Any, hostile: dict[str, Path],
                                                tmp_path: Path, name: str):
    dialogs = _open(page, hostile[name])
    assert _fired(page, dialogs) == []
    assert _scan(page) == []
    assert page.evaluate("() => document.scripts.length") == 0
    text = page.text_content("body")  # folded tables too
    assert SVG in text and "gnp.exe Smith x" in text
    if name.startswith("collection"):
        assert IMG in text and FILE_NAME in text
    shot(page, tmp_path, f"hostile-{name}.png", full_page=True)


@pytest.mark.parametrize("name", ["collection.md", "endgame.md"])
def test_markdown_reports_render_as_text_in_commonmark(page: Any, hostile: dict[str, Path],
                                                       tmp_path: Path, name: str):
    rendered = tmp_path / f"{name}.html"
    rendered.write_text(_commonmark(hostile[name].read_text(encoding="utf-8")),
                        encoding="utf-8")
    dialogs = _open(page, rendered)
    assert _fired(page, dialogs) == []
    assert _scan(page) == []
    assert page.evaluate("() => document.scripts.length") == 0
    assert page.locator("a[href^='javascript'], svg, img").count() == 0
    text = page.text_content("body")  # folded tables too
    assert SVG in text and "gnp.exe Smith x" in text and LINKS.split(" <a")[0] in text
    if name.startswith("collection"):
        assert IMG in text and FILE_NAME in text and SCRIPT in text
        # the link into the viewer page is a relative link that still works
        href = page.get_attribute("a[href*='games.html']", "href")
        assert href is not None and href.startswith("./") and "#g=" in href
    shot(page, tmp_path, f"hostile-{name}.png", full_page=True)


def test_the_markdown_itself_keeps_no_markup_from_the_file(hostile: dict[str, Path]):
    import re

    for name in ("collection.md", "endgame.md"):
        text = hostile[name].read_text(encoding="utf-8")
        tags = set(re.findall(r"(?<!\\)</?([A-Za-z]+)", text))
        assert tags <= {"details", "summary"}, (name, tags)      # the report's own folds
        assert not re.search(r"(?<!\\)\]\(javascript", text), name
        assert not set(BIDI_CHARS) & set(text), name
