"""The quick forms of ``stats openings|results``, ``tree`` and ``search`` read plain tables
(:func:`pdnkit.stats.stats_table`, :func:`~pdnkit.stats.tree_table`,
:func:`~pdnkit.stats.search_table`, no pandas): on databases of seeded random games they print
and write exactly what the Typer commands (the DataFrame path) print and write, for every
format and many option lines; every statistic's plain table writes as its DataFrame does; and
no quick form imports pandas."""

from __future__ import annotations

import random
from pathlib import Path

import duckdb
import pytest

from pdnkit.lean.tables import emit, output
from tests.cli.randomdb import build_random
from tests.cli.runs import quick_run, typer_run
from tests.imported import modules_after

FORMATS = [[], ["-f", "csv"], ["--format", "csv-raw"], ["--format=json"], ["-f", "jsonl"],
           ["-f", "text"], ["-f", "text", "--wide"]]
SEEDS = [11, 29]


@pytest.fixture(scope="module", params=SEEDS)
def db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_random(tmp_path_factory.mktemp(f"plain{request.param}"), request.param)


def _same(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    quick = quick_run(args, capsys)
    assert quick == typer_run(args), args
    assert "Traceback" not in quick[2]
    return quick


def _read(db: Path, sql: str) -> list[str]:
    with duckdb.connect(str(db), read_only=True) as con:
        return [str(r[0]) for r in con.sql(sql).fetchall()]


def _lines(db: Path, seed: int) -> list[list[str]]:
    """Move sequences from the start (the games' own first plies, in each variant) and
    positions the games reached (FENs), chosen from ``seed``."""
    rng = random.Random(seed)
    moves = _read(db, "SELECT DISTINCT string_agg(m.canonical, ' ' ORDER BY m.ply) "
                      "FROM moves m JOIN games g USING (game_id) WHERE m.ply <= 2 "
                      "AND g.variant = 'international' GROUP BY m.game_id ORDER BY 1")
    fens = _read(db, "SELECT DISTINCT fen FROM positions WHERE ply BETWEEN 1 AND 6 "
                     "ORDER BY fen")
    return ([["--moves", m] for m in rng.sample(moves, min(4, len(moves)))]
            + [["--fen", f] for f in rng.sample(fens, min(4, len(fens)))])


@pytest.mark.slow
def test_quick_stats_print_what_the_commands_print(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for kind in ("openings", "results"):
        for fmt in FORMATS:
            assert _same(["stats", kind, "--db", str(db), *fmt], capsys)[0] == 0


@pytest.mark.slow
def test_quick_tree_prints_what_the_command_prints(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seen_rows = 0
    for start in [[], *_lines(db, 3)]:
        for fmt in FORMATS[:5]:
            for book in ([], ["--book"]):
                status, out, _ = _same(["tree", *start, *book, "--db", str(db), *fmt], capsys)
                seen_rows += status == 0 and out.count("\n") > 2
    assert seen_rows > 20  # positions with continuations, not only empty tables


def _patterns(seed: int, count: int) -> list[str]:
    """Random patterns on the squares every variant here has (1-32): men, kings, any
    piece and empty squares."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        fields = [f"W{','.join(map(str, rng.sample(range(17, 33), rng.randint(1, 2))))}",
                  f"B{','.join(map(str, rng.sample(range(1, 17), rng.randint(0, 2))))}"]
        if rng.random() < 0.3:
            fields.append(f"E{rng.randint(13, 20)}")
        if rng.random() < 0.2:
            fields[1] += f",*{rng.randint(1, 12)}"
        out.append(":".join(fields).rstrip(","))
    return out


@pytest.mark.slow
def test_quick_search_prints_what_the_command_prints(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(7)
    found = 0
    wheres = [["--pattern", p] for p in _patterns(5, 8)] + [
        w for w in _lines(db, 4) if w[0] == "--fen"]
    for where in wheres:
        for _ in range(3):
            extra = [*rng.choice(FORMATS)]
            extra += rng.choice([[], ["--mirror"], ["--first"], ["--side", "white"],
                                 ["--side", "black", "--first"], ["--limit", "3"],
                                 ["--limit", str(rng.randint(0, 40))]])
            status, out, _ = _same(["search", *where, "--db", str(db), *extra], capsys)
            found += status == 0 and out.count("\n") > 3
    assert found > 5  # searches with hits, not only empty tables


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".csv", ".json", ".jsonl", ".txt", ".parquet"])
def test_quick_forms_write_the_files_the_commands_write(
        db: Path, tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]) -> None:
    for line in (["stats", "openings"], ["stats", "results"], ["tree"],
                 ["tree", "--book", "--moves", _lines(db, 1)[0][1]],
                 ["search", "--pattern", "W28"]):
        quick_out, typer_out = tmp_path / f"q{suffix}", tmp_path / f"t{suffix}"
        quick = quick_run([*line, "--db", str(db), "-o", str(quick_out)], capsys)
        typed = typer_run([*line, "--db", str(db), "--out", str(typer_out)])
        assert quick[:2] == typed[:2] == (0, ""), line
        assert quick[2].replace(str(quick_out), "F") == typed[2].replace(str(typer_out), "F")
        assert quick_out.read_bytes() == typer_out.read_bytes(), line


# ------------------------------------------------------------------------------------------
# the library: every statistic's plain table writes as its DataFrame does

STATS_OPTIONS = [
    ("openings", {}), ("openings", {"by": "code"}), ("openings", {"by": "name"}),
    ("openings", {"by": "position", "plies": 3}), ("openings", {"plies": 2, "min_games": 2}),
    ("players", {}), ("players", {"player": "Lee"}), ("players", {"event": "Open"}),
    ("results", {"by": "variant,year"}), ("results", {"by": "event", "variant": "english"}),
    ("lengths", {"bin_width": 7}), ("findings", {}), ("findings", {"by": "file"}),
    ("findings", {"by": "event"}), ("findings", {"by": "game"}),
    ("results", {"date_from": "2000", "date_to": "2015-06"}),
]


def _written(table: object, fmt: str, capsys: pytest.CaptureFixture[str]) -> str:
    emit(table, output(fmt, None), title="t")  # type: ignore[arg-type]
    return capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "options"), STATS_OPTIONS,
                         ids=[f"{k}-{'-'.join(map(str, o.values()))}" for k, o in STATS_OPTIONS])
def test_every_statistic_plain_writes_as_its_frame(
        db: Path, kind: str, options: dict[str, object],
        capsys: pytest.CaptureFixture[str]) -> None:
    from pdnkit.stats import stats, stats_table

    plain, df = stats_table(kind, db, **options), stats(kind, db, **options)
    assert list(plain.columns) == [str(c) for c in df.columns] and len(plain) == len(df)
    for fmt in ("csv", "json", "jsonl", "text"):
        assert _written(plain, fmt, capsys) == _written(df, fmt, capsys), (kind, fmt)


@pytest.mark.slow
def test_tree_and_search_plain_write_as_their_frames(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pdnkit.stats import tree, tree_table
    from pdnkit.stats.search import search, search_table

    calls = [(tree, tree_table, {"variant": "english"}),
             (tree, tree_table, {"player": "Ann Lee", "min_games": 2}),
             (tree, tree_table, {"moves": "99-98"}),
             (search, search_table, {"material": "12 v 11"}),
             (search, search_table, {"pattern": "W21", "event": "Open", "first": True}),
             (search, search_table, {"pattern": "W99"})]
    for frame_call, plain_call, options in calls:
        try:
            df = frame_call(db, **options)
        except ValueError as exc:  # a move no variant plays: the plain call says the same
            with pytest.raises(type(exc), match="."):
                plain_call(db, **options)
            continue
        plain = plain_call(db, **options)
        for fmt in ("csv", "json", "text"):
            assert _written(plain, fmt, capsys) == _written(df, fmt, capsys), options


# ------------------------------------------------------------------------------------------
# what a quick form imports


@pytest.mark.slow
def test_quick_table_forms_import_no_pandas(db: Path) -> None:
    """Nor numpy, pyarrow or the argument parser."""
    fen = _lines(db, 2)[-1][1]
    for line in (["stats", "openings"], ["stats", "results", "-f", "json"],
                 ["tree", "-f", "csv"], ["tree", "--moves", "32-28", "--book"],
                 ["search", "--pattern", "W21", "-f", "jsonl"], ["search", "--fen", fen]):
        assert modules_after([*line, "--db", str(db)],
                             ("pandas", "numpy", "pyarrow", "typer")) == [], line
    # the test sees pandas where it is imported: the Typer command's DataFrame
    assert modules_after(["stats", "results", "--db", str(db), "--variant", "english"],
                         ("pandas",)) == ["pandas"]
