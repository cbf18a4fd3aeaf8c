"""What endgame databases are built: ``pdnkit egdb info``.

One row per variant and number of pieces, read from the files' headers (no codes are read):
the signatures built of all the signatures of that many pieces, the positions they hold (one
side to move, the way the published counts count them: 120, 6,972, 261,224 and 7,092,774
for checkers up to 4 pieces), wins, draws and losses (for the side to move, both sides to
move counted), the longest win or loss in plies, and the bytes on disk.

Example:
    >>> import tempfile
    >>> from pdnkit.egdb.builder import build
    >>> d = tempfile.mkdtemp(); _ = build("english", 2, directory=d)
    >>> [(r["pieces"], r["positions"], r["complete"]) for r in info(d)]
    [(1, 120, True), (2, 6972, True)]
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pdnkit.egdb.builder import rules_of
from pdnkit.egdb.files import SUFFIX, DamagedFileError, default_dir, read_header, rules_digest
from pdnkit.egdb.index import Signature, build_order, signatures
from pdnkit.rules.variants import Rules, list_variants

__all__ = ["info"]

COLUMNS = ("variant", "pieces", "signatures", "of", "positions", "complete", "wins", "draws",
           "losses", "longest", "bytes", "folder", "note")
#: the columns of one row per signature (``info(by_signature=True)``)
SIGNATURE_COLUMNS = ("variant", "pieces", "signature", "label", "positions", "wins", "draws",
                     "losses", "longest", "bytes", "folder", "note")


def _rules_of_folder(folder: Path) -> tuple[str, Rules | None]:
    """The variant a folder's name gives and the rules record whose digest it carries."""
    name, _, digest = folder.name.rpartition("-")
    for r in list_variants():
        if r.name == name and not r.king_move_limit:
            try:
                if rules_digest(r).hex()[:12] == digest:
                    return name, r
            except ValueError:
                continue
    return name, None


def _rows_of(folder: Path, name: str, rules: Rules | None,
             by_signature: bool = False) -> list[dict[str, Any]]:
    by_pieces: dict[int, dict[str, Any]] = {}
    singles: list[dict[str, Any]] = []
    damaged = 0
    for path in sorted(folder.glob(f"*{SUFFIX}")):
        try:
            sig = Signature.parse(path.name[: -len(SUFFIX)])
            head = read_header(path)
        except (ValueError, DamagedFileError):
            damaged += 1
            continue
        if rules is not None and (head.digest != rules_digest(rules) or head.sig != sig):
            damaged += 1
            continue
        singles.append({
            "variant": name, "pieces": sig.pieces, "signature": sig.name, "label": sig.label,
            "positions": head.positions // 2, "wins": head.wins, "draws": head.draws,
            "losses": head.losses, "longest": head.longest, "bytes": path.stat().st_size,
            "folder": str(folder), "note": None})
        row = by_pieces.setdefault(sig.pieces, {
            "variant": name, "pieces": sig.pieces, "signatures": 0,
            "of": len(signatures(sig.pieces)), "positions": 0, "complete": False, "wins": 0,
            "draws": 0, "losses": 0, "longest": 0, "bytes": 0, "folder": str(folder),
            "note": None})
        row["signatures"] += 1
        row["positions"] += head.positions // 2
        row["wins"] += head.wins
        row["draws"] += head.draws
        row["losses"] += head.losses
        row["longest"] = max(row["longest"], head.longest)
        row["bytes"] += path.stat().st_size
    rows = [by_pieces[n] for n in sorted(by_pieces)]
    for row in rows:
        row["complete"] = row["signatures"] == row["of"]
    if by_signature:
        order = {s: i for i, s in enumerate(build_order(max(by_pieces, default=0)))}
        rows = sorted(singles, key=lambda r: order[Signature.parse(r["signature"])])
    for row in rows:
        if rules is None:
            row["note"] = "built for rules pdnkit no longer has: remove the folder"
        elif damaged:
            row["note"] = (f"{damaged} file(s) fail their check: pdnkit egdb build "
                           f"{name} makes them again")
    return rows


def info(directory: str | os.PathLike[str] | None = None,
         variant: str | Rules | None = None, by_signature: bool = False) -> list[dict[str, Any]]:
    """``pdnkit egdb info``: what is built in ``directory`` (default: ``$PDNKIT_EGDB`` or
    the per-user cache), one row per variant and number of pieces (see the module's text);
    only ``variant``'s rows when given; ``by_signature``: one row per signature instead
    (:data:`SIGNATURE_COLUMNS`, in build order).

    Example:
        >>> info("/nonexistent/folder")
        []
        >>> import tempfile
        >>> from pdnkit.egdb.builder import build
        >>> d = tempfile.mkdtemp(); _ = build("english", 2, directory=d)
        >>> [(r["label"], r["positions"]) for r in info(d, by_signature=True)][4:6]
        [('- v 2K', 496), ('K v K', 992)]
    """
    base = Path(directory).expanduser() if directory is not None else default_dir()
    wanted = rules_of(variant).name if variant is not None else None
    rows: list[dict[str, Any]] = []
    if not base.is_dir():
        return rows
    for folder in sorted(p for p in base.iterdir() if p.is_dir()):
        name, rules = _rules_of_folder(folder)
        if wanted is None or name == wanted:
            rows += _rows_of(folder, name, rules, by_signature)
    return rows
