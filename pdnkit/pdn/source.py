"""Opening PDN sources: any input becomes one stream of decoded lines, cut into game chunks.

A path, ``-`` (standard input), a FIFO or ``/dev/stdin``, a binary or text file object,
bytes or a string of PDN text: each is read exactly once, front to back, in blocks (a pipe
works, memory does not grow with the input). Every source is cut into lines the same way:
at ``\\r\\n``, ``\\r`` and ``\\n`` only (never at U+2028, ``\\x0b``, ``\\x0c`` or ``\\x85``),
so a string and the file it came from give the same games on the same lines.

Decoding (see :mod:`pdnkit.pdn.decode`): UTF-16/32 by byte order mark or NUL pattern;
otherwise the encoding is decided from at most :data:`~pdnkit.pdn.decode.WINDOW` bytes
from the first non-ASCII byte on (ASCII lines before it read the same in every candidate).
What decoding finds becomes findings on the chunk that holds the line:
``encoding-fallback`` (legacy encoding chosen, on the game of the first non-ASCII byte;
in a UTF-8 file, on a game written in a legacy encoding and decoded on its own:
:meth:`Opened._game`), ``invalid-bytes`` (a line of a UTF-8 file with a character cut short
or a stray byte, replaced; a line that held NUL bytes, removed),
``binary-data`` (a run of NUL bytes, skipped, and reading goes on; a block mostly NUL, or
NUL bytes on end for :data:`BINARY_LIMIT` bytes, stop reading, so ``/dev/zero`` ends at
once) and ``empty-file`` (a named file with no PDN text). A finding after the last game comes
as a last chunk with empty text (:func:`bare_record` turns it into a file-level record).

Example:
    >>> src = open_source('[White "Ab"]\\n1. 32-28 *\\n\\n[White "Müller"]\\n*\\n'.encode("cp1252"))
    >>> [(c.line, [f.code for f in c.findings]) for c in src.chunks]
    [(1, []), (4, ['encoding-fallback'])]
    >>> src.encoding
    'cp1252'
"""

from __future__ import annotations

import codecs
import io
import os
import stat
import sys
from bisect import insort
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import IO, cast

from pdnkit._lazy import lazy_pattern
from pdnkit.errors import ArgumentError, MissingFileError, PdnkitError
from pdnkit.findings import Finding, make_finding
from pdnkit.pdn.decode import (
    MAX_BYTE_NOTES,
    WINDOW,
    decide,
    decode_game,
    detect_wide,
    has_escaped,
    is_legacy,
)
from pdnkit.pdn.record import GameRecord
from pdnkit.pdn.split import Chunk, line_blocks, split_blocks

Source = str | os.PathLike[str] | bytes | IO[str] | IO[bytes]

#: the name that stands for standard input
STDIN = "-"
#: bytes read at a time
BLOCK = 1 << 16

_ASCII = bytes(range(0x80))
#: a run of NUL bytes that no text holds: binary data (padding, a device, a disk image),
#: skipped with a finding
_NUL_RUN = b"\0" * 64
_NUL_RUNS = lazy_pattern(rb"\0{64,}")
#: NUL bytes on end after which reading stops (``/dev/zero``, a disk image)
BINARY_LIMIT = 1 << 20


def is_path_like(source: object) -> bool:
    """True when ``source`` names a file to open rather than holding PDN text: a
    ``PathLike`` (``Path("-")`` is standard input), or a short one-line string naming an
    existing non-folder path (a regular file, a FIFO, ``/dev/stdin``, ``/dev/fd/63`` ...).

    Example:
        >>> is_path_like(Path("-")), is_path_like('[Event "x"] *'), is_path_like("/dev/stdin")
        (True, False, True)
    """
    if isinstance(source, os.PathLike):
        return True
    if not isinstance(source, str):
        return False
    if "\n" in source or len(source) >= 4096 or source.lstrip().startswith(("[", "{", "%")):
        return False
    try:
        st = os.stat(source)
    except (OSError, ValueError):
        return False
    return not stat.S_ISDIR(st.st_mode)


def is_regular_file(path: str | os.PathLike[str]) -> bool:
    """True for a regular file (one that may be read twice, hashed first, sized); False
    for ``-``, a FIFO, a character device or a missing path.

    Example:
        >>> is_regular_file("-"), is_regular_file("/dev/null")
        (False, False)
    """
    if os.fspath(path) == STDIN:
        return False
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


