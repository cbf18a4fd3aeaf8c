"""Every kind of copy and every decoy, from hand-written snippets imported for real: what is
grouped, as what, which record stands for each game, what is listed apart, and what a
ruling or an alias changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdnkit.store import connect, duplicates, import_files, rule_copies
from tests.copies_kit import by_location, movetext, random_line, record, statistics, write

LINE = random_line(7, 70)
TAGS = {"event": "NK 2003", "site": "Amsterdam", "date": "2003.03.15", "round": "5",
        "white": "Jansen, Gerard", "black": "Scholma, Auke"}


def imported(tmp_path: Path, *games: str, name: str = "g.pdn",
             encoding: str = "utf-8") -> Path:
    db = tmp_path / "g.duckdb"
    import_files([write(tmp_path / name, *games, encoding=encoding)], db=db)
    return db


def kinds(db: Path) -> dict[str, tuple[str | None, str | None]]:
    return by_location(db)


def test_identical_re_encoded_and_re_wrapped(tmp_path: Path) -> None:
    original = record(LINE, **{**TAGS, "white": "Абациев Н."})
    write(tmp_path / "a.pdn", original)
    wrapped = record(LINE, body=movetext(LINE, wrap=5), **{**TAGS, "white": "Абациев Н."})
    write(tmp_path / "b.pdn", wrapped, encoding="cp1251")
    db = tmp_path / "g.duckdb"
    import_files([tmp_path / "b.pdn", tmp_path / "a.pdn"], db=db)
    assert kinds(db) == {"a.pdn#1": (None, None), "b.pdn#1": ("a.pdn#1", "identical")}


@pytest.mark.parametrize("changes", [
    {"white": "G. Jansen", "black": "A. SCHOLMA"},          # names spelled otherwise
    {"white": "Gérard Jansen"},                             # an accent
    {"date": "2003.03.??"}, {"date": "15.03.2003"},        # another precision, format
    {"event": "Nederlands Kampioenschap 2003"},             # the event spelled otherwise
])
def test_the_same_game_with_other_tags(tmp_path: Path, changes: dict[str, str]) -> None:
    db = imported(tmp_path, record(LINE, **TAGS), record(LINE, **{**TAGS, **changes}))
    assert kinds(db)["g.pdn#2"] == ("g.pdn#1", "tags")


@pytest.mark.parametrize("body", [
    movetext(LINE, comments={3: "the book move", 20: "a mistake?"}),
    movetext(LINE, nags={10: "!", 11: "?!"}),
    movetext(LINE, nags={10: "$2"}),
    movetext(LINE, variations={12: "7. 33-28 (7. 34-29)"}),
])
def test_annotated_copies(tmp_path: Path, body: str) -> None:
    db = imported(tmp_path, record(LINE, **TAGS), record(LINE, body=body, **TAGS))
    assert kinds(db)["g.pdn#2"] == ("g.pdn#1", "annotated")


def test_a_truncated_copy_is_a_prefix_from_twenty_plies(tmp_path: Path) -> None:
    db = imported(tmp_path, record(LINE[:20], "*", **TAGS), record(LINE, **TAGS),
                  record(LINE[:19], "*", **TAGS))
    got = kinds(db)
    assert got["g.pdn#1"] == ("g.pdn#2", "prefix") and got["g.pdn#2"] == (None, None)
    assert got["g.pdn#3"] == (None, None)  # shorter than 20 plies: book moves, not a copy


def test_another_game_sharing_the_opening_is_not_a_copy(tmp_path: Path) -> None:
    """A decoy shares the first 30 plies; a truncated copy of the original (26 plies) starts
    both, and joins the one whose players it has."""
    decoy = random_line(99, 66, prefix=LINE[:30])
    other = {**TAGS, "white": "Wiersma, Harm", "black": "Clerc, Rob", "round": "6"}
    db = imported(tmp_path, record(LINE, **TAGS), record(decoy, **other),
                  record(LINE[:26], "*", **{**TAGS, "round": "?"}))
    got = kinds(db)
    assert got["g.pdn#2"] == (None, None)
    assert got["g.pdn#3"] == ("g.pdn#1", "prefix")


def test_the_same_players_in_another_round(tmp_path: Path) -> None:
    """The same players meet again (another round, another day) in the same opening: a
    truncated copy goes with the round it names; without round or day it could be either,
    so it stays a game of its own with a probable-copy finding naming both."""
    decoy = random_line(98, 64, prefix=LINE[:34])
    again = {**TAGS, "round": "9", "date": "2003.03.19"}
    db = imported(tmp_path, record(LINE, **TAGS), record(decoy, **again),
                  record(LINE[:28], "*", **TAGS),
                  record(LINE[:28], "*", **{**TAGS, "round": "?", "date": "2003.03.??"}))
    got = kinds(db)
    assert got["g.pdn#2"] == (None, None)
    assert got["g.pdn#3"] == ("g.pdn#1", "prefix")
    assert got["g.pdn#4"] == (None, None)
    found = connect(db, read_only=True).execute(
        "SELECT g.game_index, f.message FROM findings f JOIN games g USING (game_id) "
        "WHERE f.code = 'probable-copy' ORDER BY 1, 2").fetchall()
    assert [i for i, _ in found] == [3, 3] and "g.pdn#1" in found[0][1] + found[1][1]


def test_a_short_book_draw_of_other_players_is_another_game(tmp_path: Path) -> None:
    book = LINE[:44]  # a 22-move draw
    db = imported(tmp_path, record(book, "1-1", **TAGS),
                  record(book, "1-1", **{**TAGS, "white": "Wiersma, Harm", "date": "1987.05.02",
                                         "event": "NK 1987", "round": "2"}))
    assert kinds(db) == {"g.pdn#1": (None, None), "g.pdn#2": (None, None)}
    d = duplicates(db)
    assert list(d["relation"]) == ["same-moves"] and d.iloc[0]["games"] == 2


def test_identical_moves_with_other_results_are_two_games(tmp_path: Path) -> None:
    db = imported(tmp_path, record(LINE, "2-0", **TAGS), record(LINE, "0-2", **TAGS))
    assert kinds(db)["g.pdn#2"] == (None, None)


def test_records_without_moves(tmp_path: Path) -> None:
    """A record of the tags alone is a copy of another whose tags agree on the players, the
    date and the event or round (a short main line's rule); not of another round's."""
    db = imported(tmp_path, record([], "1-1", **TAGS), record([], "1-1", **TAGS),
                  record([], "1-1", **{**TAGS, "round": "6"}),
                  record([], "1-1", **{**TAGS, "date": "2003", "white": "G. JANSEN"}),
                  record([], "1-1", **{**TAGS, "event": "?", "round": "?"}))
    got = kinds(db)
    assert got["g.pdn#2"] == ("g.pdn#1", "identical") and got["g.pdn#3"] == (None, None)
    assert got["g.pdn#4"] == ("g.pdn#1", "tags")
    assert got["g.pdn#5"] == (None, None)  # the players and the date alone say too little


def test_probable_copies_count_twice_until_ruled(tmp_path: Path) -> None:
    """The same players, event, date and round with other moves: listed, with a finding,
    counted twice; ruled one game they count once, ruled two games the finding goes."""
    db = imported(tmp_path, record(LINE, **TAGS), record(random_line(5, 60), **TAGS))
    assert kinds(db)["g.pdn#2"] == (None, None)
    d = duplicates(db)
    assert list(d["relation"]) == ["probable"] and d.iloc[0]["kinds"].tolist() == [
        "probable-copy", "probable-copy"]
    assert statistics(db)["players"][0]["games"] == 2
    con = connect(db, read_only=True)
    assert con.execute("SELECT count(*) FROM findings WHERE code = 'probable-copy'"
                       ).fetchall() == [(2,)]
    con.close()
    result = rule_copies(db, "g.pdn#2", "g.pdn#1", "same")
    assert str(result).endswith("counted once, as " + str(tmp_path / "g.pdn") + "#1")
    assert kinds(db)["g.pdn#2"] == ("g.pdn#1", "ruled")
    assert statistics(db)["players"][0]["games"] == 1
    rule_copies(db, "g.pdn#1", "g.pdn#2", "different")
    assert kinds(db)["g.pdn#2"] == (None, None)
    assert duplicates(db).empty
    rule_copies(db, "g.pdn#1", "g.pdn#2", "forget")
    assert list(duplicates(db)["relation"]) == ["probable"]


def test_a_ruling_holds_when_the_file_is_loaded_again(tmp_path: Path) -> None:
    """A ruling names records by their file's content: it holds when the file is reloaded
    (new game ids) from another place."""
    db = imported(tmp_path, record(LINE, **TAGS), record(random_line(5, 60), **TAGS))
    rule_copies(db, "g.pdn#1", "g.pdn#2", "same")
    moved = tmp_path / "elsewhere" / "renamed.pdn"
    moved.parent.mkdir()
    (tmp_path / "g.pdn").rename(moved)
    import_files([moved], db=db, replace=True)  # its games deleted and loaded again
    assert kinds(db)["renamed.pdn#2"] == ("renamed.pdn#1", "ruled")


def test_an_alias_joins_what_the_names_kept_apart(tmp_path: Path) -> None:
    from pdnkit.stats import alias, unalias

    db = imported(tmp_path, record(LINE, **TAGS),
                  record(LINE, **{**TAGS, "white": "Jansen, P."}))
    assert kinds(db)["g.pdn#2"] == (None, None)  # Piet is not Gerard
    alias(db, ["Jansen, P."], "Jansen, Gerard")
    assert kinds(db)["g.pdn#2"] == ("g.pdn#1", "tags")
    unalias(db, ["Jansen, P."])
    assert kinds(db)["g.pdn#2"] == (None, None)


def test_the_canonical_record_wins_by_the_documented_order(tmp_path: Path) -> None:
    """Longest main line, then a real result, then most tags, then the smallest path and
    number (the fewest errors: tests/store/test_copy_rules.py), whichever file comes
    first."""
    db = tmp_path / "g.duckdb"
    write(tmp_path / "b.pdn", record(LINE, **TAGS))
    write(tmp_path / "a.pdn", record(LINE, "*", **TAGS),                 # no result
          record(LINE, **{k: v for k, v in TAGS.items() if k != "site"}))  # fewer tags
    write(tmp_path / "c.pdn", record(LINE, body=movetext(LINE, wrap=9), **TAGS))  # a later path
    import_files([tmp_path / "c.pdn", tmp_path / "a.pdn", tmp_path / "b.pdn"], db=db)
    got = kinds(db)
    assert got["b.pdn#1"] == (None, None)
    assert {got[f"a.pdn#{i}"][0] for i in (1, 2)} == {"b.pdn#1"}
    assert got["c.pdn#1"] == ("b.pdn#1", "identical")
    longer = LINE + random_line(7, 72)[70:]
    assert len(longer) == 72
    write(tmp_path / "d.pdn", record(longer, "*", **TAGS))
    import_files([tmp_path / "d.pdn"], db=db)  # a longer record, even without a result
    got = kinds(db)
    assert got["d.pdn#1"] == (None, None) and got["b.pdn#1"] == ("d.pdn#1", "prefix")
    assert got["c.pdn#1"] == ("d.pdn#1", "prefix")
