"""How the reports write games: players (also of tagless games), results named by their
winner, and the links into the viewer page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import pdnkit
from pdnkit.reports import report

TAGLESS = "1. 32-28 19-23 2. 37-26 *\n"


@pytest.fixture(scope="module")
def tagless_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tagless")
    src = root / "tagless.pdn"
    src.write_text(TAGLESS + "\n" + '[Event "E"]\n[White "W"]\n' + TAGLESS, encoding="utf-8")
    db = root / "t.duckdb"
    pdnkit.import_files([src], db=db)
    return db


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_tagless_games_have_a_placeholder_not_nan(tagless_db: Path, fmt: str):
    text = re.sub(r"data:image/png;base64,[^\"]+", "", report("collection", str(tagless_db),
                                                               fmt=fmt))
    assert not re.search(r"\bnan\b", text, flags=re.I)
    assert "(no players)" in text
    assert "W - ?" in text


def test_reports_name_the_winner(tmp_path: Path):
    from tests.view.test_show import ENGLISH

    src = tmp_path / "w.pdn"
    src.write_text(ENGLISH + '\n[White "A"]\n[Black "Baba"]\n[Result "0-2"]\n[GameType "20"]\n'
                   "1. 32-28 19-23 2. 37-26 0-2\n", encoding="utf-8")
    db = tmp_path / "w.duckdb"
    pdnkit.import_files([src], db=db)
    for fmt in ("md", "html"):
        endgame = report("endgame", str(db), fmt=fmt)
        assert "Black won: MF Tinsley, after 39 plies" in endgame
        collection = report("collection", str(db), fmt=fmt)
        assert "A - Baba: 0-2 (Black won: Baba)" in collection