class Opened:
    """An opened source: ``chunks`` (game chunks, each with its decoding ``findings``),
    ``name`` (the file name or None), ``encoding`` (as decided so far: it may be set on the
    first non-ASCII byte) and :meth:`close`."""

    def __init__(self, blocks: Iterable[str], name: str | None, decoder: _Decoder | None,
                 encoding: str | None, closer: IO[bytes] | IO[str] | None,
                 named: bool) -> None:
        self.name = name
        self._decoder = decoder
        self._encoding = encoding
        self._closer = closer
        self._named = named
        #: what decoding found, in line order (the decoder's list when there is one)
        self._notes: list[Finding] = decoder.notes if decoder is not None else []
        #: ``blocks``: the decoded text in blocks of whole lines (``\n`` line ends)
        self.chunks: Iterator[Chunk] = self._with_notes(split_blocks(self._without_nuls(blocks)))

    @property
    def encoding(self) -> str | None:
        """The encoding in use (``"utf-8"`` while only ASCII has been seen)."""
        if self._decoder is not None:
            return self._decoder.encoding or "utf-8"
        return self._encoding

    def close(self) -> None:
        """Close the file this source opened (never a file object or stdin it was given)."""
        if self._closer is not None:
            self._closer.close()
            self._closer = None

    def __enter__(self) -> Opened:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _without_nuls(self, blocks: Iterable[str]) -> Iterator[str]:
        """The blocks without their NUL bytes (a run long enough to be binary data is the
        decoder's): a NUL is no text, and one inside a tag line would make it no tag pair
        (its game would lose the tag, the game before it take the line). Each line that
        held one gets an ``invalid-bytes`` finding (:data:`MAX_BYTE_NOTES` per source)."""
        line = 1
        noted = 0
        for block in blocks:
            i = block.find("\0")
            if i >= 0:
                at, pos = line, 0
                while i >= 0:
                    at += block.count("\n", pos, i)
                    start = block.rfind("\n", 0, i) + 1
                    end = block.find("\n", i) % (len(block) + 1)
                    pos = i
                    noted += 1
                    if noted <= MAX_BYTE_NOTES:
                        nuls = block.count("\0", start, end)
                        insort(self._notes, make_finding(
                            "invalid-bytes", f"line {at}: {nuls} NUL byte(s) (no text) from "
                            f"column {i - start + 1} on were removed", line=at,
                            column=i - start + 1, details={"bytes": "00", "count": nuls}),
                            key=_line_of)
                    i = block.find("\0", end)
                block = block.replace("\0", "")
            line += block.count("\n")
            yield block

    def _game(self, chunk: Chunk) -> Chunk:
        """A game of a UTF-8 file holding bytes that are not UTF-8, decoded on its own
        (:func:`pdnkit.pdn.decode.decode_game`): its neighbours never change."""
        text, enc, found = decode_game(chunk.text, chunk.line)
        return DecodedChunk(text, chunk.line, chunk.end_line, chunk.has_content,
                            [*found, *chunk.findings], encoding=enc)

    def _with_notes(self, chunks: Iterator[Chunk]) -> Iterator[Chunk]:
        notes = self._notes
        carry: list[Finding] = []
        content = False
        last_line = 1
        decoder = self._decoder
        for chunk in chunks:
            last_line = chunk.end_line
            if notes:  # the chunk's own last line (its end_line may be where the next begins)
                text = chunk.text
                end = chunk.line + text.count("\n", 0, len(text.rstrip()))
                while notes and (notes[0].line or 0) <= end:
                    carry.append(notes.pop(0))
            if not chunk.has_content:
                carry.extend(chunk.findings)
                continue  # its notes go to the next game
            content = True
            if decoder is not None and decoder.escaped and has_escaped(chunk.text):
                chunk = self._game(chunk)
            if carry:
                chunk.findings[:0] = carry
                carry = []
            yield chunk
        carry.extend(notes)
        notes.clear()
        if not content and self._named and not any(f.code == "binary-data" for f in carry):
            carry.append(make_finding("empty-file", "the file holds no PDN text", line=1))
        if carry:
            line = carry[0].line or last_line
            yield Chunk("", line, line, True, findings=carry)


@dataclass
class DecodedChunk(Chunk):
    """A game of a UTF-8 file decoded on its own (:meth:`Opened._game`); ``encoding``: the
    legacy encoding it was written in (``None``: UTF-8, its bad bytes replaced)."""

    encoding: str | None = None

    def own_encoding(self) -> str | None:
        return self.encoding


