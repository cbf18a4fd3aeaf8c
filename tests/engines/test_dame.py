"""A real Hub engine: ``dame hub`` of dame-rs (the ``engines`` extra: ``pip install -e
".[engines]"``), skipped with the reason where it is not installed.

Real games of the Dutch championship 2003 (the shared test material; the bundled sample
without it) are analysed at a small depth: every position once, every move the engine gives
a legal move written as PDN, scores that agree in sign with the material where one side is
two men up in a quiet position, a second run that changes nothing, and no engine left."""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

import duckdb
import pytest

from pdnkit.analysis import analyse
from pdnkit.engines import HubEngine
from pdnkit.rules import Position, canonical_notation, get_rules
from pdnkit.samples import sample_dir
from tests.shared import SHARED_DATA


def dame() -> str:
    here = Path(sys.executable).with_name("dame")
    found = str(here) if here.exists() else shutil.which("dame")
    if found is None:
        pytest.skip("dame-rs is not installed (pip install -e \".[engines]\" installs its "
                    "`dame hub` engine)")
    return found


def source() -> Path:
    real = SHARED_DATA / "real" / "international" / "nk2003-amsterdam.pdn"
    return real if real.exists() else sample_dir() / "international.pdn"


def test_dame_says_who_it_is_and_plays_international() -> None:
    with HubEngine([dame(), "hub"], depth=2) as engine:
        assert engine.info.name == "dame" and engine.info.version
        assert engine.info.variants == ("international",)
        ev = engine.evaluate(Position.initial(get_rules("international")))
        assert ev.best in Position.initial(get_rules("international")).legal_moves()
        assert ev.depth == 2 and ev.nodes and abs(ev.score) < 1


def test_dame_analyses_real_games(tmp_path: Path) -> None:
    engine = shlex.join([dame(), "hub"])
    db = tmp_path / "a.duckdb"
    first = analyse([source()], db, engine=engine, depth=4, where="g.game_index < 6", jobs=2)
    con = duckdb.connect(str(db), read_only=True)
    positions = con.execute("SELECT count(*) FROM position_bits p JOIN games g USING "
                            "(game_id) WHERE g.game_index < 6").fetchone()[0]
    assert first.positions == positions > 100 and first.faults == 0
    got = con.execute(
        "SELECT p.fen, e.score, e.depth, e.best, e.pv, e.material, e.pv_material, p.side "
        "FROM evals e JOIN positions p USING (game_id, ply) ORDER BY e.game_id, e.ply"
    ).fetchall()
    evals = con.execute("SELECT * FROM evals ORDER BY ALL").fetchall()
    con.close()
    assert len(got) == positions
    rules = get_rules("international")
    from pdnkit.rules import parse_fen

    checked = 0
    for fen, score, depth, best, pv, _, _, _ in got:
        pos = parse_fen(fen, rules)
        legal = pos.legal_moves()
        if not legal:
            assert (depth, best) == (0, None) and abs(score) == 100
            continue
        assert depth == 4
        assert best in {canonical_notation(m, pos, legal) for m in legal}
        assert pv.split()[0] == best
        checked += 1
    assert checked > 100
    again = analyse([source()], db, engine=engine, depth=4, where="g.game_index < 6")
    assert again.positions == 0
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT * FROM evals ORDER BY ALL").fetchall() == evals
    con.close()


@pytest.mark.parametrize("side", ["W", "B"])
def test_dame_s_scores_are_turned_to_white_s_view(tmp_path: Path, side: str) -> None:
    """White four men up, either side to move: every score is White's, so above 0."""
    from tests.engines.helpers import INTERNATIONAL, game_text, positions_of

    fen = f"{side}:W31,32,33,34,35,36,37,38:B1,2,3,4"
    moves = []
    for pos in positions_of([], fen)[:1]:
        for _ in range(6):
            legal = pos.legal_moves()
            moves.append(legal[0])
            pos = pos.play(legal[0])
    text = game_text(moves, fen) if side == "W" else game_text(moves, fen).replace(
        "1. ", "1... ", 1)
    pdn = tmp_path / "up.pdn"
    pdn.write_text(text.replace("[FEN", '[Result "*"]\n[FEN'), encoding="utf-8")
    db = tmp_path / "a.duckdb"
    s = analyse([pdn], db, engine=shlex.join([dame(), "hub"]), depth=4)
    con = duckdb.connect(str(db), read_only=True)
    scores = [r[0] for r in con.execute("SELECT score FROM evals ORDER BY ply").fetchall()]
    con.close()
    assert s.positions == len(scores) == 7 and INTERNATIONAL.name == "international"
    assert all(x > 1 for x in scores), scores
