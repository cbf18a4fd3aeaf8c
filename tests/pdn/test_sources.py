"""Opening sources: each input read once, streaming; pipes, FIFOs, stdin, devices, empty
input (issue 16 point 5, issue 10 point 8)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdnkit.cli import app
from pdnkit.pdn.reader import read_games
from pdnkit.pdn.source import is_regular_file, open_source
from pdnkit.pdn.tools import lint
from pdnkit.validation import validate
from pdnkit.validation.rewrite import convert

ROOT = Path(__file__).resolve().parents[2]
GAMES = "".join(f'[Event "e{i}"]\n[White "Блиндер"]\n1. 32-28 19-23 2-0\n\n' for i in range(5))
runner = CliRunner()


def _cli(args: list[str], stdin: bytes | None = None, timeout: float = 60,
         shell: bool = False) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd: list[str] | str = [sys.executable, "-m", "pdnkit", *args]
    if shell:
        cmd = " ".join([sys.executable, "-m", "pdnkit", *args])
    return subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout, env=env,
                          cwd=ROOT, shell=shell, executable="/bin/bash" if shell else None)


def _games(out: bytes) -> list[dict]:
    return [json.loads(line) for line in out.decode().splitlines() if line.strip()]


@pytest.fixture()
def pdn(tmp_path: Path) -> Path:
    p = tmp_path / "g.pdn"
    p.write_text(GAMES, encoding="utf-8")
    return p


def test_validate_reads_dev_stdin_dash_and_process_substitution(pdn: Path) -> None:
    """The user's report: `cat g.pdn | pdnkit validate /dev/stdin` and `validate <(cat
    g.pdn)` reported 0 games and exited 0."""
    for target in ("/dev/stdin", "-"):
        r = _cli(["validate", target, "--format", "jsonl"], stdin=pdn.read_bytes())
        assert r.returncode == 0, r.stderr
        games = _games(r.stdout)
        assert [g["white"] for g in games] == ["Блиндер"] * 5
    r = _cli(["validate", f"<(cat {pdn})", "--format", "jsonl"], shell=True)
    assert [g["index"] for g in _games(r.stdout)] == [0, 1, 2, 3, 4], r.stderr


def test_validate_of_a_fifo_does_not_hang(pdn: Path, tmp_path: Path) -> None:
    """The user's report: validate of a FIFO hung (the path was opened twice)."""
    fifo = tmp_path / "pipe.pdn"
    os.mkfifo(fifo)

    def writer() -> None:
        with open(fifo, "wb") as fh:
            fh.write(pdn.read_bytes())

    t = threading.Thread(target=writer, daemon=True)
    t.start()
    assert not is_regular_file(fifo)
    reports = list(validate(str(fifo), "international"))
    t.join(10)
    assert [r.white for r in reports] == ["Блиндер"] * 5
    assert reports[0].file == str(fifo)


def test_dev_zero_ends_at_once_with_a_finding() -> None:
    """The user's report: `/dev/zero` never ended (detection read the whole stream)."""
    start = time.process_time()
    games = list(read_games("/dev/zero"))
    assert time.process_time() - start < 5
    assert [[f.code for f in g.findings] for g in games] == [["binary-data"]]
    assert games[0].findings[0].severity.value == "error"


def test_binary_block_after_games_keeps_the_games() -> None:
    data = GAMES.encode("utf-8") + b"\0" * 200_000
    games = list(read_games(data))
    assert len(games) == 6 and games[-1].findings[0].code == "binary-data"
    assert games[-1].findings[0].line == 21


def test_stdin_is_read_once_streaming(pdn: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Stdin:
        buffer = io.BufferedReader(io.BytesIO(pdn.read_bytes()))  # type: ignore[arg-type]

    monkeypatch.setattr(sys, "stdin", Stdin)
    reports = list(validate(["-"], "international"))
    assert len(reports) == 5 and reports[0].file == "<stdin>"


def test_each_game_comes_before_the_pipe_ends() -> None:
    """Streaming: the first game is read while the writer still holds the pipe open."""
    r, w = os.pipe()
    os.write(w, b'[Event "a"]\n1. 32-28 *\n\n[Event "b"]\n1. 33-29 *\n\n')
    with os.fdopen(r, "rb") as fh:
        games = read_games(fh)
        first = next(games)
        assert first.tag("Event") == "a"
        os.close(w)
        assert [g.tag("Event") for g in games] == ["b"]


def test_empty_file_and_empty_folder(tmp_path: Path) -> None:
    """The user's report: an empty file or a folder with no *.pdn exited 0 silently."""
    empty = tmp_path / "empty.pdn"
    empty.write_bytes(b"")
    blank = tmp_path / "blank.pdn"
    blank.write_bytes(b"\n\n  \r\n")
    for p in (empty, blank):
        (g,) = read_games(p)
        assert [f.code for f in g.findings] == ["empty-file"]
    assert lint([empty]).warnings == 1
    folder = tmp_path / "nothing"
    folder.mkdir()
    (folder / "notes.txt").write_text("hello")
    for call in (lambda: lint([folder]), lambda: convert([folder], tmp_path / "o.pdn"),
                 lambda: list(validate(folder))):
        with pytest.raises(FileNotFoundError, match="no PDN files found in"):
            call()
    assert not (tmp_path / "o.pdn").exists()
    for cmd in (["validate"], ["lint"], ["convert", "--out", str(tmp_path / "o.pdn")],
                ["import", "--db", str(tmp_path / "x.duckdb")]):
        r = runner.invoke(app, [*cmd, str(folder)])
        assert r.exit_code == 2, (cmd, r.output)
        assert "no PDN files found in" in r.output
    r = runner.invoke(app, ["validate", str(empty), "--format", "jsonl"])
    (obj,) = [json.loads(x) for x in r.stdout.splitlines()]
    assert obj["findings"][0]["code"] == "empty-file"


def test_encoding_option_on_every_reading_command(tmp_path: Path) -> None:
    p = tmp_path / "dos.pdn"
    p.write_bytes('[White "Блиндер Б."]\n1. 32-28 *\n'.encode("cp866"))
    r = runner.invoke(app, ["validate", str(p), "--format", "jsonl", "--encoding", "cp1251"])
    assert json.loads(r.stdout.splitlines()[0])["white"] == "Ѓ«Ё\xad¤Ґа Ѓ."
    r = runner.invoke(app, ["validate", str(p), "--format", "jsonl"])
    assert json.loads(r.stdout.splitlines()[0])["white"] == "Блиндер Б."
    out = tmp_path / "out.pdn"
    r = runner.invoke(app, ["convert", str(p), "--out", str(out), "--encoding", "cp866"])
    assert r.exit_code == 0 and '[White "Блиндер Б."]' in out.read_text(encoding="utf-8")
    r = runner.invoke(app, ["lint", str(p), "--encoding", "cp866", "--format", "jsonl"])
    assert r.exit_code == 0 and r.output == ""  # named encoding: no fallback finding
    for cmd in (["validate"], ["lint"], ["convert", "--out", str(out)],
                ["import", "--db", str(tmp_path / "x.duckdb")]):
        r = runner.invoke(app, [*cmd, str(p), "--encoding", "no-such-codec"])
        assert r.exit_code == 2 and "unknown encoding" in r.output, cmd


def test_import_of_stdin_records_its_name_and_hash(pdn: Path, tmp_path: Path) -> None:
    import duckdb

    db = tmp_path / "s.duckdb"
    r = _cli(["import", "-", "--db", str(db), "-q", "--encoding", "utf-8"],
             stdin=pdn.read_bytes(), timeout=120)
    assert r.returncode == 0, r.stderr
    from pdnkit.store.ingest import file_sha256

    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT path, sha256, games, size FROM files").fetchall()
    assert rows == [("<stdin>", file_sha256(pdn), 5, pdn.stat().st_size)]
    assert not list(Path(os.environ.get("TMPDIR", "/tmp")).glob("pdnkit-input-*"))


def test_opened_source_lines_and_decoding_findings() -> None:
    src = open_source(b'[White "A"]\r\n1. 32-28 *\r\n\r\n[White "G\xe9rard"]\r*')
    chunks = list(src.chunks)
    assert [(c.line, c.end_line) for c in chunks] == [(1, 2), (4, 5)]
    assert [[f.code for f in c.findings] for c in chunks] == [[], ["encoding-fallback"]]
    assert src.encoding == "cp1252"


def test_decoding_findings_reach_their_game_with_worker_processes(tmp_path: Path) -> None:
    """validate --jobs and import --jobs carry each chunk's decoding findings to its game:
    a character cut short (game 3) is replaced, a game written in CP1252 (game 5) is read
    in it, and the NUL bytes after the last game are the file's, not a game's."""
    import duckdb

    from pdnkit.store import import_files

    text = "".join(f'[White "Sijbrands é{i}"]\n1. 32-28 *\n\n' for i in range(8))
    data = text.encode("utf-8").replace("Sijbrands é5".encode(), "Frédéric 5".encode("cp1252"))
    p = tmp_path / "bad.pdn"
    p.write_bytes(data.replace("é3".encode(), b"\xe2\x823") + b"\0" * 100)

    def where(reports) -> list[tuple[int | None, str, int | None]]:
        return [(None if r.file_level else r.index, f.code, f.line) for r in reports
                for f in r.findings
                if f.code in ("invalid-bytes", "binary-data", "encoding-fallback")]

    serial = where(validate(p, "international"))
    assert serial == [(3, "invalid-bytes", 10), (5, "encoding-fallback", 16),
                      (None, "binary-data", 25)]
    assert where(validate(p, "international", jobs=2, chunk_size=2)) == serial
    assert [r.white for r in validate(p, "international")][5] == "Frédéric 5"
    db = tmp_path / "j.duckdb"
    import_files([p], db=db, jobs=2)
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT g.game_index, f.code FROM findings f LEFT JOIN games g USING "
                       "(game_id) WHERE f.code IN ('invalid-bytes', 'binary-data', "
                       "'encoding-fallback') ORDER BY 1").fetchall()
    assert rows == [(3, "invalid-bytes"), (5, "encoding-fallback"), (None, "binary-data")]
    assert con.execute("SELECT games FROM files").fetchall() == [(8,)]
