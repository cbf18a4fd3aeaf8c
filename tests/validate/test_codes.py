"""One game per finding code, in each variant where it applies, with the ply checked.

Every position below is worked out by hand from the square numbering of RULES.md 1.8 (noted
next to each), so the expected finding does not come from pdnkit's own output.
"""

from __future__ import annotations

import pytest

from tests.validate.helpers import codes, game, only, run

# International numbering (RULES.md 1.8): row r=(n-1)//5 from the top, column 2k+1 on even
# rows and 2k on odd rows (k=(n-1)%5). White moves up (towards 1-5).


def test_clean_game_has_no_findings() -> None:
    rep = run(game(None, "1. 32-28 19-23 2. 28x19 14x23", gametype="20"))
    assert rep.status == "ok" and rep.findings == []
    assert rep.replayed_plies == 4
    assert rep.plies[2].captured == (23,) and rep.plies[3].captured == (19,)


def test_illegal_move_international() -> None:
    # 37 (col 2, row 7) steps to 31 or 32; 26 (col 0, row 5) is two rows away. No capture
    # is on the board after 32-28 19-24.
    rep = run(game(None, "1. 32-28 19-24 2. 37-26 24-30", gametype="20"))
    f = only(rep, "illegal-move")
    assert (f.ply, f.move, f.severity.value) == (3, "37-26", "error")
    assert "37" in f.message and "26" in f.message
    assert f.fen is not None and f.fen.startswith("W:")
    assert rep.replayed_plies == 2
    assert [p.replayed for p in rep.plies] == [True, True, False, False]


def test_illegal_move_keeps_remaining_moves_unreplayed() -> None:
    rep = run(game(None, "1. 32-26 19-23 2. 33-28 *", gametype="20", result=""))
    assert only(rep, "illegal-move").ply == 1
    assert rep.replayed_plies == 0 and len(rep.plies) == 3
    assert all(p.notation is None for p in rep.plies)


def test_missed_capture_international() -> None:
    # after 32-28 19-23 White's man on 28 must take 23 (28x19); 33-29 skips it.
    rep = run(game(None, "1. 32-28 19-23 2. 33-29", gametype="20"))
    f = only(rep, "missed-capture")
    assert f.ply == 3 and f.details["required"] == ["28x19"]


def test_missed_capture_english() -> None:
    # English: Black (1-12) moves first, downwards. Black man 14 (col 2,row 3) must jump the
    # white man on 18 (col 3,row 4) to 23 (col 4,row 5); 14-17 is a quiet step instead.
    rep = run(game("B:W18:B14", "1. 14-17", gametype="21"))
    f = only(rep, "missed-capture")
    assert f.ply == 1 and f.details["required"] == ["14x23"]


def test_not_max_capture_international() -> None:
    # White man 28 (col 4,row 5): 28x19 takes 23 only; 28x17x6 takes 22 and 11 (FMJD 4.13).
    rep = run(game("W:W28:B11,22,23", "1. 28x19", gametype="20"))
    f = only(rep, "not-max-capture")
    assert f.ply == 1
    assert f.message.startswith("captured 1 piece; 2 were required")
    assert (f.details["taken"], f.details["required"]) == (1, 2)
    assert f.details["required_moves"] == ["28x17x6"]


def test_not_max_capture_brazilian() -> None:
    # White man c3: c3xe5 takes d4; c3xa5xc7 takes b4 and b6 (majority rule, as FMJD).
    rep = run(game("W:Wc3:Bd4,b4,b6", "1. c3xe5", gametype="26"))
    f = only(rep, "not-max-capture")
    assert f.ply == 1 and (f.details["taken"], f.details["required"]) == (1, 2)


def test_capture_priority_italian() -> None:
    # Italian numbering is mirrored (1 = a8, 4 = g8, 32 = h1). White man 22 can take 18
    # (22x13) and the white king on 31 can take 28 (31x24): one piece each, and the
    # king must capture (FID 5.x, RULES.md 2.10 rule 2).
    rep = run(game("W:W22,K31:B18,28", "1. 22x13", gametype="22"))
    f = only(rep, "capture-priority")
    assert f.ply == 1 and f.details["rule"] == "king_capturer"
    assert f.details["required_moves"] == ["31x24"]


