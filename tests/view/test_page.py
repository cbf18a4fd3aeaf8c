"""``pdnkit view`` pages without a browser: self-contained, every position embedded as pdnkit
computed it, the game index, and the CLI from a file and from a database."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from pdnkit.cli import app
from pdnkit.samples import sample_dir
from pdnkit.validation import validate
from pdnkit.viewer.model import placement_of
from pdnkit.viewer.page import view

runner = CliRunner()

TWO = ('[Event "a </script> b"]\n[GameType "20"]\n1. 32-28 {<!--GAMES-->} 19-23 2. 28x19 14x23 *'
       '\n\n[GameType "20"]\n1. 32-28 19-23 2. 37-26 *\n')


def _blocks(html: str) -> dict[str, object]:
    out = {}
    for ident, text in re.findall(r'<script type="application/json" id="([^"]+)">(.*?)</script>',
                                  html, flags=re.S):
        out[ident] = json.loads(text)
    return out


def test_page_is_self_contained_and_embeds_every_position(tmp_path: Path):
    out = tmp_path / "g.html"
    summary = view(TWO, out=out)
    html = out.read_text(encoding="utf-8")
    assert (summary.games, summary.errors) == (2, 1)
    # no network: the only URL is the SVG namespace name
    assert set(re.findall(r"https?://[^\s\"']+", html)) <= {"http://www.w3.org/2000/svg"}
    assert "<link" not in html and "src=" not in html
    blocks = _blocks(html)
    index = blocks["pdnkit-index"]
    assert [g["status"] for g in index["games"]] == ["ok", "error"]
    assert index["games"][0]["event"] == "a </script> b"
    reports = list(validate(TWO))
    for i, rep in enumerate(reports):
        game = blocks[f"pdnkit-g-{i + 1}"]
        for p, ply in zip(rep.plies, game["plies"], strict=True):
            assert ply[6] == (placement_of(p.position_after) if p.replayed else None)
    assert blocks["pdnkit-g-1"]["plies"][0][5] == "<!--GAMES-->"
    assert blocks["pdnkit-g-2"]["findings"][0]["legal"] == ["28x19"]
    assert [g["i"] for g in index["games"]] == [1, 2]    # numbered from 1, as the CLI counts


def test_cli_view_from_file_and_db(tmp_path: Path):
    import pdnkit

    flawed = sample_dir() / "flawed.pdn"
    out = tmp_path / "flawed.html"
    res = runner.invoke(app, ["view", str(flawed), "--out", str(out)])
    assert res.exit_code == 0, res.output
    n = sum(1 for _ in validate(flawed))
    assert f"{n} games" in res.output and out.exists()
    db = tmp_path / "f.duckdb"
    pdnkit.import_files([flawed], db=db)
    broken = tmp_path / "broken.html"
    res = runner.invoke(app, ["view", "--db", str(db), "--where", "status = 'error'",
                              "--out", str(broken)])
    assert res.exit_code == 0, res.output
    errors = int(pdnkit.query("SELECT count(*) FROM games WHERE status = 'error'",
                              db=db).iloc[0, 0])
    index = _blocks(broken.read_text(encoding="utf-8"))["pdnkit-index"]
    assert len(index["games"]) == errors
    assert {g["status"] for g in index["games"]} == {"error"}
    res = runner.invoke(app, ["view", "--db", str(db), "--where", "nonsense = ", "--out",
                              str(broken)])
    assert res.exit_code == 2 and "--where" in res.output
    res = runner.invoke(app, ["view", "--out", str(broken)])
    assert res.exit_code == 2


def test_a_game_from_the_database_keeps_the_findings_its_import_stored(tmp_path: Path):
    """A legacy-encoded file's first non-ASCII game has the file's `encoding-fallback`
    finding, which its decoded text alone cannot give again: the view from the database
    shows it, with the status the games table holds, for every game of the file."""
    import pdnkit

    legacy = sample_dir() / "flawed-cp1252.pdn"
    db = tmp_path / "legacy.duckdb"
    pdnkit.import_files([legacy], db=db)
    stored = pdnkit.query("SELECT g.game_id, g.status, list(f.code ORDER BY f.code) AS codes "
                          "FROM games g LEFT JOIN findings f USING (game_id) GROUP BY ALL "
                          "ORDER BY 1", db=db)
    assert "encoding-fallback" in {c for codes in stored.codes for c in codes if c}
    out = tmp_path / "legacy.html"
    view(db=db, out=out)
    blocks = _blocks(out.read_text(encoding="utf-8"))
    index = blocks["pdnkit-index"]["games"]
    assert [g["status"] for g in index] == list(stored.status)
    for i, codes in enumerate(stored.codes, 1):
        shown = sorted(f["code"] for f in blocks[f"pdnkit-g-{i}"]["findings"])
        assert shown == sorted(c for c in codes if c), i
