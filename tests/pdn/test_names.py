"""Player names as people write them (pdnkit.pdn.names): the cases archives hold, and the
rule's properties over generated names."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pdnkit.pdn.names import name_key, parse_name, same_player, spelling_key, transliterate

SAME = [
    ("Gérard", "Gerard"),                      # accents
    ("TINSLEY, Marion", "Tinsley, Marion"),    # case
    ("Tinsley, Marion", "M. Tinsley"),         # order and initials
    ("Tinsley, M.F.", "Marion Tinsley"),       # more initials than given names
    ("Абациев Н.", "Abatsiev N."),             # Cyrillic against BGN/PCGN
    ("Абациев Н.", "Abaciev N."),              # ... against ISO 9 / GOST
    ("Чижов А.", "Tschizhov A."),              # ... against a German spelling
    ("Щукин", "Schukin"),
    ("van den Akker, J.", "Jeroen van den Akker"),
    ("Sijbrands, T.", "Ton Sijbrands"),
    ("Alex Schwarzman", "Alexander Schwarzman"),
]
OTHER = [
    ("Tinsley, M.", "Tinsley, R."),            # initials that disagree
    ("Chizhov, Alexei", "Chizhov, Anatoli"),   # given names that disagree
    ("J. Akker", "van den Akker, J."),         # another surname (a particle more)
    ("Jan Smit", "Piet Smit"),
    ("Gerard", "Gerardo"),
    ("Абациев Н.", "Абдуллаев Н."),
]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_names_of_one_player_match(a: str, b: str) -> None:
    assert same_player(a, b) and same_player(b, a)
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize(("a", "b"), OTHER)
def test_names_of_two_players_do_not(a: str, b: str) -> None:
    assert not same_player(a, b) and not same_player(b, a)


def test_initials_after_the_surname_are_read_as_initials() -> None:
    n = parse_name("Абациев Н.")
    assert n is not None and n.initials == ("н",) and n.surname == "абациев"
    assert parse_name("Tinsley M.F.").initials == ("m", "f")  # type: ignore[union-attr]
    assert parse_name("Gerard") is None


def test_transliteration_follows_bgn_pcgn() -> None:
    # BGN/PCGN 1947: х kh, ц ts, ч ch, ш sh, щ shch, ж zh, ю yu, я ya
    assert transliterate("Хацкевич Щюжаня") == "Khatskevich Shchyuzhanya"


_LETTERS = st.text(alphabet="abcdefghijklmnoprstuvz", min_size=3, max_size=9)


@given(_LETTERS, _LETTERS)
def test_the_rule_is_symmetric_and_ignores_case_and_accents(sur: str, first: str) -> None:
    full = f"{first.capitalize()} {sur.capitalize()}"
    inverted = f"{sur.upper()}, {first[0].upper()}."
    accented = unicodedata.normalize("NFC", full.replace("e", "é"))
    assert same_player(full, inverted) and same_player(inverted, full)
    assert same_player(full, accented)
    assert spelling_key(full) == spelling_key(full.upper())


@given(_LETTERS, _LETTERS, _LETTERS)
def test_another_surname_is_another_player(sur: str, other: str, first: str) -> None:
    if spelling_key(sur) == spelling_key(other):
        return
    assert not same_player(f"{first.capitalize()} {sur.capitalize()}",
                           f"{first.capitalize()} {other.capitalize()}")