def test_italian_man_may_not_capture_a_king() -> None:
    # White man 22 next to the black king on 18 with 13 free behind: legal in most variants,
    # but an Italian man may not take a king (FID 5.3b); 22-19 was the only kind of move.
    rep = run(game("W:W22:BK18", "1. 22x13", gametype="22"))
    f = only(rep, "illegal-move")
    assert f.ply == 1 and "may not capture a king" in f.message
    # the same capture is fine in English checkers (men take kings there)
    assert run(game("W:W22:BK18", "1. 22x15", gametype="21")).status == "ok"


def test_russian_man_promotes_mid_capture_and_goes_on_as_king() -> None:
    # b6 jumps c7 and lands on d8 (promotion row): it is a king at once and flies on over f6
    # to g5 or h4 (Russian rules, RULES.md 2.6). A man could not reach f6 from d8.
    rep = run(game("W:Wb6:Bc7,f6", "1. b6:d8:h4", gametype="25"))
    assert rep.status == "ok", [str(f) for f in rep.findings]
    p = rep.plies[0]
    assert p.captured == (6, 11)  # c7, f6: n = 4*(8-rank) + file//2 + 1 (RULES.md 1.8)
    assert p.promotes and p.piece == "man" and p.notation == "b6:h4"
    # stopping on d8 is not a complete capture
    assert only(run(game("W:Wb6:Bc7,f6", "1. b6:d8", gametype="25")), "illegal-move").ply == 1
    # under international rules the man passing the back row stays a man (FMJD 4.15)
    assert run(game("W:Wb6:Bc7,f6", "1. b6xd8", gametype="26")).status == "ok"


def test_ambiguous_move_resolved_by_the_rest_of_the_game() -> None:
    # PDN 3.0's own example (RULES.md 1.5): 47x36 can go via 20 (taking 14) or via 24
    # (taking 19). Only after the route via 20 does Black still have a man on 19 to play 19-23.
    rep = run(game("W:WK47:B14,19,29,31,42", "1. 47x36 19-23", gametype="20"))
    f = only(rep, "ambiguous-move")
    assert f.severity.value == "warning" and f.ply == 1
    assert f.details["chosen"] == "47x38x20x9x36"
    assert sorted(f.details["candidates"]) == ["47x38x20x9x36", "47x38x24x13x36"]
    assert rep.replayed_plies == 2 and rep.plies[0].notation == "47x38x20x9x36"


def test_ambiguous_move_error_when_nothing_decides() -> None:
    rep = run(game("W:WK47:B14,19,29,31,42", "1. 47x36", gametype="20"))
    f = only(rep, "ambiguous-move")
    assert f.severity.value == "error" and f.ply == 1


def test_full_path_resolves_the_ambiguity() -> None:
    rep = run(game("W:WK47:B14,19,29,31,42", "1. 47x38x24x13x36 14-20", gametype="20"))
    assert rep.status == "ok" and rep.plies[0].captured == (42, 29, 19, 31)


def test_move_after_end() -> None:
    # 28x19 takes Black's last piece; Black cannot move, yet a move follows.
    rep = run(game("W:W28:B23", "1. 28x19 10-14", gametype="20"))
    f = only(rep, "move-after-end")
    assert f.ply == 2 and rep.replayed_plies == 1


def test_notation_mismatch_is_only_a_warning() -> None:
    rep = run(game(None, "1. 32x28 19-23", gametype="20"))
    assert codes(rep) == ["notation-mismatch"] and rep.status == "warning"
    assert rep.replayed_plies == 2


def test_move_number_mismatch() -> None:
    rep = run(game(None, "1. 32-28 19-23 3. 28x19 14x23", gametype="20"))
    f = only(rep, "move-number-mismatch")
    assert f.ply == 3 and f.details["expected"] == 2
    assert rep.replayed_plies == 4


def test_black_dots_after_fen_with_black_to_move() -> None:
    rep = run(game("B:W38:B19,23", "1... 19-24 2. 38-33", gametype="20"))
    assert codes(rep, 1) == []


def test_unknown_move_placeholder_stops_replay() -> None:
    rep = run(game(None, "1. 32-28 - - 2. 33-29", gametype="20"))
    f = only(rep, "unknown-move")
    assert f.ply == 2 and rep.replayed_plies == 1


