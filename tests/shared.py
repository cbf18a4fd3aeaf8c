"""Access to the public test material in ``../shared/data`` (tests skip when it is absent)."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("PDNKIT_SHARED_DATA", ROOT.parent / "shared" / "data"))


def shared_path(*parts: str) -> Path:
    """Path inside the shared test material; skips the calling test when it is missing."""
    p = SHARED_DATA.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"shared test data not available: {p}")
    return p


def sample_games(path: Path, out: Path, count: int, seed: int = 2000) -> Path:
    """A seeded sample of ``count`` games of the clean file ``path`` (games that each begin
    with an ``[Event`` line), in file order, written to ``out``."""
    text = path.read_text(encoding="utf-8")
    starts = [m.start() for m in re.finditer(r"^\[Event ", text, re.MULTILINE)]
    games = [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]
    picked = sorted(random.Random(seed).sample(range(len(games)), count))
    out.write_text("".join(games[i] for i in picked), encoding="utf-8")
    return out


#: what a user saw: an Italian file written only with Italian tag names
ITALIAN = """[Bianco "Rossi, M."]
[Nero "Bianchi, L."]
[Risultato "1-0"]
[Dati "69° ASSOLUTO 1° TURNO"]
[Anno "1990"]
[Apertura "12"]

1. 22-18 11-15 2. 18x11 1-0
"""
