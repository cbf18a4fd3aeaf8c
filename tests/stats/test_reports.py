"""Endgame-rule and collection reports on hand-made databases.

Russian 7.2.4 (RULES.md 2.6, 4.2): three or more kings against a lone king must capture it
within 15 moves of the stronger side; pdnkit counts it as 30 plies from the ply that made
the material. WCDF 1.32.2 is a claim after 80 plies without a man move or capture.
"""

from __future__ import annotations

import doctest
import re

import pytest

import pdnkit.reports as reports_mod
from pdnkit.reports import endgame_report, endgame_rules, endgame_summary, report, verdict

KINGS = ["c3-d4", "f6-e5"]  # the opening moves do not matter to the report


def _russian(builder, plies: int, result: str, *, event: str = "Moscow") -> int:
    return builder.game("r.pdn", KINGS, variant="russian", result=result, event=event,
                        white="W", black="B", year=2020, plies=plies)


@pytest.fixture
def endgame_db(builder):
    b = builder
    ids = {}
    # played on 5 plies past the 15-move limit of 7.2.4 and won by White
    ids["past"] = _russian(b, 75, "1-0")
    b.rule_event(ids["past"], "russian-7.2.4", "Russian 7.2.4", True, 40, 30, 70, 75)
    # the limit reached at the last ply and the game drawn: correct
    ids["drawn"] = _russian(b, 70, "1/2-1/2")
    b.rule_event(ids["drawn"], "russian-7.2.4", "Russian 7.2.4", True, 40, 30, 70, 70)
    # the strong side captured the king in time
    ids["won"] = _russian(b, 52, "1-0", event="Kyiv")
    b.rule_event(ids["won"], "russian-7.2.4", "Russian 7.2.4", True, 40, 30, None, 52)
    # the limit reached at the last ply, but scored as a win
    ids["contradicts"] = _russian(b, 70, "1-0", event="Kyiv")
    b.rule_event(ids["contradicts"], "russian-7.2.4", "Russian 7.2.4", True, 40, 30, 70, 70)
    # a 7.2.6 count reset by a capture, then 7.2.8 ran out of the game before its limit
    ids["reset"] = _russian(b, 90, "0-1")
    b.rule_event(ids["reset"], "russian-7.2.6-4-5", "Russian 7.2.6", True, 20, 60, None, 50)
    b.rule_event(ids["reset"], "russian-7.2.8", "Russian 7.2.8", True, 84, 10, None, 90)
    # English: the 80-ply claim was open, play went on and Black won (legal)
    ids["claim"] = b.game("e.pdn", ["11-15"], plies=130, variant="english",
                          result="0-1", event="Open", white="X", black="Y", year=2019)
    b.rule_event(ids["claim"], "wcdf-1.32.2", "WCDF 1.32.2 (claim)", False, 10, 80, 90, 100)
    # English: a claimed draw
    ids["claimed"] = b.game("e.pdn", ["11-15"], plies=95, variant="english",
                            result="1/2-1/2", event="Open", white="X", black="Y", year=2019)
    b.rule_event(ids["claimed"], "wcdf-1.32.2", "WCDF 1.32.2 (claim)", False, 10, 80, 90, 95)
    # a game without rule events does not appear
    b.game("r.pdn", KINGS, variant="russian", result="1-0")
    return b.con, ids


def _verdicts(df):
    return {(int(g), r): v for g, r, v in zip(df["game_id"], df["rule"], df["verdict"],
                                               strict=True)}


def test_endgame_verdicts(endgame_db):
    con, ids = endgame_db
    df = endgame_rules(con)
    assert len(df) == 8
    v = _verdicts(df)
    assert v[(ids["past"], "russian-7.2.4")] == "played-past-limit"
    assert v[(ids["drawn"], "russian-7.2.4")] == "drawn-by-rule"
    assert v[(ids["won"], "russian-7.2.4")] == "ended-in-time"
    assert v[(ids["contradicts"], "russian-7.2.4")] == "result-contradicts-rule"
    assert v[(ids["reset"], "russian-7.2.6-4-5")] == "ended-in-time"
    assert v[(ids["reset"], "russian-7.2.8")] == "ended-in-time"
    assert v[(ids["claim"], "wcdf-1.32.2")] == "played-past-limit"
    assert v[(ids["claimed"], "wcdf-1.32.2")] == "drawn-by-rule"
    row = df[df["game_id"] == ids["past"]].iloc[0]
    assert row.deadline_ply == 70 and row.article == "Russian 7.2.4"
    assert row.ended == "1-0 after 75 plies"
    assert "drew the game at ply 70" in row.explanation and "ply 75" in row.explanation


