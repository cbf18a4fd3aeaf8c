"""Every reader of the games counts each game once: a database of originals and decoys plus
their copies (the seeded look-alike of tests/copies_lookalike.py, imported copies first and
copies last) answers as the database without the copies, family by family (statistics,
the tree, search, ratings, engine analysis, reports, plots, the explorer's API, export,
opening tables, a lake); ``all_copies`` counts every record and answers otherwise."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pdnkit.stats import GameFilter
from pdnkit.store import import_files
from tests.copies_lookalike import LookAlike, build
from tests.shared import shared_path

ONCE, EVERY = GameFilter(), GameFilter(all_copies=True)
#: columns that name a record by its number in one database (another in each import order)
ID_COLUMNS = {"game_id", "deviated_from", "novelty_from", "file_id", "game_ids",
              "first_game_id", "id"}


def plain(value: Any) -> Any:
    """A reader's answer as plain JSON-like data, the records' numbers left out and rows
    sorted (two databases number the same records otherwise, and order ties by number)."""
    import pandas as pd

    if isinstance(value, pd.DataFrame):
        df = value.drop(columns=[c for c in value.columns if c in ID_COLUMNS])
        rows = json.loads(df.to_json(orient="records", date_format="iso", default_handler=str))
        return sorted(rows, key=lambda r: json.dumps(r, sort_keys=True))
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items() if k not in ID_COLUMNS}
    if isinstance(value, list):
        return sorted((plain(v) for v in value), key=lambda r: json.dumps(r, sort_keys=True))
    if isinstance(value, str):  # a report: numbers of records and temporary paths out
        return re.sub(r"game_id=\d+|\| \d+ \|(?= \S+\.pdn)|\S*/tmp\S*", "X", value)
    return value


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The look-alike, the database without its copies (``base``) and with them, copies
    imported first and last; each analysed by the built-in engine."""
    from pdnkit.analysis import analyse

    root = shared_path("real").parent
    tmp = tmp_path_factory.mktemp("readers")
    la: LookAlike = build(root, tmp / "set", seed=7, per_file=3)
    base = tmp / "base.duckdb"
    import_files([*la.originals, *la.decoys], db=base)
    dbs = {}
    for first in ("copies", "originals"):
        db = tmp / f"{first}-first.duckdb"
        batches = [la.variants, [*la.originals, *la.decoys]]
        for batch in (batches if first == "copies" else batches[::-1]):
            import_files(batch, db=db)
        dbs[first] = db
    for db in (base, *dbs.values()):  # every record (copies too): --all-copies reads them
        analyse(db=db, engine="builtin", depth=1, all_copies=True)
    return {"la": la, "base": base, "dbs": dbs, "tmp": tmp}


def same_answers(world: dict[str, Any], read: Callable[[Path, GameFilter], Any]) -> None:
    """``read`` of each database with copies equals ``read`` of the base (each game once),
    and counting every record answers otherwise."""
    expected = plain(read(world["base"], ONCE))
    for first, db in world["dbs"].items():
        assert plain(read(db, ONCE)) == expected, f"copies imported {first}"
    assert plain(read(world["dbs"]["copies"], EVERY)) != expected, "all_copies changes nothing"


def test_world_has_copies_and_decoys(world: dict[str, Any]) -> None:
    la = world["la"]
    assert len(la.copy_of) >= 10 and la.decoy_places
    assert {"truncated", "annotated", "renamed"} <= {w for h in la.how.values()
                                                      for w in h.split("+")}


# ---- the statistics (pdnkit stats ...)

STATS: dict[str, Callable[[Path, GameFilter], Any]] = {
    "players": lambda db, f: _stats().players(db, filter=f),
    "results by event": lambda db, f: _stats().results(db, by=["variant", "event"], filter=f),
    "lengths": lambda db, f: _stats().lengths(db, filter=f),
    "findings by code": lambda db, f: _stats().findings(db, by="code", filter=f),
    "findings by event": lambda db, f: _stats().findings(db, by="event", filter=f),
    "findings by file": lambda db, f: _stats().findings(db, by="file", filter=f),
    "findings by game": lambda db, f: _stats().findings(db, by="game", filter=f),
    "openings by position": lambda db, f: _stats().openings(db, plies=6, by="position",
                                                            filter=f),
    "ballots": lambda db, f: _stats().ballots(db, filter=f),
    "openings by moves": lambda db, f: _stats().openings(db, plies=4, filter=f),
    "openings by code": lambda db, f: _stats().named_openings(db, by="code", filter=f),
    "openings by name": lambda db, f: _stats().named_openings(db, by="name", filter=f),
    "novelties": lambda db, f: _stats().novelties(db, filter=f),
    "capture squares": lambda db, f: _stats().square_counts(db, filter=f),
    "endgame rules": lambda db, f: _stats().endgame_rules(db, filter=f),
    "games": lambda db, f: _stats().games(db, filter=f),
}


def _stats() -> Any:
    import pdnkit.stats

    return pdnkit.stats


