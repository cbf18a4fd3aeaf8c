"""The share of real games whose opening is classified (``../shared/data/real``), with the
floors measured on these files and the reason of every game that is not.

Measured: English OCA (43), Dyke's examples (16) and the tab-separated game (1): every game a
ballot code; PlayStrategy exports (30, the first mover at the bottom of their squares, read
turned round: Black first, no longer mirrored): 29, the one left has a single ply (its first
move has a name, no ballot is one ply long); CheckerBoard's 11-man
ballots (2,400 FENs): all; the five problem collections (849 composed positions, no moves):
none, as none is a table position. Russian: Abatsiev's games (56, UTF-8 and CP1251) and the
lidraughts games (9): all.
"""

from __future__ import annotations

from collections import Counter

import pytest

from pdnkit.openings import check_opening_tag, classify_record, load_tables
from pdnkit.validation import validate
from tests.shared import shared_path


def classify_file(*parts: str) -> list:  # type: ignore[type-arg]
    path = shared_path("real", *parts)
    return [(rep, classify_record(rep)) for rep in validate(path, variant=parts[0])]


@pytest.mark.parametrize("name, games", [("OCA_2.0.pdn", 43), ("Principles of Strategy.pdn", 16),
                                         ("1.txt", 1)])
def test_english_games_from_the_start_all_get_a_ballot(name: str, games: int) -> None:
    out = classify_file("english", name)
    assert len(out) == games
    assert all(c.code and c.code.startswith("ACF ") for _, c in out)


def test_playstrategy_games_are_read_turned_round_not_mirrored() -> None:
    out = classify_file("english", "random_pdns.derived.pdn")
    assert len(out) == 30 and not any(c.mirrored for _, c in out)
    # the first game, 1. c3-d4 b6-c5 2. d4xb6 a7xc5, is 11-15 24-19 15x24 28x19
    assert (out[0][1].code, out[0][1].name) == ("ACF 129", "Old Faithful")
    missing = [(rep, c) for rep, c in out if not c.code]
    assert len(missing) == 1
    rep, c = missing[0]
    assert rep.replayed_plies == 1 and c.name == "Old Faithful"


def test_every_checkerboard_eleven_man_ballot_is_found() -> None:
    out = classify_file("english", "11_man_english.pdn")
    assert len(out) == 2400
    assert all(c.code and c.code.startswith("11-man ") and c.ply == 0 for _, c in out)
    assert len({c.code for _, c in out}) == 2400


@pytest.mark.parametrize("name", ["beginner.pdn", "bridges.pdn", "gem.pdn", "goulds.pdn",
                                  "lpc.pdn"])
def test_problem_positions_are_not_mistaken_for_openings(name: str) -> None:
    assert not any(c.classified for _, c in classify_file("english", name))


@pytest.mark.parametrize("name, games", [("abatsiev.pdn", 56), ("abatsiev.cp1251.pdn", 56),
                                         ("random_pdns.derived.pdn", 9)])
def test_russian_games_all_get_a_code(name: str, games: int) -> None:
    out = classify_file("russian", name)
    assert len(out) == games and all(c.code for _, c in out)


def test_abatsiev_opening_tags_against_the_moves() -> None:
    """Measured: 14 tags agree, 5 disagree (two 'Игра Филиппова' games open 1.ed4 dc5, the
    tables' line is 1.ed4 de5 2.ab4 hg5; 'Игра Бодянского' with 2.gh4 for 2.ed4; a 'Городская
    партия' and an 'Обратный перекрёсток' that do not reach the tables' positions), 11 name
    openings the tables do not have (Ленинградская, Перекрёсток, Безымянная ...) or a game
    too short; placeholder tags ('***', '????') make no claim."""
    book = load_tables("russian")
    verdicts = Counter()
    names = Counter()
    for rep, c in classify_file("russian", "abatsiev.pdn"):
        for t in check_opening_tag(rep.record.tags, c, book):
            verdicts[t.verdict] += 1
            if t.verdict == "disagrees":
                names[t.value] += 1
        if c.name:
            names["name:" + c.name] += 1
    assert verdicts == {"agrees": 14, "disagrees": 5, "unknown": 11}
    assert names["Игра Филиппова"] == 2 and names["name:Жертва Кукуева"] == 4


@pytest.mark.slow
def test_the_share_of_real_games_classified_through_the_import(tmp_path) -> None:
    """The shared English and Russian folders imported (``pdnkit import``, as a user does;
    ``1.txt`` is no ``*.pdn`` file): the share of games with a ballot or code. Measured:
    English 2,488 of 3,338 games: every one of the 2,400 11-man ballots (FEN starts), the
    OCA (43) and Dyke (16) games, 29 of the 30 PlayStrategy games (read with the colours
    swapped); not the 849 composed problem positions (beginner, bridges, gem, goulds, lpc),
    which are no opening, and not the one PlayStrategy game of a single ply (its move has a
    name, Old Faithful, but no ballot is one ply long). Russian: all 121."""
    import duckdb

    from pdnkit.store import import_files

    db = tmp_path / "real.duckdb"
    for variant in ("english", "russian"):
        import_files([shared_path("real", variant)], db=db, variant=variant)
    con = duckdb.connect(str(db))
    share = {v: (n, c) for v, n, c in con.execute(
        "SELECT variant, count(*), count(opening_code) FROM games GROUP BY 1").fetchall()}
    assert share == {"english": (3338, 2488), "russian": (121, 121)}
    missing = dict(con.execute(
        "SELECT regexp_extract(f.path, '[^/]+$'), count(*) FROM games g JOIN files f "
        "USING (file_id) WHERE g.opening_code IS NULL GROUP BY 1").fetchall())
    problems = ("beginner.pdn", "bridges.pdn", "gem.pdn", "goulds.pdn", "lpc.pdn")
    assert sum(missing.get(p, 0) for p in problems) == 849
    assert {k: v for k, v in missing.items() if k not in problems} == {
        "random_pdns.derived.pdn": 1}
    one = con.execute("SELECT replayed_plies, opening_name, opening_mirrored FROM games g "
                      "JOIN files f USING (file_id) WHERE g.opening_code IS NULL AND "
                      "f.path LIKE '%random_pdns%'").fetchall()
    assert one == [(1, "Old Faithful", False)]  # read turned round, not mirrored
