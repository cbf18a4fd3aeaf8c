"""``--jobs`` on the compiled core: a file goes to the workers in parts of its bytes, cut at
game boundaries, which they scan with the compiled lane themselves (issue 25). The reports
and the command's output are those of one process, byte for byte."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdnkit.core import core_in_use
from pdnkit.pdn.fast import file_spans, span_chunks
from pdnkit.pdn.reader import read_games
from pdnkit.validation import costs as costs_mod
from pdnkit.validation import jobs as jobs_mod
from pdnkit.validation import validate
from tests.pools import started_pools
from tests.shared import SHARED_DATA, shared_path

compiled = pytest.mark.skipif(core_in_use() != "compiled", reason="the compiled core is not built")


def _real_files() -> list[Path]:
    real = SHARED_DATA / "real"
    return sorted(real.rglob("*.pdn")) if real.exists() else []


def _small_parts(monkeypatch: pytest.MonkeyPatch, size: int = 1_500) -> list[int]:
    """Parts of about ``size`` bytes, and workers whatever the probe measures; the list
    returned gets the number of workers of each pool started."""
    started = started_pools(monkeypatch)
    monkeypatch.setattr(jobs_mod, "PROBE_SPANS", (size,))
    monkeypatch.setattr(jobs_mod, "SPAN_BYTES", size)
    monkeypatch.setattr(costs_mod, "PROBE_SECONDS", 0.0)
    monkeypatch.setattr(costs_mod, "PROBE_WARMUP", 0)
    monkeypatch.setattr(costs_mod, "PROBE_GAMES", 1)  # the first part here, the rest not
    monkeypatch.setattr(costs_mod, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(costs_mod, "workers_pay", lambda *a, **k: True)
    return started


def test_parts_cover_the_file_and_start_at_games(tmp_path: Path) -> None:
    text = ('[Event "a"]\n1. 32-28 19-23 2-0\n\n[Event "b"]\n1. 33-29 *\n'
            '[Event "c"]\r\n1. 31-27 0-2\r\n\r\n[Event "d"]\n1. 34-30 {a note\n'
            '[Event "not a game"]} *\n\n[Event "e"]\n1. 35-30 *')
    src = tmp_path / "a.pdn"
    src.write_bytes(text.encode("utf-8"))
    spans = file_spans(src, [], 1)
    assert spans is not None
    data = src.read_bytes()
    assert [s.start for s in spans[1:]] == [s.end for s in spans[:-1]]
    assert spans[0].start == 0 and spans[-1].end == len(data) and spans[-1].last
    # each part starts at tags after a result (not at the tag line in the comment)
    assert [data[s.start:s.start + 11] for s in spans] == [
        b'[Event "a"]', b'[Event "b"]', b'[Event "c"]', b'[Event "d"]', b'[Event "e"]']
    assert len(list(read_games(src))) == 6  # the tag line in the comment starts a game
    parts = [(c.line, c.text) for s in spans for c in span_chunks(s) if c.has_content]
    assert parts == [(c.line, c.text) for c in _chunks(src)]


def _chunks(src: Path) -> list:  # type: ignore[type-arg]
    from pdnkit.pdn.source import open_source

    with open_source(src) as opened:
        return [c for c in opened.chunks if c.has_content]


def test_files_that_are_not_plain_utf8_are_not_cut(tmp_path: Path) -> None:
    game = '[Event "Caf\u00e9"]\n1. 32-28 *\n\n'
    legacy = tmp_path / "legacy.pdn"
    legacy.write_bytes((game * 3).encode("cp1252"))
    bom = tmp_path / "bom.pdn"
    bom.write_bytes(b"\xef\xbb\xbf" + (game * 3).encode("utf-8"))
    nul = tmp_path / "nul.pdn"
    nul.write_bytes((game * 3).encode("utf-8") + b"\0\0")
    plain = tmp_path / "plain.pdn"
    plain.write_bytes((game * 3).encode("utf-8"))
    assert file_spans(legacy, [], 1) is None
    assert file_spans(bom, [], 1) is None
    assert file_spans(nul, [], 1) is None
    assert file_spans(plain, [], 1, encoding="cp1252") is None
    assert len(file_spans(plain, [], 1) or []) == 3


@compiled
@pytest.mark.parametrize("path", _real_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_real_file_reports_the_same_in_parts(path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    serial = [r.to_dict() for r in validate(path, light=True)]
    started = _small_parts(monkeypatch)
    assert [r.to_dict() for r in validate(path, light=True, jobs=2)] == serial
    parts = file_spans(path, [], 1_500)
    assert started == ([2] if parts is not None and len(parts) > 1 else []), parts


def _untimed(text: bytes) -> list[str]:
    """The lines of a text report without the summary's time and the table's drawing."""
    return ["".join(c for c in line if not c.isspace() and not "\u2500" <= c <= "\u257f")
            for line in text.decode("utf-8").splitlines() if "games/s" not in line]


@compiled
def test_validate_output_is_byte_identical_with_workers(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """``pdnkit validate --jobs 2`` (worker processes, parts of the file) writes what
    ``--jobs 1`` writes, in every format; the workers really ran."""
    from pdnkit.cli import app

    bench = shared_path("bench", "intl_2000.pdn")
    data = bench.read_bytes()[:200_000]
    src = tmp_path / "games.pdn"
    src.write_bytes(data[:data.rindex(b"\n\n[") + 2])
    runner = CliRunner()

    def run(jobs: int, fmt: str) -> bytes:
        out = tmp_path / f"out{jobs}.{fmt}"
        res = runner.invoke(app, ["validate", str(src), "--jobs", str(jobs), "--format", fmt,
                                  "-o", str(out), "--fail-on", "never"])
        assert res.exit_code == 0, res.output
        return out.read_bytes()

    one = {fmt: run(1, fmt) for fmt in ("jsonl", "csv", "text")}
    started = _small_parts(monkeypatch, 20_000)
    for fmt, expected in one.items():
        text = run(2, fmt)
        if fmt == "text":  # the summary's time differs, and the width of its column
            text, expected = (_untimed(t) for t in (text, expected))
        assert text == expected, fmt
    assert started == [2, 2, 2]
    assert run(0, "jsonl") == one["jsonl"]  # --jobs 0: one worker per core
    cores = len(os.sched_getaffinity(0))
    assert started[3:] == ([cores] if cores > 1 else [])


@compiled
def test_workers_slower_than_this_process_hand_the_rest_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the workers turn out slower than this process was in the probe (the other core
    got busy), the parts not yet started are replayed here: the same reports, in order."""
    path = shared_path("bench", "intl_2000.pdn")
    serial = [r.to_dict() for r in validate(path, light=True)]
    started = _small_parts(monkeypatch, 20_000)
    here: list[int] = []
    real_here = jobs_mod._span_here

    def counted(span, ctx):  # type: ignore[no-untyped-def]
        here.append(span.start)
        return real_here(span, ctx)

    monkeypatch.setattr(jobs_mod, "_span_here", counted)
    monkeypatch.setattr(costs_mod, "CHECK_AFTER", 0.0)
    monkeypatch.setattr(costs_mod.Probe, "rate", lambda self: 1e12)  # no worker is as fast
    assert [r.to_dict() for r in validate(path, light=True, jobs=2)] == serial
    assert started == [2]
    spans = file_spans(path, [20_000], 20_000)
    assert spans is not None and len(here) > len(spans) // 2  # most parts came back here