@pytest.mark.parametrize("name", sorted(STATS))
def test_statistics(world: dict[str, Any], name: str) -> None:
    same_answers(world, STATS[name])


def test_crosstables(world: dict[str, Any]) -> None:
    from pdnkit.stats import crosstable

    events = world["la"].events
    same_answers(world, lambda db, f: {e: crosstable(db, event=e, filter=f) for e in events})


def test_tree_and_positions(world: dict[str, Any]) -> None:
    from pdnkit.stats import games, tree

    def read(db: Path, f: GameFilter) -> Any:
        out = {}
        for variant in ("international", "russian", "english"):
            root = tree(db, variant=variant, filter=f)
            out[variant] = root
            first = root["move"].iloc[0]
            out[f"{variant} {first}"] = tree(db, variant=variant, moves=first, filter=f)
            out[f"{variant} {first} games"] = games(db, variant=variant, moves=first, filter=f)
        return out

    same_answers(world, read)


def test_search(world: dict[str, Any]) -> None:
    from pdnkit.stats.search import search

    same_answers(world, lambda db, f: {
        "pattern": search(db, variant="international", pattern="W28", filter=f),
        "material": search(db, variant="international", material="1K v 1K", first=True,
                           filter=f),
        "captures": search(db, variant="russian", captures=3, filter=f)})


def test_ratings(world: dict[str, Any]) -> None:
    from pdnkit.stats import ratings

    def read(db: Path, f: GameFilter) -> Any:
        out = {}
        for system, period in (("elo", "month"), ("glicko2", "event")):
            rl = ratings(db, system=system, period=period, filter=f)
            out[system] = {"table": rl.table, "history": rl.history, "note": rl.note}
        return out

    same_answers(world, read)


def test_engine_analysis(world: dict[str, Any]) -> None:
    """Accuracy per player and the worst games read the analysed games once each."""
    from pdnkit.analysis import accuracy
    from pdnkit.analysis.figures import worst_games
    from pdnkit.store import connect
    from pdnkit.store.evals import choose_key

    def read(db: Path, f: GameFilter) -> Any:
        con = connect(db, read_only=True)
        try:
            key = choose_key(con, None)
            assert key is not None
            return {"accuracy": accuracy(con, filter=f), "worst": worst_games(con, key, f)}
        finally:
            con.close()

    same_answers(world, read)


@pytest.mark.parametrize("kind", ["collection", "openings", "endgame"])
def test_reports(world: dict[str, Any], kind: str) -> None:
    from pdnkit.reports import report

    same_answers(world, lambda db, f: report(kind, db, filter=f))


def figure_data(fig: Any) -> list[Any]:
    """What a figure shows: per axes its titles, tick labels, texts, bar and step sizes and
    lines' points (NaN as None)."""
    import math

    from matplotlib.patches import Rectangle, StepPatch

    def num(v: Any) -> float | None:
        return None if v is None or math.isnan(float(v)) else round(float(v), 6)

    out = []
    for ax in fig.axes:
        bars = [num(p.get_width() * p.get_height()) for p in ax.patches
                if isinstance(p, Rectangle)]
        steps = [[num(v) for v in p.get_data().values] for p in ax.patches
                 if isinstance(p, StepPatch)]
        lines = [[[num(v) for v in ln.get_xdata(orig=False)],
                  [num(v) for v in ln.get_ydata(orig=False)]] for ln in ax.lines
                 if all(isinstance(v, (int, float)) for v in ln.get_xdata(orig=False))]
        out.append({"titles": [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()],
                    "x": [t.get_text() for t in ax.get_xticklabels()],
                    "y": [t.get_text() for t in ax.get_yticklabels()],
                    "texts": [t.get_text() for t in ax.texts],
                    "bars": bars, "steps": steps, "lines": lines})
    return out


@pytest.mark.parametrize("kind", ["openings", "lengths", "results", "findings", "endgame",
                                  "ratings", "heatmap"])
def test_plots(world: dict[str, Any], kind: str) -> None:
    import matplotlib.pyplot as plt

    from pdnkit.plots import plot

    def read(db: Path, f: GameFilter) -> Any:
        fig = plot(kind, db, variant="international", top=100, filter=f)
        try:
            return figure_data(fig)
        finally:
            plt.close(fig)

    same_answers(world, read)


def test_the_explorers_api(world: dict[str, Any]) -> None:
    """``pdnkit serve``: every endpoint that counts games counts each once, ``all_copies=1``
    every record."""
    from pdnkit.serve.endpoints import STATS as KINDS
    from pdnkit.serve.endpoints import answer, info
    from pdnkit.store import connect

    event = world["la"].events[0]

    def read(db: Path, f: GameFilter) -> Any:
        every = {"all_copies": ["1"]} if f.all_copies else {}
        con = connect(db, read_only=True)
        try:
            out: dict[str, Any] = {"info": info(con, "x")["variants"] if not f.all_copies
                                   else None}
            for kind in KINDS:
                q = {"kind": [kind], "variant": ["international"], **every}
                if kind == "crosstable":
                    q["event"] = [event]
                out[kind] = answer("/api/stats", q, con).body
            q = {"variant": ["international"], **every}
            out["tree"] = answer("/api/tree", q, con).body
            listed = answer("/api/games", {**q, "limit": ["5"]}, con)
            out["games"] = listed.headers["X-Total-Count"]
            out["search"] = answer("/api/search", {**q, "pattern": ["W28"]}, con).body
            return out
        finally:
            con.close()

    same_answers(world, read)


