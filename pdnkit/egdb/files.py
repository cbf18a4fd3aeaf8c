"""Endgame-database files: one per material signature, written whole, checked when loaded.

A variant's databases live in one folder, ``<variant>-<digest>`` (:func:`variant_dir`), under
the databases' folder (:func:`default_dir`: ``$PDNKIT_EGDB``, else the per-user cache
``$XDG_CACHE_HOME/pdnkit/egdb`` or ``~/.cache/pdnkit/egdb``). The *digest* is taken over the
move rules as the compiled core reads them (:func:`rules_digest`), so editions that play the
same moves share their databases and a change of the rules makes the old files foreign.

A file, ``<signature>.egdb`` (``wm0wk2bm0bk1.egdb``), is a header of :data:`HEADER_SIZE`
bytes and then the codes of both halves (White to move, then Black), ``width`` bytes each,
little-endian. The header (little-endian): ``PDNKEGDB``, the format version, the header size,
the digest (32 bytes), the signature (4 bytes), the width, the slots per half, the number of
positions (both halves), wins, losses, draws, the longest win or loss in plies, and the
CRC-32 of the codes. A file is written to a temporary name and renamed (a build stopped at
any moment leaves whole files only) and :func:`read_file` checks every field and the
checksum before a code is read.

Example:
    >>> import tempfile
    >>> from pdnkit.rules import get_rules
    >>> from pdnkit.egdb.index import Signature
    >>> r = get_rules("english")
    >>> d = variant_dir(r, tempfile.mkdtemp())
    >>> p = write_file(d, r, Signature(0, 1, 0, 0), Table(b"\\x04" * 32 + b"\\x01" * 32, 1,
    ...                32, 64, 32, 32, 0, 1))
    >>> read_file(p, r, Signature(0, 1, 0, 0)).codes[:2]
    b'\\x04\\x04'
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import struct
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from pdnkit.egdb.folder import default_dir
from pdnkit.egdb.index import Signature, layout_of
from pdnkit.errors import PdnkitError

if TYPE_CHECKING:
    from pdnkit.rules.variants import Rules

__all__ = ["FORMAT", "HEADER_SIZE", "DamagedFileError", "EgdbError", "Header", "Table", "default_dir",
           "file_of", "read_file", "read_header", "remove_leftovers", "rules_digest",
           "variant_dir", "write_file"]

MAGIC = b"PDNKEGDB"
FORMAT = 1
HEADER_SIZE = 128
#: magic, format, header size, digest, signature, width, half, positions, wins, losses,
#: draws, longest, crc32
_HEADER = struct.Struct("<8sII32s4sB3xQQQQQII")
SUFFIX = ".egdb"


class EgdbError(PdnkitError, ValueError):
    """An endgame database that cannot be built or read as asked (a variant the index cannot
    hold, a number of pieces out of range)."""


class DamagedFileError(EgdbError):
    """A database file that is not what its name says (another variant's, truncated,
    corrupted): it is never read, and a build makes it again."""


class Table(NamedTuple):
    """One signature's codes and what they hold (both halves)."""

    codes: bytes | memoryview
    width: int
    half: int
    positions: int
    wins: int
    losses: int
    draws: int
    longest: int


class Header(NamedTuple):
    """A file's header."""

    digest: bytes
    sig: Signature
    width: int
    half: int
    positions: int
    wins: int
    losses: int
    draws: int
    longest: int
    crc: int


def rules_digest(rules: Rules) -> bytes:
    """The digest of the move rules the databases of ``rules`` depend on: the compiled core's
    table of the record (moves, captures, promotion, the first king wins) and the value of a
    position without a move (``losing_game``). ``ValueError`` when the core cannot pack it.

    Example:
        >>> from pdnkit.rules import get_rules
        >>> rules_digest(get_rules("english")) == rules_digest(get_rules("english", "wcdf"))
        True
        >>> rules_digest(get_rules("english")) == rules_digest(get_rules("russian"))
        False
    """
    from pdnkit.core.pack import pack_table

    blob = pack_table(rules)
    if blob is None:
        raise EgdbError(f"the core cannot hold the rules of {rules.name}")
    h = hashlib.sha256(b"pdnkit-egdb-%d\0" % FORMAT)
    h.update(blob.tobytes())
    h.update(b"losing" if rules.losing_game else b"normal")
    lay = layout_of(rules)
    if not lay.all_squares:  # an index of the squares men reach (a file of the old one is
        for side in (0, 1):  # another variant's: solved again)
            h.update(b"men%d:" % side + bytes(lay.man_squares[side]))
    return h.digest()