def _line_of(f: Finding) -> int:
    return f.line or 0


def bare_record(chunk: Chunk, *, file: str | None, index: int,
                encoding: str | None) -> GameRecord | None:
    """The record for a chunk that holds only findings (empty text): a file-level record
    (:attr:`~pdnkit.pdn.record.GameRecord.file_level`, no game), else ``None``.

    Example:
        >>> [c.text for c in open_source(b"").chunks], bare_record(Chunk("x", 1, 1, True),
        ...     file=None, index=0, encoding=None)
        ([], None)
    """
    if chunk.text:
        return None
    return GameRecord(file=file, index=index, line=chunk.line, end_line=chunk.end_line,
                      raw="", encoding=encoding, file_level=True,
                      findings=[f.located(file=file) for f in chunk.findings])


def open_source(source: Source, encoding: str | None = None) -> Opened:
    """Open ``source`` for reading (see the module doc); ``encoding`` skips detection.

    Raises ``FileNotFoundError`` for a string that looks like a file name (``*.pdn``,
    ``*.txt``) but names no file (API misuse).

    Example:
        >>> [c.text for c in open_source("1. 32-28 *\\u2028 1. 33-29 *").chunks]
        ['1. 32-28 *', '\\u2028 1. 33-29 *']
    """
    if is_path_like(source):
        path = os.fspath(source)  # type: ignore[arg-type]
        if path == STDIN:
            return _binary(sys.stdin.buffer, encoding, "<stdin>", None, named=True)
        fh = open(path, "rb")  # noqa: SIM115 - closed by Opened.close
        return _binary(fh, encoding, str(path), fh, named=True)
    if isinstance(source, str):
        if (source.strip().lower().endswith((".pdn", ".txt")) and "\n" not in source
                and not source.lstrip().startswith("[")):
            raise MissingFileError(f"no such PDN file: {source}")
        return Opened(line_blocks([source]), None, None, encoding, None, named=False)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _binary(io.BytesIO(bytes(source)), encoding, None, None, named=False)
    stream = cast("IO[str] | IO[bytes]", source)
    name = getattr(stream, "name", None)
    name = name if isinstance(name, str) else None
    if isinstance(stream, io.TextIOBase) or isinstance(stream.read(0), str):
        text_stream = cast("IO[str]", stream)
        blocks = iter(lambda: text_stream.read(BLOCK), "")
        return Opened(line_blocks(blocks), name, None, getattr(stream, "encoding", None),
                      None, named=False)
    return _binary(cast("IO[bytes]", stream), encoding, name, None, named=False)


def _binary(stream: IO[bytes], encoding: str | None, name: str | None,
            closer: IO[bytes] | None, *, named: bool) -> Opened:
    decoder = _Decoder(stream, encoding)
    return Opened(decoder.blocks(), name, decoder, None, closer, named)


