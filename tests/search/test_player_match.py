"""Players as people write them, over a database: ``players suggest`` proposes every spelling
of one player with its reason and confidence, and ``--player X --match`` selects the games of
every name :func:`pdnkit.pdn.names.same_player` accepts. Aliases stay the one identity: a
match selects games, it merges no rows.

The games (hand-written; each a draw, one per pair of names):

* ``Абациев Н.`` - ``Gérard`` (1973), ``Abatsiev N.`` - ``Gerard`` (1974),
  ``Abaciev, N.`` - ``H. Jansen`` (1975), ``Абдуллаев Н.`` - ``Gérard Jansen`` (1975);
* ``Tinsley, Marion`` - ``R. Tinsley`` (1950), ``M. Tinsley`` - ``Tinsley`` (1951).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pdnkit.errors import ArgumentError
from pdnkit.pdn.names import PARTICLES
from pdnkit.stats import players, results
from pdnkit.stats.filters import GameFilter, matching_names
from pdnkit.stats.identities import REASONS, alias, proposal, suggest

GAMES = [
    ("Абациев Н.", "Gérard", "1973"), ("Abatsiev N.", "Gerard", "1974"),
    ("Abaciev, N.", "H. Jansen", "1975"), ("Абдуллаев Н.", "Gérard Jansen", "1975"),
    ("Tinsley, Marion", "R. Tinsley", "1950"), ("M. Tinsley", "Tinsley", "1951"),
]


@pytest.fixture()
def db(tmp_path: Path) -> str:
    from pdnkit.store import import_files

    f = tmp_path / "names.pdn"
    f.write_text("\n".join(
        f'[White "{w}"]\n[Black "{b}"]\n[Date "{d}.??.??"]\n[Result "1/2-1/2"]\n'
        f'[GameType "20"]\n\n1. 32-28 1/2-1/2\n' for w, b, d in GAMES), encoding="utf-8")
    path = tmp_path / "names.duckdb"
    import_files([f], db=path)
    return str(path)


def _weight(*reasons: str) -> float:
    w = 1.0
    for r in reasons:
        w *= REASONS[r]
    return round(w, 2)


def test_suggest_proposes_every_spelling_with_its_reason(db: str) -> None:
    df = suggest(db)
    got = {frozenset((a, b)): (r, c) for a, b, r, c in
           df[["name_a", "name_b", "reason", "confidence"]].itertuples(index=False)}
    assert got[frozenset(("Gérard", "Gerard"))] == ("accents", _weight("accents"))
    assert got[frozenset(("Tinsley, Marion", "M. Tinsley"))] == (
        "order, initials", _weight("order", "initials"))
    assert got[frozenset(("Абациев Н.", "Abatsiev N."))] == (
        "transliteration", _weight("transliteration"))
    assert got[frozenset(("Abatsiev N.", "Abaciev, N."))][0] == "spelling"  # ISO 9: c
    # a surname alone may be either Tinsley: proposed, at half the weight of one
    assert got[frozenset(("M. Tinsley", "Tinsley"))] == (
        "surname only", round(_weight("surname only") / 2, 2))
    for other in (("Абациев Н.", "Абдуллаев Н."), ("Tinsley, Marion", "R. Tinsley"),
                  ("Gérard", "Gérard Jansen"), ("H. Jansen", "Gérard Jansen")):
        assert frozenset(other) not in got, other
    assert list(df["confidence"]) == sorted(df["confidence"], reverse=True)


def test_suggest_is_the_same_whatever_the_order_of_the_names() -> None:
    assert proposal("Gerard", "Gérard") == proposal("Gérard", "Gerard")
    assert proposal("M. Tinsley", "Tinsley, Marion") == proposal("Tinsley, Marion", "M. Tinsley")
    assert proposal("Heusdens, R.", "Heusdens,R.") == ("punctuation", _weight("punctuation"))
    assert proposal("TINSLEY, Marion", "Tinsley, Marion") == ("case", _weight("case"))
    assert proposal("Aleks. Schwarzman", "Alexander Schwarzman")[0] == "given name"


def test_years_apart_lower_the_confidence(tmp_path: Path) -> None:
    from pdnkit.store import import_files

    f = tmp_path / "y.pdn"
    f.write_text('[White "T. Sijbrands"]\n[Black "X Y"]\n[Date "1969.??.??"]\n[GameType "20"]\n'
                 '\n1. 32-28 *\n\n[White "Sijbrands,T."]\n[Black "X Y"]\n[Date "2003.??.??"]\n'
                 '[GameType "20"]\n\n1. 32-28 *\n', encoding="utf-8")
    db = tmp_path / "y.duckdb"
    import_files([f], db=db)
    row = suggest(db).iloc[0]
    assert (row["reason"], row["confidence"]) == ("order, years apart",
                                                  _weight("order", "years apart"))
    assert suggest(db, max_gap=40).iloc[0]["reason"] == "order"


def test_match_selects_every_spelling_of_the_player(db: str) -> None:
    match = GameFilter(player="Abatsiev", match=True)
    assert results(db, filter=match)["games"].sum() == 3
    assert results(db, player="Abatsiev")["games"].sum() == 1  # the substring alone
    assert results(db, filter=GameFilter(player="Tinsley, Marion", match=True))[
        "games"].sum() == 2  # M. Tinsley and Tinsley, never R. Tinsley as White
    assert results(db, filter=GameFilter(player="R. Tinsley", match=True))["games"].sum() == 2
    assert results(db, filter=GameFilter(player="Gerard", match=True))["games"].sum() == 2
    from pdnkit.store import connect

    con = connect(db, read_only=True)
    assert matching_names(con, "Abatsiev") == ["Abaciev, N.", "Abatsiev N.", "Абациев Н."]
    con.close()


def test_a_match_selects_games_and_aliases_stay_the_identity(db: str) -> None:
    rows = players(db, filter=GameFilter(player="Abatsiev", match=True))
    assert sorted(rows["player"]) == ["Abaciev, N.", "Abatsiev N.", "Абациев Н."]  # not merged
    alias(db, ["Абациев Н.", "Abaciev, N."], "Abatsiev N.")
    rows = players(db, filter=GameFilter(player="Абациев", match=True))
    assert rows[["player", "games"]].values.tolist() == [["Abatsiev N.", 3]]
    # a name that matches only through its alias's player is found too
    alias(db, ["Gerard"], "Gérard Jansen")
    assert results(db, filter=GameFilter(player="Jansen, G.", match=True))["games"].sum() == 2


def test_a_match_needs_the_database() -> None:
    with pytest.raises(ArgumentError, match="connection"):
        GameFilter(player="Tinsley", match=True).sql()
    assert GameFilter(player="Tinsley").sql()[0].startswith("(g.white ILIKE")


def test_cli_match_option(db: str) -> None:
    from pdnkit.cli import app

    runner = CliRunner()
    r = runner.invoke(app, ["stats", "results", "--db", db, "--player", "Abatsiev", "--match",
                            "-f", "csv"])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[1].startswith("international,3,")
    r = runner.invoke(app, ["players", "suggest", "--db", db, "-f", "csv"])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == ("name_a,name_b,reason,confidence,games_a,games_b,"
                                        "years_a,years_b")
    r = runner.invoke(app, ["search", "--db", db, "--pattern", "W28", "--player", "Gerard",
                            "--match", "-f", "csv"])
    assert r.exit_code == 0, r.output
    assert len(r.output.splitlines()) == 3  # the header and Gérard's and Gerard's games


def test_a_report_names_its_filters(db: str) -> None:
    from pdnkit.reports import report

    assert "All games in the database." in report("collection", db)
    text = report("collection", db, filter=GameFilter(player="Abatsiev", match=True))
    assert "Filters: player = Abatsiev, match = True." in text
    assert "Filters: player = Abatsiev." in report("collection", db, player="Abatsiev")


_SUR = st.text(alphabet="abdeiklmnoprstuvz", min_size=4, max_size=8).filter(
    lambda w: w not in PARTICLES)
_FIRST = st.sampled_from(["Anna", "Boris", "Cees", "Dirk", "Emil", "Frans", "Igor", "Karel"])


@settings(max_examples=25, deadline=None)
@given(_SUR, _FIRST, _FIRST, st.randoms(use_true_random=False))
def test_match_finds_every_spelling_of_one_player_and_no_other(
        sur: str, first: str, other: str, rnd: random.Random) -> None:
    """One player written the ways archives write a name, beside a namesake with another
    initial: ``matching_names`` of any one spelling is every spelling of the player (and the
    surname alone), never the namesake's."""
    if first[0] == other[0]:
        return
    s = sur.capitalize()
    own = [f"{first} {s}", f"{s}, {first[0]}.", f"{first[0]}. {s}", f"{s.upper()} {first}",
           f"{s} {first[0]}."]
    namesake = [f"{other} {s}", f"{s}, {other[0]}."]
    names = own + namesake + [s]
    rnd.shuffle(names)
    from pdnkit.store import connect

    con = connect(":memory:")
    con.executemany("INSERT INTO games (game_id, file_id, game_index, white, black) "
                    "VALUES (?, 1, ?, ?, 'X Y')", [(i, i, n) for i, n in enumerate(names)])
    for query in own:
        assert matching_names(con, query) == sorted([*own, s]), query
    assert set(matching_names(con, s)) == set(names)  # a surname alone: every namesake
    con.close()
