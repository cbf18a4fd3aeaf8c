"""Decoding PDN bytes: which encoding a file is in, judged by the text itself.

PDN 3.0 requires UTF-8. Old files are often CP1252/Latin-1 (Western European names), CP1251
(Windows Cyrillic) or CP866 (DOS Cyrillic); some are UTF-16 or UTF-32. The decision:

* a byte order mark names UTF-8, UTF-16 or UTF-32; without one, the pattern of NUL bytes
  in the first bytes (every second or every fourth byte zero) gives UTF-16/32 and its byte
  order (:func:`detect_wide`);
* bytes with valid UTF-8 multi-byte sequences are UTF-8, even when some bytes are invalid:
  a legacy encoding is chosen for the whole file only when the text holds no valid UTF-8
  multi-byte text, or is clearly not UTF-8 (invalid sequences more than three times the
  valid ones plus :data:`STRAY_ALLOWANCE`). In a UTF-8 file, each game holding invalid
  bytes is judged on its own bytes (:func:`game_encoding`): a game written in a legacy
  encoding is decoded in it, a character cut short or a stray byte beside UTF-8 text is
  replaced; the other games never change;
* between the legacy encodings, each candidate decodes the words holding non-ASCII bytes and
  the most plausible text wins (:func:`text_score`): Russian letters weighted by their
  frequency, Latin letters with diacritics, and penalties for what mojibake looks like
  (symbols and box-drawing characters inside words, capitals inside lower-case words,
  Cyrillic glued to Latin letters).

Example:
    >>> detect_encoding("Блиндер Б.".encode("cp866"))
    'cp866'
    >>> detect_encoding("Абациев".encode("cp1251"))
    'cp1251'
    >>> detect_encoding("Sijbrands Ton é".encode("utf-8"))
    'utf-8'
    >>> detect_encoding("Hoogland Frédéric".encode("cp1252"))
    'cp1252'
    >>> detect_encoding("één zet".encode("cp1252"))
    'cp1252'
    >>> detect_encoding(b"\\xef\\xbb\\xbf[Event]")
    'utf-8-sig'
    >>> detect_encoding('[Event "x"]'.encode("utf-16-le"))
    'utf-16-le'
"""

from __future__ import annotations

import codecs
import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

from pdnkit._lazy import lazy_pattern

if TYPE_CHECKING:
    from pdnkit.findings import Finding

#: legacy (single-byte) encodings the detector chooses between
LEGACY = ("cp1251", "cp866", "cp1252", "latin-1")
#: bytes looked at to decide (from the first non-ASCII byte on): detection is bounded
WINDOW = 1 << 20

_VALID_UTF8 = lazy_pattern(
    rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}"
    rb"|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
    rb"|\xf4[\x80-\x8f][\x80-\xbf]{2}")
_HIGH = lazy_pattern(rb"[\x80-\xff]")
#: bytes that CP1252 leaves undefined; a Western file holding them is read as Latin-1
_CP1252_HOLES = lazy_pattern(rb"[\x81\x8d\x8f\x90\x9d]")
#: a word (the scorer looks at those holding a non-ASCII character); each character is in at
#: most one match, so a long run of letters or NUL bytes costs linear time
_WORD = lazy_pattern(r"[^\s\"\[\](){}.,;:!?0-9]+")

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"),
)

# Russian letter frequencies (per cent of letters in ordinary text)
_RU_FREQ = {
    "о": 10.97, "е": 8.45, "а": 8.01, "и": 7.35, "н": 6.70, "т": 6.26, "с": 5.47,
    "р": 4.73, "в": 4.54, "л": 4.40, "к": 3.49, "м": 3.21, "д": 2.98, "п": 2.81, "у": 2.62,
    "я": 2.01, "ы": 1.90, "ь": 1.74, "г": 1.70, "з": 1.65, "б": 1.59, "ч": 1.44, "й": 1.21,
    "х": 0.97, "ж": 0.94, "ш": 0.73, "ю": 0.64, "ц": 0.48, "щ": 0.36, "э": 0.32, "ф": 0.26,
    "ъ": 0.04, "ё": 0.04,
}
_RU_WEIGHT = {c: 1.0 + math.log10(f) for c, f in _RU_FREQ.items()}
_RU_WEIGHT.update({c.upper(): w for c, w in _RU_WEIGHT.items()})
#: punctuation that legacy text really holds (quotes, dashes, ellipsis, numero sign)
_PLAUSIBLE_SYMBOLS = frozenset("«»„“”‘’‚–—…№°§·\u00a0")