class _Decoder:
    """Reads a binary stream once, in blocks, and yields decoded lines; records what it
    finds in ``notes`` (findings with their line, in line order)."""

    def __init__(self, stream: IO[bytes], encoding: str | None) -> None:
        self.stream = stream
        self.requested = encoding
        self.encoding: str | None = encoding
        self.notes: list[Finding] = []
        self.line_no = 0  # lines yielded so far
        self.bad_lines = 0
        self.nul_run = 0  # NUL bytes at the end of the last block, not yet judged
        self.nul_notes = 0
        #: invalid bytes of a UTF-8 file were kept as lone surrogates (see :meth:`_emit`)
        self.escaped = False
        self._stopped = False
        reader = getattr(stream, "read1", None)
        self._read = reader if callable(reader) else stream.read
        self.head: list[bytes] = []  # blocks read ahead to decide the encoding
        self._prefetch()

    def _block(self) -> bytes:
        data = self._read(BLOCK)
        return bytes(data) if data else b""

    def _prefetch(self) -> None:
        """Read up to WINDOW bytes of a file now (one block of a pipe), so the encoding is
        known before the first game when the first non-ASCII byte is near the start (else
        the decision waits for the first non-ASCII byte, see :meth:`_decide`)."""
        try:
            greedy = bool(self.stream.seekable())  # a file; never wait on a pipe for more
        except (AttributeError, OSError, ValueError):
            greedy = False
        size = 0
        while size < WINDOW:
            data = self._block()
            if not data:
                break
            self.head.append(data)
            size += len(data)
            if not greedy or data.count(0) * 2 >= len(data):
                break  # a pipe (stream what is there), binary, or UTF-16/32
        if self.requested is not None or not self.head:
            return
        first = self.head[0]
        wide = detect_wide(first)
        if wide is not None:
            self.encoding = wide
            return
        if first.startswith(codecs.BOM_UTF8):
            self.encoding = "utf-8-sig"
            return
        joined = b"".join(self.head)
        if joined.isascii():
            return
        self.head = [joined]
        self._choose(joined, len(joined) - len(joined.lstrip(_ASCII)), b"")

    def _choose(self, data: bytes, start: int, before: bytes) -> None:
        """Decide from ``data[start:]`` (the first non-ASCII byte on); ``before`` is the
        text of the current line read before ``data``."""
        self.encoding = decide(data[start:start + WINDOW])
        if is_legacy(self.encoding):
            prefix = before + data[:start]
            line = self.line_no + 1 + prefix.count(b"\n") + prefix.count(b"\r") \
                - prefix.count(b"\r\n")
            self.notes.append(make_finding(
                "encoding-fallback", f"the file is not UTF-8; decoded as {self.encoding} "
                f"(first non-ASCII byte on line {line})", line=line,
                details={"encoding": self.encoding}))

    def blocks(self) -> Iterator[str]:
        """The decoded text in blocks of whole lines (line ends ``\n``; the last block may
        end without one)."""
        blocks = chain(self.head, iter(self._block, b""))
        self.head = []
        enc = self.encoding
        if enc is not None and not _ascii_compatible(enc):
            yield from self._wide_blocks(blocks, enc)
            return
        yield from self._narrow_blocks(blocks)

    def _wide_blocks(self, blocks: Iterator[bytes], enc: str) -> Iterator[str]:
        decoder = codecs.getincrementaldecoder(enc)(errors="replace")

        def texts() -> Iterator[str]:
            first = True
            for data in blocks:
                text = decoder.decode(data)
                if first and text.startswith("\ufeff"):
                    text = text[1:]
                first = False
                if text.count("\0") * 2 > len(text) > 0:
                    self._binary(self.line_no + 1)
                    return
                yield text
            tail = decoder.decode(b"", final=True)
            if tail:
                yield tail

        for body in line_blocks(texts()):
            self.line_no += body.count("\n") + (not body.endswith("\n"))
            yield body

    def _narrow_blocks(self, blocks: Iterator[bytes]) -> Iterator[str]:
        partial: list[bytes] = []
        cr = False
        first = True
        for block in blocks:
            if first:
                first = False
                if block.startswith(codecs.BOM_UTF8) and (
                        self.encoding is None
                        or codecs.lookup(self.encoding).name in ("utf-8", "utf-8-sig")):
                    block = block[3:]  # the BOM is no text (also with --encoding utf-8)
                    self.encoding = self.encoding or "utf-8-sig"
            if not block:
                continue
            block, binary = self._skip_nuls(block)
            if self._stopped:  # binary data on end: the rest of the input is not read
                break
            if self.encoding is None and not block.isascii():
                block = self._decide(block, blocks, partial)
            if cr and block[:1] == b"\n":
                block = block[1:]
            cr = block.endswith(b"\r")
            if b"\r" in block:
                block = block.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
            last = block.rfind(b"\n")
            if last < 0:
                partial.append(block)
            else:
                partial.append(block[:last + 1])
                body = b"".join(partial)
                partial = [block[last + 1:]] if last + 1 < len(block) else []
                yield from self._emit(body)
            if binary:
                yield from self._emit(b"".join(partial))
                self._binary(self.line_no + 1)
                return
        if partial:
            yield from self._emit(b"".join(partial))
        if self._stopped or self.nul_run >= len(_NUL_RUN):
            self._skipped(self.nul_run, self.line_no + 1, stopped=self._stopped)
        if self.bad_lines > MAX_BYTE_NOTES:
            self.notes.append(make_finding(
                "invalid-bytes", f"{self.bad_lines - MAX_BYTE_NOTES} more line(s) with invalid "
                f"bytes (not listed)", line=self.line_no,
                details={"lines": self.bad_lines - MAX_BYTE_NOTES}))

    def _skip_nuls(self, block: bytes) -> tuple[bytes, bool]:
        """``block`` without its runs of :data:`_NUL_RUN` or more NUL bytes (each run a
        ``binary-data`` finding at its line; reading goes on after it), and True when what
        is left is still mostly NUL bytes (binary data: reading stops). A run that reaches
        the end of the block is carried to the next (``nul_run``); one longer than
        :data:`BINARY_LIMIT` stops reading, so ``/dev/zero`` ends at once."""
        if self.nul_run:
            lead = len(block) - len(block.lstrip(b"\0"))
            self.nul_run += lead
            if self.nul_run > BINARY_LIMIT:
                self._stopped = True
                return b"", False
            if lead == len(block):
                return b"", False
            run, self.nul_run = self.nul_run, 0
            block = block[lead:]
            if run < len(_NUL_RUN):
                block = b"\0" * run + block
            else:
                self._skipped(run, self.line_no + 1)
        if 0 not in block:
            return block, False
        stripped = block.rstrip(b"\0")
        if len(stripped) < len(block):
            self.nul_run = len(block) - len(stripped)
            block = stripped
        if _NUL_RUN in block:
            pieces: list[bytes] = []
            last = 0
            for m in _NUL_RUNS.finditer(block):
                pieces.append(block[last:m.start()])
                last = m.end()
                self._skipped(m.end() - m.start(),
                              self.line_no + 1 + block.count(b"\n", 0, m.start()))
            pieces.append(block[last:])
            block = b"".join(pieces)
        return block, len(block) > 16 and block.count(0) * 2 > len(block)

    def _skipped(self, count: int, line: int, stopped: bool = False) -> None:
        if stopped:
            self._binary(line)
            return
        self.nul_notes += 1
        if self.nul_notes > MAX_BYTE_NOTES:
            return
        self.notes.append(make_finding(
            "binary-data", f"a run of {count:,} NUL bytes (binary data) on line {line} was "
            "skipped; reading went on after it", line=line, details={"bytes": count}))

    def _decide(self, block: bytes, blocks: Iterator[bytes], partial: list[bytes]) -> bytes:
        """Decide the encoding at the first non-ASCII byte of ``block``, reading ahead up
        to WINDOW bytes; returns the block extended by what was read ahead."""
        start = len(block) - len(block.lstrip(_ASCII))
        parts = [block]
        size = len(block) - start
        while size < WINDOW:
            more = next(blocks, b"")
            if not more:
                break
            parts.append(more)
            size += len(more)
        block = b"".join(parts)
        self._choose(block, start, b"".join(partial))
        return block

    def _emit(self, body: bytes) -> Iterator[str]:
        """Decode whole lines (``body`` ends in ``\\n`` except at the end of input), as one
        block. In a file decided to be UTF-8, invalid bytes are kept as lone surrogates
        (``surrogateescape``) for their game to be judged on its own (:meth:`Opened._game`)."""
        if not body:
            return
        enc = self.encoding or "utf-8"
        try:
            text = body.decode(enc)
        except UnicodeDecodeError:
            if self.requested is None and enc in ("utf-8", "utf-8-sig"):
                text = body.decode("utf-8", "surrogateescape")
                self.escaped = True
            else:
                text = self._decode_lines(body, enc)
        except LookupError:  # pragma: no cover - an unknown encoding is refused earlier
            raise
        self.line_no += text.count("\n") + (not text.endswith("\n"))
        yield text

    def _decode_lines(self, body: bytes, enc: str) -> str:
        """Decode line by line, replacing invalid bytes and noting each such line."""
        out = []
        for i, raw in enumerate(body.split(b"\n")):
            try:
                out.append(raw.decode(enc))
            except UnicodeDecodeError as exc:
                out.append(raw.decode(enc, errors="replace"))
                self.bad_lines += 1
                if self.bad_lines <= MAX_BYTE_NOTES:
                    line = self.line_no + 1 + i
                    bad = raw[exc.start:exc.end]
                    self.notes.append(make_finding(
                        "invalid-bytes", f"line {line}: byte(s) {bad.hex(' ')} at column "
                        f"{exc.start + 1} are not valid {enc}; replaced with U+FFFD",
                        line=line, column=exc.start + 1,
                        details={"encoding": enc, "bytes": bad.hex(" ")}))
        return "\n".join(out)

    def _binary(self, line: int) -> None:
        self.notes.append(make_finding(
            "binary-data", f"binary data (NUL bytes) from line {line} on: the rest of the "
            "input is not read", line=line))


