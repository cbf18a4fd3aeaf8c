"""Every real game reads the same in every dialect (issue 22): each game of
``../shared/data/real/`` is written again through every transformation of
:mod:`tests.pdn.dialects` (one at a time, and in seeded random combinations) and what is
read must equal the clean file, game for game in file order: the tags through the mapping,
the main-line moves, the result, the number of games, the finding codes less those the
dialect explains. The matrix (transform x variant -> games equal / total) is printed by
``benchmarks/dialects.py``; here every cell must be 100%.

The default run compares what the reader gives for every game under each single transform
and what the validator gives (full replay) for seeded combinations on the smaller files,
and imports a sample both ways to compare the stored rows; the ``slow`` run replays every
game under every transform and more combinations."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from tests.pdn import dialects as D
from tests.pdn.digests import real_files
from tests.shared import shared_path

#: the encoding a clean file happens to be in is not part of what it says
ALWAYS = frozenset({"encoding-fallback"})
#: files small enough to replay under each combination in the default run
SMALL = 300


class Corpus:
    """The clean real files: their games, and what the reader and validator give."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: list[tuple[Path, list[D.Game], list[dict[str, Any]], list[dict[str, Any]]]] = []
        for p in real_files(root):
            games = D.clean_games(p)
            assert games is not None, p  # every real game is tags, then movetext
            D.attach_replays(games, p)
            self.files.append((p, games, D.read_view(p), D.view(p)))

    def render(self, tmp: Path, p: Path, games: list[D.Game], names: tuple[str, ...],
               seed: int, clean: list[dict[str, Any]]) -> Path:
        """The dialect written under the file's own name (the variant guess reads it)."""
        irregular = [i for i, g in enumerate(clean) if "move-number-mismatch" in g["codes"]]
        data = D.render(games, names, seed, legacy=D.legacy_codec(games), irregular=irregular)
        out = tmp / "-".join(names) / str(seed) / p.relative_to(self.root)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
        return out


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return Corpus(shared_path("real"))


def _cells(corpus: Corpus, tmp: Path, combos: list[tuple[str, ...]], replay: bool,
           max_games: int | None = None, seed: int = 1) -> tuple[dict[tuple[str, str], list[int]], list[str]]:
    cells: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    diffs: list[str] = []
    for names in combos:
        opts = D.options(names)
        explains = opts.explains | ALWAYS
        for p, games, read, replayed in corpus.files:
            if max_games is not None and len(games) > max_games:
                continue
            if not all(D.applicable(n, games) for n in names):
                continue
            out = corpus.render(tmp, p, games, names, seed, replayed)
            got = D.view(out) if replay else D.read_view(out)
            same, why = D.compare(replayed if replay else read, got, explains, opts.ignore)
            for g, ok in zip(replayed, same, strict=True):
                cell = cells[("+".join(names), g["variant"])]
                cell[0] += ok
                cell[1] += 1
            diffs += [f"{'+'.join(names)} {p.relative_to(corpus.root)}: {d}" for d in why[:3]]
    return cells, diffs


def _assert_all_equal(cells: dict[tuple[str, str], list[int]], diffs: list[str]) -> None:
    short = {k: v for k, v in cells.items() if v[0] != v[1]}
    assert not short and not diffs, (short, diffs[:10])


@pytest.mark.parametrize("name", sorted(D.TRANSFORMS))
def test_every_real_game_reads_the_same_in_each_dialect(corpus: Corpus, tmp_path: Path,
                                                        name: str) -> None:
    # (a dialect that writes other squares is compared as replayed)
    cells, diffs = _cells(corpus, tmp_path, [(name,)], replay=D.needs_replay((name,)))
    assert sum(v[1] for v in cells.values()) > 0
    _assert_all_equal(cells, diffs)


def test_the_renderer_without_transforms_gives_the_clean_file(corpus: Corpus,
                                                              tmp_path: Path) -> None:
    cells, diffs = _cells(corpus, tmp_path, [()], replay=True)
    assert sum(v[1] for v in cells.values()) == sum(len(f[1]) for f in corpus.files)
    _assert_all_equal(cells, diffs)


def test_seeded_combinations_replay_the_same(corpus: Corpus, tmp_path: Path) -> None:
    combos = D.combinations(seed=22, count=4, size=(3, 6))
    cells, diffs = _cells(corpus, tmp_path, combos, replay=True, max_games=SMALL, seed=7)
    _assert_all_equal(cells, diffs)


_SINGLE = [(n,) for n in sorted(D.TRANSFORMS)]
#: the matrix in four parts of about equal work, so that test workers can share it
_MATRIX_PARTS = {
    "single-transforms-1": (_SINGLE[: len(_SINGLE) // 2], SMALL),
    "single-transforms-2": (_SINGLE[len(_SINGLE) // 2:], SMALL),
    "combinations": (D.combinations(seed=2022, count=12, size=(2, 8)), SMALL),
    "whole-files": (D.combinations(seed=26, count=2, size=(4, 8)), None),
}


@pytest.mark.slow
@pytest.mark.parametrize("part", sorted(_MATRIX_PARTS))
def test_every_dialect_replays_the_same_for_every_game(corpus: Corpus, tmp_path: Path,
                                                       part: str) -> None:
    combos, max_games = _MATRIX_PARTS[part]
    assert combos
    cells, diffs = _cells(corpus, tmp_path, combos, replay=True, max_games=max_games)
    _assert_all_equal(cells, diffs)


ROW_SAMPLE = ("international/wk2003.pdn", "russian/abatsiev.cp1251.pdn", "english/OCA_2.0.pdn",
              "czech/mrcd2006.pdn", "frisian/random_pdns.derived.pdn")
GAME_COLUMNS = ("game_index", "variant", "gametype", "event", "site", "date_raw", "round",
                "white", "black", "result", "plies", "replayed_plies", "outcome", "final_fen",
                "moves_hash")
MOVE_COLUMNS = ("ply", "move_number", "side", "origin", "destination", "path", "captured",
                "canonical")


def _rows(paths: list[Path], db: Path) -> list[tuple[list[Any], list[Any]]]:
    from pdnkit.store import connect, import_files

    import_files(paths, db=db)
    con = connect(db, read_only=True)
    try:
        out = []
        for (file_id,) in con.execute("SELECT file_id FROM files ORDER BY path").fetchall():
            games = con.execute(f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE file_id = ? "
                                "ORDER BY game_index", [file_id]).fetchall()
            moves = con.execute(
                f"SELECT g.game_index, {', '.join('m.' + c for c in MOVE_COLUMNS)} FROM moves m "
                "JOIN games g USING (game_id) WHERE g.file_id = ? ORDER BY g.game_index, m.ply",
                [file_id]).fetchall()
            out.append((games, moves))
        return out
    finally:
        con.close()


@pytest.mark.parametrize("seed", [5, pytest.param(6, marks=pytest.mark.slow)])
def test_imported_rows_are_the_same_in_a_dialect(corpus: Corpus, tmp_path: Path,
                                                 seed: int) -> None:
    files = {p.relative_to(corpus.root).as_posix(): (p, g, v) for p, g, _, v in corpus.files}
    names = tuple(n for n in D.combinations(seed=seed, count=1, size=(5, 8))[0])
    clean = [files[n][0] for n in ROW_SAMPLE if n in files]
    rendered = [corpus.render(tmp_path, files[n][0], files[n][1], names, seed, files[n][2])
                for n in ROW_SAMPLE if n in files]
    assert _rows(rendered, tmp_path / "d.duckdb") == _rows(clean, tmp_path / "c.duckdb"), names