def test_claim_wording_differs_from_automatic(endgame_db):
    con, ids = endgame_db
    df = endgame_rules(con).set_index("game_id")
    assert "claim" in df.loc[ids["claim"], "explanation"]
    assert "could go on" in df.loc[ids["claim"], "explanation"]
    assert "claim" not in df.loc[ids["past"], "explanation"]
    assert "30 plies before the limit" in df.loc[ids["reset"]].iloc[0]["explanation"]  # 50 < 80


def test_endgame_summaries(endgame_db):
    con, _ = endgame_db
    df = endgame_rules(con)
    by_rule = endgame_summary(df, by="rule").set_index("rule")
    r = by_rule.loc["russian-7.2.4"]
    assert (r.activations, r.games) == (4, 4)
    assert (r["ended-in-time"], r["drawn-by-rule"], r["played-past-limit"],
            r["result-contradicts-rule"]) == (1, 1, 1, 1)
    assert not bool(by_rule.loc["wcdf-1.32.2", "automatic"])
    by_variant = endgame_summary(df, by="variant").set_index("variant")
    assert by_variant.loc["russian", "activations"] == 6
    assert by_variant.loc["russian", "games"] == 5
    assert by_variant.loc["english", "played-past-limit"] == 1
    by_event = endgame_summary(df, by="event").set_index("event")
    assert by_event.loc["Kyiv", "result-contradicts-rule"] == 1
    assert endgame_rules(con, variant="english")["game_id"].nunique() == 2


def test_verdict_without_result_and_unknown_automatic():
    code, text = verdict(automatic=None, start_ply=0, limit_plies=10, reached_ply=10,
                         end_ply=10, plies=10, outcome="unknown", result="*")
    assert code == "drawn-by-rule" and "no result" in text


def test_endgame_report_markdown_and_html(endgame_db):
    con, ids = endgame_db
    md = endgame_report(con)
    assert md.startswith("# Endgame-rule report")
    assert "8 rule activations in 7 games" in md
    # the report opens with the verdicts that need a person, most serious first
    assert md.index("## Verdicts that need a person") < md.index("## Verdicts by rule")
    section = md.split("## Verdicts that need a person")[1].split("## Verdicts by rule")[0]
    rows = [ln for ln in section.splitlines() if ln.startswith("| ") and "---" not in ln][1:]
    verdicts = [r.split("|")[1].strip() for r in rows]
    # contradicts, two played past (automatic + unclaimed claim), two draws by rule
    assert verdicts == ["result-contradicts-rule", "played-past-limit", "played-past-limit",
                        "drawn-by-rule", "drawn-by-rule"]
    # the three that ended in time: counted per rule, the full list folded
    ended = md.split("## Ended in time")[1].split("## By variant")[0]
    assert "| russian-7.2.4 | Russian 7.2.4 | 1 | 1 |" in ended
    assert "<details>" in ended and "every activation that ended in time (3)" in ended
    html = report("endgame", con, fmt="html", variant=None)
    assert html.startswith("<!DOCTYPE html>")
    assert html.count("data:image/png;base64,") == 1
    assert "played-past-limit" in html and "<table" in html
    assert "src=\"http" not in html  # self-contained
    assert "<em>active</em>" in html and "*active*" not in html   # emphasis rendered
    assert '<div class="scroll"><table' in html                   # wide tables scroll


def test_endgame_report_by_event_sorted_and_folded(builder):
    b = builder
    for i in range(20):
        gid = _russian(b, 60, "1-0", event=f"Event {i:02d}")
        b.rule_event(gid, "russian-7.2.4", "Russian 7.2.4", True, 40, 30, None, 60)
    gid = _russian(b, 75, "1-0", event="Event 19")
    b.rule_event(gid, "russian-7.2.4", "Russian 7.2.4", True, 40, 30, 70, 75)
    md = endgame_report(b.con)
    section = md.split("## By event")[1]
    first_row = [ln for ln in section.splitlines() if ln.startswith("| Event")][0]
    assert first_row.startswith("| Event 19 |")          # the event with a verdict to check
    shown = section.split("<details>")[0]
    assert len([ln for ln in shown.splitlines() if ln.startswith("| Event")]) == 15
    assert "5 more events" in section


