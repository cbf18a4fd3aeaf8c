"""Issue 16 point 7 (and issue 10 point 8): outputs are written whole or not at all, never
over an input; list fields in CSV are JSON lists."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest

from pdnkit._atomic import OutputIsInputError, atomic_output, check_not_input, check_output
from pdnkit.validation.rewrite import convert
from tests.store.safety_helpers import (
    GAME_A,
    GAME_C,
    cli,
    cli_process,
    collection,
    imported,
    one_error_line,
)


def test_convert_refuses_a_hard_link_to_an_input(tmp_path: Path) -> None:
    src = collection(tmp_path / "src")
    link = tmp_path / "link.pdn"
    os.link(src / "a.pdn", link)
    before = (src / "a.pdn").read_bytes()
    code, _, err = cli("convert", src / "a.pdn", "--out", link)
    assert code == 2 and "is also an input" in one_error_line(err)
    assert (src / "a.pdn").read_bytes() == before


def test_convert_refuses_an_input_inside_a_folder_input(tmp_path: Path) -> None:
    src = collection(tmp_path / "src")
    before = (src / "b.pdn").read_bytes()
    code, _, err = cli("convert", src, "--out", src / "b.pdn")
    assert code == 2 and "b.pdn" in one_error_line(err)
    assert (src / "b.pdn").read_bytes() == before == GAME_C.encode()


def test_convert_refuses_a_new_file_inside_a_folder_input(tmp_path: Path) -> None:
    """Issue 26 point 4: the next run would read the output as one more input."""
    src = collection(tmp_path / "src")
    code, _, err = cli("convert", src, "--out", src / "all.pdn")
    assert code == 2 and "inside the input folder" in one_error_line(err)
    assert sorted(p.name for p in src.iterdir()) == ["a.pdn", "b.pdn"]
    code, _, err = cli("convert", src, "--out", tmp_path / "all.pdn")
    assert code == 0, err
    assert (tmp_path / "all.pdn").read_text(encoding="utf-8").count("[Event") == 3


def test_validate_output_inside_a_folder_input_is_refused(tmp_path: Path) -> None:
    src = collection(tmp_path / "src")
    (tmp_path / "link").symlink_to(src)
    for out in (src / "report.jsonl", tmp_path / "link" / "report.jsonl", src / "sub" / "r.txt"):
        code, _, err = cli("validate", tmp_path / "src", "--format", "jsonl", "--output", out)
        assert code == 2 and "inside the input folder" in one_error_line(err), out
    assert sorted(p.name for p in src.iterdir()) == ["a.pdn", "b.pdn"]


def test_check_output_resolves_symbolic_links(tmp_path: Path) -> None:
    src = collection(tmp_path / "src")
    (tmp_path / "alias").symlink_to(src)
    with pytest.raises(OutputIsInputError, match="inside the input folder"):
        check_output(src / "new.pdn", [tmp_path / "alias"])
    with pytest.raises(OutputIsInputError, match="inside the input folder"):
        check_output(tmp_path / "alias" / "new.pdn", [src])
    check_output(tmp_path / "new.pdn", [src, "-", "s3://bucket/games"])


def test_convert_that_fails_midway_leaves_the_old_output(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    src = collection(tmp_path / "src")
    out = tmp_path / "out.pdn"
    out.write_text("precious\n", encoding="utf-8")
    calls = []

    def broken(record: object, **kwargs: object) -> str:
        calls.append(record)
        if len(calls) == 2:
            raise RuntimeError("boom")
        return "x\n"

    monkeypatch.setattr("pdnkit.validation.rewrite.write_game", broken)
    with pytest.raises(RuntimeError):
        convert([src], out)
    assert out.read_text(encoding="utf-8") == "precious\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.pdn", "src"]


def test_export_of_a_missing_database_leaves_the_output(tmp_path: Path) -> None:
    keep = tmp_path / "keep.pdn"
    keep.write_text(GAME_A, encoding="utf-8")
    code, _, err = cli("export", "--db", tmp_path / "missing.duckdb", "--out", keep)
    assert code == 2 and "missing.duckdb" in one_error_line(err)
    assert keep.read_text(encoding="utf-8") == GAME_A
    assert not (tmp_path / "missing.duckdb").exists()


def test_export_with_a_bad_where_leaves_the_output(tmp_path: Path) -> None:
    db = imported(tmp_path)
    keep = tmp_path / "keep.pdn"
    keep.write_text(GAME_A, encoding="utf-8")
    code, _, err = cli("export", "--db", db, "--out", keep, "--where", "no_such_column = 1")
    assert code == 2 and "no_such_column" in one_error_line(err)
    assert keep.read_text(encoding="utf-8") == GAME_A


def test_export_replaces_the_output_whole_and_keeps_its_mode(tmp_path: Path) -> None:
    db = imported(tmp_path)
    out = tmp_path / "out.pdn"
    out.write_text("old\n", encoding="utf-8")
    out.chmod(0o640)
    code, _, err = cli("export", "--db", db, "--out", out)
    assert code == 0, err
    assert out.read_text(encoding="utf-8").count("[Event") == 3
    assert out.stat().st_mode & 0o777 == 0o640


@pytest.mark.parametrize("command", [
    ["export", "--out", "{db}"],
    ["query", "SELECT 1 AS x", "--format", "csv", "--out", "{db}"],
    ["duplicates", "--format", "json", "--out", "{db}"],
    ["report", "collection", "--out", "{link}"],
    ["plot", "lengths", "--out", "{link}"],
])
def test_no_output_over_the_database(tmp_path: Path, command: list[str]) -> None:
    db = imported(tmp_path)
    suffix = {"report": ".md", "plot": ".png"}.get(command[0], ".pdn")
    link = tmp_path / f"db-link{suffix}"
    os.link(db, link)
    before = db.read_bytes()
    args = [a.format(db=db, link=link) for a in command] + ["--db", str(db)]
    code, _, err = cli(*args)
    assert code == 2 and "is also an input" in one_error_line(err)
    assert db.read_bytes() == before


def test_validate_output_never_over_an_input(tmp_path: Path) -> None:
    src = collection(tmp_path / "src")
    before = (src / "a.pdn").read_bytes()
    code, _, err = cli("validate", src, "--format", "jsonl", "--output", src / "a.pdn")
    assert code == 2 and "is also an input" in one_error_line(err)
    assert (src / "a.pdn").read_bytes() == before


def test_report_and_plot_outputs_are_renamed_into_place(tmp_path: Path) -> None:
    db = imported(tmp_path)
    out = tmp_path / "r"
    code, _, err = cli("report", "collection", "--db", db, "--out", out / "c.md")
    assert code == 0, err
    code, _, err = cli("plot", "lengths", "--db", db, "--out", out / "l.png")
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["c.md", "l.png"]
    assert (out / "l.png").read_bytes()[:4] == b"\x89PNG"


def test_atomic_output_to_a_device_writes_in_place(tmp_path: Path) -> None:
    with atomic_output(os.devnull) as fh:
        fh.write("nothing")
    assert Path(os.devnull).exists() and not Path(os.devnull).is_file()


def test_check_not_input_through_a_symlink(tmp_path: Path) -> None:
    src = collection(tmp_path / "src")
    (tmp_path / "s.pdn").symlink_to(src / "a.pdn")
    with pytest.raises(OutputIsInputError):
        check_not_input(tmp_path / "s.pdn", [src])
    check_not_input(tmp_path / "other.pdn", [src])  # not there yet: not an input


def test_duplicates_csv_writes_json_lists(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "x.pdn").write_text(GAME_A + GAME_A, encoding="utf-8")
    (src / "y.pdn").write_text(GAME_A, encoding="utf-8")
    db = tmp_path / "d.duckdb"
    assert cli("import", src, "--db", db, "--quiet")[0] == 0
    code, out, err = cli("duplicates", "--db", db, "--format", "csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 1
    ids = json.loads(rows[0]["game_ids"])
    locations = json.loads(rows[0]["locations"])
    assert len(ids) == 3 and all(isinstance(i, int) for i in ids)
    assert [loc.rsplit("/", 1)[-1] for loc in locations] == ["x.pdn#1", "x.pdn#2", "y.pdn#1"]
    assert json.loads(rows[0]["differing_tags"]) == []
    assert "\n" not in rows[0]["locations"]


def test_a_full_disk_while_writing_keeps_the_old_output(tmp_path: Path) -> None:
    """The file-size limit stands in for a full disk: the write fails part-way, the old
    output stays as it was, no temporary file is left and the error is one line."""
    import resource

    db = imported(tmp_path)
    keep = tmp_path / "keep.pdn"
    keep.write_text("old\n", encoding="utf-8")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))

    r = cli_process("export", "--db", db, "--out", keep, preexec=limit)
    line = one_error_line(r.stderr)
    assert r.returncode == 2 and "cannot write" in line and "nothing was written" in line
    assert keep.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.duckdb", "keep.pdn", "src"]