def detect_wide(head: bytes) -> str | None:
    """UTF-16/32 from a byte order mark or from the NUL pattern of the first bytes; ``None``
    for an ASCII-compatible text.

    Example:
        >>> detect_wide('[Event "x"]'.encode("utf-32-be")), detect_wide(b'[Event "x"]')
        ('utf-32-be', None)
    """
    for bom, name in _BOMS:
        if head.startswith(bom):
            return None if name == "utf-8-sig" else name
    sample = head[:4096]
    n = len(sample) - len(sample) % 4
    if n < 8:
        return None
    quarter = n // 4
    zeros = [sample[i:n:4].count(0) / quarter for i in range(4)]
    # UTF-32: the top two bytes of every BMP character are zero; ASCII leaves the low one set
    if zeros[2] > 0.95 and zeros[3] > 0.95 and zeros[0] < 0.5:
        return "utf-32-le"
    if zeros[0] > 0.95 and zeros[1] > 0.95 and zeros[3] < 0.5:
        return "utf-32-be"
    # UTF-16: the high byte of ASCII (tags, moves) is zero, the low byte never is
    even, odd = (zeros[0] + zeros[2]) / 2, (zeros[1] + zeros[3]) / 2
    if odd > 0.3 and even < 0.05:
        return "utf-16-le"
    if even > 0.3 and odd < 0.05:
        return "utf-16-be"
    return None


def text_score(text: str) -> float:
    """How much ``text`` looks like real names and words (higher is better); only words
    holding non-ASCII characters count, so ASCII move text does not dilute it.

    Example:
        >>> text_score("Блиндер") > text_score("Ѓ«Ё\\xad¤Ґа")
        True
    """
    score = 0.0
    for m in _WORD.finditer(text):
        word = m.group()
        if word.isascii():
            continue
        prev = ""
        for ch in word:
            if ch in _RU_WEIGHT:
                score += _RU_WEIGHT[ch]
                if prev.isascii() and prev.isalpha():
                    score -= 2.0  # Cyrillic glued to a Latin letter
            elif ch.isascii():
                if ch.isalpha() and prev in _RU_WEIGHT:
                    score -= 2.0
            elif ch.isalpha():
                latin = ord(ch) < 0x250
                score += 1.0 if latin else -1.5
            elif ch in _PLAUSIBLE_SYMBOLS:
                pass
            else:
                score -= 2.5  # box drawing, currency signs, control and format characters
            if ch.isupper() and prev.isalpha() and prev.islower():
                score -= 1.5  # a capital inside a lower-case word
            prev = ch
    return score


def choose_legacy(data: bytes) -> str:
    """The legacy encoding under which ``data`` reads as the most plausible text.

    Example:
        >>> choose_legacy("Жуков Ю., Müller".encode("cp1251", "replace"))
        'cp1251'
    """
    sample = data[:WINDOW]
    best, best_score = "cp1252", -math.inf
    for enc in ("cp1252", "cp1251", "cp866"):  # first wins a tie
        s = text_score(sample.decode(enc, errors="replace"))
        if s > best_score:
            best, best_score = enc, s
    if best == "cp1252" and _CP1252_HOLES.search(sample):
        return "latin-1"
    return best


#: invalid sequences a UTF-8 file may hold beside its valid ones and stay UTF-8: a few
#: stray bytes do not make a file with little non-ASCII text a legacy one
STRAY_ALLOWANCE = 8


def utf8_plausible(data: bytes) -> bool:
    """True when ``data`` has valid UTF-8 multi-byte text and is not clearly something
    else: valid sequences win unless the invalid ones outnumber them more than three to
    one beyond :data:`STRAY_ALLOWANCE` (a legacy file holds an invalid sequence for nearly
    every accented letter, and valid ones only by accident) or the legacy reading is the
    more plausible text (:func:`text_score`).

    Example:
        >>> utf8_plausible("Müller \\xe9".encode("utf-8") + b"\\xe9"), utf8_plausible(b"M\\xfcller")
        (True, False)
        >>> utf8_plausible("Frédéric".encode("utf-8") + b" \\x80 \\xff \\xfe")  # a few stray bytes
        True
        >>> utf8_plausible(("Frédéric " * 20).encode("cp1252") + "é".encode("utf-8"))
        False
    """
    valid = sum(1 for _ in _VALID_UTF8.finditer(data))
    if valid == 0:
        return False
    # stray *sequences*, as the decoder sees them: a character cut short (``\xe2\x82``)
    # is one error, not one per byte
    stray = data.decode("utf-8", "replace").count("\ufffd") - data.count(b"\xef\xbf\xbd")
    if stray <= valid:
        return True
    if stray > 3 * valid + STRAY_ALLOWANCE:
        return False
    # a few stray bytes beside little valid text: the text as UTF-8 (the stray bytes left
    # out) against the best legacy reading
    as_utf8 = text_score(data.decode("utf-8", "replace").replace("\ufffd", " "))
    return as_utf8 >= max(text_score(data.decode(enc, "replace"))
                          for enc in ("cp1252", "cp1251", "cp866"))


