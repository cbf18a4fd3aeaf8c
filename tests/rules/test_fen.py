"""FEN reading and writing (PDN 3.0 section 10, RULES.md 1.4)."""

from __future__ import annotations

import json

import pytest

from pdnkit.rules import Color, FenError, get_rules, parse_fen, parse_fen_info, write_fen
from pdnkit.rules.fen import split_fen
from tests.shared import shared_path

INTL = "international"


def _sets(pos: object) -> tuple[list[int], list[int], list[int], list[int]]:
    return (
        sorted(pos.white_men),  # type: ignore[attr-defined]
        sorted(pos.white_kings),  # type: ignore[attr-defined]
        sorted(pos.black_men),  # type: ignore[attr-defined]
        sorted(pos.black_kings),  # type: ignore[attr-defined]
    )


# ------------------------------------------------------------------ syntax (no variant)


def test_split_ranges_and_kings() -> None:
    """PDN 3.0 10: W:W31,32,K33-35:B1-20 = white men 31, 32, kings 33-35; black men 1-20."""
    raw = split_fen("W:W31,32,K33-35:B1-20")
    assert raw.side == "W"
    assert raw.white == (("31", False), ("32", False), ("33", True), ("34", True), ("35", True))
    assert [int(s) for s, _ in raw.black] == list(range(1, 21))


def test_split_extras() -> None:
    raw = split_fen("W:W31-50:B1-20:H7:F12")
    assert (raw.halfmove, raw.fullmove, raw.counters) == (7, 12, None)
    raw = split_fen("W:W31-50:B1-20:H0:F1:+0+0")
    assert raw.counters == ((0, 0), (0, 0))


def test_split_null_move_setup() -> None:
    """PDN 3.0 5.2: /FEN "B::"/ switches the side to move without listing pieces."""
    raw = split_fen("B::")
    assert (raw.side, raw.white, raw.black) == ("B", (), ())


def test_split_frisian_counters_black_first() -> None:
    """lidraughts writes the king-move counters black first: +<n><sq>+<n><sq>."""
    raw = split_fen("W:WK33,40:BK10,20:H3:F30:+210+133")
    assert raw.counters == ((33, 1), (10, 2))


# ------------------------------------------------------------------ reading positions


def test_initial_international_by_ranges() -> None:
    pos = parse_fen("W:W31-50:B1-20", get_rules(INTL))
    assert _sets(pos) == (list(range(31, 51)), [], list(range(1, 21)), [])
    assert pos.side == Color.WHITE


def test_kings_before_range() -> None:
    pos = parse_fen("W:W31,32,K33-35:B1-20", get_rules(INTL))
    assert _sets(pos)[:2] == ([31, 32], [33, 34, 35])


def test_trailing_dot_spaces_order_zeros() -> None:
    rules = get_rules(INTL)
    ref = parse_fen("B:W31,32,K46:B5,12", rules)
    for text in (
        "B:W31,32,K46:B5,12.",
        "  B : W32 , 31, K46 : B12,05 ",
        "B:B12,5:W46K,31,32".replace("46K", "K46"),
        "B:B05,12:WK046,031,32",
        '"B:W31,32,K46:B5,12"',
    ):
        assert parse_fen(text, rules).key() == ref.key(), text


def test_empty_colour_fields() -> None:
    rules = get_rules(INTL)
    pos = parse_fen("W:W:B1,2", rules)
    assert _sets(pos) == ([], [], [1, 2], [])
    pos = parse_fen("B:W50:B", rules)  # py-draughts issue #28
    assert _sets(pos) == ([50], [], [], [])
    assert pos.side == Color.BLACK
    pos = parse_fen("B:W50", rules)  # one colour missing altogether
    assert _sets(pos) == ([50], [], [], [])


def test_unknown_side() -> None:
    """wiegerw/pdn games/succeed/fen.pdn: '?' as side to move; assume the first mover."""
    info = parse_fen_info("?:W29,13,11:B22,4,2", get_rules("english"))
    assert not info.side_known
    assert info.position.side == Color.BLACK  # English: Black moves first
    info = parse_fen_info("?:W31-50:B1-20", get_rules(INTL))
    assert not info.side_known and info.position.side == Color.WHITE
    assert parse_fen_info("B:W31-50:B1-20", get_rules(INTL)).side_known


def test_lidraughts_fields() -> None:
    info = parse_fen_info("W:W31-50:B1-20:H0:F1", get_rules(INTL))
    assert (info.halfmove, info.fullmove) == (0, 1)
    info = parse_fen_info("B:W26,32:B1,2,3:H12:F40", get_rules(INTL))
    assert (info.halfmove, info.fullmove) == (12, 40)
    assert info.frisian_counters is None


