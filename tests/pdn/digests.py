"""Digests of what the shared real files give: one SHA-256 per file over what the reader
and the validator make of every game (not a copy of the data: a digest of it).

Run ``python -m tests.pdn.digests`` from the project root to print today's digests (the
values stored in ``tests/pdn/test_real_digest.py`` came from it, at the commit it names).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pdnkit.pdn import read_games
from pdnkit.validation import validate


def reader_view(path: Path) -> list[dict[str, Any]]:
    """Per game, what the reader gives: position, tags, main-line moves, result, codes."""
    out = []
    for g in read_games(path):
        out.append({
            "index": g.index, "line": g.line, "parsed": g.parsed, "tags": g.tags,
            "moves": [(m.number, m.black_dots, m.squares, m.separators, m.placeholder)
                      for m in g.moves],
            "result": g.result, "codes": [f.code for f in g.findings]})
    return out


def validator_view(path: Path) -> list[dict[str, Any]]:
    """Per game, what the validator gives: variant, status, results, plies, final position
    and the codes of every finding."""
    out = []
    for r in validate(path):
        out.append({
            "index": r.index, "line": r.line, "variant": r.variant, "status": r.status,
            "white": r.white, "black": r.black, "result": r.result,
            "result_raw": r.result_raw, "outcome": r.outcome, "plies": r.ply_count,
            "replayed": r.replayed_plies, "final_fen": r.final_fen,
            "codes": [f.code for f in r.findings]})
    return out


def digest(obj: object) -> str:
    """SHA-256 of the canonical JSON of ``obj`` (first 24 hex digits)."""
    text = json.dumps(obj, ensure_ascii=False, sort_keys=True, default=list)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def file_digests(path: Path) -> tuple[int, str, str]:
    """(games, reader digest, validator digest) of one file."""
    games = reader_view(path)
    return len(games), digest(games), digest(validator_view(path))


def real_files(root: Path) -> list[Path]:
    """Every file of ``root`` (the shared ``real/`` folder), sorted."""
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".pdn", ".txt"))


if __name__ == "__main__":  # pragma: no cover - prints the table stored in the test
    from tests.shared import SHARED_DATA

    root = SHARED_DATA / "real"
    for p in real_files(root):
        n, a, b = file_digests(p)
        print(f"    {p.relative_to(root).as_posix()!r}: ({n}, {a!r}, {b!r}),")


GAME_COLUMNS = ("game_index", "line", "variant", "gametype", "event", "site", "date_raw",
                "round", "white", "black", "result", "result_raw", "plies",
                "replayed_plies", "status", "outcome", "final_fen", "moves_hash")
MOVE_COLUMNS = ("ply", "move_number", "side", "notation", "canonical", "origin",
                "destination", "path", "captured")


def imported_rows(paths: list[Path], db: Path) -> dict[str, str]:
    """``{file path: digest}`` of the ``games`` and ``moves`` rows that
    :func:`pdnkit.store.import_files` stores for each file (by column name only)."""
    from pdnkit.store import connect, import_files

    import_files(paths, db=db)
    con = connect(db, read_only=True)
    try:
        out: dict[str, str] = {}
        files = con.execute("SELECT file_id, path FROM files").fetchall()
        for file_id, fpath in files:
            games = con.execute(
                f"SELECT game_id, {', '.join(GAME_COLUMNS)} FROM games WHERE file_id = ? "
                "ORDER BY game_index", [file_id]).fetchall()
            moves = con.execute(
                f"SELECT g.game_index, {', '.join('m.' + c for c in MOVE_COLUMNS)} FROM moves m "
                "JOIN games g USING (game_id) WHERE g.file_id = ? ORDER BY g.game_index, m.ply",
                [file_id]).fetchall()
            out[str(fpath)] = digest([[list(r[1:]) for r in games], [list(r) for r in moves]])
        return out
    finally:
        con.close()
