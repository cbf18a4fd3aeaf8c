"""Player names as people write them (pdnkit.pdn.names): the cases archives hold, and the
rule's properties over generated names."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pdnkit.pdn.names import (
    PARTICLES,
    name_key,
    parse_name,
    same_player,
    spelling_key,
    transliterate,
)

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
    # pairs the shared real files hold (international, Russian, Czech collections)
    ("Gérard Jansen", "Jansen,G."),
    ("Heusdens, R.", "Ron Heusdens"),
    ("Aleks. Schwarzman", "Schwarzman,A."),
    ("Andall,A.", "Andall,A.K."),
    ("Tsjizjow,A.", "Alexei Chizhov"),         # a Dutch spelling of Чижов
    ("Boezjinski,E.", "Buzhinski,E"),          # ... of Бужинский
    ("Goeljaew", "Gulyaev"),                   # ... of Гуляев
    ("Weitsman,V.", "Veytsman,V"),
    ("Gantwarg", "Gantwarg,A."),               # a surname alone contradicts no initial
    ("Abatsiev", "Абациев Н."),
    ("Agafonof", "Агафонов"),                  # -ов written -of / -off
    ("Agafonoff, I.", "Agafonov, I."),
    ("Van Dijk", "Dijk, J. van"),              # particles and a surname: a surname alone
    ("SIJBRANDS Ton", "T. Sijbrands"),         # the surname in capitals, as FMJD lists write it
    ("Ton SIJBRANDS", "Sijbrands, Ton"),
    ("Юрий Аникин", "Joeri Anikin"),           # Ю as Dutch writes it
    ("Аникин Ю.", "J. Anikin"),                # ... and its initial: Ju, Yu, Iu
    ("Аникин Ю.", "Y. Anikin"),
    ("Карп Х.", "H. Karp"),                    # Х: Kh or H
    ("Е. Бужинский", "Yevgeny Buzhinsky"),     # Е: E or Ye
]
OTHER = [
    ("Tinsley, M.", "Tinsley, R."),            # initials that disagree
    ("Chizhov, Alexei", "Chizhov, Anatoli"),   # given names that disagree
    ("J. Akker", "van den Akker, J."),         # another surname (a particle more)
    ("Jan Smit", "Piet Smit"),
    ("Gerard", "Gerardo"),
    ("Абациев Н.", "Абдуллаев Н."),
    ("Milshin,A", "Milsjin,W."),               # one surname, initials that disagree
    ("Аникин Ю.", "A. Anikin"),                # Ю is never A
    ("Gerard", "Gerard Jansen"),               # a given name alone is not the surname
    ("Jansen, G.", "Jansen, H."),
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


_LETTERS = st.text(alphabet="abcdefghijklmnoprstuvz", min_size=3, max_size=9).filter(
    lambda w: w not in PARTICLES)  # "Della Reese" reads as "Van Dijk": particles and a surname


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


def test_a_surname_in_capitals_is_the_surname_wherever_it_stands() -> None:
    for text in ("SIJBRANDS Ton", "Ton SIJBRANDS", "Sijbrands, Ton", "Ton Sijbrands"):
        n = parse_name(text)
        assert n is not None and (n.surname, n.given) == ("sijbrands", ("ton",)), text
    n = parse_name("van den AKKER Jeroen")
    assert n is not None and (n.surname, n.given) == ("van den akker", ("jeroen",))
    assert parse_name("MF Tinsley").surname == "tinsley"  # type: ignore[union-attr]


_CYRILLIC = "абвгдежзиклмнопрстуфхцчшщюя"


@given(st.text(alphabet=_CYRILLIC, min_size=4, max_size=9),
       st.sampled_from(_CYRILLIC.replace("ъ", "").upper()))
def test_a_cyrillic_name_is_its_own_transliteration(sur: str, initial: str) -> None:
    """Every Cyrillic name matches its BGN/PCGN spelling, in either order and case, with the
    initial as BGN/PCGN writes it."""
    cyr = f"{sur.capitalize()} {initial}."
    latin = transliterate(f"{initial}. {sur.capitalize()}")
    assert same_player(cyr, latin) and same_player(latin.upper(), cyr)
    assert name_key(cyr) == name_key(latin)
