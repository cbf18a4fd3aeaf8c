"""``pdnkit games`` streamed (:func:`pdnkit.stats.gamelist.games_stream`): on databases of
seeded random games it writes what the whole DataFrame of :func:`pdnkit.stats.games` written
by :func:`pdnkit.lean.tables.emit` gives, for every format and many option lines; the rows come
in batches; the games found are dropped when the stream ends; a reader that goes away stops
it as it stops ``pdnkit query``."""

from __future__ import annotations

import random
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from pdnkit.cli import app
from pdnkit.lean.tables import emit, output
from pdnkit.stats import games
from pdnkit.stats.gamelist import games_stream
from tests.cli.randomdb import build_random
from tests.cli.runs import ended

FORMATS = [[], ["-f", "csv"], ["--format", "csv-raw"], ["-f", "json"], ["-f", "jsonl"],
           ["-f", "text"], ["--wide"]]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_random(tmp_path_factory.mktemp("games"), 41, count=30)


def _options(seed: int, db: Path) -> list[dict[str, object]]:
    """Random option sets: pages, statuses, filters, positions from the games."""
    rng = random.Random(seed)
    with duckdb.connect(str(db), read_only=True) as con:
        fens = [r[0] for r in con.sql("SELECT DISTINCT fen FROM positions WHERE ply <= 4 "
                                      "ORDER BY fen").fetchall()]
    out: list[dict[str, object]] = [{}]
    for _ in range(10):
        opts: dict[str, object] = {}
        if rng.random() < 0.5:
            opts["limit"] = rng.randint(0, 60)
        if rng.random() < 0.4:
            opts["offset"] = rng.randint(0, 70)
        if rng.random() < 0.3:
            opts["status"] = rng.choice(["ok", "warning,error", "unparsed"])
        if rng.random() < 0.3:
            opts["variant"] = rng.choice(["english", "russian"])
        if rng.random() < 0.3:
            opts["fen"] = rng.choice(fens)
        elif rng.random() < 0.2:
            opts["moves"] = "32-28"
        out.append(opts)
    return out


def _line(opts: dict[str, object]) -> list[str]:
    return [x for k, v in opts.items() for x in (f"--{k}", str(v))]


def _reference(db: Path, opts: dict[str, object], fmt: list[str],
               capsys: pytest.CaptureFixture[str]) -> str:
    """What the whole DataFrame gives, written as the command wrote it before it streamed."""
    df = games(db, **opts)  # type: ignore[arg-type]
    total, n, offset = int(df.attrs["total"]), len(df), int(str(opts.get("offset", 0)))
    shown = f"{offset + 1}-{offset + n} of {total}" if n else f"0 of {total}"
    name = fmt[1] if len(fmt) == 2 else None
    emit(df, output(name, None, wide=fmt == ["--wide"]), title=f"games ({shown})", limit=50)
    return capsys.readouterr().out


@pytest.mark.slow
def test_games_streamed_writes_what_the_whole_frame_gives(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for opts in _options(3, db):
        for fmt in FORMATS:
            res = CliRunner().invoke(app, ["games", "--db", str(db), *_line(opts), *fmt])
            assert res.exit_code == 0, (opts, fmt, res.output)
            assert res.stdout == _reference(db, opts, fmt, capsys), (opts, fmt)


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".csv", ".json", ".txt"])
def test_games_streamed_to_a_file(db: Path, tmp_path: Path, suffix: str,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / f"g{suffix}"
    res = CliRunner().invoke(app, ["games", "--db", str(db), "--out", str(out)])
    assert res.exit_code == 0 and res.stderr == f"90 rows -> {out}\n"
    emit(games(db), output(None, ref := tmp_path / f"ref{suffix}"))
    capsys.readouterr()
    assert out.read_bytes() == ref.read_bytes()


def test_games_stream_reads_batches_and_drops_what_it_found(db: Path) -> None:
    with duckdb.connect(str(db), read_only=True) as con:
        before = con.sql("SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchall()
        with games_stream(con, rows=7, offset=2, limit=40) as stream:
            sizes = [batch.num_rows for batch in stream]
            assert stream.total == 90 and stream.rows_out == 40
        assert sizes == [7] * 5 + [5]
        after = con.sql("SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchall()
        assert after == before
        ids = [r[0] for r in con.sql("SELECT game_id FROM games ORDER BY game_id "
                                     "LIMIT 40 OFFSET 2").fetchall()]
    with games_stream(db, offset=2, limit=40) as stream:
        assert [i for b in stream for i in b.column(0).to_pylist()] == ids
    with pytest.raises(ValueError, match="negative"):
        games_stream(db, limit=-1)


def _closed_pipe(args: list[str]) -> tuple[int, str]:
    res = ended(args, "pipe")
    return res.returncode, res.stderr


@pytest.mark.parametrize("fmt", ["csv", "text"])
def test_a_closed_pipe_stops_games_as_it_stops_query(db: Path, fmt: str) -> None:
    games_end = _closed_pipe(["games", "--db", str(db), "-f", fmt])
    query_end = _closed_pipe(["query", "SELECT * FROM games", "--db", str(db), "-f", fmt])
    assert games_end == query_end
    assert games_end[0] == 1 and "Traceback" not in games_end[1]
