"""Which rules a game gets (tags, --variant, guesses) and how results are read."""

from __future__ import annotations

import pytest

from pdnkit.validation.judge import normalise_token
from tests.validate.helpers import codes, game, only, run


@pytest.mark.parametrize(("gametype", "name"), [
    ("20", "international"), ("20,W,10,10,N2,0", "international"), ("25", "russian"),
    ("21", "english"), ("22", "italian"), ("26", "brazilian"), ("29", "czech"),
    ("40", "frisian"), ("97", "frysk"), ("98", "antidraughts"), (" 23 ", "pool"),
])
def test_gametype_tag(gametype: str, name: str) -> None:
    rep = run(game(None, "", gametype=gametype))
    assert rep.variant == name
    assert "variant-guessed" not in codes(rep)


def test_nonstandard_full_gametype_is_noted() -> None:
    # PlayOK writes N1 (wrong corner) for international draughts (RULES.md 1.3)
    rep = run(game(None, "1. 32-28", gametype="20,W,10,10,N1,0"))
    assert rep.variant == "international" and rep.replayed_plies == 1
    assert "N2" in only(rep, "variant-guessed").message


def test_variant_tag_when_no_gametype() -> None:
    rep = run(game(None, "1. 11-15 23-19", tags={"Variant": "American/English"}))
    assert rep.variant == "english" and codes(rep) == []


def test_unknown_gametype_is_an_error_not_a_guess() -> None:
    rep = run(game(None, "1. 32-28", gametype="99"))  # no variant has GameType 99
    f = only(rep, "unknown-variant")
    assert f.severity.value == "error" and rep.replayed_plies == 0 and rep.variant is None


def test_argument_used_without_tags_and_tag_wins_over_it() -> None:
    assert run(game(None, "1. 32-28"), variant="international").variant == "international"
    rep = run(game(None, "1. c3-d4", gametype="25"), variant="international")
    assert rep.variant == "russian" and only(rep, "variant-conflict").severity.value == "warning"


def test_unknown_argument_is_api_misuse() -> None:
    with pytest.raises(ValueError):
        run(game(None, "1. 32-28"), variant="chess")


@pytest.mark.parametrize(("moves", "tags", "name"), [
    ("1. 32-28 19-23", {}, "international"),            # squares above 32
    ("1. c3-d4 f6-g5", {}, "russian"),                  # letters: Russian first
    ("1. 11-15 23-19", {}, "english"),                   # 8x8 numbers, Black from 9-12
    ("1. 22-18 11-15", {"Bianco": "Rossi", "Nero": "Verdi"}, "italian"),  # tag language
])
def test_guesses(moves: str, tags: dict[str, str], name: str) -> None:
    rep = run(game(None, moves, tags=tags))
    assert rep.variant == name
    assert only(rep, "variant-guessed").severity.value == "info"


def test_guess_falls_back_to_the_candidate_that_replays() -> None:
    # Czech men do not capture backwards and kings have priority; this Czech championship
    # opening (mrcd2006.pdn, game 1) replays under Russian rules too, but 14. h4xf6xd8 ends on
    # the back row: a Russian man would be crowned there and go on capturing; a Czech one stops.
    moves = ("1. a3-b4 b6-c5 2. b2-a3 f6-e5 3. b4-a5 c5-d4 4. e3xc5 d6xb4 5. a3xc5 c7-b6 "
             "6. a5xc7 d8xb6xd4xb2 7. a1xc3")
    rep = run(game(None, moves))
    assert rep.status != "error" and rep.variant in ("russian", "czech")


@pytest.mark.parametrize(("token", "meaning"), [
    ("1-0", "first"), ("2-0", "first"), ("0-1", "second"), ("0-2", "second"),
    ("1/2-1/2", "draw"), ("1-1", "draw"), ("½-½", "draw"), ("0.5-0.5", "draw"),
    ("*", "unknown"), ("0-0", "unknown"), ("4-6", None), (None, "unknown"),
])
def test_result_tokens(token: str | None, meaning: str | None) -> None:
    assert normalise_token(token) == meaning


@pytest.mark.parametrize(("terminator", "tags"), [
    ("0-0", {}), ("*", {"Result": "0-0"}), ("*", {"Result": " 0 - 0 "}),
    ("0\u20130", {}),  # the same with an en dash
])
def test_a_double_forfeit_is_said(terminator: str, tags: dict[str, str]) -> None:
    rep = run(game(None, "1. 32-28 19-23", gametype="20", result=terminator, tags=tags))
    assert (rep.result, rep.outcome) == ("*", "unknown")
    f = only(rep, "unknown-result")
    assert f.message.endswith(": double forfeit") and f.ply == 2 and f.severity.value == "info"


def test_an_unknown_result_is_no_forfeit() -> None:
    rep = run(game(None, "1. 32-28 19-23", gametype="20", result="*"))
    assert rep.result == "*" and "unknown-result" not in codes(rep)


def test_international_results_normalised_white_first() -> None:
    assert run(game(None, "1. 32-28", gametype="20", result="2-0")).result == "1-0"
    rep = run(game(None, "1. 32-28", gametype="20", result="1-1"))
    assert rep.result == "1/2-1/2" and rep.outcome == "draw"


def test_match_score_is_unknown_result() -> None:
    rep = run(game(None, "1. 32-28", gametype="20", result="", tags={"Result": "4-6"}))
    assert rep.result is None and only(rep, "unknown-result").severity.value == "info"


# English: Black (first mover) has the man on 14; after 14x23 White has no piece and loses.
ENGLISH_END = "B:W18:B14"


def test_english_pdn2_convention_first_number_is_black() -> None:
    rep = run(game(ENGLISH_END, "1. 14x23", gametype="21", result="1-0"))
    assert rep.outcome == "black" and rep.result == "0-1"
    assert "result-mismatch" not in codes(rep)
    assert only(rep, "result-convention").details["convention"] == "first-mover"


def test_english_white_first_reading_accepted_in_auto() -> None:
    rep = run(game(ENGLISH_END, "1. 14x23", gametype="21", result="0-1"))
    assert rep.outcome == "black" and "result-mismatch" not in codes(rep)
    assert only(rep, "result-convention").details["convention"] == "white"


def test_result_convention_option_settles_it() -> None:
    rep = run(game(ENGLISH_END, "1. 14x23", gametype="21", result="1-0"),
              result_convention="white")
    assert only(rep, "result-mismatch").ply == 1
    rep = run(game(ENGLISH_END, "1. 14x23", gametype="21", result="1-0"),
              result_convention="first-mover")
    assert codes(rep) == []


def test_undecided_english_game_uses_pdn2_default() -> None:
    rep = run(game(None, "1. 11-15 23-19", gametype="21", result="1-0"))
    assert rep.outcome == "black" and codes(rep) == []


def test_draw_in_a_decided_position_is_a_result_mismatch() -> None:
    rep = run(game("W:W28:B23", "1. 28x19", gametype="20", result="1-1"))
    assert only(rep, "result-mismatch").ply == 1
