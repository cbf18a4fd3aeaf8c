"""Player names as people write them: one normalisation for matching.

Archives write one player many ways: ``Gérard`` and ``Gerard`` (accents), ``TINSLEY`` and
``Tinsley`` (case), ``Tinsley, Marion``, ``M. Tinsley`` and ``Tinsley, M.F.`` (order and
initials), ``van den Akker, J.`` and ``Jeroen van den Akker`` (particles), ``Абациев Н.`` and
``Abatsiev N.`` (Cyrillic and its Latin transliterations). :func:`parse_name` reads a name into
a :class:`PersonName` (surname with its particles, initials, given names written in full), and
:func:`same_player` says whether two names *can* stand for the same person: the same surname
once spelled alike (:func:`spelling_key`), initials of which one is the start of the other,
and no full given name that disagrees. It is the one rule that player suggestions, the
``--match`` filters and the duplicate rule read.

Spelling alike (:func:`spelling_key`): case and accents dropped (Unicode NFKD), Cyrillic
written in Latin by the BGN/PCGN 1947 table for Russian (with the Ukrainian and Belarusian
letters), and the differences between the common transliteration systems (BGN/PCGN, ISO 9,
GOST 7.79, the German and French ones) folded: ``ts``/``tz``/``c``, ``kh``/``ch``/``h``,
``zh``/``j``, ``sh``/``sch``/``ch``, ``yu``/``ju``/``iu``, ``ya``/``ja``/``ia``, ``w``/``v``,
doubled letters.

Example:
    >>> same_player("Tinsley, Marion", "M. Tinsley"), same_player("Gérard", "Gerard")
    (True, True)
    >>> same_player("Абациев Н.", "Abatsiev N."), same_player("Tinsley, M.", "Tinsley, R.")
    (True, False)
    >>> parse_name("van den Akker, J.").surname
    'van den akker'
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["PARTICLES", "PersonName", "name_key", "parse_name", "same_player", "spelling_key",
           "transliterate"]

#: surname particles (lower case): "van den" Akker, "de" Jong, "ter" Horst ...
PARTICLES = frozenset({"van", "von", "vom", "der", "den", "de", "del", "della", "degli", "di",
                       "da", "das", "dos", "do", "du", "des", "la", "le", "ter", "ten", "te",
                       "'t", "t'", "op", "het", "zu", "zum", "zur", "af", "av"})

#: Cyrillic to Latin, BGN/PCGN 1947 for Russian (context rules left out: the folding of
#: :func:`spelling_key` makes ``ye``/``e`` and ``yi``/``i`` alike), with Ukrainian і ї є ґ
#: and Belarusian ў
_CYRILLIC = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh",
    "з": "z", "и": "i", "й": "y", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o",
    "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f", "х": "kh", "ц": "ts",
    "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu",
    "я": "ya", "і": "i", "ї": "yi", "є": "ye", "ґ": "g", "ў": "w",
}
_CYRILLIC_TABLE = str.maketrans({**_CYRILLIC, **{k.upper(): v.capitalize()
                                                 for k, v in _CYRILLIC.items()}})

#: spellings folded to one (order matters: longer first); applied to lower-case ASCII. Beside
#: BGN/PCGN, ISO 9 and GOST 7.79: the German (``tsch``, ``sch``, ``w``), French (``ou``,
#: ``ch``) and Dutch (``tsj``, ``sj``, ``zj``, ``oe``, ``joe``: Tsjizjow is Chizhov,
#: Boezjinski Buzhinski, Goeljaew Gulyaev) spellings of Russian names
_FOLDS: tuple[tuple[str, str], ...] = (
    ("shch", "s"), ("tsch", "c"), ("tsj", "c"), ("sch", "s"), ("tch", "c"), ("sh", "s"),
    ("sj", "s"), ("ch", "c"), ("zh", "j"), ("zj", "j"), ("kh", "h"), ("tz", "c"), ("ts", "c"),
    ("cz", "c"), ("ck", "k"), ("ph", "f"), ("th", "t"), ("w", "v"), ("x", "ks"), ("q", "k"),
    ("joe", "iu"), ("yu", "iu"), ("ju", "iu"), ("ya", "ia"), ("ja", "ia"), ("ye", "ie"),
    ("je", "ie"), ("yo", "io"), ("jo", "io"), ("iy", "i"), ("yi", "i"), ("ij", "i"),
    ("y", "i"), ("ou", "u"), ("oe", "u"), ("ii", "i"),
)
#: a Russian surname's ending -ов/-ев as German, French and Dutch lists write it (-off, -of):
#: Agafonoff, Agafonof and Agafonov are one name
_FINAL_F = re.compile(r"([oe])f$")
_FOLD_RE = re.compile("|".join(re.escape(a) for a, _ in _FOLDS))
_FOLD_MAP = dict(_FOLDS)
_SPLIT = re.compile(r"[\s.]+")


def transliterate(text: str) -> str:
    """Cyrillic letters written in Latin (BGN/PCGN); every other character as it is.

    Example:
        >>> transliterate("Абациев Н."), transliterate("Щукин")
        ('Abatsiev N.', 'Shchukin')
    """
    return text.translate(_CYRILLIC_TABLE)


@lru_cache(maxsize=65536)
def spelling_key(word: str) -> str:
    """A word as matching compares it: Latin letters, lower case, no accents, the
    transliteration systems' differences folded, doubled letters single.

    Example:
        >>> spelling_key("Абациев"), spelling_key("Abatsiev"), spelling_key("Abaziev")
        ('abaciev', 'abaciev', 'abaziev')
        >>> spelling_key("Gérard") == spelling_key("GERARD")
        True
    """
    text = unicodedata.normalize("NFKD", transliterate(word))
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    text = "".join(ch for ch in text if ch.isalnum())
    text = _FOLD_RE.sub(lambda m: _FOLD_MAP[m.group(0)], text)
    return _FINAL_F.sub(r"\1v", re.sub(r"(.)\1+", r"\1", text))


@dataclass(frozen=True)
class PersonName:
    """A name read by :func:`parse_name`: ``text`` as written, ``surname`` (lower case, with
    its particles), ``initials`` (lower case, in order), ``given`` (the given names written in
    full, lower case).

    Example:
        >>> parse_name("M F Tinsley")
        PersonName(text='M F Tinsley', surname='tinsley', initials=('m', 'f'), given=())
    """

    text: str
    surname: str
    initials: tuple[str, ...]
    given: tuple[str, ...]

    @property
    def surname_key(self) -> str:
        """The surname as :func:`spelling_key` compares it, particles included (``de Vries``
        and ``Vries`` are two surnames)."""
        return spelling_key(self.surname)


def _is_particle(token: str) -> bool:
    """A surname particle (``van``, ``den`` ...), never an initial such as ``D``."""
    return len(token) > 1 and token.lower() in PARTICLES


def _split_comma(t: str) -> tuple[list[str], str, list[str]]:
    """``Surname, [particles,] given names [particles]``: particles, surname, given tokens."""
    head, _, rest = t.partition(",")
    words = head.split()
    lead = []
    while len(words) > 1 and _is_particle(words[0]):  # "van den Akker, J."
        lead.append(words.pop(0))
    tokens = [x for x in _SPLIT.split(rest.replace(",", " ")) if x]
    particles = lead + [x for x in tokens if _is_particle(x)]
    return particles, " ".join(words), [x for x in tokens if not _is_particle(x)]


def _split_spaces(t: str) -> tuple[list[str], str, list[str]] | None:
    """``given names [particles] surname`` or ``Surname I.`` (initials after the surname, as
    Russian and Dutch lists write them): particles, surname, given tokens."""
    tokens = [x for x in re.split(r"\s+", t) if x]
    if len(tokens) < 2:
        return None
    caps = _caps_surname(tokens)
    if caps is not None:
        return caps
    tail = tokens[1:]
    if all(_is_initials(x) and (x.endswith(".") or len(tokens) == 2) for x in tail) \
            and not _is_initials(tokens[0]):
        # "Абациев Н.", "Tinsley M.F.": the surname first, then initials
        return [], tokens[0], [x for x in _SPLIT.split(" ".join(tail)) if x]
    start = len(tokens) - 1
    while start > 0 and _is_particle(tokens[start - 1]):  # "Van Dijk": a surname alone
        start -= 1
    given = [x for x in _SPLIT.split(" ".join(tokens[:start])) if x]
    return tokens[start:-1], tokens[-1], given


def _is_caps_word(token: str) -> bool:
    """A word of four or more capital letters: a surname as FMJD and club lists write it
    (``SIJBRANDS Ton``), not initials (``MF``)."""
    letters = re.sub(r"[.'\-]", "", token)
    return len(letters) >= 4 and letters.isalpha() and letters.isupper()


def _caps_surname(tokens: list[str]) -> tuple[list[str], str, list[str]] | None:
    """``SIJBRANDS Ton``, ``Ton SIJBRANDS``, ``van den AKKER Jeroen``: the words in capitals
    are the surname, wherever they stand, when another word is written in lower case."""
    caps = [i for i, x in enumerate(tokens) if _is_caps_word(x)]
    if not caps or not any(x[:1].isupper() and not x.isupper() and not _is_initials(x)
                           for x in tokens):
        return None
    lo, hi = caps[0], caps[-1]
    if hi - lo + 1 != len(caps):  # capitals apart: no surname block
        return None
    while lo > 0 and _is_particle(tokens[lo - 1]):
        lo -= 1
    particles = tokens[lo:caps[0]]
    rest = tokens[:lo] + tokens[hi + 1:]
    return particles, " ".join(tokens[caps[0]:hi + 1]), [
        x for x in _SPLIT.split(" ".join(rest)) if x]


def _is_initials(token: str) -> bool:
    """``N.``, ``M.F.``, ``MF``: up to three capital letters, with or without dots."""
    letters = token.replace(".", "")
    return 0 < len(letters) <= 3 and letters.isalpha() and letters.isupper()


@lru_cache(maxsize=65536)
def parse_name(text: str) -> PersonName | None:
    """Surname (with its particles), initials and full given names of a name (``"Tinsley,
    M.F."``, ``"M F Tinsley"``, ``"Marion Tinsley"``, ``"Akker,van den,J."``, ``"Абациев
    Н."``); None for a name without given names or initials (``"Gerard"``).

    Example:
        >>> parse_name("Tinsley, M.F.").initials, parse_name("MF Tinsley").initials
        (('m', 'f'), ('m', 'f'))
        >>> parse_name("Marion Tinsley").given, parse_name("Абациев Н.").surname
        (('marion',), 'абациев')
        >>> {parse_name(t).surname for t in ("Akker,van den,J.", "Akker, J. van den",
        ...                                  "Jeroen van den Akker", "van den Akker, J.")}
        {'van den akker'}
    """
    t = text.strip()
    parts = _split_comma(t) if "," in t else _split_spaces(t)
    if parts is None:
        return None
    particles, core, given_tokens = parts
    core = core.strip().strip(".").lower()
    sur = " ".join([*(p.lower() for p in particles), core]) if core else ""
    if not sur or not given_tokens:
        return None
    initials: list[str] = []
    full: list[str] = []
    for tok in given_tokens:
        if _is_initials(tok):
            initials.extend(ch.lower() for ch in tok if ch != ".")
        elif tok.isalpha() or "-" in tok:
            initials.append(tok[0].lower())
            full.append(tok.lower())
    if not initials:
        return None
    return PersonName(t, sur, tuple(initials), tuple(full))


#: the Latin letters a Cyrillic initial is written with in the transliteration systems (the
#: first letter of BGN/PCGN's spelling where this does not list it): Е is E or Ye, Ю Yu, Ju,
#: Iu or U, Х Kh, H or Ch, Ж Zh, J or Sch ...
_CYRILLIC_INITIALS = {
    "в": "vw", "е": "eyj", "ё": "eyj", "ж": "zjs", "з": "zs", "й": "iyj", "у": "uo",
    "х": "khc", "ц": "tcz", "ч": "ct", "ш": "sc", "щ": "sc", "ы": "yi", "ю": "yjiu",
    "я": "yji", "є": "yje", "ї": "yji",
}


def _latin_letter(ch: str) -> str:
    """A Latin letter without its accent, lower case (``É`` -> ``e``)."""
    return "".join(c for c in unicodedata.normalize("NFKD", ch.lower())
                   if not unicodedata.combining(c))[:1]


def _initials_agree(x: str, y: str) -> bool:
    """Whether two initials (lower case, as written) can be one letter: the same Latin letter
    (accents aside), the same Cyrillic letter, or a Latin letter a transliteration writes the
    Cyrillic one with (``Ю.`` and ``J.``, ``Y.`` or ``I.``)."""
    if x == y:
        return True
    cx, cy = transliterate(x) != x, transliterate(y) != y
    if cx and cy:
        return False
    if not (cx or cy):
        return _latin_letter(x) == _latin_letter(y)
    cyr, lat = (x, y) if cx else (y, x)
    return _latin_letter(lat) in _CYRILLIC_INITIALS.get(cyr, transliterate(cyr)[:1].lower())


def _initials_compatible(a: PersonName, b: PersonName) -> bool:
    """One name's initials are the start of the other's (``M`` / ``MF``)."""
    short, long = sorted((a.initials, b.initials), key=len)
    return all(_initials_agree(x, y) for x, y in zip(short, long[:len(short)], strict=True))


def _given_agree(a: PersonName, b: PersonName) -> bool:
    if not (a.given and b.given):
        return True
    ka, kb = spelling_key(a.given[0]), spelling_key(b.given[0])
    return ka.startswith(kb) or kb.startswith(ka)  # "Alex" / "Alexander"


@lru_cache(maxsize=65536)
def name_key(text: str) -> str:
    """The key two names must share to be compared at all: the surname's spelling key (the
    whole name's for a name of one word), empty for an empty name.

    Example:
        >>> name_key("Tinsley, Marion") == name_key("M. TINSLEY") == "tinslei"
        True
    """
    parsed = parse_name(text)
    if parsed is not None:
        return parsed.surname_key
    return spelling_key(text)


def same_player(a: str, b: str) -> bool:
    """Whether two names as written can stand for one person: the same surname spelled alike,
    initials of which one is the start of the other, given names that agree. Names of one
    word compare whole (``Gérard`` / ``GERARD``); a surname alone (``Tinsley``, ``Van Dijk``)
    can stand for anyone of that surname (``Tinsley, M.``, ``R. Tinsley``), so nothing
    contradicts it. Placeholders are the caller's business.

    Example:
        >>> same_player("Tinsley, M.F.", "Marion Tinsley"), same_player("Jan Smit", "Piet Smit")
        (True, False)
        >>> same_player("van den Akker, J.", "Jeroen van den Akker")
        True
        >>> same_player("Abatsiev", "Абациев Н."), same_player("Юрий Аникин", "J. Anikin")
        (True, True)
    """
    if a.strip() == b.strip():
        return True
    pa, pb = parse_name(a), parse_name(b)
    if pa is None or pb is None:  # a name of one word (or particles and a surname)
        ka = spelling_key(a) if pa is None else pa.surname_key
        kb = spelling_key(b) if pb is None else pb.surname_key
        return ka == kb and ka != ""
    if pa.surname_key != pb.surname_key:
        return False
    return _initials_compatible(pa, pb) and _given_agree(pa, pb)
