"""Worker processes give the same reports as one process, findings added by the parent
(``encoding-fallback``, ``ignored-text``) included in the game's status."""

from __future__ import annotations

from pathlib import Path

from pdnkit.validation import validate


def _summary(path: Path | str, jobs: int) -> list[tuple[int, str, list[str]]]:
    return [(r.index, r.status, r.finding_codes())
            for r in validate(path, jobs=jobs, chunk_size=1, light=True)]


def test_legacy_encoding_keeps_its_warning_status_in_workers(tmp_path: Path) -> None:
    # a CP1252 file: its first game carries the encoding-fallback warning
    src = tmp_path / "legacy.pdn"
    src.write_bytes('[Event "Caf\u00e9"]\n[GameType "20"]\n1. 32-28 19-23 *\n\n'
                    '[GameType "20"]\n1. 33-29 *\n'.encode("cp1252"))
    one = _summary(src, 1)
    assert one[0][2][0] == "encoding-fallback"
    assert one[0][1] == "warning"
    assert _summary(src, 2) == one


def test_stray_text_keeps_its_status_in_workers(tmp_path: Path) -> None:
    src = tmp_path / "stray.pdn"
    src.write_text('[GameType "20"]\n1. 32-28 *\n\nsome note between games\n\n'
                   '[GameType "20"]\n1. 33-29 *\n', encoding="utf-8")
    one = _summary(src, 1)
    # the note is kept with the game it follows (the reader's layout model)
    assert "ignored-text" in one[0][2] and one[0][1] == "warning"
    assert _summary(src, 2) == one
