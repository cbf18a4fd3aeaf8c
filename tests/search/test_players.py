"""Player identities and crosstables on hand-made games whose tallies are known.

Event "Cup" (results written 1-0 / 0-1 / 1/2-1/2):

* M Tinsley - D Oldbury 1-0 (1950); D Oldbury - MF Tinsley 0-1 (1951);
* Marion Tinsley - White 1-0 (1951: "White" is a placeholder, no player);
* D Oldbury - A Long 1/2-1/2; A Long - M Tinsley 1/2-1/2.

Event "Open" (results written 2-0 / 1-1): P Roozenburg - W Huisman 2-0, W Huisman -
P Roozenburg 1-1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdnkit.stats import crosstable, players
from pdnkit.stats.identities import alias, aliases, is_placeholder, suggest, unalias

GAMES = [
    ("Cup", "M Tinsley", "D Oldbury", "1-0", "1950.05.01"),
    ("Cup", "D Oldbury", "MF Tinsley", "0-1", "1951.05.02"),
    ("Cup", "Marion Tinsley", "White", "1-0", "1951.05.03"),
    ("Cup", "D Oldbury", "A Long", "1/2-1/2", "1951.05.04"),
    ("Cup", "A Long", "M Tinsley", "1/2-1/2", "1951.05.05"),
    ("Open", "P Roozenburg", "W Huisman", "2-0", "1952.01.01"),
    ("Open", "W Huisman", "P Roozenburg", "1-1", "1952.01.02"),
]


@pytest.fixture()
def db(tmp_path: Path) -> str:
    from pdnkit.store import import_files

    f = tmp_path / "p.pdn"
    f.write_text("\n".join(
        f'[Event "{e}"]\n[White "{w}"]\n[Black "{b}"]\n[Date "{d}"]\n[Result "{r}"]\n'
        f'[GameType "20"]\n\n1. 32-28 {r}\n' for e, w, b, r, d in GAMES), encoding="utf-8")
    path = tmp_path / "p.duckdb"
    assert import_files([f], db=path).games == len(GAMES)
    return str(path)


def test_placeholders_are_no_players(db: str) -> None:
    assert is_placeholder("White") and is_placeholder(" ? ") and is_placeholder("")
    names = set(players(db)["player"])
    assert "White" not in names
    assert {"M Tinsley", "MF Tinsley", "Marion Tinsley", "D Oldbury"} <= names


def test_aliases_merge_a_player_in_every_statistic(db: str) -> None:
    assert alias(db, ["M Tinsley", "MF Tinsley"], "Marion Tinsley") == 2
    df = players(db).set_index("player")
    assert "M Tinsley" not in df.index and "MF Tinsley" not in df.index
    t = df.loc["Marion Tinsley"]
    assert (t.games, t.wins, t.draws, t.losses) == (4, 3, 1, 0)
    # the player filter finds the games of every alias
    from pdnkit.stats.search import search

    hits = search(db, pattern="W28", player="Marion Tinsley")
    assert len(hits) == 4
    assert set(aliases(db)["alias"]) == {"M Tinsley", "MF Tinsley"}
    assert unalias(db, ["MF Tinsley"]) == 1
    assert "MF Tinsley" in set(players(db)["player"])


def test_suggest_lists_likely_aliases(db: str) -> None:
    pairs = {frozenset((a, b)) for a, b in suggest(db)[["name_a", "name_b"]].itertuples(
        index=False)}
    assert pairs == {frozenset(p) for p in [("M Tinsley", "MF Tinsley"),
                                            ("M Tinsley", "Marion Tinsley"),
                                            ("MF Tinsley", "Marion Tinsley")]}
    alias(db, ["M Tinsley", "MF Tinsley"], "Marion Tinsley")
    assert suggest(db).empty  # all one player now


def test_crosstable_one_point_scoring(db: str) -> None:
    alias(db, ["M Tinsley", "MF Tinsley"], "Marion Tinsley")
    df = crosstable(db, event="cup").set_index("player")
    assert list(df.index) == ["Marion Tinsley", "A Long", "D Oldbury"]
    t = df.loc["Marion Tinsley"]
    assert (t["rank"], t.games, t.wins, t.draws, t.losses, t.points) == (1, 3, 2, 1, 0, 2.5)
    assert (t["1"], t["2"], t["3"]) == ("x", "½", "1 1")
    assert df.loc["D Oldbury"].points == 0.5 and df.loc["A Long"].points == 1.0
    assert df.loc["D Oldbury"]["1"] == "0 0"


def test_crosstable_two_point_scoring_where_the_file_uses_it(db: str) -> None:
    df = crosstable(db, event="open").set_index("player")
    assert list(df.index) == ["P Roozenburg", "W Huisman"]
    assert df.loc["P Roozenburg"].points == 3 and df.loc["W Huisman"].points == 1
    assert df.loc["P Roozenburg"]["2"] == "2 1"
    one = crosstable(db, event="open", scoring="1").set_index("player")
    assert one.loc["P Roozenburg"].points == 1.5


def test_cli_players_and_crosstable(db: str) -> None:
    from typer.testing import CliRunner

    from pdnkit.cli import app

    r = CliRunner().invoke(app, ["players", "alias", "M Tinsley", "MF Tinsley", "--as",
                                 "Marion Tinsley", "--db", db])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(app, ["stats", "crosstable", "--event", "Cup", "--db", db,
                                 "-f", "csv"])
    assert r.exit_code == 0, r.output
    # no rating tags: opp_rating and performance are empty
    assert r.output.splitlines()[1].startswith("1,Marion Tinsley,3,2,1,0,2.5,,,x,½,1 1")
    r = CliRunner().invoke(app, ["players", "alias", "X", "--as", "?", "--db", db])
    assert r.exit_code == 2 and "placeholder" in r.output


def test_a_players_own_name_among_the_aliases(tmp_path: Path) -> None:
    """``players alias A B --as A``: A needs no alias row (an alias A -> A made
    ``player_name(name)`` true for every name, unnamed games too, and ``players suggest``
    crashed on a NULL name)."""
    import duckdb

    from pdnkit.store import import_files

    f = tmp_path / "a.pdn"
    f.write_text('[White "A"]\n[Black "B"]\n[Result "1-0"]\n[GameType "20"]\n\n1. 32-28 1-0\n\n'
                 '[White "B"]\n[Black "A"]\n[Result "0-1"]\n[GameType "20"]\n\n1. 32-28 0-1\n\n'
                 '[Result "*"]\n[GameType "20"]\n\n1. 32-28 *\n', encoding="utf-8")
    db = str(tmp_path / "a.duckdb")
    import_files([f], db=db)
    assert alias(db, ["A", "B"], "A") == 2
    assert aliases(db)[["alias", "name"]].values.tolist() == [["B", "A"]]
    assert suggest(db).empty
    df = players(db).set_index("player")
    assert list(df.index) == ["A"] and df.loc["A"].games == 4
    con = duckdb.connect(db, read_only=True)
    named = con.execute("WITH s AS (SELECT white AS name FROM games) "
                        "SELECT count(*) FROM s WHERE player_name(name) IS NOT NULL").fetchall()
    con.close()
    assert named == [(2,)]  # the tagless game names no player


def test_suggest_reads_surname_particles(tmp_path: Path) -> None:
    """``Akker,van den,J.`` is likely ``Jeroen van den Akker`` (surname particles and the
    "Surname, particles, initials" form); a different particle is another surname."""
    from pdnkit.store import import_files

    names = [("Akker,van den,J.", "X Y"), ("Jeroen van den Akker", "X Y"),
             ("Akker, J. van den", "X Y"), ("J. Akker", "X Y"), ("Vries, H. de", "X Y"),
             ("Hans de Vries", "X Y")]
    f = tmp_path / "n.pdn"
    f.write_text("\n".join(f'[White "{w}"]\n[Black "{b}"]\n[Date "2001.01.01"]\n'
                           f'[GameType "20"]\n\n1. 32-28 *\n' for w, b in names),
                 encoding="utf-8")
    db = str(tmp_path / "n.duckdb")
    import_files([f], db=db)
    pairs = {frozenset(p) for p in suggest(db)[["name_a", "name_b"]].itertuples(index=False)}
    assert pairs == {frozenset(p) for p in [
        ("Akker,van den,J.", "Jeroen van den Akker"), ("Akker,van den,J.", "Akker, J. van den"),
        ("Akker, J. van den", "Jeroen van den Akker"), ("Vries, H. de", "Hans de Vries")]}


def test_alias_warns_of_a_name_in_no_game(db: str) -> None:
    n = alias(db, ["M Tinsley", "M Tinslye"], "Marion Tinsley")
    assert n == 2 and len(n.warnings) == 1 and "'M Tinslye' is in no game" in n.warnings[0]
    assert set(aliases(db)["alias"]) == {"M Tinsley", "M Tinslye"}  # recorded all the same
    assert alias(db, ["MF Tinsley"], "Marion Tinsley").warnings == ()
    from typer.testing import CliRunner

    from pdnkit.cli import app

    r = CliRunner().invoke(app, ["players", "alias", "Tinsly", "--as", "Marion Tinsley",
                                 "--db", db])
    assert r.exit_code == 0 and "1 name(s) -> Marion Tinsley" in r.output
    assert "warning: 'Tinsly' is in no game" in r.output


def test_alias_on_a_lake_is_refused(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pdnkit.cli import app
    from pdnkit.lake import import_lake

    f = tmp_path / "p.pdn"
    f.write_text('[White "M Tinsley"]\n[Black "D Oldbury"]\n[GameType "20"]\n\n1. 32-28 *\n',
                 encoding="utf-8")
    lake = tmp_path / "p.lake"
    import_lake([f], lake, engine="local")
    r = CliRunner().invoke(app, ["players", "alias", "M Tinsley", "--as", "Marion Tinsley",
                                 "--db", str(lake)])
    assert r.exit_code == 2, r.output
    assert "a lake is read-only for aliases" in r.output