def game_encoding(data: bytes) -> str | None:
    """The legacy encoding of the bytes of one game of a UTF-8 file that are not all UTF-8,
    or ``None`` when the game is UTF-8 with a few bad bytes (they are replaced): its only
    invalid sequences are characters cut short (a lead byte and some of its continuation
    bytes, ``\\xe2\\x82``), or the game has valid UTF-8 text beside its few stray bytes
    (:func:`utf8_plausible`). Else the legacy encoding its words read best in
    (:func:`choose_legacy`).

    Example:
        >>> game_encoding("[White \\"Петров\\"]".encode("cp1251"))
        'cp1251'
        >>> game_encoding(b"1. 32-28 17-2\\xe2\\x822 *") is None  # a character cut short
        True
        >>> game_encoding("Ω Sijbrands".encode() + b" \\xe9") is None  # one stray byte
        True
    """
    single = False
    for m in _ESCAPED_RUN.finditer(data.decode("utf-8", "surrogateescape")):
        run = [ord(c) - 0xDC00 for c in m.group()]
        if len(run) < 2 or not 0xC2 <= run[0] <= 0xF4 or any(b >= 0xC0 for b in run[1:]):
            single = True  # a byte no UTF-8 character starts with this way
            break
    if not single or utf8_plausible(data):
        return None
    return choose_legacy(data)


#: a byte a UTF-8 file held that is not UTF-8, kept by ``surrogateescape`` decoding, and a
#: run of them (a lead byte and continuation bytes in one run: a character cut short)
_ESCAPED = lazy_pattern("[\udc80-\udcff]")
_ESCAPED_RUN = lazy_pattern("[\udc80-\udcff]+")
#: lines with invalid bytes listed one by one per game (the rest are counted on the last)
MAX_BYTE_NOTES = 50


def has_escaped(text: str) -> bool:
    """True when ``text`` holds bytes kept by ``surrogateescape`` decoding.

    Example:
        >>> has_escaped(b"M\\xfcller".decode("utf-8", "surrogateescape")), has_escaped("Müller")
        (True, False)
    """
    return _ESCAPED.search(text) is not None


def decode_game(text: str, line: int) -> tuple[str, str | None, list[Finding]]:
    """One game's text of a UTF-8 file whose invalid bytes were kept by ``surrogateescape``,
    decoded on its own (:func:`game_encoding`): ``(text, legacy encoding or None, findings)``
    -- an ``encoding-fallback`` on the game written in a legacy encoding, else an
    ``invalid-bytes`` for each line whose bytes were replaced. ``line``: the number of the
    text's first line.

    Example:
        >>> raw = '[White "Петров"]\\n1. 32-28 *'.encode("cp1251").decode("utf-8", "surrogateescape")
        >>> text, enc, found = decode_game(raw, 7)
        >>> text[:15], enc, [(f.code, f.line) for f in found]
        ('[White "Петров"', 'cp1251', [('encoding-fallback', 7)])
    """
    from pdnkit.findings import make_finding

    data = text.encode("utf-8", "surrogateescape")
    enc = game_encoding(data)
    rows = data.split(b"\n")
    if enc is not None:
        first = next(i for i, row in enumerate(rows) if not row.isascii())
        return data.decode(enc, "replace"), enc, [make_finding(
            "encoding-fallback", f"this game is not UTF-8 (the rest of the file is); decoded as "
            f"{enc} (first non-UTF-8 byte on line {line + first})", line=line + first,
            details={"encoding": enc, "game": True})]
    found: list[Finding] = []
    out: list[str] = []
    bad = 0
    for i, row in enumerate(rows):
        try:
            out.append(row.decode("utf-8"))
            continue
        except UnicodeDecodeError as exc:
            out.append(row.decode("utf-8", "replace"))
            bad += 1
            if bad > MAX_BYTE_NOTES:
                continue
            at = exc.start
            raw = row[at:exc.end]
        found.append(make_finding(
            "invalid-bytes", f"line {line + i}: byte(s) {raw.hex(' ')} at column {at + 1} are "
            "not valid utf-8; replaced with U+FFFD", line=line + i, column=at + 1,
            details={"encoding": "utf-8", "bytes": raw.hex(" ")}))
    if bad > MAX_BYTE_NOTES:
        found.append(make_finding(
            "invalid-bytes", f"{bad - MAX_BYTE_NOTES} more line(s) with invalid bytes (not "
            "listed)", line=line + len(rows) - 1, details={"lines": bad - MAX_BYTE_NOTES}))
    return "\n".join(out), None, found


