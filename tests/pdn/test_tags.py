"""The one tag mapping (pdnkit/pdn/tags.py): names real files use, the first of a repeated tag,
dates, PlyCount, and the standard tags convert writes."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from pdnkit.pdn import read_games
from pdnkit.pdn.reader import parse_game
from pdnkit.pdn.tags import TAG_NAMES, check_tags, game_tags, parse_date, standard_tags
from pdnkit.pdn.writer import write_game
from pdnkit.validation import validate
from pdnkit.validation.rewrite import convert
from tests.shared import ITALIAN, shared_path


def test_italian_names_fill_the_game_fields() -> None:
    t = game_tags(parse_game(ITALIAN))
    assert (t.white, t.black, t.result) == ("Rossi, M.", "Bianchi, L.", "1-0")
    assert (t.event, t.round, t.year, t.opening) == ("69° ASSOLUTO 1° TURNO", "1", 1990, "12")
    assert t.date is None and t.date_raw is None


def test_validate_reads_players_and_result_through_the_mapping() -> None:
    rep = next(validate(ITALIAN, variant="italian"))
    assert (rep.white, rep.black) == ("Rossi, M.", "Bianchi, L.")
    assert rep.result == "1-0" and rep.result_raw == "1-0"
    dutch = next(validate('[Wit "Sijbrands"][Zwart "Baljakin"][Uitslag "2-0"][GameType "20"]'
                          "\n1. 32-28 19-23 2-0"))
    assert (dutch.white, dutch.black, dutch.result_raw) == ("Sijbrands", "Baljakin", "2-0")


@pytest.mark.parametrize(("tags", "field", "value"), [
    ([("Wit", "A"), ("Zwart", "B")], "black", "B"),
    ([("Toernooi", "NK 2003"), ("Plaats", "Amsterdam")], "site", "Amsterdam"),
    ([("Datum", "17 april 2009")], "date", dt.date(2009, 4, 17)),
    ([("Belye", "Ivanov"), ("Chernye", "Petrov")], "black", "Petrov"),
    ([("Белые", "Иванов")], "white", "Иванов"),
    ([("WHITE ", "padded")], "white", "padded"),
    ([("White", ""), ("Bianco", "fallback")], "white", "fallback"),
    ([("White", "std"), ("Bianco", "alias")], "white", "std"),
    ([("P1", "first"), ("P2", "second"), ("Variant", "American/English")], "black", "first"),
    ([("P1", "first"), ("P2", "second"), ("GameType", "25")], "white", "first"),
    ([("P1", "a"), ("P1Elo", "1500"), ("Variant", "Russian")], "white_rating", 1500),
])
def test_mapping_names(tags: list[tuple[str, str]], field: str, value: object) -> None:
    assert getattr(game_tags(tags), field) == value


def test_every_mapped_name_is_unique() -> None:
    names = [n.lower() for ns in TAG_NAMES.values() for n in ns]
    assert len(names) == len(set(names))


@pytest.mark.parametrize(("text", "date", "year", "ok"), [
    ("25.11.2000", dt.date(2000, 11, 25), 2000, True),
    ("17 april 2009", dt.date(2009, 4, 17), 2009, True),
    ("2007/2008", None, 2007, True),
    ("1950.", None, 1950, True),
    ("2004.10.27 - 2004.11.01", dt.date(2004, 10, 27), 2004, True),
    ("1950.??.??", None, 1950, True),
    ("14-01-1996", dt.date(1996, 1, 14), 1996, True),
    ("????.??.??", None, None, True),
    ("", None, None, True),
    ("03.07.20", None, None, False),
    ("1990.13.45", None, 1990, False),
    ("the summer of 1987", None, 1987, False),
])
def test_parse_date(text: str, date: dt.date | None, year: int | None, ok: bool) -> None:
    assert parse_date(text) == (date, year, ok)


def _codes(text: str) -> list[str]:
    return [f.code for f in next(validate(text)).findings]


def test_bad_date_fires_only_for_what_is_no_date() -> None:
    ok = ("25.11.2000", "17 april 2009", "2007/2008", "1950.", "2004.10.27 - 2004.11.01")
    for d in ok:
        assert "bad-date" not in _codes(f'[GameType "20"][Date "{d}"] 1. 32-28 *'), d
    rep = next(validate('[GameType "20"][Event "x"]\n[Date "whenever 1987"] 1. 32-28 *'))
    [f] = [f for f in rep.findings if f.code == "bad-date"]
    assert f.severity.value == "info" and f.line == 2 and "whenever 1987" in f.message


def test_plycount_mismatch_is_a_warning() -> None:
    game = '[GameType "20"][PlyCount "{n}"]\n1. 32-28 19-23 2. 28x19 14x23 *'
    assert "plycount-mismatch" not in _codes(game.format(n=4))
    rep = next(validate(game.format(n=6)))
    [f] = [f for f in rep.findings if f.code == "plycount-mismatch"]
    assert f.severity.value == "warning" and f.details == {"plycount": 6, "moves": 4}
    assert rep.status == "warning"


DUPLICATE = """[Event "first event"]
[White "A"]
[Black "B"]
[Event "second event"]
[Result "2-0"]
[GameType "20"]

