"""The copies on the command line: ``duplicates --format json``, ``rule-copies``, ``merge``
and ``--all-copies`` on every read command, run as a user runs them."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from tests.cli.helpers import cli
from tests.copies_kit import EVENT, statistics, tournament, tournament_copies


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("copies")
    return tournament(folder / "a"), tournament_copies(folder / "b")


@pytest.fixture(scope="module")
def db(sources: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("copies-db") / "g.duckdb"
    code, out, err = cli("import", *sources, "--db", db, "--quiet")
    assert code == 0, err
    assert "copies: 6 record(s) are copies of a game counted once" in out
    return db


def test_duplicates_as_json(db: Path, sources: tuple[Path, Path]) -> None:
    code, out, _ = cli("duplicates", "--db", db, "--format", "json")
    assert code == 0
    groups = json.loads(out)
    assert len(groups) == 6 and {g["relation"] for g in groups} == {"copies"}
    for g in groups:
        assert g["canonical"] == g["locations"][0]
        assert g["canonical"].startswith(str(sources[0]) + "#")
        assert g["locations"][1].startswith(str(sources[1]) + "#")
        assert g["kinds"][0] == "canonical" and g["kinds"][1] in ("tags", "prefix", "annotated")
        assert g["games"] == len(g["locations"]) == len(g["kinds"]) == 2
    numbers = sorted(int(g["canonical"].rsplit("#", 1)[1]) for g in groups)
    assert numbers == [1, 2, 3, 4, 5, 6]  # N as the CLI shows game numbers: from 1


def test_every_read_command_takes_all_copies(db: Path, tmp_path: Path) -> None:
    # (games a player: each game twice; the truncated copy, its result open, is not rated)
    counts = {"stats players": (12, 24), "stats results": (6, 12), "ratings": (12, 22)}
    for args, col in ((["stats", "players"], "games"), (["stats", "results"], "games"),
                      (["ratings"], "games")):
        a = json.loads(cli(*args, "--db", db, "-f", "json")[1])
        b = json.loads(cli(*args, "--db", db, "-f", "json", "--all-copies")[1])
        assert (sum(r[col] for r in a), sum(r[col] for r in b)) == counts[" ".join(args)]
    listed = [json.loads(cli("games", "--db", db, "-f", "json", *x)[1])
              for x in ([], ["--all-copies"])]
    assert [len(x) for x in listed] == [6, 12]
    for extra, n in (([], 6), (["--all-copies"], 12)):
        code, out, err = cli("view", "--db", db, "--out", tmp_path / "v.html", *extra)
        assert code == 0 and f": {n} games," in out, err
    for args in (["stats", "openings", "--plies", "2"], ["stats", "novelties"],
                 ["stats", "accuracy"], ["games", "--player", "Sijbrands", "--match"],
                 ["stats", "lengths"], ["stats", "findings"],
                 ["stats", "crosstable", "--event", "Club"], ["tree"],
                 ["search", "--pattern", "W28"], ["openings", "list", "--variant", "russian"],
                 ["report", "collection"], ["export", "--out", tmp_path / "all.pdn"],
                 ["plot", "lengths", "--out", tmp_path / "l.png"]):
        code, _, err = cli(*args, "--db", db, "--all-copies")
        assert code == 0, (args, err)
    assert (tmp_path / "all.pdn").read_text(encoding="utf-8").count("[Event ") == 12


def test_rule_copies_on_the_command_line(db: Path, tmp_path: Path) -> None:
    code, _, err = cli("rule-copies", "originals.pdn#1", "copies.pdn#1", "--db", db)
    assert code == 2 and "give one of --same, --different or --forget" in err
    code, _, err = cli("rule-copies", "nowhere.pdn#1", "copies.pdn#1", "--same", "--db", db)
    assert code == 2 and err.count("\n") == 1 and "nowhere.pdn" in err
    code, _, err = cli("rule-copies", "copies.pdn#9", "originals.pdn#1", "--same", "--db", db)
    assert code == 2 and "there is no game 9" in err
    code, out, _ = cli("rule-copies", "originals.pdn#1", "copies.pdn#1", "--different",
                       "--db", db)
    assert code == 0 and "two games" in out
    code, out, _ = cli("duplicates", "--db", db, "--rulings", "-f", "json")
    assert json.loads(out)[0]["same"] is False
    rows = json.loads(cli("duplicates", "--db", db, "-f", "json")[1])
    assert [r["relation"] for r in rows] == ["copies"] * 5 + ["same-moves"]  # other games
    cli("rule-copies", "originals.pdn#1", "copies.pdn#1", "--forget", "--db", db)
    rows = json.loads(cli("duplicates", "--db", db, "-f", "json")[1])
    assert [r["relation"] for r in rows] == ["copies"] * 6


def test_merge_writes_one_record_per_game(sources: tuple[Path, Path], tmp_path: Path) -> None:
    """Merged files imported again answer as the originals alone; the log says where every
    record went."""
    out, log = tmp_path / "merged.pdn", tmp_path / "merge.csv"
    code, text, err = cli("merge", *sources, "--out", out, "--log", log, "--quiet")
    assert code == 0, err
    assert text.startswith(f"6 game(s) -> {out}: 6 copies folded")
    rows = list(csv.DictReader(log.open(encoding="utf-8")))
    merged = [r for r in rows if r["action"] == "merged"]
    assert len(merged) == 6 and all(r["into"].startswith(str(sources[0])) for r in merged)
    assert all(r["note"].startswith("the record written stands for it: ") for r in merged)
    assert sum(r["action"] == "written" for r in rows) == 6
    alone, again = tmp_path / "alone.duckdb", tmp_path / "again.duckdb"
    assert cli("import", sources[0], "--db", alone, "--quiet")[0] == 0
    assert cli("import", out, "--db", again, "--quiet")[0] == 0
    assert statistics(again, EVENT) == statistics(alone, EVENT)


def test_merge_takes_the_tags_a_record_lacks(tmp_path: Path) -> None:
    from tests.copies_kit import random_line, record, write

    line = random_line(3, 50)
    tags = {"event": "Cup", "white": "Ann Lee", "black": "Bob Stone", "date": "2001.05.??"}
    a = write(tmp_path / "a.pdn", record(line, "2-0", **tags, site="Utrecht"))
    b = write(tmp_path / "b.pdn", record(line[:30], "*", **{**tags, "white": "A. Lee",
                                                              "date": "2001.05.02",
                                                              "site": "Zeist"}, round="4"))
    out, log = tmp_path / "m.pdn", tmp_path / "m.json"
    code, _, err = cli("merge", a, b, "--out", out, "--log", log, "--quiet")
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    assert '[Round "4"]' in text and '[Date "2001.05.02"]' in text
    assert '[White "Ann Lee"]' in text and '[Site "Utrecht"]' in text
    rows = json.loads(log.read_text(encoding="utf-8"))
    actions = {(r["action"], r["tag"]) for r in rows}
    assert {("tag-added", "Round"), ("tag-refined", "Date"), ("tag-conflict", "Site"),
            ("tag-conflict", "White")} <= actions


def test_merge_never_writes_over_an_input(sources: tuple[Path, Path], db: Path) -> None:
    before = sources[0].read_bytes()
    code, _, err = cli("merge", *sources, "--out", sources[0], "--quiet")
    assert code == 2 and err.startswith("pdnkit: error:") and err.count("\n") == 1
    assert sources[0].read_bytes() == before
    code, _, err = cli("merge", "--db", db, "--out", db)
    assert code == 2 and err.startswith("pdnkit: error:")
    code, _, err = cli("merge", "--db", db, "--out", db.with_suffix(".pdn"), "--log",
                       db.with_suffix(".txt"))
    assert code == 2 and ".csv or .json" in err
