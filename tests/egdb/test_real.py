"""The endgame report on the shared real files: the games whose endings the databases judge,
with their boards; every verdict right when probed, and the same whether stored at import or
computed by the report from the stored positions."""

from __future__ import annotations

import pytest

from pdnkit.egdb import Egdb, build
from pdnkit.rules import get_rules, match_move, parse_fen
from pdnkit.validation.egdbcheck import forget_databases
from tests.shared import shared_path

from .support import compiled

CODES = ("result-vs-egdb", "win-thrown-away", "draw-thrown-away", "egdb-win-drawn-by-rule")


def _import(folder, files, tmp_path, monkeypatch):
    from pdnkit.store import import_files

    monkeypatch.setenv("PDNKIT_EGDB", str(folder))
    forget_databases()
    db = tmp_path / "real.duckdb"
    import_files(files, db)
    return db


def _check_against_the_databases(folder, verdicts) -> None:
    """Each verdict, probed again from its position."""
    for row in verdicts.itertuples(index=False):
        db = Egdb(row.variant, folder)
        pos = parse_fen(row.fen, db.rules)
        before = db.verdict(pos)
        assert before.value is not None
        if row.code == "result-vs-egdb":
            winner = (None if before.value == "draw" else
                      int(pos.side) if before.value == "win" else 1 - int(pos.side))
            scored = {"1-0": 0, "0-1": 1, "1/2-1/2": None}[row.result]
            assert winner != scored
            continue
        (move,) = match_move(pos, row.move)
        after = db.verdict(pos.play(move))
        if row.code == "win-thrown-away":
            assert before.value == "win" and after.value != "loss"
        else:
            assert before.value == "draw" and after.value == "win"
        assert row.best_moves and all(match_move(pos, m) for m in row.best_moves)


def _stored(db):
    from pdnkit.store import connect

    con = connect(db, read_only=True)
    return sorted(con.execute(
        f"SELECT game_id, code, ply, fen FROM findings WHERE code IN {CODES}").fetchall())


def test_report_on_real_files_three_pieces(tmp_path_factory, tmp_path, monkeypatch) -> None:
    compiled(get_rules("russian"))
    folder = tmp_path_factory.mktemp("egdb-real3")
    for variant in ("russian", "brazilian"):
        build(variant, 3, directory=folder)
    files = [shared_path("real", v, "random_pdns.derived.pdn") for v in ("russian", "brazilian")]
    db = _import(folder, files, tmp_path, monkeypatch)
    from pdnkit.reports import endgame_report
    from pdnkit.stats.endings import egdb_coverage, egdb_verdicts

    verdicts = egdb_verdicts(db)
    assert sorted(verdicts["code"]) == ["result-vs-egdb", "result-vs-egdb"]
    assert set(verdicts["fen"]) == {"W:Wa3:Bc5,Kg1", "B:Wb4:Ba5,Kd6"}
    _check_against_the_databases(folder, verdicts)
    assert _stored(db) == sorted((r.game_id, r.code, r.ply, r.fen)
                                 for r in verdicts.itertuples(index=False))
    cover = egdb_coverage(db)
    built = cover[cover["variant"] == "russian"].set_index("pieces")["built"].to_dict()
    assert all(built[n] == (n <= 3) for n in built) and 4 in built
    md = endgame_report(db)
    section = md.split("## Endgame databases")[1].split("\n## ")[0]
    assert "2 results against the databases" in section
    assert "W:Wa3:Bc5,Kg1" in section and "pdnkit egdb build russian --pieces 4" in section
    html = endgame_report(db, fmt="html")
    assert html.split("<h2>Endgame databases</h2>")[1].split("<h2>")[0].count("<svg") == 2
    forget_databases()


