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
    section = md.split("## Games to check")[1].split("## Every rule activation")[0]
    # three problems: past the limit, contradicting result, unclaimed claim
    assert len([ln for ln in section.splitlines() if re.match(r"\| \d+ \|", ln)]) == 3
    html = report("endgame", con, fmt="html", variant=None)
    assert html.startswith("<!DOCTYPE html>")
    assert html.count("data:image/png;base64,") == 1
    assert "played-past-limit" in html and "<table" in html
    assert "src=\"http" not in html  # self-contained


def test_collection_report(small_db):
    md = report("collection", small_db)
    assert "6 games from 3 files; 66.7% clean" in md
    assert "4 ok, 1 with warnings, 1 with errors, 0 unparsed" in md
    assert "| notation-mismatch | warning | 2 | 2 | 2 |" in md
    html = report("collection", small_db, fmt="html")
    assert html.count("data:image/png;base64,") == 2
    with pytest.raises(ValueError):
        report("collection", small_db, fmt="pdf")
    with pytest.raises(ValueError):
        report("weather", small_db)


def test_docstring_examples():
    res = doctest.testmod(reports_mod)
    assert res.attempted > 5 and res.failed == 0
