"""The tag scan shared by the readers of one game's tags (``pdnkit.pdn.tags``): a scan of
equal tags gives the same fields, a changed list is scanned again, and a reader that fills
players from ``P1``/``P2`` leaves the shared scan as it was."""

from __future__ import annotations

import datetime as dt

from pdnkit.pdn.record import GameRecord
from pdnkit.pdn.tags import check_tags, game_tags, parse_date, players, result_tag


def test_equal_tags_read_alike_and_a_changed_list_is_read_again() -> None:
    tags = [("White", "Sijbrands"), ("Black", "Baljakin"), ("Result", "2-0")]
    rec = GameRecord(tags=tags)
    assert players(rec) == ("Sijbrands", "Baljakin")
    assert result_tag(rec) == "2-0"
    tags[2] = ("Result", "0-2")  # the same list object, changed in place
    assert result_tag(rec) == "0-2"
    tags.append(("Uitslag", "1-1"))  # a later alias does not replace the standard name
    assert result_tag(rec) == "0-2"
    tags[0] = ("Wit", "Ligterink")
    assert players(rec) == ("Ligterink", "Baljakin")


def test_players_from_p1_p2_do_not_leak_into_the_next_reader() -> None:
    tags = [("P1", "a"), ("P2", "b"), ("Variant", "American/English")]
    rec = GameRecord(tags=tags)
    assert players(rec) == ("b", "a")  # Black moves first in English draughts
    assert game_tags(rec).white == "b"
    # the same tags read without the variant's first mover: P1 is White
    assert game_tags([("P1", "a"), ("P2", "b")]).white == "a"
    assert game_tags(rec).black == "a"
    assert check_tags(rec) == []


def test_alternating_games_keep_their_own_fields() -> None:
    one = GameRecord(tags=[("White", "x"), ("Date", "1990.01.02")])
    two = GameRecord(tags=[("White", "y"), ("Date", "summer")])
    for _ in range(3):
        assert game_tags(one).white == "x" and game_tags(one).year == 1990
        assert game_tags(two).white == "y" and not game_tags(two).date_ok
        assert [f.code for f in check_tags(two)] == ["bad-date"]
        assert check_tags(one) == []


def test_a_date_reads_the_same_each_time() -> None:
    want = {"25.11.2000": (dt.date(2000, 11, 25), 2000, True),
            "2004.10.27 - 2004.11.01": (dt.date(2004, 10, 27), 2004, True),
            "1950.??.??": (None, 1950, True),
            "03.07.20": (None, None, False)}
    for _ in range(3):  # in turns: a remembered reading never answers for another date
        for text, reading in want.items():
            assert parse_date(text) == reading, text