@pytest.mark.slow
def test_report_on_real_english_games_four_pieces(tmp_path_factory, tmp_path,
                                                  monkeypatch) -> None:
    compiled(get_rules("english"))
    folder = tmp_path_factory.mktemp("egdb-real4")
    build("english", 4, directory=folder)
    db = _import(folder, [shared_path("real", "english", "random_pdns.derived.pdn")], tmp_path,
                 monkeypatch)
    from pdnkit.stats import GameFilter
    from pdnkit.stats.endings import egdb_verdicts
    from pdnkit.store import connect

    every = egdb_verdicts(db, filter=GameFilter(all_copies=True))
    counts = every["code"].value_counts().to_dict()
    assert counts.get("win-thrown-away", 0) >= 5 and counts.get("draw-thrown-away", 0) >= 5
    _check_against_the_databases(folder, every)
    # the findings are stored on every record, copies included
    assert _stored(db) == sorted((r.game_id, r.code, r.ply, r.fen)
                                 for r in every.itertuples(index=False))
    # the report counts each game once: a copy's verdicts are its original's
    copies = dict(connect(db, read_only=True).execute(
        "SELECT game_id, duplicate_of FROM games WHERE duplicate_of IS NOT NULL").fetchall())
    once = egdb_verdicts(db)
    assert not set(once["game_id"]) & set(copies)
    assert sorted(map(tuple, once[["game_id", "code", "ply"]].values.tolist())) == sorted(
        (g, c, p) for g, c, p in every[["game_id", "code", "ply"]].values.tolist()
        if g not in copies)
    judged_copies = set(every["game_id"]) & set(copies)
    assert judged_copies  # the file holds a copy of a judged game
    for copy in judged_copies:
        assert (sorted(every.loc[every["game_id"] == copy, ["code", "ply"]].values.tolist())
                == sorted(every.loc[every["game_id"] == copies[copy],
                                    ["code", "ply"]].values.tolist()))
    forget_databases()


#: the variants of the shared real files that have databases (Frisian's have none)
REAL = ("english", "russian", "brazilian", "czech", "italian", "international",
        "antidraughts", "breakthrough")


def _pieces(fen: str) -> int:
    return sum(1 for part in fen.split(":")[1:] for sq in part[1:].split(",") if sq)


def _best_moves_keep_the_value(folder, verdicts) -> None:
    """Each verdict's best moves lead where the value before says: a win in n to a loss in
    n - 1 for the opponent, a draw to a draw."""
    for row in verdicts.itertuples(index=False):
        db = Egdb(row.variant, folder)
        pos = parse_fen(row.fen, db.rules)
        before = db.verdict(pos)
        for text in row.best_moves:
            (move,) = match_move(pos, text)
            after = db.verdict(pos.play(move))
            if before.value == "win":
                assert (after.value, after.plies) == ("loss", before.plies - 1)
            elif before.value == "draw":
                assert after.value == "draw"
            else:
                assert (after.value, after.plies) == ("win", before.plies - 1)


@pytest.mark.slow
def test_report_on_every_real_file_three_pieces(tmp_path_factory, tmp_path,
                                                 monkeypatch) -> None:
    """Every shared real file imported with every variant's databases of up to 3 pieces:
    the games judged are those whose final position has at most 3 pieces, every verdict is
    right when probed again (the value before and after the move, the best moves), the
    findings stored at import are the report's, and the report's section counts them."""
    compiled(get_rules("english"))
    folder = tmp_path_factory.mktemp("egdb-real-all")
    for variant in REAL:
        build(variant, 3, directory=folder)
    db = _import(folder, [shared_path("real")], tmp_path, monkeypatch)
    from pdnkit.reports import endgame_report
    from pdnkit.stats.endings import egdb_verdicts
    from pdnkit.store import connect

    verdicts = egdb_verdicts(db)
    assert len(verdicts) >= 2 and set(verdicts["variant"]) <= set(REAL)
    _check_against_the_databases(folder, verdicts)
    _best_moves_keep_the_value(folder, verdicts)
    assert _stored(db) == sorted((r.game_id, r.code, r.ply, r.fen)
                                 for r in verdicts.itertuples(index=False))
    con = connect(db, read_only=True)
    finals = con.execute("SELECT game_id, variant, final_fen FROM games WHERE final_fen IS "
                         "NOT NULL AND duplicate_of IS NULL").fetchall()
    con.close()
    judged = sum(1 for _, v, fen in finals if v in REAL and _pieces(fen) <= 3)
    counts = verdicts["code"].value_counts().to_dict()
    md = endgame_report(db)
    section = md.split("## Endgame databases")[1].split("\n## ")[0]
    assert f"{judged} games end in positions the built endgame databases hold" in section
    assert (f"{counts.get('win-thrown-away', 0)} wins thrown away, "
            f"{counts.get('draw-thrown-away', 0)} draws thrown away, "
            f"{counts.get('result-vs-egdb', 0)} results against the databases") in section
    html = endgame_report(db, fmt="html")
    part = html.split("<h2>Endgame databases</h2>")[1].split("<h2>")[0]
    assert part.count("<svg") == min(12, len(verdicts))
    forget_databases()
