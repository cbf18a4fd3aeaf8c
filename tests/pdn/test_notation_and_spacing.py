"""Notation read whatever its case, tags whatever their spacing, results whatever their dash:
points 1, 2 and the dashes of point 5 of the issue "The next exporters and the next attacks",
each from a snippet written for these tests in the style the exporters write."""

from __future__ import annotations

import random

import pytest

from pdnkit.pdn import read_games
from pdnkit.pdn.tags import game_tags
from pdnkit.validation import validate

# 1. a Russian program's export: files in upper case (GameType 25). The game, by hand:
# 1. c3-b4 f6-e5 2. b4-c5 d6xb4 (takes c5) 3. a3xc5 (takes b4): White has lost c3's man,
# Black d6's; White's a3 man stands on c5, Black's f6 man on e5, Black to move.
UPPER = ('[Event "Первенство клуба"]\n[White "Иванов"]\n[Black "Петров"]\n[GameType "25"]\n'
         '1. C3-B4 F6-E5 2. B4-C5 D6:B4 3. A3:C5 *\n')


def test_upper_case_squares_read_as_the_lower_case_game() -> None:
    (rec,) = read_games(UPPER)
    assert rec.parsed and [m.squares for m in rec.moves] == [
        ("c3", "b4"), ("f6", "e5"), ("b4", "c5"), ("d6", "b4"), ("a3", "c5")]
    assert [f.code for f in rec.findings] == ["strict-violation"]  # once a game
    (rep,) = validate(UPPER)
    assert rep.variant == "russian" and rep.replayed_plies == 5 and rep.status == "warning"
    assert [p.notation for p in rep.plies] == ["c3-b4", "f6-e5", "b4-c5", "d6:b4", "a3:c5"]
    assert rep.final_fen == next(validate(UPPER.lower())).final_fen
    pos = rep.final_position
    assert pos is not None and pos.counts() == {"white_men": 11, "white_kings": 0,
                                                "black_men": 11, "black_kings": 0}
    assert rep.final_fen.startswith("B:")  # Black to move
    # c5 (White's man from a3) and e5 (Black's man from f6), as numbers of the 8x8 board
    from pdnkit.rules import get_rules
    from pdnkit.rules.notation import parse_square

    r = get_rules("russian")
    assert pos.piece_at(parse_square(r, "c5"))[0] == 0 and pos.piece_at(parse_square(r, "e5"))[0] == 1
    assert pos.piece_at(parse_square(r, "a3")) is None and pos.piece_at(parse_square(r, "d6")) is None


def test_a_word_in_capitals_is_no_move() -> None:
    # one case per move: "Be4" or "A3-b4" are words, not moves
    rec = next(read_games("1. c3-b4 {Ba4 Black A3-b4} f6-e5 *"))
    assert [m.text for m in rec.moves] == ["c3-b4", "f6-e5"]


# 2. tag pairs with no space, several spaces or a tab between name and value, right before
# the moves (no blank line): the first game used to take the second game's players
SPACING = ('[Event"Club"]\n[White"Xander"]\n[Black"Yusuf"]\n1. 32-28 19-23 *\n\n'
           '[Event  "Club"]\n[White\t"Piet"]\n[Black \t "Quirijn"]\n1. 33-28 18-23 *\n\n'
           '[Event "Club"]\n[White "Roel"]\n[Black "Sem"]\n1. 31-27 17-21 *\n')


def test_a_tag_belongs_to_its_own_game_whatever_its_spacing() -> None:
    games = list(read_games(SPACING))
    assert [(game_tags(g).white, game_tags(g).black) for g in games] == [
        ("Xander", "Yusuf"), ("Piet", "Quirijn"), ("Roel", "Sem")]
    assert all(g.findings == [] for g in games)  # PDN's tokens need no space before "
    assert [len(g.moves) for g in games] == [2, 2, 2]


def test_doubled_brackets_keep_the_tag_with_a_warning() -> None:
    games = list(read_games('[[Event "Open"]\n[White "A"]]\n1. 32-28 *\n\n'
                            '[Event "Open"]\n[White "B"]\n1. 33-28 *\n'))
    assert [(g.tag("Event"), g.tag("White")) for g in games] == [("Open", "A"), ("Open", "B")]
    assert [f.code for f in games[0].findings] == ["unknown-tag-syntax"] * 2
    assert "'[' written 2 times" in games[0].findings[0].message
    assert games[1].findings == []


@pytest.mark.parametrize("seed", range(6))
def test_seeded_spacing_never_moves_a_tag_to_another_game(seed: int) -> None:
    rng = random.Random(seed)
    names = [("White", "W"), ("Black", "B"), ("Event", "E"), ("Site", "S"), ("Round", "R")]
    games, want = [], []
    for i in range(12):
        lines = []
        for name, v in names:
            gap = rng.choice(["", " ", "  ", "\t", " \t ", "    "])
            lines.append(f"[{name}{gap}\"{v}{i}\"]")
        sep = rng.choice(["\n", "\n\n"])
        games.append("\n".join(lines) + sep + f"1. 32-28 19-23 {rng.choice(['*', '2-0', '1-1'])}")
        want.append(tuple(f"{v}{i}" for _, v in names))
    text = rng.choice(["\n\n", "\n", "\n\n\n"]).join(games) + "\n"
    got = [tuple(game_tags(g).__getattribute__(f) for f in ("white", "black", "event", "site",
                                                            "round"))
           for g in read_games(text.encode())]
    assert got == want


# 5. results written with a typographic dash (a word processor's en dash, a non-breaking
# hyphen, a minus sign), as terminators and in the Result tag
DASHES = ('[Event "A"]\n1. 32-28 19-23 2\u20130\n\n'
          '[Event "B"]\n1. 32-28 19-23 0\u20112\n\n'
          '[Event "C"]\n1. 32-28 19-23 1\u20101\n\n'
          '[Event "D"]\n[Result "1\u22120"]\n1. 32-28 19-23 *\n\n'
          '[Event "E"]\n1. 32-28 19-23 \u00bd\u2013\u00bd\n\n'
          '[Event "F"]\n[FEN "W:WK1:B50"]\n1. 1\u201310 *\n')


def test_results_with_typographic_dashes_are_results() -> None:
    games = list(read_games(DASHES))
    assert [g.tag("Event") for g in games] == ["A", "B", "C", "D", "E", "F"]
    assert [g.result for g in games] == ["2\u20130", "0\u20112", "1\u20101", "*",
                                         "\u00bd\u2013\u00bd", "*"]
    assert [len(g.moves) for g in games] == [2, 2, 2, 2, 2, 1]  # a king's 1-10 stays a move
    reps = list(validate(DASHES, "international"))
    assert [r.result for r in reps] == ["1-0", "0-1", "1/2-1/2", "1-0", "1/2-1/2", "*"]
    assert all("illegal-move" not in r.finding_codes() for r in reps)
    assert [f.code for r in reps[:3] for f in r.findings if f.severity.rank >= 1] == [
        "strict-violation"] * 3  # a non-standard result token, read as meant
