"""``pdnkit lint`` and ``pdnkit convert`` from the shell."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from pdnkit.cli import app
from pdnkit.pdn import read_games
from tests.pdn.test_read import BROKEN
from tests.shared import shared_path

runner = CliRunner()


def test_lint_text_and_exit_status(tmp_path) -> None:
    good = tmp_path / "good.pdn"
    good.write_text('[Event "a"]\n1. 32-28 19-23 2-0\n', encoding="utf-8")
    r = runner.invoke(app, ["lint", str(good)])
    assert r.exit_code == 0, r.output
    assert "1 file(s), 1 game(s): no errors" in r.output
    bad = tmp_path / "bad.pdn"
    bad.write_text(BROKEN, encoding="utf-8")
    r = runner.invoke(app, ["lint", str(tmp_path)])
    assert r.exit_code == 1
    assert "nothing readable in the movetext" in r.output
    assert "2 file(s), 4 game(s): 1 error(s)" in r.output


def test_lint_jsonl_strict_on_the_standard_fail_corpus() -> None:
    fail = shared_path("syntax", "fail")
    r = runner.invoke(app, ["lint", str(fail), "--format", "jsonl"])
    assert r.exit_code == 0  # liberal: a warning only
    (obj,) = [json.loads(line) for line in r.output.splitlines()]
    assert obj["code"] == "strict-violation" and obj["severity"] == "warning"
    r = runner.invoke(app, ["lint", "--strict", str(fail), "--format", "jsonl"])
    assert r.exit_code == 1
    (obj,) = [json.loads(line) for line in r.output.splitlines()]
    assert obj["severity"] == "error" and obj["line"] == 1 and obj["game_index"] == 0
    r = runner.invoke(app, ["lint", "--strict", str(shared_path("syntax", "succeed"))])
    assert r.exit_code == 0 and "8 file(s), 10 game(s): no errors" in r.output


def test_lint_missing_file_is_a_usage_error(tmp_path) -> None:
    r = runner.invoke(app, ["lint", str(tmp_path / "nope.pdn")])
    assert r.exit_code == 2


def test_convert_rewrites_and_copies_unparsed_games(tmp_path) -> None:
    src = tmp_path / "in.pdn"
    src.write_bytes(BROKEN.replace('"one"', '"één"').encode("cp1252"))
    out = tmp_path / "out.pdn"
    r = runner.invoke(app, ["convert", str(src), "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "3 game(s) from 1 file(s)" in r.output and "1 copied unchanged" in r.output
    text = out.read_text(encoding="utf-8")
    assert '[Event "één"]' in text
    assert "% pdnkit convert: game 2 of in.pdn copied unchanged" in text
    assert "1) 32+28 {never closed\n2) 28+19 14+23 0-2" in text  # the raw text, untouched
    games = list(read_games(out))
    assert [g.tag("Event") for g in games] == ["één", "two", "three"]
    assert [g.parsed for g in games] == [True, False, True]


def test_convert_legacy_russian_file_to_utf8(tmp_path) -> None:
    out = tmp_path / "aba.pdn"
    src = shared_path("real", "russian", "abatsiev.cp1251.pdn")
    r = runner.invoke(app, ["convert", str(src), "-o", str(out)])
    assert r.exit_code == 0
    converted = list(read_games(out))
    original = list(read_games(shared_path("real", "russian", "abatsiev.pdn")))
    assert len(converted) == 56
    # the tags as they were, and the GameType of the variant guessed (Russian) added
    assert [sorted(t for t in g.tags if t[0] != "GameType") for g in converted] == \
        [sorted(g.tags) for g in original]
    assert all(("GameType", "25") in g.tags for g in converted)
    assert [[m.squares for m in g.moves] for g in converted] == \
        [[m.squares for m in g.moves] for g in original]
    assert not any(f.code == "encoding-fallback" for g in converted for f in g.findings)


def test_convert_refuses_to_overwrite_an_input(tmp_path) -> None:
    src = tmp_path / "in.pdn"
    src.write_text("1. 32-28 *\n", encoding="utf-8")
    r = runner.invoke(app, ["convert", str(src), "--out", str(src)])
    assert r.exit_code == 2 and src.read_text(encoding="utf-8") == "1. 32-28 *\n"
