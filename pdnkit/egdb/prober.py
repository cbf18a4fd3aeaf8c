"""Probing a variant's endgame databases: a position's value, its length, the best moves.

:class:`Egdb` opens a variant's folder and loads a signature's file the first time a
position needs it (checked as :func:`~pdnkit.egdb.files.read_file` checks it). A position's
:class:`Verdict` is the game-theoretic value for the side to move (``win``, ``draw`` or
``loss``, with no move-count draw rule: a position played forever is a draw) and the plies to
the end of the game with best play (the winner as fast, the loser as slowly as possible; the
end is the position where the side to move has no legal move, or no piece). :func:`probe`
is ``pdnkit egdb probe``: FEN strings in, one row each.

Example:
    >>> import tempfile
    >>> from pdnkit.egdb.builder import build
    >>> d = tempfile.mkdtemp(); _ = build("english", 3, directory=d)
    >>> [(r["value"], r["plies"], r["moves"]) for r in probe("english", ["B:WK10:B", "W:WK10:B"],
    ...                                                       directory=d)]
    [('loss', 0, []), ('win', 1, ['10-6', '10-7', '10-14', '10-15'])]
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from pdnkit.egdb.backend import (
    MISSING,
    NOT_INDEXED,
    CompiledBackend,
    backend_for,
    bits_after,
    placement_bits,
)
from pdnkit.egdb.builder import rules_of
from pdnkit.egdb.files import DamagedFileError, EgdbError, file_of, read_file, variant_dir
from pdnkit.egdb.index import (
    MAX_PIECES,
    Signature,
    build_order,
    decode_code,
    encode,
    signatures,
)

if TYPE_CHECKING:
    from pdnkit.rules.position import Move, Position
    from pdnkit.rules.variants import Rules

__all__ = ["Egdb", "Verdict", "probe", "signature_of"]

Bits = tuple[int, int, int, int]


class Verdict(NamedTuple):
    """A position's value for the side to move (``None`` where no database holds it, with
    the reason in ``note``) and the plies to the end of the game (``None`` for a draw)."""

    value: str | None
    plies: int | None
    note: str | None = None


def signature_of(bits: Bits) -> Signature:
    """The signature of ``(side, white, black, kings)``.

    Example:
        >>> signature_of((0, 0b111, 0b1000, 0b1001))
        Signature(wm=2, wk=1, bm=0, bk=1)
    """
    _, white, black, kings = bits
    return Signature((white & ~kings).bit_count(), (white & kings).bit_count(),
                     (black & ~kings).bit_count(), (black & kings).bit_count())


class Egdb:
    """A variant's endgame databases in ``directory`` (default: ``$PDNKIT_EGDB`` or the
    per-user cache), loaded as positions need them.

    Example:
        >>> import tempfile
        >>> from pdnkit.egdb.builder import build
        >>> from pdnkit.rules import parse_fen
        >>> d = tempfile.mkdtemp(); _ = build("russian", 2, directory=d)
        >>> db = Egdb("russian", d)
        >>> db.verdict(parse_fen("W:WK1:BK32", db.rules))
        Verdict(value='draw', plies=None, note=None)
    """

    def __init__(self, variant: str | Rules, directory: str | os.PathLike[str] | None = None,
                 *, edition: str | None = None) -> None:
        self.rules = rules_of(variant, edition)
        self.backend = backend_for(self.rules)
        self.directory = directory
        self.folder = variant_dir(self.rules, directory)
        self.damaged: dict[Signature, str] = {}
        self._absent: set[Signature] = set()

    def has_file(self, sig: Signature) -> bool:
        """Whether the signature's file is in the folder (not checked yet)."""
        return file_of(self.folder, sig).is_file()

    def complete_pieces(self) -> int:
        """The most pieces up to which every signature's file is in the folder (0: none)."""
        n = 0
        while n < MAX_PIECES and all(self.has_file(s) for s in signatures(n + 1)):
            n += 1
        return n

    def built_pieces(self) -> int:
        """The most pieces of a signature whose file is in the folder (0: none)."""
        from pdnkit.egdb.files import SUFFIX

        most = 0
        if self.folder.is_dir():
            for path in self.folder.glob(f"*{SUFFIX}"):
                try:
                    most = max(most, Signature.parse(path.name[: -len(SUFFIX)]).pieces)
                except ValueError:
                    continue
        return most

    def load(self, sig: Signature) -> bool:
        """Load a signature's file (once); ``False`` when it is not built or fails its check
        (the reason in :attr:`damaged`)."""
        if self.backend.has(sig):
            return True
        if sig in self._absent:
            return False
        path = file_of(self.folder, sig)
        if path.is_file():
            try:
                self.backend.add(sig, read_file(path, self.rules, sig))
                return True
            except DamagedFileError as exc:
                self.damaged[sig] = str(exc)
        self._absent.add(sig)
        return False

    def load_all(self, pieces: int = MAX_PIECES) -> int:
        """Load every built signature of up to ``pieces`` pieces; their number."""
        return sum(self.load(s) for s in build_order(pieces) if self.has_file(s))

    def codes(self, positions: Sequence[Bits]) -> list[int]:
        """The code of each ``(side, white, black, kings)`` (PDN square bitboards), loading
        what they need: :data:`~pdnkit.egdb.backend.MISSING` where no database holds it,
        :data:`~pdnkit.egdb.backend.NOT_INDEXED` where no database can."""
        for sig in {signature_of(b) for b in positions}:
            if sig.pieces <= MAX_PIECES:
                self.load(sig)
        return self.backend.codes(positions)

    def codes_raw(self, records: bytes) -> bytes:
        """Codes of 56-byte records (:func:`pdnkit.core.retro.record`), two bytes each, from
        the signatures loaded already (:meth:`load_all`): the fast path of large batches,
        on the compiled core only."""
        if not isinstance(self.backend, CompiledBackend):
            raise EgdbError("raw probes need the compiled core")
        return self.backend.codes_raw(records)

    def build_hint(self, pieces: int) -> str:
        """The command that builds the databases of ``pieces`` pieces here."""
        where = f" --dir {self.directory}" if self.directory is not None else ""
        return f"pdnkit egdb build {self.rules.name} --pieces {pieces}{where}"

    def _verdict(self, bits: Bits, code: int) -> Verdict:
        if code == NOT_INDEXED:
            sig = signature_of(bits)
            why = (f"{sig.pieces} pieces: databases hold at most {MAX_PIECES}"
                   if sig.pieces > MAX_PIECES else "a man stands where no man of its side can "
                   "stand in a game (its promotion row, or a square no man reaches from the "
                   "start)")
            return Verdict(None, None, why)
        if code == MISSING:
            sig = signature_of(bits)
            if sig in self.damaged:
                return Verdict(None, None, f"damaged: {self.damaged[sig]}; "
                                           f"{self.build_hint(sig.pieces)} makes it again")
            return Verdict(None, None, f"not built: {self.build_hint(sig.pieces)}")
        value, plies = decode_code(code)
        return Verdict(value, plies)

    def verdicts(self, positions: Iterable[Position]) -> list[Verdict]:
        """The :class:`Verdict` of each position."""
        bits = [placement_bits(p) for p in positions]
        return [self._verdict(b, c) for b, c in zip(bits, self.codes(bits), strict=True)]

    def verdict(self, position: Position) -> Verdict:
        """The :class:`Verdict` of one position."""
        return self.verdicts([position])[0]

    def best_moves(self, position: Position, verdict: Verdict | None = None) -> list[Move]:
        """The moves that keep the value: to a loss one ply shorter (a win), a draw (a
        draw), a win one ply shorter (a loss: the longest resistance). Empty where no
        database holds the position or the game is over. The moves are the rules engine's
        (:meth:`Position.legal_moves`)."""
        v = verdict or self.verdict(position)
        if v.value is None:
            return []
        if v.value == "draw":
            want = 0
        else:
            assert v.plies is not None
            if v.plies == 0:
                return []
            want = encode("loss" if v.value == "win" else "win", v.plies - 1)
        moves = position.legal_moves()
        here = placement_bits(position)
        codes = self.codes([bits_after(here, m) for m in moves])
        return [m for m, c in zip(moves, codes, strict=True) if c == want]


