"""Cutting a source at game boundaries by byte offset, and reading its bytes once.

A task is given ``[start, end)`` and moves both ends to the first *cut point* at or after
them (:func:`find_cut`: the start of a line that opens a tag pair after a line that is not a
tag pair, the place where the splitter starts a new game), so each task reads only its own
part (:func:`read_range`) and no process reads the whole file. The client reads each source
once (:func:`scan_source`: its sha256 and first non-ASCII byte) and decides its encoding as
the reader does (:func:`source_encoding`).

Example:
    >>> import fsspec
    >>> fs = fsspec.filesystem("memory")
    >>> fs.pipe("/s.pdn", b'[A "1"]\\n1. 32-28 *\\n[A "2"]\\n1. 31-27 *\\n')
    >>> find_cut(fs, "/s.pdn", 1, 38), read_range(fs, "/s.pdn", 19, 7)
    (19, b'[A "2"]')
"""

from __future__ import annotations

import re
from typing import Any

#: bytes looked at before a cut point to decide whether the line before it is a tag pair
LOOK_BACK = 4096
#: encodings in which a byte offset can be cut at a newline byte
BYTE_CUTTABLE = ("utf-8", "utf-8-sig", "ascii", "cp1250", "cp1251", "cp1252", "cp866",
                 "latin-1", "iso-8859-1", "iso-8859-5", "koi8-r")

_CANDIDATE = re.compile(rb'\n(?=[ \t]*\[[ \t]*[A-Za-z_][\w\-]*[ \t]+")')
_TAG_LINE = re.compile(rb'[ \t]*\[[ \t]*[A-Za-z_][\w\-]*[ \t]+"[^"\n]*"[ \t]*\][ \t\r]*\Z')


def _is_cut(window: bytes) -> bool:
    """Whether a tag line that starts right after ``window`` starts a game: the line before
    it (the tail of ``window``) is not itself a tag pair."""
    if not window.endswith(b"\n"):
        return True  # the start of the file
    prev = window[:-1]
    start = prev.rfind(b"\n") + 1
    return _TAG_LINE.match(prev[start:]) is None


def read_range(fs: Any, path: str, start: int, size: int) -> bytes:
    """``size`` bytes of the file ``path`` on ``fs`` from offset ``start``."""
    with fs.open(path, "rb") as f:
        f.seek(start)
        data: bytes = f.read(size)
        return data


def find_cut(fs: Any, path: str, offset: int, file_size: int, block: int = 1 << 16) -> int:
    """The first cut point at or after ``offset`` (``file_size`` when there is none).

    Reads only from ``offset - LOOK_BACK`` on, a block at a time, so two tasks given
    neighbouring ranges find the same point between them.

    Example:
        >>> import fsspec
        >>> fs = fsspec.filesystem("memory")
        >>> fs.pipe("/c.pdn", b'[A "1"]\\n[B "2"]\\n1. 32-28 *\\n[A "3"]\\n1. 31-27 *\\n')
        >>> find_cut(fs, "/c.pdn", 1, 45), find_cut(fs, "/c.pdn", 0, 45)
        (27, 0)
    """
    if offset <= 0:
        return 0
    if offset >= file_size:
        return file_size
    base = max(0, offset - LOOK_BACK)
    data = b""
    pos = base
    while pos < file_size:
        new = read_range(fs, path, pos, block)
        if not new:
            break
        data += new
        pos += len(new)
        for m in _CANDIDATE.finditer(data):
            p = base + m.end()
            if p < offset:
                continue
            if _is_cut(data[max(0, m.end() - LOOK_BACK):m.end()]):
                return p
        # keep the tail needed to judge a candidate in the next block
        keep = max(0, len(data) - LOOK_BACK - 1)
        base += keep
        data = data[keep:]
        block = min(block * 2, 1 << 24)
    return file_size

def scan_source(fs: Any, path: str) -> tuple[str, int, int]:
    """(sha256, offset of the first non-ASCII byte or -1, its line) in one pass over the
    source (the hash needs every byte anyway; lines counted as the reader counts them)."""
    import hashlib

    h = hashlib.sha256()
    first = -1
    line = 1
    pos = 0
    last_cr = False
    with fs.open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
            if first < 0:
                stripped = len(block) - len(block.lstrip(bytes(range(128))))
                seen = block[:stripped] if stripped < len(block) else block
                line += seen.count(b"\n") + seen.count(b"\r") - seen.count(b"\r\n")
                if last_cr and seen.startswith(b"\n"):
                    line -= 1
                last_cr = seen.endswith(b"\r")
                if stripped < len(block):
                    first = pos + stripped
            pos += len(block)
    return h.hexdigest(), first, line


def source_encoding(fs: Any, path: str, encoding: str | None, first: int, line: int
                    ) -> tuple[str, tuple[int, str] | None]:
    """The source's encoding, decided as the reader decides it (byte order mark or NUL
    pattern; else from at most a window of bytes from the first non-ASCII byte on), and
    the ``encoding-fallback`` note for a legacy encoding (or as given: no note)."""
    if encoding:
        return encoding, None
    import codecs

    from pdnkit.pdn.decode import WINDOW, decide, detect_wide, is_legacy

    head = read_range(fs, path, 0, 4096)
    wide = detect_wide(head)
    if wide is not None:
        return wide, None
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig", None
    if first < 0:
        return "utf-8", None
    enc = decide(read_range(fs, path, first, WINDOW))
    if not is_legacy(enc):
        return enc, None
    return enc, (first, f"the file is not UTF-8; decoded as {enc} "
                        f"(first non-ASCII byte on line {line})")