def test_rule_source_marks_are_explained(builder):
    gid = builder.game("c.pdn", ["c3-d4"], variant="czech", result="1-0", plies=60)
    builder.rule_event(gid, "czech-15", "Czech 15 moves [S]", True, 10, 30, None, 60)
    md = endgame_report(builder.con)
    assert "`[S]` = a secondary source" in md
    assert "[U]" not in md.split("## Verdicts by rule")[1].split("## Ended in time")[0]


def test_collection_report(small_db):
    md = report("collection", small_db)
    assert "6 games from 3 files; 66.7% clean" in md
    assert "4 ok, 1 with warnings, 1 with errors, 0 unparsed" in md
    assert "| notation-mismatch | warning | 2 | 2 | 2 |" in md
    html = report("collection", small_db, fmt="html")
    # findings by code, the ratings over time, game lengths
    assert html.count("data:image/png;base64,") == 3
    assert "## Ratings" in md and '<img alt="ratings over time"' in html
    with pytest.raises(ValueError):
        report("collection", small_db, fmt="pdf")
    with pytest.raises(ValueError):
        report("weather", small_db)


def test_docstring_examples():
    """The package's face and each of its rooms (the document, the three reports)."""
    import importlib
    import pkgutil

    names = [reports_mod.__name__] + [f"{reports_mod.__name__}.{m.name}"
                                      for m in pkgutil.iter_modules(reports_mod.__path__)]
    assert len(names) == 5, names
    results = [doctest.testmod(importlib.import_module(n)) for n in names]
    assert sum(r.attempted for r in results) > 5 and sum(r.failed for r in results) == 0


def test_collection_report_opens_with_the_games_to_check(tmp_path):
    import json

    import pdnkit
    from pdnkit.rules import get_rules, parse_fen
    from pdnkit.samples import sample_dir

    db = tmp_path / "f.duckdb"
    pdnkit.import_files([sample_dir() / "flawed.pdn"], db=db)
    side = tmp_path / "collection.games.html"
    html = report("collection", str(db), fmt="html", view_page=side)
    assert html.index("<h2>Games to check</h2>") < html.index("<h2>Games by variant</h2>")
    errors = pdnkit.query("SELECT count(*) FROM games WHERE status IN ('error', 'unparsed') "
                          "AND game_id IN (SELECT game_id FROM findings "
                          "WHERE severity = 'error')", db=db).iloc[0, 0]
    assert f"{errors} games have an error" in html
    # the missed capture: the board shows the position before the move, the move as written
    # is marked, the legal move is listed, and the link opens the viewer at that ply
    at = html.index("missed-capture</h3>")
    card = html[html.rindex('<div class="check">', 0, at):html.index("</div></div>", at)]
    row = pdnkit.query("SELECT fen, ply, game_id FROM findings WHERE code = 'missed-capture'",
                       db=db).iloc[0]
    pos = parse_fen(row.fen, get_rules("international"))
    pieces = set(re.findall(r'circle data-square="(\d+)" data-piece="([wWbB])"', card))
    assert pieces == ({(str(s), "w") for s in pos.white_men}
                      | {(str(s), "b") for s in pos.black_men})
    assert 'data-square="33" x' in card and "#d9534f" in card      # 33-29 written, in red
    assert "<code>28x19</code>" in card
    link = re.search(r'href="\./(collection\.games\.html#g=(\d+)&amp;ply=(\d+))"', card)
    assert link and int(link.group(3)) == int(row.ply)
    index = json.loads(re.search(r'id="pdnkit-index">(.*?)</script>',
                                 side.read_text(encoding="utf-8"), flags=re.S).group(1))
    assert index["games"][int(link.group(2)) - 1]["codes"] == ["missed-capture"]  # from 1
    md = report("collection", str(db))
    assert md.index("## Games to check") < md.index("## Games by variant")
    assert "Move as written: `33-29`. Legal moves: 28x19." in md


def test_a_game_without_player_tags_says_so(builder):
    """A tagless game with an error was listed as "nan - nan" in the collection report; it
    reads "(no players)" (the views' one way of writing players: viewer.model.players)."""
    gid = builder.game("t.pdn", ["32-28", "19-23"], white="Ann", black="Bo", status="error")
    builder.finding(gid, "illegal-move", "error", ply=2)
    gid = builder.game("t.pdn", ["32-28", "19-23"], white=None, black=None, status="error")
    builder.finding(gid, "illegal-move", "error", ply=2)
    for text in (report("collection", builder.con), report("collection", builder.con,
                                                           fmt="html")):
        assert "(no players)" in text and "Ann - Bo" in text
        assert not re.search(r"\bnan\b", text, flags=re.I)