def utf8_mostly(data: bytes) -> bool:
    """True when ``data`` is to be read as UTF-8, its games with invalid bytes each judged
    by :func:`game_encoding`: it holds valid UTF-8 multi-byte text, at least as much as
    invalid sequences, or else up to three times as many beyond :data:`STRAY_ALLOWANCE`
    when its UTF-8 text reads as words (a legacy file's accidental UTF-8 pairs, such as
    CP1251 ``Фё``, read as no language).

    Example:
        >>> utf8_mostly("Frédéric ".encode() + "Петров".encode("cp1251"))
        True
        >>> utf8_mostly(b"M\\xfcller"), utf8_mostly("Фёдор".encode("cp1251"))
        (False, False)
    """
    valid = sum(1 for _ in _VALID_UTF8.finditer(data))
    if valid == 0:
        return False
    text = data.decode("utf-8", "replace")
    stray = text.count("\ufffd") - data.count(b"\xef\xbf\xbd")
    if stray <= valid:
        return True
    return stray <= 3 * valid + STRAY_ALLOWANCE and text_score(text.replace("\ufffd", " ")) > 0


def detect_encoding_chunks(chunks: Iterable[bytes], limit: int = WINDOW) -> str:
    """Detect the encoding of a byte stream given as chunks, reading at most about ``limit``
    bytes after the first non-ASCII byte (bounded time on an endless stream).

    Returns ``"utf-8-sig"`` (BOM), ``"utf-8"``, ``"utf-16"``/``"utf-32"`` (BOM),
    ``"utf-16-le"`` ..., ``"cp1251"``, ``"cp866"``, ``"cp1252"`` or ``"latin-1"``.

    Example:
        >>> detect_encoding_chunks([b"[White \\"Ab", "é\\"]".encode("utf-8")])
        'utf-8'
    """
    head = b""
    window: list[bytes] = []
    size = 0
    for data in chunks:
        if not data:
            continue
        if not head:
            head = data[:4096]
            wide = detect_wide(head)
            if wide is not None:
                return wide
        if window:
            window.append(data)
            size += len(data)
        elif not data.isascii():
            first = _HIGH.search(data)
            start = first.start() if first else 0
            window.append(data[start:])
            size = len(window[0])
        if size >= limit:
            break
    bom = head.startswith(codecs.BOM_UTF8)
    if not window:
        return "utf-8-sig" if bom else "utf-8"
    return decide(b"".join(window)[:limit], bom)


def decide(window: bytes, bom: bool = False) -> str:
    """The encoding of an ASCII-compatible text whose first non-ASCII bytes are ``window``.

    Example:
        >>> decide("Фёдор".encode("cp1251")), decide("Фёдор".encode("utf-8"))
        ('cp1251', 'utf-8')
    """
    if bom:
        return "utf-8-sig"
    try:
        window.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError as exc:
        if exc.start >= len(window) - 3 and exc.reason == "unexpected end of data":
            return "utf-8"  # cut inside a character at the end of the window
    return "utf-8" if utf8_mostly(window) else choose_legacy(window)


def detect_encoding(data: bytes) -> str:
    """Detect the encoding of ``data`` (see :func:`detect_encoding_chunks`)."""
    return detect_encoding_chunks([data])


def is_legacy(encoding: str | None) -> bool:
    """True for an encoding that is neither UTF-8 nor UTF-16/32 (an ``encoding-fallback``).

    Example:
        >>> is_legacy("cp866"), is_legacy("utf-8-sig"), is_legacy(None)
        (True, False, False)
    """
    if encoding is None:
        return False
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        return False
    return not name.startswith(("utf-8", "utf-16", "utf-32"))