def test_frisian_counters() -> None:
    info = parse_fen_info("W:WK33,40,45:BK10,20,3:H3:F30:+210+133", get_rules("frisian"))
    assert info.frisian_counters == ((33, 1), (10, 2))
    assert info.position.king_moves == ((33, 1), (10, 2))
    assert sorted(info.position.white_kings) == [33]
    assert sorted(info.position.black_kings) == [10]


def test_ghost_pieces_dropped() -> None:
    """lidraughts G/P: pieces already jumped mid-capture; gone once the move is over."""
    pos = parse_fen("W:W28,G23:B19,P14", get_rules(INTL))
    assert _sets(pos) == ([28], [], [19], [])


def test_alphanumeric_for_alphanumeric_variant() -> None:
    """RULES.md 1.4: W:Wa1,c1,Kd4:Bb8,Kh2 style FENs; Russian numbers per lidraughts."""
    rules = get_rules("russian")
    pos = parse_fen("W:Wa1,c1,Kd4:Bb8,Kh2", rules)
    assert _sets(pos) == ([29, 30], [18], [1], [28])
    same = parse_fen("W:W29,30,K18:B1,K28", rules)  # lidraughts numeric squares
    assert same.key() == pos.key()


def test_alphanumeric_for_numeric_variant() -> None:
    pos = parse_fen("W:Wa1,Kj10:Bb10", get_rules(INTL))
    assert _sets(pos) == ([46], [5], [1], [])


def test_legacy_repeated_side_token() -> None:
    """py-draughts' old "W:B:W...:B..." FENs: the second token is the side to move (the
    source test of misc_rule_positions.json plays Black's 50x39x22x36 from it)."""
    rules = get_rules(INTL)
    pos = parse_fen("W:B:WK2,28,31,44:B20,K50", rules)
    assert pos.side == Color.BLACK
    assert _sets(pos) == ([28, 31, 44], [2], [20], [50])
    assert parse_fen("B:B:W31,32:B2,3", rules).side == Color.BLACK


def test_pdn20_english() -> None:
    """PDN 2.0 example FEN: B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29."""
    pos = parse_fen("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29", get_rules("english"))
    assert _sets(pos) == ([18, 24, 27, 28], [10, 15], [12, 16, 20], [22, 25, 29])
    assert pos.side == Color.BLACK


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    ("variant", "text", "message"),
    [
        (INTL, "W:W51:B1", "square 51 is off the 10x10 board"),
        (INTL, "W:W0:B1", "square 0 is off the 10x10 board"),
        (INTL, "W:W45-51:B1", "square 51 is off the 10x10 board"),
        ("english", "B:W33:B1", "square 33 is off the 8x8 board"),
        (INTL, "W:W28,28:B1", "square 28 is listed twice"),
        (INTL, "W:W28:B28", "square 28 is listed twice"),
        (INTL, "W:W28,K28", "square 28 is listed twice"),
        (INTL, "W:W25-30:B30", "square 30 is listed twice"),
        ("russian", "W:Wc3,c3", "square c3 is listed twice"),
        ("russian", "W:Wc3:B22", "square c3 is listed twice"),
        (INTL, "X:W31:B1", "bad colour 'X' at position 0"),
        (INTL, "W:W31:X1", "bad colour 'X' at position 6"),
        (INTL, "W31-50:B1-20", "position 0"),
        (INTL, "", "empty FEN"),
        (INTL, "W:W3a:B1", "bad square '3a'"),
        (INTL, "W:W50-31", "bad square range '50-31'"),
        (INTL, "W:Wk1:B1", "square k1 is off the 10x10 board"),
        ("russian", "W:Wa2", "square a2 is not a playing square"),
        # men on the row where they would have been crowned (RULES.md 2.0 "Promotion")
        (INTL, "W:W3:B40", "white man on 3 stands on its promotion row"),
        (INTL, "B:W40:B48", "black man on 48 stands on its promotion row"),
        ("english", "B:W1:B12", "white man on 1 stands on its promotion row"),
        ("english", "B:W21:B30", "black man on 30 stands on its promotion row"),
        ("russian", "W:Wd8:Ba1", "white man on d8"),
        ("spanish", "W:W30:B20", "white man on 30"),  # Spanish White promotes on 29-32
        ("italian", "W:W1:B20", "white man on 1"),
    ],
)
def test_errors(variant: str, text: str, message: str) -> None:
    with pytest.raises(FenError, match=message):
        parse_fen(text, get_rules(variant))


def test_fen_error_is_value_error() -> None:
    assert issubclass(FenError, ValueError)


def test_kings_on_promotion_row_are_fine() -> None:
    pos = parse_fen("W:WK3:BK48", get_rules(INTL))
    assert _sets(pos) == ([], [3], [], [48])
    # men on their own back row are fine too
    pos = parse_fen("W:W46:B5", get_rules(INTL))
    assert _sets(pos) == ([46], [], [5], [])