def test_result_mismatch() -> None:
    # Black has no piece left after 28x19, so Black lost; 0-2 says Black won.
    rep = run(game("W:W28:B23", "1. 28x19", gametype="20", result="0-2"))
    f = only(rep, "result-mismatch")
    assert f.ply == 1 and f.severity.value == "error"
    assert run(game("W:W28:B23", "1. 28x19", gametype="20", result="2-0")).status == "ok"


def test_result_mismatch_losing_variant() -> None:
    # Antidraughts: the side that cannot move wins; Black has no piece -> Black won.
    ok = run(game("W:W28:B23", "1. 28x19", gametype="98", result="0-2"))
    assert "result-mismatch" not in codes(ok) and ok.outcome == "black"
    bad = run(game("W:W28:B23", "1. 28x19", gametype="98", result="2-0"))
    assert only(bad, "result-mismatch").ply == 1


def test_result_tag_mismatch() -> None:
    rep = run(game(None, "1. 32-28 19-23", gametype="20", result="0-2",
                   tags={"Result": "2-0"}))
    f = only(rep, "result-tag-mismatch")
    assert f.severity.value == "warning"
    # PDN 3.0 recommends the result in the tag and '*' as terminator: not a mismatch
    rep = run(game(None, "1. 32-28 19-23", gametype="20", result="*", tags={"Result": "2-0"}))
    assert "result-tag-mismatch" not in codes(rep) and rep.result == "1-0"


def test_variation_findings_do_not_stop_the_main_line() -> None:
    rep = run(game(None, "1. 32-28 (1. 32-26) 19-23 2. 28x19 14x23", gametype="20"))
    f = only(rep, "illegal-move")
    assert f.in_variation and f.ply == 1
    assert rep.replayed_plies == 4


def test_variation_replayed_from_its_branch_point() -> None:
    # the variation replaces 19-23 with 18-22: legal from the position after 32-28 (and
    # not after 19-23, where 28x19 would be compulsory)
    rep = run(game(None, "1. 32-28 19-23 (1... 18-22) 2. 28x19", gametype="20"))
    assert rep.findings == [] and rep.replayed_plies == 3
    rep = run(game(None, "1. 32-28 19-23 2. 28x19 (2. 33-29) 14x23", gametype="20"))
    f = only(rep, "missed-capture")
    assert f.in_variation and f.ply == 3 and rep.replayed_plies == 4


@pytest.mark.parametrize("fen", ["W:W28:B23.", "W:W28,:B23"])
def test_fen_variants_read(fen: str) -> None:
    rep = run(game(fen, "1. 28x19", gametype="20", result="2-0"))
    assert rep.status == "ok"


def test_bad_fen() -> None:
    rep = run(game("W:W28:B28", "1. 28x19", gametype="20"))
    f = only(rep, "bad-fen")
    assert f.severity.value == "error" and rep.replayed_plies == 0


def test_capture_priority_czech_king_first() -> None:
    # Czech: a man on a3 can take b4 (a3xc5), the king on h2 can take g3 (landing anywhere
    # from f4 to b8): when a king can capture, a king must capture (RULES.md 2.12)
    rep = run(game("W:Wa3,Kh2:Bb4,g3", "1. a3xc5", gametype="29"))
    f = only(rep, "capture-priority")
    assert f.ply == 1 and f.details["rule"] == "king_capturer"
    assert f.details["required_moves"] == ["h2xb8", "h2xc7", "h2xd6", "h2xe5", "h2xf4"]


def test_capture_priority_frisian_value() -> None:
    # Frisian: 28x19 takes a man (value 100); 32x21 takes the king on 27 diagonally and 28x26
    # takes it sideways along the row (art. 7), each worth 199 (art. 11)
    rep = run(game("W:W28,32:B23,K27", "1. 28x19", gametype="40"))
    f = only(rep, "capture-priority")
    assert f.details["rule"] == "max_value"
    assert f.details["required_moves"] == ["28x26", "32x21"]
    assert "greatest value" in f.message


def test_the_findings_page_lists_every_code_with_its_severity() -> None:
    from pathlib import Path

    from pdnkit.findings import CODES

    page = Path(__file__).resolve().parents[2] / "docs" / "findings.md"
    text = page.read_text(encoding="utf-8")
    for code, info in CODES.items():
        assert f"| [`{code}`](#{code}) | {info.severity.value} |" in text, code
