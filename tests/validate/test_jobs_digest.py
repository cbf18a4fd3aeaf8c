"""``pdnkit validate``'s output rendered where the games are replayed
(:mod:`pdnkit.lean.digest`): with workers or without, the command writes what the library's
reports say, rendered one report at a time as the command always rendered them (the JSON
line of ``to_dict``, the CSV rows of ``csv_rows``, each finding's line), byte for byte, on
messy input: errors, stray text between games, games cut across parts, file names that CSV
must quote or that a spreadsheet would run."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdnkit.core import core_in_use
from pdnkit.lean.digest import Digest, Style, merge
from pdnkit.lean.validate import CSV_FIELDS, Summary, csv_rows
from pdnkit.validation import validate
from tests.pools import workers_always

compiled = pytest.mark.skipif(core_in_use() != "compiled", reason="the compiled core is not built")

#: games of every kind a collection holds: clean, illegal, a wrong result, a missed capture,
#: no moves, a FEN start, draws by rule
PIECES = [
    '[Event "clean"]\n[White "A, the first"]\n1. 32-28 19-23 2. 28x19 14x23 1-1\n\n',
    '[Event "illegal"]\n1. 32-28 19-23 2. 28-22 *\n\n',
    '[Event "result"]\n[Result "2-0"]\n1. 33-29 17-21 2-0\n\n',
    '[Event "missed"]\n1. 32-28 19-23 2. 33-29 *\n\n',
    '[Event "empty"]\n*\n\n',
    '[Event "fen"]\n[FEN "W:W28:B19"]\n1. 28x10 2-0\n\n',
    '[Event "=cmd|calc"]\n[White "=1+1"]\n1. 31-27 16-21 *\n\n',
    'a stray note between games, neither tags nor moves\n\n',
]


def _collection(seed: int, games: int) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(PIECES) for _ in range(games)) + PIECES[1] + "trailing words\n"


def _expected(path: Path, fmt: str, select: list[str] | None = None) -> bytes:
    """What the command writes for ``path`` in ``fmt``, rendered report by report from
    the library's own reports (the summary left out)."""
    out = io.StringIO(newline="")
    reports = validate([path], light=True, select=select)
    if fmt == "jsonl":
        for rep in reports:
            out.write(json.dumps(rep.to_dict(), ensure_ascii=False) + "\n")
    elif fmt.startswith("csv"):
        writer = csv.DictWriter(out, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for rep in reports:
            writer.writerows(csv_rows(rep, raw=fmt == "csv-raw"))
    else:
        for rep in reports:
            out.writelines(f"{f}\n" for f in rep.findings if f.severity.rank >= 1)
    return out.getvalue().encode("utf-8")



def _run(path: Path, jobs: int, fmt: str, *extra: str) -> bytes:
    from pdnkit.cli import app

    out = path.parent / f"out-{jobs}.{fmt}"
    res = CliRunner().invoke(app, ["validate", str(path), "--jobs", str(jobs), "--format", fmt,
                                   "-o", str(out), "--fail-on", "never", *extra])
    assert res.exit_code == 0, res.output
    data = out.read_bytes()
    if fmt == "text":  # the findings' lines, without the summary
        data = data[:data.index(b"pdnkit validate")].rstrip(b"\n") + b"\n"
    return data


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "csv-raw", "text"])
def test_one_process_writes_what_the_reports_say(tmp_path: Path, fmt: str) -> None:
    src = tmp_path / "a, =b.pdn"  # a name CSV quotes and a spreadsheet would run
    src.write_text(_collection(1, 60), encoding="utf-8")
    expected = _expected(src, fmt)
    if fmt == "text":
        expected = expected.rstrip(b"\n") + b"\n"
    assert b"illegal-move" in expected
    assert _run(src, 1, fmt) == expected


@compiled
@pytest.mark.parametrize("seed", [2, 3])
def test_workers_write_what_the_reports_say(tmp_path: Path, seed: int,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers render their parts (games numbered by the parts before them, stray text
    moved to the next part's first game): every format is what the reports say."""
    src = tmp_path / 'quo"ted, =name.pdn'
    src.write_text(_collection(seed, 400), encoding="utf-8")
    expected = {fmt: _expected(src, fmt) for fmt in ("jsonl", "csv", "csv-raw", "text")}
    started = workers_always(monkeypatch, 700)
    for fmt, want in expected.items():
        got = _run(src, 2, fmt)
        assert got == (want.rstrip(b"\n") + b"\n" if fmt == "text" else want), fmt
    assert started == [2] * 4
    # finding codes kept to a selection: counted and rendered after the selection
    assert _run(src, 2, "jsonl", "--select", "missed-capture") == _expected(
        src, "jsonl", select=["missed-capture"])


def test_merged_counts_are_the_counts_of_every_report() -> None:
    """A summary merged from digests counts as one that counted every report (every
    attribute of it, so a count added to the summary later must be merged too)."""
    reports = list(validate(_collection(4, 80), light=True))
    whole = Summary()
    for rep in reports:
        whole.add(rep)
    merged = Summary()
    style = Style("jsonl", counter=Summary, csv_rows=csv_rows)
    for at in range(0, len(reports), 7):
        part = Digest(style)
        for rep in reports[at:at + 7]:
            part.add(rep)
        merge(merged, part.summary)
    assert vars(merged) == vars(whole)
    assert whole.by_status["error"] > 0 and whole.by_code


def test_indexes_are_written_at_the_parts_place() -> None:
    """A part's games, numbered from 0 where they were replayed, are written with the
    part's place; a file-level report keeps its ``null``."""
    style = Style("jsonl", counter=Summary, csv_rows=csv_rows)
    part = Digest(style)
    for i, rep in enumerate(validate("1. 32-28 *\n\n1. 33-29 *", "international",
                                     light=True)):
        assert rep.index == i
        part.add(rep)
    part.shift_game_index(40)
    assert [json.loads(line)["index"] for line in part.text().splitlines()] == [40, 41]