def probe(variant: str | Rules, fens: Iterable[str], *,
          directory: str | os.PathLike[str] | None = None, edition: str | None = None,
          db: Egdb | None = None) -> list[dict[str, Any]]:
    """``pdnkit egdb probe``: for each FEN, in order, ``fen``, ``value`` (``win``, ``draw``,
    ``loss`` for the side to move, ``None`` where no database holds the position), ``plies``
    (to the end of the game with best play; ``None`` for a draw), ``moves`` (the best moves
    in the variant's PDN notation) and ``note`` (why there is no value). A FEN may list no
    piece for a side. Raises :class:`~pdnkit.rules.FenError` naming the FEN's number for one
    that cannot be read.

    Example:
        >>> import tempfile
        >>> from pdnkit.egdb.builder import build
        >>> d = tempfile.mkdtemp(); _ = build("english", 2, directory=d)
        >>> probe("english", ["W:WK1:BK2,3"], directory=d)[0]["note"].split(" --dir")[0]
        'not built: pdnkit egdb build english --pieces 3'
        >>> probe("english", ["W:WK1:BK2"], directory=d)[0]
        {'fen': 'W:WK1:BK2', 'value': 'draw', 'plies': None, 'moves': ['1-5'], 'note': None}
    """
    from pdnkit.rules.fen import FenError, parse_fen
    from pdnkit.rules.notation import canonical_notation

    base = db or Egdb(variant, directory, edition=edition)
    texts = [f.strip() for f in fens]
    positions = []
    for n, text in enumerate(texts, 1):
        try:
            positions.append(parse_fen(text, base.rules))
        except FenError as exc:
            raise FenError(f"FEN {n} ({text!r}): {exc}") from None
    rows = []
    for text, pos, v in zip(texts, positions, base.verdicts(positions), strict=True):
        best = base.best_moves(pos, v) if v.value is not None else []
        legal = pos.legal_moves()
        rows.append({"fen": text, "value": v.value, "plies": v.plies,
                     "moves": [canonical_notation(m, pos, legal) for m in best],
                     "note": v.note})
    return rows