def test_export(world: dict[str, Any]) -> None:
    """The export writes each game once: the same records as the base's."""
    from pdnkit.store import export

    def read(db: Path, f: GameFilter) -> Any:
        out = io.StringIO()
        export(out, db=db, all_copies=f.all_copies)
        return sorted(g.strip() for g in out.getvalue().split("\n\n[") if g.strip())

    same_answers(world, read)


def test_opening_tables(world: dict[str, Any]) -> None:
    from pdnkit.store.openinglist import list_openings

    same_answers(world, lambda db, f: {
        v: list_openings(db, variant=v, all_copies=f.all_copies)
        for v in ("international", "russian", "english")})


@pytest.mark.slow
def test_a_lake_answers_as_the_database(world: dict[str, Any]) -> None:
    """A lake of the same files, copies first, answers every statistic as the database."""
    from pdnkit.lake import import_lake

    la = world["la"]
    lake = world["tmp"] / "g.lake"
    for batch in (la.variants, [*la.originals, *la.decoys]):
        import_lake(batch, lake, engine="local")
    db = world["dbs"]["copies"]
    for name in ("players", "results by event", "openings by name", "openings by code",
                 "novelties", "lengths", "games"):
        for f in (ONCE, EVERY):  # (the database's engine findings are not the lake's)
            got, want = (plain(STATS[name](x, f).drop(columns=["findings"], errors="ignore"))
                         for x in (lake, db))
            assert got == want, (name, f)


def test_endgame_database_verdicts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The endgame databases' verdicts and coverage (the endgame report's section) count
    each game once: a copy of a file with other line breaks, imported first or last,
    changes nothing; every record counts each verdict twice."""
    from pdnkit.egdb import build as build_egdb
    from pdnkit.rules import get_rules
    from pdnkit.stats.endings import egdb_coverage, egdb_verdicts
    from pdnkit.validation.egdbcheck import forget_databases
    from tests.egdb.support import compiled

    compiled(get_rules("russian"))
    folder = tmp_path / "egdb"
    build_egdb("russian", 3, directory=folder)
    monkeypatch.setenv("PDNKIT_EGDB", str(folder))
    forget_databases()
    original = shared_path("real", "russian", "random_pdns.derived.pdn")
    copy = tmp_path / "archive" / "russian-crlf.pdn"
    copy.parent.mkdir()
    copy.write_bytes(original.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    base = tmp_path / "base.duckdb"
    import_files([original], db=base)
    dbs = {}
    for first in ("copies", "originals"):
        dbs[first] = tmp_path / f"{first}-first.duckdb"
        for f in ([copy, original] if first == "copies" else [original, copy]):
            import_files([f], db=dbs[first])
    forget_databases()

    def read(db: Path, f: GameFilter) -> Any:
        verdicts = egdb_verdicts(db, directory=folder, filter=f).drop(columns=["file"])
        return {"verdicts": verdicts, "coverage": egdb_coverage(db, directory=folder, filter=f)}

    same_answers({"base": base, "dbs": dbs}, read)
    once = egdb_verdicts(dbs["copies"], directory=folder)
    every = egdb_verdicts(dbs["copies"], directory=folder, filter=EVERY)
    assert len(once) and len(every) == 2 * len(once)


def test_view_page(world: dict[str, Any]) -> None:
    """``pdnkit view --db``: the page lists each game once (``--all-copies``: every
    record); the explorer's game pane still opens any record by its number."""
    from pdnkit.viewer.page import db_models, view

    out = world["tmp"] / "view.html"

    def read(db: Path, f: GameFilter) -> Any:
        summary = view(db=db, out=out, all_copies=f.all_copies)
        page = out.read_text(encoding="utf-8")
        index = json.loads(re.search(r'id="pdnkit-index">(.*?)</script>', page,
                                     flags=re.S).group(1))  # type: ignore[union-attr]
        return {"games": summary.games,
                "index": [{k: re.sub(r" \(game_id \d+\)", "", v) if isinstance(v, str) else v
                           for k, v in e.items() if k != "i"} for e in index["games"]]}

    same_answers(world, read)
    from pdnkit.store import connect

    db = world["dbs"]["originals"]
    con = connect(db, read_only=True)
    (copy,) = con.execute("SELECT min(game_id) FROM games WHERE duplicate_of IS NOT NULL"
                          ).fetchall()[0]
    con.close()
    assert len(list(db_models(db, game_id=copy))) == 1
