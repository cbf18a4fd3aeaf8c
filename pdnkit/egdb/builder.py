"""Building a variant's endgame databases: every signature up to a number of pieces.

:func:`build` solves the signatures in :func:`~pdnkit.egdb.index.build_order` (fewer pieces
first, then fewer men: a capture leads to fewer pieces, a promotion to one man fewer), each
written to its own file as soon as it is solved (:mod:`pdnkit.egdb.files`). A file already
there is checked (digest, signature, size, checksum) and kept; one that fails is solved
again; the temporary files of a build that was killed are removed. A build stopped at any
moment and run again therefore goes on where it stopped, and never leaves a file that
probes wrong. Where the variant's tables are the same for both colours (checked from them),
a signature whose colour-swapped one is built is read off it instead of solved: about half
the work.

Example:
    >>> import tempfile
    >>> rep = build("english", 2, directory=tempfile.mkdtemp())
    >>> rep.positions, len(rep.built), len(rep.kept)
    ({1: 120, 2: 6972}, 14, 0)
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from pdnkit.egdb.backend import Backend, PureBackend, backend_for
from pdnkit.egdb.files import (
    DamagedFileError,
    EgdbError,
    file_of,
    read_file,
    remove_leftovers,
    variant_dir,
    write_file,
)
from pdnkit.egdb.index import MAX_PIECES, Signature, build_order, layout_of, leads_to
from pdnkit.rules.variants import Rules, get_rules

__all__ = ["PURE_MAX_PIECES", "BuildReport", "Step", "build", "rules_of"]

#: the most pieces the pure-Python solver builds (about a minute for 3 pieces on 8x8)
PURE_MAX_PIECES = 3


class Step(NamedTuple):
    """One signature done, for a progress bar: its place in the build, and the slots done
    of all the build's slots (positions of both sides to move, gaps included)."""

    sig: Signature
    number: int
    of: int
    slots_done: int
    slots_total: int
    kept: bool


@dataclass(frozen=True)
class BuildReport:
    """What a build did: the folder, the signatures solved now and those kept from an
    earlier build (or rebuilt because their file failed its check), the positions per
    number of pieces (one side to move, the published way of counting), time and memory."""

    variant: str
    folder: Path
    pieces: int
    built: tuple[Signature, ...]
    kept: tuple[Signature, ...]
    damaged: tuple[str, ...]
    positions: dict[int, int]
    seconds: float
    peak_mb: float
    longest: dict[int, int] = field(default_factory=dict)


def rules_of(variant: str | Rules, edition: str | None = None) -> Rules:
    """The rules record of a variant name (or the record itself).

    Example:
        >>> rules_of("checkers").name
        'english'
    """
    return variant if isinstance(variant, Rules) else get_rules(variant, edition)


def _peak_mb() -> float:
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 / 1024 if os.uname().sysname == "Darwin" else peak / 1024


def _check_pieces(rules: Rules, pieces: int, backend: Backend) -> None:
    if not isinstance(pieces, int) or isinstance(pieces, bool) or not 1 <= pieces <= MAX_PIECES:
        raise EgdbError(f"pieces must be a whole number from 1 to {MAX_PIECES}, not {pieces!r}")
    if isinstance(backend, PureBackend) and pieces > PURE_MAX_PIECES:
        raise EgdbError(
            f"the pure-Python solver builds up to {PURE_MAX_PIECES} pieces; {pieces} pieces "
            "need pdnkit's compiled core (installed with a C compiler; PDNKIT_PURE unset)")


def _order(pieces: int, only: Iterable[Signature] | None) -> list[Signature]:
    if only is None:
        return build_order(pieces)
    wanted = {s for sig in only for s in leads_to(Signature(*sig))}
    return [s for s in build_order(max((s.pieces for s in wanted), default=0)) if s in wanted]


def build(variant: str | Rules, pieces: int, *, directory: str | os.PathLike[str] | None = None,
          edition: str | None = None, progress: Callable[[Step], None] | None = None,
          only: Iterable[Signature] | None = None) -> BuildReport:
    """Build every endgame database of ``variant`` up to ``pieces`` pieces in all (men and
    kings of both sides, every split of the material) into ``directory`` (default:
    ``$PDNKIT_EGDB`` or the per-user cache, :func:`pdnkit.egdb.files.default_dir`). ``progress`` is called
    after each signature. ``only``: build just these signatures (of up to ``pieces`` pieces)
    and those their games can reach. Raises :class:`~pdnkit.egdb.files.EgdbError` for a variant the
    index cannot hold (Frisian's king-move counters) or a number of pieces out of range.

    Example:
        >>> import tempfile
        >>> d = tempfile.mkdtemp()
        >>> build("russian", 1, directory=d).built[0].label
        '- v K'
        >>> build("russian", 1, directory=d).kept[0].label
        '- v K'
    """
    start = time.perf_counter()
    rules = rules_of(variant, edition)
    backend = backend_for(rules)
    _check_pieces(rules, pieces, backend)
    folder = variant_dir(rules, directory)
    folder.mkdir(parents=True, exist_ok=True)
    remove_leftovers(folder)
    lay = layout_of(rules)
    order = _order(pieces, only)
    if only is not None and any(s.pieces > pieces for s in order):
        raise EgdbError(f"a signature of `only` has more than {pieces} pieces")
    total = sum(2 * lay.half(s) for s in order)
    built: list[Signature] = []
    kept: list[Signature] = []
    damaged: list[str] = []
    longest: dict[int, int] = {}
    done = 0
    for number, sig in enumerate(order, 1):
        path = file_of(folder, sig)
        table = None
        if path.exists():
            try:
                table = read_file(path, rules, sig)
                kept.append(sig)
            except DamagedFileError as exc:
                damaged.append(str(exc))
        was_kept = table is not None
        if table is None:  # the colour-swapped signature's values, else solved
            table = backend.mirror(sig) or backend.solve(sig)
            write_file(folder, rules, sig, table)
            built.append(sig)
        backend.add(sig, table)
        longest[sig.pieces] = max(longest.get(sig.pieces, 0), table.longest)
        done += 2 * lay.half(sig)
        if progress is not None:
            progress(Step(sig, number, len(order), done, total, was_kept))
    positions = {n: sum(lay.positions(s) for s in order if s.pieces == n)
                 for n in sorted({s.pieces for s in order})}
    return BuildReport(rules.name, folder, pieces, tuple(built), tuple(kept), tuple(damaged),
                       positions, time.perf_counter() - start, _peak_mb(), longest)
