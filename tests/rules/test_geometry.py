"""Square numbering and coordinates as PDN 3.0 / the rulebooks define them (RULES.md 1.8)."""

from __future__ import annotations

import pytest

from pdnkit.rules import Geometry, get_rules


def _name(rules_name: str, n: int) -> str:
    f, r = get_rules(rules_name).geometry.square_to_coords(n)
    return "abcdefghijkl"[f] + str(r + 1)


def test_international_numbering() -> None:
    # FMJD 2.6: 1 = b10, 5 = j10, 6 = a9, 46 = a1, 50 = i1; long diagonal 5-46
    assert [_name("international", n) for n in (1, 5, 6, 46, 50)] == [
        "b10", "j10", "a9", "a1", "i1"]
    g = get_rules("international").geometry
    assert g.main_diagonal == (46, 41, 37, 32, 28, 23, 19, 14, 10, 5)
    assert g.promotion_squares(0) == frozenset(range(1, 6))
    assert g.promotion_squares(1) == frozenset(range(46, 51))


def test_english_and_lidraughts_8x8_numbering() -> None:
    # 1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1; main road 29 ... 4
    for v in ("english", "pool", "russian", "brazilian", "czech"):
        assert [_name(v, n) for n in (1, 4, 5, 29, 32)] == ["b8", "h8", "a7", "a1", "g1"]
    assert get_rules("russian").geometry.main_diagonal == (29, 25, 22, 18, 15, 11, 8, 4)


def test_italian_numbering_on_mirrored_board() -> None:
    # FID 2.4: 1 = a8, 4 = g8, 5 = b7, 29 = b1, 32 = h1
    assert [_name("italian", n) for n in (1, 4, 5, 29, 32)] == ["a8", "g8", "b7", "b1", "h1"]


@pytest.mark.parametrize("variant", ["spanish", "portuguese"])
def test_spanish_portuguese_numbering(variant: str) -> None:
    # 1 = h1, 4 = b1, 5 = g2, 32 = a8 (White on 1-12)
    assert [_name(variant, n) for n in (1, 4, 5, 32)] == ["h1", "b1", "g2", "a8"]
    assert get_rules(variant).geometry.main_diagonal == (1, 5, 10, 14, 19, 23, 28, 32)


def test_canadian_numbering() -> None:
    g = get_rules("canadian").geometry
    assert g.num_squares == 72
    assert g.square_to_coords(1) == (1, 11) and g.square_to_coords(67) == (0, 0)


@pytest.mark.parametrize("variant", ["international", "english", "italian", "spanish",
                                     "canadian"])
def test_coords_round_trip(variant: str) -> None:
    g = get_rules(variant).geometry
    seen = set()
    for n in range(1, g.num_squares + 1):
        f, r = g.square_to_coords(n)
        assert g.coords_to_square(f, r) == n
        seen.add((f, r))
    assert len(seen) == g.num_squares
    # light squares and off-board squares have no number
    dark = {(f, r) for f in range(g.width) for r in range(g.height)} - seen
    assert all(g.coords_to_square(f, r) is None for f, r in dark)
    assert g.coords_to_square(-1, 0) is None and g.coords_to_square(0, g.height) is None


def test_bad_squares() -> None:
    g = Geometry.get(8, 8)
    with pytest.raises(ValueError):
        g.square_to_coords(0)
    with pytest.raises(ValueError):
        g.square_to_coords(33)
