"""Turkish draughts (RULES.md 2.13) on hand-made positions: all 64 squares, orthogonal moves,
men forward and sideways, flying rook-like kings, immediate removal, no 180-degree turn,
maximum capture, and the two readings of promotion during a capture (RULES.md 6.10)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import pdnkit
from pdnkit.rules import Color, Position, get_rules, parse_fen, write_fen
from pdnkit.rules.notation import format_move, match_move, parse_square, square_name

TURKISH = get_rules("turkish")
KISH = get_rules("turkish", edition="kish")


def _pos(rules: object = TURKISH, side: str = "W", **pieces: list[str]) -> Position:
    sq = {k: [parse_square(rules, n) for n in v] for k, v in pieces.items()}  # type: ignore[arg-type]
    return Position.from_squares(rules, side, **sq)  # type: ignore[arg-type]


def _texts(pos: Position) -> list[str]:
    return sorted(format_move(m, pos.rules, full_path=True) for m in pos.legal_moves())


def test_record_and_board() -> None:
    assert get_rules(30) is TURKISH and get_rules("30,W,8,8,A0,0") is TURKISH
    g = TURKISH.geometry
    assert g.num_squares == 64
    # pydraughts' numbering: 1 = a1, 8 = h1, 64 = h8; every square plays (light ones too)
    assert [parse_square(TURKISH, n) for n in ("a1", "h1", "b1", "a2", "h8")] == [1, 8, 2, 9, 64]
    assert TURKISH.describe()["men_per_side"] == 16
    assert TURKISH.irregularity == "stands-when-opponent-plays-on"


def test_initial_position() -> None:
    pos = Position.initial(TURKISH)
    names = lambda sqs: sorted(square_name(TURKISH, s) for s in sqs)  # noqa: E731
    assert names(pos.white_men) == sorted(f"{f}{r}" for f in "abcdefgh" for r in "23")
    assert names(pos.black_men) == sorted(f"{f}{r}" for f in "abcdefgh" for r in "67")
    assert pos.side is Color.WHITE
    # only the men of rank 3 move, one square straight forward
    assert _texts(pos) == sorted(f"{f}3-{f}4" for f in "abcdefgh")


def test_men_move_forward_and_sideways_never_back_or_diagonally() -> None:
    assert _texts(_pos(white_men=["d4"], black_men=["h8"])) == ["d4-c4", "d4-d5", "d4-e4"]
    assert _texts(_pos(side="B", white_men=["a1"], black_men=["d5"])) == [
        "d5-c5", "d5-d4", "d5-e5"]
    # on the edge a man has two moves; a white man on the last rank would be a king
    assert _texts(_pos(white_men=["a4"], black_men=["h8"])) == ["a4-a5", "a4-b4"]


def test_king_moves_like_a_rook() -> None:
    pos = _pos(white_kings=["d4"], white_men=["d6"], black_men=["h8"])
    kings = sorted(t for t in _texts(pos) if t.startswith("d4"))
    assert kings == sorted(["d4-d5", "d4-d3", "d4-d2", "d4-d1", "d4-c4", "d4-b4", "d4-a4",
                            "d4-e4", "d4-f4", "d4-g4", "d4-h4"])  # d6 (own man) blocks


def test_king_captures_at_a_distance_and_lands_anywhere_beyond() -> None:
    pos = _pos(white_kings=["a1"], black_men=["a4"])
    assert _texts(pos) == ["a1xa5", "a1xa6", "a1xa7", "a1xa8"]
    assert all(m.captured == (parse_square(TURKISH, "a4"),) for m in pos.legal_moves())


def test_men_capture_forward_and_sideways_not_diagonally() -> None:
    pos = _pos(white_men=["d4"], black_men=["c5", "e5", "c3", "e3"])
    assert not pos.has_capture() and not any(m.captured for m in pos.legal_moves())
    assert _texts(_pos(white_men=["d4"], black_men=["e4"])) == ["d4xf4"]
    assert _texts(_pos(white_men=["d4"], black_men=["d5"])) == ["d4xd6"]
    assert _texts(_pos(white_men=["d4"], black_men=["d3", "h8"])) == [
        "d4-c4", "d4-d5", "d4-e4"]  # never backward


def test_removal_is_immediate() -> None:
    # d1 takes d3 (landing d5), f5 (landing g5), g4 (landing g3), then runs left along rank 3
    # over the square d3 stood on, free at once, to take b3: four pieces
    pos = _pos(white_kings=["d1"], black_men=["d3", "f5", "g4", "b3"])
    legal = pos.legal_moves()
    assert [format_move(m, TURKISH, full_path=True) for m in legal] == ["d1xd5xg5xg3xa3"]
    # with end-of-move removal (the Russian "Turkish strike") d3 would still block rank 3
    ended = replace(TURKISH, removal="end")
    before = Position.from_squares(ended, "W", white_kings=pos.white_kings,
                                   black_men=pos.black_men)
    assert {len(m.captured) for m in before.legal_moves()} == {3}


def test_a_king_may_land_on_the_square_of_a_piece_it_took() -> None:
    # a1 takes c1 (landing e1), e3 (landing e5), d5 (landing c5), then c3 down the c-file:
    # it may stop on c2 or on c1, where the first piece it took stood
    pos = _pos(white_kings=["a1"], black_men=["c1", "e3", "d5", "c3"])
    legal = pos.legal_moves()
    assert sorted(square_name(TURKISH, m.destination) for m in legal) == ["c1", "c2"]
    assert {len(m.captured) for m in legal} == {4}
    for m in legal:  # play() takes the pieces off before it puts the king down
        after = pos.play(m)
        assert after.counts() == {"white_men": 0, "white_kings": 1, "black_men": 0,
                                  "black_kings": 0}


def test_no_180_degree_turn_between_two_jumps() -> None:
    # kish rule 6.7 positions: a king between two men on one line takes only one of them
    pos = _pos(white_kings=["d5"], black_men=["d3", "d7"])
    assert {len(m.captured) for m in pos.legal_moves()} == {1}
    pos = _pos(white_kings=["d4"], black_men=["b4", "f4"])
    assert {len(m.captured) for m in pos.legal_moves()} == {1}
    # a 90-degree turn is allowed
    pos = _pos(white_kings=["d4"], black_men=["d6", "f7"])
    assert {len(m.captured) for m in pos.legal_moves()} == {2}


def test_maximum_capture_is_compulsory() -> None:
    pos = _pos(white_men=["d4"], black_men=["d5", "c4", "b5"])
    legal = pos.legal_moves()
    assert legal and all(len(m.captured) == 2 for m in legal)
    assert [format_move(m, TURKISH, full_path=True) for m in legal] == ["d4xb4xb6"]


def test_promotion_during_a_capture_per_edition() -> None:
    # d6 takes d7 and reaches d8; c8 can still be taken sideways
    default = _pos(TURKISH, white_men=["d6"], black_men=["d7", "c8"])
    kish = _pos(KISH, white_men=["d6"], black_men=["d7", "c8"])
    # the default (Wikipedia reading) goes on as a king: b8 or a8 beyond c8
    assert _texts(default) == ["d6xd8xa8", "d6xd8xb8"]
    assert all(m.promotes for m in default.legal_moves())
    # kish goes on as a man (one square beyond) and crowns at the end
    assert _texts(kish) == ["d6xd8xb8"]
    assert all(m.promotes for m in kish.legal_moves())


def test_black_man_crowns_on_the_first_rank() -> None:
    pos = _pos(side="B", white_men=["h8"], black_men=["c2"])
    moves = {format_move(m, TURKISH): m.promotes for m in pos.legal_moves()}
    assert moves == {"c2-c1": True, "c2-b2": False, "c2-d2": False}


def test_fen_round_trip() -> None:
    pos = _pos(side="B", white_men=["a2", "h7"], white_kings=["d4"], black_men=["e5"],
               black_kings=["a8"])
    fen = write_fen(pos)
    assert parse_fen(fen, TURKISH) == pos
    assert "Kd4" in fen and "Ka8" in fen


def test_move_text_matches() -> None:
    pos = _pos(white_kings=["a1"], black_men=["a4"])
    assert len(match_move(pos, "a1xa6")) == 1
    assert len(match_move(pos, "a1-a6")) == 1  # matched by squares; the separator is a finding
    assert match_move(pos, "a1xb2") == []


SAMPLE = """[Event "hand-made Turkish game"]
[GameType "30"]
[Result "*"]

