"""Square names, move text and PDN 3.0 canonical capture notation.

Facts come from RULES.md 1.8 (square numbering per variant), the PDN 3.0 standard's
ambiguity example (section 4.2 items 8-9), and diagrams checked by hand.
"""

from __future__ import annotations

import pytest

from pdnkit.rules import get_rules, list_variants
from pdnkit.rules.notation import (
    NotationError,
    alphanumeric_name,
    canonical_notation,
    canonical_path,
    format_move,
    match_move,
    parse_move_text,
    parse_square,
    square_name,
    to_alphanumeric,
    to_numeric,
)

# (variant, square number, coordinate) straight from RULES.md 1.8
NUMBERING_FACTS = [
    ("international", 1, "b10"),
    ("international", 5, "j10"),
    ("international", 6, "a9"),
    ("international", 46, "a1"),
    ("international", 50, "i1"),
    ("frisian", 46, "a1"),
    ("frisian", 5, "j10"),
    ("english", 1, "b8"),
    ("english", 4, "h8"),
    ("english", 5, "a7"),
    ("english", 29, "a1"),
    ("english", 32, "g1"),
    ("pool", 1, "b8"),
    ("pool", 29, "a1"),
    # Russian / Brazilian numeric squares follow lidraughts (1 = b8, 29 = a1)
    ("russian", 1, "b8"),
    ("russian", 29, "a1"),
    ("russian", 32, "g1"),
    ("brazilian", 29, "a1"),
    ("czech", 29, "a1"),
    # Italian: mirrored board, 1 = a8 (Black's right-hand corner)
    ("italian", 1, "a8"),
    ("italian", 4, "g8"),
    ("italian", 5, "b7"),
    ("italian", 29, "b1"),
    ("italian", 32, "h1"),
    # Spanish / Portuguese: from White's bottom-right, right to left
    ("spanish", 1, "h1"),
    ("spanish", 4, "b1"),
    ("spanish", 5, "g2"),
    ("spanish", 32, "a8"),
    ("portuguese", 1, "h1"),
    ("portuguese", 32, "a8"),
    # Canadian 12x12: 6 squares a row, same scheme as 10x10
    ("canadian", 1, "b12"),
    ("canadian", 6, "l12"),
    ("canadian", 7, "a11"),
    ("canadian", 67, "a1"),
]


@pytest.mark.parametrize(("variant", "n", "coord"), NUMBERING_FACTS)
def test_numbering_facts(variant: str, n: int, coord: str) -> None:
    rules = get_rules(variant)
    assert alphanumeric_name(rules, n) == coord
    assert parse_square(rules, coord) == n
    assert parse_square(rules, coord.upper()) == n


def test_russian_main_road() -> None:
    """RULES.md 1.8: the long diagonal a1-h8 is 29, 25, 22, 18, 15, 11, 8, 4."""
    rules = get_rules("russian")
    names = [square_name(rules, n) for n in (29, 25, 22, 18, 15, 11, 8, 4)]
    assert names == ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"]


def test_long_diagonal_international() -> None:
    """RULES.md 1.8: the long diagonal joins 5 and 46."""
    rules = get_rules("international")
    assert alphanumeric_name(rules, 46) == "a1" and alphanumeric_name(rules, 5) == "j10"
    diag = [parse_square(rules, f"{'abcdefghij'[i]}{i + 1}") for i in range(10)]
    assert diag == [46, 41, 37, 32, 28, 23, 19, 14, 10, 5]


def test_english_formula() -> None:
    """RULES.md 1.8: n = 4*(8 - R) + f div 2 + 1 for a dark square (f 0..7, rank R 1..8)."""
    rules = get_rules("english")
    for rank in range(1, 9):
        for f in range(8):
            if (f + rank - 1) % 2 == 0:  # a1 dark
                coord = f"{'abcdefgh'[f]}{rank}"
                assert parse_square(rules, coord) == 4 * (8 - rank) + f // 2 + 1


def test_own_notation() -> None:
    assert square_name(get_rules("international"), 28) == "28"
    assert square_name(get_rules("english"), 32) == "32"
    assert square_name(get_rules("russian"), 22) == "c3"
    assert square_name(get_rules("czech"), 29) == "a1"


@pytest.mark.parametrize("rules", list_variants(), ids=lambda r: f"{r.name}-{r.edition}")
def test_round_trip_every_square(rules: object) -> None:
    n_sq = rules.geometry.num_squares  # type: ignore[attr-defined]
    names = set()
    for n in range(1, n_sq + 1):
        assert parse_square(rules, square_name(rules, n)) == n  # type: ignore[arg-type]
        coord = alphanumeric_name(rules, n)  # type: ignore[arg-type]
        assert parse_square(rules, coord) == n  # type: ignore[arg-type]
        assert parse_square(rules, f"0{n}") == n  # type: ignore[arg-type]
        names.add(coord)
    assert len(names) == n_sq


