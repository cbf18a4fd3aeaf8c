"""The bundled sample collections in ``data/`` are exactly what the seeded generator writes
(data/README.md promises that regenerating them gives the same files)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdnkit.samples.samples import main

DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.mark.slow  # the games are played by a small search: about 10 s
def test_generator_rewrites_the_bundled_files_byte_for_byte(tmp_path: Path) -> None:
    main([str(tmp_path)])
    written = sorted(p.name for p in tmp_path.glob("*.pdn"))
    bundled = sorted(p.name for p in DATA.glob("*.pdn"))
    assert written == bundled and len(bundled) >= 7
    for name in bundled:
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), name