def _ascii_compatible(encoding: str) -> bool:
    """True when ``encoding`` writes ASCII (and so line ends) as single ASCII bytes."""
    try:
        return "[\n\r1.".encode(encoding) == b"[\n\r1."
    except (LookupError, UnicodeError):
        return False


def check_encoding(encoding: str | None) -> str | None:
    """``encoding`` checked against Python's codecs (``None`` stays ``None``); an unknown
    name raises ``ValueError`` (API misuse, a usage error on the command line).

    Example:
        >>> check_encoding("CP866"), check_encoding(None)
        ('CP866', None)
    """
    if encoding is None:
        return None
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise ArgumentError(f"unknown encoding {encoding!r} (use a Python codec name such as "
                         "utf-8, cp1251, cp866, cp1252, latin-1, utf-16)") from None
    return encoding


def source_name(path: str | os.PathLike[str]) -> str:
    """The name recorded for a source: ``<stdin>`` for ``-``, else the path as given.

    Example:
        >>> source_name("-"), source_name(Path("a.pdn"))
        ('<stdin>', 'a.pdn')
    """
    text = os.fspath(path)
    return "<stdin>" if text == STDIN else text




class UnreadableFolderError(PdnkitError, PermissionError):
    """A folder given (or a folder inside it) cannot be listed: its PDN files would be
    left out without a word, so reading stops with the folders named."""


