"""The real headless Chromium the view tests drive (Debian's, through Playwright for Python).

Skipped with the reason when Playwright for Python or a Chromium binary is missing
(``.ci/run`` installs Debian's ``chromium``; Playwright's own browser downloads are never used).
Screenshots go to the test's temporary folder (their path is printed); set
``PDNKIT_SCREENSHOTS=DIR`` to keep them in DIR.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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


def shot(pg: Any, tmp_path: Path, name: str, *, full_page: bool = False) -> Path:
    """Save a screenshot of ``pg`` as ``name`` and print where it is."""
    folder = Path(os.environ.get("PDNKIT_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / name
    pg.screenshot(path=str(out), full_page=full_page)
    print(f"screenshot: {out}")
    return out
