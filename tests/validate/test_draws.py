"""Draws by each rule of RULES.md section 4.2, and draws that were ignored.

Each game walks the kings around closed cycles of squares (``shuffle``): a cycle of a moves
for White and b moves for Black repeats the whole position every lcm(a, b) moves, so the
starting position occurs for the 3rd time at ply 4 * lcm(a, b). The cycles are chosen so
that the rule under test is reached first, at the ply its limit gives (counted from the
start, where the material condition already holds): e.g. FMJD 6.4 (5 moves each) at ply 10,
FMJD 6.3 (16 moves each) at ply 32, threefold repetition with 2-square cycles at ply 8.
Any capture on the way would make the record illegal, so a clean replay also shows the
positions are what the comments say.
"""

from __future__ import annotations

import pytest

from tests.validate.helpers import codes, game, only, run, shuffle

# (id, GameType, edition, FEN, white cycle, black cycle, plies, rule, automatic, replace)
CASES = [
    ("fmjd-6.1", "20", None, "W:WK46:BK1", [46, 41], [1, 7], 8, "fmjd-6.1", True, None),
    ("fmjd-6.2", "20", None, "W:WK46,48,49:BK1,2,3", [46, 41, 37], [1, 6, 11, 7, 12], 50,
     "fmjd-6.2", True, None),
    ("fmjd-6.3", "20", None, "W:WK46,K47,K48:BK1", [46, 41, 37], [1, 7, 11, 6], 32,
     "fmjd-6.3", True, None),
    ("fmjd-6.4", "20", None, "W:WK46:BK1", [46, 41, 37], [1, 7, 12], 10, "fmjd-6.4", True,
     None),
    ("russian-7.2.3", "25", None, "W:WK1:BK3", [1, 6], [3, 8], 8, "russian-7.2.3", True,
     None),
    ("russian-7.2.4", "25", None, "W:WK3,K31,K20:BK2", [3, 8, 12], [2, 6, 9, 13], 30,
     "russian-7.2.4", True, None),
    ("russian-7.2.5", "25", None, "W:WK1,K31:BK11,K4", [1, 6, 10], [11, 8, 12, 16], 30,
     "russian-7.2.5", True, None),
    # 4 pieces, both sides with a king: 30 moves (60 plies) without capture or promotion;
    # White's man moves at plies 19, 39 and 59 keep 7.2.5 (kings only, 30 plies) from firing
    ("russian-7.2.6", "25", None, "W:WK1,31:BK11,3", [1, 6, 10], [11, 8, 12, 16], 60,
     "russian-7.2.6-4-5", True, {19: "31-27", 39: "27-24", 59: "24-20"}),
    # the lone black king walks the main road h8-g7-f6 (4, 8, 11) against three kings
    ("russian-7.2.7", "25", None, "W:WK1,K30,K31:BK4", [1, 6, 10], [4, 8, 11], 10,
     "russian-7.2.7", True, None),
    ("russian-7.2.8", "25", None, "W:WK1:BK3", [1, 6, 10], [3, 8, 12], 10, "russian-7.2.8",
     True, None),
    # Frisian has no repetition rule (RULES.md 2.4): the kings may cycle
    ("frisian-18", "40", None, "W:WK1,K50:BK13", [1, 7, 12], [13, 19, 24], 14,
     "frisian-18", True, None),
    ("frisian-21.1", "40", None, "W:WK1:BK13", [1, 7, 12], [13, 19, 24], 4, "frisian-21.1",
     True, None),
    ("czech-15", "29", None, "W:WK1,K31:BK11,K4", [1, 6, 10], [11, 8, 12, 16], 30,
     "czech-15", True, None),
    ("czech-repetition", "29", None, "W:WK1:BK3", [1, 6], [3, 8], 8, "czech-repetition",
     False, None),
    ("canadian-16", "27", None, "W:WK1,K72,K71:BK4", [1, 8, 14], [4, 11, 17, 24], 32,
     "canadian-16", True, None),
    ("pool-3k-v-k", "23", None, "W:WK1,K32,K31:BK11", [1, 6, 10], [11, 8, 12, 16], 26,
     "pool-3k-v-k", True, None),
    ("cbd-20", "26", None, "W:WK1,K31:BK11,K4", [1, 6, 10], [11, 8, 12, 16], 40, "cbd-20",
     True, None),
    ("antidraughts", "98", None, "W:WK1:BK3", [1, 7], [3, 9], 8, "antidraughts-repetition",
     True, None),
    ("italian", "22", None, "W:WK1:BK3", [1, 5], [3, 7], 8, "fid-repetition", True, None),
    # English (EDA 1991): repetition is a claim, on the 4th occurrence (ply 12)
    ("eda-repetition", "21", None, "B:WK1:BK2", [1, 6], [2, 7], 12, "eda-repetition", False,
     None),
    # English (WCDF 1.32.1): the 3rd occurrence, also a claim
    ("wcdf-1.32.1", "21", "wcdf", "B:WK1:BK2", [1, 6], [2, 7], 8, "wcdf-1.32.1", False, None),
]

