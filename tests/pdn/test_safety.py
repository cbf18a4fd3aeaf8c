"""The reader's safety points of issue 26: nothing the file holds is dropped from what
``convert`` writes (5), a NUL run in mid-file does not drop the games after it, a few stray
bytes do not switch a UTF-8 file to a legacy encoding, an unreadable subfolder is never
skipped in silence (6a), the encoding scorer is linear (8), a header repeating one tag line
is linear to validate (9). Time bounds are generous hang checks, not benchmarks."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from pdnkit.pdn import read_games
from pdnkit.pdn.decode import decide, text_score
from pdnkit.pdn.source import UnreadableFolderError
from pdnkit.pdn.tools import lint
from pdnkit.validation import validate
from pdnkit.validation.rewrite import convert


def _converted(tmp_path: Path, text: str) -> str:
    src = tmp_path / "in.pdn"
    src.write_text(text, encoding="utf-8")
    out = tmp_path / "out.pdn"
    convert([src], out)
    return out.read_text(encoding="utf-8")


def test_a_tag_with_an_unclosed_quote_at_the_head_of_a_game_stays_in_its_game(
        tmp_path: Path) -> None:
    text = ('[Event "Club match"]\n1. 32-28 19-23 2-0\n\n'
            '[Event "Open 2003]\n[White "Tan, K."]\n1. 33-29 17-22 *\n')
    games = list(read_games(text))
    assert [g.tag("Event") for g in games] == ["Club match", "Open 2003"]
    assert games[1].raw.startswith('[Event "Open 2003]')
    (f,) = games[1].findings
    assert f.code == "unknown-tag-syntax" and f.game_index == 1 and f.line == 4
    assert not games[0].findings
    assert '[Event "Open 2003"]' in _converted(tmp_path, text)


@pytest.mark.parametrize("escape", ["; a note between the headers", "% a note between the headers"])
def test_a_tag_only_game_cut_by_an_escape_line_keeps_its_tags(tmp_path: Path,
                                                              escape: str) -> None:
    text = (f'[Event "Problem 1"]\n[White "Kok"]\n{escape}\n'
            '[Event "Problem 2"]\n[White "Dam"]\n1. 32-28 *\n')
    games = list(read_games(text))
    assert [g.tags for g in games] == [[("Event", "Problem 1"), ("White", "Kok")],
                                       [("Event", "Problem 2"), ("White", "Dam")]]
    assert "".join(g.raw for g in games).replace("\n", "") == text.replace("\n", "")
    out = _converted(tmp_path, text)
    assert '[Event "Problem 1"]' in out and '[White "Kok"]' in out
    assert '[Event "Problem 2"]' in out


def test_a_long_junk_line_is_kept_whole_with_the_game_it_follows(tmp_path: Path) -> None:
    junk = "page footer " + "x" * 500 + " end of the footer"
    text = f'[Event "a"]\n1. 32-28 2-0\n\n{junk}\n\n[Event "b"]\n1. 33-29 *\n'
    games = list(read_games(text))
    assert [g.tag("Event") for g in games] == ["a", "b"]
    (f,) = games[0].findings
    assert f.code == "ignored-text" and f.game_index == 0 and f.line == 4
    assert f.details["text"] == junk and len(f.message) < 200  # the message is an excerpt
    assert not games[1].findings and games[1].line == 6
    assert junk in games[0].raw and junk in _converted(tmp_path, text)


def test_a_nul_run_in_mid_file_is_skipped_and_the_later_games_are_read() -> None:
    games_text = [f'[Event "g{i}"]\n1. 32-28 *\n\n'.encode() for i in range(6)]
    data = b"".join(games_text[:2]) + b"\0" * 64 + b"".join(games_text[2:])
    games = list(read_games(data))
    assert [g.tag("Event") for g in games] == [f"g{i}" for i in range(6)]
    notes = [(g.index, f.code, f.line) for g in games for f in g.findings]
    assert notes == [(2, "binary-data", 7)]
    big = b"".join(games_text[:3]) + b"\0" * 300_000 + b"".join(games_text[3:])
    assert len(list(read_games(big))) == 6  # a run across read blocks too


def test_a_few_stray_bytes_keep_a_utf8_file_utf8() -> None:
    text = ('[Event "Zomer"]\n[White "Hoogland, Frédéric"]\n1. 32-28 *\n\n'
            '[Event "Zomer"]\n[White "Bakker"]\n1. 33-29 *\n')
    data = text.encode("utf-8").replace(b"Bakker", b"Bak\x96ker \x85 \xa0")
    games = list(read_games(data))
    assert games[0].encoding == "utf-8" and games[0].tag("White") == "Hoogland, Frédéric"
    assert games[0].findings == []
    # the game with the stray bytes is judged on its own: CP1252 punctuation
    assert games[1].encoding == "cp1252" and games[1].tag("White") == "Bak\u2013ker \u2026 \xa0"
    assert [f.code for f in games[1].findings] == ["encoding-fallback"]
    # a legacy file stays legacy: nearly every accented letter is an invalid sequence
    legacy = ("".join(f'[White "Frédéric Hoogland {i}"]\n1. 32-28 *\n\n' for i in range(20))
              .encode("cp1252"))
    assert next(read_games(legacy)).tag("White") == "Frédéric Hoogland 0"


@pytest.mark.parametrize("run", [b"a", b"\0"])
def test_the_encoding_scorer_is_linear_in_a_long_run(run: bytes) -> None:
    start = time.process_time()
    assert decide(b"\xe9 " + run * 400_000) in ("cp1252", "cp1251", "cp866", "latin-1")
    text_score("é " + run.decode() * 400_000)
    assert time.process_time() - start < 5  # quadratic: hours


def test_a_header_repeating_one_tag_line_validates_in_linear_time() -> None:
    start = time.process_time()
    (rep,) = validate('[Event "x"]\n' * 20_000 + "1. 32-28 *\n", "international")
    assert time.process_time() - start < 10  # quadratic: minutes
    dups = [f for f in rep.findings if f.code == "duplicate-tag"]
    assert len(dups) == 19_999 and [f.line for f in dups[:2]] == [2, 3]
    assert dups[-1].line == 20_000


def test_an_unreadable_subfolder_is_named_never_skipped(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "ok").mkdir()
    (tmp_path / "ok" / "a.pdn").write_text("1. 32-28 *\n")
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "b.pdn").write_text("1. 33-29 *\n")
    real = os.scandir

    def scandir(path: object = ".") -> object:  # as a user without the read bit sees it
        if Path(os.fsdecode(path)) == locked:  # type: ignore[arg-type]
            raise PermissionError(13, "Permission denied", os.fsdecode(path))  # type: ignore[arg-type]
        return real(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    with pytest.raises(UnreadableFolderError, match="locked"):
        lint([tmp_path])
    with pytest.raises(UnreadableFolderError, match="locked"):
        list(validate(tmp_path))
    from pdnkit.store import import_files

    db = tmp_path.parent / f"{tmp_path.name}.duckdb"
    with pytest.raises(UnreadableFolderError, match="locked"):  # import read it silently
        import_files([tmp_path], db=db)
    from typer.testing import CliRunner

    from pdnkit.cli import app

    for args in (["lint", str(tmp_path)], ["import", str(tmp_path), "--db", str(db)]):
        r = CliRunner().invoke(app, args)
        assert r.exit_code == 2 and "locked" in r.output, (args, r.output)
