"""The import's rows on the compiled core (a clean game's replay, checks, draw loop and FEN in one
call of the core, its plies' columns cut from the core's arrays) make the database the pure
core's Python rows make (``PDNKIT_PURE=1``, in another process): every table row for row, on
generated files of every variant (clean games, games with comments and NAGs, an illegal move,
a misnumbered move, a wrong separator, a set-up, stray text between games, 12x12 boards) and on
the shared real files."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import pdnkit
from pdnkit import core
from pdnkit.rules import Position, list_variants
from pdnkit.rules.fen import write_fen
from pdnkit.rules.notation import format_move
from tests.dbtables import tables
from tests.shared import shared_path

duckdb = pytest.importorskip("duckdb")
pytestmark = pytest.mark.skipif(core.core_in_use() != "compiled",
                                reason="the compiled core is not built")

#: every variant once (a name may be listed under several editions)
VARIANTS = sorted({r.name: r for r in list_variants()}.items())


def _game(rng: random.Random, rules: object, index: int) -> str:
    """One random game of ``rules`` as PDN, spoiled in one of several ways by ``index``."""
    pos = Position.initial(rules)  # type: ignore[arg-type]
    start = pos
    moves: list[str] = []
    for _ in range(rng.randint(0, 70)):
        legal = pos.legal_moves()
        if not legal:
            break
        m = rng.choice(legal)
        moves.append(format_move(m, pos.rules, full_path=rng.random() < 0.1))
        pos = pos.play(m)
    kind = index % 7
    if kind == 1 and len(moves) > 4:  # an illegal move: a piece moved back where it came from
        a, b = moves[2].replace("x", "-").replace(":", "-").split("-")[:2]
        moves[3] = f"{b}-{a}"
    if kind == 2 and len(moves) > 3:  # the wrong separator
        moves[1] = moves[1].replace("-", "x") if "-" in moves[1] else moves[1].replace(
            pos.rules.capture_separator, "-")
    text = []
    for i, mv in enumerate(moves):
        if i % 2 == 0:
            number = i // 2 + 1 + (5 if kind == 3 and i == 4 else 0)  # misnumbered
            text.append(f"{number}.")
        text.append(mv)
        if kind == 4 and i % 5 == 2:
            text.append(rng.choice(["{a comment}", "!", "$3", "{long} ?!", "(1. 32-28)"]))
    result = rng.choice(["*", "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1"])
    tags = [f'[Event "Gen {index}"]', f'[White "W{index % 3}"]', '[Black "B"]',
            f'[GameType "{pos.rules.gametype}"]', f'[Result "{result}"]']
    if kind == 5:  # a set-up: the start position as a FEN tag
        tags.append(f'[FEN "{write_fen(start)}"]')
    stray = "stray text between games\n\n" if kind == 6 else ""
    return "\n".join(tags) + "\n\n" + " ".join([*text, result]) + "\n\n" + stray


def _generated(tmp: Path) -> list[Path]:
    out = []
    for name, rules in VARIANTS:
        rng = random.Random(name)
        path = tmp / f"{name}.pdn"
        path.write_text("".join(_game(rng, rules, i) for i in range(14)), encoding="utf-8")
        out.append(path)
    return out


def _same_databases(files: list[Path], tmp: Path) -> None:
    compiled, pure = tmp / "c.duckdb", tmp / "p.duckdb"
    pdnkit.import_files(files, compiled)
    code = "import sys, pdnkit\npdnkit.import_files(sys.argv[2:], sys.argv[1])\n"
    env = {**os.environ, "PDNKIT_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code, str(pure), *map(str, files)],
                         capture_output=True, text=True, env=env, timeout=900)
    assert out.returncode == 0, out.stderr
    a, b = tables(compiled), tables(pure)
    assert a.keys() == b.keys()
    assert a["games"] and a["move_rows"]
    for name in a:
        assert a[name] == b[name], name


def test_generated_files_of_every_variant(tmp_path: Path) -> None:
    files = _generated(tmp_path)
    _same_databases(files, tmp_path)
    con = duckdb.connect(str(tmp_path / "c.duckdb"), read_only=True)
    try:  # the spoiled games are there, as findings
        codes = {r[0] for r in con.execute("select distinct code from findings").fetchall()}
        types = con.execute("select count(distinct gametype) from games").fetchone()
    finally:
        con.close()
    assert {"illegal-move", "notation-mismatch", "move-number-mismatch"} <= codes, codes
    assert types is not None and types[0] == len({r.gametype for _, r in VARIANTS})


@pytest.mark.slow
def test_the_shared_real_files(tmp_path: Path) -> None:
    root = shared_path("real")
    files = sorted(root.rglob("*.pdn"))
    assert files
    _same_databases(files, tmp_path)
