"""Issue 26 point 16: ``convert`` writes the GameType of the variant it guessed for every
file (it did so only for Italian files; guessed Russian, Czech and English files came out
without one, so the next reader had to guess again)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pdnkit.rules import get_rules
from pdnkit.samples import sample_dir
from pdnkit.validation import convert, validate


@pytest.mark.parametrize("variant", ["russian", "czech", "english", "italian", "frisian"])
def test_convert_writes_the_guessed_gametype(variant: str, tmp_path: Path) -> None:
    text = (sample_dir() / f"{variant}.pdn").read_text(encoding="utf-8")
    src = tmp_path / "untagged.pdn"
    src.write_text(re.sub(r'^\[GameType "[^"]*"\]\n', "", text, flags=re.M), encoding="utf-8")
    assert "GameType" not in src.read_text(encoding="utf-8")
    guessed = {r.variant for r in validate(src, light=True)}
    assert guessed == {variant}  # what validate reads the file as
    out = tmp_path / "out.pdn"
    summary = convert([src], out)
    written = re.findall(r'^\[GameType "([^"]*)"\]', out.read_text(encoding="utf-8"), re.M)
    assert len(written) == summary.written > 0
    assert set(written) == {str(get_rules(variant).gametype)}
    # and read back, every game is of that variant without any guess
    again = list(validate(out, light=True))
    assert {r.variant for r in again} == {variant}
    assert not any(f.code == "variant-guessed" for r in again for f in r.findings)