1. e3-e4 f6-f5 2. b3-b4 f5-g5 3. f3-f4 a6-a5 4. a3-a4 a5xa1 5. b4-a4 a1xa6 6. e4-e5 e6xg4
7. c3-b3 a6-a3 8. d3-d4 a3xe1 9. d2-d3 e1-f1 10. d4-e4 *
"""


def test_a_turkish_game_validates() -> None:
    """The pydraughts Turkish sample game (a man crowned on a1 by a capture flies back as a
    king) validates clean through the PDN reader and validator."""
    [report] = list(pdnkit.validate(SAMPLE))
    assert report.variant == "turkish"
    assert report.replayed_plies == 19
    assert not report.errors()
    # a quiet move in place of Black's compulsory capture at ply 12 is caught
    bad = SAMPLE.replace("e6xg4", "h6-h5")
    [report] = list(pdnkit.validate(bad))
    # the missed capture stands (Turkish: FMJD 5.7 assumed) and the replay goes on past it
    assert [f for f in report.findings if f.code == "missed-capture"][0].ply == 12
    assert report.replayed_plies > 11
    [report] = list(pdnkit.validate(bad, irregular="stop"))
    [f] = [f for f in report.findings if f.code == "missed-capture"]
    assert f.ply == 12 and report.replayed_plies == 11


@pytest.mark.parametrize("rules", [TURKISH, KISH], ids=["default", "kish"])
def test_every_move_plays_and_the_side_alternates(rules: object) -> None:
    pos = Position.initial(rules)  # type: ignore[arg-type]
    for _ in range(30):
        legal = pos.legal_moves()
        if not legal:
            break
        pos = pos.play(legal[len(legal) // 2])
    assert sum(pos.counts().values()) <= 32


def test_pdnkit_variants_lists_turkish_and_breakthrough() -> None:
    import json

    from typer.testing import CliRunner

    from pdnkit.cli import app

    r = CliRunner().invoke(app, ["variants", "--format", "json"])
    assert r.exit_code == 0, r.output
    rows = {(row["name"], row["edition"]): row for row in json.loads(r.stdout)}
    turk = rows[("turkish", "default")]
    assert (turk["gametype_full"], turk["board"], turk["squares"]) == ("30,W,8,8,A0,0", "8x8", 64)
    assert turk["men_per_side"] == 16 and turk["kings"] == "flying orthogonal"
    assert turk["removal"] == "immediate" and "no 180-degree turn" in turk["captures"]
    assert rows[("turkish", "kish")]["promotion_during_capture"] == "pass"
    bt = rows[("breakthrough", "lidraughts")]
    assert bt["gametype"] == 96 and bt["wins_on_promotion"] is True
    table = CliRunner().invoke(app, ["variants"], terminal_width=240)
    assert "turkish" in table.stdout and "breakthrough" in table.stdout


@pytest.mark.parametrize(("variant", "gametype"), [("turkish", "30"), ("breakthrough", "96")])
def test_shared_sample_game_validates(variant: str, gametype: str) -> None:
    """The pydraughts sample game of the variant (../shared/data/positions), written as a PDN
    game with its GameType, validates with no error through the reader and the validator."""
    from tests.shared import shared_path

    path = shared_path("positions", "pydraughts_variant_games.tsv")
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines()
             if ln.startswith(variant + "\t")]
    [moves] = [ln.split("\t", 1)[1].split() for ln in lines]
    text = " ".join((f"{i // 2 + 1}. " if i % 2 == 0 else "") + m for i, m in enumerate(moves))
    [report] = list(pdnkit.validate(f'[GameType "{gametype}"]\n\n{text} *\n'))
    assert report.variant == variant and not report.errors()
    assert report.replayed_plies == len(moves)
    if variant == "breakthrough":  # the game ends when White's man reaches 4 and is crowned
        assert report.final_position.winner() is Color.WHITE
