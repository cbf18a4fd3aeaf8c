"""The Python API: replay() on records, setups, unknown sides, unparsed games, report fields."""

from __future__ import annotations

from pdnkit.pdn import parse_game
from pdnkit.rules import get_rules
from pdnkit.validation import GameReport, replay, validate
from tests.validate.helpers import codes, game, only, run


def test_replay_with_explicit_rules_ignores_tags() -> None:
    rec = parse_game('[GameType "25"]\n1. 32-28 19-23 *')
    rep = replay(rec, get_rules("international"))
    assert rep.variant == "international" and rep.replayed_plies == 2
    assert "variant-conflict" not in codes(rep)


def test_report_fields() -> None:
    rep = run(game(None, "1. 32-28 {good} $1 19-23 2. 28x19 14x23", gametype="20",
                   result="1-1", tags={"White": "Sijbrands", "Black": "Baba Sy"}))
    assert isinstance(rep, GameReport)
    assert (rep.white, rep.black, rep.ply_count, rep.gametype) == ("Sijbrands", "Baba Sy", 4, 20)
    assert rep.start_fen.startswith("W:W31,") and rep.start_counts["black_men"] == 20
    p1, p3 = rep.plies[0], rep.plies[2]
    assert (p1.side, p1.move_number, p1.comment, p1.nags, p1.piece) == ("W", 1, "good", [1],
                                                                          "man")
    assert (p3.origin, p3.destination, p3.path, p3.captured, p3.is_capture) == (
        28, 19, (28, 19), (23,), True)
    assert p3.counts_after == {"white_men": 20, "white_kings": 0, "black_men": 19,
                               "black_kings": 0}
    assert rep.plies[-1].fen_after == rep.final_fen
    assert isinstance(p3.key_after, int) and -(2**63) <= p3.key_after < 2**63
    d = rep.to_dict()
    assert d["result"] == "1/2-1/2" and d["result_raw"] == "1-1" and d["plies"] == 4


def test_midgame_setup_replaces_the_position() -> None:
    # after 32-28 a /FEN/ setup puts White's man on 28 against a black man on 23, Black to
    # move: 23x32 is then Black's only move
    rep = run(game(None, '1. 32-28 /FEN "B:W28:B23"/ 1... 23x32', gametype="20"))
    assert rep.status == "ok" and rep.replayed_plies == 2
    final = rep.final_position
    assert final.black_men == frozenset({32}) and not final.white_men


def test_setup_before_first_move_is_the_start() -> None:
    rep = run(game(None, '/FEN "W:W28:B23"/ 1. 28x19', gametype="20", result="2-0"))
    assert rep.status == "ok" and rep.start_fen == "W:W28:B23"


def test_unknown_side_in_fen_taken_from_the_first_move() -> None:
    # '?' side to move (PDN 3.0): only Black can move first here (23x32)
    rep = run(game("?:W28:B23", "1... 23x32", gametype="20"))
    assert rep.replayed_plies == 1 and codes(rep, 2) == []


def test_unparsed_game_keeps_raw_and_status() -> None:
    rep = run('[Event "x"]\n[GameType "20"]\n1) 32+28 {never closed\n')
    assert rep.status == "unparsed" and rep.replayed_plies == 0
    assert "syntax-error" in codes(rep)


def test_frisian_king_move_limit_is_enforced_by_the_engine() -> None:
    # Frisian art. 17: with men on the board, a king may make at most 3 non-capturing moves
    # in a row; the 4th consecutive quiet move with the same king is illegal
    fen = "W:WK46,36:B1,2,3"
    moves = "1. 46-41 1-7 2. 41-46 2-8 3. 46-41 3-9"
    ok = run(game(fen, moves, gametype="40"))
    assert codes(ok, 1) == []
    bad = run(game(fen, moves + " 4. 41-46", gametype="40"))
    assert only(bad, "illegal-move").ply == 7
    # a man move in between lifts the restriction
    assert codes(run(game(fen, moves + " 4. 36-31", gametype="40")), 1) == []


def test_validate_many_sources_in_order(tmp_path) -> None:
    a = tmp_path / "a.pdn"
    b = tmp_path / "b.pdn"
    a.write_text(game(None, "1. 32-28", gametype="20"), encoding="utf-8")
    b.write_text(game(None, "1. c3-d4", gametype="25") * 2, encoding="utf-8")
    reps = list(validate([a, b], jobs=2, chunk_size=1))
    assert [(r.file.endswith("a.pdn"), r.index, r.variant) for r in reps] == [
        (True, 0, "international"), (False, 0, "russian"), (False, 1, "russian")]


def test_light_reports_drop_records() -> None:
    rep = next(validate(game(None, "1. 32-28", gametype="20"), light=True))
    assert rep.record is None and rep.plies == [] and rep.ply_count == 1
    assert rep.to_dict()["plies"] == 1


def test_validate_accepts_records() -> None:
    recs = [parse_game(game(None, "1. 32-28", gametype="20")),
            parse_game(game(None, "1. 32-26", gametype="20"))]
    assert [r.status for r in validate(recs)] == ["ok", "error"]
    assert [r.status for r in validate(recs, jobs=2)] == ["ok", "error"]


def test_canonical_notation_feeds_the_writer() -> None:
    from pdnkit.pdn import write_game

    # the ambiguous 47x36 of PDN 3.0's example comes out with its full path (RULES.md 4.5)
    rec = parse_game(game("W:WK47:B14,19,29,31,42", "1. 47x36 19-23", gametype="20"))
    rep = replay(rec)
    assert rep.notation_map() == {1: "47x38x20x9x36", 2: "19-23"}
    assert "1. 47x38x20x9x36 19-23" in write_game(rec, notation=rep.notation_map())