def test_leading_zeros() -> None:
    rules = get_rules("international")
    assert parse_square(rules, "06") == 6
    assert parse_square(rules, " 006 ") == 6


@pytest.mark.parametrize(
    ("variant", "text", "message"),
    [
        ("international", "51", "square 51 is off the 10x10 board"),
        ("international", "0", "square 0 is off the 10x10 board"),
        ("english", "33", "square 33 is off the 8x8 board"),
        ("international", "k1", "square k1 is off the 10x10 board"),
        ("russian", "a9", "square a9 is off the 8x8 board"),
        ("russian", "a2", "square a2 is not a playing square"),
        ("italian", "a1", "square a1 is not a playing square"),
        ("international", "x3", "off the 10x10 board"),
        ("international", "3a", "is not a square"),
        ("international", "", "is not a square"),
    ],
)
def test_bad_squares(variant: str, text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_square(get_rules(variant), text)


def test_notation_error_is_value_error() -> None:
    assert issubclass(NotationError, ValueError)


@pytest.mark.parametrize(
    ("variant", "numeric", "alpha"),
    [
        ("russian", "22-18", "c3-d4"),
        ("russian", "22:15", "c3:e5"),
        ("russian", "22:15:6", "c3:e5:c7"),
        ("brazilian", "23-19", "e3-f4"),  # 4*(8-3) + 4 div 2 + 1 = 23; 4*4 + 5 div 2 + 1 = 19
        ("international", "32-28", "d4-e5"),
        ("international", "28x19", "e5xg7"),
        ("english", "11-15", "f6-e5"),
        ("english", "22-18", "c3-d4"),
        ("italian", "21-17", "b3-a4"),
        ("spanish", "9-13", "h3-g4"),
    ],
)
def test_conversion_both_ways(variant: str, numeric: str, alpha: str) -> None:
    rules = get_rules(variant)
    assert to_alphanumeric(rules, numeric) == alpha
    assert to_numeric(rules, alpha) == numeric


def test_parse_move_text_forms() -> None:
    intl = get_rules("international")
    assert parse_move_text(intl, "32-28") == ((32, 28), False)
    assert parse_move_text(intl, "28x19") == ((28, 19), True)
    assert parse_move_text(intl, "28X19") == ((28, 19), True)
    assert parse_move_text(intl, "28:19") == ((28, 19), True)
    assert parse_move_text(intl, "01-06") == ((1, 6), False)
    assert parse_move_text(intl, "1 - 7") == ((1, 7), False)
    assert parse_move_text(intl, "32\u201328") == ((32, 28), False)
    assert parse_move_text(intl, "3228") == ((32, 28), False)
    assert parse_move_text(intl, "32-28!?") == ((32, 28), False)
    assert parse_move_text(intl, "47x38x24x13x36") == ((47, 38, 24, 13, 36), True)
    russian = get_rules("russian")
    assert parse_move_text(russian, "a3b4") == ((21, 17), False)
    assert parse_move_text(russian, "c3:e5:c7") == ((22, 15, 6), True)
    with pytest.raises(NotationError):
        parse_move_text(intl, "32-")
    with pytest.raises(NotationError):
        parse_move_text(intl, "hello")
    with pytest.raises(NotationError, match="off the 10x10 board"):
        parse_move_text(intl, "32-51")


# ----------------------------------------------------------------- with the engine


def _pos(variant: str, fen: str):  # type: ignore[no-untyped-def]
    from pdnkit.rules import parse_fen

    return parse_fen(fen, get_rules(variant))


def test_format_move_international() -> None:
    """FMJD 4.2: a man on 28 takes 23 and lands on 19; 4.5 continuation 15x24x13x2."""
    pos = _pos("international", "W:W28,32:B23")
    [m] = pos.legal_moves()
    assert format_move(m, pos.rules) == "28x19"
    pos = _pos("international", "W:W15:B8,19,20")
    [m] = pos.legal_moves()
    assert format_move(m, pos.rules) == "15x2"
    assert format_move(m, pos.rules, full_path=True) == "15x24x13x2"
    assert canonical_notation(m, pos) == "15x2"


def test_format_move_quiet() -> None:
    pos = _pos("international", "W:W28")
    assert sorted(format_move(m, pos.rules) for m in pos.legal_moves()) == ["28-22", "28-23"]


def test_format_move_russian() -> None:
    from pdnkit.rules import Position

    pos = Position.initial(get_rules("russian"))
    texts = {format_move(m, pos.rules) for m in pos.legal_moves()}
    # White's first moves in Russian draughts: a3-b4, c3-b4, c3-d4, e3-d4, e3-f4, g3-f4, g3-h4
    assert texts == {"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}
    pos = _pos("russian", "W:Wc3:Bd4")
    [m] = pos.legal_moves()
    assert format_move(m, pos.rules) == "c3:e5"


def test_format_move_english_first_moves() -> None:
    """English: Black moves first from 9-12; the seven opening moves 9-13, 9-14, 10-14, ..."""
    from pdnkit.rules import Position

    pos = Position.initial(get_rules("english"))
    texts = {format_move(m, pos.rules) for m in pos.legal_moves()}
    assert texts == {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}


def test_canonical_pdn30_example() -> None:
    """PDN 3.0 4.2 items 8-9: 47x36 is ambiguous; write 47x38x24x13x36 or 47x38x20x9x36."""
    pos = _pos("international", "W:WK47:B14,19,29,31,42")
    legal = pos.legal_moves()
    to36 = [m for m in legal if m.origin == 47 and m.destination == 36]
    assert len(to36) == 2
    texts = {canonical_notation(m, pos) for m in to36}
    assert texts == {"47x38x24x13x36", "47x38x20x9x36"}
    assert "47x33x24x13x36" not in texts and "47x24x36" not in texts
    for m in to36:
        assert canonical_path(m, pos.rules)[0] == 47
        assert canonical_notation(m, pos, legal) == canonical_notation(m, pos)


def test_match_move_pdn30_example() -> None:
    pos = _pos("international", "W:WK47:B14,19,29,31,42")
    assert len(match_move(pos, "47x36")) == 2  # ambiguous
    [a] = match_move(pos, "47x38x24x13x36")
    [b] = match_move(pos, "47x38x20x9x36")
    assert set(a.captured) != set(b.captured)
    assert set(a.captured) == {42, 29, 19, 31} or set(b.captured) == {42, 29, 19, 31}
    # a flying king may be read at any square it crossed: 47x20x36 names one route, but
    # 47x24x36 fits both (the second route crosses 24 on its way to 20), which is why
    # PDN 3.0 does not allow writing it
    assert match_move(pos, "47x20x36") == [b]
    assert len(match_move(pos, "47x24x36")) == 2
    assert match_move(pos, "47x37") == []


def test_match_move_captured_squares_listed() -> None:
    """Hub style: captured squares listed after origin and destination."""
    pos = _pos("international", "W:W15:B8,19,20")
    [m] = pos.legal_moves()
    assert match_move(pos, "15x2") == [m]
    assert match_move(pos, "15x24x13x2") == [m]
    assert match_move(pos, "15x2x20x19x8") == [m]
    assert match_move(pos, "15x2x8x20x19") == [m]
    assert match_move(pos, "15x20x19x8x2") == [m]
    assert match_move(pos, "15x2x8") == []


def test_canonical_russian_free_choice() -> None:
    """pydraughts test_ambiguous_moves: f8:b4 and f8:h6:f4:d6:b4 share origin and destination."""
    pos = _pos("russian", "W:We3,g3,h4,a5,b2,h2,a3,Kf8:Bc5,e5,g5,g7,h8")
    legal = pos.legal_moves()
    texts = {canonical_notation(m, pos, legal) for m in legal}
    assert texts == {"f8:b4", "f8:h6:f4:d6:b4", "h4:b6"}


def test_square_names_table_matches_square_name() -> None:
    from pdnkit.rules.notation import square_names

    for v in list_variants():
        rules = get_rules(v)
        names = square_names(rules)
        n = int(rules.geometry.num_squares)
        assert len(names) == n + 1
        assert [names[i] for i in range(1, n + 1)] == [square_name(rules, i)
                                                        for i in range(1, n + 1)]
    # Russian: square 1 is b8, square 29 is a1 (coordinates, RULES.md 4.5)
    assert square_names(get_rules("russian"))[1] == "b8"


def test_canonical_lone_capture_and_quiet_moves_are_short() -> None:
    """A forced capture (the only legal move) and quiet moves take the short form, whether
    the legal moves are passed or not."""
    pos = _pos("international", "W:W28,32:B23")
    [m] = pos.legal_moves()
    assert canonical_notation(m, pos) == canonical_notation(m, pos, [m]) == "28x19"
    quiet = _pos("english", "B:W21,22:B9,10")
    assert sorted(canonical_notation(q, quiet) for q in quiet.legal_moves()) == [
        "10-14", "10-15", "9-13", "9-14"]
