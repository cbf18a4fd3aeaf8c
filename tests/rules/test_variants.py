"""Variant records: lookup by name, alias, GameType; rule fields from the rulebooks."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdnkit.rules import Color, Position, UnknownVariantError, get_rules, list_variants


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("international", "international"), (20, "international"), ("20", "international"),
        ("20,W,10,10,N2,0", "international"), ("20,W,10,10,N1,0", "international"),
        ("draughts", "international"), ("10x10", "international"), ("checkers", "english"),
        ("21", "english"), ("shashki", "russian"), ("25,W,8,8,A0,0", "russian"),
        ("dama", "italian"), ("22", "italian"), ("23", "pool"), ("23,W,8,8,A0,0", "pool"),
        ("24", "spanish"), ("26", "brazilian"), ("27", "canadian"), ("28", "portuguese"),
        ("29", "czech"), ("40", "frisian"), ("98", "antidraughts"), ("97", "frysk"),
        ("Russian Giveaway", "giveaway"), ("poddavki", "giveaway"), ("31", "thai"),
        (" International_Draughts ", "international"),
    ],
)
def test_lookup(query: str | int, name: str) -> None:
    assert get_rules(query).name == name


@pytest.mark.parametrize("bad", ["chess", "0", 0, "", "99,W,8,8,A0,0", True, None])
def test_unknown(bad: object) -> None:
    with pytest.raises(UnknownVariantError):
        get_rules(bad)  # type: ignore[arg-type]
    assert issubclass(UnknownVariantError, ValueError)


def test_editions() -> None:
    eda = get_rules("english")
    wcdf = get_rules("english", edition="wcdf")
    assert eda.edition == "eda-1991"
    rep = {r.kind: r for r in wcdf.draw_rules}
    assert rep["repetition"].limit == 3 and rep["counter"].limit == 80  # WCDF 1.32.1/1.32.2
    rep = {r.kind: r for r in eda.draw_rules}
    assert rep["repetition"].limit == 4 and rep["counter"].limit == 100  # EDA 1991
    assert not any(r.automatic for r in wcdf.draw_rules)  # claims
    assert get_rules("brazilian").edition == "cbd"
    assert get_rules("brazilian", "lidraughts").draw_rules == get_rules("russian").draw_rules
    with pytest.raises(UnknownVariantError):
        get_rules("english", edition="nope")


def test_first_movers_and_setups() -> None:
    # English and pool: Black (1-12) moves first; others White
    for v in list_variants(editions=False):
        expected = Color.BLACK if v.name in ("english", "pool", "thai") else Color.WHITE
        assert v.first_mover == expected, v.name
    sp = Position.initial(get_rules("spanish"))
    assert sp.white_men == frozenset(range(1, 13)) and sp.black_men == frozenset(range(21, 33))
    intl = Position.initial(get_rules("international"))
    assert intl.black_men == frozenset(range(1, 21)) and intl.white_men == frozenset(range(31, 51))
    can = Position.initial(get_rules("canadian"))
    assert can.black_men == frozenset(range(1, 31)) and can.white_men == frozenset(range(43, 73))
    it = Position.initial(get_rules("italian"))
    assert it.black_men == frozenset(range(1, 13)) and it.white_men == frozenset(range(21, 33))


def test_fmjd_draw_rules_in_plies() -> None:
    by = {r.name: r for r in get_rules("international").draw_rules}
    assert by["fmjd-6.1"].limit == 3 and by["fmjd-6.2"].limit == 50
    assert by["fmjd-6.3"].limit == 32 and by["fmjd-6.4"].limit == 10
    assert all(r.automatic for r in by.values())
    assert not [r for r in get_rules("frisian").draw_rules if r.kind == "repetition"]


def test_material_names_exist_in_draw_module() -> None:
    from pdnkit.rules import draw, material  # the conditions live in material.py

    names = {r.material for v in list_variants() for r in v.draw_rules}
    text = Path(material.__file__).read_text(encoding="utf-8")
    for n in names:
        assert f'"{n}"' in text, n
        assert n in draw.MATERIAL_CONDITIONS, n


def test_describe_rows() -> None:
    rows = [v.describe() for v in list_variants()]
    assert all({"name", "gametype", "board", "captures", "draw_rules"} <= set(r) for r in rows)
    intl = get_rules("international").describe()
    assert intl["men_per_side"] == 20 and intl["kings"] == "flying"
    assert get_rules("english").describe()["kings"] == "short"


def test_rules_are_frozen() -> None:
    r = get_rules("russian")
    with pytest.raises(AttributeError):
        r.flying_kings = False  # type: ignore[misc]