# ------------------------------------------------------------------ writing


def test_write_pdn30() -> None:
    rules = get_rules(INTL)
    assert write_fen(parse_fen("W:W31-50:B1-20.", rules)) == (
        "W:W" + ",".join(map(str, range(31, 51))) + ":B" + ",".join(map(str, range(1, 21)))
    )
    assert write_fen(parse_fen("B:WK46,32,31:B12,05", rules)) == "B:W31,32,K46:B5,12"
    assert write_fen(parse_fen("?:W:B1,2", rules)) == "W:W:B1,2"


def test_write_alphanumeric() -> None:
    from pdnkit.rules import Position

    rules = get_rules("russian")
    text = write_fen(Position.initial(rules))
    assert text == (
        "W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8"
    )
    assert write_fen(parse_fen("B:W29,30,K18:B1,K28", rules)) == "B:Wa1,c1,Kd4:Bb8,Kh2"


def test_write_initial_english() -> None:
    from pdnkit.rules import Position

    text = write_fen(Position.initial(get_rules("english")))
    assert text == "B:W" + ",".join(map(str, range(21, 33))) + ":B" + ",".join(
        map(str, range(1, 13))
    )


def _normalise(text: str) -> str:
    """The expected PDN 3.0 form of a numeric FEN without ranges: sorted, kings inline,
    colour fields merged (py-draughts writes "B:B:W...:B..."), ghost pieces dropped."""
    side, *fields = text.split(":")
    out = [side]
    for colour in "WB":
        toks = [t for f in fields if f.startswith(colour) for t in f[1:].split(",") if t]
        toks = [t for t in toks if t[0] not in "GP"]  # lidraughts ghosts are dropped
        toks.sort(key=lambda t: int(t.lstrip("K")))
        out.append(colour + ",".join(toks))
    return ":".join(out)


def test_round_trip_random_positions() -> None:
    data = json.loads(shared_path("positions", "random_positions.json").read_text())
    rules = get_rules(INTL)
    assert len(data["positions"]) > 20
    for text in data["positions"]:
        pos = parse_fen(text, rules)
        written = write_fen(pos)
        assert written == _normalise(text)
        assert parse_fen(written, rules).key() == pos.key()


def test_round_trip_rule_positions() -> None:
    """Every FEN in the rule-position files reads, writes and reads back to the same position."""
    names = {"standard": INTL}
    seen = 0
    for fname in ("pydraughts_expectations.json", "misc_rule_positions.json"):
        data = json.loads(shared_path("positions", fname).read_text())
        for entry in data["positions"]:
            rules = get_rules(names.get(entry["variant"], entry["variant"]))
            pos = parse_fen(entry["fen"], rules)
            again = parse_fen(write_fen(pos), rules)
            assert again.key() == pos.key() and again.side == pos.side
            seen += 1
    data = json.loads(shared_path("positions", "dctl_rulebook_international.json").read_text())
    for entry in data["positions"]:
        pos = parse_fen(entry["fen"], get_rules(INTL))
        assert parse_fen(write_fen(pos), get_rules(INTL)).key() == pos.key()
        seen += 1
    assert seen > 30


def test_pdn30_standard_fen_cases() -> None:
    """The PDN 3.0 standard's games/succeed/fen.pdn: every FEN tag reads."""
    import re

    text = shared_path("syntax", "succeed", "fen.pdn").read_text(encoding="utf-8")
    fens = re.findall(r'\[FEN "([^"]*)"\]', text)
    assert len(fens) >= 3
    rules = get_rules(INTL)
    for fen in fens:
        pos = parse_fen(fen, rules)
        assert sum(pos.counts().values()) > 0
    info = parse_fen_info("?:W29,13,11:B22,4,2", rules)
    assert not info.side_known and _sets(info.position) == ([11, 13, 29], [], [2, 4, 22], [])


def test_positions_and_rules_pickle_compactly() -> None:
    """A position pickles as its rules' name and its bitboards, and comes back equal, with
    the registered rules object itself; a hand-made rules record pickles by value."""
    import dataclasses
    import pickle

    from pdnkit.rules import Position, list_variants

    for rules in list_variants():
        p = Position.initial(rules)
        data = pickle.dumps(p)
        q = pickle.loads(data)
        assert q == p and q.rules is rules and len(data) < 400
        assert [m.origin for m in q.legal_moves()] == [m.origin for m in p.legal_moves()]
    custom = dataclasses.replace(get_rules("russian"), title="house rules")
    back = pickle.loads(pickle.dumps(custom))
    assert back == custom and back is not custom and back.title == "house rules"