def variant_dir(rules: Rules, directory: str | os.PathLike[str] | None = None) -> Path:
    """The folder of a variant's databases under ``directory`` (default :func:`default_dir`).

    Example:
        >>> from pdnkit.rules import get_rules
        >>> variant_dir(get_rules("russian"), "/tmp/x").name.startswith("russian-")
        True
    """
    base = Path(directory).expanduser() if directory is not None else default_dir()
    return base / f"{rules.name}-{rules_digest(rules).hex()[:12]}"


def file_of(folder: Path, sig: Signature) -> Path:
    """The file of one signature in a variant's folder."""
    return folder / f"{sig.name}{SUFFIX}"


def write_file(folder: Path, rules: Rules, sig: Signature, table: Table) -> Path:
    """Write one signature's file whole (a temporary file renamed over the name) and return
    its path."""
    from pdnkit._atomic import atomic_path

    codes = bytes(table.codes)
    head = _HEADER.pack(MAGIC, FORMAT, HEADER_SIZE, rules_digest(rules), bytes(sig),
                        table.width, table.half, table.positions, table.wins, table.losses,
                        table.draws, table.longest, zlib.crc32(codes))
    path = file_of(folder, sig)
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        fh.write(head.ljust(HEADER_SIZE, b"\0"))
        fh.write(codes)
    return path


def read_header(path: Path) -> Header:
    """The header of a file (only the header's own fields are checked)."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(HEADER_SIZE)
    except OSError as exc:
        raise DamagedFileError(f"{path}: cannot be read ({exc.strerror})") from None
    if len(raw) < HEADER_SIZE:
        raise DamagedFileError(f"{path}: too short for an endgame database")
    (magic, fmt, size, digest, sig, width, half, positions, wins, losses, draws, longest,
     crc) = _HEADER.unpack_from(raw)
    if magic != MAGIC or size != HEADER_SIZE:
        raise DamagedFileError(f"{path}: not a pdnkit endgame database")
    if fmt != FORMAT:
        raise DamagedFileError(f"{path}: an endgame database of format {fmt}, not {FORMAT}")
    return Header(digest, Signature(*sig), width, half, positions, wins, losses, draws,
                  longest, crc)


def read_file(path: Path, rules: Rules, sig: Signature) -> Table:
    """A signature's codes from its file, every field and the checksum checked;
    :class:`DamagedFileError` when anything is wrong."""
    head = read_header(path)
    if head.digest != rules_digest(rules):
        raise DamagedFileError(f"{path}: built for other rules than {rules.name}'s")
    if head.sig != sig:
        raise DamagedFileError(f"{path}: holds {head.sig.name}, not {sig.name}")
    if head.width not in (1, 2) or head.half != layout_of(rules).half(sig):
        raise DamagedFileError(f"{path}: the header does not fit the signature")
    with open(path, "rb") as fh:
        fh.seek(HEADER_SIZE)
        codes = fh.read()
    if len(codes) != 2 * head.half * head.width:
        raise DamagedFileError(f"{path}: {len(codes)} bytes of codes, not "
                               f"{2 * head.half * head.width} (a truncated file)")
    if zlib.crc32(codes) != head.crc:
        raise DamagedFileError(f"{path}: the codes do not match their checksum")
    return Table(codes, head.width, head.half, head.positions, head.wins, head.losses,
                 head.draws, head.longest)


def remove_leftovers(folder: Path) -> int:
    """Remove the temporary files a killed build left in a variant's folder; their number.

    Example:
        >>> import tempfile
        >>> remove_leftovers(Path(tempfile.mkdtemp()))
        0
    """
    n = 0
    if folder.is_dir():
        for p in folder.glob(f".*{SUFFIX}.*.tmp"):
            with contextlib.suppress(OSError):
                p.unlink()
                n += 1
    return n
