"""Decoding PDN bytes: UTF-8 (with or without BOM), else CP1251 or CP1252/Latin-1.

PDN 3.0 requires UTF-8. Old files are often CP1252/Latin-1 (Western European names) or CP1251
(Russian). When the bytes are not valid UTF-8, a letter heuristic picks between the two:
Cyrillic text is made of *runs* of bytes >= 0xC0 (whole words of three letters or more),
while Western text has accented letters next to ASCII letters (``één``, ``Müller``).

Example:
    >>> detect_encoding("Абациев".encode("cp1251"))
    'cp1251'
    >>> detect_encoding("Sijbrands Ton Ã©".encode("utf-8"))
    'utf-8'
    >>> detect_encoding("Hoogland Frédéric".encode("cp1252"))
    'cp1252'
    >>> detect_encoding("één zet".encode("cp1252"))
    'cp1252'
    >>> detect_encoding(b"\\xef\\xbb\\xbf[Event]")
    'utf-8-sig'
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable

_HIGH_RUN = re.compile(rb"[\xc0-\xff]{3,}")
_HIGH_NEXT_TO_ASCII = re.compile(rb"[A-Za-z][\xc0-\xff]|[\xc0-\xff][A-Za-z]")
#: bytes that CP1252 leaves undefined; a file holding them is read as Latin-1
_CP1252_HOLES = re.compile(rb"[\x81\x8d\x8f\x90\x9d]")

LEGACY = ("cp1251", "cp1252", "latin-1")


class _Stats:
    """Running byte statistics for the legacy-encoding decision."""

    def __init__(self) -> None:
        self.runs = 0
        self.mixed = 0
        self.holes = False

    def feed(self, data: bytes) -> None:
        self.runs += sum(len(m) for m in _HIGH_RUN.findall(data))
        self.mixed += len(_HIGH_NEXT_TO_ASCII.findall(data))
        if not self.holes and _CP1252_HOLES.search(data):
            self.holes = True

    def choose(self) -> str:
        if self.runs > self.mixed:
            return "cp1251"
        return "latin-1" if self.holes else "cp1252"


def detect_encoding_chunks(chunks: Iterable[bytes]) -> str:
    """Detect the encoding of a byte stream given as chunks (one pass, constant memory).

    Returns ``"utf-8-sig"`` (BOM), ``"utf-8"``, ``"cp1251"``, ``"cp1252"`` or ``"latin-1"``.

    Example:
        >>> detect_encoding_chunks([b"[White \\"Ab", "é\\"]".encode("utf-8")])
        'utf-8'
    """
    decoder = codecs.getincrementaldecoder("utf-8")()
    stats = _Stats()
    utf8_ok = True
    first = True
    bom = False
    for data in chunks:
        if first:
            bom = data.startswith(codecs.BOM_UTF8)
            first = False
        if utf8_ok:
            try:
                decoder.decode(data)
            except UnicodeDecodeError:
                utf8_ok = False
        stats.feed(data)
    if utf8_ok:
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            utf8_ok = False
    if utf8_ok:
        return "utf-8-sig" if bom else "utf-8"
    return stats.choose()


def detect_encoding(data: bytes) -> str:
    """Detect the encoding of ``data`` (see :func:`detect_encoding_chunks`)."""
    return detect_encoding_chunks([data])


def decode_bytes(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """Decode ``data``; returns ``(text, encoding used)``. Line ends are left as they are.

    Example:
        >>> decode_bytes("Жуков".encode("cp1251"))
        ('Жуков', 'cp1251')
    """
    enc = encoding or detect_encoding(data)
    return data.decode(enc, errors="replace"), enc
