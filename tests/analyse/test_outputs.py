"""What an analysis gives back: ``export --annotate`` (``[%eval]`` comments and ``$2``/``$4``
NAGs that pdnkit reads back, on import and in the view page), the view page's scores and
findings, and the collection report's section."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pytest

from pdnkit.analysis import analyse
from pdnkit.pdn import read_games
from pdnkit.pdn.annotations import read_eval
from pdnkit.reports import collection_report
from pdnkit.samples import sample_dir
from pdnkit.store import export, import_files
from pdnkit.viewer.page import view
from tests.cli.helpers import cli

SAMPLE = sample_dir() / "international.pdn"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("outputs") / "a.duckdb"
    analyse([SAMPLE], path, engine="builtin", depth=3)
    return path


def rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_annotate_writes_every_score_and_the_nags_and_they_read_back(db: Path,
                                                                     tmp_path: Path) -> None:
    out = tmp_path / "annotated.pdn"
    # every record, so that the file's games are the database's game_index 0..n-1
    records = rows(db, "SELECT count(*) FROM games")[0][0]
    assert export(out, db, annotate=True, all_copies=True) == records
    want = {(g, p): (s, d) for g, p, s, d in rows(
        db, "SELECT g.game_index, e.ply, e.score, e.depth FROM evals e JOIN games g "
            "USING (game_id) WHERE e.ply > 0")}
    nags = {(g, p): {"blunder": 4, "mistake": 2, "missed-shot": 2}[c] for g, p, c in rows(
        db, "SELECT game_index, ply, code FROM findings WHERE code IN "
            "('blunder', 'mistake', 'missed-shot')")}
    assert 4 in nags.values() and 2 in nags.values()
    got, got_nags = {}, {}
    for g, record in enumerate(read_games(out)):
        for ply, node in enumerate(record.moves, 1):
            evals = [e for c in node.comments_after if (e := read_eval(c))]
            assert len(evals) <= 1
            if evals:
                got[(g, ply)] = evals[0]
            if node.nags:
                got_nags[(g, ply)] = node.nags
    assert got == want
    assert got_nags == {k: [v] for k, v in nags.items()}
    assert "{[%eval " in out.read_text(encoding="utf-8")
    # read back by an import: the comments and NAGs are in the moves table
    back = tmp_path / "back.duckdb"
    import_files(out, db=back)
    stored = rows(back, "SELECT g.game_index, m.ply, m.nags, m.comment FROM moves m "
                        "JOIN games g USING (game_id)")
    assert {(g, p): n[0] for g, p, n, _ in stored if n} == nags
    assert {(g, p): read_eval(c) for g, p, _, c in stored if read_eval(c)} == want
    # the same games analysed again and annotated again: one score a move, not two
    analyse(db=back, engine="builtin", depth=3)
    again = tmp_path / "again.pdn"
    export(again, back, annotate=True, all_copies=True)
    text = again.read_text(encoding="utf-8")
    assert text.count("[%eval ") == len(want)
    assert export(tmp_path / "x.pdn", db, all_copies=True) == records  # no --annotate: no score
    assert "[%eval" not in (tmp_path / "x.pdn").read_text(encoding="utf-8")


def test_annotate_needs_an_analysis(tmp_path: Path) -> None:
    plain = tmp_path / "plain.duckdb"
    import_files(SAMPLE, db=plain)
    code, _, err = cli("export", "--db", plain, "--annotate", "--out", tmp_path / "o.pdn")
    assert code == 2 and "--annotate needs an analysis of the games" in err
    assert not (tmp_path / "o.pdn").exists()


def _blocks(html: str) -> list[dict[str, object]]:
    return [json.loads(b.replace("\\u003c", "<")) for b in re.findall(
        r'<script type="application/json" id="pdnkit-g-\d+">(.*?)</script>', html, re.S)]


def test_the_view_page_holds_each_game_s_scores_and_findings(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "v.html"
    summary = view(db=db, out=out, where="g.game_index < 3")
    assert summary.games == 3
    games = _blocks(out.read_text(encoding="utf-8"))
    want = rows(db, "SELECT g.game_index, e.ply, e.score FROM evals e JOIN games g "
                    "USING (game_id) WHERE g.game_index < 3 ORDER BY 1, 2")
    for index, game in enumerate(games):
        assert game["evalBy"] == "builtin 1 depth 3"
        scores = {p: s for g, p, s in want if g == index}
        assert game["evals"] == [scores.get(p) for p in range(len(game["evals"]))]
        codes = {f["code"] for f in game["findings"]}  # type: ignore[union-attr]
        stored = {c for (c,) in rows(db, "SELECT code FROM findings f JOIN games g USING "
                                         f"(game_id) WHERE g.game_index = {index}")}
        assert codes == stored
    # a file's [%eval] comments give the graph too
    annotated = tmp_path / "a.pdn"
    export(annotated, db, where="game_index = 0", annotate=True)
    view(annotated, out=tmp_path / "f.html")
    (game,) = _blocks((tmp_path / "f.html").read_text(encoding="utf-8"))
    assert game["evalBy"] == "[%eval] comments"
    assert game["evals"][1:] == [s for g, p, s in want if g == 0 and p > 0]


def test_the_collection_report_has_the_analysis(db: Path) -> None:
    text = collection_report(db)
    assert "## Engine analysis: builtin 1 depth 3" in text
    # each game once: the sample's copy of a game is analysed as its original, as everywhere
    assert rows(db, "SELECT count(*) FROM games WHERE duplicate_of IS NOT NULL") == [(1,)]
    assert rows(db, "SELECT count(*) FROM evals JOIN games USING (game_id) "
                    "WHERE duplicate_of IS NOT NULL") == [(0,)]
    once = rows(db, "SELECT count(DISTINCT game_id) FROM evals")[0][0]
    assert f"{once} games analysed (material scale" in text
    worst = rows(db, "SELECT g.white FROM findings f JOIN games g USING (game_id) "
                     "WHERE f.code IN ('blunder', 'missed-shot') GROUP BY g.game_id, g.white "
                     "ORDER BY count(*) DESC, g.game_id LIMIT 1")[0][0]
    section = text.split("## Engine analysis")[1]
    assert section.splitlines()[6].startswith(f"| {worst} |")


def test_show_gives_the_score_at_the_ply_and_the_analysis_findings(db: Path) -> None:
    from io import StringIO

    from rich.console import Console

    from pdnkit.viewer import show

    gid, ply, code = rows(db, "SELECT game_id, ply, code FROM findings WHERE code = 'blunder' "
                              "ORDER BY game_id, ply LIMIT 1")[0]
    (score,) = rows(db, f"SELECT score FROM evals WHERE game_id = {gid} AND ply = {ply}")[0]
    con = Console(file=StringIO(), width=200, color_system=None)
    con.print(show(db=db, game_id=gid, ply=ply))
    text = con.file.getvalue()  # type: ignore[attr-defined]
    assert f"evaluation: {score:+.2f} (builtin 1 depth 3; men, White's view)" in text
    assert f"│ {ply} " in text and code in text