IDS = [c[0] for c in CASES]

#: the cases whose rule RULES.md reads in a primary text (FMJD art. 6, the Russian 7.2 articles
#: as quoted verbatim, the Frisian rulebook of 2011, lidraughts for its own antidraughts): only
#: these make an ignored automatic draw an error; Czech, Canadian, pool, Brazilian (CBD) and
#: Italian (FID) draw rules are known from secondary summaries [S] only (RULES.md 2.2-2.12)
PRIMARY = {"fmjd-6.1", "fmjd-6.2", "fmjd-6.3", "fmjd-6.4", "russian-7.2.3", "russian-7.2.4",
           "russian-7.2.5", "russian-7.2.6", "russian-7.2.7", "russian-7.2.8", "frisian-18",
           "frisian-21.1", "antidraughts"}


def _pdn(case: tuple, plies: int, result: str) -> str:
    _, gt, _, fen, wc, bc, _, _, _, replace = case
    first = fen[0]
    return game(fen, shuffle(wc, bc, plies, first=first, replace=replace), gametype=gt,
                result=result)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_draw_by_rule(case: tuple) -> None:
    _, _, edition, _, _, _, plies, rule, automatic, _ = case
    rep = run(_pdn(case, plies, "1/2-1/2"), edition=edition)
    assert rep.status == "ok", [str(f) for f in rep.findings]
    assert rep.draw_basis == rule and rep.outcome == "draw"
    f = only(rep, "draw-by-rule")
    assert f.ply == plies and f.details["rule"] == rule
    assert f.details["automatic"] is automatic
    ev = [e for e in rep.rule_events if e.rule == rule]
    assert ev and ev[0].reached_ply == plies


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_draw_rule_ignored_when_the_game_goes_on(case: tuple) -> None:
    _, _, edition, _, _, _, plies, rule, automatic, _ = case
    rep = run(_pdn(case, plies + 2, "1/2-1/2"), edition=edition)
    f = only(rep, "draw-rule-ignored")
    assert f.ply == plies and f.details["rule"] == rule
    assert f.severity.value == ("error" if automatic and case[0] in PRIMARY else "warning")
    assert "2 more plies" in f.message
    # a rule not read in a primary text says so, with its tag
    assert ("so this is a warning" in f.message) is (case[0] not in PRIMARY)


@pytest.mark.parametrize("case", [c for c in CASES if c[8]], ids=[c[0] for c in CASES if c[8]])
def test_automatic_draw_scored_as_a_win(case: tuple) -> None:
    _, _, edition, _, _, _, plies, rule, _, _ = case
    rep = run(_pdn(case, plies, "1-0"), edition=edition)
    f = only(rep, "draw-rule-ignored")
    expected = "error" if case[0] in PRIMARY else "warning"
    assert f.ply == plies and f.severity.value == expected and rep.status == expected


def test_secondary_source_rule_gives_at_most_a_warning() -> None:
    """Issue: an Italian game repeats a position a third time and is won later. The FID
    repetition rule is known from secondary summaries only (RULES.md 2.10 [S]), so ignoring
    it is a warning that names the tag, and ``explain`` says why."""
    case = CASES[IDS.index("italian")]
    rep = run(_pdn(case, 12, "1-0"))
    f = only(rep, "draw-rule-ignored")
    assert f.severity.value == "warning" and rep.status == "warning"
    assert "[S]" in f.message and f.details["source"] == "S"
    from pdnkit.findings import explain
    assert "secondary summary [S]" in explain("draw-rule-ignored")


def test_agreed_draw_is_unsupported_not_an_error() -> None:
    rep = run(game(None, "1. 32-28 19-23", gametype="20", result="1-1"))
    f = only(rep, "draw-unsupported")
    assert f.severity.value == "info" and rep.status == "ok" and rep.draw_basis is None


def test_claim_not_made_is_fine_in_a_decisive_game_only_as_warning() -> None:
    # WCDF repetition is a claim: a win after it is a warning, not an error
    case = CASES[IDS.index("wcdf-1.32.1")]
    rep = run(_pdn(case, 8, "1-0"), edition="wcdf")
    assert only(rep, "draw-rule-ignored").severity.value == "warning"
    assert rep.status == "warning"


def test_rule_events_carry_the_counts() -> None:
    case = CASES[IDS.index("fmjd-6.3")]
    rep = run(_pdn(case, 34, "1/2-1/2"))
    e = next(e for e in rep.rule_events if e.rule == "fmjd-6.3")
    assert (e.start_ply, e.limit_plies, e.deadline_ply, e.reached_ply) == (0, 32, 32, 32)
    assert "draw-by-rule" in codes(rep)