1. 32-28 2-0
"""


def test_repeated_tag_warns_and_the_first_wins_everywhere() -> None:
    rec = parse_game(DUPLICATE)
    [f] = check_tags(rec)
    assert (f.code, f.severity.value, f.line) == ("duplicate-tag", "warning", 4)
    assert f.details["kept"] == "first event" and f.details["ignored"] == "second event"
    rep = next(validate(DUPLICATE))
    assert "duplicate-tag" in rep.finding_codes()
    assert game_tags(rec).event == "first event"
    out = write_game(rec)
    assert out.count("[Event ") == 1 and '[Event "first event"]' in out


def test_writer_adds_standard_tags_and_short_gametype_keeping_the_originals() -> None:
    out = write_game(parse_game(ITALIAN), gametype="22,W,8,8,N2,1")
    head = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', out, re.MULTILINE))
    assert head["White"] == "Rossi, M." and head["Black"] == "Bianchi, L."
    assert head["Result"] == "1-0" and head["Event"] == "69° ASSOLUTO 1° TURNO"
    assert head["Round"] == "1" and head["Date"] == "1990.??.??"
    assert head["GameType"] == "22"
    for name in ("Bianco", "Nero", "Risultato", "Dati", "Anno", "Apertura"):
        assert name in head
    # a standard tag already present is written once, as written
    std = write_game(parse_game('[White "x"][Bianco "y"][GameType "22,W,8,8,N2,1"] *'),
                     gametype=22)
    assert std.count("[White ") == 1 and '[White "x"]' in std
    assert '[GameType "22,W,8,8,N2,1"]' in std and std.count("[GameType") == 1


def test_convert_writes_standard_tags_for_an_italian_file(tmp_path: Path) -> None:
    src = tmp_path / "it.pdn"
    src.write_text(ITALIAN, encoding="utf-8")
    convert([src], tmp_path / "out.pdn")
    [g] = list(read_games(tmp_path / "out.pdn"))
    assert g.tag("White") == "Rossi, M." and g.tag("Black") == "Bianchi, L."
    assert g.tag("Result") == "1-0" and g.tag("GameType") == "22"
    assert g.tag("Bianco") == "Rossi, M."
    assert [m.text for m in g.moves] == ["22-18", "11-15", "18x11"]


def test_standard_tags_of_a_standard_game_are_its_own() -> None:
    g = parse_game('[Event "e"][White "w"][Black "b"][Result "2-0"] 1. 32-28 2-0')
    assert standard_tags(g) == g.tags


def _player_values(path: Path) -> bool:
    """Whether a file names a player (non-empty) under any name the mapping knows."""
    names = {n.lower() for n in (*TAG_NAMES["white"], *TAG_NAMES["black"], "p1", "p2")}
    text = path.read_bytes().decode("utf-8", errors="replace")
    return any(m.group(1).strip().lower() in names and m.group(2).strip()
               for m in re.finditer(r'\[\s*([^\s"\]]+)\s+"([^"]*)"', text))


def test_real_files_players_through_the_mapping() -> None:
    root = shared_path("real")
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".pdn", ".txt"))
    assert files
    for path in files:
        recs = list(read_games(path))
        named = [game_tags(r) for r in recs]
        if _player_values(path):
            assert any(t.white or t.black for t in named), path
        for r, t in zip(recs, named, strict=True):
            raw = {k.strip().lower(): v.strip() for k, v in r.tags}
            if raw.get("white") or raw.get("p1"):
                assert t.white or t.black, (path, r.index)


@pytest.mark.parametrize(("tags", "hint"), [
    ([("Bianco", "Rossi"), ("Nero", "Verdi")], 22),  # FID's names: Italian draughts
    ([("Luogo", "Roma"), ("Turno", "3")], 22),
    ([("Nero", "Verdi")], 22),
    ([("Risultato", "1-0"), ("White", "Rossi")], None),  # an English player name: no hint
    ([("Bianco", "Rossi"), ("Black", "Verdi")], None),
    ([("Bianco", "Rossi"), ("Zwart", "Verdi")], None),  # the Dutch Black: not Italian
    ([("Apertura", "12"), ("Wit", "Rossi")], None),
    ([("Evento", "Torneo")], None),  # Portuguese and Brazilian files write Evento too
    ([("GameType", "20"), ("Bianco", "Rossi")], None),  # the GameType tag decides
    ([("Variant", "Russian"), ("Bianco", "Rossi")], 25),  # a Variant tag before the names
    ([], None),
])
def test_gametype_hint_from_italian_names(tags: list[tuple[str, str]], hint: int | None) -> None:
    from pdnkit.pdn.record import GameRecord
    from pdnkit.pdn.tags import gametype_hint

    assert gametype_hint(GameRecord(tags=tags)) == hint


def test_the_first_of_a_repeated_tag_wins_for_names_no_field_holds() -> None:
    # P1/P2 and their ratings fill no field of their own: the first occurrence counts too
    t = game_tags([("P1", "a"), ("P2", "b"), ("P1", "z"), ("P2Elo", "1500"), ("P2Elo", "99"),
                   ("Variant", "American/English")])
    assert (t.black, t.white, t.white_rating) == ("a", "b", 1500)
    t = game_tags([("p1", "a"), ("P1", "z"), ("P2", "b")])  # case does not matter
    assert (t.white, t.black) == ("a", "b")
    t = game_tags([("P1", ""), ("P1", "z"), ("P2", "b")])  # the first, even when empty
    assert (t.white, t.black) == (None, "b")
