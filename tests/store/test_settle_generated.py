"""An import into a database that holds games already settles the games it adds and the
games they change (their groups of copies and their novelties) as a recomputation of every
game does: seeded generated English games that share openings, transpose, repeat one
another (copies, with the same or other players) and carry few dates (ties, undated games,
partial dates), imported file by file in a shuffled order, then a file replaced by other
games and a file emptied of most of its games; after every import the stored columns equal
those of a full recomputation (:func:`pdnkit.store.copies.regroup` and
:func:`pdnkit.store.novelties.refresh_novelties` over every game)."""

from __future__ import annotations

import random
from pathlib import Path

import duckdb
import pytest

from pdnkit.rules import Position, get_rules
from pdnkit.store import connect, import_files
from pdnkit.store.copies import regroup
from pdnkit.store.novelties import refresh_novelties

_DATES = ["1950.01.02", "1950.01.02", "1960.03.??", "1940", "1955.06.01", None, None]
_PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def _line(rng: random.Random) -> list[str]:
    """A short game: the first plies among few moves (shared openings, transpositions),
    then any legal move."""
    pos = Position.initial(get_rules("english"))
    moves: list[str] = []
    for ply in range(rng.randint(2, 30)):
        legal = pos.legal_moves()
        if not legal:
            break
        move = legal[rng.randrange(min(2, len(legal)))] if ply < 6 else rng.choice(legal)
        moves.append(str(move))
        pos = pos.play(move)
    return moves


def _text(moves: list[str], rng: random.Random) -> str:
    head = (f'[GameType "21"][White "{rng.choice(_PLAYERS)}"][Black "{rng.choice(_PLAYERS)}"]'
            f'[Result "*"][Event "Cup {rng.randint(1, 2)}"][Round "{rng.randint(1, 2)}"]')
    date = rng.choice(_DATES)
    if date:
        head += f'[Date "{date}"]'
    body = " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))
    return f"{head}\n{body} *\n\n"


def _games(rng: random.Random, n: int, pool: list[tuple[list[str], str]]) -> str:
    out = []
    for _ in range(n):
        if pool and rng.random() < 0.4:  # a line played before: a copy, or another game
            moves, text = rng.choice(pool)
            out.append(text if rng.random() < 0.5 else _text(moves, rng))
        else:
            moves = _line(rng)
            pool.append((moves, _text(moves, rng)))
            out.append(pool[-1][1])
    return "".join(out)


def _state(con: duckdb.DuckDBPyConnection) -> list[tuple[object, ...]]:
    """Each game's group and novelty, then the ``probable-copy`` findings."""
    return con.execute(
        "SELECT game_id, duplicate_of, duplicate_kind, novelty_ply, novelty_from, NULL "
        "FROM games UNION ALL SELECT game_id, NULL, NULL, NULL, NULL, details FROM findings "
        "WHERE code = 'probable-copy' ORDER BY ALL").fetchall()


def _recomputed(db: Path) -> list[tuple[object, ...]]:
    """The columns a recomputation of every game gives (on a copy: the database stays)."""
    copy = db.with_name("check.duckdb")
    copy.unlink(missing_ok=True)
    copy.write_bytes(db.read_bytes())
    con = connect(copy)
    regroup(con, novelties=False)
    refresh_novelties(con)
    got = _state(con)
    con.close()
    return got


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_import_settles_as_a_recomputation(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    pool: list[tuple[list[str], str]] = []
    files = []
    for i in range(4):
        f = tmp_path / f"f{i}.pdn"
        f.write_text(_games(rng, rng.randint(15, 30), pool), encoding="utf-8")
        files.append(f)
    rng.shuffle(files)
    db = tmp_path / "g.duckdb"
    for f in files:
        import_files([f], db=db)
        con = connect(db)
        got = _state(con)
        con.close()
        assert got == _recomputed(db), f.name
    files[0].write_text(_games(rng, 20, pool), encoding="utf-8")  # replaced by other games
    files[1].write_text(_games(rng, 1, pool), encoding="utf-8")  # most of its games gone
    for f in files[:2]:
        import_files([f], db=db)
        con = connect(db)
        got = _state(con)
        con.close()
        assert got == _recomputed(db), f"{f.name} edited"
    assert any(r[1] is not None for r in got)  # copies were grouped
    assert any(r[4] is not None for r in got)  # games deviated from others
    assert any(r[5] is not None for r in got)  # probable copies were found