def pdn_files(folder: str | os.PathLike[str],
              suffixes: tuple[str, ...] = (".pdn",)) -> list[Path]:
    """The files below ``folder`` whose name ends in one of ``suffixes`` (any case; by default
    ``*.pdn``), recursively and sorted. A subfolder that cannot be listed raises
    :class:`UnreadableFolderError` naming it (never skipped silently).

    Example:
        >>> import tempfile
        >>> d = Path(tempfile.mkdtemp()); (d / "sub").mkdir()
        >>> _ = (d / "sub" / "a.PDN").write_text("*"); _ = (d / "b.txt").write_text("*")
        >>> [p.name for p in pdn_files(d)]
        ['a.PDN']
    """
    unreadable: list[str] = []

    def note(err: OSError) -> None:
        unreadable.append(f"{err.filename}: {err.strerror or err}")

    found = [Path(root) / name for root, _dirs, files in os.walk(folder, onerror=note)
             for name in files if name.lower().endswith(suffixes)]
    if unreadable:
        raise UnreadableFolderError(
            "cannot read the folder(s) " + "; ".join(unreadable) + " (their PDN files would "
            "be left out): fix the permissions or leave them out of the input")
    return sorted(p for p in found if p.is_file())


class NoInputError(PdnkitError, FileNotFoundError):
    """The paths given name no PDN file (an empty folder, a folder without ``*.pdn``)."""


def no_input(paths: Iterable[object]) -> NoInputError:
    """The error for paths that hold no PDN file, naming them.

    Example:
        >>> str(no_input(["empty/"]))
        'no PDN files found in: empty/ (folders are searched for *.pdn)'
    """
    names = ", ".join(os.fspath(p) if isinstance(p, (str, os.PathLike)) else repr(p)
                      for p in paths)
    return NoInputError(f"no PDN files found in: {names} (folders are searched for *.pdn)")


def spool_copy(path: str | os.PathLike[str]) -> tuple[Path, str]:
    """Read a non-regular input (``-``, a FIFO, ``/dev/stdin``) once into a temporary file,
    hashing it on the way; returns ``(temporary path, hex SHA-256)``. The caller deletes
    the file. (A database import needs the content hash before it loads a file.)

    Example:
        >>> import tempfile
        >>> d = tempfile.mkdtemp(); p = os.path.join(d, "g.pdn")
        >>> _ = open(p, "wb").write(b"abc")
        >>> tmp, sha = spool_copy(p); sha[:16], tmp.read_bytes()
        ('ba7816bf8f01cfea', b'abc')
        >>> tmp.unlink()
    """
    import hashlib
    import tempfile

    h = hashlib.sha256()
    src = sys.stdin.buffer if os.fspath(path) == STDIN else open(path, "rb")  # noqa: SIM115
    fd, name = tempfile.mkstemp(suffix=".pdn", prefix="pdnkit-input-")
    try:
        with os.fdopen(fd, "wb") as out:
            for block in iter(lambda: src.read(BLOCK), b""):
                h.update(block)
                out.write(block)
    except BaseException:
        os.unlink(name)
        raise
    finally:
        if src is not sys.stdin.buffer:
            src.close()
    return Path(name), h.hexdigest()


__all__ = ["STDIN", "NoInputError", "Opened", "Source", "UnreadableFolderError", "bare_record",
           "check_encoding", "is_path_like", "is_regular_file", "no_input", "open_source",
           "pdn_files", "source_name", "spool_copy"]
