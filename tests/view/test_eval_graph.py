"""The evaluation graph of ``pdnkit view --db`` in a real headless Chromium: one point per
position evaluated, a mark on each blunder, mistake and missed shot at its ply, the line of
the ply shown, and a click on the graph that shows the ply under it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from pdnkit.analysis import analyse
from pdnkit.samples import sample_dir
from pdnkit.viewer.page import view
from tests.view.conftest import shot


def test_the_graph_shows_the_scores_and_marks_and_steps_to_a_ply(page: Any,
                                                                 tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    analyse([sample_dir() / "international.pdn"], db, engine="builtin", depth=3)
    con = duckdb.connect(str(db), read_only=True)
    gid, points = con.execute("SELECT game_id, count(*) FROM evals GROUP BY game_id "
                              "ORDER BY game_id LIMIT 1").fetchone()
    marks = con.execute("SELECT code, ply FROM findings WHERE game_id = ? AND code IN "
                        "('blunder', 'mistake', 'missed-shot') ORDER BY ply", [gid]).fetchall()
    score = con.execute("SELECT score FROM evals WHERE game_id = ? AND ply = 10",
                        [gid]).fetchone()[0]
    con.close()
    out = tmp_path / "v.html"
    view(db=db, out=out, where=f"g.game_id = {gid}")
    page.goto(out.as_uri() + "#g=1&ply=10")
    page.wait_for_selector("#eval")
    assert page.get_attribute("#eval", "data-points") == str(points)
    found = page.eval_on_selector_all(
        "#eval circle.mark", "els => els.map(e => [e.getAttribute('class').split(' ')[1], "
                             "+e.getAttribute('data-ply')])")
    assert sorted(map(tuple, found)) == sorted(marks) and marks
    assert page.get_attribute("#eval .eval-now", "data-ply") == "10"
    written = ("+" if score > 0 else "") + f"{score:.2f}"  # as the page writes a score
    assert f": {written} at ply 10" in page.inner_text("#eval-now")
    box = page.query_selector("#eval").bounding_box()
    page.mouse.click(box["x"] + box["width"] - 8, box["y"] + box["height"] / 2)
    last = page.evaluate("window.pdnkitViewer.state.data.plies.length")
    assert page.get_attribute("#board", "data-ply") == str(last)
    shot(page, tmp_path, "view-eval-graph.png")
